// The per-address and per-player limits a cluster's nodes count together (docs/scaling.md, "Limits"):
// messages a second and HTTP requests a second per address (token buckets: limits/rates.h), WebSocket
// connections open per address, open rooms and games against the computer per player (levels:
// limits/levels.h). Logins and imports have their own glue (login_guard.*, http_api.h).
//
// In Redis: the rates as counters per key and window (`cinq:rate:KIND:KEY:WINDOW`, INCRBY of this node's
// batches every kShareMs, whose answers are the cluster's totals); the levels as one hash per node
// (`cinq:levels:NODE`: field `KIND:KEY` -> this node's count), expiring kLevelTtlMs after the node's last
// heartbeat (every kBeatMs), and the set of the nodes' ids (`cinq:levels:nodes`); the others' sums are
// read by one script over the live nodes' hashes. Nothing here waits on a network thread: decisions use
// what the node knows now, except a room's creation, which waits at most kWaitMs for the others' counts on
// no thread at all (a Redis reply or a timer continues it). While Redis is away each node counts alone.
// A single node (no bus) only keeps the message rates per address here.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "limits/levels.h"
#include "limits/rates.h"
#include "server/caps.h"
#include "server/net/transport.h"

namespace cinq::server {

class RoomBus;
struct Services;

class SharedLimits {
 public:
  struct Config {
    double message_rate = 0, message_burst = 0;  // per address, its connections together (Limits::address_*)
    double http_rate = 0, http_burst = 0;        // per address (net::ServerConfig::http_rate, http_burst)
    std::size_t connections_per_address = 0;     // WebSocket (net::ServerConfig::max_connections_per_address)
  };
  static constexpr std::int64_t kShareMs = 100;      // the rates' batches go to Redis this often
  static constexpr std::int64_t kBeatMs = 1000;      // this node's levels renewed, the others' read again
  static constexpr std::int64_t kLevelTtlMs = 3000;  // a node's levels outlive its last heartbeat this long
  static constexpr std::int64_t kWaitMs = 300;       // how long a room's creation waits for the others' counts

  SharedLimits(Services& services, Config config);
  ~SharedLimits();
  // The transport's limits (known once it is configured; before attach).
  void set_transport_limits(double http_rate, double http_burst, std::size_t connections_per_address);
  // Counts over the cluster from now on (node: this node's unique id): a timer on the transport's threads.
  // Call before any room is loaded, so that every room's claims are shared.
  void start(net::Server& server, RoomBus& bus, const std::string& node);
  // No more timer, no more Redis (before the transport and the bus go).
  void stop();

  // One message of a connection of `address`: whether its address may send it (Protocol::admit).
  bool take_message(const std::string& address);
  // One HTTP request of `address` over the cluster (the transport's own per-node bucket came first).
  bool take_request(const std::string& address);
  // Whether `address` may open one more WebSocket connection, counting the other nodes' (as last heard).
  bool admit_connection(const std::string& address);
  void connection_opened(const std::string& address);
  void connection_closed(const std::string& address);
  // The other nodes' count of `player`'s rooms of `kind`: `done(n)` on an I/O thread once Redis answers, or
  // with 0 (this node's count alone) after kWaitMs or at once while Redis is away or on a single node.
  void rooms_elsewhere(Claims::Kind kind, const std::string& player, std::function<void(std::int64_t)> done);

 private:
  struct Ticker;
  void arm(const std::shared_ptr<Ticker>& ticker);
  void tick();
  void publish(const std::string& field, std::int64_t count);  // under mutex_
  void read_others(std::vector<std::string> fields);            // the answers are heard by levels_
  std::size_t room_limit(Claims::Kind kind) const;

  Services& services_;
  Config config_;
  RoomBus* bus_ = nullptr;
  net::Server* server_ = nullptr;
  std::string hash_;  // cinq:levels:NODE
  std::string node_;

  std::mutex mutex_;
  limits::SharedRates messages_;
  limits::SharedRates requests_;
  limits::Levels levels_{kLevelTtlMs};
  std::int64_t last_beat_ms_ = 0;
  std::int64_t last_sweep_ms_ = 0;
  std::atomic<bool> rewrite_{true};  // this node's hash must be written whole (Redis lost or missed a change)
  std::shared_ptr<Ticker> ticker_;
};

}  // namespace cinq::server
