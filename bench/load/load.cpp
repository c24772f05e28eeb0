// cinq_load: the load generator of issue 10 (see --help, and docs/performance.md for how it is used).
// It runs the servers it measures as child processes, never in its own: their CPU and memory are then
// theirs alone, read from /proc.
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "bench/load/options.h"
#include "bench/load/phase.h"
#include "bench/load/proc.h"

namespace cinq::load {

namespace {

constexpr auto kStartTimeout = std::chrono::seconds(20);

std::optional<Target> parse_url(const std::string& url) {
  constexpr std::string_view kScheme = "ws://";
  if (url.rfind(kScheme, 0) != 0) return std::nullopt;
  const std::string rest = url.substr(kScheme.size());
  const auto slash = rest.find('/');
  const std::string authority = rest.substr(0, slash);
  const auto colon = authority.rfind(':');
  if (colon == std::string::npos) return std::nullopt;
  Target t;
  t.host = authority.substr(0, colon);
  const int port = std::atoi(authority.c_str() + colon + 1);
  if (port <= 0 || port > 65535) return std::nullopt;
  t.port = static_cast<std::uint16_t>(port);
  if (slash != std::string::npos) t.path = rest.substr(slash);
  return t;
}

PhaseSpec spec_for(const Options& o, const std::string& phase) {
  PhaseSpec spec;
  spec.phase = phase;
  if (o.mode == Mode::idle) {
    spec.mode = "idle";
    spec.connections = spec.units = o.connections;
    spec.make = make_idle_workload;
  } else {
    spec.mode = "play";
    spec.connections = static_cast<std::int64_t>(o.rooms) * (2 + o.spectators);
    spec.units = o.rooms;
    spec.make = phase == "echo" ? make_echo_workload : make_play_workload;
  }
  return spec;
}

// Starts a server, runs one phase against it, stops it. nullopt if it would not start.
std::optional<PhaseResult> run_child_phase(const Options& o, const std::string& phase,
                                           std::vector<std::string> argv, const std::string& log_path) {
  std::string error;
  auto child = start_child(argv, log_path, kStartTimeout, error);
  if (!child) {
    std::cerr << "cinq_load: " << error << "\n";
    return std::nullopt;
  }
  std::cerr << "cinq_load: " << phase << " server pid " << child->pid << " on port " << child->port
            << " (log " << log_path << ")\n";
  PhaseSpec spec = spec_for(o, phase);
  spec.target.port = child->port;
  spec.pid = child->pid;
  PhaseResult result = run_phase(o, spec);
  const std::string how = stop_child(*child);
  std::cerr << "cinq_load: " << phase << " server stopped (" << how << ")\n";
  return result;
}

int run(const Options& o) {
  const auto files = raise_file_limit();
  const std::int64_t needed =
      o.mode == Mode::idle ? o.connections : static_cast<std::int64_t>(o.rooms) * (2 + o.spectators);
  if (static_cast<std::int64_t>(files) < needed + 64)
    std::cerr << "cinq_load: warning: only " << files << " file descriptors for " << needed
              << " connections\n";
  ::signal(SIGPIPE, SIG_IGN);

  const std::string dir = make_temp_dir("cinq-load-");
  if (dir.empty()) {
    std::cerr << "cinq_load: cannot make a temporary directory\n";
    return 1;
  }
  std::vector<PhaseResult> results;
  int status = 0;
  const std::string threads = std::to_string(o.server_threads);
  if (o.baseline) {
    auto r = run_child_phase(o, "echo", {o.echo, "--port", "0", "--threads", threads}, dir + "/echo.log");
    if (!r)
      status = 1;
    else
      results.push_back(std::move(*r));
  }
  if (status == 0 && !o.url.empty()) {
    PhaseSpec spec = spec_for(o, "cinq");
    spec.target = *parse_url(o.url);
    spec.pid = o.pid;
    results.push_back(run_phase(o, spec));
  } else if (status == 0) {
    std::vector<std::string> argv{o.server,      "serve", "--port", "0",         "--data",
                                  dir + "/data", "--web", "",       "--threads", threads};
    if (o.address_flags) {
      for (const char* a : {"--per-address-connections", "0", "--per-address-rate", "0"}) argv.push_back(a);
    }
    std::filesystem::create_directories(dir + "/data");
    auto r = run_child_phase(o, "cinq", argv, dir + "/cinq.log");
    if (!r)
      status = 1;
    else
      results.push_back(std::move(*r));
  }

  if (!results.empty()) {
    std::cout << "\n";
    print_table(std::cout, results);
    nlohmann::json json = {{"mode", o.mode == Mode::idle ? "idle" : "play"},
                           {"rooms", o.rooms},
                           {"spectators", o.spectators},
                           {"connections", o.connections},
                           {"games", o.games},
                           {"turn_rate", o.turn_rate},
                           {"duration_s", o.duration_s},
                           {"warmup_s", o.warmup_s},
                           {"client_threads", o.threads},
                           {"server_threads", o.server_threads},
                           {"phases", nlohmann::json::array()}};
    for (auto& r : results) json["phases"].push_back(r.to_json());
    if (results.size() == 2) {
      json["ratios"] = ratios(results[0], results[1]);
      print_ratios(std::cout, json["ratios"]);
    }
    if (!o.json_path.empty()) {
      std::ofstream out(o.json_path);
      out << json.dump(2) << "\n";
      if (!out) std::cerr << "cinq_load: cannot write " << o.json_path << "\n";
    }
    for (auto& r : results)
      if (status == 0 && r.errors_total() > 0) status = 3;
  }
  if (status == 1) {
    std::cerr << "cinq_load: logs kept in " << dir << "\n";
  } else {
    remove_tree(dir);
  }
  return status;
}

}  // namespace

}  // namespace cinq::load

int main(int argc, char** argv) {
  int exit_code = 0;
  auto options = cinq::load::parse_options(argc, argv, exit_code);
  if (!options) return exit_code;
  if (!options->url.empty() && !cinq::load::parse_url(options->url)) {
    std::cerr << "cinq_load: --url must look like ws://127.0.0.1:8080/ws\n";
    return 2;
  }
  return cinq::load::run(*options);
}
