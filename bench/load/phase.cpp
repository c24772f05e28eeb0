#include "bench/load/phase.h"

#include <future>
#include <iostream>
#include <thread>
#include <vector>

#include "bench/load/proc.h"

namespace cinq::load {

namespace {

constexpr auto kTick = std::chrono::milliseconds(500);
constexpr auto kSettle = std::chrono::milliseconds(500);  // lets the server finish what setup started

void schedule_ticks(Loop& loop, Workload& w) {
  loop.after(kTick, [&loop, &w] {
    w.tick(Clock::now());
    schedule_ticks(loop, w);
  });
}

std::chrono::duration<double> seconds(double s) { return std::chrono::duration<double>(s); }

// Takes every loop's acks since the last reading (on the loop's own thread) and the server's RSS.
Interval read_interval(std::vector<std::unique_ptr<Loop>>& loops,
                       std::vector<std::unique_ptr<Workload>>& workloads, const std::vector<pid_t>& pids,
                       Clock::time_point window_start, Clock::time_point last) {
  Interval result;
  const auto now = Clock::now();
  result.at_s = std::chrono::duration<double>(now - window_start).count();
  result.seconds = std::chrono::duration<double>(now - last).count();
  Latency ack;
  for (std::size_t i = 0; i < loops.size(); ++i) {
    auto taken = std::make_shared<std::promise<std::pair<Latency, std::int64_t>>>();
    auto f = taken->get_future();
    Workload& w = *workloads[i];
    loops[i]->post([&w, taken] {
      taken->set_value({std::move(w.interval_ack), w.interval_count});
      w.interval_ack = Latency();
      w.interval_count = 0;
    });
    auto [samples, count] = f.get();
    ack.merge(samples);
    result.count += count;
  }
  result.ack_p50_ms = ack.percentile_ms(0.5);
  result.ack_p99_ms = ack.percentile_ms(0.99);
  result.rss_kib = rss_kib(pids);
  return result;
}

}  // namespace

PhaseResult run_phase(const Options& options, const PhaseSpec& spec) {
  PhaseResult result;
  result.phase = spec.phase;
  result.mode = spec.mode;
  result.connections = spec.connections;
  result.rss_before_kib = rss_kib(spec.pids);

  Window window;
  std::vector<std::unique_ptr<Loop>> loops;
  std::vector<std::unique_ptr<Workload>> workloads;
  for (int i = 0; i < options.threads; ++i) {
    loops.push_back(std::make_unique<Loop>());
    WorkloadEnv env{options, spec.target, window, i, options.threads, spec.sources, spec.shape, spec.targets};
    workloads.push_back(spec.make(*loops.back(), env));
  }
  for (int i = 0; i < options.threads; ++i) {
    Loop& loop = *loops[i];
    Workload& w = *workloads[i];
    loop.post([&w] { w.start(); });
    schedule_ticks(loop, w);
    loop.start();
  }

  auto sum = [&](auto member) {
    std::int64_t n = 0;
    for (auto& w : workloads) n += ((*w).*member).load();
    return n;
  };
  const auto setup_started = Clock::now();
  const auto setup_deadline = setup_started + seconds(options.setup_timeout_s);
  auto last_report = setup_started;
  while (sum(&Workload::ready) < spec.units && Clock::now() < setup_deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (Clock::now() - last_report > std::chrono::seconds(5)) {
      last_report = Clock::now();
      std::cerr << "cinq_load: " << spec.phase << ": " << sum(&Workload::ready) << "/" << spec.units
                << " ready\n";
    }
  }
  const double setup_s = std::chrono::duration<double>(Clock::now() - setup_started).count();
  result.ready = sum(&Workload::ready);
  result.setup_s = setup_s;
  std::this_thread::sleep_for(kSettle);
  result.rss_ready_kib = rss_kib(spec.pids);
  result.open_at_ready = sum(&Workload::open);
  for (int i = 0; i < options.threads; ++i) {
    Workload& w = *workloads[i];
    loops[i]->post([&w] { w.go(); });
  }
  std::cerr << "cinq_load: " << spec.phase << ": " << result.ready << "/" << spec.units << " ready in "
            << static_cast<int>(setup_s * 1000) << " ms, " << result.open_at_ready << " connections open\n";

  const auto start = Clock::now() + std::chrono::duration_cast<Clock::duration>(seconds(options.warmup_s));
  const auto end = start + std::chrono::duration_cast<Clock::duration>(seconds(options.duration_s));
  window.set(start, end);
  std::this_thread::sleep_until(start);
  const auto server_cpu_start = cpu_seconds(spec.pids);
  const double client_cpu_start = self_cpu_seconds();
  const auto measured_start = Clock::now();
  if (options.report_every_s > 0) {
    const auto every = std::chrono::duration_cast<Clock::duration>(seconds(options.report_every_s));
    auto last = measured_start;
    for (auto next = measured_start + every; next <= end; next += every) {
      std::this_thread::sleep_until(next);
      result.intervals.push_back(read_interval(loops, workloads, spec.pids, measured_start, last));
      last = next;
      const Interval& i = result.intervals.back();
      std::cerr << "cinq_load: " << spec.phase << ": at " << static_cast<int>(i.at_s) << " s: "
                << static_cast<std::int64_t>(static_cast<double>(i.count) / i.seconds) << "/s, ack p50 "
                << i.ack_p50_ms.value_or(-1) << " ms p99 " << i.ack_p99_ms.value_or(-1) << " ms, server RSS "
                << i.rss_kib.value_or(-1) / 1024 << " MiB\n";
    }
  }
  std::this_thread::sleep_until(end);
  const auto server_cpu_end = cpu_seconds(spec.pids);
  const double client_cpu_end = self_cpu_seconds();
  result.window_s = std::chrono::duration<double>(Clock::now() - measured_start).count();
  result.held = sum(&Workload::open);
  result.rss_end_kib = rss_kib(spec.pids);
  if (server_cpu_start && server_cpu_end) {
    result.server_cpu_s = *server_cpu_end - *server_cpu_start;
    result.server_cpu_pct = *result.server_cpu_s / result.window_s * 100;
  }
  result.client_cpu_pct = (client_cpu_end - client_cpu_start) / result.window_s * 100;
  // The window is what the loops counted in: [start, end) by their clock, the same as ours.
  result.window_s = std::chrono::duration<double>(end - start).count();

  // Each loop drops its connections on its own thread, then all stop.
  for (int i = 0; i < options.threads; ++i) {
    auto done = std::make_shared<std::promise<void>>();
    auto f = done->get_future();
    Workload& w = *workloads[i];
    loops[i]->post([&w, done] {
      w.shutdown();
      done->set_value();
    });
    if (f.wait_for(std::chrono::seconds(5)) != std::future_status::ready)
      std::cerr << "cinq_load: loop " << i << " did not shut down in 5 s\n";
    loops[i]->stop();
  }
  if (result.ready < spec.units) result.stats.errors["not_ready"] += spec.units - result.ready;
  for (auto& w : workloads) result.stats.merge(w->stats);
  workloads.clear();  // connections go before the loops whose io_contexts they use
  loops.clear();
  return result;
}

}  // namespace cinq::load
