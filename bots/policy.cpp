// The default playout policy (plain MCTS: every legal action, uniform random playouts to the end) and each
// game's own, keyed by its Game from the one list of the games (rules/games.inc).
#include <utility>
#include <vector>

#include "bots/policy.h"

// Each game's `game()` (rules/ID/) and its policy, `bots::ID_policy()` (bots/ID_policy.cpp).
#define CINQ_GAME(id) \
  namespace cinq::id { \
  const Game& game(); \
  } \
  namespace cinq::bots { \
  const Policy& id##_policy(); \
  }
#include "rules/games.inc"
#undef CINQ_GAME

namespace cinq::bots {

void Policy::candidates(const State& state, Rng& /*rng*/, std::vector<Action>& out) const {
  state.legal_actions(out);
}

Action Policy::playout_action(const State& state, Rng& rng) const {
  // One buffer per thread: a playout asks this thousands of times, and the server runs bots on threads.
  thread_local std::vector<Action> legal;
  legal.clear();
  state.legal_actions(legal);
  assert(!legal.empty());
  return legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
}

double Policy::evaluate(const State& /*state*/, int /*seat*/) const { return 0.5; }

const Policy& policy_for(const Game& game) {
  static const std::vector<std::pair<const Game*, const Policy*>> policies = {
#define CINQ_GAME(id) {&::cinq::id::game(), &id##_policy()},
#include "rules/games.inc"
#undef CINQ_GAME
  };
  for (const auto& [g, policy] : policies)
    if (g == &game) return *policy;
  static const Policy fallback;  // a game of no list (a test's)
  return fallback;
}

}  // namespace cinq::bots
