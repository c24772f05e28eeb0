// The Baltek, Batik and Tablut search policies (bots/baltek_policy.cpp, bots/batik_policy.cpp,
// bots/tablut_policy.cpp): what the tree considers and what playouts play are legal from positions reached
// by random play, position scores are fair to both seats and see the obvious, and a small search beats
// random play.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "bots/bot.h"
#include "bots/policy.h"
#include "rules/baltek/baltek.h"
#include "rules/registry.h"
#include "tests/bots/helpers.h"
#include "tests/rules/batik/helpers.h"
#include "tests/rules/tablut/helpers.h"

using namespace cinq;

namespace {

using test::random_position;

// The policy's candidates at `s`: not empty, all legal, no action twice.
void check_candidates(const bots::Policy& policy, const State& s, bots::Rng& rng) {
  std::vector<Action> out;
  policy.candidates(s, rng, out);
  REQUIRE_FALSE(out.empty());
  const auto legal = s.legal_actions();
  for (Action a : out)
    CHECK_MESSAGE(std::find(legal.begin(), legal.end(), a) != legal.end(), "not legal: ", s.action_text(a));
  std::vector<std::uint64_t> codes;
  for (Action a : out) codes.push_back(a.code);
  std::sort(codes.begin(), codes.end());
  CHECK(std::adjacent_find(codes.begin(), codes.end()) == codes.end());
}

// Plays a playout of the policy from `s`, checking every action, and checks the score where it stops.
void check_playout(const bots::Policy& policy, const State& start, bots::Rng& rng) {
  auto s = start.clone();
  for (int i = 0; i < policy.playout_limit() && !s->outcome().over(); ++i) {
    Action a = policy.playout_action(*s, rng);
    REQUIRE_MESSAGE(s->is_legal(a), "playout action ", i, " is not legal");
    s->apply(a);
  }
  const double blue = policy.evaluate(*s, 0), red = policy.evaluate(*s, 1);
  CHECK(blue >= 0);
  CHECK(blue <= 1);
  CHECK((blue + red) == doctest::Approx(1.0));
}

// From `count` positions reached by up to `max_actions` random actions under `options` (every `every`-th
// under `other` instead, when `every` is set): the policy's candidates and a playout, checked.
void check_random_positions(const bots::Policy& policy, const Game& game, std::string_view options,
                            std::string_view other, int every, int count, int max_actions, std::uint64_t seed) {
  std::mt19937_64 positions(seed);
  bots::Rng rng(seed + 1);
  for (int i = 0; i < count; ++i) {
    auto s = random_position(game, every > 0 && i % every == 0 ? other : options, positions,
                             static_cast<int>(positions() % static_cast<std::uint64_t>(max_actions)));
    CAPTURE(s->ascii());
    check_candidates(policy, *s, rng);
    check_playout(policy, *s, rng);
  }
}

// Level `level` capped at `playouts` against level 0 over `games` games, seats alternating: the bot's wins.
int wins_against_random(const Game& game, std::string_view options, int level, std::uint64_t playouts,
                        int games) {
  int wins = 0;
  for (int g = 0; g < games; ++g) {
    auto start = game.start(options);
    REQUIRE(start);
    std::unique_ptr<State> s = std::move(*start);
    const int bot = g % 2;
    for (int turn = 0; !s->outcome().over(); ++turn) {
      bots::Settings settings = bots::level_settings(s->to_move() == bot ? level : 0);
      settings.playouts = playouts;
      settings.seed = static_cast<std::uint64_t>(1000 * g + turn);
      for (Action a : bots::choose_turn(*s, settings).actions) {
        REQUIRE(s->is_legal(a));
        s->apply(a);
      }
    }
    wins += s->outcome().kind == Outcome::Kind::win && s->outcome().winner == bot;
  }
  return wins;
}

baltek::BaltekState baltek_board(std::string_view diagram, std::array<int, 2> score = {0, 0}) {
  auto s = baltek::BaltekState::from_ascii(diagram, 'B', 3, {true, true}, score);
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  return *s;
}

}  // namespace

TEST_CASE("Baltek policy: candidates and playouts are legal and scores fair from random positions") {
  check_random_positions(bots::policy_for(baltek::game()), baltek::game(), "turns=60", "", 0, 40, 150, 5);
}

