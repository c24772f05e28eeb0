// The strength levels of the bots (bots/bot.h): think time, playout cap and hard limit per level, and their
// adjustment to a game clock.
#include <algorithm>

#include "bots/bot.h"

namespace cinq::bots {

namespace {

using std::chrono::milliseconds;

struct Level {
  int think_ms;
  std::uint64_t playouts;
};

// Level 0 is random play; the others multiply the search by 3 to 12 per level. Level 1 searches a twelfth
// of level 2: with twice that, Bi-litaire's level 2 was not clearly above it (docs/performance.md, "Why the
// levels are what they are"). A level's playout cap (in Baltek's playouts, bots/bot.h) decides where it
// stops: on the 2-core reference machine most turns take half the think time or less, but Batik's level 5
// reaches it on many (its cap does not fit in 4 s), and so do Tablut's level 4 (attacking), which searches
// more than its cap (Policy::level_search), and level 5 (an alpha-beta search of 10 nodes a playout of the
// cap: Policy::own_turn). The think time stays as a bound for a loaded or slower
// machine (bench/cinq_ladder measures both: docs/performance.md, "Bots").
// Where more search alone does not make a level clearly stronger, the lower levels also slip (Policy::slip:
// Tablut's levels 1 and 2, Batik's 1 to 4).
constexpr Level kLevels[kMaxLevel + 1] = {
    {0, 0}, {100, 50}, {300, 600}, {1000, 4000}, {2000, 15000}, {4000, 50000},
};

constexpr milliseconds kMaxHardLimit{10000};
constexpr milliseconds kMinThink{50};

// Whatever the game, a turn never takes more than twice its think time plus a second (a Batik playout or
// the actions of a Baltek turn after the first may overrun the think time), and never more than 10 s.
milliseconds hard_limit_for(milliseconds think) {
  return std::min(think * 2 + milliseconds(1000), kMaxHardLimit);
}

}  // namespace

Settings level_settings(int level) {
  level = std::clamp(level, 0, kMaxLevel);
  Settings s;
  s.level = level;
  s.think = milliseconds(kLevels[level].think_ms);
  s.playouts = kLevels[level].playouts;
  s.hard_limit = hard_limit_for(s.think);
  return s;
}

Settings for_clock(Settings s, std::int64_t remaining_ms, std::int64_t increment_ms) {
  // A twentieth of the time left plus half the increment keeps the bot on the clock for a long game.
  const std::int64_t budget =
      std::max<std::int64_t>(0, remaining_ms) / 20 + std::max<std::int64_t>(0, increment_ms) / 2;
  const milliseconds think = std::max(kMinThink, std::min(s.think, milliseconds(budget)));
  s.think = think;
  // The hard limit shrinks with the clock too, but never below the think time plus a margin: the turn
  // is still returned at once when the search is cut short.
  const milliseconds clock_cap{std::max<std::int64_t>(remaining_ms / 4, 0)};
  s.hard_limit = std::min(s.hard_limit, hard_limit_for(think));
  s.hard_limit = std::max(std::min(s.hard_limit, clock_cap), think + milliseconds(100));
  return s;
}

std::string bot_name(int level) { return "Computer (level " + std::to_string(level) + ")"; }

}  // namespace cinq::bots
