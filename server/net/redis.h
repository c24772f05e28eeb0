// A Redis client on the transport's own threads (the bus between the nodes of a cluster). No Boost
// here: the rest of the server sees it through this header, as it sees the network through transport.h.
//
// Why not hiredis's own connection code: its asynchronous API needs an event-loop adapter (libevent, libev,
// ...) or a thread per connection; here the sockets are Asio's, on the io_context that already runs every
// connection and room, and hiredis (libhiredis-dev) only reads the protocol (its redisReader: RESP replies,
// pushes and errors, tested by everyone who uses Redis). Commands are written by a few lines of our own.
//
// Two connections: one for commands (pipelined: each command's reply comes back in order) and one for
// subscriptions (SUBSCRIBE puts a connection in a mode where it only receives). Both reconnect by themselves
// with a growing back-off; the subscriptions are made again on every connection, and `on_state(true)` runs
// once they are in place, so that the owner of this client can resynchronise what it may have missed.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cinq::net {

class Server;

struct RedisReply {
  enum class Kind { nil, status, error, integer, string, array };
  Kind kind = Kind::nil;
  std::string text;  // status, error, string
  long long integer = 0;
  std::vector<RedisReply> items;  // array
  bool is_error() const { return kind == Kind::error; }
};

struct RedisConfig {
  std::string host = "127.0.0.1";
  std::uint16_t port = 6379;
  std::chrono::milliseconds reconnect_min{50};
  std::chrono::milliseconds reconnect_max{1000};
  // Reads "redis://HOST:PORT" (PORT defaults to 6379); nullopt and `error` if it is not one.
  static std::optional<RedisConfig> parse(const std::string& uri, std::string& error);
};

class Redis {
 public:
  // A reply, or nullopt when the command could not be sent or its connection broke before the reply.
  using Reply = std::function<void(std::optional<RedisReply>)>;
  // A message on a subscribed channel, in the order Redis delivered them (on an I/O thread).
  using Message = std::function<void(const std::string& channel, std::string payload)>;
  // true: both connections are up and every subscription is in place again; false: one of them broke.
  using State = std::function<void(bool up)>;

  Redis(Server& server, RedisConfig config, Message on_message, State on_state);
  ~Redis();
  Redis(const Redis&) = delete;
  Redis& operator=(const Redis&) = delete;

  void start();
  // Closes both connections for good; no callback runs after it returns... except one already running.
  void stop();

  // Any thread. While the command connection is down the reply is nullopt at once.
  void command(std::vector<std::string> args, Reply done = {});
  // PUBLISH without waiting for the reply (the number of receivers is of no use here).
  void publish(const std::string& channel, std::string payload);
  // Kept across reconnections. `ready` (if given) runs on an I/O thread once Redis confirmed the
  // subscription: a message published after that is received.
  void subscribe(const std::string& channel, std::function<void()> ready = {});
  void unsubscribe(const std::string& channel);
  bool up() const;

  struct Counters {
    std::int64_t published = 0, received = 0, reconnects = 0, dropped = 0;  // dropped: not sent (down)
  };
  Counters counters() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

// Encodes a command in RESP (an array of bulk strings): what both connections write.
std::string encode_command(const std::vector<std::string>& args);

}  // namespace cinq::net
