// The bots' search speed (docs/performance.md, "Bots"): for each game, playouts per second of
// bots::choose_turn with a fixed think time, from the start and from positions reached by random play.
// With --level L, instead: whether level L keeps to its stated think time, each game, from the
// same positions: each turn's wall time as the bot reports it (Turn::elapsed), the whole call's wall time
// (the search's tree freed too) and its CPU time, median and maximum.
// Usage: cinq_bench_bots [--think-ms MS (1000)] [--positions N (3)] [--games a,b] [--seed S (1)] [--level L]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/cli_args.h"
#include "bench/measure.h"
#include "bots/bot.h"
#include "rules/registry.h"

namespace {

using cinq::bench::quantile;
using cinq::bench::thread_cpu_ms;

int usage(const char* why) {
  std::fprintf(stderr, "cinq_bench_bots: %s\n(see 'cinq_bench_bots --help')\n", why);
  return 2;
}

// The start and `positions` positions reached from it by 10 to 69 random actions.
std::vector<std::unique_ptr<cinq::State>> positions_of(const cinq::State& start, int positions,
                                                       std::mt19937_64& rng) {
  std::vector<std::unique_ptr<cinq::State>> out;
  out.push_back(start.clone());
  for (int p = 0; p < positions; ++p) {
    auto s = start.clone();
    const int actions = static_cast<int>(rng() % 60) + 10;
    for (int a = 0; a < actions; ++a) {
      auto legal = s->legal_actions();
      auto next = s->clone();
      next->apply(legal[rng() % legal.size()]);
      if (next->outcome().over()) break;
      s = std::move(next);
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int think_ms = 1000;
  int positions = 3;
  std::string only;
  long long seed = 1;
  CLI::App app(
      "The bots' playouts per second (bots::choose_turn), each game: from the start and from "
      "positions reached by random play.",
      "cinq_bench_bots");
  app.add_option("--think-ms", think_ms, "think time of one turn")
      ->type_name("MS")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  app.add_option("--positions", positions, "positions after random play, each game")
      ->type_name("N")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  app.add_option("--games", only, "only these games, like tablut,batik")->type_name("a,b");
  app.add_option("--seed", seed, "the random play's seed")
      ->type_name("S")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  int level = -1;
  app.add_option("--level", level,
                 "instead: this level's turns (its own think time and cap) against its think time")
      ->type_name("L")
      ->check(CLI::Range(1, cinq::bots::kMaxLevel));
  if (int status = cinq::bench::parse_args(app, argc, argv); status >= 0) return status;
  if (!only.empty()) only = "," + only + ",";
  std::mt19937_64 rng(static_cast<unsigned long long>(seed));
  if (level > 0) {
    const cinq::bots::Settings settings = cinq::bots::level_settings(level);
    std::printf(
        "level %d: think time %lld ms, hard limit %lld ms; the start and %d positions after random play\n",
        level, static_cast<long long>(settings.think.count()),
        static_cast<long long>(settings.hard_limit.count()), positions);
    std::printf("%-16s %6s %21s %21s %21s %6s\n", "game", "turns", "turn wall: med / max",
                "call wall: med / max", "call CPU: med / max", "over");
    for (const cinq::Game* game : cinq::games()) {
      const std::string name(game->name());
      if (!only.empty() && only.find("," + name + ",") == std::string::npos) continue;
      auto start = game->start(game->bounded_options());
      if (!start) return usage(("cannot start " + name).c_str());
      std::vector<double> turn_ms, call_ms, cpu;
      int over = 0;  // calls whose wall or CPU time passed the think time
      for (const auto& s : positions_of(**start, positions, rng)) {
        cinq::bots::Settings one = settings;
        one.seed = rng();
        const double cpu0 = thread_cpu_ms();
        const auto t0 = std::chrono::steady_clock::now();
        const cinq::bots::Turn t = cinq::bots::choose_turn(*s, one);
        call_ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        cpu.push_back(thread_cpu_ms() - cpu0);
        turn_ms.push_back(static_cast<double>(t.elapsed.count()) / 1e3);
        const auto think = static_cast<double>(settings.think.count());
        if (call_ms.back() > think || cpu.back() > think) ++over;
      }
      std::printf("%-16s %6zu %10.1f / %8.1f %10.1f / %8.1f %10.1f / %8.1f %6d\n", name.c_str(), cpu.size(),
                  quantile(turn_ms, 0.5), quantile(turn_ms, 1), quantile(call_ms, 0.5), quantile(call_ms, 1),
                  quantile(cpu, 0.5), quantile(cpu, 1), over);
    }
    return 0;
  }
  std::printf(
      "bots::choose_turn, %d ms of thinking, no playout cap; the start and %d positions after random play\n",
      think_ms, positions);
  std::printf("%-16s %14s %18s %12s\n", "game", "start", "random (mean)", "median");
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
    std::vector<double> rates;
    double sum_random = 0;
    for (const auto& s : positions_of(**start, positions, rng)) {
      rates.push_back(rate(*s));
      if (rates.size() > 1) sum_random += rates.back();
    }
    const double from_start = rates.front();
    std::sort(rates.begin(), rates.end());
    std::printf("%-16s %14.0f %18.0f %12.0f\n", name.c_str(), from_start,
                positions > 0 ? sum_random / positions : 0.0, rates[rates.size() / 2]);
  }
  return 0;
}