TEST_CASE("Baltek policy: a shot on goal is the only thing worth considering when there is one") {
  // Blue's 3 holds the ball on k3, a shooting square.
  auto s = baltek_board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... ... ... .3. .1. ... 3.o #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)");
  bots::Rng rng(1);
  std::vector<Action> out;
  bots::policy_for(baltek::game()).candidates(s, rng, out);
  REQUIRE(out.size() == 1);
  CHECK(s.action_text(out[0]) == "@ #");
  CHECK(s.action_text(bots::policy_for(baltek::game()).playout_action(s, rng)) == "@ #");
}

TEST_CASE("Baltek policy: a goal ahead and a ball near the opponent's goal are good news") {
  const bots::Policy& policy = bots::policy_for(baltek::game());
  const char* kickoff = R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... 3.o ... .3. .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)";
  const double even = policy.evaluate(baltek_board(kickoff), 0);
  CHECK(even == doctest::Approx(0.5).epsilon(0.1));
  auto ahead = baltek_board(kickoff, {1, 0});
  CHECK(policy.evaluate(ahead, 0) > 0.7);
  CHECK(policy.evaluate(ahead, 1) < 0.3);
  // Blue's 3 has taken the ball up to j3 and Blue is to play.
  auto attacking = baltek_board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... ... ... .3. .1. 3.o ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)");
  CHECK(policy.evaluate(attacking, 0) > even + 0.2);
}

TEST_CASE("Batik policy: candidates and playouts are legal and scores fair from random positions") {
  check_random_positions(bots::policy_for(batik::game()), batik::game(), "", "match=off", 3, 12, 40, 7);
}

TEST_CASE("Batik policy: a frame full to the rim is bad news for the side to drop") {
  using batik::test::resting;
  std::vector<batik::Body> full;
  for (int column = 0; column < 4; ++column)
    for (int row = 0; row < 4; ++row)
      full.push_back(
          resting(row % 2 == 0 ? batik::test::kLight : batik::test::kDark, "SQ", 2 * column, 2 * row));
  // Eight squares each: both sides still hold every other piece.
  auto s = batik::make_state(false, batik::test::kLight, full);
  const bots::Policy& policy = bots::policy_for(batik::game());
  CHECK(policy.evaluate(*s, batik::test::kLight) < 0.3);
  CHECK((policy.evaluate(*s, batik::test::kLight) + policy.evaluate(*s, batik::test::kDark)) ==
        doctest::Approx(1.0));
  // The empty frame of a new match is even.
  auto start = batik::test::start();
  CHECK(policy.evaluate(*start, 0) == doctest::Approx(0.5).epsilon(0.15));
}

TEST_CASE("Batik policy: the drops the tree considers rest low, not on end or on their tips") {
  // The best-ranked drop of an empty frame lies flat on the floor.
  auto s = batik::test::start("match=off");
  bots::Rng rng(3);
  std::vector<Action> out;
  bots::policy_for(batik::game()).candidates(*s, rng, out);
  REQUIRE_FALSE(out.empty());
  s->apply(out.front());
  CHECK(batik::test::highest(batik::frame_of(*s)) <= 2.01);
}

TEST_CASE("Baltek and Batik: a small search beats random play clearly") {
  // Baltek with a turn limit so that a game cannot run on: a draw counts as a game not won.
  CHECK(wins_against_random(baltek::game(), "turns=200", 1, 100, 5) >= 4);
  CHECK(wins_against_random(batik::game(), "", 1, 20, 5) >= 4);
}

TEST_CASE("Tablut policy: candidates and playouts are legal and scores fair from random positions") {
  check_random_positions(bots::policy_for(tablut::game()), tablut::game(), "", "king=unarmed throne=plain", 4, 20, 60, 11);
}

TEST_CASE("Tablut policy: four whole walls across the corners leave the defenders a draw at best") {
  using tablut::test::board;
  using tablut::test::kD;
  const bots::Policy& policy = bots::policy_for(tablut::game());
  // c1 b2 a3, g1 h2 i3, c9 b8 a7, g9 h8 i7: no rook move crosses a wall, no defender reaches its pieces.
  auto sealed = board(R"(
  9   # . A . . . A . #
  8   . A . . . . . A .
  7   A . . . . . . . A
  6   . . . . D . . . .
  5   . . . . K D . . .
  4   . . . . D . . . .
  3   A . . . . . . . A
  2   . A . . . . . A .
  1   # . A . . . A . #
)", kD);
  // The same with a hole in one wall (a3 moved to b3): the king can run to a5, from where a1 is open.
  auto holed = board(R"(
  9   # . A . . . A . #
  8   . A . . . . . A .
  7   A . . . . . . . A
  6   . . . . D . . . .
  5   . . . . K D . . .
  4   . . . . D . . . .
  3   . A . . . . . . A
  2   . A . . . . . A .
  1   # . A . . . A . #
)", kD);
  CHECK(policy.evaluate(*sealed, tablut::test::kA) > 0.9);
  CHECK(policy.evaluate(*sealed, tablut::test::kA) > policy.evaluate(*holed, tablut::test::kA));
}

