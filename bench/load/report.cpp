#include "bench/load/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

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
  to_move.merge(other.to_move);
  players_other.merge(other.players_other);
  spectators.merge(other.spectators);
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

std::optional<double> PhaseResult::cpu_us_per_turn() const {
  if (!server_cpu_s || stats.count <= 0) return std::nullopt;
  return *server_cpu_s * 1e6 / static_cast<double>(stats.count);
}

std::optional<RelayShape> PhaseResult::measured_shape() const {
  if (phase != "cinq" || mode != "play" || stats.count <= 0) return std::nullopt;
  const double turns = static_cast<double>(stats.count);
  RelayShape shape;
  auto fill = [&](int role, const FrameTally& t, double connections) {
    if (t.frames <= 0 || connections <= 0) return;
    shape.frames[role] = static_cast<double>(t.frames) / turns / connections;
    shape.bytes[role] = static_cast<double>(t.bytes) / static_cast<double>(t.frames);
  };
  // Per turn one player is the mover and the other gets the move: the frames that gave a player the move
  // are the second's, the rest the first's.
  fill(RelayShape::kMover, stats.players_other, 1);
  fill(RelayShape::kOpponent, stats.to_move, 1);
  fill(RelayShape::kSpectator, stats.spectators, spectators);
  if (!shape.valid()) return std::nullopt;
  return shape;
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

nlohmann::json shape_json(const RelayShape& s) {
  auto role = [&](int r) {
    return nlohmann::json{{"frames_per_turn", s.frames[r]}, {"bytes_per_frame", s.bytes[r]}};
  };
  return {{"mover", role(RelayShape::kMover)},
          {"opponent", role(RelayShape::kOpponent)},
          {"spectator", role(RelayShape::kSpectator)},
          {"text", s.text()}};
}

std::string cell(const std::optional<double>& v, const char* format = "%.2f") {
  if (!v) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, format, *v);
  return buffer;
}

std::string triple(const std::optional<double>& p50, const std::optional<double>& p99,
                   const std::optional<double>& max) {
  if (!p50) return "-";
  return cell(p50) + "/" + cell(p99) + "/" + cell(max, "%.1f");
}

std::optional<double> ratio(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b || *b == 0) return std::nullopt;
  return *a / *b;
}

}  // namespace

nlohmann::json Interval::to_json() const {
  return {{"at_s", at_s},
          {"seconds", seconds},
          {"count", count},
          {"per_s", seconds > 0 ? static_cast<double>(count) / seconds : 0},
          {"ack_p50_ms", opt(ack_p50_ms)},
          {"ack_p99_ms", opt(ack_p99_ms)},
          {"server_rss_kib", opt(rss_kib)}};
}

nlohmann::json PhaseResult::to_json() {
  nlohmann::json errors = nlohmann::json::object();
  for (const auto& [code, n] : stats.errors) errors[code] = n;
  const char* what = phase == "echo" ? "messages" : "turns";
  nlohmann::json j = {{"phase", phase},
                      {"mode", mode},
                      {"connections", connections},
                      {"connections_held", held},
                      {"ready", ready},
                      {"connections_open_at_ready", open_at_ready},
                      {"setup_s", setup_s},
                      {"window_s", window_s},
                      {what, stats.count},
                      {std::string(what) + "_per_s", rate()},
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
                      {"server_cpu_s", opt(server_cpu_s)},
                      {"server_cpu_pct", opt(server_cpu_pct)},
                      {"server_cpu_us_per_turn", opt(cpu_us_per_turn())},
                      {"client_cpu_pct", client_cpu_pct}};
  if (auto s = measured_shape()) j["frames_per_turn"] = shape_json(*s);
  if (relay_shape) j["relay_shape"] = shape_json(*relay_shape);
  if (!intervals.empty()) {
    j["intervals"] = nlohmann::json::array();
    for (const auto& i : intervals) j["intervals"].push_back(i.to_json());
  }
  return j;
}

Summary Summary::of(PhaseResult& p) {
  Summary s;
  s.phase = p.phase;
  s.mode = p.mode;
  s.connections = static_cast<double>(p.connections);
  s.held = static_cast<double>(p.held);
  if (p.mode == "play") s.rate = p.rate();
  s.ack_p50 = p.stats.ack.percentile_ms(0.5);
  s.ack_p99 = p.stats.ack.percentile_ms(0.99);
  s.ack_max = p.stats.ack.max_ms();
  s.opp_p50 = p.stats.opp.percentile_ms(0.5);
  s.opp_p99 = p.stats.opp.percentile_ms(0.99);
  s.opp_max = p.stats.opp.max_ms();
  s.errors = static_cast<double>(p.errors_total());
  s.rss_per_conn = p.rss_per_conn_kib();
  s.server_cpu_pct = p.server_cpu_pct;
  if (p.mode == "play") s.cpu_us_per_turn = p.cpu_us_per_turn();
  s.client_cpu_pct = p.client_cpu_pct;
  s.setup_s = p.setup_s;
  return s;
}

