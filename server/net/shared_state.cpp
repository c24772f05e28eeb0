#include "server/net/shared_state.h"

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/websocket/error.hpp>
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <iostream>
#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include "server/net/tls.h"

namespace cinq::net {

SharedState::SharedState(ServerConfig config, Handler& handler) : config_(std::move(config)), handler_(handler) {
  rlimit limit{};
  std::int64_t files = 1024;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    files = static_cast<std::int64_t>(limit.rlim_cur);
  else if (limit.rlim_cur == RLIM_INFINITY)
    files = 1 << 20;
  const auto reserve = static_cast<std::int64_t>(config_.fd_reserve);
  websocket_budget_ = std::max<std::int64_t>(1, files - reserve);
  connection_budget_ = std::max<std::int64_t>(websocket_budget_, files - reserve / 4);
  if (!config_.tls_cert.empty() || !config_.tls_key.empty()) {
    if (config_.tls_cert.empty() || config_.tls_key.empty())
      throw std::runtime_error("--tls-cert and --tls-key go together: give both files, or neither");
    tls_ = std::make_shared<TlsFiles>(config_.tls_cert, config_.tls_key);
  }
}

namespace {

// An IPv4 address as a number; nullopt if it is not one.
std::optional<std::uint32_t> ipv4(std::string_view text) {
  std::uint32_t value = 0;
  int parts = 0;
  while (parts < 4) {
    std::uint32_t part = 0;
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9' && digits < 3)
      part = part * 10 + static_cast<std::uint32_t>(text[digits++] - '0');
    if (digits == 0 || part > 255) return std::nullopt;
    value = value << 8 | part;
    text.remove_prefix(digits);
    if (++parts < 4) {
      if (text.empty() || text.front() != '.') return std::nullopt;
      text.remove_prefix(1);
    }
  }
  if (!text.empty()) return std::nullopt;
  return value;
}

}  // namespace

// An address, or an IPv4 network ADDR/BITS ("172.16.0.0/12").
bool SharedState::trusted_proxy(const std::string& address) const {
  for (const std::string& proxy : config_.trusted_proxies) {
    if (proxy == address) return true;
    const auto slash = proxy.find('/');
    if (slash == std::string::npos) continue;
    auto network = ipv4(std::string_view(proxy).substr(0, slash));
    auto peer = ipv4(address);
    const int bits = std::atoi(proxy.c_str() + slash + 1);
    if (!network || !peer || bits < 0 || bits > 32) continue;
    const std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t{0} << (32 - bits);
    if ((*network & mask) == (*peer & mask)) return true;
  }
  return false;
}

SharedState::Admit SharedState::admit_http(const std::string& address) {
  if (stats_.http_open.load() + stats_.connections_open.load() >= connection_budget_) return Admit::shed;
  std::lock_guard lock(mutex_);
  if (trusted_proxy(address)) {  // a balancer carries many clients: each is limited once its address is read
    ++http_per_address_[address];
    stats_.http_open.fetch_add(1);
    return Admit::ok;
  }
  auto& count = http_per_address_[address];
  if (config_.max_http_connections_per_address > 0 && count >= config_.max_http_connections_per_address)
    return Admit::address_full;
  ++count;
  stats_.http_open.fetch_add(1);
  return Admit::ok;
}

void SharedState::release_http(const std::string& address) {
  stats_.http_open.fetch_sub(1);
  std::lock_guard lock(mutex_);
  auto it = http_per_address_.find(address);
  if (it == http_per_address_.end()) return;
  if (--it->second == 0) http_per_address_.erase(it);
}

bool SharedState::websocket_fits() const {
  // The upgrading connection is still counted as HTTP: it becomes one WebSocket, no more descriptors.
  return stats_.connections_open.load() < websocket_budget_;
}

bool SharedState::take_request(const std::string& address) {
  if (config_.http_rate <= 0) return true;
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(rate_mutex_);
  // Not on every request: a flood from many addresses would make each one pay for a walk of them all.
  if (rates_.size() > 4096 && now - rates_swept_ >= std::chrono::seconds(1)) {
    rates_swept_ = now;
    // Forget the addresses whose bucket has filled up again: they are as new.
    std::erase_if(rates_, [&](const auto& entry) {
      const double refill = std::chrono::duration<double>(now - entry.second.last).count() * config_.http_rate;
      return entry.second.tokens + refill >= config_.http_burst;
    });
  }
  auto [it, fresh] = rates_.try_emplace(address, Bucket{config_.http_burst, now});
  Bucket& b = it->second;
  if (!fresh) {
    b.tokens = std::min(config_.http_burst,
                        b.tokens + std::chrono::duration<double>(now - b.last).count() * config_.http_rate);
    b.last = now;
  }
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

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
         ec == beast::http::error::partial_message ||
         // A TLS peer that closed without its close_notify (most browsers, on a tab closed).
         ec == asio::ssl::error::stream_truncated;
}

void log_failure(std::string_view who, std::string_view what, const boost::system::error_code& ec) {
  if (!is_benign(ec)) log_failure(who, what, ec.message());
}

void log_failure(std::string_view who, std::string_view what, std::string_view message) {
  spdlog::warn("net: {}: {}: {}", who, what, message);
}

void log_note(std::string_view who, std::string_view message) { spdlog::info("net: {}: {}", who, message); }

}  // namespace cinq::net
