// The dispatcher's parts shared by protocol.cpp (connections, order, admission) and the commands
// (server/commands/): a connection's lane of waiting messages, what the commands may know and change of the
// connections (Clients), one message being handled (Request), and a command in flight off the network thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "lobby/room.h"
#include "server/net/fifo.h"
#include "server/net/transport.h"

namespace cinq::server {

// One connection's messages, handled one at a time in arrival order.
struct Lane {
  struct Waiting {
    std::string text;
    std::optional<std::size_t> too_big;  // the size of a message over the cap (its text is not kept)
    std::chrono::steady_clock::time_point received;
    std::string fid;  // a message forwarded by another node: its id (server/room_bus.h)
  };
  std::mutex mutex;
  bool busy = false;    // a message is being handled, or a command is in flight off the network thread
  bool closed = false;  // the connection is gone: nothing more is handled
  net::Fifo<Waiting> waiting;
};

// The connections as the commands see them: who each one is (its player, the token it proved), the rooms it
// is in, and its lane. Protocol keeps them; every call is thread-safe and does nothing for a connection that
// is gone.
class Clients {
 public:
  virtual ~Clients() = default;

  // A connection by its id (nullptr once gone), the hash of the token it said hello (or logged in) with.
  virtual std::shared_ptr<net::Connection> connection_of(std::uint64_t connection) = 0;
  virtual std::string session_of(std::uint64_t connection) = 0;
  // The player a connection said hello (or logged in) as, and the token hash it proved.
  virtual void set_player(std::uint64_t connection, const lobby::Player& player) = 0;
  virtual void set_session(std::uint64_t connection, const std::string& token_hash) = 0;
  // Logging out: the connection becomes one that has not said hello (its seeks go).
  virtual void clear_player(std::uint64_t connection) = 0;
  // Makes every other connection of the player one that has not said hello, and tells each `logged_out`.
  virtual void log_out_others(const std::string& player_id, std::uint64_t except) = 0;
  // Notes that the connection is in `room` and runs `then` (which subscribes it there), both under the lock
  // the connection's close takes: a connection that is gone is never subscribed, and one that goes after
  // `then` is unsubscribed after it. False (and `then` not run) if the connection is gone.
  virtual bool enter_room(std::uint64_t connection, const std::string& room,
                          const std::function<void()>& then) = 0;
  virtual void leave_room(std::uint64_t connection, const std::string& room) = 0;
  // For Flight: a command in flight held the lane and is done; the connection's waiting messages are handled
  // now, on this thread.
  virtual void resume(const std::shared_ptr<net::Connection>& c, const std::shared_ptr<Lane>& lane) = 0;
};

// A command that goes on off the network thread (CommandContext::defer). The connection's later messages
// wait until finish() — called by the command when it is done, or by the destructor should the command be
// dropped (a job thrown away at shutdown).
class Flight {
 public:
  Flight(Clients& clients, std::shared_ptr<net::Connection> connection, std::shared_ptr<Lane> lane,
         std::string fid = {})
      : clients_(clients), connection_(std::move(connection)), lane_(std::move(lane)), fid_(std::move(fid)) {}
  ~Flight() { finish(); }
  Flight(const Flight&) = delete;
  Flight& operator=(const Flight&) = delete;

  // The command is done: the connection's waiting messages are handled now, on this thread. Completed once:
  // here when the dispatcher had parked the lane, else by the dispatcher itself (Protocol::pump), which goes
  // on with the next message (a forwarded command completed twice was acknowledged after its `moved`).
  void finish() {
    if (finished_.exchange(true)) return;
    if (state_.exchange(kDone) == kParked) {
      connection_->completed(fid_);
      clients_.resume(connection_, lane_);
    }
  }
  // Whether the connection is gone (its answers go nowhere; a room must not subscribe it).
  bool closed() {
    std::lock_guard lock(lane_->mutex);
    return lane_->closed;
  }
  // The dispatcher, once the handler returned: true if the command is still under way (the lane is now its
  // to hand back), false if it already finished (the dispatcher goes on with the next message).
  bool park() {
    int running = kRunning;
    return state_.compare_exchange_strong(running, kParked);
  }

 private:
  static constexpr int kRunning = 0, kParked = 1, kDone = 2;
  Clients& clients_;
  std::shared_ptr<net::Connection> connection_;
  std::shared_ptr<Lane> lane_;
  std::string fid_;
  std::atomic<int> state_{kRunning};
  std::atomic<bool> finished_{false};
};

// Held by a command in flight (copied into its callbacks); the command calls resume->finish() when done.
using Resume = std::shared_ptr<Flight>;

// One client message being handled.
struct Request {
  std::shared_ptr<net::Connection> connection;
  std::string ref;  // the message's `ref` as JSON text, echoed in errors ("" if none)
  std::chrono::steady_clock::time_point received;
  std::optional<lobby::Player> player;  // after `hello`
  std::shared_ptr<Lane> lane;
  std::shared_ptr<Flight> flight;  // set by defer()
  std::string text;  // the message as it came (a command for a room another node owns is forwarded as is)
  std::string fid;   // forwarded by another node (or sent again after one): its id, else ""

  // The command goes on off this thread: the connection's next messages wait until the returned handle's
  // finish(). Once per message.
  Resume defer(Clients& clients) {
    if (!flight) flight = std::make_shared<Flight>(clients, connection, lane, fid);
    return flight;
  }
};

// Why a message is refused: its error code and message (docs/protocol.md, "Errors").
struct Refusal {
  std::string code;
  std::string message;
};

}  // namespace cinq::server
