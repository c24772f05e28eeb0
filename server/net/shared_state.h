// What every session of one server shares: the configuration, the application's handler, the counters, the
// per-address connection counts and the live sessions (so that stop() can reach them). Internal to
// server/net.
#pragma once

#include <atomic>
#include <chrono>
#include <boost/system/error_code.hpp>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/net/transport.h"

namespace cinq::net {

// A live HTTP or WebSocket session, as the server's stop path sees it.
class Session {
 public:
  virtual ~Session() = default;
  // Ends the session soon: WebSocket sessions close with 1001, idle HTTP sessions drop their socket.
  // Any thread.
  virtual void shut_down() = 0;
  // Called once the I/O threads are gone (after a forced stop): a WebSocket session still open reports
  // its on_close now, because no read will ever complete to do it.
  virtual void abandon() {}
};

class TlsFiles;

class SharedState {
 public:
  SharedState(ServerConfig config, Handler& handler);

  const ServerConfig& config() const { return config_; }
  Handler& handler() { return handler_; }
  Stats& stats() { return stats_; }
  std::uint64_t next_id() { return next_id_.fetch_add(1) + 1; }
  // The certificate new connections are served with; null: plain HTTP (ServerConfig::tls_cert).
  const std::shared_ptr<TlsFiles>& tls() const { return tls_; }

  // Takes one of the WebSocket connections allowed to `address`; false when it has them all.
  bool try_reserve(const std::string& address);
  void release(const std::string& address);

  // Admission of a new connection, before anything is read from it: an HTTP connection of
  // `address`, within its per-address cap and the descriptor budget. `shed` tells which refused it.
  enum class Admit { ok, address_full, shed };
  Admit admit_http(const std::string& address);
  bool trusted_proxy(const std::string& address) const;
  void release_http(const std::string& address);
  // Whether one more WebSocket connection fits the descriptor budget.
  bool websocket_fits() const;
  // One request of `address` against its rate (a token bucket): false when it must wait (429).
  bool take_request(const std::string& address);

  // Registers a session for stop(); false (and not registered) once the server is stopping.
  bool join(std::uint64_t id, std::weak_ptr<Session> session);
  void leave(std::uint64_t id);
  bool stopping() const;
  // Marks the server stopping and returns the sessions alive at that moment. Later joins fail, so no
  // session can slip between the snapshot and the flag.
  std::vector<std::shared_ptr<Session>> begin_stop();
  std::vector<std::shared_ptr<Session>> live_sessions();

 private:
  const ServerConfig config_;
  Handler& handler_;
  std::shared_ptr<TlsFiles> tls_;
  Stats stats_;
  std::atomic<std::uint64_t> next_id_{0};
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::size_t> per_address_;
  std::unordered_map<std::string, std::size_t> http_per_address_;
  struct Bucket {
    double tokens = 0;
    std::chrono::steady_clock::time_point last;
  };
  std::mutex rate_mutex_;
  std::unordered_map<std::string, Bucket> rates_;
  std::chrono::steady_clock::time_point rates_swept_;  // full buckets are forgotten at most once a second
  // Descriptor budgets, from the open files limit at start (ServerConfig::fd_reserve).
  std::int64_t websocket_budget_ = 0;
  std::int64_t connection_budget_ = 0;
  std::unordered_map<std::uint64_t, std::weak_ptr<Session>> sessions_;
  bool stopping_ = false;
};

// One connection slot of an address, given back once (explicitly or on destruction): a WebSocket connection
// (SharedState::try_reserve) or an admitted HTTP connection (SharedState::admit_http).
class AddressSlot {
 public:
  enum class Kind { websocket, http };
  AddressSlot() = default;
  AddressSlot(std::shared_ptr<SharedState> state, std::string address, Kind kind = Kind::websocket)
      : state_(std::move(state)), address_(std::move(address)), kind_(kind) {}
  AddressSlot(AddressSlot&& other) noexcept = default;
  AddressSlot& operator=(AddressSlot&& other) noexcept {
    release();
    state_ = std::move(other.state_);
    address_ = std::move(other.address_);
    kind_ = other.kind_;
    return *this;
  }
  ~AddressSlot() { release(); }
  void release() {
    if (!state_) return;
    auto state = std::exchange(state_, nullptr);
    kind_ == Kind::http ? state->release_http(address_) : state->release(address_);
  }

 private:
  std::shared_ptr<SharedState> state_;
  std::string address_;
  Kind kind_ = Kind::websocket;
};

// Errors that are part of a connection's normal end (peer gone, our own cancellation, timeouts of idle
// peers): not worth a log line.
bool is_benign(const boost::system::error_code& ec);
// The one place server/net logs: an unexpected error of `who` during `what`.
void log_failure(std::string_view who, std::string_view what, const boost::system::error_code& ec);
void log_failure(std::string_view who, std::string_view what, std::string_view message);
// What the transport did that an operator wants in the log (a certificate reloaded).
void log_note(std::string_view who, std::string_view message);

}  // namespace cinq::net
