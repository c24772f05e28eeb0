// What the tests that run every game need of Batik (tests/support/game_profile.h).
#include "tests/support/game_profile.h"

namespace cinq::batik {

const test::GameProfile& test_profile() {
  // Its drops are physics simulations (Box2D), slow: a few are enough to cover the view's fall frames, fewer
  // games for its bots, level 0 between bots; a room is stored as a match into its second game.
  static const test::GameProfile kProfile = {
      .patch_seeds = 1,
      .patch_actions = 12,
      .bot_games = 2,
      .bot_playouts = 40,
      .cvc_levels = {0, 0},
      .store_options = "match=on",
      .rounds_record = "batik/match-random.txt",
  };
  return kProfile;
}

}  // namespace cinq::batik
