// One WebSocket connection (Beast's chat-multi websocket_session, with its two gaps closed: a bounded send
// queue and a read_message_max). A template over the stream below it, as HttpSession (http_session.h): plain
// TCP (ws_session.cpp) or TLS (tls_ws_session.cpp), each instantiated once. Internal to server/net.
#pragma once

#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/websocket/error.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <chrono>
#include <exception>
#include <memory>
#include <string>

#include "server/net/fifo.h"
#include "server/net/shared_state.h"
#include "server/net/transport.h"

namespace cinq::net {

// Everything runs on the connection's strand (the socket's executor). Other threads reach the session only
// through send()/close()/shut_down(), which post there. Reads are sequential: the next async_read starts
// after Handler::on_message returns, which gives the application per-connection ordering for free.
template <class Stream>
class WsSession : public Connection, public Session, public std::enable_shared_from_this<WsSession<Stream>> {
 public:
  // `stream`: the HTTP session's stream (its TLS session, if any, already established); `keep`: what it needs
  // alive as long as it lives (its TLS context).
  WsSession(Stream&& stream, std::shared_ptr<void> keep, std::shared_ptr<SharedState> state, std::string address,
            AddressSlot slot)
      : keep_(std::move(keep)),
        ws_(std::move(stream)),
        close_deadline_(ws_.get_executor()),
        state_(std::move(state)),
        address_(std::move(address)),
        id_(state_->next_id()),
        slot_(std::move(slot)) {}

  ~WsSession() override {
    state_->leave(id_);
    // Only after a forced stop can a session die open without finish(); keep the gauge honest anyway.
    if (opened_ && !finished_) state_->stats().connections_open.fetch_sub(1);
  }

  // The browser's device id (Connection::device); `set_cookie`: the Set-Cookie the upgrade's answer carries
  // (a new id), "" when the request had one already.
  void set_device(std::string device, std::string set_cookie) {
    device_ = std::move(device);
    set_cookie_ = std::move(set_cookie);
  }
  const std::string& device() const override { return device_; }

  // Accepts the upgrade `request` (already read by the HTTP session) and starts reading.
  void run(boost::beast::http::request<boost::beast::http::string_body> request) {
    namespace websocket = boost::beast::websocket;
    // Beast's own timeouts: the handshake must finish in 30 s, and an idle peer is pinged, then dropped if
    // silent, so dead connections do not pile up. The tcp_stream's own timer must stay off with these.
    boost::beast::get_lowest_layer(ws_).expires_never();
    ws_.set_option(websocket::stream_base::timeout::suggested(boost::beast::role_type::server));
    ws_.set_option(websocket::stream_base::decorator([cookie = std::move(set_cookie_)](websocket::response_type& response) {
      response.set(boost::beast::http::field::server, "cinq");
      if (!cookie.empty()) response.set(boost::beast::http::field::set_cookie, cookie);
    }));
    set_cookie_ = std::string();
    ws_.read_message_max(state_->config().hard_max_message);
    ws_.auto_fragment(false);
    ws_.text(true);
    ws_.async_accept(request, boost::beast::bind_front_handler(&WsSession::on_accept, this->shared_from_this()));
  }

  void send(std::shared_ptr<const std::string> text) override {
    boost::asio::post(ws_.get_executor(), [self = this->shared_from_this(), text = std::move(text)]() mutable {
      self->on_send(std::move(text));
    });
  }
  using Connection::send;
  void close(int code, std::string reason) override {
    boost::asio::post(ws_.get_executor(),
                      [self = this->shared_from_this(), code, reason = std::move(reason)]() mutable {
                        self->begin_close(code, std::move(reason));
                      });
  }
  const std::string& address() const override { return address_; }
  std::uint64_t id() const override { return id_; }

  void shut_down() override { close(1001, "server shutting down"); }
  void abandon() override { finish(); }

 private:
  // How long a close may wait for the queue to drain and the peer to answer before the socket is dropped.
  // Shorter than stop()'s 3 s deadline, so a clean shutdown is not cut short by one stuck client.
  static constexpr auto kCloseGrace = std::chrono::seconds(2);
  static constexpr std::size_t kMaxReasonBytes = 123;  // RFC 6455: a control frame's payload is at most 125 bytes

  void on_accept(boost::beast::error_code ec) {
    // The answer is sent: its decorator (holding the Set-Cookie) is not kept for the connection's life.
    ws_.set_option(boost::beast::websocket::stream_base::decorator([](boost::beast::websocket::response_type&) {}));
    if (ec) return fail(ec, "accept");
    if (state_->join(id_, this->weak_from_this())) {
      opened_ = true;
      state_->stats().connections_total.fetch_add(1);
      state_->stats().connections_open.fetch_add(1);
      state_->handler().on_open(this->shared_from_this());
    } else {
      // The server began stopping after the upgrade request was read: never open, just say goodbye.
      begin_close(1001, "server shutting down");
    }
    do_read();
  }

