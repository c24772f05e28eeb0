// The WebSocket protocol (docs/protocol.md): the connections and what each has said (its player, its rooms),
// the admission of every message (the size cap and the token-bucket rate limits of docs/design.md, "Limits
// and trust"), the seeks, and the dispatcher that hands each message to its command (server/commands/: one
// table of typed commands, given a CommandContext: the parts they use and the Clients operations below).
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
#include "server/accounts.h"
#include "server/commands/context.h"
#include "server/login_guard.h"
#include "server/net/transport.h"
#include "server/request.h"
#include "server/tournaments.h"
#include "server/moderation_desk.h"

namespace cinq::server {

struct Services;
class RoomDirectory;
class Identities;
class Workers;

struct Limits {
  std::size_t max_message = 4096;  // bytes of one client message; larger ones get `too_big`
  double connection_rate = 20;     // messages per second, per connection (token bucket)
  double connection_burst = 40;
  // Messages per second, per IP address, all its connections together (on every node of a cluster:
  // server/shared_limits.h); 0: none.
  double address_rate = 100;
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

class Protocol : public Clients {
 public:
  Protocol(Services& services, RoomDirectory& rooms, Identities& identities, Workers& workers, Limits limits);
  ~Protocol() override;

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
  // Sends `text` to each of the player's own connections here (not other nodes' clients standing here: their
  // node delivers to them).
  void to_player(const std::string& player_id, const std::string& text);
  // The player a connection said hello as.
  std::optional<lobby::Player> player_of(std::uint64_t connection);

  // A connection by its id (nullptr once gone), the hash of the token it proved, and logging the player's
  // other connections out (Clients, request.h, which the commands see).
  std::shared_ptr<net::Connection> connection_of(std::uint64_t connection) override;
  std::string session_of(std::uint64_t connection) override;
  void log_out_others(const std::string& player_id, std::uint64_t except) override;

  std::size_t seeks_waiting();
  // The tournaments (server/tournaments.h): loaded at start-up, shown over HTTP too.
  TournamentDesk& tournaments() { return tournaments_; }
  // Bans, mutes and blocks in force (server/moderation_desk.h): loaded at start-up.
  ModerationDesk& moderation() { return moderation_; }
  // What the commands are given: the REST API's moderation routes and the cluster run moderation's actions
  // with it (server/commands/moderation.h).
  CommandContext& commands() { return commands_; }
  // From now on no message is handled and no completion goes on; drops every connection record.
  void shutdown();

 private:
  // The rest of Clients: for the commands and their flights only, through that interface.
  void set_player(std::uint64_t connection, const lobby::Player& player) override;
  void set_session(std::uint64_t connection, const std::string& token_hash) override;
  void clear_player(std::uint64_t connection) override;
  bool enter_room(std::uint64_t connection, const std::string& room,
                  const std::function<void()>& then) override;
  void leave_room(std::uint64_t connection, const std::string& room) override;
  void resume(const std::shared_ptr<net::Connection>& c, const std::shared_ptr<Lane>& lane) override;

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

  void reply_error(const std::shared_ptr<net::Connection>& c, const std::string& code,
                   const std::string& message, const std::string& ref = {});

  Services& services_;
  RoomDirectory& rooms_;
  Limits limits_;

  std::mutex clients_mutex_;
  std::unordered_map<std::uint64_t, Client> clients_;
  std::atomic<bool> stopping_{false};

  SeekDesk seeks_;
  TournamentDesk tournaments_;
  ModerationDesk moderation_;
  LoginGuard logins_;
  CommandContext commands_;  // what the commands are given, over the members above and this
};

}  // namespace cinq::server
