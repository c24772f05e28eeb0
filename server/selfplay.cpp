// `cinq selfplay GAME N ...`: N bot-vs-bot games, each written as a complete record (rules/notation.h) to
// DIR/GAME-NNN.txt, one line printed per game and a final score per level. The two levels swap seats from
// game to game, so neither keeps the advantage of moving first.
#include "server/selfplay.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

#include "bots/bot.h"
#include "rules/notation.h"
#include "rules/registry.h"

namespace cinq {

namespace {

// A game still going after this many turns (both sides counted) ends in a declared draw, `#= draw limit`
// (notation.md: a turn limit decided outside the board), or `#= draw agreement` in Baltek, whose records
// take `limit` only from the board's own `turns` option.
constexpr int kMaxTurns = 1000;

constexpr const char* kUsage =
    R"(usage: cinq selfplay GAME N [--level L] [--versus L2] [--out DIR] [--seed S] [--options "key=value ..."]
                     [--think-ms MS] [--playouts P] [--jobs J]
  Plays N games of GAME between a bot of level L (default 3) and one of level L2 (default L); they swap
  seats from game to game. Each game is written to DIR/GAME-NNN.txt (DIR default: the current directory).
  --think-ms and --playouts override both levels' think time and playout cap; --jobs plays J games at once.
)";

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

struct Played {
  std::string file;
  std::string result;
  int turns = 0;
  double seconds = 0;
  double points[2] = {0, 0};  // per level ([0]: --level), win 1, draw 0.5
  std::string error;
};

int usage_error(const std::string& why) {
  std::cerr << "cinq selfplay: " << why << "\n" << kUsage;
  return 2;
}

std::optional<long long> to_number(const std::string& text, long long min, long long max) {
  try {
    std::size_t used = 0;
    long long v = std::stoll(text, &used);
    if (used == text.size() && v >= min && v <= max) return v;
  } catch (...) {
  }
  return std::nullopt;
}

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

std::optional<std::string> parse(const std::vector<std::string>& args, Config& c) {
  std::vector<std::string> positional;
  std::string options_text;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      positional.push_back(a);
      continue;
    }
    if (i + 1 >= args.size()) return a + " needs a value";
    const std::string& v = args[++i];
    if (a == "--level" || a == "--versus") {
      auto n = to_number(v, 0, bots::kMaxLevel);
      if (!n) return a + " must be a level from 0 to " + std::to_string(bots::kMaxLevel);
      c.levels[a == "--level" ? 0 : 1] = static_cast<int>(*n);
      if (a == "--level" && std::find(args.begin(), args.end(), "--versus") == args.end())
        c.levels[1] = c.levels[0];
    } else if (a == "--out") {
      c.out = v;
    } else if (a == "--seed") {
      auto n = to_number(v, 0, std::numeric_limits<long long>::max());
      if (!n) return "--seed must be a non-negative number";
      c.seed = static_cast<std::uint64_t>(*n);
    } else if (a == "--options") {
      options_text = v;
    } else if (a == "--think-ms") {
      auto n = to_number(v, 1, 60000);
      if (!n) return "--think-ms must be a number of milliseconds from 1 to 60000";
      c.think_ms = static_cast<int>(*n);
    } else if (a == "--playouts") {
      auto n = to_number(v, 0, 100000000);
      if (!n) return "--playouts must be a number from 0 (no cap) to 100000000";
      c.playouts = static_cast<std::uint64_t>(*n);
    } else if (a == "--jobs") {
      auto n = to_number(v, 1, 64);
      if (!n) return "--jobs must be a number from 1 to 64";
      c.jobs = static_cast<int>(*n);
    } else {
      return "unknown option '" + a + "'";
    }
  }
  if (positional.size() != 2) return "selfplay needs GAME and N";
  c.game = find_game(positional[0]);
  if (!c.game) return "unknown game '" + positional[0] + "' (" + game_names() + ")";
  auto n = to_number(positional[1], 1, 100000);
  if (!n) return "N must be a number of games from 1 to 100000";
  c.games = static_cast<int>(*n);
  auto options = Options::parse_text(c.game->option_specs(), options_text);
  if (!options) return "--options: " + options.error().message;
  c.options = *options;
  std::error_code ec;
  if (!std::filesystem::is_directory(c.out, ec)) return "--out '" + c.out + "' is not a directory";
  return std::nullopt;
}

}  // namespace

int selfplay_main(const std::vector<std::string>& args) {
  Config c;
  if (auto why = parse(args, c)) return usage_error(*why);
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

}  // namespace cinq
