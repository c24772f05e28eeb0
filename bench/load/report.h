// What a phase measured, and how it is shown: a table on stdout and the same fields as JSON.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "bench/load/options.h"
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

// Frames received and their payload bytes.
struct FrameTally {
  std::int64_t frames = 0;
  std::int64_t bytes = 0;
  void add(std::size_t size) {
    ++frames;
    bytes += static_cast<std::int64_t>(size);
  }
  void merge(const FrameTally& o) {
    frames += o.frames;
    bytes += o.bytes;
  }
};

// Counters of one event loop (touched only by its thread; merged after the loops stop).
struct LoopStats {
  std::int64_t count = 0;     // accepted turns (cinq), echoes (echo) or relayed turns (relay) in the window
  std::int64_t received = 0;  // every frame received in the window, all connections
  std::int64_t games = 0;     // games finished in the window
  Latency ack;                // send -> the sender's answer
  Latency opp;                // send -> the opponent's copy (cinq, relay)
  std::map<std::string, std::int64_t> errors;
  // cinq: what the room's connections received in the window, for the relay's shape. Frames at a player
  // that gave it the move (they carry `legal`), other frames at players, frames at spectators.
  FrameTally to_move, players_other, spectators;

  void merge(const LoopStats& other);
};

// One --report-every reading: the interval that ended `at_s` seconds into the window.
struct Interval {
  double at_s = 0;
  double seconds = 0;
  std::int64_t count = 0;
  std::optional<double> ack_p50_ms, ack_p99_ms;
  std::optional<std::int64_t> rss_kib;
  nlohmann::json to_json() const;
};

struct PhaseResult {
  std::string phase;               // "cinq", "echo" or "relay"
  std::string mode;                // "play" or "idle"
  std::int64_t connections = 0;    // asked for
  std::int64_t held = 0;           // open at the end of the window
  std::int64_t ready = 0;          // rooms live (play) or connections answered (idle), at window start
  std::int64_t open_at_ready = 0;  // connections open when rss_ready was read
  double setup_s = 0;              // from the first connect until all were ready (or the setup timeout)
  double window_s = 0;
  int spectators = 0;  // per room (play)
  LoopStats stats;
  std::optional<std::int64_t> rss_before_kib, rss_ready_kib, rss_end_kib;
  std::optional<double> server_cpu_s;  // utime + stime over the window
  std::optional<double> server_cpu_pct;
  double client_cpu_pct = 0;
  std::optional<RelayShape> relay_shape;  // relay: what it was asked to send
  std::vector<Interval> intervals;        // --report-every

  double rate() const { return window_s > 0 ? static_cast<double>(stats.count) / window_s : 0; }
  std::int64_t errors_total() const;
  // (rss_ready - rss_before) / open_at_ready, in KiB.
  std::optional<double> rss_per_conn_kib() const;
  // The server's CPU microseconds per turn (per echo, per relayed turn).
  std::optional<double> cpu_us_per_turn() const;
  // cinq play: what a room's connections received per accepted turn (nullopt without turns).
  std::optional<RelayShape> measured_shape() const;
  nlohmann::json to_json();
};

// The figures of one phase that are printed and whose medians are taken over runs.
struct Summary {
  std::string phase, mode;
  std::optional<double> connections, held, rate, ack_p50, ack_p99, ack_max, opp_p50, opp_p99, opp_max, errors,
      rss_per_conn, server_cpu_pct, cpu_us_per_turn, client_cpu_pct, setup_s;

  static Summary of(PhaseResult& p);
  nlohmann::json to_json() const;
};

// Field by field (a phase's runs); the median of an even count is the mean of the middle two.
Summary median(const std::vector<Summary>& runs);
std::optional<double> median(std::vector<double> values);

void print_table(std::ostream& out, const std::vector<Summary>& phases);
void print_errors(std::ostream& out, const std::vector<PhaseResult>& phases);
// cinq / a baseline, for the figures both have.
nlohmann::json ratios(const Summary& base, const Summary& cinq);
void print_ratios(std::ostream& out, const std::string& base, const nlohmann::json& ratios);

}  // namespace cinq::load
