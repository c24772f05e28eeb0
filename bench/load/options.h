// cinq_load's command line.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cinq::load {

enum class Mode { play, idle };

struct Options {
  std::string server;  // path to cinq (started as a child) ...
  std::string url;     // ... or ws://HOST:PORT[/PATH] of a server already running
  pid_t pid = 0;       // that server's pid, for its memory and CPU (0: not read)
  std::string echo;    // path to cinq_echo, for the baseline
  bool baseline = true;
  Mode mode = Mode::play;
  int connections = 1000;  // idle mode
  int rooms = 100;
  int spectators = 2;  // per room
  std::vector<std::string> games{"tablut"};
  double duration_s = 10;
  double warmup_s = 2;
  int threads = 1;         // client loops
  int server_threads = 2;  // both servers' --threads
  std::string json_path;
  std::uint64_t seed = 1;
  double turn_rate = 0;   // combined accepted turns/s to aim at; 0: as fast as each room goes
  double conn_rate = 19;  // messages/s per player connection towards cinq (its limit is 20)
  double stall_s = 5;     // a room silent this long is `stalled` and replaced
  double setup_timeout_s = 120;
  bool address_flags = true;  // pass --per-address-connections 0 --per-address-rate 0 to cinq
};

// Parses argv; nullopt after printing help or an error (`exit_code` says which).
std::optional<Options> parse_options(int argc, char** argv, int& exit_code);

}  // namespace cinq::load
