// Server::Impl: the io_context and its threads, the accept loop, the signal set and the stop path.
#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "server/net/acceptor.h"
#include "server/net/executor.h"
#include "server/net/sessions.h"
#include "server/net/shared_state.h"
#include "server/net/tls.h"
#include "server/net/transport.h"

namespace cinq::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kStopDeadline = std::chrono::seconds(3);
constexpr auto kStopPoll = std::chrono::milliseconds(50);    // how often a stop looks whether sessions are left
constexpr auto kStopGrace = std::chrono::milliseconds(300);  // then how long it lets the last writes finish

// Set while a thread runs the io_context (on_network_thread()).
thread_local bool network_thread = false;

// Runs the io_context on this thread, marked as a network thread for as long as it does.
void run_marked(asio::io_context& ioc) {
  const bool was = network_thread;
  network_thread = true;
  try {
    ioc.run();
  } catch (...) {
    network_thread = was;
    throw;
  }
  network_thread = was;
}
// After a failed accept (out of file descriptors, say), wait a little instead of spinning on the error.
constexpr auto kAcceptBackoff = std::chrono::milliseconds(100);

// The accept loop (chat-multi's listener). The acceptor lives on its own strand so stop() can close it
// from any thread.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(asio::io_context& ioc, std::shared_ptr<SharedState> state)
      : ioc_(ioc),
        acceptor_(asio::make_strand(ioc)),
        backoff_(acceptor_.get_executor()),
        state_(std::move(state)) {
    const ServerConfig& config = state_->config();
    port_ = open_acceptor(acceptor_, config.address, config.port, "");
  }

  std::uint16_t port() const { return port_; }

  void run() {
    asio::dispatch(acceptor_.get_executor(),
                   beast::bind_front_handler(&Listener::do_accept, shared_from_this()));
  }

  void stop() {
    asio::post(acceptor_.get_executor(), [self = shared_from_this()] {
      beast::error_code ignored;
      self->acceptor_.close(ignored);
      self->backoff_.cancel();
    });
  }

 private:
  void do_accept() {
    if (!acceptor_.is_open()) return;
    // Each connection gets its own strand: its handlers never run concurrently, whatever the thread count.
    acceptor_.async_accept(asio::make_strand(ioc_),
                           beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
  }

  void on_accept(beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (ec) {
      log_failure("listener", "accept", ec);
      backoff_.expires_after(kAcceptBackoff);
      backoff_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
        if (!wait_ec) self->do_accept();
      });
      return;
    }
    // Small messages (a move, its event) go out at once: with Nagle's algorithm a send behind an unacknowledged
    // one waits for the peer's delayed ACK, up to 40 ms on Linux, which tripled an opponent's latency.
    beast::error_code ignored;
    const auto endpoint = socket.remote_endpoint(ignored);
    std::string address = ignored ? std::string("unknown") : endpoint.address().to_string();
    // Admitted before anything is read: one address cannot hold every descriptor with idle
    // sockets, and descriptors stay in reserve for everyone else. A refusal is a short answer and a close.
    switch (state_->admit_http(address)) {
      case SharedState::Admit::ok:
        break;
      case SharedState::Admit::address_full:
        state_->stats().http_refused_total.fetch_add(1);
        refuse(socket, kTooManyConnections);
        return do_accept();
      case SharedState::Admit::shed:
        state_->stats().connections_shed_total.fetch_add(1);
        refuse(socket, kServerFull);
        return do_accept();
    }
    socket.set_option(tcp::no_delay(true), ignored);
    AddressSlot slot(state_, address, AddressSlot::Kind::http);
    if (state_->tls())
      start_https_session(std::move(socket), state_, std::move(address), std::move(slot));
    else
      start_http_session(std::move(socket), state_, std::move(address), std::move(slot));
    do_accept();
  }

  static constexpr std::string_view kTooManyConnections =
      "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain\r\nContent-Length: 39\r\nConnection: "
      "close\r\nRetry-After: 5\r\n\r\ntoo many connections from this address\n";
  static constexpr std::string_view kServerFull =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 19\r\nConnection: "
      "close\r\nRetry-After: 5\r\n\r\nthe server is full\n";
  // Writes a canned answer without waiting (a fresh socket's send buffer is empty) and closes.
  static void refuse(tcp::socket& socket, std::string_view answer) {
    beast::error_code ignored;
    socket.non_blocking(true, ignored);
    socket.write_some(asio::buffer(answer.data(), answer.size()), ignored);
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
  }

  asio::io_context& ioc_;
  tcp::acceptor acceptor_;
  asio::steady_timer backoff_;
  std::shared_ptr<SharedState> state_;
  std::uint16_t port_ = 0;
};

}  // namespace

struct Server::Impl {
  Impl(ServerConfig config, Handler& handler)
      : ioc(std::max(1, config.threads)),
        state(std::make_shared<SharedState>(std::move(config), handler)),
        listener(std::make_shared<Listener>(ioc, state)),
        signals(asio::make_strand(ioc)),
        hangups(signals.get_executor()) {
    listener->run();
  }

