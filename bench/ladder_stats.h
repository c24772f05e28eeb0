// The ladder's arithmetic (bench/ladder.cpp): a score over games with its 95% interval, and the Elo
// difference that score stands for. Header-only and pure, so tests/bots/ladder_stats_test.cpp checks it.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace cinq::bench {

struct Score {
  int wins = 0, draws = 0, losses = 0;  // of the player whose score this is
  int games() const { return wins + draws + losses; }
  // Draws count half.
  double points() const { return wins + 0.5 * draws; }
  double share() const { return games() == 0 ? 0.5 : points() / games(); }
};

struct Interval {
  double low = 0, high = 1;
};

// The Wilson score interval at 95% (z = 1.96) for the share of points, counting a draw as half a win and
// each game as one trial. Draws make the true spread of a score smaller than a binomial's, so this is a
// little wider than it needs to be (conservative); unlike the normal approximation it stays inside [0, 1]
// and is not degenerate at 0 or all points.
inline Interval wilson(const Score& s, double z = 1.96) {
  const double n = s.games();
  if (n == 0) return {0, 1};
  const double p = s.share(), z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

// The Elo difference an expected score stands for (logistic, 400 points a factor of ten in odds):
// +/- infinity at 1 and 0.
inline double elo(double share) {
  if (share <= 0) return -std::numeric_limits<double>::infinity();
  if (share >= 1) return std::numeric_limits<double>::infinity();
  return 400 * std::log10(share / (1 - share));
}

}  // namespace cinq::bench
