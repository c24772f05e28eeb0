// The bots' search speed (issue 11; docs/performance.md, "Bots"): for each game, playouts per second of
// bots::choose_turn with a fixed think time, from the start and from positions reached by random play.
// Usage: cinq_bench_bots [--think-ms MS (1000)] [--positions N (3)] [--games a,b] [--seed S (1)]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench/cli_args.h"
#include "bots/bot.h"
#include "rules/registry.h"

namespace {

int usage(const char* why) {
  std::fprintf(stderr, "cinq_bench_bots: %s\n(see 'cinq_bench_bots --help')\n", why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int think_ms = 1000;
  int positions = 3;
  std::string only;
  long long seed = 1;
  CLI::App app("The bots' playouts per second (bots::choose_turn), each game: from the start and from "
               "positions reached by random play.",
               "cinq_bench_bots");
  app.add_option("--think-ms", think_ms, "think time of one turn")
      ->type_name("MS")->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_option("--positions", positions, "positions after random play, each game")
      ->type_name("N")->check(CLI::Range(0, 1000000))->capture_default_str();
  app.add_option("--games", only, "only these games, like tablut,batik")->type_name("a,b");
  app.add_option("--seed", seed, "the random play's seed")
      ->type_name("S")->check(CLI::NonNegativeNumber)->capture_default_str();
  if (int status = cinq::bench::parse_args(app, argc, argv); status >= 0) return status;
  if (!only.empty()) only = "," + only + ",";
  std::printf(
      "bots::choose_turn, %d ms of thinking, no playout cap; the start and %d positions after random play\n",
      think_ms, positions);
  std::printf("%-16s %14s %18s %12s\n", "game", "start", "random (mean)", "median");
  std::mt19937_64 rng(static_cast<unsigned long long>(seed));
  for (const cinq::Game* game : cinq::games()) {
    const std::string name(game->name());
    if (!only.empty() && only.find("," + name + ",") == std::string::npos) continue;
    auto start = game->start(game->bounded_options());
    if (!start) return usage(("cannot start " + name).c_str());
    cinq::bots::Settings settings = cinq::bots::level_settings(3);
    settings.think = std::chrono::milliseconds(think_ms);
    settings.playouts = 0;
    settings.hard_limit = std::chrono::milliseconds(think_ms * 3 + 1000);
    auto rate = [&](const cinq::State& s) {
      settings.seed = rng();
      cinq::bots::Turn t = cinq::bots::choose_turn(s, settings);
      return t.playouts / (static_cast<double>(t.elapsed.count()) / 1e6);
    };
    std::vector<double> rates{rate(**start)};
    const double from_start = rates.front();
    double sum_random = 0;
    for (int p = 0; p < positions; ++p) {
      auto s = (*start)->clone();
      const int actions = static_cast<int>(rng() % 60) + 10;
      for (int a = 0; a < actions; ++a) {
        auto legal = s->legal_actions();
        auto next = s->clone();
        next->apply(legal[rng() % legal.size()]);
        if (next->outcome().over()) break;
        s = std::move(next);
      }
      rates.push_back(rate(*s));
      sum_random += rates.back();
    }
    std::sort(rates.begin(), rates.end());
    std::printf("%-16s %14.0f %18.0f %12.0f\n", name.c_str(), from_start,
                positions > 0 ? sum_random / positions : 0.0, rates[rates.size() / 2]);
  }
  return 0;
}
