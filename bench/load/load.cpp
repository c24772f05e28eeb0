// cinq_load: the load generator (see --help, and docs/performance.md for how it is used): what the server
// sustains, against the baselines of a bare echo and relay server. It runs the servers it measures as child
// processes, never in its own: their CPU and memory are then theirs alone, read from /proc.
#include <signal.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "bench/load/options.h"
#include "bench/load/phase.h"
#include "bench/load/proc.h"

namespace cinq::load {

namespace {

constexpr auto kStartTimeout = std::chrono::seconds(20);
constexpr std::uint64_t kSpareFiles = 128;             // this process's own files, the loops, the logs
constexpr std::int64_t kConnectionsPerSource = 20000;  // of the ~28,000 ephemeral ports of one address

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

std::int64_t connections_needed(const Options& o) {
  return o.mode == Mode::idle ? o.connections : static_cast<std::int64_t>(o.rooms) * (2 + o.spectators);
}

// The loopback source addresses to connect from (empty: let the kernel choose, 127.0.0.1).
std::vector<std::string> source_addresses(const Options& o, const std::string& host) {
  const std::int64_t n = connections_needed(o);
  const int k =
      o.sources > 0 ? o.sources : static_cast<int>((n + kConnectionsPerSource - 1) / kConnectionsPerSource);
  const bool loopback = host == "localhost" || host.rfind("127.", 0) == 0;
  if (k <= 1) return {};
  if (!loopback) {
    std::cerr << "cinq_load: the server is not on loopback: connecting from the kernel's choice of address, "
                 "not from "
              << k << " loopback addresses\n";
    return {};
  }
  std::vector<std::string> out;
  for (int i = 1; i <= k; ++i) out.push_back("127.0.0." + std::to_string(i));
  return out;
}

std::int64_t ephemeral_ports() {
  std::ifstream in("/proc/sys/net/ipv4/ip_local_port_range");
  std::int64_t lo = 0, hi = 0;
  if (!(in >> lo >> hi) || hi < lo) return 0;
  return hi - lo + 1;
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
    spec.make = phase == "echo"    ? make_echo_workload
                : phase == "relay" ? make_relay_workload
                                   : make_play_workload;
  }
  return spec;
}

PhaseResult finish(const Options& o, PhaseResult r) {
  r.spectators = o.spectators;
  return r;
}

// Starts a server, runs one phase against it, stops it. nullopt if it would not start.
std::optional<PhaseResult> run_child_phase(const Options& o, PhaseSpec spec, std::vector<std::string> argv,
                                           const std::string& log_path) {
  std::string error;
  auto child = start_child(argv, log_path, kStartTimeout, error);
  if (!child) {
    std::cerr << "cinq_load: " << error << "\n";
    return std::nullopt;
  }
  std::cerr << "cinq_load: " << spec.phase << " server pid " << child->pid << " on port " << child->port
            << " (log " << log_path << ")\n";
  if (auto files = open_files_limit(child->pid);
      files && static_cast<std::int64_t>(*files) < spec.connections)
    std::cerr << "cinq_load: warning: the " << spec.phase << " server may open only " << *files
              << " files (RLIMIT_NOFILE) for " << spec.connections << " connections\n";
  spec.target.port = child->port;
  spec.pids = {child->pid};
  PhaseResult result = run_phase(o, spec);
  const std::string how = stop_child(*child);
  std::cerr << "cinq_load: " << spec.phase << " server stopped (" << how << ")\n";
  return finish(o, std::move(result));
}

void print_shape(std::ostream& out, const char* what, const RelayShape& s) {
  char line[256];
  std::snprintf(line, sizeof line,
                "%s: mover %.3f frames x %.0f B, the player given the move %.3f x %.0f B, each spectator "
                "%.3f x %.0f B\n",
                what, s.frames[0], s.bytes[0], s.frames[1], s.bytes[1], s.frames[2], s.bytes[2]);
  out << line;
}

// Which servers the cinq phase played on, and how a room's connections were placed on them.
void print_placement(std::ostream& out, const Options& o) {
  out << "cinq on " << o.urls.size() << " URLs, "
      << (o.mode == Mode::idle ? std::string("connections round-robin")
                               : std::string("placement ") + placement_name(o.placement))
      << ":";
  for (const auto& url : o.urls) out << " " << url;
  out << "\n";
}

struct Run {
  std::vector<PhaseResult> phases;
  std::vector<Summary> summaries;
  std::map<std::string, nlohmann::json> ratios;  // by baseline
  int status = 0;                                // 1: a server would not start
};

Run run_once(const Options& o, const std::vector<std::string>& sources, const std::string& dir) {
  Run run;
  const std::string threads = std::to_string(o.server_threads);
  for (const auto& phase : o.phases) {
    PhaseSpec spec = spec_for(o, phase);
    spec.sources = sources;
    std::optional<PhaseResult> r;
    if (phase == "cinq" && !o.urls.empty()) {
      for (const auto& url : o.urls) spec.targets.push_back(*parse_url(url));
      spec.target = spec.targets.front();
      if (spec.targets.size() == 1) spec.targets.clear();  // one server: as with --url
      spec.pids = o.pids;
      r = finish(o, run_phase(o, spec));
    } else if (phase == "cinq") {
      std::vector<std::string> argv{o.server,      "serve", "--port", "0",         "--data",
                                    dir + "/data", "--web", "",       "--threads", threads};
      if (o.address_flags) {
        for (const char* a : {"--per-address-connections", "0", "--per-address-rate", "0", "--http-rate", "0",
                              "--http-connections-per-address", "0"})
          argv.push_back(a);
      }
      for (const auto& a : o.server_args) argv.push_back(a);
      std::filesystem::remove_all(dir + "/data");
      std::filesystem::create_directories(dir + "/data");
      r = run_child_phase(o, spec, argv, dir + "/cinq.log");
    } else if (phase == "echo") {
      r = run_child_phase(o, spec, {o.echo, "--port", "0", "--threads", threads}, dir + "/echo.log");
    } else {  // relay
      std::optional<RelayShape> shape = o.relay_shape;
      if (!shape) {
        for (auto& p : run.phases)
          if (p.phase == "cinq") shape = p.measured_shape();
      }
      if (!shape) {
        std::cerr << "cinq_load: no relay phase: the cinq phase counted no turns to take its shape from\n";
        continue;
      }
      print_shape(std::cerr, "cinq_load: relay shape", *shape);
      spec.shape = *shape;
      r = run_child_phase(o, spec, {o.echo, "--port", "0", "--threads", threads, "--relay"},
                          dir + "/relay.log");
      if (r) r->relay_shape = *shape;
    }
    if (!r) {
      run.status = 1;
      return run;
    }
    run.phases.push_back(std::move(*r));
  }
  for (auto& p : run.phases) run.summaries.push_back(Summary::of(p));
  const Summary* cinq = nullptr;
  for (const auto& s : run.summaries)
    if (s.phase == "cinq") cinq = &s;
  if (cinq)
    for (const auto& s : run.summaries)
      if (s.phase != "cinq") run.ratios[s.phase] = ratios(s, *cinq);
  return run;
}

void print_run(std::ostream& out, Run& run) {
  print_table(out, run.summaries);
  print_errors(out, run.phases);
  for (auto& p : run.phases)
    if (auto s = p.measured_shape()) print_shape(out, "cinq sent per accepted turn", *s);
  for (const auto& [base, r] : run.ratios) print_ratios(out, base, r);
}

nlohmann::json median_ratios(const std::vector<Run>& runs) {
  nlohmann::json out = nlohmann::json::object();
  std::map<std::string, std::map<std::string, std::vector<double>>> values;
  for (const auto& run : runs)
    for (const auto& [base, r] : run.ratios)
      for (const auto& [key, v] : r.items())
        if (v.is_number())
          values[base][key].push_back(v.get<double>());
        else
          values[base][key];
  for (auto& [base, keys] : values)
    for (auto& [key, v] : keys) {
      const auto m = median(v);
      out[base][key] = m ? nlohmann::json(*m) : nlohmann::json(nullptr);
    }
  return out;
}

int run(Options o) {
  ::signal(SIGPIPE, SIG_IGN);
  const std::int64_t needed = connections_needed(o);
  const int connections_asked = o.connections;
  // Every connection is a file here and another in the server, which inherits this limit.
  const FileLimit files = raise_file_limit(static_cast<std::uint64_t>(needed) + kSpareFiles);
  if (needed > 1000 || files.soft < static_cast<std::uint64_t>(needed) + kSpareFiles)
    std::cerr << "cinq_load: RLIMIT_NOFILE raised to " << files.soft << " (hard limit " << files.hard
              << (files.hard != files.hard_before ? ", was " + std::to_string(files.hard_before)
                                                  : std::string())
              << "); this run needs about " << needed + static_cast<std::int64_t>(kSpareFiles) << "\n";
  if (files.soft < static_cast<std::uint64_t>(needed) + kSpareFiles) {
    const auto most = static_cast<std::int64_t>(files.soft > kSpareFiles ? files.soft - kSpareFiles : 0);
    std::cerr << "cinq_load: *** cannot hold " << needed << " connections: this process may open at most "
              << files.soft << " files, and its hard limit " << files.hard
              << " cannot be raised without CAP_SYS_RESOURCE (as root: ulimit -Hn, LimitNOFILE=, "
                 "/etc/security/limits.conf). The servers started here inherit the same limit. ***\n";
    if (o.mode == Mode::idle) {
      std::cerr << "cinq_load: *** holding " << most << " connections instead of " << needed << " ***\n";
      o.connections = static_cast<int>(most);
    }
  }

  std::string host = "127.0.0.1";
  for (const auto& url : o.urls)
    if (const auto h = parse_url(url)->host; h != "localhost" && h.rfind("127.", 0) != 0) host = h;
  const auto sources = source_addresses(o, host);
  if (!sources.empty())
    std::cerr << "cinq_load: connecting from " << sources.size() << " loopback addresses, " << sources.front()
              << " to " << sources.back() << "\n";
  const std::int64_t ports = ephemeral_ports();
  if (ports > 0 && connections_needed(o) > ports * std::max<std::int64_t>(1, sources.size()))
    std::cerr << "cinq_load: warning: " << connections_needed(o) << " connections from "
              << std::max<std::size_t>(1, sources.size()) << " source address(es) with " << ports
              << " ephemeral ports each: use --sources\n";

  const std::string dir = make_temp_dir("cinq-load-");
  if (dir.empty()) {
    std::cerr << "cinq_load: cannot make a temporary directory\n";
    return 1;
  }
  std::vector<Run> runs;
  int status = 0;
  for (int i = 0; i < o.runs; ++i) {
    if (o.runs > 1) std::cerr << "cinq_load: run " << i + 1 << " of " << o.runs << "\n";
    Run r = run_once(o, sources, dir);
    if (r.status) {
      status = r.status;
      break;
    }
    std::cout << "\n";
    if (o.runs > 1) std::cout << "run " << i + 1 << " of " << o.runs << ":\n";
    if (o.urls.size() > 1) print_placement(std::cout, o);
    print_run(std::cout, r);
    std::cout.flush();
    runs.push_back(std::move(r));
  }

  nlohmann::json json = {{"mode", o.mode == Mode::idle ? "idle" : "play"},
                         {"rooms", o.rooms},
                         {"spectators", o.spectators},
                         {"connections", o.connections},
                         {"connections_asked", connections_asked},
                         {"sources", sources.empty() ? 1 : static_cast<int>(sources.size())},
                         {"open_files_limit", files.soft},
                         {"games", o.games},
                         {"turn_rate", o.turn_rate},
                         {"duration_s", o.duration_s},
                         {"warmup_s", o.warmup_s},
                         {"client_threads", o.threads},
                         {"server_threads", o.server_threads},
                         {"phases", o.phases},
                         {"urls", o.urls},
                         {"placement", placement_name(o.placement)},
                         {"runs", nlohmann::json::array()}};
  for (auto& r : runs) {
    nlohmann::json j = {{"phases", nlohmann::json::array()}, {"ratios", r.ratios}};
    for (auto& p : r.phases) j["phases"].push_back(p.to_json());
    json["runs"].push_back(j);
  }
  if (runs.size() > 1) {
    std::vector<Summary> medians;
    for (std::size_t k = 0; k < runs.front().summaries.size(); ++k) {
      std::vector<Summary> of_phase;
      for (const auto& r : runs)
        if (k < r.summaries.size()) of_phase.push_back(r.summaries[k]);
      medians.push_back(median(of_phase));
    }
    const auto ratio_medians = median_ratios(runs);
    std::cout << "\nmedians of " << runs.size() << " runs:\n";
    if (o.urls.size() > 1) print_placement(std::cout, o);
    print_table(std::cout, medians);
    for (const auto& [base, r] : ratio_medians.items()) print_ratios(std::cout, base, r);
    nlohmann::json m = {{"phases", nlohmann::json::array()}, {"ratios", ratio_medians}};
    for (const auto& s : medians) m["phases"].push_back(s.to_json());
    json["medians"] = m;
  }
  if (!o.json_path.empty() && !runs.empty()) {
    std::ofstream out(o.json_path);
    out << json.dump(2) << "\n";
    if (!out) std::cerr << "cinq_load: cannot write " << o.json_path << "\n";
  }
  for (auto& r : runs)
    for (auto& p : r.phases)
      if (status == 0 && p.errors_total() > 0) status = 3;
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
  for (const auto& url : options->urls) {
    if (!cinq::load::parse_url(url)) {
      std::cerr << "cinq_load: --url and --urls must look like ws://127.0.0.1:8080/ws (not '" << url
                << "')\n";
      return 2;
    }
  }
  return cinq::load::run(*options);
}
