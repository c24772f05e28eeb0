// cinq_load's command line.
#pragma once

#include <sys/types.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cinq::load {

enum class Mode { play, idle };

// Where the connections of a room go when there are several URLs (--urls: the nodes of a cluster): its two
// players on the same one, on two different ones (each turn crosses between nodes), or each connection
// anywhere (at random, seeded: as a load balancer spreads them).
enum class Placement { same, cross, any };
const char* placement_name(Placement p);
// Which of `urls` URLs connection `peer` (0 and 1: the players, then the spectators) of room number `room`
// goes to: rooms round-robin over the URLs (same), the room's connections on consecutive URLs (cross), or
// `draw` (a random number) modulo the count (any).
std::size_t place(Placement p, std::size_t urls, std::size_t room, int peer, std::uint64_t draw);

// What cinq sends a room for one accepted turn, as the relay baseline repeats it: for the mover's
// connection, the other player's (the one whose move it becomes) and each spectator's, the mean number of
// frames per turn and their mean size in bytes. Measured from cinq's own traffic in the same run, or given
// with --relay-shape.
struct RelayShape {
  static constexpr int kMover = 0, kOpponent = 1, kSpectator = 2;
  std::array<double, 3> frames{};  // per turn, per connection of that role
  std::array<double, 3> bytes{};   // mean payload size of one frame
  bool valid() const { return frames[kMover] > 0 && frames[kOpponent] > 0; }
  std::string text() const;  // "1.02x231,1.00x2412,1.02x231"
};
// Reads "NxB,NxB,NxB" (mover, opponent, spectator); nullopt if malformed.
std::optional<RelayShape> parse_relay_shape(const std::string& text);

struct Options {
  std::string server;                     // path to cinq (started as a child) ...
  std::vector<std::string> urls;          // ... or ws://HOST:PORT[/PATH] of servers already running
  Placement placement = Placement::same;  // with several urls
  std::vector<pid_t> pids;                // their pids: memory and CPU, summed (none: not read)
  std::string echo;                       // path to cinq_echo, for the baselines (echo and relay)
  std::vector<std::string> phases{"cinq", "echo", "relay"};  // in this order; idle mode skips relay
  Mode mode = Mode::play;
  int connections = 1000;  // idle mode
  int sources = -1;        // loopback source addresses 127.0.0.1.. to spread connections over; -1: auto
  int rooms = 100;
  int spectators = 2;  // per room
  std::vector<std::string> games{"tablut"};
  double duration_s = 10;
  double warmup_s = 2;
  int runs = 1;
  int threads = 1;         // client loops
  int server_threads = 2;  // every server's --threads
  std::string json_path;
  std::uint64_t seed = 1;
  double turn_rate = 0;   // combined accepted turns/s to aim at; 0: as fast as each room goes
  double conn_rate = 19;  // messages/s per player connection towards cinq (its limit is 20)
  double stall_s = 5;     // a room silent this long is `stalled` and replaced
  double setup_timeout_s = 120;
  double report_every_s = 0;  // print the last interval's rate, p50/p99 and the server's RSS this often; 0: never
  bool address_flags = true;              // pass the per-address flags (all 0) to cinq
  std::vector<std::string> server_args;   // more arguments for cinq serve (--server-arg)
  std::optional<RelayShape> relay_shape;  // --relay-shape: instead of cinq's measured one

  bool has_phase(const std::string& p) const;
};

// Parses argv; nullopt after printing help or an error (`exit_code` says which).
std::optional<Options> parse_options(int argc, char** argv, int& exit_code);

}  // namespace cinq::load
