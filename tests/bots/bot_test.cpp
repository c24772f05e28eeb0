// The bots (bots/bot.h) over every game through policy_for: whole legal turns within the time limits, from
// positions reached by random play; level 0; the hard limit and cancel; determinism under a playout cap; a
// small search beats random play; the levels; and `cinq selfplay` through the real binary.
#include "bots/bot.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <random>

#include "bots/policy.h"
#include "rules/notation.h"
#include "rules/registry.h"
#include "tests/bots/helpers.h"
#include "tests/support.h"
#include "tests/support/game_profile.h"
#include "tests/support/process.h"

using namespace cinq;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

using test::start_of;

// A position reached by up to `actions` random actions under the game's bounded options, never over.
std::unique_ptr<State> random_position(const Game& game, std::mt19937_64& rng, int actions) {
  return test::random_position(game, game.bounded_options(), rng, actions);
}

// Applies `turn` to a copy of `state`: every action legal at its step, by the same seat, and the turn over
// at the end (the seat no longer mid-turn, or the game over).
void check_whole_legal_turn(const State& state, const bots::Turn& turn) {
  REQUIRE_FALSE(turn.actions.empty());
  auto s = state.clone();
  const int seat = s->seat_of(s->to_move());
  for (std::size_t i = 0; i < turn.actions.size(); ++i) {
    REQUIRE_MESSAGE(!s->outcome().over(), "action " << i << " comes after the end of the game");
    REQUIRE_MESSAGE(s->is_legal(turn.actions[i]), "action " << i << " is not legal at its step");
    if (i > 0) {
      CHECK_MESSAGE(s->mid_turn(), "action " << i << " starts a new turn");
      CHECK(s->seat_of(s->to_move()) == seat);
    }
    s->apply(turn.actions[i]);
  }
  CHECK_MESSAGE((s->outcome().over() || !s->mid_turn()), "the turn is left open");
}

bots::Settings small_level(std::uint64_t playouts) {
  bots::Settings s = bots::level_settings(1);
  s.think = 10s;  // the playout cap decides
  s.playouts = playouts;
  s.hard_limit = 10s;
  return s;
}

// The points of a bot with `playouts` against random play over `games` games, seats alternating.
double score_against_random(const Game& game, std::string_view options, int games, std::uint64_t playouts) {
  double points = 0;
  bots::Settings bot = small_level(playouts);
  const bots::Settings random = bots::level_settings(0);
  for (int g = 0; g < games; ++g) {
    const int bot_seat = g % 2;
    std::unique_ptr<State> s = start_of(game, options);
    for (int turns = 0; !s->outcome().over() && turns < 400; ++turns) {
      bots::Settings settings = s->seat_of(s->to_move()) == bot_seat ? bot : random;
      settings.seed = static_cast<std::uint64_t>(g * 1000 + turns);
      for (Action a : bots::choose_turn(*s, settings).actions) s->apply(a);
    }
    const Outcome o = s->outcome();
    points += o.kind == Outcome::Kind::win ? (o.winner == bot_seat ? 1.0 : 0.0) : 0.5;
  }
  return points;
}

}  // namespace

TEST_CASE("bots: a small level plays a whole legal turn in time from random positions of every game") {
  for (const Game* g : games()) {
    SUBCASE(g->name().data()) {
      std::mt19937_64 rng(11);
      bots::Settings settings = bots::level_settings(1);
      settings.think = 20ms;
      settings.playouts = 40;
      settings.hard_limit = 300ms;
      for (int i = 0; i < 20; ++i) {
        auto state = random_position(*g, rng, static_cast<int>(rng() % 150));
        settings.seed = rng();
        const auto t0 = Clock::now();
        const bots::Turn turn = bots::choose_turn(*state, settings);
        const auto elapsed = Clock::now() - t0;
        check_whole_legal_turn(*state, turn);
        CHECK(elapsed < 1s);  // 300 ms hard limit, with slack for a loaded machine
      }
    }
  }
}

TEST_CASE("bots: level 0 plays a whole random legal turn at once in every game") {
  for (const Game* g : games()) {
    SUBCASE(g->name().data()) {
      std::mt19937_64 rng(12);
      bots::Settings settings = bots::level_settings(0);
      for (int i = 0; i < 20; ++i) {
        auto state = random_position(*g, rng, static_cast<int>(rng() % 150));
        settings.seed = rng();
        const bots::Turn turn = bots::choose_turn(*state, settings);
        check_whole_legal_turn(*state, turn);
        CHECK(turn.playouts == 0);
      }
    }
  }
}

