// Batik: how long one drop's simulation takes (docs/rules/batik.md, "A drop"). Plays full matches with
// random legal drops and prints the median and worst time of one drop (the whole `apply`, which is the
// simulation plus a little bookkeeping). Usage: batik_drop [matches=10] [seed=1]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "bench/cli_args.h"
#include "rules/batik/batik.h"

int main(int argc, char** argv) {
  int matches = 10;
  unsigned seed = 1;
  CLI::App app("Batik: random matches; the median and worst time of one drop's simulation.", "batik_drop");
  app.add_option("MATCHES", matches, "matches to play")->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_option("SEED", seed, "the random drops' seed")->capture_default_str();
  if (int status = cinq::bench::parse_args(app, argc, argv); status >= 0) return status;
  const cinq::Game& game = cinq::batik::game();
  std::mt19937 rng(seed);
  std::vector<double> drops_ms;
  std::vector<double> steps;
  std::vector<int> drops_per_match;
  std::vector<double> match_ms;
  int capped = 0;
  for (int m = 0; m < matches; ++m) {
    auto state = game.start("").value()->clone();
    int drops = 0;
    double total = 0;
    std::vector<cinq::Action> legal;
    while (!state->outcome().over()) {
      legal.clear();
      state->legal_actions(legal);
      cinq::Action a = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
      auto t0 = std::chrono::steady_clock::now();
      state->apply(a);
      auto t1 = std::chrono::steady_clock::now();
      double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
      drops_ms.push_back(ms);
      steps.push_back(cinq::batik::last_fall_of(*state)->fall.steps);
      if (!cinq::batik::last_fall_of(*state)->fall.at_rest) ++capped;
      total += ms;
      ++drops;
    }
    drops_per_match.push_back(drops);
    match_ms.push_back(total);
    std::printf("match %d: %d games, %d drops, %.1f ms simulating, %s wins (%s)\n", m + 1, state->round(),
                drops, total, std::string(1, game.side_letter(state->outcome().winner)).c_str(),
                state->outcome().reason.c_str());
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<double> dpm(drops_per_match.begin(), drops_per_match.end());
  std::printf(
      "drops: %zu; one drop: median %.2f ms, mean %.2f ms, worst %.2f ms; steps: median %.0f, worst %.0f\n",
      drops_ms.size(), median(drops_ms),
      [&] {
        double s = 0;
        for (double d : drops_ms) s += d;
        return s / static_cast<double>(drops_ms.size());
      }(),
      *std::max_element(drops_ms.begin(), drops_ms.end()), median(steps),
      *std::max_element(steps.begin(), steps.end()));
  std::printf("falls stopped by the cap: %d\n", capped);
  std::printf("a match: median %.0f drops, %.0f ms simulating (worst %.0f ms)\n", median(dpm),
              median(match_ms), *std::max_element(match_ms.begin(), match_ms.end()));
  return 0;
}
