// `cinq selfplay GAME N ...`: N bot-vs-bot games, each written as a complete record (rules/notation.h) to
// DIR/GAME-NNN.txt, one line printed per game and a final score per level. The two levels swap seats from
// game to game, so neither keeps the advantage of moving first.
#include "server/selfplay.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "bots/bot.h"
#include "rules/notation.h"
#include "rules/registry.h"
#include "server/cli.h"

namespace cinq {

namespace {

// A game still going after this many turns (both sides counted) ends in a declared draw, `#= draw limit`
// (notation.md: a turn limit decided outside the board), or `#= draw agreement` in Baltek, whose records
// take `limit` only from the board's own `turns` option.
constexpr int kMaxTurns = 1000;

struct Config {
  const Game* game = nullptr;
  Options options;
  int games = 0;
  int levels[2] = {3, 3};  // [0]: --level, [1]: --versus
  std::string out = ".";
  std::uint64_t seed = 1;
  std::optional<int> think_ms;
  std::optional<std::uint64_t> playouts;
  int jobs = 1;
};

// The arguments as CLI11 reads them; made a Config once parsed.
struct Args {
  std::string game;
  int games = 0;
  int level = 3;
  int versus = 3;
  std::string out = ".";
  long long seed = 1;
  std::string options;
  int think_ms = 0;
  long long playouts = 0;
  int jobs = 1;
};

struct Played {
  std::string file;
  std::string result;
  int turns = 0;
  double seconds = 0;
  double points[2] = {0, 0};  // per level ([0]: --level), win 1, draw 0.5
  std::string error;
};

// A splitmix64 step: distinct, well-spread seeds for each game and turn from one --seed.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string file_name(const Config& c, int index) {
  char number[16];
  std::snprintf(number, sizeof number, "%03d", index + 1);
  return (std::filesystem::path(c.out) / (std::string(c.game->name()) + "-" + number + ".txt")).string();
}

// Names each side by the level of the seat that holds it (Bi-litaire's players swap sides in round 2).
void name_players(Record& record, const int seat_levels[2]) {
  const State& s = record.state();
  record.add_players({{record.game().side_letter(0), bots::bot_name(seat_levels[s.seat_of(0)])},
                      {record.game().side_letter(1), bots::bot_name(seat_levels[s.seat_of(1)])}});
}

Played play_one(const Config& c, int index) {
  Played p;
  p.file = file_name(c, index);
  const auto t0 = std::chrono::steady_clock::now();
  // Game 1: --level holds seat 0; game 2: seat 1; and so on.
  const int first = index % 2;  // the index into c.levels of seat 0's bot
  const int seat_levels[2] = {c.levels[first], c.levels[1 - first]};
  bots::Settings settings[2];
  for (int seat = 0; seat < 2; ++seat) {
    settings[seat] = bots::level_settings(seat_levels[seat]);
    if (c.think_ms) settings[seat].think = std::chrono::milliseconds(*c.think_ms);
    if (c.playouts) settings[seat].playouts = *c.playouts;
  }
  Record record = Record::start(*c.game, c.options);
  name_players(record, seat_levels);
  int round = record.state().round();
  bool renamed = true;
  while (!record.finished()) {
    if (record.turn_count() >= kMaxTurns && !record.state().mid_turn()) {
      // `limit` where the game allows declaring it; Baltek takes it only from its own `turns` option.
      if (!record.declare(Outcome::draw("limit"))) (void)record.declare(Outcome::draw("agreement"));
      break;
    }
    const int seat = record.state().seat_of(record.state().to_move());
    bots::Settings s = settings[seat];
    s.seed = mix(c.seed ^ mix(static_cast<std::uint64_t>(index) << 20 |
                              static_cast<std::uint64_t>(record.turn_count())));
    const bots::Turn turn = bots::choose_turn(record.state(), s);
    for (Action a : turn.actions) {
      if (auto played = record.play(a); !played) {
        p.error = "the bot played an illegal action: " + played.error().message;
        return p;
      }
    }
    // A new round (Bi-litaire): the player lines follow its first turn, where the record opens the round.
    if (!renamed) {
      name_players(record, seat_levels);
      renamed = true;
    }
    if (record.state().round() != round) {
      round = record.state().round();
      renamed = false;
    }
  }
  p.turns = record.turn_count();
  p.result = record.result_text();
  const Outcome o = record.result().value_or(Outcome::draw("agreement"));
  for (int seat = 0; seat < 2; ++seat) {
    const int who = seat == 0 ? first : 1 - first;
    p.points[who] += o.kind == Outcome::Kind::win ? (o.winner == seat ? 1.0 : 0.0) : 0.5;
  }
  std::ofstream out(p.file, std::ios::binary | std::ios::trunc);
  out << record.write();
  if (!out.flush()) p.error = "cannot write '" + p.file + "'";
  p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return p;
}

int selfplay(const Config& c) {
  std::vector<Played> results(static_cast<std::size_t>(c.games));
  std::atomic<int> next{0};
  std::mutex print;
  auto worker = [&] {
    for (int i; (i = next.fetch_add(1)) < c.games;) {
      Played p = play_one(c, i);
      std::lock_guard lock(print);
      if (!p.error.empty())
        std::cout << p.file << ": error: " << p.error << std::endl;
      else
        std::printf("%s  %-22s %4d turns  %7.1f s\n", p.file.c_str(), p.result.c_str(), p.turns, p.seconds);
      std::fflush(stdout);
      results[static_cast<std::size_t>(i)] = std::move(p);
    }
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < std::min(c.jobs, c.games); ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();

  double points[2] = {0, 0};
  int failed = 0;
  for (const Played& p : results) {
    failed += !p.error.empty();
    points[0] += p.points[0];
    points[1] += p.points[1];
  }
  const int counted = c.games - failed;
  std::printf("level %d: %g / %d, level %d: %g / %d\n", c.levels[0], points[0], counted, c.levels[1],
              points[1], counted);
  return failed == 0 ? 0 : 1;
}

}  // namespace

Command add_selfplay_command(CLI::App& cinq) {
  auto args = std::make_shared<Args>();
  CLI::App* cmd = cinq.add_subcommand(
      "selfplay",
      "Plays N games of GAME between a bot of level L and one of level L2, 0 (random) to 5, swapping seats "
      "from game to game; writes each record to DIR/GAME-NNN.txt, prints one line per game and the score of "
      "each level. A game still going after 1000 turns ends in a declared draw (#= draw limit; Baltek: "
      "#= draw agreement).");
  auto range = [](long long min, long long max) { return CLI::Range(min, max).description(""); };
  const int max_level = bots::kMaxLevel;
  cmd->add_option("GAME", args->game, "the game")->required()->check(known_game());
  cmd->add_option("N", args->games, "the number of games, 1 to 100000")->required()->check(range(1, 100000));
  cmd->add_option("--level", args->level, "the first bot's level, 0 to " + std::to_string(max_level))
      ->type_name("L")->check(range(0, max_level))->capture_default_str();
  CLI::Option* versus = cmd->add_option("--versus", args->versus, "the other bot's level (default: the --level)")
                            ->type_name("L2")->check(range(0, max_level));
  cmd->add_option("--out", args->out, "where the records are written")
      ->type_name("DIR")->check(CLI::ExistingDirectory.description(""))->capture_default_str();
  cmd->add_option("--seed", args->seed, "the seed of every game's and every turn's random choices")
      ->type_name("S")->check(range(0, std::numeric_limits<long long>::max()))->capture_default_str();
  cmd->add_option("--options", args->options, "the game's options, like \"goals=2 turns=off\"")
      ->type_name("\"key=value ...\"");
  CLI::Option* think_ms = cmd->add_option("--think-ms", args->think_ms, "both bots' think time per turn, 1 to 60000, instead of their level's")
                              ->type_name("MS")->check(range(1, 60000));
  CLI::Option* playouts = cmd->add_option("--playouts", args->playouts,
                                          "both bots' playouts per turn, 0 (no cap) to 100000000, instead of their level's")
                              ->type_name("P")->check(range(0, 100000000));
  cmd->add_option("--jobs", args->jobs, "games played at once, 1 to 64")
      ->type_name("J")->check(range(1, 64))->capture_default_str();
  return [cmd, args, versus, think_ms, playouts] {
    Config c;
    c.game = find_game(args->game);  // checked by known_game()
    c.games = args->games;
    c.levels[0] = args->level;
    c.levels[1] = versus->count() > 0 ? args->versus : args->level;
    c.out = args->out;
    c.seed = static_cast<std::uint64_t>(args->seed);
    if (think_ms->count() > 0) c.think_ms = args->think_ms;
    if (playouts->count() > 0) c.playouts = static_cast<std::uint64_t>(args->playouts);
    c.jobs = args->jobs;
    auto options = Options::parse_text(c.game->option_specs(), args->options);
    if (!options) return usage_error(*cmd, "--options: " + options.error().message);
    c.options = *options;
    return selfplay(c);
  };
}

}  // namespace cinq
