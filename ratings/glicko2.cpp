#include "ratings/glicko2.h"

#include <algorithm>
#include <cmath>

namespace cinq::ratings {
namespace {

constexpr double kScale = 173.7178;  // Glicko to Glicko-2: mu = (r - 1500) / 173.7178, phi = RD / 173.7178
constexpr double kEpsilon = 0.000001;  // the paper's convergence tolerance for the volatility
constexpr double kPi = 3.14159265358979323846;

double g(double phi) { return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (kPi * kPi)); }

double expected(double mu, double mu_j, double phi_j) { return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j))); }

double capped_phi(double phi) { return std::min(phi, kMaxDeviation / kScale); }

// Step 5: the new volatility, by the Illinois algorithm on f(x) = 0 (x = ln sigma'^2).
double new_volatility(double phi, double sigma, double v, double delta, double tau) {
  const double a = std::log(sigma * sigma);
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
  };
  double big_a = a;
  double big_b;
  if (delta * delta > phi * phi + v) {
    big_b = std::log(delta * delta - phi * phi - v);
  } else {
    double k = 1;
    while (f(a - k * tau) < 0) k += 1;
    big_b = a - k * tau;
  }
  double f_a = f(big_a);
  double f_b = f(big_b);
  for (int i = 0; i < 1000 && std::fabs(big_b - big_a) > kEpsilon; ++i) {
    const double c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
    const double f_c = f(c);
    if (f_c * f_b <= 0) {
      big_a = big_b;
      f_a = f_b;
    } else {
      f_a /= 2;
    }
    big_b = c;
    f_b = f_c;
  }
  return std::exp(big_a / 2);
}

}  // namespace

Rating update(const Rating& player, const std::vector<Result>& results, double tau) {
  const double mu = (player.rating - 1500.0) / kScale;
  const double phi = player.deviation / kScale;
  const double sigma = player.volatility;
  if (results.empty()) return idle(player, 1);
  // Steps 3 and 4: the estimated variance v and the improvement delta.
  double v_inverse = 0;
  double sum = 0;
  for (const Result& r : results) {
    const double mu_j = (r.opponent.rating - 1500.0) / kScale;
    const double phi_j = r.opponent.deviation / kScale;
    const double e = expected(mu, mu_j, phi_j);
    v_inverse += g(phi_j) * g(phi_j) * e * (1 - e);
    sum += g(phi_j) * (r.score - e);
  }
  const double v = 1.0 / v_inverse;
  const double delta = v * sum;
  // Steps 5 to 7.
  const double sigma_new = new_volatility(phi, sigma, v, delta, tau);
  const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
  const double phi_new = capped_phi(1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v));
  const double mu_new = mu + phi_new * phi_new * sum;
  // Step 8.
  return Rating{kScale * mu_new + 1500.0, kScale * phi_new, sigma_new};
}

Rating idle(const Rating& player, std::int64_t periods) {
  if (periods <= 0) return player;
  double phi = player.deviation / kScale;
  phi = capped_phi(std::sqrt(phi * phi + static_cast<double>(periods) * player.volatility * player.volatility));
  return Rating{player.rating, kScale * phi, player.volatility};
}

std::int64_t idle_periods(std::int64_t last_ms, std::int64_t now_ms) {
  if (last_ms <= 0 || now_ms <= last_ms) return 0;
  return (now_ms - last_ms) / kIdlePeriodMs;
}

}  // namespace cinq::ratings
