// Batik (docs/rules/batik.md): what code outside rules/batik may read of a position, for readers that need
// more than the contract (the bots' policy, bots/batik_policy.cpp): the pieces and their shapes (pieces.h),
// the frame, what each side may still drop and has lost, and the codes of drops (batik.h). A public header,
// unlike state.h: a policy reads a state through it, never by a cast.
#pragma once

#include <vector>

#include "rules/batik/batik.h"
#include "rules/batik/pieces.h"

namespace cinq::batik {

// What follows reads `state`, a state of Batik's (`state.game()` is batik::game()); frame_of is in batik.h.
// Whether the game is a match (match=on), not a single game.
bool is_match(const State& state);
// The pieces `side` may still drop in this game, as a bit mask over the set.
unsigned available_of(const State& state, Side side);
// The pieces `side` has lost for the rest of the match.
unsigned lost_of(const State& state, Side side);

}  // namespace cinq::batik
