// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md): one position, and the turn in its three steps.
//
// How the turn maps onto the contract (game.h): at the start of a turn the legal actions are the penalty
// removals plus the moves computed on the board after the strike that would follow no penalty (or `pass`,
// or `end_turn()` when that strike alone reaches the target). A penalty is applied with its strike at once
// and leaves the same side to move with its moves left (`mid_turn()`). A move, pass or end_turn at the start
// of a turn applies the strike first. The strike is never an action: `record_items` writes it as `x ...`
// and `read_item` checks it.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "rules/kopf/board.h"
#include "rules/kopf/view.h"

namespace cinq::kopf {

// The codes of actions (Kind, make_action, kind_of, from_of, to_of) are in view.h.

class KopfState final : public State {
 public:
  KopfState(const Game& game, std::shared_ptr<const Holes> holes, int target, Cells cells, Side to_move,
            std::array<int, 2> removed, bool opponent_passed);

  std::unique_ptr<State> clone() const override { return std::make_unique<KopfState>(*this); }
  const Game& game() const override { return *game_; }
  Side to_move() const override { return to_move_; }
  bool mid_turn() const override { return mid_turn_ && end_ == End::none; }

  void legal_actions(std::vector<Action>& out) const override;
  std::string action_text(Action a) const override;
  std::vector<std::string> record_items(Action a) const override;
  Result<Item> read_item(std::string_view text, const ItemContext& ctx) const override;
  void apply(Action a) override;

  Outcome outcome() const override;
  std::string score() const override;

  Value view() const override;
  std::string ascii() const override;
  std::string fingerprint() const override;

 private:
  enum class End { none, score, blocked };

  // The strike that follows no penalty, at the start of a turn.
  std::vector<int> pending_strike() const { return strike(cells_, *holes_, to_move_); }
  bool reaches_target(std::size_t more) const {
    return removed_[static_cast<std::size_t>(to_move_)] + static_cast<int>(more) >= target_;
  }
  // The board the move is chosen on: after the pending strike at the start of a turn, as it is mid-turn.
  Cells move_board() const;
  void remove(const std::vector<int>& squares);  // removes opposing buttons, counting them for the mover
  void finish_turn(bool passed);                 // after the move or pass: two passes in a row end the game

  Result<Item> read_strike(std::string_view text, const ItemContext& ctx) const;
  Result<Item> read_penalty(std::string_view text, const ItemContext& ctx) const;
  Result<Item> read_move(std::string_view text) const;
  // Non-empty when the strike that follows no penalty ends the game: no move or pass may be written.
  std::optional<Error> strike_ends_game(std::string_view item) const;

  const Game* game_;
  std::shared_ptr<const Holes> holes_;
  int target_;
  Cells cells_;
  Side to_move_;
  std::array<int, 2> removed_;
  bool opponent_passed_;  // the previous turn, the opponent's, was a pass
  // The penalty (and its strike) is made; the move is left. Stays set when that strike ends the game, so
  // that its annotation can still be read after the penalty.
  bool mid_turn_ = false;
  std::vector<int> after_penalty_;  // what the strike took right after this turn's penalty
  End end_ = End::none;
  Side winner_ = -1;
};

}  // namespace cinq::kopf
