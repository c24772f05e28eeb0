// The load generator's network layer: event loops (one thread each) and client WebSocket connections on
// Beast. No Boost in this header on purpose: only ws_conn.cpp pays for Beast's compile time, and the
// game logic above it stays plain C++.
//
// Threading: every connection belongs to one Loop and all its callbacks run on that loop's thread, so the
// code driving a room (players, spectators, timers) never needs a lock as long as it stays on one loop.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace cinq::load {

using Clock = std::chrono::steady_clock;

class Loop {
 public:
  Loop();
  ~Loop();
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  void start();  // runs the loop on a new thread
  void stop();   // stops it (pending handlers are dropped) and joins the thread
  void post(std::function<void()> fn);
  // Runs `fn` on the loop's thread after `delay` (a one-shot timer that cannot be cancelled: callers hold
  // weak pointers in `fn` when what they act on may be gone).
  void after(Clock::duration delay, std::function<void()> fn);

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

struct Target {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  std::string path = "/ws";
};

class Conn;

// Told what happens to a connection, on the connection's loop.
class ConnListener {
 public:
  virtual void on_open(Conn& c) = 0;
  virtual void on_message(Conn& c, std::string_view text, Clock::time_point at) = 0;
  // Connect or handshake failed, or the connection closed. Called at most once, never after detach().
  virtual void on_close(Conn& c, std::string_view why) = 0;

 protected:
  ~ConnListener() = default;
};

class Conn {
 public:
  // Starts connecting at once; the result comes to `listener` on `loop`. Call on the loop's thread.
  // `source`: a local IPv4 address to connect from (127.0.0.K: each loopback source address has its own
  // ~28,000 ephemeral ports towards one server port); empty: the kernel's choice.
  static std::shared_ptr<Conn> open(Loop& loop, const Target& target, ConnListener* listener,
                                    Clock::duration connect_timeout, const std::string& source = {});
  virtual ~Conn() = default;
  virtual void send(std::string text) = 0;  // queued; one write in flight
  virtual void detach() = 0;                // the listener is never called again
  virtual void close() = 0;                 // detaches and drops the socket (no closing handshake)
  virtual bool open_now() const = 0;

  int tag = 0;  // free for the owner (index of the connection in its room)
};

}  // namespace cinq::load
