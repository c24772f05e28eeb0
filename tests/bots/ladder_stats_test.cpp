// The ladder's arithmetic (bench/ladder_stats.h): scores with draws as half a win, the Wilson interval and
// the Elo difference, against figures worked out by hand.
#include "bench/ladder_stats.h"

#include <doctest/doctest.h>

#include <cmath>

using cinq::bench::elo;
using cinq::bench::Score;
using cinq::bench::wilson;

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
