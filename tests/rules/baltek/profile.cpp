// What the tests that run every game need of Baltek (tests/support/game_profile.h).
#include "tests/support/game_profile.h"

namespace cinq::baltek {

const test::GameProfile& test_profile() {
  // Its bots play to its goals (the bounded options' turn limit makes draws of games a bot would win); a
  // game between bots has a turn limit (random play may go on for thousands of turns).
  static const test::GameProfile kProfile = {
      .bot_games = 6,
      .bot_playouts = 300,
      .cvc_options = "turns=60",
      .cvc_levels = {1, 0},
  };
  return kProfile;
}

}  // namespace cinq::baltek
