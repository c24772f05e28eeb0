// Strand and Timer (transport.h) on Asio: a strand of the server's io_context, and a steady_timer whose
// handlers run on such a strand. Internal to server/net.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <cstdint>
#include <functional>
#include <memory>

#include "server/net/transport.h"

namespace cinq::net {

// The io_context behind a Server, for other clients of the transport's threads (redis.cpp).
struct ServerAccess {
  static boost::asio::io_context& io_context(Server& server);
};

using AsioStrand = boost::asio::strand<boost::asio::io_context::executor_type>;

class StrandImpl : public Strand {
 public:
  explicit StrandImpl(AsioStrand strand) : strand_(std::move(strand)) {}
  void post(std::function<void()> fn) override;
  const AsioStrand& executor() const { return strand_; }

 private:
  AsioStrand strand_;
};

// The timer's state lives in a shared_ptr held by every pending wait, so a Timer destroyed while a wait is
// pending leaves the handler something valid to look at (it then sees a stale generation and does
// nothing). The steady_timer itself is only touched on the strand.
class TimerImpl : public Timer {
 public:
  explicit TimerImpl(const AsioStrand& strand);
  ~TimerImpl() override;
  void arm(std::chrono::steady_clock::duration after, std::function<void()> fn) override;
  void cancel() override;

 private:
  struct State {
    explicit State(const AsioStrand& strand) : timer(strand) {}
    boost::asio::steady_timer timer;
    // Bumped by every arm() and cancel(), at once and on the caller's thread: a wait whose generation is
    // no longer current never runs its function, even if its handler is already queued on the strand.
    std::atomic<std::uint64_t> generation{0};
  };
  std::shared_ptr<State> state_;
};

}  // namespace cinq::net
