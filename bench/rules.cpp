// How fast each game's rules play random games: the cost a bot or a server pays per action.
// For every game of the registry, plays random games from the start (a uniform random legal action at every
// step, std::mt19937_64 seeded) for S seconds of CPU, and prints playouts/s, actions/s, actions per playout,
// legal actions per position, and what one legal_actions(), apply() and clone() cost (a replay of the first
// quarter of the games and clones for S/8: a run takes about 1.4 S). The figures are the median of K runs,
// each figure on its own.
//
// Random play must end: each game runs under its bounded_options() (game.h), which are its defaults except
// where the game names others for random play (Baltek: turns=60, without which it may never end; Kopf:
// target=8, shorter games). `--options GAME:TEXT` plays a game under other options.
//
//   cinq_bench_rules [--seconds S] [--runs K] [--games a,b] [--options GAME:TEXT] [--seed N] [--json FILE]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "bench/cli_args.h"
#include "rules/registry.h"

namespace {

// The CPU time of this thread, in seconds. Rates are per second of CPU, not of the wall: the machine the
// benches run on is shared, and a thread waiting for a core would count as slow rules.
double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Args {
  double seconds = 2;
  int runs = 3;
  std::vector<std::string> games;              // empty: all
  std::map<std::string, std::string> options;  // per game, instead of bounded_options()
  std::uint64_t seed = 1;
  std::string json;
};

// One run's figures; the summary is the median of each figure over the runs.
struct Figures {
  double playouts_per_s = 0;
  double actions_per_s = 0;
  double actions_per_playout = 0;
  double legal_per_position = 0;
  double legal_us = 0;     // one legal_actions() call, microseconds: the playouts' time less their replay's
  double apply_us = 0;     // one apply() and the outcome() after it: the replay's time
  double clone_us = 0;     // one clone() and the destruction of the copy (what a searching bot pays)
  double legal_share = 0;  // legal_actions' part of a random step's time (the rest: apply, the pick)
  std::uint64_t playouts = 0;
  std::uint64_t actions = 0;
};

const std::vector<std::pair<const char*, double Figures::*>> kColumns = {
    {"playouts_per_s", &Figures::playouts_per_s},
    {"actions_per_s", &Figures::actions_per_s},
    {"actions_per_playout", &Figures::actions_per_playout},
    {"legal_per_position", &Figures::legal_per_position},
    {"legal_actions_us", &Figures::legal_us},
    {"apply_us", &Figures::apply_us},
    {"clone_us", &Figures::clone_us},
    {"legal_share", &Figures::legal_share},
};

// The playouts: whole random games from `initial` until `cpu_seconds` have passed (the game in progress is
// finished, so a slow game still completes one). The actions of the games that end within the first
// `record_seconds` are kept, for the replay below.
struct Playouts {
  std::uint64_t playouts = 0, actions = 0, legal_total = 0;
  double cpu = 0;
  std::vector<cinq::Action> recorded;  // the recorded games' actions, one game after another
  std::uint64_t recorded_games = 0;
  double recorded_cpu = 0;  // the CPU time of those games
};

Playouts play(const cinq::State& initial, std::uint64_t seed, double cpu_seconds, double record_seconds) {
  std::mt19937_64 rng(seed);
  std::vector<cinq::Action> legal;
  Playouts p;
  double t0 = cpu_now();
  bool recording = true;
  while (p.cpu < cpu_seconds) {
    auto state = initial.clone();
    while (!state->outcome().over()) {
      legal.clear();
      state->legal_actions(legal);
      p.legal_total += legal.size();
      ++p.actions;
      cinq::Action a = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
      if (recording) p.recorded.push_back(a);
      state->apply(a);
    }
    ++p.playouts;
    p.cpu = cpu_now() - t0;
    if (recording) {
      ++p.recorded_games;
      p.recorded_cpu = p.cpu;
      recording = p.cpu < record_seconds;
    }
  }
  return p;
}

// The recorded games again, without legal_actions(): what is left of a step is apply() (and outcome()), so
// the difference with the playouts' time is legal_actions()'s. (Calling legal_actions() twice instead would
// time a second call that finds its caches and branch predictors trained by the first.) Keeps every 16th
// position for the clone timing.
double replay(const cinq::State& initial, const Playouts& p,
              std::vector<std::unique_ptr<cinq::State>>& kept) {
  double t0 = cpu_now();
  std::size_t next = 0;
  for (std::uint64_t g = 0; g < p.recorded_games; ++g) {
    auto state = initial.clone();
    while (!state->outcome().over()) {
      if (next % 16 == 0 && kept.size() < 2000) {
        double pause = cpu_now();
        kept.push_back(state->clone());
        t0 += cpu_now() - pause;
      }
      state->apply(p.recorded[next++]);
    }
  }
  return cpu_now() - t0;
}

// One clone() and the destruction of the copy (what a searching bot pays), over a pool of positions from
// real games, round after round for `cpu_seconds`.
double clone_seconds(const std::vector<std::unique_ptr<cinq::State>>& pool, double cpu_seconds) {
  double t0 = cpu_now(), elapsed = 0;
  std::uint64_t n = 0;
  while (elapsed < cpu_seconds) {
    for (const auto& s : pool) auto copy = s->clone();
    n += pool.size();
    elapsed = cpu_now() - t0;
  }
  return elapsed / static_cast<double>(n);
}

// One run: the playouts for `seconds`, the replay of their first quarter, and clones for an eighth.
Figures run(const cinq::State& initial, double seconds, std::uint64_t seed) {
  Playouts p = play(initial, seed, seconds, seconds / 4);
  std::vector<std::unique_ptr<cinq::State>> pool;
  double applying = replay(initial, p, pool);
  double steps = static_cast<double>(p.recorded.size());
  Figures f;
  f.playouts = p.playouts;
  f.actions = p.actions;
  f.playouts_per_s = static_cast<double>(p.playouts) / p.cpu;
  f.actions_per_s = static_cast<double>(p.actions) / p.cpu;
  f.actions_per_playout = static_cast<double>(p.actions) / static_cast<double>(p.playouts);
  f.legal_per_position = static_cast<double>(p.legal_total) / static_cast<double>(p.actions);
  f.apply_us = applying / steps * 1e6;
  f.legal_us = std::max(0.0, p.recorded_cpu - applying) / steps * 1e6;
  f.legal_share = p.recorded_cpu > 0 ? std::max(0.0, p.recorded_cpu - applying) / p.recorded_cpu : 0;
  f.clone_us = clone_seconds(pool, seconds / 8) * 1e6;
  return f;
}

Figures median(const std::vector<Figures>& runs) {
  Figures m;
  for (const auto& [name, field] : kColumns) {
    std::vector<double> v;
    for (const Figures& f : runs) v.push_back(f.*field);
    std::sort(v.begin(), v.end());
    m.*field = v[v.size() / 2];
  }
  return m;
}

nlohmann::json to_json(const Figures& f) {
  nlohmann::json j;
  for (const auto& [name, field] : kColumns) j[name] = f.*field;
  return j;
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(by, start);
    if (end == std::string::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

int usage(const char* why) {
  std::fprintf(stderr, "cinq_bench_rules: %s\n(see 'cinq_bench_rules --help')\n", why);
  return 2;
}

// -1 once `args` are read; otherwise the status to exit with (0 after --help, 2 after a usage error).
int parse_args(int argc, char** argv, Args& args) {
  std::string games;
  std::vector<std::string> options;
  CLI::App app("Random playouts of each game's rules: playouts and actions per second of CPU, and what one "
               "legal_actions(), apply() and clone() cost; the median of K runs.",
               "cinq_bench_rules");
  app.add_option("--seconds", args.seconds, "CPU seconds of playouts per run (a run takes about 1.4 S)")
      ->type_name("S")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--runs", args.runs, "runs per game")->type_name("K")->capture_default_str();
  app.add_option("--games", games, "only these games (" + cinq::game_names() + ")")->type_name("a,b");
  app.add_option("--options", options, "play GAME under these options instead of its bounded_options()")
      ->type_name("GAME:TEXT")
      ->check(CLI::Validator(
          [](std::string& v) { return v.find(':') == std::string::npos ? "expected GAME:TEXT" : ""; }, ""));
  app.add_option("--seed", args.seed, "the seed of the first run (the next runs: +1, +2, ...)")
      ->type_name("N")->capture_default_str();
  app.add_option("--json", args.json, "also write the figures to FILE as JSON")->type_name("FILE");
  if (int status = cinq::bench::parse_args(app, argc, argv); status >= 0) return status;
  args.runs = std::max(1, args.runs);
  args.games = split(games, ',');
  for (const std::string& o : options) args.options[o.substr(0, o.find(':'))] = o.substr(o.find(':') + 1);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (int status = parse_args(argc, argv, args); status >= 0) return status;
  std::vector<const cinq::Game*> games;
  if (args.games.empty()) games = cinq::games();
  for (const std::string& name : args.games) {
    const cinq::Game* g = cinq::find_game(name);
    if (!g) return usage(("no game named " + name).c_str());
    games.push_back(g);
  }

  std::printf("random playouts, %.1f s per run, median of %d runs, seed %llu\n", args.seconds, args.runs,
              static_cast<unsigned long long>(args.seed));
  std::printf("%-16s %-10s %11s %11s %9s %8s %9s %9s %9s %6s\n", "game", "options", "playouts/s", "actions/s",
              "act/game", "legal/pos", "legal us", "apply us", "clone us", "legal%");
  nlohmann::json out = {{"bench", "rules"},
                        {"seconds", args.seconds},
                        {"runs", args.runs},
                        {"seed", args.seed},
                        {"games", nlohmann::json::array()}};
  for (const cinq::Game* game : games) {
    auto given = args.options.find(std::string(game->name()));
    std::string options = given != args.options.end() ? given->second : std::string(game->bounded_options());
    auto initial = game->start(options);
    if (!initial) return usage((std::string(game->name()) + ": " + initial.error().message).c_str());
    std::vector<Figures> runs;
    for (int r = 0; r < args.runs; ++r)
      runs.push_back(run(**initial, args.seconds, args.seed + static_cast<std::uint64_t>(r)));
    Figures m = median(runs);
    std::printf("%-16s %-10s %11.1f %11.0f %9.1f %8.1f %9.3f %9.3f %9.3f %5.0f%%\n",
                std::string(game->name()).c_str(), options.empty() ? "-" : options.c_str(), m.playouts_per_s,
                m.actions_per_s, m.actions_per_playout, m.legal_per_position, m.legal_us, m.apply_us,
                m.clone_us, m.legal_share * 100);
    std::fflush(stdout);
    nlohmann::json g = {{"game", game->name()}, {"options", options}, {"median", to_json(m)}};
    g["runs"] = nlohmann::json::array();
    for (const Figures& f : runs) {
      nlohmann::json j = to_json(f);
      j["playouts"] = f.playouts;
      j["actions"] = f.actions;
      g["runs"].push_back(j);
    }
    out["games"].push_back(g);
  }
  if (!args.json.empty()) {
    std::ofstream file(args.json);
    file << out.dump(2) << "\n";
    if (!file) return usage(("cannot write " + args.json).c_str());
  }
  return 0;
}
