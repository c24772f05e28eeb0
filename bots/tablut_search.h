// Tablut's level 5 (bots/tablut_policy.cpp): an alpha-beta search instead of the tree. What the tests read
// of it: its evaluation.
#pragma once

#include "rules/game.h"

namespace cinq::bots {

// The alpha-beta search's value of an unfinished Tablut position for `seat` (1: the defenders), in [0, 1]:
// the tree's evaluation (Policy::evaluate) plus the defenders' room and the attackers' blockade (how many
// squares the defenders and the king can move to, whether a ring of attackers has shut the king off from
// every corner).
double tablut_search_value(const State& state, int seat);

}  // namespace cinq::bots
