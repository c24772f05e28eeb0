// Baltek (docs/rules/baltek.md): what code outside rules/baltek may read of a position, for readers that
// need more than the contract (the bots' policy, bots/baltek_policy.cpp): the ball, the footballers and the
// goals, on the squares of baltek.h. A policy reads a state through these, never by a cast.
#pragma once

#include "rules/baltek/baltek.h"

namespace cinq::baltek {

// What follows reads `state`, a state of Baltek's (`state.game()` is baltek::game()).
// The ball's square.
Square ball_of(const State& state);
// The square of footballer `i` (of strength kStrength[i]) of `side`.
Square footballer_of(const State& state, Side side, int i);
// The goals `side` has scored.
int goals_of(const State& state, Side side);

}  // namespace cinq::baltek
