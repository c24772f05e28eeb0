// Small measuring helpers shared by the benchmarks (bench/ladder.cpp, bench/bots.cpp, bench/store.cpp).
#pragma once

#include <time.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace cinq::bench {

// This thread's CPU time, ms: unlike the wall clock, not counting the thread being paused or waiting for a
// core.
inline double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

// The q-quantile of `v` (0.5: the median, 1: the maximum), 0 for none.
inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

}  // namespace cinq::bench