TEST_CASE("Tablut policy: a lane to a corner that no attacker can block is as good as won") {
  using tablut::test::board;
  using tablut::test::kA;
  const bots::Policy& policy = bots::policy_for(tablut::game());
  // The king on e1 has one lane, to a1 over b1 c1 d1 (f1 is its own). The attacker on c5 can stop on c1.
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
  // The attacker on h6 cannot stop on any square of the lane: the king escapes next move.
  auto unblockable = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . A .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . . . . . . . .
  1   # . . . K D . . #
)", kA);
  CHECK(policy.evaluate(*unblockable, tablut::test::kD) > 0.95);
  CHECK(policy.evaluate(*unblockable, tablut::test::kD) > policy.evaluate(*blockable, tablut::test::kD));
  // The attackers consider nothing but the block.
  bots::Rng rng(1);
  std::vector<Action> out;
  policy.candidates(*blockable, rng, out);
  REQUIRE(out.size() == 1);
  CHECK(blockable->action_text(out.front()) == "c5 c1");
}

TEST_CASE("Tablut policy: who blocks a lane: a walk stops at its row's end, and crosses the empty throne") {
  using tablut::test::board;
  using tablut::test::kA;
  using tablut::test::kD;
  const bots::Policy& policy = bots::policy_for(tablut::game());
  bots::Rng rng(1);
  std::vector<Action> out;
  // The king on a5 has one lane, to a1 over a4 a3 a2 (a7 closes the other). The attacker on i3 can stop on
  // a3 along its row ...
  auto blockable = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   D . . . . . . . .
  6   . . . . . . . . .
  5   K . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . A
  2   . . . . . . . D .
  1   # . . . . . . . #
)", kA);
  policy.candidates(*blockable, rng, out);
  REQUIRE(out.size() == 1);
  CHECK(blockable->action_text(out.front()) == "i3 a3");
  // ... but from i2, with the defender on h2, it reaches none: its row ends at i2, and a3 (the next square
  // in the board's order) is not a step away. The king escapes next move: the attackers' chances are a
  // fraction of theirs above.
  auto unblockable = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   D . . . . . . . .
  6   . . . . . . . . .
  5   K . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . . . . . . D A
  1   # . . . . . . . #
)", kA);
  CHECK(policy.evaluate(*unblockable, kD) > 0.95);
  CHECK(policy.evaluate(*blockable, kA) > 3 * policy.evaluate(*unblockable, kA));
  // The king on a3 has one lane, to a9 (a2 closes the other). The attacker on i5 stops on a5, passing over
  // the empty throne (docs/rules/tablut.md, Moves), and the attackers consider nothing else; the lane is as
  // blockable as with the attacker on i6, whose row is clear.
  auto over_throne = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . A
  4   . . . . . . . . .
  3   K . . . . . . . .
  2   D . . . . . . . .
  1   # . . . . . . . #
)", kA);
  auto clear_row = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . A
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   K . . . . . . . .
  2   D . . . . . . . .
  1   # . . . . . . . #
)", kA);
  CHECK(3 * policy.evaluate(*over_throne, kA) > policy.evaluate(*clear_row, kA));
  out.clear();
  policy.candidates(*over_throne, rng, out);
  REQUIRE(out.size() == 1);
  CHECK(over_throne->action_text(out.front()) == "i5 a5");
}

// The levels' slips (bots/policy.h): their strength is measured by bench/cinq_ladder; here, who slips, and
// that a slip never picks a move the search saw lose.
TEST_CASE("bots: who slips: Tablut's levels 1 and 2 (level 2 only defending), Batik's 1 to 4, no one else") {
  const bots::Policy& tablut = bots::policy_for(tablut::game());
  for (int level = 0; level <= bots::kMaxLevel; ++level) {
    CHECK((tablut.slip(level, 1).chance > 0) == (level == 1 || level == 2));  // the defenders
    CHECK((tablut.slip(level, 0).chance > 0) == (level == 1));                // the attackers
    for (int seat = 0; seat < 2; ++seat)
      CHECK((bots::policy_for(batik::game()).slip(level, seat).chance > 0) == (level >= 1 && level <= 4));
  }
  for (const Game* game : games())
    if (game->name() != "tablut" && game->name() != "batik")
      for (int level = 0; level <= bots::kMaxLevel; ++level)
        for (int seat = 0; seat < 2; ++seat) CHECK(bots::policy_for(*game).slip(level, seat).chance == 0);
}

