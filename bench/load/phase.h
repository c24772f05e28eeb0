// One phase of a run (the echo baseline, or cinq): workloads on the client loops, the measured window,
// and the server-side readings around it.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "bench/load/options.h"
#include "bench/load/report.h"
#include "bench/load/ws_conn.h"

namespace cinq::load {

// The measured window, fixed by the main thread once setup is over; loops only read it.
class Window {
 public:
  void set(Clock::time_point start, Clock::time_point end) {
    end_.store(end.time_since_epoch().count());
    start_.store(start.time_since_epoch().count());
  }
  bool contains(Clock::time_point t) const {
    const auto c = t.time_since_epoch().count();
    return c >= start_.load(std::memory_order_relaxed) && c < end_.load(std::memory_order_relaxed);
  }

 private:
  std::atomic<Clock::rep> start_{std::numeric_limits<Clock::rep>::max()};
  std::atomic<Clock::rep> end_{std::numeric_limits<Clock::rep>::max()};
};

struct WorkloadEnv {
  const Options& options;
  Target target;  // the server; with --urls, the first of `targets`
  const Window& window;
  int loop_index = 0;
  int loops = 1;
  const std::vector<std::string>& sources;  // local addresses to connect from, round-robin; empty: any
  const RelayShape& shape;                  // the relay phase's frames per turn
  const std::vector<Target>& targets;       // cinq with --urls: every URL (Options::placement); else empty
  // This loop's share of `total` units (rooms or connections), and the global index of its first one.
  int share(int total) const { return total / loops + (loop_index < total % loops ? 1 : 0); }
  // The source address of the connection with this global number.
  const std::string& source(std::int64_t n) const {
    static const std::string none;
    return sources.empty() ? none : sources[static_cast<std::size_t>(n) % sources.size()];
  }
};

// The part of a phase that runs on one loop. Everything but the atomics is touched on that loop only.
class Workload {
 public:
  virtual ~Workload() = default;
  virtual void start() = 0;                      // begin connecting
  virtual void tick(Clock::time_point now) = 0;  // twice a second: stall checks, setup pacing
  virtual void shutdown() = 0;                   // detach and drop every connection
  // Setup is over (every room live, or the setup timeout): rooms start playing. Until then a live room
  // waits, so that setting up the last rooms does not queue behind the first ones' games.
  virtual void go() {}

  LoopStats stats;
  std::atomic<std::int64_t> ready{0};  // units set up (a room live, a connection answered)
  std::atomic<std::int64_t> open{0};   // connections open now
  // The acks since the last --report-every reading (the window's only), touched only by the loop's thread.
  Latency interval_ack;
  std::int64_t interval_count = 0;
};

using WorkloadFactory = std::function<std::unique_ptr<Workload>(Loop&, const WorkloadEnv&)>;

struct PhaseSpec {
  std::string phase;  // "cinq", "echo" or "relay"
  std::string mode;   // "play" or "idle"
  std::int64_t connections = 0;
  std::vector<std::string> sources;  // see WorkloadEnv
  RelayShape shape;                  // relay only
  std::int64_t units = 0;            // what `ready` must reach before the window starts
  Target target;
  std::vector<Target> targets;  // see WorkloadEnv
  std::vector<pid_t> pids;      // the server (or the nodes), for /proc readings (none: not read)
  WorkloadFactory make;
};

PhaseResult run_phase(const Options& options, const PhaseSpec& spec);

std::unique_ptr<Workload> make_play_workload(Loop& loop, const WorkloadEnv& env);
std::unique_ptr<Workload> make_echo_workload(Loop& loop, const WorkloadEnv& env);
std::unique_ptr<Workload> make_relay_workload(Loop& loop, const WorkloadEnv& env);
// `hello`: the text each connection sends once open; the first frame back makes it ready.
std::unique_ptr<Workload> make_idle_workload(Loop& loop, const WorkloadEnv& env);

}  // namespace cinq::load
