// Tablut's level 5 (bots/tablut_policy.cpp, ab::Searcher): an alpha-beta search whose evaluation adds the
// defenders' room and the attackers' blockade to the tree's, and which answers the king's lanes exactly.
#include <doctest/doctest.h>

#include <time.h>

#include <chrono>
#include <string>

#include "bots/bot.h"
#include "bots/policy.h"
#include "bots/tablut_search.h"
#include "rules/registry.h"
#include "tests/rules/tablut/helpers.h"

using namespace cinq;
using tablut::test::board;
using tablut::test::kA;
using tablut::test::kD;

namespace {

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// Level 5's turn at `s`, held to `playouts` (its cap, in Baltek's playouts) rather than its clock.
std::string level5_move(const State& s, std::uint64_t playouts = 2000, std::uint64_t seed = 1) {
  bots::Settings settings = bots::level_settings(5);
  settings.playouts = playouts;
  settings.think = settings.hard_limit = std::chrono::seconds(300);  // the cap decides
  settings.seed = seed;
  const bots::Turn turn = bots::choose_turn(s, settings);
  REQUIRE(turn.actions.size() == 1);
  return s.action_text(turn.actions.front());
}

}  // namespace

TEST_CASE("Tablut search: a blockaded defence scores worse for the defenders than a free one") {
  // The same material, 12 attackers against 8 defenders and the king. Here the attackers ring the
  // defenders round the throne: no defender and not the king can move, no corner is left to the king.
  auto ringed = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . A A A . . .
  6   . . A D D D A . .
  5   . . A D K D A . .
  4   . . A D D D A . .
  3   . . . A A A . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)", kA);
  // Here they stand at the edges, as at the start: the defenders have room, the king reaches every corner.
  auto free = board(R"(
  9   # . . A A A . . #
  8   . . . . . . . . .
  7   . . . . D . . . .
  6   A . . . D . . . A
  5   A . D D K D D . A
  4   A . . . D . . . A
  3   . . . . D . . . .
  2   . . . . . . . . .
  1   # . . A A A . . #
)", kA);
  const bots::Policy& policy = bots::policy_for(tablut::game());
  CHECK(bots::tablut_search_value(*ringed, kD) < bots::tablut_search_value(*free, kD));
  CHECK(bots::tablut_search_value(*ringed, kD) < 0.2);
  // The room is what tells them apart beyond the tree's evaluation: the ring costs the defenders more here.
  CHECK(policy.evaluate(*ringed, kD) - bots::tablut_search_value(*ringed, kD) >
        policy.evaluate(*free, kD) - bots::tablut_search_value(*free, kD) + 0.1);
  CHECK((bots::tablut_search_value(*free, kA) + bots::tablut_search_value(*free, kD)) == doctest::Approx(1.0));
}

TEST_CASE("Tablut search: a line of attackers that cuts a corner off from the king counts for them") {
  // d9 c8 b7 a6 shut a9 off: no rook's walk crosses the diagonal. In the second, a6 stands on a5 and
  // leaves a7 open to the king.
  auto shut = board(R"(
  9   # . . A . . . . #
  8   . . A . . . . . .
  7   . A . . . . . . .
  6   A . . . . . . . .
  5   . . . . . . . . .
  4   . . . . . . . . .
  3   . . . . K . . . .
  2   . . . . . D . . .
  1   # . . . . . . . #
)", kA);
  auto holed = board(R"(
  9   # . . A . . . . #
  8   . . A . . . . . .
  7   . A . . . . . . .
  6   . . . . . . . . .
  5   A . . . . . . . .
  4   . . . . . . . . .
  3   . . . . K . . . .
  2   . . . . . D . . .
  1   # . . . . . . . #
)", kA);
  CHECK(bots::tablut_search_value(*shut, kD) < bots::tablut_search_value(*holed, kD));
}

TEST_CASE("Tablut search: level 5 takes a corner open to the king, and runs to a square with two lanes") {
  // The king on e1 has an open lane to a1: the win in one.
  auto lane = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . A . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . . . . . . A .
  1   # . . . K D . . #
)", kD);
  CHECK(level5_move(*lane) == "e1 a1");
  // The king on the throne can run to e9, from where a9 and i9 are both open and no attacker can stop on
  // either lane: a win in two (one attackers' move between).
  auto fork = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   A . . D K D . . A
  4   . . . . D . . . .
  3   . . . . . . . . .
  2   . . . . . . . . .
  1   # . . A A A . . #
)", kD);
  CHECK(level5_move(*fork) == "e5 e9");
}

TEST_CASE("Tablut search: level 5's attackers block an open lane and take the king when they can") {
  // The king on e1 has one lane, to a1; only c5 can stop on it (c1).
  auto blockable = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . A . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . . . . . . . .
  1   # . . . K D . . #
)", kA);
  CHECK(level5_move(*blockable) == "c5 c1");
  // The king on d6 has attackers on c6, d7 and e6; d4 to d5 closes the fourth side.
  auto capture = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . A . . . . .
  6   . . A K A . . . .
  5   . . . . + . . . .
  4   . . . A . . . . .
  3   . . . . . . . D .
  2   . . . . . . . . .
  1   # . . . . . . . #
)", kA);
  CHECK(level5_move(*capture) == "d4 d5 x d6");
}

TEST_CASE("Tablut search: level 5 held to its cap repeats its turn, and held to its clock keeps it") {
  auto s = tablut::test::start();
  CHECK(level5_move(*s, 500, 7) == level5_move(*s, 500, 7));
  bots::Settings settings = bots::level_settings(5);
  settings.playouts = 0;  // the clock alone
  settings.think = std::chrono::milliseconds(300);
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = thread_cpu_ms();
  const bots::Turn turn = bots::choose_turn(*s, settings);
  const double cpu = thread_cpu_ms() - cpu0;
  const auto wall = std::chrono::steady_clock::now() - t0;
  REQUIRE(turn.actions.size() == 1);
  CHECK(s->is_legal(turn.actions.front()));
  CHECK(turn.playouts > 0);  // nodes searched
  // Its think time on the thread's CPU clock, which a wait for a core on a loaded machine does not count (the
  // wall clock, which does, is only bounded loosely: the suite runs beside other tests).
  CHECK(cpu < 400);
  CHECK(wall < std::chrono::seconds(5));
  CHECK(turn.value >= 0);
  CHECK(turn.value <= 1);
}
