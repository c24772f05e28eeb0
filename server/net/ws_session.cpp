#include "server/net/ws_session.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/websocket/error.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <cctype>
#include <chrono>
#include <string_view>
#include <exception>

namespace cinq::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;

namespace {
// How long a close may wait for the queue to drain and the peer to answer before the socket is dropped.
// Shorter than stop()'s 3 s deadline, so a clean shutdown is not cut short by one stuck client.
constexpr auto kCloseGrace = std::chrono::seconds(2);
constexpr std::size_t kMaxReasonBytes = 123;  // RFC 6455: a control frame's payload is at most 125 bytes

// The value of the `cinq_device` cookie in a Cookie header, "" if none or not an opaque id (at most 128
// letters, digits, '-' and '_').
std::string device_cookie(std::string_view header) {
  constexpr std::string_view kName = "cinq_device=";
  while (!header.empty()) {
    while (!header.empty() && (header.front() == ' ' || header.front() == ';')) header.remove_prefix(1);
    const std::size_t end = header.find(';');
    std::string_view pair = header.substr(0, end);
    header = end == std::string_view::npos ? std::string_view() : header.substr(end);
    if (!pair.starts_with(kName)) continue;
    std::string_view value = pair.substr(kName.size());
    if (value.empty() || value.size() > 128) return {};
    for (char c : value)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return {};
    return std::string(value);
  }
  return {};
}
}  // namespace

WsSession::WsSession(asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state, std::string address,
                     AddressSlot slot)
    : ws_(std::move(socket)),
      close_deadline_(ws_.get_executor()),
      state_(std::move(state)),
      address_(std::move(address)),
      id_(state_->next_id()),
      slot_(std::move(slot)) {}

WsSession::~WsSession() {
  state_->leave(id_);
  // Only after a forced stop can a session die open without finish(); keep the gauge honest anyway.
  if (opened_ && !finished_) state_->stats().connections_open.fetch_sub(1);
}

void WsSession::run(http::request<http::string_body> request) {
  // Beast's own timeouts: the handshake must finish in 30 s, and an idle peer is pinged, then dropped if
  // silent, so dead connections do not pile up. The tcp_stream's own timer must stay off with these.
  beast::get_lowest_layer(ws_).expires_never();
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& response) { response.set(http::field::server, "cinq"); }));
  ws_.read_message_max(state_->config().hard_max_message);
  ws_.auto_fragment(false);
  ws_.text(true);
  device_ = device_cookie(request[http::field::cookie]);
  ws_.async_accept(request, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
}

void WsSession::on_accept(beast::error_code ec) {
  if (ec) return fail(ec, "accept");
  if (state_->join(id_, weak_from_this())) {
    opened_ = true;
    state_->stats().connections_total.fetch_add(1);
    state_->stats().connections_open.fetch_add(1);
    state_->handler().on_open(shared_from_this());
  } else {
    // The server began stopping after the upgrade request was read: never open, just say goodbye.
    begin_close(1001, "server shutting down");
  }
  do_read();
}

void WsSession::do_read() {
  ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::on_read, shared_from_this()));
}

void WsSession::on_read(beast::error_code ec, std::size_t) {
  if (ec) {
    // Beast has already sent 1009 and dropped the connection; we only count it.
    if (ec == websocket::error::message_too_big) state_->stats().oversize_closes_total.fetch_add(1);
    fail(ec, "read");
    return finish();
  }
  state_->stats().messages_in_total.fetch_add(1);
  if (!ws_.got_text()) {
    buffer_.consume(buffer_.size());
    begin_close(1003, "text frames only");
    return do_read();
  }
  std::string text = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());
  if (opened_ && !close_requested_) {
    try {
      state_->handler().on_message(shared_from_this(), std::move(text));
    } catch (const std::exception& e) {
      // An exception escaping an I/O thread would end the whole server; this connection ends instead.
      log_failure("websocket " + address_, "on_message", e.what());
      begin_close(1011, "internal error");
    }
  }
  do_read();
}

void WsSession::send(std::shared_ptr<const std::string> text) {
  asio::post(ws_.get_executor(), [self = shared_from_this(), text = std::move(text)]() mutable {
    self->on_send(std::move(text));
  });
}

void WsSession::close(int code, std::string reason) {
  asio::post(ws_.get_executor(), [self = shared_from_this(), code, reason = std::move(reason)]() mutable {
    self->begin_close(code, std::move(reason));
  });
}

void WsSession::on_send(std::shared_ptr<const std::string> text) {
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

void WsSession::do_write() {
  ws_.async_write(asio::buffer(*queue_.front()),
                  beast::bind_front_handler(&WsSession::on_write, shared_from_this()));
}

void WsSession::on_write(beast::error_code ec, std::size_t) {
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

void WsSession::begin_close(int code, std::string reason) {
  if (finished_ || close_requested_) return;
  close_requested_ = true;
  if (reason.size() > kMaxReasonBytes) reason.resize(kMaxReasonBytes);
  close_reason_ = websocket::close_reason(static_cast<websocket::close_code>(code), reason);
  close_deadline_.expires_after(kCloseGrace);
  close_deadline_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
    if (!wait_ec) self->tear_down();
  });
  // Messages already queued go first (an error message before its close, say); on_write closes after them.
  if (queue_.empty()) do_close();
}

void WsSession::do_close() {
  close_started_ = true;
  ws_.async_close(close_reason_, beast::bind_front_handler(&WsSession::on_close, shared_from_this()));
}

void WsSession::on_close(beast::error_code ec) {
  // Whatever happened, the pending read now ends with an error and finish() runs there.
  if (ec) fail(ec, "close");
}

void WsSession::tear_down() { beast::get_lowest_layer(ws_).close(); }

void WsSession::finish() {
  if (finished_) return;
  finished_ = true;
  close_deadline_.cancel();
  tear_down();
  slot_.release();
  state_->leave(id_);
  if (!opened_) return;
  state_->stats().connections_open.fetch_sub(1);
  try {
    state_->handler().on_close(shared_from_this());
  } catch (const std::exception& e) {
    log_failure("websocket " + address_, "on_close", e.what());
  }
}

void WsSession::fail(beast::error_code ec, const char* what) {
  log_failure("websocket " + address_, what, ec);
}

}  // namespace cinq::net
