#include "tests/support/game_profile.h"

#include <stdexcept>
#include <string>

#include "rules/registry.h"

// Each game's game() and test profile, declared from the list of the games.
#define CINQ_GAME(id) \
  namespace cinq::id { \
  const Game& game(); \
  const test::GameProfile& test_profile(); \
  }
#include "rules/games.inc"
#undef CINQ_GAME

namespace cinq::test {

const GameProfile& profile(const Game& game) {
#define CINQ_GAME(id) \
  if (&game == &id::game()) return id::test_profile();
#include "rules/games.inc"
#undef CINQ_GAME
  throw std::logic_error("no test profile for " + std::string(game.name()));
}

}  // namespace cinq::test
