// How long a Swiss round takes to pair: a tournament of N players (1,000 by default) is played round by
// round with random results (the better seed wins half the games, a fifth are drawn; seeded), and at the
// rounds named by --at the next round's pairing (Tournament::pair_next_round: the state read, the weighted
// matching, the games made) is timed K times on copies of the same state. Prints, per round, the median and
// the slowest of the K runs (wall and this thread's CPU), the boards, the pairs of unequal scores and the
// repeats. docs/performance.md, "Tournaments".
//
//   cinq_bench_tournament [--players N] [--rounds R] [--at 1,6,11] [--runs K] [--seed S]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bench/cli_args.h"
#include "bench/measure.h"
#include "tournament/tournament.h"

using cinq::tournament::Game;
using cinq::tournament::Result;
using cinq::tournament::Tournament;

int main(int argc, char** argv) {
  int players = 1000, rounds = 11, runs = 5;
  long long seed = 1;
  std::vector<int> at = {1, 6, 11};
  CLI::App app("Times the pairing of Swiss rounds (docs/performance.md, \"Tournaments\").", "cinq_bench_tournament");
  app.add_option("--players", players, "players, 2 to 10000")->check(CLI::Range(2, 10000))->capture_default_str();
  app.add_option("--rounds", rounds, "the Swiss's rounds, 1 to 100")->check(CLI::Range(1, 100))->capture_default_str();
  app.add_option("--at", at, "the rounds whose pairing is timed")->delimiter(',');
  app.add_option("--runs", runs, "timed runs per round, the median reported")->check(CLI::Range(1, 1000))->capture_default_str();
  app.add_option("--seed", seed, "the results' seed")->capture_default_str();
  if (int status = cinq::bench::parse_args(app, argc, argv); status >= 0) return status;

  cinq::tournament::Spec spec;
  spec.game = "tablut";
  spec.rounds = rounds;
  spec.pace.base_ms = 180000;
  Tournament t("bench", spec, 0);
  for (int i = 0; i < players; ++i) (void)t.join("p" + std::to_string(i), "P" + std::to_string(i), 2500.0 - i, 0);
  (void)t.start(0);
  std::mt19937_64 rng(static_cast<std::uint64_t>(seed));
  std::printf("%d players, %d rounds, %d runs per timed round\n", players, rounds, runs);
  std::printf("%5s %12s %12s %12s %7s %7s %7s\n", "round", "median ms", "slowest ms", "median cpu", "boards", "floats",
              "repeats");
  std::set<std::pair<std::string, std::string>> met;
  for (int round = 1; round <= rounds; ++round) {
    if (std::find(at.begin(), at.end(), round) != at.end()) {
      std::vector<double> wall, cpu;
      for (int k = 0; k < runs; ++k) {
        Tournament copy = t;
        const double c0 = cinq::bench::thread_cpu_ms();
        const auto w0 = std::chrono::steady_clock::now();
        const std::vector<Game> games = copy.pair_next_round(round);
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count());
        cpu.push_back(cinq::bench::thread_cpu_ms() - c0);
      }
      Tournament copy = t;
      const std::vector<Game> games = copy.pair_next_round(round);
      std::map<std::string, double> points;
      for (const auto& s : t.standings()) points[s.player] = s.points;
      int floats = 0, repeats = 0;
      for (const Game& g : games) {
        floats += points[g.seats[0]] != points[g.seats[1]];
        repeats += met.count(std::minmax(g.seats[0], g.seats[1])) > 0;
      }
      std::printf("%5d %12.1f %12.1f %12.1f %7zu %7d %7d\n", round, cinq::bench::quantile(wall, 0.5),
                  cinq::bench::quantile(wall, 1), cinq::bench::quantile(cpu, 0.5), games.size(), floats, repeats);
      std::fflush(stdout);
    }
    for (const Game& g : t.pair_next_round(round)) {
      met.insert(std::minmax(g.seats[0], g.seats[1]));
      const int roll = static_cast<int>(rng() % 10);
      const bool first_better = std::stoi(g.seats[0].substr(1)) < std::stoi(g.seats[1].substr(1));
      const Result r = roll < 2                    ? Result::draw
                       : (roll < 6) == first_better ? Result::first_wins
                                                    : Result::second_wins;
      (void)t.record_result(g.id, r, round);
    }
  }
  return 0;
}
