// What the tests that run every game need of Tablut (tests/support/game_profile.h).
#include "tests/support/game_profile.h"

namespace cinq::tablut {

const test::GameProfile& test_profile() {
  static const test::GameProfile kProfile = {
      .bot_games = 6,
      .bot_playouts = 150,
      .cvc_levels = {1, 0},
  };
  return kProfile;
}

}  // namespace cinq::tablut
