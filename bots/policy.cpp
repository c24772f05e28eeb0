// The default playout policy (plain MCTS: every legal action, uniform random playouts to the end) and the
// explicit list of the games that have their own (bots/games.h), chosen by Game::name().
#include <string_view>

#include "bots/games.h"

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
  const std::string_view name = game.name();
  if (name == "tablut") return tablut_policy();
  if (name == "kopf-oder-knopf") return kopf_policy();
  if (name == "bi-litaire") return bilitaire_policy();
  if (name == "baltek") return baltek_policy();
  if (name == "batik") return batik_policy();
  static const Policy fallback;
  return fallback;
}

}  // namespace cinq::bots
