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
// each game as one trial. Draws make the true spread of a score smaller than a binomial's, so this is
// wider than it needs to be where there are draws (conservative; wilson_with_draws below is not); unlike
// the normal approximation it stays inside [0, 1] and is not degenerate at 0 or all points. `trials` need
// not be whole.
inline Interval wilson(double p, double trials, double z = 1.96) {
  if (trials <= 0) return {0, 1};
  const double n = trials, z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}
inline Interval wilson(const Score& s, double z = 1.96) { return wilson(s.share(), s.games(), z); }

// The same interval with the draws' weight: a game's score is 0, a half or 1, and draws make its variance per
// game, s2 = (w (1-p)^2 + d (1/2-p)^2 + l p^2) / n, smaller than a win-or-loss trial's p (1-p). So the games
// count as n p (1-p) / s2 trials of the Wilson interval (their effective number: as many as the games with
// no draws, more with draws). Engine testers count draws so: cutechess-cli's error bars use the same
// variance per game. Without draws, or when every game ended alike, it is the Wilson interval above.
inline Interval wilson_with_draws(const Score& s, double z = 1.96) {
  const double n = s.games(), p = s.share();
  const double s2 =
      n == 0 ? 0 : (s.wins * (1 - p) * (1 - p) + s.draws * (0.5 - p) * (0.5 - p) + s.losses * p * p) / n;
  if (s.draws == 0 || s2 <= 0) return wilson(s, z);
  return wilson(p, n * p * (1 - p) / s2, z);
}

// The Elo difference an expected score stands for (logistic, 400 points a factor of ten in odds):
// +/- infinity at 1 and 0.
inline double elo(double share) {
  if (share <= 0) return -std::numeric_limits<double>::infinity();
  if (share >= 1) return std::numeric_limits<double>::infinity();
  return 400 * std::log10(share / (1 - share));
}

}  // namespace cinq::bench
