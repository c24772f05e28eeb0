#include "bench/load/options.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "bench/cli_args.h"

namespace cinq::load {

namespace {

constexpr const char* kDescription =
    R"(cinq_load: load generator for cinq serve, against two baselines on the same Beast build.

  cinq_load --server build/server/cinq --echo build/bench/cinq_echo [options]
  cinq_load --url ws://127.0.0.1:8080/ws [--pid PID] [--echo PATH | --no-baseline] [options]
  cinq_load --urls ws://127.0.0.1:8081/ws,ws://127.0.0.1:8082/ws --placement cross [--pid P1,P2] --no-baseline

Each server runs as a child process (port 0, a fresh temporary data directory, stopped with SIGTERM at the
end); the client runs in this process on --threads event loops. A run is three phases back to back: cinq,
then the echo and the relay baselines (both cinq_echo), each against a fresh server; they are printed
together, with the ratios of cinq to each baseline. --runs N repeats the run and prints the medians.

A cluster (several nodes, or HAProxy in front of them) is measured with --urls: in play mode the rooms are
spread over the URLs, and --placement says where a room's connections go: `same` (both players and the
spectators on one URL: rooms round-robin over the URLs), `cross` (player 0 on one URL, player 1 on the next,
spectators on the ones after: every turn is forwarded between nodes) or `any` (each connection on a URL
drawn at random, seeded by --seed: the players share a node one time in N, as behind a load balancer). Idle
mode spreads its connections round-robin. --pid P1,P2,... sums the nodes' memory and CPU.)";

constexpr const char* kFooter = R"(What is measured (within the --duration window, after setup and warm-up)
  play, cinq:  R rooms, each with 2 players and S spectators, one connection each. Each player says hello;
               one creates a room (no clock), the other joins and sits, spectators join. A player that
               receives `legal` (protocol 2: only the seat to move gets it, at the top level of a state or
               event) picks a random entry of it (or ends the turn when can_end_turn allows it) and sends
               act; when a game ends both players ask for a rematch and the room goes on in the new room
               (seats swapped). turns/s = accepted acts (play events) per second. ack = act sent -> the
               mover's copy of its play event; opp = act sent -> the opponent's copy. Players scan their
               messages (bracket counting, no JSON DOM); spectators only count frames. The phase also
               records what a room's connections receive per accepted turn (frames and bytes, for the
               mover, the player who gets the move, each spectator): the relay's shape.
  play, echo:  the same R rooms of 2+S connections to cinq_echo, which echoes every frame to its sender
               only. In each room one player sends a 60-byte text frame (the size of a Tablut act); when
               its echo comes back the other player sends the next one: one message in flight per room.
               Spectator connections are held open and hear nothing. msgs/s = echoes per second.
  play, relay: the same rooms to cinq_echo --relay: the transport alone doing a turn's I/O. One frame in
               from the mover; out, to every connection of the room, as many frames of the same sizes as
               cinq sent for a turn in the cinq phase of the same run (fractional means are spread over
               turns); the player who gets the move sends the next frame once its frames are in. turns/s =
               relayed turns per second; ack = send -> the mover's first frame back, opp = -> the other
               player's first frame. The shape is printed with the results.
  idle:        N connections, each sends hello (cinq answers welcome, echo echoes it) and then nothing.
               rss/conn = (server VmRSS with all N open - VmRSS before the first connection) / N. Past
               about 28,000 connections a loopback source address runs out of ephemeral ports: the client
               binds its sockets to 127.0.0.1, 127.0.0.2, ... (--sources; all of 127/8 is loopback on
               Linux). It raises its RLIMIT_NOFILE to the hard limit and says so if that is too low; the
               servers inherit the raised limit.
  play mode reports rss/conn the same way, with all rooms live. CPU % = CPU seconds in the window /
  window seconds * 100 (server: utime+stime from /proc/PID/stat; client: getrusage, all threads); CPU
  us/turn = the server's CPU seconds in the window / turns (or echoes) in it. errors = error messages by
  code, plus disconnect, connect (failed connects) and stalled, over the whole phase (setup included).

Where the data goes: cinq's data directory is made under $TMPDIR (default /tmp). cinq commits every turn
before announcing it, so the fsync speed of that disk bounds its turns/s; TMPDIR=/dev/shm measures the
server without the disk.

