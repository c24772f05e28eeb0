// Bi-litaire (docs/rules/bilitaire.md): what code outside rules/bilitaire may read of a position, for
// readers that need more than the contract (the bots' policy, bots/bilitaire_policy.cpp): the board
// (board.h), where the turn stands, the rounds' results and the codes of actions. A public header, unlike
// state.h: a policy reads a state through it, never by a cast.
#pragma once

#include <cstdint>
#include <vector>

#include "rules/bilitaire/bilitaire.h"
#include "rules/bilitaire/board.h"

namespace cinq::bilitaire {

constexpr Side kMarbleSide = 0;  // `M`
constexpr Side kTraySide = 1;    // `T`

// What an Action's code holds (bits 0..2), the fields above it depending on the kind.
enum class Kind : std::uint8_t { none, remove_marble, chain, push, remove_tray, announce };

struct Decoded {
  Kind kind = Kind::none;
  int hole = 0;           // remove_marble; chain: the start
  std::vector<int> path;  // chain: start hole, then every landing hole
  Push push;              // push
  int slot = 0;           // remove_tray
  int count = 0;          // announce: k
};

Action encode_remove_marble(int hole);
Action encode_chain(const std::vector<int>& path);
Action encode_push(const Push& p);
Action encode_remove_tray(int slot);
Action encode_announce(int k);
Decoded decode(Action a);

// What follows reads `state`, a state of Bi-litaire's (`state.game()` is bilitaire::game()).
const Board& board_of(const State& state);
// Where the turn stands.
Phase phase_of(const State& state);
// The marbles left at the end of round 1 or 2, -1 while that round goes on.
int left_after(const State& state, int round);

}  // namespace cinq::bilitaire
