// What the tests that run every game need of Bi-litaire (tests/support/game_profile.h).
#include "tests/support/game_profile.h"

namespace cinq::bilitaire {

const test::GameProfile& test_profile() {
  // Its level-1 search is slower: fewer games.
  static const test::GameProfile kProfile = {
      .bot_games = 4,
      .bot_playouts = 50,
      .cvc_levels = {1, 1},
      .rounds_record = "records/bi-litaire/sample-two-rounds.txt",
  };
  return kProfile;
}

}  // namespace cinq::bilitaire