  // SIGHUP, while the server runs with TLS: the certificate is read again (certbot renewed it), for the
  // connections accepted from then on. A file that does not load is logged and the old certificate stays.
  void wait_hangup() {
    hangups.async_wait([this](beast::error_code ec, int) {
      if (ec) return;
      std::string why;
      if (state->tls()->reload(why))
        log_note("tls", "certificate reloaded from " + state->tls()->cert_file());
      else
        log_failure("tls", "reload", why + " (the certificate in force stays)");
      wait_hangup();
    });
  }

  ~Impl() {
    {
      std::lock_guard lock(watchdog_mutex);
      run_done = true;
    }
    watchdog_wake.notify_all();
    if (watchdog.joinable()) watchdog.join();
  }

  void run(std::function<void()> on_signal) {
    // Same strand as stop()'s cancel, so a stop() racing with run() either finds the wait to cancel or
    // makes it never start.
    asio::post(signals.get_executor(), [this, on_signal = std::move(on_signal)]() mutable {
      if (stopping.load()) return;
      signals.add(SIGINT);
      signals.add(SIGTERM);
      if (state->tls()) {
        hangups.add(SIGHUP);
        wait_hangup();
      }
      signals.async_wait([this, on_signal = std::move(on_signal)](beast::error_code ec, int) {
        if (ec) return;
        if (on_signal) {
          on_signal();
        } else {
          stop();
        }
      });
    });
    std::vector<std::thread> threads;
    const int count = std::max(1, state->config().threads);
    for (int i = 1; i < count; ++i) threads.emplace_back([this] { run_marked(ioc); });
    run_marked(ioc);
    for (auto& thread : threads) thread.join();
    // Only after a forced stop are sessions still registered: no read will complete for them any more, so
    // they report their end now (no I/O thread is left to race with).
    for (const auto& session : state->live_sessions()) session->abandon();
    {
      std::lock_guard lock(watchdog_mutex);
      run_done = true;
    }
    watchdog_wake.notify_all();
  }

  void stop() {
    if (stopping.exchange(true)) return;
    listener->stop();
    asio::post(signals.get_executor(), [this] {
      beast::error_code ignored;
      signals.cancel(ignored);
      signals.clear(ignored);  // gives SIGINT/SIGTERM back to their default action
      hangups.cancel(ignored);
      hangups.clear(ignored);
    });
    for (const auto& session : state->begin_stop()) session->shut_down();
    // run() returns by itself once the sessions are gone and nothing else waits; this forces it when a peer
    // keeps the io_context busy past the deadline, or, once every session has gone, when the application's
    // timers (a room's clock, a correspondence deadline) would: after a short grace for the writes still
    // under way (a listener of the application's own closing its connections).
    std::lock_guard lock(watchdog_mutex);
    watchdog = std::thread([this] {
      const auto deadline = std::chrono::steady_clock::now() + kStopDeadline;
      std::unique_lock lock(watchdog_mutex);
      while (!run_done && std::chrono::steady_clock::now() < deadline) {
        if (watchdog_wake.wait_for(lock, kStopPoll, [this] { return run_done; })) return;
        lock.unlock();
        const bool sessions_gone = state->live_sessions().empty();
        lock.lock();
        if (sessions_gone) {
          watchdog_wake.wait_for(lock, kStopGrace, [this] { return run_done; });
          break;
        }
      }
      if (!run_done) ioc.stop();
    });
  }

  // Declared first, destroyed last: everything below holds I/O objects of this io_context.
  asio::io_context ioc;
  std::shared_ptr<SharedState> state;
  std::shared_ptr<Listener> listener;
  asio::signal_set signals;
  asio::signal_set hangups;  // SIGHUP: the certificate reloaded (TLS only)
  std::atomic<bool> stopping{false};
  std::mutex watchdog_mutex;
  std::condition_variable watchdog_wake;
  bool run_done = false;
  std::thread watchdog;
};

bool on_network_thread() { return network_thread; }

asio::io_context& ServerAccess::io_context(Server& server) { return server.impl_->ioc; }

Server::Server(ServerConfig config, Handler& handler)
    : impl_(std::make_unique<Impl>(std::move(config), handler)) {}

Server::~Server() = default;

std::uint16_t Server::port() const { return impl_->listener->port(); }

Stats& Server::stats() { return impl_->state->stats(); }

std::shared_ptr<Strand> Server::make_strand() {
  return std::make_shared<StrandImpl>(asio::make_strand(impl_->ioc));
}

std::unique_ptr<Timer> Server::make_timer(const std::shared_ptr<Strand>& strand) {
  // Every Strand handed out by this transport is a StrandImpl.
  return std::make_unique<TimerImpl>(static_cast<StrandImpl&>(*strand).executor());
}

void Server::run(std::function<void()> on_signal) { impl_->run(std::move(on_signal)); }

void Server::stop() { impl_->stop(); }

bool Server::tls() const { return impl_->state->tls() != nullptr; }

bool Server::reload_tls(std::string& why) {
  if (!impl_->state->tls()) {
    why = "the server was started without --tls-cert";
    return false;
  }
  return impl_->state->tls()->reload(why);
}

}  // namespace cinq::net