Exit status: 0 clean run, 3 a run counted errors, 1 a server could not be started, 2 bad usage.
)";

// Help texts wrapped to fit 110 columns after the option column (CLI11 indents after each '\n').
std::string wrap(const std::string& text, std::size_t width = 76) {
  std::string out;
  std::size_t line = 0;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (line > 0 && line + 1 + word.size() > width) {
      out += '\n';
      line = 0;
    } else if (line > 0) {
      out += ' ';
      ++line;
    }
    out += word;
    line += word.size();
  }
  return out;
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// A validator whose description stays out of the help (the option's own text says it).
CLI::Validator quiet(CLI::Validator v) { return v.description(""); }

}  // namespace

std::string RelayShape::text() const {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "%.3fx%.0f,%.3fx%.0f,%.3fx%.0f", frames[0], bytes[0], frames[1],
                bytes[1], frames[2], bytes[2]);
  return buffer;
}

std::optional<RelayShape> parse_relay_shape(const std::string& text) {
  RelayShape shape;
  std::istringstream in(text);
  std::string part;
  int i = 0;
  for (; i < 3 && std::getline(in, part, ','); ++i) {
    double n = -1, b = -1;
    char x = 0;
    std::istringstream p(part);
    if (!(p >> n >> x >> b) || x != 'x' || n < 0 || b < 0 || b > 60000 || !(p >> std::ws).eof())
      return std::nullopt;
    shape.frames[i] = n;
    shape.bytes[i] = b;
  }
  if (i != 3 || std::getline(in, part) || !shape.valid()) return std::nullopt;
  return shape;
}

const char* placement_name(Placement p) {
  switch (p) {
    case Placement::same:
      return "same";
    case Placement::cross:
      return "cross";
    case Placement::any:
      return "any";
  }
  return "?";
}

std::size_t place(Placement p, std::size_t urls, std::size_t room, int peer, std::uint64_t draw) {
  switch (p) {
    case Placement::same:
      return room % urls;
    case Placement::cross:
      return (room + static_cast<std::size_t>(peer)) % urls;
    case Placement::any:
      break;
  }
  return static_cast<std::size_t>(draw % urls);
}

bool Options::has_phase(const std::string& p) const {
  return std::find(phases.begin(), phases.end(), p) != phases.end();
}

