// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md): what code outside rules/kopf may read of its actions, for
// readers that need more than the contract (the bots' policy, bots/kopf_policy.cpp). A public header, unlike
// state.h: a policy reads through it, never by a cast.
#pragma once

#include <cstdint>

#include "rules/game.h"

namespace cinq::kopf {

// Action codes: kind << 16 | from << 8 | to.
enum class Kind : std::uint64_t { penalty = 1, move = 2, pass = 3 };

inline Action make_action(Kind kind, int from = 0, int to = 0) {
  return Action{static_cast<std::uint64_t>(kind) << 16 | static_cast<std::uint64_t>(from) << 8 |
                static_cast<std::uint64_t>(to)};
}
inline Kind kind_of(Action a) { return static_cast<Kind>(a.code >> 16); }
inline int from_of(Action a) { return static_cast<int>(a.code >> 8 & 0xff); }
inline int to_of(Action a) { return static_cast<int>(a.code & 0xff); }

}  // namespace cinq::kopf
