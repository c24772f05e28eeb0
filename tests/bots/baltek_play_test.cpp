// Issue 22: Baltek bots play football rather than pass. An *empty turn* is a Baltek turn with no action, the
// team ending it at once (`B/` or `R/` in a record): the rules allow it, but bots of levels 1 to 3 used to
// end 60% of their turns so, both sides for hundreds of turns in a row, the ball beside a footballer.
// Twenty seeded games between levels 1, 2 and 3 (level 3 capped at fewer playouts, so that the test stays
// short; every level decided by its playout cap, not the clock, so the games are the same on any machine).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "bots/bot.h"
#include "rules/baltek/baltek.h"

using namespace cinq;
using namespace std::chrono_literals;

namespace {

struct Tally {
  int turns[4] = {};  // by level
  int empty[4] = {};
  int longest_run = 0;  // empty turns in a row, both sides counted, over every game
  int runs_of_five = 0; // games with 5 empty turns in a row
};

bots::Settings test_level(int level, std::uint64_t seed) {
  bots::Settings s = bots::level_settings(level);
  if (level == 3) s.playouts = 1000;
  s.think = 10s;  // the playout cap decides
  s.hard_limit = 10s;
  s.seed = seed;
  return s;
}

// One game to 2 goals (or 200 turns), level `levels[0]` as Blue.
void play(int index, const int levels[2], Tally& tally, std::mutex& lock) {
  std::unique_ptr<State> s = std::make_unique<baltek::BaltekState>(2, 200);
  int turns[2] = {}, empty[2] = {}, run = 0, longest = 0;
  for (int turn = 0; !s->outcome().over(); ++turn) {
    const Side side = s->to_move();
    const bots::Turn t = bots::choose_turn(*s, test_level(levels[side], std::uint64_t(index) << 16 | turn));
    const bool is_empty = t.actions.size() == 1 && t.actions.front().is_end_turn();
    ++turns[side];
    empty[side] += is_empty;
    run = is_empty ? run + 1 : 0;
    longest = std::max(longest, run);
    for (Action a : t.actions) s->apply(a);
  }
  std::lock_guard guard(lock);
  for (Side side = 0; side < 2; ++side) {
    tally.turns[levels[side]] += turns[side];
    tally.empty[levels[side]] += empty[side];
  }
  tally.longest_run = std::max(tally.longest_run, longest);
  tally.runs_of_five += longest >= 5;
}

}  // namespace

TEST_CASE("Baltek bots of levels 1 to 3 seldom pass: under 10% empty turns, never 5 in a row") {
  // Pairs 1-2, 2-3, 3-1, ... with the sides swapped every other game; two games at a time.
  constexpr int kGames = 20;
  constexpr int kPairs[3][2] = {{1, 2}, {2, 3}, {3, 1}};
  Tally tally;
  std::mutex lock;
  std::atomic<int> next{0};
  auto worker = [&] {
    for (int i; (i = next.fetch_add(1)) < kGames;) {
      const int* pair = kPairs[i % 3];
      const int levels[2] = {pair[(i / 3) % 2], pair[1 - (i / 3) % 2]};
      play(i, levels, tally, lock);
    }
  };
  std::thread other(worker);
  worker();
  other.join();
  for (int level = 1; level <= 3; ++level) {
    CAPTURE(level);
    CAPTURE(tally.empty[level]);
    CAPTURE(tally.turns[level]);
    REQUIRE(tally.turns[level] > 0);
    CHECK(tally.empty[level] * 10 < tally.turns[level]);
  }
  CAPTURE(tally.longest_run);
  CHECK(tally.runs_of_five == 0);
}