TEST_CASE("bots: the hard limit cuts a long think short, and the turn is still whole and legal") {
  for (const Game* g : games()) {
    SUBCASE(g->name().data()) {
      std::mt19937_64 rng(13);
      auto state = random_position(*g, rng, 20);
      bots::Settings settings = bots::level_settings(3);
      settings.think = 5s;
      settings.playouts = 0;
      settings.hard_limit = 300ms;
      const auto t0 = Clock::now();
      const bots::Turn turn = bots::choose_turn(*state, settings);
      const auto elapsed = Clock::now() - t0;
      check_whole_legal_turn(*state, turn);
      CHECK(turn.hit_hard_limit);
      CHECK(elapsed < 1s);
    }
  }
}

TEST_CASE("bots: a cancelled search still returns a whole legal turn, at once") {
  for (const Game* g : games()) {
    SUBCASE(g->name().data()) {
      std::mt19937_64 rng(14);
      auto state = random_position(*g, rng, 30);
      const std::atomic<bool> cancel{true};
      const auto t0 = Clock::now();
      const bots::Turn turn = bots::choose_turn(*state, bots::level_settings(5), &cancel);
      check_whole_legal_turn(*state, turn);
      CHECK(turn.playouts == 0);
      CHECK(Clock::now() - t0 < 500ms);
    }
  }
}

TEST_CASE("bots: the same seed, state and playout cap give the same turn") {
  for (const Game* g : games()) {
    SUBCASE(g->name().data()) {
      std::mt19937_64 rng(15);
      auto state = random_position(*g, rng, 25);
      bots::Settings settings = small_level(150);
      settings.seed = 77;
      const bots::Turn a = bots::choose_turn(*state, settings);
      const bots::Turn b = bots::choose_turn(*state, settings);
      CHECK(a.actions == b.actions);
      CHECK(a.playouts == b.playouts);
      // The cap counts playouts of the cheapest games: a game whose playouts cost more runs fewer.
      CHECK(a.playouts >= static_cast<std::uint64_t>(150 / bots::policy_for(*g).playout_cost()));
    }
  }
}

