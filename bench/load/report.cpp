#include "bench/load/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cinq::load {

void Latency::add(Clock::duration d) {
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(d).count();
  us_.push_back(static_cast<std::uint32_t>(std::clamp<std::int64_t>(us, 0, UINT32_MAX)));
  sorted_ = false;
}

void Latency::merge(const Latency& other) {
  us_.insert(us_.end(), other.us_.begin(), other.us_.end());
  sorted_ = false;
}

std::optional<double> Latency::percentile_ms(double p) {
  if (us_.empty()) return std::nullopt;
  if (!sorted_) std::sort(us_.begin(), us_.end());
  sorted_ = true;
  // Nearest rank: the smallest sample with at least p of the samples at or below it.
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(us_.size())));
  return us_[std::clamp<std::size_t>(rank, 1, us_.size()) - 1] / 1000.0;
}

std::optional<double> Latency::max_ms() { return percentile_ms(1.0); }

void LoopStats::merge(const LoopStats& other) {
  count += other.count;
  received += other.received;
  games += other.games;
  ack.merge(other.ack);
  opp.merge(other.opp);
  for (const auto& [code, n] : other.errors) errors[code] += n;
}

std::int64_t PhaseResult::errors_total() const {
  std::int64_t n = 0;
  for (const auto& [code, k] : stats.errors) n += k;
  return n;
}

std::optional<double> PhaseResult::rss_per_conn_kib() const {
  if (!rss_before_kib || !rss_ready_kib || open_at_ready <= 0) return std::nullopt;
  return static_cast<double>(*rss_ready_kib - *rss_before_kib) / static_cast<double>(open_at_ready);
}

namespace {

nlohmann::json opt(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
nlohmann::json opt(const std::optional<std::int64_t>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json latency_json(Latency& l) {
  return {{"samples", l.size()},
          {"p50_ms", opt(l.percentile_ms(0.50))},
          {"p99_ms", opt(l.percentile_ms(0.99))},
          {"max_ms", opt(l.max_ms())}};
}

std::string cell(const std::optional<double>& v, const char* format = "%.2f") {
  if (!v) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, format, *v);
  return buffer;
}

std::string triple(Latency& l) {
  if (l.size() == 0) return "-";
  return cell(l.percentile_ms(0.5)) + "/" + cell(l.percentile_ms(0.99)) + "/" + cell(l.max_ms(), "%.1f");
}

std::optional<double> ratio(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b || *b == 0) return std::nullopt;
  return *a / *b;
}

}  // namespace

nlohmann::json PhaseResult::to_json() {
  nlohmann::json errors = nlohmann::json::object();
  for (const auto& [code, n] : stats.errors) errors[code] = n;
  return {{"phase", phase},
          {"mode", mode},
          {"connections", connections},
          {"connections_held", held},
          {"ready", ready},
          {"connections_open_at_ready", open_at_ready},
          {"setup_s", setup_s},
          {"window_s", window_s},
          {phase == "echo" ? "messages" : "turns", stats.count},
          {phase == "echo" ? "messages_per_s" : "turns_per_s", rate()},
          {"frames_received", stats.received},
          {"games_finished", stats.games},
          {"ack", latency_json(stats.ack)},
          {"opponent", latency_json(stats.opp)},
          {"errors", errors},
          {"errors_total", errors_total()},
          {"server_rss_before_kib", opt(rss_before_kib)},
          {"server_rss_ready_kib", opt(rss_ready_kib)},
          {"server_rss_end_kib", opt(rss_end_kib)},
          {"server_rss_per_conn_kib", opt(rss_per_conn_kib())},
          {"server_cpu_pct", opt(server_cpu_pct)},
          {"client_cpu_pct", client_cpu_pct}};
}

void print_table(std::ostream& out, std::vector<PhaseResult>& phases) {
  char line[512];
  std::snprintf(line, sizeof line, "%-6s %-5s %7s %7s %10s %22s %22s %7s %9s %8s %8s\n", "phase", "mode",
                "conns", "held", "turns|m/s", "ack p50/p99/max ms", "opp p50/p99/max ms", "errors",
                "KiB/conn", "srv CPU%", "cli CPU%");
  out << line;
  for (auto& p : phases) {
    const std::string rate = p.mode == "idle" ? "-" : cell(p.rate(), "%.1f");
    std::snprintf(
        line, sizeof line, "%-6s %-5s %7lld %7lld %10s %22s %22s %7lld %9s %8s %8.0f\n", p.phase.c_str(),
        p.mode.c_str(), static_cast<long long>(p.connections), static_cast<long long>(p.held), rate.c_str(),
        triple(p.stats.ack).c_str(), triple(p.stats.opp).c_str(), static_cast<long long>(p.errors_total()),
        cell(p.rss_per_conn_kib(), "%.1f").c_str(), cell(p.server_cpu_pct, "%.0f").c_str(), p.client_cpu_pct);
    out << line;
  }
  for (auto& p : phases) {
    if (p.stats.errors.empty()) continue;
    out << p.phase << " errors:";
    for (const auto& [code, n] : p.stats.errors) out << " " << code << "=" << n;
    out << "\n";
  }
}

nlohmann::json ratios(PhaseResult& echo, PhaseResult& cinq) {
  return {{"rate", opt(ratio(cinq.rate(), echo.rate()))},
          {"ack_p50", opt(ratio(cinq.stats.ack.percentile_ms(0.5), echo.stats.ack.percentile_ms(0.5)))},
          {"ack_p99", opt(ratio(cinq.stats.ack.percentile_ms(0.99), echo.stats.ack.percentile_ms(0.99)))},
          {"ack_max", opt(ratio(cinq.stats.ack.max_ms(), echo.stats.ack.max_ms()))},
          {"opp_p50", opt(ratio(cinq.stats.opp.percentile_ms(0.5), echo.stats.ack.percentile_ms(0.5)))},
          {"opp_p99", opt(ratio(cinq.stats.opp.percentile_ms(0.99), echo.stats.ack.percentile_ms(0.99)))},
          {"rss_per_conn", opt(ratio(cinq.rss_per_conn_kib(), echo.rss_per_conn_kib()))},
          {"server_cpu", opt(ratio(cinq.server_cpu_pct, echo.server_cpu_pct))}};
}

void print_ratios(std::ostream& out, const nlohmann::json& r) {
  auto show = [&](const char* key) {
    const auto& v = r.at(key);
    if (v.is_null()) return std::string("-");
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f", v.get<double>());
    return std::string(buffer);
  };
  out << "cinq/echo: rate " << show("rate") << ", ack p50 " << show("ack_p50") << " p99 " << show("ack_p99")
      << " max " << show("ack_max") << ", opp/echo-ack p50 " << show("opp_p50") << " p99 " << show("opp_p99")
      << ", rss/conn " << show("rss_per_conn") << ", server CPU " << show("server_cpu") << "\n";
}

}  // namespace cinq::load
