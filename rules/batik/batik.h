// Batik (docs/rules/batik.md): a physical game of dropping pieces into a frame, simulated with Box2D.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "rules/batik/physics.h"
#include "rules/game.h"

namespace cinq::batik {

const Game& game();

// A drop, as packed into an Action code.
struct Drop {
  int piece = 0;  // index in the set (SQ = 0 ... PS = 8)
  bool flipped = false;
  int angle = 0;  // index: degrees / 15
  int x = 0;      // the bounding box's left side, in eighths of a unit
  friend bool operator==(const Drop&, const Drop&) = default;
};
Action encode(const Drop& d);
Drop decode(Action a);
// The piece index of an id ("TL"), or -1.
int piece_index(std::string_view id);

// The last drop's fall, kept for the view's animation (shared between copies of a state: never changed).
struct LastFall {
  int game = 1;  // the game of the match it was played in
  int side = 0;  // who dropped
  Drop drop;
  std::vector<Body> bodies;  // every piece as released (the dropped one last)
  Fall fall;
  bool overflow = false;
};

// A Batik state, for tests and tools that look inside (a `State` of this game is always one).
class BatikState;
const BatikState& as_batik(const State& s);
// A state with `frame` already resting in the frame (each piece dropped by its owner), `to_move` to drop,
// and in a match the pieces each side has lost (bit masks over the set): for tests that need a position
// drops cannot reach, like a piece already above the rim.
std::unique_ptr<State> make_state(bool match, Side to_move, std::vector<Body> frame,
                                  std::array<unsigned, 2> lost = {});
// The pieces in the frame, in the order they were dropped.
const std::vector<Body>& frame_of(const State& s);
// The last fall, or nullptr before the first drop.
const LastFall* last_fall_of(const State& s);

}  // namespace cinq::batik
