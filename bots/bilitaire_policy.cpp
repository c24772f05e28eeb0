// Bi-litaire's policy for the search (bots/policy.h, docs/rules/bilitaire.md). Measured before
// choosing: a uniform random playout from the start plays both rounds to the end in about 170 actions, at
// some 1,600 playouts a second, and every position has few legal actions (a handful of jumps, a few dozen
// slides), so the default policy (all legal actions, uniform random playouts to the end) serves as it is:
// no playout limit and no evaluation are needed. The game is named here so that policy_for lists it.
#include "bots/games.h"

namespace cinq::bots {

const Policy& bilitaire_policy() {
  static const Policy policy;
  return policy;
}

}  // namespace cinq::bots
