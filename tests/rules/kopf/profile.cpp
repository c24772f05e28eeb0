// What the tests that run every game need of Kopf oder Knopf (tests/support/game_profile.h).
#include "tests/support/game_profile.h"

namespace cinq::kopf {

const test::GameProfile& test_profile() {
  static const test::GameProfile kProfile = {
      .bot_options = "target=8",
      .bot_games = 6,
      .bot_playouts = 100,
      .cvc_levels = {0, 1},
  };
  return kProfile;
}

}  // namespace cinq::kopf
