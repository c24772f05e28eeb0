// The WebSocket protocol (docs/protocol.md): the connections and what each has said (its player, its rooms),
// the admission of every message (the size cap and the token-bucket rate limits of docs/design.md, "Limits
// and trust"), the seeks, and the dispatcher that hands each message to its command (commands.cpp: one table
// of typed commands).
//
// Order per connection: messages are handled one at a time, in arrival order. A command that goes on off the
// network thread (a store read, a room loaded from the store, `my_games`) holds the connection's later
// messages in a small queue until it completes; then they are handled in order, on the thread that completed
// it. So `hello` then `join` never gets `hello_required`, and `join` of a stored room then `act` never gets
// `no_room`.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "lobby/room.h"
#include "lobby/seeks.h"
#include "server/accounts.h"
#include "server/net/transport.h"

namespace cinq::server {

struct Services;
class RoomDirectory;
class Identities;
class Workers;

struct Limits {
  std::size_t max_message = 4096;  // bytes of one client message; larger ones get `too_big`
  double connection_rate = 20;     // messages per second, per connection (token bucket)
  double connection_burst = 40;
  double address_rate = 100;  // messages per second, per IP address, all its connections together; 0: none
  double address_burst = 200;
  int strikes_before_close = 200;  // rate-limited messages in a row before the connection is closed
  std::size_t max_waiting = 32;    // messages of one connection waiting for a command in flight
};

// A token bucket: `rate` tokens a second, at most `burst`.
struct Bucket {
  double tokens = -1;  // -1: full, not yet used
  std::int64_t last_ms = 0;
  bool take(std::int64_t now_ms, double rate, double burst);
};

struct Lane;     // a connection's messages in order (request.h)
struct Context;  // one message being handled (request.h)
struct Commands;

class Protocol {
 public:
  Protocol(Services& services, RoomDirectory& rooms, Identities& identities, Workers& workers, Limits limits);
  ~Protocol();

  void on_open(const std::shared_ptr<net::Connection>& c);
  void on_message(const std::shared_ptr<net::Connection>& c, std::string text);
  void on_close(const std::shared_ptr<net::Connection>& c);
  // Several nodes (server/cluster/). A client of another node, standing here as `c` (c->remote()): known
  // as `player` already (it said hello there), its messages already admitted there.
  void open_remote(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                   const std::string& session);
  // One of its messages, with its id (handled in order, like a local connection's).
  void feed(const std::shared_ptr<net::Connection>& c, std::string text, std::string fid);
  // A local connection's message again (its room came to this node while it was forwarded): handled after
  // the connection's waiting messages; `fid` lets the room recognise it if it was applied already.
  void feed_again(std::uint64_t connection, std::string text, std::string fid);
  // The seeks of this node's book as the lobby lists them (JSON array text).
  std::string seeks_json();
  // A connection by its id (nullptr once gone), the player it said hello as, the hash of the token it proved.
  std::shared_ptr<net::Connection> connection_of(std::uint64_t connection);
  std::optional<lobby::Player> player_of(std::uint64_t connection);
  std::string session_of(std::uint64_t connection);
  // Makes every other connection of the player one that has not said hello, and tells each `logged_out`.
  void log_out_others(const std::string& player_id, std::uint64_t except);

  std::size_t seeks_waiting();
  // From now on no message is handled and no completion goes on; drops every connection record.
  void shutdown();

 private:
  friend struct Commands;
  friend class Flight;

  struct Client {
    std::weak_ptr<net::Connection> connection;
    std::optional<lobby::Player> player;  // after `hello`
    std::string session;                  // the hash of the token it said hello (or logged in) with
    Bucket bucket;
    int strikes = 0;
    std::int64_t last_limit_error_ms = 0;
    std::set<std::string> rooms;  // rooms this connection is in
    std::shared_ptr<Lane> lane;
  };

  // Rate limits; false: the message is dropped (and perhaps answered, or the connection closed).
  bool admit(const std::shared_ptr<net::Connection>& c);
  // Handles the connection's waiting messages in order until none is left or one goes off this thread.
  // The caller holds the lane (Lane::busy).
  void pump(const std::shared_ptr<net::Connection>& c, const std::shared_ptr<Lane>& lane);
  // One message; true when its command went on off this thread (the lane stays held by it).
  bool handle(const std::shared_ptr<net::Connection>& c, const std::shared_ptr<Lane>& lane, std::string text,
              std::optional<std::size_t> too_big, std::chrono::steady_clock::time_point received,
              std::string fid);
  // Queues a message on the connection's lane (admitted already) and handles it if nothing is under way.
  void enqueue(const std::shared_ptr<net::Connection>& c, std::string text, std::string fid, bool check_size);

  // --- for the commands (commands.cpp)
  void reply_error(const std::shared_ptr<net::Connection>& c, const std::string& code,
                   const std::string& message, const std::string& ref = {}, const std::string& room = {});
  void reply_error(const Context& ctx, const std::string& code, const std::string& message,
                   const std::string& room = {});
  void set_player(std::uint64_t connection, const lobby::Player& player);
  // Accounts: the token hash a connection proved, and logging out: clear_player() makes the connection one
  // that has not said hello.
  void set_session(std::uint64_t connection, const std::string& token_hash);
  void clear_player(std::uint64_t connection);
  // Notes that the connection is in `room` and runs `then` (which subscribes it there), both under the lock
  // on_close takes: a connection that is gone is never subscribed, and one that goes after `then` is
  // unsubscribed after it. False (and `then` not run) if the connection is gone.
  bool enter_room(std::uint64_t connection, const std::string& room, const std::function<void()>& then);
  void leave_room(std::uint64_t connection, const std::string& room);

  Services& services_;
  RoomDirectory& rooms_;
  Identities& identities_;
  Workers& workers_;
  Limits limits_;

  std::mutex clients_mutex_;
  std::unordered_map<std::uint64_t, Client> clients_;
  std::unordered_map<std::string, Bucket> address_buckets_;
  std::atomic<bool> stopping_{false};

  std::mutex seeks_mutex_;
  lobby::SeekBook seeks_;
  LoginLimiter logins_;
};

}  // namespace cinq::server
