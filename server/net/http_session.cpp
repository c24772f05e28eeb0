#include "server/net/http_session.h"

#include <sys/random.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <chrono>
#include <exception>
#include <memory>
#include <string_view>

#include "server/net/static_files.h"
#include "server/net/ws_session.h"

namespace cinq::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

namespace {
constexpr auto kTimeout = std::chrono::seconds(30);  // to send a request, or to take our response
constexpr std::uint32_t kMaxHeaderBytes = 8 * 1024;
constexpr std::string_view kTextPlain = "text/plain; charset=utf-8";

constexpr std::string_view kDeviceCookie = "cinq_device";
constexpr std::int64_t kDeviceCookieMaxAge = 400LL * 24 * 3600;  // 400 days: the longest browsers keep one

std::string lower_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The value of the `cinq_device` cookie in a Cookie header, if it is 1 to 64 characters of [A-Za-z0-9_-];
// "" otherwise (a malformed one is replaced, never trusted).
std::string device_cookie(std::string_view header) {
  while (!header.empty()) {
    std::string_view pair = header.substr(0, header.find(';'));
    header.remove_prefix(std::min(header.size(), pair.size() + 1));
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    while (!pair.empty() && pair.back() == ' ') pair.remove_suffix(1);
    if (!pair.starts_with(kDeviceCookie) || pair.size() <= kDeviceCookie.size() || pair[kDeviceCookie.size()] != '=')
      continue;
    std::string_view value = pair.substr(kDeviceCookie.size() + 1);
    if (value.empty() || value.size() > 64) return {};
    for (char c : value)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return {};
    return std::string(value);
  }
  return {};
}

// 32 characters of [A-Za-z0-9] from the system's random source (190 bits).
std::string new_device_id() {
  static constexpr char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::string out;
  while (out.size() < 32) {
    unsigned char buf[64];
    const ssize_t got = getrandom(buf, sizeof buf, 0);
    for (ssize_t i = 0; i < got && out.size() < 32; ++i)
      if (buf[i] < 248) out += kAlphabet[buf[i] % 62];
  }
  return out;
}

bool is_http_error(const beast::error_code& ec) {
  return ec.category() == make_error_code(http::error::bad_method).category();
}
}  // namespace

HttpSession::HttpSession(asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state, std::string address,
                         AddressSlot slot)
    : stream_(std::move(socket)),
      state_(std::move(state)),
      address_(std::move(address)),
      slot_(std::move(slot)),
      id_(state_->next_id()) {}

HttpSession::~HttpSession() { state_->leave(id_); }

void HttpSession::run() {
  // Onto the strand first: shut_down() may already be posting there from another thread.
  asio::dispatch(stream_.get_executor(), [self = shared_from_this()] {
    if (self->state_->join(self->id_, self->weak_from_this())) self->do_read();
  });
}

void HttpSession::shut_down() {
  asio::post(stream_.get_executor(), [self = shared_from_this()] {
    self->shutting_down_ = true;
    // An idle keep-alive connection loses nothing; one mid-request finishes its answer, then closes.
    if (self->reading_) self->stream_.close();
  });
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->body_limit(state_->config().max_http_body);
  parser_->header_limit(kMaxHeaderBytes);
  stream_.expires_after(kTimeout);
  reading_ = true;
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
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
  if (state_->trusted_proxy(address_)) {
    // The balancer appends the address it got the request from: the last one is the only one it vouches for.
    std::string_view forwarded = request["X-Forwarded-For"];
    if (auto comma = forwarded.rfind(','); comma != std::string_view::npos) forwarded.remove_prefix(comma + 1);
    while (!forwarded.empty() && forwarded.front() == ' ') forwarded.remove_prefix(1);
    while (!forwarded.empty() && forwarded.back() == ' ') forwarded.remove_suffix(1);
    if (!forwarded.empty() && forwarded.size() <= 64) client_ = std::string(forwarded);
  }
  state_->stats().http_requests_total.fetch_add(1);
  if (!state_->take_request(client_)) {
    // Too many requests a second from this address (ServerConfig::http_rate): answered, not served.
    state_->stats().http_rate_limited_total.fetch_add(1);
    return respond(429, std::string(kTextPlain), "too many requests from this address: slow down\n",
                   {{"Retry-After", "1"}});
  }
  if (websocket::is_upgrade(request)) {
    if (path == "/ws") return upgrade();
    return respond(404, std::string(kTextPlain), "not found\n");
  }
  if (path.starts_with("/api/") || path == "/metrics") return dispatch_api(request);
  if (request.method() == http::verb::get || head_) return serve_static(request);
  respond(405, std::string(kTextPlain), "method not allowed\n", {{"Allow", "GET, HEAD"}});
}

