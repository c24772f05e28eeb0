// The ladder's arithmetic (bench/ladder_stats.h): scores with draws as half a win, the Wilson interval (a
// game a trial) and the one weighing the draws, and the Elo difference, against figures worked out by hand.
#include "bench/ladder_stats.h"

#include <doctest/doctest.h>

#include <cmath>

using cinq::bench::elo;
using cinq::bench::Score;
using cinq::bench::wilson;
using cinq::bench::wilson_with_draws;

TEST_CASE("ladder: a draw counts half a win, and an even score is 0 Elo") {
  const Score s{10, 4, 6};
  CHECK(s.games() == 20);
  CHECK(s.share() == doctest::Approx(0.6));
  CHECK(elo(0.5) == doctest::Approx(0));
  CHECK(elo(0.75) == doctest::Approx(190.85).epsilon(0.001));  // 400 log10(3)
  CHECK(elo(0.25) == doctest::Approx(-190.85).epsilon(0.001));
  CHECK(std::isinf(elo(1.0)));
}

TEST_CASE("ladder: the Wilson interval of 26 points in 40 games is 49.5% to 78.0%") {
  // p = 0.65, n = 40, z = 1.96: centre (0.65 + 0.048) / 1.096, half width 1.96 sqrt(0.005688 + 0.0006) / 1.096.
  const auto ci = wilson(Score{26, 0, 14});
  CHECK(ci.low == doctest::Approx(0.495).epsilon(0.005));
  CHECK(ci.high == doctest::Approx(0.780).epsilon(0.005));
}

TEST_CASE("ladder: the Wilson interval stays inside 0 to 1 when every game is won") {
  const auto ci = wilson(Score{20, 0, 0});
  CHECK(ci.high == doctest::Approx(1.0));
  CHECK(ci.low == doctest::Approx(0.839).epsilon(0.005));
  CHECK(ci.low > 0.5);
}

TEST_CASE("ladder: weighing the draws, 19 wins, 14 draws and 7 losses in 40 games are 52.9% to 75.5%") {
  // p = 0.65; the variance per game (19 * 0.35^2 + 14 * 0.15^2 + 7 * 0.65^2) / 40 = 0.14 against a win or
  // loss's 0.2275: 65 trials' worth. Wilson's interval for the same 26 points, a game a trial, is 49.5% to
  // 78.0%.
  const Score s{19, 14, 7};
  const auto ci = wilson_with_draws(s);
  CHECK(ci.low == doctest::Approx(0.5286).epsilon(0.001));
  CHECK(ci.high == doctest::Approx(0.7546).epsilon(0.001));
  const auto same = wilson(0.65, 65);
  CHECK(ci.low == doctest::Approx(same.low));
  CHECK(ci.high == doctest::Approx(same.high));
  CHECK(wilson(s).low < 0.5);
}

TEST_CASE("ladder: without draws, or with nothing but draws, the interval weighing draws is Wilson's") {
  for (const Score s : {Score{26, 0, 14}, Score{20, 0, 0}, Score{0, 0, 9}, Score{0, 12, 0}}) {
    CAPTURE(s.wins);
    CAPTURE(s.draws);
    CHECK(wilson_with_draws(s).low == doctest::Approx(wilson(s).low));
    CHECK(wilson_with_draws(s).high == doctest::Approx(wilson(s).high));
  }
  // More draws narrow it: the same 20 points in 40 games.
  CHECK(wilson_with_draws(Score{10, 20, 10}).low > wilson_with_draws(Score{15, 10, 15}).low);
  CHECK(wilson_with_draws(Score{15, 10, 15}).low > wilson(Score{20, 0, 20}).low);
}
