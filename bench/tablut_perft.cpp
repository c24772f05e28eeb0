// Tablut perft benchmark (docs/rules/tablut.md): move sequences counted per second at a depth (4 by
// default), from the start under the options given. Checks the count against the pinned figures
// (computed independently by tests/data/tablut/perft_reference.py).
//   build-*/bench/tablut_perft [DEPTH] [key=value ...]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "bench/cli_args.h"
#include "rules/tablut/tablut.h"

int main(int argc, char** argv) {
  int depth = 4;
  std::vector<std::string> settings;
  CLI::App app("Tablut move generation: perft DEPTH from the start, moves per second (the best of 5 runs); "
               "checks the count at depth 4 against the pinned figures.",
               "tablut_perft");
  app.add_option("DEPTH", depth, "the depth")->check(CLI::Range(0, 12))->capture_default_str();
  app.add_option("OPTIONS", settings, "the game's options, key=value (first=defenders, ...)");
  if (int status = cinq::bench::parse_args(app, argc, argv); status >= 0) return status;
  std::string options;
  for (std::size_t i = 0; i < settings.size(); ++i) options += (i > 0 ? " " : "") + settings[i];
  auto state = cinq::tablut::game().start(options);
  if (!state) {
    std::fprintf(stderr, "tablut_perft: %s\n", state.error().message.c_str());
    return 2;
  }
  // Depth 4 from the start; the king and the throne options change nothing this early.
  const std::map<std::string, std::uint64_t> pinned = {
      {"", 15951824},
      {"first=defenders", 16170968},
      {"king=unarmed", 15951824},
      {"throne=plain", 15951824},
  };
  double best = 1e9;
  std::uint64_t n = 0;
  for (int run = 0; run < 5; ++run) {  // the best of five: the machine is shared
    auto t0 = std::chrono::steady_clock::now();
    n = cinq::tablut::game().perft(**state, depth);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::printf("tablut perft %d%s%s: %llu sequences in %.3f s: %.1f million moves/s\n", depth,
              options.empty() ? "" : " ", options.c_str(), static_cast<unsigned long long>(n), best,
              static_cast<double>(n) / best / 1e6);
  auto it = pinned.find(options);
  if (depth == 4 && it != pinned.end()) {
    bool ok = it->second == n;
    std::printf("%s: expected %llu\n", ok ? "ok" : "MISMATCH", static_cast<unsigned long long>(it->second));
    return ok ? 0 : 1;
  }
  return 0;
}
