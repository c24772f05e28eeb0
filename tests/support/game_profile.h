// What the tests that run every game of the registry need of each one, where the games differ (how long a
// random game may run, the options and levels of a bot match): each game's own, defined in its test folder
// (tests/rules/ID/profile.cpp, `cinq::ID::test_profile()`), found through the registry, so that no test keeps
// a list of the games.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "rules/game.h"

namespace cinq::test {

struct GameProfile {
  // tests/lobby/patch_test.cpp: how many seeds follow a random game, and for how many actions.
  int patch_seeds = 3;
  int patch_actions = 400;
  // tests/bots/bot_test.cpp: a match of level-1 searches against random play, to be won 80% of the time.
  std::string_view bot_options;
  int bot_games = 6;
  std::uint64_t bot_playouts = 100;
  // tests/server/bot_server_test.cpp: a computer-vs-computer game to its end, at these levels by seat.
  std::string_view cvc_options;
  std::array<int, 2> cvc_levels = {1, 1};
  // tests/persistence/store_test.cpp: a room upgraded from a version 2 file, in play with these options.
  std::string_view store_options;
  // tests/persistence/store_test.cpp: a record of several rounds or games, under tests/data/ (none: the game
  // has no rounds).
  std::string_view rounds_record;
};

// The profile of `game` (one of games()).
const GameProfile& profile(const Game& game);

}  // namespace cinq::test
