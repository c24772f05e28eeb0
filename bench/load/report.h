// What a phase measured, and how it is shown: a table on stdout and the same fields as JSON.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "bench/load/ws_conn.h"

namespace cinq::load {

// Latency samples in microseconds (a few hundred thousand at most: kept whole, sorted once at the end).
class Latency {
 public:
  void add(Clock::duration d);
  void merge(const Latency& other);
  std::size_t size() const { return us_.size(); }
  // p in [0, 1]; milliseconds; nullopt without samples.
  std::optional<double> percentile_ms(double p);
  std::optional<double> max_ms();

 private:
  std::vector<std::uint32_t> us_;
  bool sorted_ = false;
};

// Counters of one event loop (touched only by its thread; merged after the loops stop).
struct LoopStats {
  std::int64_t count = 0;     // accepted turns (cinq) or echoes (echo) received in the window
  std::int64_t received = 0;  // every frame received in the window, all connections
  std::int64_t games = 0;     // games finished in the window
  Latency ack;                // send -> the sender's answer
  Latency opp;                // send -> the opponent's copy (cinq only)
  std::map<std::string, std::int64_t> errors;

  void merge(const LoopStats& other);
};

struct PhaseResult {
  std::string phase;               // "echo" or "cinq"
  std::string mode;                // "play" or "idle"
  std::int64_t connections = 0;    // asked for
  std::int64_t held = 0;           // open at the end of the window
  std::int64_t ready = 0;          // rooms live (play) or connections answered (idle), at window start
  std::int64_t open_at_ready = 0;  // connections open when rss_ready was read
  double setup_s = 0;              // from the first connect until all were ready (or the setup timeout)
  double window_s = 0;
  LoopStats stats;
  std::optional<std::int64_t> rss_before_kib, rss_ready_kib, rss_end_kib;
  std::optional<double> server_cpu_pct;
  double client_cpu_pct = 0;

  double rate() const { return window_s > 0 ? static_cast<double>(stats.count) / window_s : 0; }
  std::int64_t errors_total() const;
  // (rss_ready - rss_before) / open_at_ready, in KiB.
  std::optional<double> rss_per_conn_kib() const;
  nlohmann::json to_json();
};

void print_table(std::ostream& out, std::vector<PhaseResult>& phases);
// cinq / echo for the figures both have; empty without both phases.
nlohmann::json ratios(PhaseResult& echo, PhaseResult& cinq);
void print_ratios(std::ostream& out, const nlohmann::json& ratios);

}  // namespace cinq::load