void HttpSession::on_parse_error(beast::error_code ec) {
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

void HttpSession::upgrade() {
  if (state_->stopping() || !state_->handler().accepting()) {
    keep_alive_ = false;
    return respond(503, std::string(kTextPlain), "server shutting down\n");
  }
  if (!state_->websocket_fits()) {
    // The descriptors left are kept for HTTP, health checks and the store (ServerConfig::fd_reserve).
    state_->stats().connections_shed_total.fetch_add(1);
    keep_alive_ = false;
    return respond(503, std::string(kTextPlain), "the server is full: try again later\n", {{"Retry-After", "5"}});
  }
  if (!state_->try_reserve(client_)) {
    state_->stats().connections_refused.fetch_add(1);
    return respond(429, std::string(kTextPlain), "too many connections from this address\n");
  }
  AddressSlot slot(state_, client_);
  slot_.release();  // a WebSocket now: counted as one (Stats::connections_open), no longer as HTTP
  // The socket keeps its strand: the WebSocket session continues on the same one.
  stream_.expires_never();
  auto request = parser_->release();
  // The browser's device id: its `cinq_device` cookie when it has a well-formed one, else a new one the
  // upgrade's answer sets (HttpOnly; Secure behind TLS, as a balancer that ends it says).
  std::string device = device_cookie(request[http::field::cookie]);
  std::string set_cookie;
  if (device.empty()) {
    device = new_device_id();
    const bool secure = lower_ascii(request["X-Forwarded-Proto"]) == "https";
    set_cookie = std::string(kDeviceCookie) + "=" + device + "; Path=/; Max-Age=" + std::to_string(kDeviceCookieMaxAge) +
                 "; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
  }
  auto session = std::make_shared<WsSession>(stream_.release_socket(), state_, client_, std::move(slot));
  session->set_device(std::move(device), std::move(set_cookie));
  session->run(std::move(request));
}

void HttpSession::dispatch_api(Request& request) {
  HttpRequest api_request{std::string(request.method_string()), std::string(request.target()),
                          std::move(request.body()), std::string(request[http::field::content_type]),
                          client_};
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
  pending->session = shared_from_this();
  auto respond_later = [pending](HttpResponse response) {
    if (pending->answered.exchange(true)) return;
    std::shared_ptr<HttpSession> self = std::move(pending->session);  // only the first caller gets here
    const auto executor = self->stream_.get_executor();
    asio::post(executor, [self = std::move(self), response = std::move(response)]() mutable {
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

void HttpSession::serve_static(const Request& request) {
  StaticFile file = read_static_file(state_->config().web_dir, request.target());
  respond(file.status, std::move(file.content_type), std::move(file.body),
          {{"Cache-Control", "no-cache"}, {"X-Content-Type-Options", "nosniff"}});
}

void HttpSession::respond(int status, std::string content_type, std::string body,
                          const std::vector<std::pair<std::string, std::string>>& headers) {
  response_ = {};
  response_.version(version_);
  response_.result(static_cast<unsigned>(status));
  response_.set(http::field::server, "cinq");
  response_.set(http::field::content_type, content_type);
  for (const auto& [name, value] : headers) response_.set(name, value);
  response_.keep_alive(keep_alive_ && !shutting_down_);
  response_.body() = std::move(body);
  response_.prepare_payload();
  // HEAD: the Content-Length of the GET response, and no body.
  if (head_) response_.body().clear();
  stream_.expires_after(kTimeout);
  http::async_write(
      stream_, response_,
      beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), response_.keep_alive()));
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) return log_failure("http " + address_, "write", ec);
  if (!keep_alive || shutting_down_) return do_shutdown();
  do_read();
}

void HttpSession::do_shutdown() {
  // Half-close so the peer reads our last response to its end; the socket closes with this session.
  beast::error_code ec;
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ec);
}

}  // namespace cinq::net
