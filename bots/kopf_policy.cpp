// Kopf oder Knopf's policy for the search (bots/policy.h, docs/rules/kopf-oder-knopf.md). Random
// playouts end by themselves (about 100 actions) and are fast enough; what they miss is that a penalty
// removal is a free point: a random player skips most of them (one action among the penalties and all the
// moves). Playouts here take a penalty when one is on offer, most of the time.
#include "bots/policy.h"
#include "rules/kopf/view.h"

namespace cinq::kopf {
namespace {

constexpr double kPenaltyBias = 0.9;
// Playouts run to the end (about 100 actions): some 9,000 a second from the start, against Baltek's 20,000.
constexpr double kPlayoutCost = 2;

class KopfPolicy final : public bots::Policy {
 public:
  Action playout_action(const State& state, bots::Rng& rng) const override {
    thread_local std::vector<Action> legal, penalties;
    legal.clear();
    penalties.clear();
    state.legal_actions(legal);
    assert(!legal.empty());
    for (Action a : legal)
      if (!a.is_end_turn() && kind_of(a) == Kind::penalty) penalties.push_back(a);
    const auto& from =
        !penalties.empty() && std::bernoulli_distribution(kPenaltyBias)(rng) ? penalties : legal;
    return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
  }

  double playout_cost() const override { return kPlayoutCost; }
};

}  // namespace
}  // namespace cinq::kopf

namespace cinq::bots {

const Policy& kopf_policy() {
  static const kopf::KopfPolicy policy;
  return policy;
}

}  // namespace cinq::bots
