// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its deviation and its
// volatility, updated after a rating period from the period's results. Pure arithmetic, no I/O.
//
// How Cinq uses it (docs/ratings.md): every rated game is a rating period of its own for both players, as
// Lichess does; before it, the deviation grows for each whole idle period (kIdlePeriodMs) since the player's
// last rated game, as the paper's step 6 does for a period without games.
#pragma once

#include <cstdint>
#include <vector>

namespace cinq::ratings {

struct Rating {
  double rating = 1500.0;     // the Glicko scale
  double deviation = 350.0;   // RD
  double volatility = 0.06;   // sigma
};

// One game of the period: the opponent's rating before the period, and the score (1 win, 0.5 draw, 0 loss).
struct Result {
  Rating opponent;
  double score = 0.0;
};

// The system constant tau: how much the volatility may change (the paper suggests 0.3 to 1.2; its example
// uses 0.5).
inline constexpr double kTau = 0.5;
// A deviation never grows past the one of a new player.
inline constexpr double kMaxDeviation = 350.0;
// A rating whose deviation is above this is provisional (shown with a "?"), as on Lichess.
inline constexpr double kProvisionalDeviation = 110.0;
// An idle rating period: one week without a rated game in that game and pool.
inline constexpr std::int64_t kIdlePeriodMs = 7LL * 24 * 3600 * 1000;

// The rating after one period with `results` (steps 2 to 8 of the paper). With no results only the
// deviation grows (step 6: sqrt(phi^2 + sigma^2)), capped at kMaxDeviation.
Rating update(const Rating& player, const std::vector<Result>& results, double tau = kTau);

// The rating after `periods` periods without games: the deviation grows each time, capped at kMaxDeviation.
Rating idle(const Rating& player, std::int64_t periods);

// Whole idle periods between two times (Unix ms): 0 if `last_ms` is 0 (never rated) or not before `now_ms`.
std::int64_t idle_periods(std::int64_t last_ms, std::int64_t now_ms);

inline bool provisional(const Rating& r) { return r.deviation > kProvisionalDeviation; }

}  // namespace cinq::ratings
