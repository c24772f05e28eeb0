#include "server/net/executor.h"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

namespace cinq::net {

namespace asio = boost::asio;

void StrandImpl::post(std::function<void()> fn) { asio::post(strand_, std::move(fn)); }

TimerImpl::TimerImpl(const AsioStrand& strand) : state_(std::make_shared<State>(strand)) {}

TimerImpl::~TimerImpl() { cancel(); }

void TimerImpl::arm(std::chrono::steady_clock::duration after, std::function<void()> fn) {
  const auto generation = state_->generation.fetch_add(1) + 1;
  // dispatch: runs inline when the caller is already on the strand (the usual case: a room re-arming its
  // clock), otherwise hops onto it, since steady_timer is not thread-safe.
  asio::dispatch(
      state_->timer.get_executor(), [state = state_, generation, after, fn = std::move(fn)]() mutable {
        if (state->generation.load() != generation) return;  // re-armed or cancelled meanwhile
        state->timer.expires_after(after);                   // cancels the previous wait, if any
        state->timer.async_wait([state, generation, fn = std::move(fn)](const boost::system::error_code& ec) {
          if (ec || state->generation.load() != generation) return;
          fn();
        });
      });
}

void TimerImpl::cancel() {
  state_->generation.fetch_add(1);
  asio::dispatch(state_->timer.get_executor(), [state = state_] { state->timer.cancel(); });
}

}  // namespace cinq::net
