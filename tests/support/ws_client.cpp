#include "tests/support/ws_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <stdexcept>

namespace cinq::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kConnectTimeout = std::chrono::seconds(5);
constexpr auto kSendTimeout = std::chrono::seconds(10);
constexpr auto kCloseTimeout = std::chrono::seconds(2);
// An HTTP exchange: some requests do real work on the server (a mail handed to Postfix, a store write), and
// a loaded machine (the suite runs beside builds and browsers) has taken more than 10 s for one.
constexpr auto kHttpTimeout = std::chrono::seconds(30);

tcp::endpoint local(std::uint16_t port) { return {asio::ip::make_address("127.0.0.1"), port}; }

// Runs `ioc` on this thread until `done()` or the timeout; true when done.
template <class Done>
bool run_until(asio::io_context& ioc, Done done, std::chrono::steady_clock::duration timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  ioc.restart();
  while (!done()) {
    if (ioc.run_one_until(deadline) == 0) return done();  // timed out, or nothing left to wait for
  }
  return true;
}

}  // namespace

struct WsClient::Impl {
  asio::io_context ioc;
  websocket::stream<beast::tcp_stream> ws{ioc};
  beast::flat_buffer buffer;
  websocket::response_type handshake_response;  // kept to report a refused upgrade's status
  std::deque<std::string> inbox;
  bool reading = false;
  bool closed = false;
  int close_code = 0;

  void mark_closed() {
    closed = true;
    if (close_code == 0) close_code = ws.reason().code;
  }

  // A read stays pending between calls; whatever it gets is queued for receive().
  void start_read() {
    if (reading || closed) return;
    reading = true;
    ws.async_read(buffer, [this](beast::error_code ec, std::size_t) {
      reading = false;
      if (ec) return mark_closed();
      inbox.push_back(beast::buffers_to_string(buffer.data()));
      buffer.consume(buffer.size());
      start_read();
    });
  }
};

WsClient::WsClient(std::uint16_t port, const std::string& target) : impl_(std::make_unique<Impl>()) {
  auto& ws = impl_->ws;
  beast::error_code result = asio::error::would_block;
  bool done = false;
  beast::get_lowest_layer(ws).async_connect(local(port), [&](beast::error_code ec) {
    if (ec) {
      result = ec;
      done = true;
      return;
    }
    beast::get_lowest_layer(ws).expires_never();  // Beast's websocket timeouts take over
    ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    ws.auto_fragment(false);  // one send() is one frame, however big: tests send oversize frames on purpose
    ws.text(true);
    ws.read_message_max(64 * 1024 * 1024);
    ws.async_handshake(impl_->handshake_response, "127.0.0.1:" + std::to_string(port), target,
                       [&](beast::error_code handshake_ec) {
                         result = handshake_ec;
                         done = true;
                       });
  });
  if (!run_until(
          impl_->ioc, [&] { return done; }, kConnectTimeout)) {
    throw std::runtime_error("WebSocket connect to port " + std::to_string(port) + " timed out");
  }
  if (result) {
    std::string message =
        "WebSocket connect to port " + std::to_string(port) + target + " failed: " + result.message();
    if (impl_->handshake_response.result_int() != 0) {
      message += " (HTTP " + std::to_string(impl_->handshake_response.result_int()) + ")";
    }
    throw std::runtime_error(message);
  }
}

WsClient::~WsClient() {
  try {
    close();
  } catch (...) {
    // A destructor must not throw; the socket closes with the stream anyway.
  }
}

void WsClient::send(const std::string& text) {
  if (impl_->closed) throw std::runtime_error("WebSocket send on a closed connection");
  beast::error_code result;
  bool done = false;
  impl_->ws.async_write(asio::buffer(text), [&](beast::error_code ec, std::size_t) {
    result = ec;
    done = true;
  });
  if (!run_until(
          impl_->ioc, [&] { return done; }, kSendTimeout)) {
    // The peer stopped reading; the stream is unusable with a write half done.
    beast::get_lowest_layer(impl_->ws).close();
    run_until(
        impl_->ioc, [&] { return done; }, kCloseTimeout);
    impl_->mark_closed();
    throw std::runtime_error("WebSocket send timed out");
  }
  if (result) {
    impl_->mark_closed();
    throw std::runtime_error("WebSocket send failed: " + result.message());
  }
}

std::optional<std::string> WsClient::receive(std::chrono::milliseconds timeout) {
  auto& impl = *impl_;
  if (impl.inbox.empty() && !impl.closed) {
    impl.start_read();
    run_until(
        impl.ioc, [&] { return !impl.inbox.empty() || impl.closed; }, timeout);
  }
  if (impl.inbox.empty()) return std::nullopt;
  std::string text = std::move(impl.inbox.front());
  impl.inbox.pop_front();
  return text;
}

bool WsClient::closed() const { return impl_->closed; }

int WsClient::close_code() const { return impl_->close_code; }

void WsClient::close() {
  auto& impl = *impl_;
  if (!impl.closed) {
    bool done = false;
    impl.ws.async_close(websocket::close_code::normal, [&](beast::error_code) { done = true; });
    // The pending read, if any, sees the server's answering close frame and ends too.
    run_until(
        impl.ioc, [&] { return done && !impl.reading; }, kCloseTimeout);
    impl.closed = true;
  }
  beast::error_code ignored;
  beast::get_lowest_layer(impl.ws).socket().close(ignored);
}

HttpReply http_request(std::uint16_t port, const std::string& method, const std::string& target,
                       const std::string& body, const std::string& content_type) {
  asio::io_context ioc;
  beast::tcp_stream stream(ioc);
  beast::error_code ec;
  stream.expires_after(kConnectTimeout);
  stream.connect(local(port), ec);
  if (ec)
    throw std::runtime_error("HTTP connect to port " + std::to_string(port) + " failed: " + ec.message());

  http::request<http::string_body> request{http::string_to_verb(method), target, 11};
  if (request.method() == http::verb::unknown) request.method_string(method);
  request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  request.set(http::field::connection, "close");
  if (!content_type.empty()) request.set(http::field::content_type, content_type);
  request.body() = body;
  request.prepare_payload();

  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  parser.skip(request.method() == http::verb::head);  // a HEAD response has a length but no body
  beast::flat_buffer buffer;
  bool done = false;
  stream.expires_after(kHttpTimeout);
  http::async_write(stream, request, [&](beast::error_code write_ec, std::size_t) {
    if (write_ec) {
      ec = write_ec;
      done = true;
      return;
    }
    http::async_read(stream, buffer, parser, [&](beast::error_code read_ec, std::size_t) {
      ec = read_ec;
      done = true;
    });
  });
  ioc.run();
  if (!done || ec) {
    throw std::runtime_error("HTTP " + method + " " + target +
                             " failed: " + (done ? ec.message() : "no answer"));
  }

  const auto& response = parser.get();
  HttpReply reply;
  reply.status = static_cast<int>(response.result_int());
  reply.content_type = std::string(response[http::field::content_type]);
  reply.body = response.body();
  for (const auto& field : response) reply.headers.emplace_back(field.name_string(), field.value());
  return reply;
}

}  // namespace cinq::test