namespace {

// Every figure of a Summary, by name (for JSON and for medians).
template <class S, class Fn>
void each_figure(S& s, Fn&& fn) {
  fn("connections", s.connections);
  fn("held", s.held);
  fn("rate", s.rate);
  fn("ack_p50_ms", s.ack_p50);
  fn("ack_p99_ms", s.ack_p99);
  fn("ack_max_ms", s.ack_max);
  fn("opp_p50_ms", s.opp_p50);
  fn("opp_p99_ms", s.opp_p99);
  fn("opp_max_ms", s.opp_max);
  fn("errors", s.errors);
  fn("rss_per_conn_kib", s.rss_per_conn);
  fn("server_cpu_pct", s.server_cpu_pct);
  fn("server_cpu_us_per_turn", s.cpu_us_per_turn);
  fn("client_cpu_pct", s.client_cpu_pct);
  fn("setup_s", s.setup_s);
}

}  // namespace

nlohmann::json Summary::to_json() const {
  nlohmann::json j = {{"phase", phase}, {"mode", mode}};
  each_figure(*this, [&](const char* name, const std::optional<double>& v) { j[name] = opt(v); });
  return j;
}

std::optional<double> median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Summary median(const std::vector<Summary>& runs) {
  Summary out;
  if (runs.empty()) return out;
  out.phase = runs.front().phase;
  out.mode = runs.front().mode;
  each_figure(out, [&](const char* name, std::optional<double>& target) {
    std::vector<double> values;
    for (const auto& r : runs) {
      each_figure(r, [&](const char* n, const std::optional<double>& v) {
        if (v && std::string_view(n) == name) values.push_back(*v);
      });
    }
    target = median(std::move(values));
  });
  return out;
}

void print_table(std::ostream& out, const std::vector<Summary>& phases) {
  char line[512];
  std::snprintf(line, sizeof line, "%-6s %-5s %7s %7s %10s %22s %22s %7s %9s %8s %9s %8s\n", "phase", "mode",
                "conns", "held", "turns|m/s", "ack p50/p99/max ms", "opp p50/p99/max ms", "errors",
                "KiB/conn", "srv CPU%", "srv us/t", "cli CPU%");
  out << line;
  for (const auto& p : phases) {
    std::snprintf(line, sizeof line, "%-6s %-5s %7s %7s %10s %22s %22s %7s %9s %8s %9s %8s\n",
                  p.phase.c_str(), p.mode.c_str(), cell(p.connections, "%.0f").c_str(),
                  cell(p.held, "%.0f").c_str(), cell(p.rate, "%.1f").c_str(),
                  triple(p.ack_p50, p.ack_p99, p.ack_max).c_str(),
                  triple(p.opp_p50, p.opp_p99, p.opp_max).c_str(), cell(p.errors, "%.0f").c_str(),
                  cell(p.rss_per_conn, "%.2f").c_str(), cell(p.server_cpu_pct, "%.0f").c_str(),
                  cell(p.cpu_us_per_turn, "%.1f").c_str(), cell(p.client_cpu_pct, "%.0f").c_str());
    out << line;
  }
}

void print_errors(std::ostream& out, const std::vector<PhaseResult>& phases) {
  for (const auto& p : phases) {
    if (p.stats.errors.empty()) continue;
    out << p.phase << " errors:";
    for (const auto& [code, n] : p.stats.errors) out << " " << code << "=" << n;
    out << "\n";
  }
}

nlohmann::json ratios(const Summary& base, const Summary& cinq) {
  return {{"rate", opt(ratio(cinq.rate, base.rate))},
          {"ack_p50", opt(ratio(cinq.ack_p50, base.ack_p50))},
          {"ack_p99", opt(ratio(cinq.ack_p99, base.ack_p99))},
          {"ack_max", opt(ratio(cinq.ack_max, base.ack_max))},
          // The echo has no opponent: its ack stands for it.
          {"opp_p50", opt(ratio(cinq.opp_p50, base.opp_p50 ? base.opp_p50 : base.ack_p50))},
          {"opp_p99", opt(ratio(cinq.opp_p99, base.opp_p99 ? base.opp_p99 : base.ack_p99))},
          {"rss_per_conn", opt(ratio(cinq.rss_per_conn, base.rss_per_conn))},
          {"server_cpu", opt(ratio(cinq.server_cpu_pct, base.server_cpu_pct))},
          {"server_cpu_per_turn", opt(ratio(cinq.cpu_us_per_turn, base.cpu_us_per_turn))}};
}

void print_ratios(std::ostream& out, const std::string& base, const nlohmann::json& r) {
  auto show = [&](const char* key) {
    const auto& v = r.at(key);
    if (v.is_null()) return std::string("-");
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f", v.get<double>());
    return std::string(buffer);
  };
  out << "cinq/" << base << ": rate " << show("rate") << ", ack p50 " << show("ack_p50") << " p99 "
      << show("ack_p99") << " max " << show("ack_max") << ", opp p50 " << show("opp_p50") << " p99 "
      << show("opp_p99") << ", rss/conn " << show("rss_per_conn") << ", server CPU " << show("server_cpu")
      << ", CPU per turn " << show("server_cpu_per_turn") << "\n";
}

}  // namespace cinq::load
