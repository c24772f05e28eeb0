// One HTTP connection (Beast's chat-multi http_session): keep-alive requests one at a time; `/ws` upgrades
// to a WsSession, `/api/*` and `/metrics` go to Handler::on_http, other GET/HEAD requests to static files.
// A template over its stream: plain TCP (beast::tcp_stream, http_session.cpp) or TLS
// (beast::ssl_stream<beast::tcp_stream>, tls_http_session.cpp), each instantiated once in its own translation
// unit; the listener reaches them through sessions.h. Internal to server/net.
#pragma once

#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream_base.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "server/net/shared_state.h"
#include "server/net/static_files.h"
#include "server/net/transport.h"
#include "server/net/ws_session.h"

namespace cinq::net {

// Whether a stream is the plain one (no handshake, no TLS close_notify).
template <class Stream>
inline constexpr bool kPlain = std::is_same_v<Stream, boost::beast::tcp_stream>;

// The headers every answer carries (docs/security.md): the page may run scripts from its own files only
// (no inline script, no eval), talk to its own origin only (its WebSocket included), never be framed; no
// type sniffing; no Referer sent from any page (a correspondence seat's link holds its token).
inline const std::vector<std::pair<std::string, std::string>>& security_headers() {
  static const std::vector<std::pair<std::string, std::string>> headers = {
      {"Content-Security-Policy",
       "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
      {"X-Content-Type-Options", "nosniff"},
      {"Referrer-Policy", "no-referrer"},
      {"X-Frame-Options", "DENY"},
  };
  return headers;
}
// Sent on answers to a request that came over HTTPS (ours, or a trusted balancer's: X-Forwarded-Proto).
inline constexpr std::string_view kHsts = "max-age=31536000";

// The browser's device id (docs/protocol.md, "Identity"): the `cinq_device` cookie's value in a Cookie header
// when it is 1 to 64 characters of [A-Za-z0-9_-], "" otherwise (a malformed one is replaced, never trusted);
// a new one (32 characters of [A-Za-z0-9] from the system's random source); the Set-Cookie that gives it,
// kept 400 days (the longest browsers keep one), HttpOnly, SameSite=Lax, and Secure over HTTPS.
std::string device_cookie(std::string_view cookie_header);
std::string new_device_id();
std::string device_set_cookie(const std::string& device, bool secure);

// Runs on the connection's strand (the socket's executor); Handler::on_http's answer is posted back there.
template <class Stream>
class HttpSession : public Session, public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  // `stream`: a connected TCP stream, or a TLS stream over one whose handshake is still to be made (run()).
  // `keep`: what the stream needs alive as long as it lives (its TLS context). `slot`: the connection's
  // admission (SharedState::admit_http), given back when the session ends or the connection becomes a
  // WebSocket.
  HttpSession(Stream&& stream, std::shared_ptr<void> keep, std::shared_ptr<SharedState> state,
              std::string address, AddressSlot slot)
      : keep_(std::move(keep)),
        stream_(std::move(stream)),
        executor_(stream_.get_executor()),
        state_(std::move(state)),
        address_(std::move(address)),
        slot_(std::move(slot)),
        id_(state_->next_id()) {}
  ~HttpSession() override { state_->leave(id_); }

  void run() {
    // Onto the strand first: shut_down() may already be posting there from another thread.
    boost::asio::dispatch(executor_, [self = this->shared_from_this()] {
      if (!self->state_->join(self->id_, self->weak_from_this())) return;
      if constexpr (kPlain<Stream>) {
        self->do_read();
      } else {
        self->reading_ = true;  // nothing to lose before the first request
        boost::beast::get_lowest_layer(self->stream_).expires_after(kTimeout);
        self->stream_.async_handshake(boost::asio::ssl::stream_base::server,
                                      boost::beast::bind_front_handler(&HttpSession::on_handshake, self));
      }
    });
  }

  void shut_down() override {
    boost::asio::post(executor_, [self = this->shared_from_this()] {
      self->shutting_down_ = true;
      // An idle keep-alive connection loses nothing; one mid-request finishes its answer, then closes.
      if (self->reading_) boost::beast::get_lowest_layer(self->stream_).close();
    });
  }

 private:
  using Request = boost::beast::http::request<boost::beast::http::string_body>;
  static constexpr auto kTimeout = std::chrono::seconds(30);  // to send a request, or to take our response
  static constexpr std::uint32_t kMaxHeaderBytes = 8 * 1024;
  static constexpr std::string_view kTextPlain = "text/plain; charset=utf-8";

  static bool is_http_error(const boost::beast::error_code& ec) {
    return ec.category() == make_error_code(boost::beast::http::error::bad_method).category();
  }

  void on_handshake(boost::beast::error_code ec) {
    // A failed handshake (a scanner, a client that distrusts the certificate) is the client's business.
    if (ec) return;
    do_read();
  }

  void do_read() {
    parser_.emplace();
    parser_->body_limit(state_->config().max_http_body);
    parser_->header_limit(kMaxHeaderBytes);
    boost::beast::get_lowest_layer(stream_).expires_after(kTimeout);
    reading_ = true;
    boost::beast::http::async_read(
        stream_, buffer_, *parser_,
        boost::beast::bind_front_handler(&HttpSession::on_read, this->shared_from_this()));
  }

  void on_read(boost::beast::error_code ec, std::size_t) {
    namespace http = boost::beast::http;
    reading_ = false;
    if (ec == http::error::end_of_stream) return do_shutdown();
    if (ec && is_http_error(ec) && ec != http::error::partial_message) return on_parse_error(ec);
    if (ec) return log_failure("http " + address_, "read", ec);

    Request& request = parser_->get();
    version_ = request.version();
    keep_alive_ = request.keep_alive();
    head_ = request.method() == http::verb::head;
    const std::string_view target = request.target();
    const std::string_view path = target.substr(0, target.find('?'));

    client_ = address_;
    secure_ = !kPlain<Stream>;
    if (state_->trusted_proxy(address_)) {
      // The balancer appends the address it got the request from: the last one is the only one it vouches
      // for.
      std::string_view forwarded = request["X-Forwarded-For"];
      if (auto comma = forwarded.rfind(','); comma != std::string_view::npos) forwarded.remove_prefix(comma + 1);
      while (!forwarded.empty() && forwarded.front() == ' ') forwarded.remove_prefix(1);
      while (!forwarded.empty() && forwarded.back() == ' ') forwarded.remove_suffix(1);
      if (!forwarded.empty() && forwarded.size() <= 64) client_ = std::string(forwarded);
      // And whether the client reached it over HTTPS (it terminates TLS).
      if (request["X-Forwarded-Proto"] == "https") secure_ = true;
    }
    state_->stats().http_requests_total.fetch_add(1);
    // A balancer's own requests (its health checks: no X-Forwarded-For) are not counted over the cluster:
    // every node's would add up past any rate.
    const bool balancer_itself = client_ == address_ && state_->trusted_proxy(address_);
    if (!state_->take_request(client_) || (!balancer_itself && !state_->handler().admit_request(client_))) {
      // Too many requests a second from this address (ServerConfig::http_rate): answered, not served.
      state_->stats().http_rate_limited_total.fetch_add(1);
      return respond(429, std::string(kTextPlain), "too many requests from this address: slow down\n",
                     {{"Retry-After", "1"}});
    }
    if (boost::beast::websocket::is_upgrade(request)) {
      if (path == "/ws") return upgrade();
      return respond(404, std::string(kTextPlain), "not found\n");
    }
    if (path.starts_with("/api/") || path == "/metrics") return dispatch_api(request);
    if (request.method() == http::verb::get || head_) return serve_static(request);
    respond(405, std::string(kTextPlain), "method not allowed\n", {{"Allow", "GET, HEAD"}});
  }

  void on_parse_error(boost::beast::error_code ec) {
    namespace http = boost::beast::http;
    // The stream is out of step with the request boundaries now: answer once and close.
    version_ = 11;
    keep_alive_ = false;
    head_ = false;
    state_->stats().http_requests_total.fetch_add(1);
    if (ec == http::error::body_limit) return respond(413, std::string(kTextPlain), "request body too large\n");
    if (ec == http::error::header_limit || ec == http::error::buffer_overflow) {
      return respond(431, std::string(kTextPlain), "request header too large\n");
    }
    respond(400, std::string(kTextPlain), "bad request\n");
  }

  void upgrade() {
    if (state_->stopping() || !state_->handler().accepting()) {
      keep_alive_ = false;
      return respond(503, std::string(kTextPlain), "server shutting down\n");
    }
    if (!state_->websocket_fits()) {
      // The descriptors left are kept for HTTP, health checks and the store (ServerConfig::fd_reserve).
      state_->stats().connections_shed_total.fetch_add(1);
      keep_alive_ = false;
      return respond(503, std::string(kTextPlain), "the server is full: try again later\n",
                     {{"Retry-After", "5"}});
    }
    if (!state_->try_reserve(client_)) {
      state_->stats().connections_refused.fetch_add(1);
      return respond(429, std::string(kTextPlain), "too many connections from this address\n");
    }
    AddressSlot slot(state_, client_);
    if (!state_->handler().admit_connection(client_)) {  // the address's connections on every node
      state_->stats().connections_refused.fetch_add(1);
      return respond(429, std::string(kTextPlain), "too many connections from this address\n");
    }
    slot_.release();  // a WebSocket now: counted as one (Stats::connections_open), no longer as HTTP
    // The stream keeps its strand (and its TLS session): the WebSocket session continues on the same one.
    boost::beast::get_lowest_layer(stream_).expires_never();
    auto request = parser_->release();
    // The browser's device id: its `cinq_device` cookie when it has a well-formed one, else a new one the
    // upgrade's answer sets.
    std::string device = device_cookie(request[boost::beast::http::field::cookie]);
    std::string set_cookie;
    if (device.empty()) {
      device = new_device_id();
      set_cookie = device_set_cookie(device, secure_);
    }
    auto session =
        std::make_shared<WsSession<Stream>>(std::move(stream_), std::move(keep_), state_, client_, std::move(slot));
    session->set_device(std::move(device), std::move(set_cookie));
    session->run(std::move(request));
  }

  void dispatch_api(Request& request) {
    HttpRequest api_request{std::string(request.method_string()), std::string(request.target()),
                            std::move(request.body()),
                            std::string(request[boost::beast::http::field::content_type]), client_,
                            std::string(request[boost::beast::http::field::authorization])};
    // `respond` may come from any thread, later; it hops back onto this session's strand. The flag makes a
    // second call harmless rather than a second response on the wire. The first call also hands this
    // session over to the posted answer, so that a copy of `respond` kept after it (a worker's closure, not
    // yet destroyed when the server stops) never holds the session: destroying a session closes its socket,
    // which needs the io_context to still be there.
    struct Pending {
      std::atomic<bool> answered{false};
      std::shared_ptr<HttpSession> session;
    };
    auto pending = std::make_shared<Pending>();
    pending->session = this->shared_from_this();
    auto respond_later = [pending](HttpResponse response) {
      if (pending->answered.exchange(true)) return;
      std::shared_ptr<HttpSession> self = std::move(pending->session);  // only the first caller gets here
      const auto executor = self->executor_;
      boost::asio::post(executor, [self = std::move(self), response = std::move(response)]() mutable {
        self->respond(response.status, std::move(response.content_type), std::move(response.body),
                      response.headers);
      });
    };
    try {
      state_->handler().on_http(std::move(api_request), respond_later);
    } catch (const std::exception& e) {
      log_failure("http " + address_, "on_http", e.what());
      respond_later(HttpResponse{500, std::string(kTextPlain), "internal error\n", {}});
    }
  }

  void serve_static(const Request& request) {
    StaticFile file = read_static_file(state_->config().web_dir, request.target());
    respond(file.status, std::move(file.content_type), std::move(file.body), {{"Cache-Control", "no-cache"}});
  }

  // Writes one response to the request being answered; closes afterwards unless it is kept alive.
  void respond(int status, std::string content_type, std::string body,
               const std::vector<std::pair<std::string, std::string>>& headers = {}) {
    namespace http = boost::beast::http;
    response_ = {};
    response_.version(version_);
    response_.result(static_cast<unsigned>(status));
    response_.set(http::field::server, "cinq");
    response_.set(http::field::content_type, content_type);
    for (const auto& [name, value] : security_headers()) response_.set(name, value);
    if (secure_) response_.set(http::field::strict_transport_security, kHsts);
    for (const auto& [name, value] : headers) response_.set(name, value);
    response_.keep_alive(keep_alive_ && !shutting_down_);
    response_.body() = std::move(body);
    response_.prepare_payload();
    // HEAD: the Content-Length of the GET response, and no body.
    if (head_) response_.body().clear();
    boost::beast::get_lowest_layer(stream_).expires_after(kTimeout);
    http::async_write(stream_, response_,
                      boost::beast::bind_front_handler(&HttpSession::on_write, this->shared_from_this(),
                                                       response_.keep_alive()));
  }

  void on_write(bool keep_alive, boost::beast::error_code ec, std::size_t) {
    if (ec) return log_failure("http " + address_, "write", ec);
    if (!keep_alive || shutting_down_) return do_shutdown();
    do_read();
  }

  void do_shutdown() {
    if constexpr (kPlain<Stream>) {
      // Half-close so the peer reads our last response to its end; the socket closes with this session.
      boost::beast::error_code ec;
      stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ec);
    } else {
      // TLS's close_notify, then the socket closes with this session (a peer that never answers it is cut
      // at the timeout).
      boost::beast::get_lowest_layer(stream_).expires_after(kTimeout);
      stream_.async_shutdown([self = this->shared_from_this()](boost::beast::error_code) {
        boost::beast::get_lowest_layer(self->stream_).close();
      });
    }
  }

  std::shared_ptr<void> keep_;  // before the stream: outlives it
  Stream stream_;               // moved into the WebSocket session at an upgrade
  // The connection's strand, kept apart from the stream: the server's stop may post here after an upgrade.
  typename Stream::executor_type executor_;
  boost::beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  std::string address_;  // the peer's (a balancer's, if trusted: ServerConfig::trusted_proxies)
  std::string client_;   // the request's client: the peer, or the last X-Forwarded-For of a trusted one
  AddressSlot slot_;
  const std::uint64_t id_;
  // A new parser per request: its body and header limits apply to each request on its own.
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  boost::beast::http::response<boost::beast::http::string_body> response_;
  // What respond() needs to know about the request it answers.
  unsigned version_ = 11;
  bool keep_alive_ = false;
  bool head_ = false;
  bool secure_ = false;         // it came over HTTPS (this stream's TLS, or a trusted balancer's)
  bool reading_ = false;        // waiting for a request: nothing would be lost by closing now
  bool shutting_down_ = false;  // the server is stopping: answer what is in progress, keep nothing alive
};

}  // namespace cinq::net
