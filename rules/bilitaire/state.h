// Bi-litaire's state (docs/rules/bilitaire.md): the board, the round, and where the turn stands.
#pragma once

#include <string>
#include <vector>

#include "rules/bilitaire/bilitaire.h"
#include "rules/bilitaire/board.h"
#include "rules/bilitaire/view.h"

namespace cinq::bilitaire {

// The sides and the codes of actions (kMarbleSide, Kind, Decoded, encode_*, decode) are in view.h.

class BiState final : public State {
 public:
  BiState() = default;
  BiState(const Board& board, const Setup& setup);

  std::unique_ptr<State> clone() const override { return std::make_unique<BiState>(*this); }
  const Game& game() const override { return bilitaire::game(); }
  Side to_move() const override;
  bool mid_turn() const override { return phase_ == Phase::tray_done; }
  int round() const override { return round_; }

  void legal_actions(std::vector<Action>& out) const override;
  std::string action_text(Action a) const override;
  Result<Item> read_item(std::string_view text, const ItemContext& ctx) const override;
  void apply(Action a) override;

  Outcome outcome() const override;
  std::string score() const override;

  Value view() const override;
  std::string ascii() const override;
  std::string fingerprint() const override;

  const Board& board() const { return board_; }
  Phase phase() const { return phase_; }
  // The player (1 or 2) who holds role `side` in the current round.
  int player_of(Side side) const { return (round_ == 1) == (side == kMarbleSide) ? 1 : 2; }
  int seat_of(Side side) const override { return player_of(side) - 1; }
  // The marbles left at the end of round 1 or 2, -1 while that round goes on.
  int left_after(int round) const { return round == 1 ? round1_left_ : round2_left_; }

 private:
  // After the tray player's turn: the marble player jumps, or the round is over.
  void end_tray_turn();
  // read_item's halves, by the shape of the item.
  Result<Item> read_marble_item(const std::vector<std::string>& tokens) const;
  Result<Item> read_tray_item(const std::vector<std::string>& tokens) const;
  Result<Item> read_announcement(std::string_view token) const;

  Board board_ = Board::initial();
  int round_ = 1;
  Phase phase_ = Phase::first_removal;
  int announced_ = 0;     // Phase::marbles: the chain length announced, 0 for a single jump
  int longest_ = 0;       // Phase::tray_done: the longest chain on the board (what may be announced)
  int round1_left_ = -1;  // marbles left when round 1 ended
  int round2_left_ = -1;  // marbles left when round 2 ended
};

}  // namespace cinq::bilitaire
