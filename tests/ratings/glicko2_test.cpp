// Glicko-2 on the figures of Glickman's "Example of the Glicko-2 system" (2013), and the growth of the
// deviation over idle periods.
#include <doctest/doctest.h>

#include <cmath>

#include "ratings/glicko2.h"

using cinq::ratings::Rating;
using cinq::ratings::Result;
namespace ratings = cinq::ratings;

TEST_CASE("glicko2: the paper's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300") {
  const Rating player{1500, 200, 0.06};
  const std::vector<Result> results = {
      {Rating{1400, 30, 0.06}, 1.0}, {Rating{1550, 100, 0.06}, 0.0}, {Rating{1700, 300, 0.06}, 0.0}};
  const Rating after = ratings::update(player, results);
  // The paper: r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
  CHECK(after.rating == doctest::Approx(1464.06).epsilon(0.00001));
  CHECK(after.deviation == doctest::Approx(151.52).epsilon(0.0001));
  CHECK(after.volatility == doctest::Approx(0.05999).epsilon(0.0001));
  CHECK(std::fabs(after.rating - 1464.06) < 0.01);
  CHECK(std::fabs(after.deviation - 151.52) < 0.01);
}

TEST_CASE("glicko2: a win raises, a loss lowers, a draw between equals changes no rating") {
  const Rating a{1500, 350, 0.06};
  const Rating b{1500, 350, 0.06};
  const Rating won = ratings::update(a, {{b, 1.0}});
  const Rating lost = ratings::update(b, {{a, 0.0}});
  const Rating drew = ratings::update(a, {{b, 0.5}});
  CHECK(won.rating > 1500);
  CHECK(lost.rating < 1500);
  CHECK(won.rating - 1500 == doctest::Approx(1500 - lost.rating));
  CHECK(drew.rating == doctest::Approx(1500));
  // Every game lowers the deviation: more is known.
  CHECK(won.deviation < 350);
  CHECK(drew.deviation < 350);
  // A win over a much weaker player gains little, over a much stronger one much.
  const Rating weak_win = ratings::update(Rating{1800, 60, 0.06}, {{Rating{1200, 60, 0.06}, 1.0}});
  const Rating strong_win = ratings::update(Rating{1200, 60, 0.06}, {{Rating{1800, 60, 0.06}, 1.0}});
  CHECK(weak_win.rating - 1800 < 2);
  CHECK(strong_win.rating - 1200 > 20);
}

TEST_CASE("glicko2: the deviation grows over idle periods by sqrt(phi^2 + n sigma^2), up to 350") {
  const Rating player{1700, 50, 0.06};
  // Step 6 of the paper for a period without games: phi' = sqrt(phi^2 + sigma^2).
  const double phi = 50 / 173.7178;
  const Rating one = ratings::idle(player, 1);
  CHECK(one.deviation == doctest::Approx(173.7178 * std::sqrt(phi * phi + 0.06 * 0.06)));
  CHECK(one.rating == 1700);
  CHECK(one.volatility == 0.06);
  // n periods at once are n single periods.
  Rating stepwise = player;
  for (int i = 0; i < 10; ++i) stepwise = ratings::idle(stepwise, 1);
  CHECK(ratings::idle(player, 10).deviation == doctest::Approx(stepwise.deviation));
  CHECK(ratings::idle(player, 10).deviation > one.deviation);
  // Growth stops at a new player's deviation.
  CHECK(ratings::idle(player, 100000).deviation == doctest::Approx(350));
  CHECK(ratings::update(player, {}).deviation == doctest::Approx(one.deviation));
  // Zero or negative periods change nothing.
  CHECK(ratings::idle(player, 0).deviation == 50);
}

TEST_CASE("glicko2: idle periods are whole weeks since the last rated game, none before the first") {
  const std::int64_t week = ratings::kIdlePeriodMs;
  CHECK(ratings::idle_periods(0, 10 * week) == 0);
  CHECK(ratings::idle_periods(1000, 1000 + week - 1) == 0);
  CHECK(ratings::idle_periods(1000, 1000 + week) == 1);
  CHECK(ratings::idle_periods(1000, 1000 + 52 * week + 5) == 52);
  CHECK(ratings::idle_periods(5000, 1000) == 0);
}

TEST_CASE("glicko2: provisional while the deviation is above 110") {
  CHECK(ratings::provisional(Rating{1500, 350, 0.06}));
  CHECK(ratings::provisional(Rating{1500, 110.5, 0.06}));
  CHECK_FALSE(ratings::provisional(Rating{1500, 110, 0.06}));
}
