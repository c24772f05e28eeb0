#include "server/net/shared_state.h"

#include <boost/asio/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/websocket/error.hpp>
#include <iostream>
#include <spdlog/spdlog.h>

namespace cinq::net {

bool SharedState::try_reserve(const std::string& address) {
  std::lock_guard lock(mutex_);
  auto& count = per_address_[address];
  if (config_.max_connections_per_address > 0 && count >= config_.max_connections_per_address) {
    if (count == 0) per_address_.erase(address);
    return false;
  }
  ++count;
  return true;
}

void SharedState::release(const std::string& address) {
  std::lock_guard lock(mutex_);
  auto it = per_address_.find(address);
  if (it == per_address_.end()) return;
  if (--it->second == 0) per_address_.erase(it);
}

bool SharedState::join(std::uint64_t id, std::weak_ptr<Session> session) {
  std::lock_guard lock(mutex_);
  if (stopping_) return false;
  sessions_.emplace(id, std::move(session));
  return true;
}

void SharedState::leave(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  sessions_.erase(id);
}

bool SharedState::stopping() const {
  std::lock_guard lock(mutex_);
  return stopping_;
}

std::vector<std::shared_ptr<Session>> SharedState::begin_stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  return live_sessions();
}

std::vector<std::shared_ptr<Session>> SharedState::live_sessions() {
  std::vector<std::shared_ptr<Session>> live;
  std::lock_guard lock(mutex_);
  for (auto& [id, weak] : sessions_) {
    if (auto session = weak.lock()) live.push_back(std::move(session));
  }
  return live;
}

bool is_benign(const boost::system::error_code& ec) {
  namespace asio = boost::asio;
  namespace beast = boost::beast;
  return ec == asio::error::operation_aborted || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::broken_pipe ||
         ec == asio::error::not_connected || ec == beast::error::timeout ||
         ec == beast::websocket::error::closed || ec == beast::http::error::end_of_stream ||
         ec == beast::http::error::partial_message;
}

void log_failure(std::string_view who, std::string_view what, const boost::system::error_code& ec) {
  if (!is_benign(ec)) log_failure(who, what, ec.message());
}

void log_failure(std::string_view who, std::string_view what, std::string_view message) {
  spdlog::warn("net: {}: {}: {}", who, what, message);
}

}  // namespace cinq::net