TEST_CASE("Tablut bots: a slip never picks a move that loses the king at once") {
  using tablut::test::board;
  using tablut::test::kD;
  // The king on c6 has attackers on three sides, and a5 can close the fourth (c5): every move but the
  // king's own (down column c) loses it at once. The search sees those lose, and a slip never picks one.
  auto threatened = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . A . . . . . .
  6   . A K A . . . . .
  5   A . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . D .
  2   . . . . D . . . .
  1   # A . . . . A . #
)", kD);
  for (int level = 1; level <= 2; ++level)  // the levels that slip
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      bots::Settings settings = bots::level_settings(level);
      settings.seed = seed;
      settings.think = std::chrono::seconds(10);  // the playout cap decides
      auto s = threatened->clone();
      const bots::Turn turn = bots::choose_turn(*s, settings);
      for (Action a : turn.actions) s->apply(a);
      for (Action a : s->legal_actions()) {
        auto after = s->clone();
        after->apply(a);
        CHECK_MESSAGE(!after->outcome().over(), "level ", level, " seed ", seed, ": after ",
                      threatened->action_text(turn.actions.front()), ", ", s->action_text(a),
                      " ends the game");
      }
    }
}

TEST_CASE("Tablut bots: level 5's defenders play on where level 4's take a draw by repetition") {
  using tablut::test::board;
  using tablut::test::kA;
  using tablut::test::play;
  using tablut::test::result;
  // Two walls whole (a1's, i9's) and one piece of each other one: the defenders' evaluation is poor (about
  // 0.1), though they have the material and two open corners. The attacker e9 and the defender d6 shuttle
  // twice; d7 d6 then brings the first position back a third time.
  auto s = board(R"(
  9   # . . . A . A . #
  8   . A . . . . . A .
  7   . . . . . . . . A
  6   . . . D D D . . .
  5   . . . D K D . . .
  4   . . . D D D . . .
  3   A . . . . . . . .
  2   . A . . . . . A .
  1   # . A . . . . . #
)", kA);
  for (int cycle = 0; cycle < 2; ++cycle)
    for (const char* move : {"e9 d9", "d6 d7", "d9 e9", "d7 d6"})
      if (cycle == 0 || std::string_view(move) != "d7 d6") play(*s, move);
  const Action repeat = tablut::move("d7", "d6");
  {
    auto drawn = s->clone();
    drawn->apply(repeat);
    REQUIRE(result(*drawn) == "draw repetition");
  }
  const bots::Policy& policy = bots::policy_for(tablut::game());
  CHECK(policy.evaluate(*s, tablut::test::kD) < 0.2);
  for (int level : {4, 5}) {
    bots::Settings settings = bots::level_settings(level);
    settings.playouts = 6000;  // 20,000 of Tablut's playouts at level 4, 40,000 at level 5
    settings.think = settings.hard_limit = std::chrono::seconds(300);  // the cap decides
    const bots::Turn turn = bots::choose_turn(*s, settings);
    REQUIRE(turn.actions.size() == 1);
    const std::string played = s->action_text(turn.actions.front());
    CAPTURE(level);
    CAPTURE(played);
    CHECK((turn.actions.front() == repeat) == (level == 4));
  }
}

TEST_CASE("Tablut policy: a soldier the side to move can take counts against its side") {
  using tablut::test::board;
  using tablut::test::kD;
  const bots::Policy& policy = bots::policy_for(tablut::game());
  // The king is shut in on the edge by a7 a6 and a4 a3. The defender on f7 can reach f3 and take e3
  // against d3; the one on g7 cannot. Nothing else differs.
  auto take = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   A . . . . D . . .
  6   A . . . . . . . .
  5   K . . . + . . . .
  4   A . . . . . . . .
  3   A . . D A . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)", kD);
  auto none = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   A . . . . . D . .
  6   A . . . . . . . .
  5   K . . . + . . . .
  4   A . . . . . . . .
  3   A . . D A . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)", kD);
  CHECK(policy.evaluate(*take, kD) > policy.evaluate(*none, kD) + 0.03);
}