std::optional<Options> parse_options(int argc, char** argv, int& exit_code) {
  Options o;
  exit_code = 0;
  CLI::App app(kDescription, "cinq_load");
  app.footer(kFooter);
  app.get_formatter()->column_width(34);
  app.get_formatter()->label("REQUIRED", "");

  bool no_baseline = false, no_address_flags = false;
  std::string mode = "play", relay_shape, url, urls_text, pids_text, placement = "same";
  std::string phases_text, games_text;

  // Servers
  const std::string servers = "Servers";
  app.add_option("--server", o.server,
                 wrap("cinq, started as: cinq serve --port 0 --data TMP --web \"\" --threads T "
                      "--per-address-connections 0 --per-address-rate 0 --http-rate 0 "
                      "--http-connections-per-address 0"))
      ->group(servers);
  app.add_option("--url", url,
                 wrap("aim at a cinq already running instead (ws://H:P[/ws]; its memory and CPU: --pid)"))
      ->group(servers);
  app.add_option("--urls", urls_text,
                 wrap("aim at several (cluster nodes, or HAProxy), comma-separated; see --placement"))
      ->group(servers);
  app.add_option("--placement", placement,
                 wrap("with --urls, where a room's connections go: same (default), cross or any (above)"))
      ->check(quiet(CLI::IsMember({"same", "cross", "any"})))
      ->group(servers);
  app.add_option("--pid", pids_text, wrap("that server's process id; several, comma-separated, are summed"))
      ->group(servers);
  app.add_option("--echo", o.echo, wrap("cinq_echo, the baselines' server (echo, and relay with --relay)"))
      ->group(servers);
  app.add_option("--phases", phases_text,
                 wrap("which phases, in this order (default cinq,echo,relay; idle: no relay)"))
      ->group(servers);
  app.add_flag("--no-baseline", no_baseline, wrap("cinq only (same as --phases cinq)"))->group(servers);
  app.add_flag("--no-address-flags", no_address_flags,
               wrap("do not pass the per-address flags (for a cinq without them)"))
      ->group(servers);
  app.add_option("--server-arg", o.server_args,
                 wrap("one more argument for cinq serve, repeatable: --server-arg=--commit-wait-us=500"))
      ->group(servers);
  app.add_option("--server-threads", o.server_threads, wrap("every server's --threads (default 2)"))
      ->check(quiet(CLI::Range(1, 64)))
      ->group(servers);

  // Workload
  const std::string workload = "Workload";
  app.add_option("--mode", mode, wrap("what to run (default play)"))
      ->check(quiet(CLI::IsMember({"play", "idle"})))
      ->group(workload);
  app.add_option("--rooms", o.rooms, wrap("play: number of rooms (default 100)"))
      ->check(quiet(CLI::Range(1, 1000000)))
      ->group(workload);
  app.add_option("--spectators", o.spectators, wrap("play: spectators per room (default 2)"))
      ->check(quiet(CLI::Range(0, 1000)))
      ->group(workload);
  app.add_option("--games", games_text,
                 wrap("play: game mix a,b,..., round-robin over rooms (default tablut)"))
      ->group(workload);
  app.add_option("--connections", o.connections, wrap("idle: connections to hold (default 1000)"))
      ->check(quiet(CLI::Range(1, 10000000)))
      ->group(workload);
  app.add_option(
         "--sources", o.sources,
         wrap("loopback source addresses to spread connections over: 127.0.0.1 .. 127.0.0.K (default: "
              "one per 20,000 connections; a loopback target only)"))
      ->check(quiet(CLI::Range(1, 250)))
      ->group(workload);
  app.add_option(
         "--turn-rate", o.turn_rate,
         wrap("play: combined turns/s to offer, spread evenly over the rooms (default 0: each room as "
              "fast as its answers come back); applies to every phase"))
      ->check(quiet(CLI::NonNegativeNumber))
      ->group(workload);
  app.add_option(
         "--conn-rate", o.conn_rate,
         wrap("play: cap on messages/s per player connection to cinq (default 19; cinq allows 20/s per "
              "connection); not applied to the baselines, which have no limit. With few rooms it bounds "
              "cinq's turns/s: players alternate, so a room makes at most 2 x conn-rate turns/s"))
      ->check(quiet(CLI::PositiveNumber))
      ->group(workload);
  app.add_option("--relay-shape", relay_shape,
                 wrap("relay: frames per turn x bytes for the mover, the other player and each spectator, "
                      "NxB,NxB,NxB (default: measured in the cinq phase of the same run)"))
      ->group(workload);
  app.add_option("--warmup", o.warmup_s, wrap("seconds of play before measuring (default 2)"))
      ->check(quiet(CLI::NonNegativeNumber))
      ->group(workload);
  app.add_option("--duration", o.duration_s, wrap("seconds measured (default 10)"))
      ->check(quiet(CLI::PositiveNumber))
      ->group(workload);
  app.add_option("--runs", o.runs,
                 wrap("repeat the whole run N times; print each and the medians (default 1)"))
      ->check(quiet(CLI::Range(1, 100)))
      ->group(workload);
  app.add_option(
         "--stall", o.stall_s,
         wrap("a room with no message for S seconds is an error `stalled` and is replaced (default 5)"))
      ->check(quiet(CLI::PositiveNumber))
      ->group(workload);
  app.add_option("--setup-timeout", o.setup_timeout_s,
                 wrap("give up waiting for rooms/connections to be ready after S s (default 120)"))
      ->check(quiet(CLI::PositiveNumber))
      ->group(workload);
  app.add_option("--report-every", o.report_every_s,
                 wrap("during the window, every S seconds print (and keep in the JSON's `intervals`) that interval's "
                      "rate, ack p50/p99 and the server's RSS (default 0: never)"))
      ->check(quiet(CLI::NonNegativeNumber))
      ->group(workload);
  app.add_option("--threads", o.threads, wrap("client event loops, one thread each (default 1)"))
      ->check(quiet(CLI::Range(1, 64)))
      ->group(workload);
  app.add_option("--seed", o.seed, wrap("random seed (default 1)"))->group(workload);
  app.add_option("--json", o.json_path, wrap("also write the results as JSON there"))->group(workload);

  // The values' names as the help has always shown them.
  for (const auto& [name, type] : std::initializer_list<std::pair<const char*, const char*>>{
           {"--server", "PATH"},    {"--url", "ws://H:P[/ws]"}, {"--pid", "PID[,PID...]"},
           {"--urls", "URL,..."},   {"--placement", "same|cross|any"},
           {"--echo", "PATH"},      {"--phases", "P,..."},      {"--server-threads", "T"},
           {"--mode", "play|idle"}, {"--rooms", "R"},           {"--spectators", "S"},
           {"--games", "a,b,..."},  {"--connections", "N"},     {"--sources", "K"},
           {"--turn-rate", "X"},    {"--conn-rate", "X"},       {"--relay-shape", "NxB,NxB,NxB"},
           {"--warmup", "S"},       {"--duration", "S"},        {"--runs", "N"},
           {"--stall", "S"},        {"--setup-timeout", "S"},   {"--threads", "T"},
           {"--report-every", "S"},
           {"--seed", "N"},         {"--json", "FILE"}})
    app.get_option(name)->type_name(type);

  auto usage = [&](const std::string& why) {
    std::cerr << "cinq_load: " << why << "\n(see cinq_load --help)\n";
    exit_code = 2;
    return std::nullopt;
  };
  if (const int status = cinq::bench::parse_args(app, argc, argv); status >= 0) {
    exit_code = status;
    return std::nullopt;
  }

  o.mode = mode == "idle" ? Mode::idle : Mode::play;
  if (!url.empty() && !urls_text.empty()) return usage("give --url or --urls, not both");
  o.urls = url.empty() ? split(urls_text) : std::vector<std::string>{url};
  o.placement = placement == "cross" ? Placement::cross
                : placement == "any" ? Placement::any
                                     : Placement::same;
  if (o.placement == Placement::cross && o.urls.size() < 2)
    return usage("--placement cross needs at least two --urls (the players on different nodes)");
  for (const auto& p : split(pids_text)) {
    char* end = nullptr;
    const long pid = std::strtol(p.c_str(), &end, 10);
    if (end == p.c_str() || *end != '\0' || pid <= 0) return usage("--pid: not a process id: '" + p + "'");
    o.pids.push_back(static_cast<pid_t>(pid));
  }
  o.address_flags = !no_address_flags;
  if (!phases_text.empty()) {
    o.phases.clear();
    for (const auto& p : split(phases_text)) {
      if (p != "cinq" && p != "echo" && p != "relay") return usage("--phases: no phase '" + p + "'");
      if (!o.has_phase(p)) o.phases.push_back(p);
    }
  }
  if (!games_text.empty()) o.games = split(games_text);
  if (no_baseline) o.phases = {"cinq"};
  if (o.mode == Mode::idle) std::erase(o.phases, std::string("relay"));
  if (o.phases.empty()) return usage("no phase to run (idle mode has no relay phase)");
  if (o.games.empty()) return usage("--games: give at least one game");
  if (!relay_shape.empty()) {
    o.relay_shape = parse_relay_shape(relay_shape);
    if (!o.relay_shape) return usage("--relay-shape: bad value '" + relay_shape + "' (want NxB,NxB,NxB)");
  }
  if (o.has_phase("cinq") && o.server.empty() == o.urls.empty())
    return usage("give either --server PATH or --url ws://HOST:PORT (or --urls)");
  if ((o.has_phase("echo") || o.has_phase("relay")) && o.echo.empty())
    return usage("give --echo PATH for the baselines, or --no-baseline");
  if (o.has_phase("relay") && !o.has_phase("cinq") && !o.relay_shape)
    return usage("the relay phase without a cinq phase needs --relay-shape");
  if (o.has_phase("relay") && o.has_phase("cinq") && !o.relay_shape) {
    // The relay repeats what cinq sent: cinq goes first.
    std::erase(o.phases, std::string("cinq"));
    o.phases.insert(o.phases.begin(), "cinq");
  }
  return o;
}

}  // namespace cinq::load
