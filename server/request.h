// The dispatcher's parts shared by protocol.cpp (connections, order, admission) and commands.cpp (the table
// of typed commands): a connection's lane of waiting messages, one message being handled, and a command in
// flight off the network thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "server/net/fifo.h"
#include "server/protocol.h"

namespace cinq::server {

// One connection's messages, handled one at a time in arrival order.
struct Lane {
  struct Waiting {
    std::string text;
    std::optional<std::size_t> too_big;  // the size of a message over the cap (its text is not kept)
    std::chrono::steady_clock::time_point received;
    std::string fid;  // a message forwarded by another node: its id (server/cluster.h)
  };
  std::mutex mutex;
  bool busy = false;    // a message is being handled, or a command is in flight off the network thread
  bool closed = false;  // the connection is gone: nothing more is handled
  net::Fifo<Waiting> waiting;
};

// A command that goes on off the network thread (Context::defer). The connection's later messages wait until
// finish() — called by the command when it is done, or by the destructor should the command be dropped (a
// job thrown away at shutdown).
class Flight {
 public:
  Flight(Protocol& protocol, std::shared_ptr<net::Connection> connection, std::shared_ptr<Lane> lane,
         std::string fid = {})
      : protocol_(protocol), connection_(std::move(connection)), lane_(std::move(lane)), fid_(std::move(fid)) {}
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
      protocol_.pump(connection_, lane_);
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
  Protocol& protocol_;
  std::shared_ptr<net::Connection> connection_;
  std::shared_ptr<Lane> lane_;
  std::string fid_;
  std::atomic<int> state_{kRunning};
  std::atomic<bool> finished_{false};
};

// Held by a command in flight (copied into its callbacks); the command calls resume->finish() when done.
using Resume = std::shared_ptr<Flight>;

// One client message being handled.
struct Context {
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
  Resume defer(Protocol& protocol) {
    if (!flight) flight = std::make_shared<Flight>(protocol, connection, lane, fid);
    return flight;
  }
};

// Why a message is refused: its error code and message (docs/protocol.md, "Errors").
struct Refusal {
  std::string code;
  std::string message;
};

// Handles one parsed message (commands.cpp, the table of typed commands): unknown_type, hello_required, the
// command's own checks (bad_message and the like), then its handler.
void run_command(Protocol& protocol, Context& ctx, const std::string& type, const nlohmann::json& body);

}  // namespace cinq::server
