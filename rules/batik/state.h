// Batik's state (docs/rules/batik.md): the resting poses of the pieces in the frame, the sets, and the
// match so far. Copies are cheap: the last fall (for the view) is shared, never changed.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "rules/batik/batik.h"

namespace cinq::batik {

class BatikState final : public State {
 public:
  explicit BatikState(bool match) : match_(match) {}

  std::unique_ptr<State> clone() const override { return std::make_unique<BatikState>(*this); }
  const Game& game() const override { return batik::game(); }
  Side to_move() const override { return to_move_; }
  bool mid_turn() const override { return false; }
  int round() const override { return game_; }
  std::optional<Outcome> round_result(int round) const override;

  void legal_actions(std::vector<Action>& out) const override;
  std::string action_text(Action a) const override;
  Result<Item> read_item(std::string_view text, const ItemContext& ctx) const override;
  void apply(Action a) override;

  Outcome outcome() const override { return outcome_; }

  Value view() const override;
  std::string ascii() const override;
  std::string fingerprint() const override;

  // --- looking inside
  bool match() const { return match_; }
  // The pieces `side` may still drop in this game, as a bit mask over the set.
  unsigned available(Side side) const;
  // The pieces `side` has lost for the rest of the match.
  unsigned lost(Side side) const { return lost_[static_cast<std::size_t>(side)]; }
  const std::vector<Body>& frame() const { return frame_; }
  const LastFall* last_fall() const { return last_fall_.get(); }
  // Test setup: puts `frame` in the frame as already dropped by its owners (see make_state).
  void set_frame(std::vector<Body> frame, Side to_move, std::array<unsigned, 2> lost);

 private:
  // Ends the current game of a match won by `winner` (the loser dropped `piece`) and starts the next one.
  void next_game(Side winner, int piece);
  // Ends the match or game if the side to move has nothing to drop.
  void check_exhausted();

  bool match_ = true;
  int game_ = 1;
  Side to_move_ = 0;
  std::array<unsigned, 2> lost_{};     // removed from each set for the rest of the match
  std::array<unsigned, 2> dropped_{};  // in the frame in this game
  std::vector<Body> frame_;            // resting poses, in drop order (the order the world is rebuilt in)
  std::vector<Side> game_winners_;     // the winner of each finished game of the match
  Outcome outcome_;
  std::shared_ptr<const LastFall> last_fall_;
};

// The canonical text of a drop: `TL~ 45 3.25`.
std::string drop_text(const Drop& d);
// The shortest decimal of a position in eighths: 0, 3.25, 2.125.
std::string eighths_text(int x);

}  // namespace cinq::batik