TEST_CASE("bots: Tablut's large searches make a node's children as they open them, and still repeat a turn") {
  // Tablut has 60 to 100 moves a position; making every one a node at once filled the tree (its 2M nodes)
  // long before level 5's playouts were spent, and the tree stopped growing (Policy::lazy_children).
  const Game& tablut = *find_game("tablut");
  for (int plies : {0, 20}) {
    CAPTURE(plies);
    std::mt19937_64 rng(16 + static_cast<unsigned>(plies));
    auto state = random_position(tablut, rng, plies);
    bots::Settings settings = small_level(12'000);  // 40,000 of Tablut's playouts, as many as level 4's
    settings.think = settings.hard_limit = 300s;     // the cap decides, even under a sanitizer, when busy
    settings.seed = 78;
    const bots::Turn a = bots::choose_turn(*state, settings);
    const bots::Turn b = bots::choose_turn(*state, settings);
    check_whole_legal_turn(*state, a);
    CHECK(a.actions == b.actions);
    CHECK(a.nodes == b.nodes);
    CHECK(a.playouts >= 40'000);
    CHECK(a.nodes < 4 * a.playouts);  // some 2 nodes a playout; every candidate made at once: some 20
    // A smaller search (up to level 3's) makes them all at once, as before, and plays the turns it played.
    const bots::Turn small = bots::choose_turn(*state, small_level(600));
    CHECK(small.nodes > 8 * small.playouts);
  }
}

TEST_CASE("bots: Tablut's levels 4 and 5 search more than their caps, every other level as much") {
  // With the common caps, each scored about 60 % against the level below (docs/performance.md).
  const Game& tablut = *find_game("tablut");
  std::mt19937_64 rng(17);
  auto state = random_position(tablut, rng, 1);  // the defenders (seat 1) to move
  REQUIRE(state->seat_of(state->to_move()) == 1);
  const bots::Policy& policy = bots::policy_for(tablut);
  for (int level : {3, 4}) {
    CAPTURE(level);
    bots::Settings settings = bots::level_settings(level);
    settings.think = settings.hard_limit = 300s;  // the cap decides, even under a sanitizer
    const bots::Turn turn = bots::choose_turn(*state, settings);
    check_whole_legal_turn(*state, turn);
    // 4,000 and 15,000 of Baltek's playouts, once each for the defenders, over Tablut's cost of 0.3.
    CHECK(turn.playouts == (level == 3 ? 13'333u : 50'000u));
    CHECK(static_cast<double>(turn.playouts) ==
          doctest::Approx(static_cast<double>(settings.playouts) * policy.level_search(level, 1) /
                          policy.playout_cost())
              .epsilon(1e-4));
  }
  CHECK(policy.level_search(4, 0) == 3);  // level 4's attackers
  CHECK(policy.level_search(5, 0) == 2);
  CHECK(policy.level_search(5, 1) == 2);
  for (const Game* game : games())
    for (int level = 0; level <= bots::kMaxLevel; ++level)
      for (int seat = 0; seat < 2; ++seat)
        if (game->name() != "tablut" || level < 4 || (level == 4 && seat == 1))
          CHECK(bots::policy_for(*game).level_search(level, seat) == 1);
}

TEST_CASE("bots: only Tablut's level 5 defenders value a draw below half") {
  const bots::Policy& tablut = bots::policy_for(*find_game("tablut"));
  CHECK(tablut.draw_reward(5, 1) < 0.1);  // the defenders' seat
  CHECK(tablut.draw_reward(5, 0) == 0.5);
  for (const Game* game : games())
    for (int level = 0; level <= bots::kMaxLevel; ++level)
      for (int seat = 0; seat < 2; ++seat)
        if (game->name() != "tablut" || level < 5 || seat == 0)
          CHECK(bots::policy_for(*game).draw_reward(level, seat) == 0.5);
}

TEST_CASE("bots: a small search beats random play clearly in every game") {
  // Each game's options, number of games and playouts are its test profile's (a game whose playouts are slow
  // plays fewer).
  for (const Game* g : games()) {
    SUBCASE(std::string(g->name()).c_str()) {
      const test::GameProfile& m = test::profile(*g);
      const double points = score_against_random(*g, m.bot_options, m.bot_games, m.bot_playouts);
      CHECK_MESSAGE(points >= 0.8 * m.bot_games, g->name() << ": " << points << " / " << m.bot_games);
    }
  }
}

TEST_CASE("bots: levels grow in strength, stay under 10 s, and shrink with the clock") {
  for (int level = 1; level <= bots::kMaxLevel; ++level) {
    const bots::Settings lower = bots::level_settings(level - 1), s = bots::level_settings(level);
    CHECK(s.level == level);
    CHECK(s.think > lower.think);
    CHECK(s.playouts > lower.playouts);
    CHECK(s.hard_limit > s.think);
    CHECK(s.hard_limit <= 10s);
  }
  const bots::Settings strong = bots::level_settings(5);
  CHECK(bots::for_clock(strong, 600'000, 0).think == strong.think);  // ten minutes: the level's own time
  CHECK(bots::for_clock(strong, 20'000, 0).think == 1s);             // a twentieth of what is left
  CHECK(bots::for_clock(strong, 20'000, 2'000).think == 2s);         // plus half the increment
  const bots::Settings hurried = bots::for_clock(strong, 500, 0);
  CHECK(hurried.think == 50ms);  // the floor
  CHECK(hurried.hard_limit > hurried.think);
  CHECK(hurried.hard_limit < 500ms);
}

TEST_CASE("bots: a bot's name is a valid player name in a record of every game") {
  for (const Game* g : games()) {
    Record r = Record::start(*g, *Options::parse_text(g->option_specs(), ""));
    r.add_players({{g->side_letter(0), bots::bot_name(3)}, {g->side_letter(1), bots::bot_name(0)}});
    auto back = Record::read(r.write());
    REQUIRE_MESSAGE(back, g->name() << ": " << back.error().text());
    CHECK(back->player(g->side_letter(0)) == "Computer (level 3)");
    CHECK(back->player(g->side_letter(1)) == "Computer (level 0)");
  }
}

TEST_CASE("cinq selfplay writes one record per game that cinq replay accepts, and scores the levels") {
  test::TempDir dir;
  const test::Run run = test::run_cinq(
      "selfplay kopf-oder-knopf 3 --level 1 --versus 0 --playouts 30 --options target=8 --out " + dir.path());
  REQUIRE_MESSAGE(run.exit_code == 0, run.out);
  CHECK(run.out.find("level 1: ") != std::string::npos);
  CHECK(run.out.find(" / 3") != std::string::npos);
  for (const char* name : {"kopf-oder-knopf-001.txt", "kopf-oder-knopf-002.txt", "kopf-oder-knopf-003.txt"}) {
    const std::string path = (std::filesystem::path(dir.path()) / name).string();
    REQUIRE_MESSAGE(std::filesystem::exists(path), name);
    const test::Run replay = test::run_cinq("replay " + path);
    CHECK_MESSAGE(replay.exit_code == 0, replay.out);
    CHECK(replay.out.find("finished: yes") != std::string::npos);
    CHECK(test::read_text(path).find("= Computer (level 1)") != std::string::npos);
  }
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), {}) == 3);
}

TEST_CASE("cinq selfplay refuses bad arguments with the usage and exit status 2") {
  for (const char* args : {"selfplay", "selfplay chess 2", "selfplay tablut x", "selfplay tablut 2 --level 9",
                           "selfplay tablut 2 --out /nonexistent-dir", "selfplay tablut 2 --options bad=1",
                           "selfplay tablut 2 --frobnicate 1"}) {
    const test::Run run = test::run_cinq(args);
    CHECK_MESSAGE(run.exit_code == 2, args);
    CHECK_MESSAGE(run.out.find("usage: cinq selfplay") != std::string::npos, args);
  }
}