  void do_read() {
    ws_.async_read(buffer_, boost::beast::bind_front_handler(&WsSession::on_read, this->shared_from_this()));
  }

  void on_read(boost::beast::error_code ec, std::size_t) {
    if (ec) {
      // Beast has already sent 1009 and dropped the connection; we only count it.
      if (ec == boost::beast::websocket::error::message_too_big) state_->stats().oversize_closes_total.fetch_add(1);
      fail(ec, "read");
      return finish();
    }
    state_->stats().messages_in_total.fetch_add(1);
    if (!ws_.got_text()) {
      buffer_.consume(buffer_.size());
      begin_close(1003, "text frames only");
      return do_read();
    }
    std::string text = boost::beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (opened_ && !close_requested_) {
      try {
        state_->handler().on_message(this->shared_from_this(), std::move(text));
      } catch (const std::exception& e) {
        // An exception escaping an I/O thread would end the whole server; this connection ends instead.
        log_failure("websocket " + address_, "on_message", e.what());
        begin_close(1011, "internal error");
      }
    }
    do_read();
  }

  void on_send(std::shared_ptr<const std::string> text) {
    if (finished_ || close_requested_) return;
    if (queue_.size() >= state_->config().send_queue_max) {
      // The client reads slower than we write: drop everything not yet on the wire and disconnect it; it
      // resynchronizes when it comes back (docs/design.md). The front message is mid-write and must stay.
      state_->stats().send_queue_drops_total.fetch_add(1);
      queue_.keep_front();
      return begin_close(1008, "too slow");
    }
    queue_.push_back(std::move(text));
    if (queue_.size() == 1) do_write();
  }

  void do_write() {
    ws_.async_write(boost::asio::buffer(*queue_.front()),
                    boost::beast::bind_front_handler(&WsSession::on_write, this->shared_from_this()));
  }

  void on_write(boost::beast::error_code ec, std::size_t) {
    if (ec) {
      fail(ec, "write");
      queue_.clear();
      return tear_down();  // the pending read then fails, and finish() runs there
    }
    queue_.pop_front();
    state_->stats().messages_out_total.fetch_add(1);
    if (!queue_.empty()) return do_write();
    if (close_requested_ && !close_started_) do_close();
  }

  void begin_close(int code, std::string reason) {
    if (finished_ || close_requested_) return;
    close_requested_ = true;
    if (reason.size() > kMaxReasonBytes) reason.resize(kMaxReasonBytes);
    close_reason_ = boost::beast::websocket::close_reason(static_cast<boost::beast::websocket::close_code>(code),
                                                          reason);
    close_deadline_.expires_after(kCloseGrace);
    close_deadline_.async_wait([self = this->shared_from_this()](boost::beast::error_code wait_ec) {
      if (!wait_ec) self->tear_down();
    });
    // Messages already queued go first (an error message before its close, say); on_write closes after them.
    if (queue_.empty()) do_close();
  }

  void do_close() {
    close_started_ = true;
    ws_.async_close(close_reason_, boost::beast::bind_front_handler(&WsSession::on_close, this->shared_from_this()));
  }

  void on_close(boost::beast::error_code ec) {
    // Whatever happened, the pending read now ends with an error and finish() runs there.
    if (ec) fail(ec, "close");
  }

  void tear_down() { boost::beast::get_lowest_layer(ws_).close(); }

  // The end of the connection, whichever way it came: tells the handler, once.
  void finish() {
    if (finished_) return;
    finished_ = true;
    close_deadline_.cancel();
    tear_down();
    slot_.release();
    state_->leave(id_);
    if (!opened_) return;
    state_->stats().connections_open.fetch_sub(1);
    try {
      state_->handler().on_close(this->shared_from_this());
    } catch (const std::exception& e) {
      log_failure("websocket " + address_, "on_close", e.what());
    }
  }

  void fail(boost::beast::error_code ec, const char* what) { log_failure("websocket " + address_, what, ec); }

  std::string device_;
  std::string set_cookie_;
  std::shared_ptr<void> keep_;  // before the stream: outlives it
  boost::beast::websocket::stream<Stream> ws_;
  boost::beast::flat_buffer buffer_;
  // Forces the socket shut when a close handshake does not complete in time (a peer that stopped reading
  // never lets our pending write or close frame through).
  boost::asio::steady_timer close_deadline_;
  std::shared_ptr<SharedState> state_;
  const std::string address_;
  const std::uint64_t id_;
  AddressSlot slot_;

  // The front message is the one being written; at most one write is in flight.
  Fifo<std::shared_ptr<const std::string>> queue_;
  bool opened_ = false;           // on_open was called
  bool finished_ = false;         // on_close was called (or the session never opened)
  bool close_requested_ = false;  // a close is pending behind the queue
  bool close_started_ = false;    // async_close is in flight
  boost::beast::websocket::close_reason close_reason_;
};

}  // namespace cinq::net
