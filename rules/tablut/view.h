// Tablut (docs/rules/tablut.md): what code outside rules/tablut may read of a position, for readers that need
// more than the contract (the bots' policy, bots/tablut_policy.cpp): the board core (board.h) and the codes
// of actions. A public header, unlike state.h: a policy reads a state through it, never by a cast.
#pragma once

#include <cstdint>

#include "rules/game.h"
#include "rules/tablut/board.h"

namespace cinq::tablut {

// An action is a move: `from | to << 8`. The captures follow from the position, so they are not coded.
inline Action encode(Move m) { return Action{std::uint64_t{m.from} | std::uint64_t{m.to} << 8}; }
inline Move decode(Action a) {
  return Move{static_cast<std::uint8_t>(a.code & 0xff), static_cast<std::uint8_t>((a.code >> 8) & 0xff)};
}

// The board of `state`, a state of Tablut's (`state.game()` is tablut::game()).
const Board& board_of(const State& state);

}  // namespace cinq::tablut
