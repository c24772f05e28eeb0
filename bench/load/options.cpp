#include "bench/load/options.h"

#include <charconv>
#include <iostream>
#include <sstream>

namespace cinq::load {

namespace {

constexpr const char* kHelp = R"(cinq_load: load generator for cinq serve, with a WebSocket echo baseline.

  cinq_load --server build/server/cinq --echo build/bench/cinq_echo [options]
  cinq_load --url ws://127.0.0.1:8080/ws [--pid PID] [--echo PATH | --no-baseline] [options]

Each server runs as a child process (port 0, a fresh temporary data directory, stopped with SIGTERM at the
end); the client runs in this process on --threads event loops. First the baseline phase against
cinq_echo, then the same workload against cinq; both are printed, with ratios cinq/echo.

Servers
  --server PATH          cinq, started as: cinq serve --port 0 --data TMP --web "" --threads T
                         --per-address-connections 0 --per-address-rate 0
  --url ws://H:P[/ws]    aim at a cinq already running instead (its memory and CPU: --pid PID)
  --pid PID              that server's process id
  --echo PATH            cinq_echo, the baseline (Beast WebSocket echo server, same Boost build)
  --no-baseline          skip the echo phase
  --no-address-flags     do not pass the two --per-address-* flags (for a cinq without them)
  --server-threads T     both servers' --threads (default 2)

Workload
  --mode play|idle       (default play)
  --rooms R              play: number of rooms (default 100)
  --spectators S         play: spectators per room (default 2)
  --games a,b,...        play: game mix, round-robin over rooms (default tablut)
  --connections N        idle: connections to hold (default 1000)
  --turn-rate X          play: combined turns/s to offer, spread evenly over the rooms (default 0:
                         each room as fast as its answers come back); applies to both phases
  --conn-rate X          play: cap on messages/s per player connection to cinq (default 19; cinq allows
                         20/s per connection); not applied to the echo phase, which has no limit.
                         With few rooms it bounds cinq's turns/s: players alternate, so a room makes at
                         most 2 x conn-rate turns/s
  --warmup S             seconds of play before measuring (default 2)
  --duration S           seconds measured (default 10)
  --stall S              a room with no message for S seconds is an error `stalled` and is replaced
                         (default 5)
  --setup-timeout S      give up waiting for rooms/connections to be ready after S s (default 120)
  --threads T            client event loops, one thread each (default 1)
  --seed N               random seed (default 1)
  --json FILE            also write the results as JSON there

What is measured (within the --duration window, after setup and warm-up)
  play, cinq:  R rooms, each with 2 players and S spectators, one connection each. Each player says hello;
               one creates a room (no clock), the other joins and sits, spectators join. The player to move
               picks a random entry of position.legal (or ends the turn when can_end_turn allows it) and
               sends act; when a game ends both players ask for a rematch and the room goes on in the new
               room (seats swapped). turns/s = accepted acts (play events) per second. ack = act sent ->
               the mover's copy of its play event; opp = act sent -> the opponent's copy. Only the mover
               parses its message (a bracket-counting scan, no JSON DOM); spectators only count frames.
  play, echo:  the same R rooms of 2+S connections to cinq_echo, which echoes every frame to its sender
               only. In each room one player sends a 60-byte text frame (the size of a Tablut act); when
               its echo comes back the other player sends the next one: one message in flight per room,
               as in a game. Spectator connections are held open and hear nothing. msgs/s = echoes
               received per second; ack = send -> echo. This is what the transport alone carries with the
               same number of connections and messages in flight, without game logic, storage or fan-out.
  idle:        N connections, each sends hello (cinq answers welcome, echo echoes it) and then nothing.
               rss/conn = (server VmRSS with all N open - VmRSS before the first connection) / N.
  play mode reports rss/conn the same way, with all rooms live. CPU % = CPU seconds in the window /
  window seconds * 100 (server: utime+stime from /proc/PID/stat; client: getrusage, all threads).
  errors = error messages by code, plus disconnect, connect (failed connects) and stalled, over the whole
  phase (setup included).

Where the data goes: cinq's data directory is made under $TMPDIR (default /tmp). cinq commits every turn
before announcing it, so the fsync speed of that disk bounds its turns/s; TMPDIR=/dev/shm measures the
server without the disk.

Exit status: 0 clean run, 3 the run counted errors, 1 a server could not be started, 2 bad usage.
)";

void usage(const std::string& why, int& exit_code) {
  std::cerr << "cinq_load: " << why << "\n(see cinq_load --help)\n";
  exit_code = 2;
}

template <class T>
bool number(const std::string& text, T& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::optional<Options> parse_options(int argc, char** argv, int& exit_code) {
  Options o;
  exit_code = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    std::string v;
    bool ok = true;
    if (a == "--help" || a == "-h") {
      std::cout << kHelp;
      return std::nullopt;
    } else if (a == "--no-baseline") {
      o.baseline = false;
    } else if (a == "--no-address-flags") {
      o.address_flags = false;
    } else if (!value(v)) {
      usage(a.rfind("--", 0) == 0 ? a + " needs a value" : "unknown argument '" + a + "'", exit_code);
      return std::nullopt;
    } else if (a == "--server") {
      o.server = v;
    } else if (a == "--url") {
      o.url = v;
    } else if (a == "--pid") {
      ok = number(v, o.pid);
    } else if (a == "--echo") {
      o.echo = v;
    } else if (a == "--mode") {
      ok = v == "play" || v == "idle";
      o.mode = v == "idle" ? Mode::idle : Mode::play;
    } else if (a == "--connections") {
      ok = number(v, o.connections) && o.connections > 0;
    } else if (a == "--rooms") {
      ok = number(v, o.rooms) && o.rooms > 0;
    } else if (a == "--spectators") {
      ok = number(v, o.spectators) && o.spectators >= 0;
    } else if (a == "--games") {
      o.games.clear();
      std::istringstream in(v);
      for (std::string g; std::getline(in, g, ',');)
        if (!g.empty()) o.games.push_back(g);
      ok = !o.games.empty();
    } else if (a == "--duration") {
      ok = number(v, o.duration_s) && o.duration_s > 0;
    } else if (a == "--warmup") {
      ok = number(v, o.warmup_s) && o.warmup_s >= 0;
    } else if (a == "--threads") {
      ok = number(v, o.threads) && o.threads > 0 && o.threads <= 64;
    } else if (a == "--server-threads") {
      ok = number(v, o.server_threads) && o.server_threads > 0 && o.server_threads <= 64;
    } else if (a == "--json") {
      o.json_path = v;
    } else if (a == "--seed") {
      ok = number(v, o.seed);
    } else if (a == "--turn-rate") {
      ok = number(v, o.turn_rate) && o.turn_rate >= 0;
    } else if (a == "--conn-rate") {
      ok = number(v, o.conn_rate) && o.conn_rate > 0;
    } else if (a == "--stall") {
      ok = number(v, o.stall_s) && o.stall_s > 0;
    } else if (a == "--setup-timeout") {
      ok = number(v, o.setup_timeout_s) && o.setup_timeout_s > 0;
    } else {
      usage("unknown argument '" + a + "'", exit_code);
      return std::nullopt;
    }
    if (!ok) {
      usage(a + ": bad value '" + v + "'", exit_code);
      return std::nullopt;
    }
  }
  if (o.server.empty() == o.url.empty()) {
    usage("give either --server PATH or --url ws://HOST:PORT", exit_code);
    return std::nullopt;
  }
  if (o.baseline && o.echo.empty()) {
    usage("give --echo PATH for the baseline, or --no-baseline", exit_code);
    return std::nullopt;
  }
  return o;
}

}  // namespace cinq::load
