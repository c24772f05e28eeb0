// The policies of the games that need their own (bots/policy.h): one function per game, each defined in its
// own file, so that policy_for (bots/policy.cpp) lists them explicitly, like rules/registry.cpp.
#pragma once

#include "bots/policy.h"

namespace cinq::bots {

const Policy& tablut_policy();           // bots/tablut_policy.cpp
const Policy& kopf_policy();             // bots/kopf_policy.cpp
const Policy& bilitaire_policy();        // bots/bilitaire_policy.cpp
const Policy& baltek_policy();           // bots/baltek_policy.cpp
const Policy& batik_policy();            // bots/batik_policy.cpp

}  // namespace cinq::bots
