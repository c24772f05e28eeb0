// The Beast transport (server/net) in-process on real sockets: WebSocket sessions, HTTP dispatch, static
// files, limits, shutdown, strands and timers. The clients are our own (tests/support/ws_client.h) plus a
// raw TCP socket for what well-behaved clients cannot send.
#include "server/net/transport.h"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "server/net/static_files.h"
#include "tests/support/ws_client.h"

namespace cinq::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr std::size_t kFloodBytes = 256 * 1024;
constexpr int kFloodCount = 200;

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return text;
}

// Polls `condition` until it holds or `timeout` passes.
bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout = 5s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

// Echoes each message uppercased; "flood" answers with kFloodCount big messages, "burst N" with N small
// ones. /api/echo answers with the request's method, body and content type; /api/slow answers after
// 200 ms from another thread; /api/keep answers at once and keeps its `respond`.
class EchoHandler : public net::Handler {
 public:
  ~EchoHandler() override { join_slow(); }

  // A slow answer's thread still holds its copy of `respond` for a moment after calling it; the server's
  // I/O context must outlive that copy (Handler::on_http), so TestServer joins these before the server goes.
  void join_slow() {
    std::lock_guard lock(mutex_);
    for (auto& thread : slow_) thread.join();
    slow_.clear();
  }

  void on_open(const std::shared_ptr<net::Connection>&) override { opens.fetch_add(1); }
  void on_close(const std::shared_ptr<net::Connection>&) override { closes.fetch_add(1); }

  void on_message(const std::shared_ptr<net::Connection>& c, std::string text) override {
    if (text == "flood") {
      auto big = std::make_shared<const std::string>(kFloodBytes, 'x');  // one buffer, shared by every send
      for (int i = 0; i < kFloodCount; ++i) c->send(big);
    } else if (text.starts_with("burst ")) {
      const int count = std::stoi(text.substr(6));
      for (int i = 0; i < count; ++i) c->send("burst message " + std::to_string(i));
    } else {
      c->send(upper(std::move(text)));
    }
  }

  void on_http(net::HttpRequest request, std::function<void(net::HttpResponse)> respond) override {
    if (request.target.starts_with("/api/echo")) {
      respond(
          {200, "text/plain", request.method + " " + request.body + " (" + request.content_type + ")", {}});
    } else if (request.target == "/api/slow") {
      std::lock_guard lock(mutex_);
      slow_.emplace_back([respond = std::move(respond)] {
        std::this_thread::sleep_for(200ms);
        respond({200, "text/plain", "slow but sure", {{"X-Slow", "yes"}}});
      });
    } else if (request.target == "/api/keep") {
      respond({200, "text/plain", "answered, and kept", {}});
      std::lock_guard lock(mutex_);
      kept_.push_back(std::move(respond));  // a handler may keep its callback after answering
    } else if (request.target == "/metrics") {
      respond({200, "text/plain", "metrics from " + request.address, {}});
    } else {
      respond({404, "application/json", R"({"error":"no such endpoint"})", {}});
    }
  }

  std::atomic<int> opens{0};
  std::atomic<int> closes{0};

 private:
  std::mutex mutex_;
  std::vector<std::thread> slow_;
  std::vector<std::function<void(net::HttpResponse)>> kept_;
};

// A web directory with index.html, app.js and sub/page.html, beside a secret.txt that must stay unreachable.
class WebDir {
 public:
  WebDir() {
    static std::atomic<int> counter{0};
    root_ = fs::temp_directory_path() /
            ("cinq-transport-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1)));
    fs::create_directories(root_ / "web" / "sub");
    write("web/index.html", kIndex);
    write("web/app.js", "export const answer = 42;\n");
    write("web/sub/page.html", "<p>sub page</p>\n");
    write("secret.txt", "the secret\n");
  }
  ~WebDir() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }
  std::string web() const { return (root_ / "web").string(); }

  static constexpr const char* kIndex = "<!doctype html><title>Cinq</title>\n";

 private:
  void write(const std::string& relative, const std::string& text) {
    std::ofstream(root_ / relative) << text;
  }
  fs::path root_;
};

// A server on a free port, running on its own thread; always stopped and joined.
class TestServer {
 public:
  explicit TestServer(const std::function<void(net::ServerConfig&)>& adjust = {})
      : server_(make_config(web_.web(), adjust), handler_), thread_([this] {
          server_.run([this] {
            signals_.fetch_add(1);
            server_.stop();
          });
          returned_ = true;
        }) {}
  ~TestServer() {
    server_.stop();
    thread_.join();
    handler_.join_slow();
  }

  std::uint16_t port() const { return server_.port(); }
  net::Server& server() { return server_; }
  net::Stats& stats() { return server_.stats(); }
  EchoHandler& handler() { return handler_; }
  bool returned() const { return returned_; }
  int signals() const { return signals_; }

 private:
  static net::ServerConfig make_config(const std::string& web,
                                       const std::function<void(net::ServerConfig&)>& adjust) {
    net::ServerConfig config;
    config.address = "127.0.0.1";
    config.port = 0;
    config.web_dir = web;
    config.threads = 2;
    if (adjust) adjust(config);
    return config;
  }

  EchoHandler handler_;
  WebDir web_;
  net::Server server_;
  std::atomic<bool> returned_{false};
  std::atomic<int> signals_{0};
  std::thread thread_;
};

// A plain TCP connection, for malformed and keep-alive requests. Reads time out after 5 s.
class RawSocket {
 public:
  explicit RawSocket(std::uint16_t port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    REQUIRE(fd_ >= 0);
    timeval timeout{5, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  }
  ~RawSocket() { ::close(fd_); }

  void write(const std::string& text) {
    REQUIRE(::send(fd_, text.data(), text.size(), MSG_NOSIGNAL) == ssize_t(text.size()));
  }

  // One response: its head and as many body bytes as its Content-Length says. Empty at end of stream.
  std::string read_response() {
    std::size_t head_end;
    while ((head_end = pending_.find("\r\n\r\n")) == std::string::npos) {
      if (!fill()) return std::exchange(pending_, {});
    }
    std::size_t length = 0;
    const auto at = pending_.find("Content-Length: ");
    if (at != std::string::npos && at < head_end) length = std::stoul(pending_.substr(at + 16));
    while (pending_.size() < head_end + 4 + length) {
      if (!fill()) break;
    }
    std::string response = pending_.substr(0, head_end + 4 + length);
    pending_.erase(0, response.size());
    return response;
  }

  // True when the server closed the connection (rather than the read timing out).
  bool closed_by_peer() {
    char byte;
    return ::recv(fd_, &byte, 1, 0) == 0;
  }

 private:
  bool fill() {
    char buffer[4096];
    const auto n = ::recv(fd_, buffer, sizeof buffer, 0);
    if (n <= 0) return false;
    pending_.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  int fd_;
  std::string pending_;
};

std::string header(const HttpReply& reply, const std::string& name) {
  for (const auto& [key, value] : reply.headers) {
    if (std::equal(key.begin(), key.end(), name.begin(), name.end(),
                   [](char a, char b) { return std::tolower(a) == std::tolower(b); })) {
      return value;
    }
  }
  return "";
}

}  // namespace

TEST_CASE("transport: a WebSocket client gets its 100 messages echoed back in order") {
  TestServer server;
  WsClient client(server.port());
  for (int i = 0; i < 100; ++i) client.send("message " + std::to_string(i));
  for (int i = 0; i < 100; ++i) {
    auto reply = client.receive();
    REQUIRE_MESSAGE(reply, "no reply to message " << i);
    CHECK(*reply == "MESSAGE " + std::to_string(i));
  }
  CHECK(server.stats().messages_in_total == 100);
  CHECK(eventually([&] { return server.stats().messages_out_total == 100; }));
}

TEST_CASE("transport: every on_open is matched by one on_close, and connections_open follows") {
  TestServer server;
  {
    WsClient a(server.port()), b(server.port()), c(server.port());
    for (WsClient* client : {&a, &b, &c}) {
      client->send("ping");
      CHECK(client->receive() == "PING");
    }
    CHECK(server.handler().opens == 3);
    CHECK(server.stats().connections_open == 3);
    CHECK(server.stats().connections_total == 3);

    a.close();
    CHECK(eventually([&] { return server.handler().closes == 1 && server.stats().connections_open == 2; }));
  }
  CHECK(eventually([&] { return server.handler().closes == 3 && server.stats().connections_open == 0; }));
  CHECK(server.handler().opens == 3);
}

TEST_CASE("transport: a burst of send_queue_max messages reaches a reading client") {
  TestServer server([](net::ServerConfig& config) { config.send_queue_max = 8; });
  WsClient client(server.port());
  client.send("burst 8");
  for (int i = 0; i < 8; ++i) CHECK(client.receive() == "burst message " + std::to_string(i));
  CHECK(server.stats().send_queue_drops_total == 0);
  CHECK_FALSE(client.closed());
}

TEST_CASE("transport: static files are served from the web directory") {
  TestServer server;
  const HttpReply index = http_request(server.port(), "GET", "/");
  CHECK(index.status == 200);
  CHECK(index.body == WebDir::kIndex);
  CHECK(index.content_type.starts_with("text/html"));
  CHECK(header(index, "Server") == "cinq");
  CHECK(header(index, "Cache-Control") == "no-cache");
  CHECK(header(index, "X-Content-Type-Options") == "nosniff");
  CHECK(header(index, "Content-Length") == std::to_string(index.body.size()));
  // The security headers (docs/security.md): scripts from the site's files only, no Referer, no framing; no
  // HSTS over plain HTTP.
  CHECK(header(index, "Content-Security-Policy").find("script-src 'self';") != std::string::npos);
  CHECK(header(index, "Referrer-Policy") == "no-referrer");
  CHECK(header(index, "X-Frame-Options") == "DENY");
  CHECK(header(index, "Strict-Transport-Security").empty());

  const HttpReply script = http_request(server.port(), "GET", "/app.js?v=3");
  CHECK(script.status == 200);
  CHECK(script.content_type.starts_with("text/javascript"));
  CHECK(script.body == "export const answer = 42;\n");

  CHECK(http_request(server.port(), "GET", "/sub/page.html").body == "<p>sub page</p>\n");
  CHECK(server.stats().http_requests_total == 3);
}

TEST_CASE("transport: missing files and paths leading out of the web directory are 404") {
  TestServer server;
  for (const char* target :
       {"/missing.html", "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/etc/passwd",
        "/sub/..%2f..%2fsecret.txt", "/sub/%2e%2e/%2e%2e/secret.txt", "/..%5csecret.txt", "/app.js%00.html",
        "/sub/../../secret.txt", "/%zz", "/../../../../../../etc/passwd"}) {
    CAPTURE(target);
    const HttpReply reply = http_request(server.port(), "GET", target);
    CHECK(reply.status == 404);
    CHECK(reply.content_type.starts_with("text/plain"));
    CHECK(reply.body.find("secret") == std::string::npos);
  }
}

TEST_CASE("transport: without a web directory every static path is 404") {
  TestServer server([](net::ServerConfig& config) { config.web_dir = ""; });
  CHECK(http_request(server.port(), "GET", "/").status == 404);
  CHECK(http_request(server.port(), "GET", "/api/echo").status == 200);  // the API still works
}

TEST_CASE("transport: HEAD answers with the headers of GET and no body") {
  TestServer server;
  const HttpReply reply = http_request(server.port(), "HEAD", "/");
  CHECK(reply.status == 200);
  CHECK(reply.body.empty());
  CHECK(header(reply, "Content-Length") == std::to_string(std::string(WebDir::kIndex).size()));
  CHECK(reply.content_type.starts_with("text/html"));
}

TEST_CASE("transport: other methods on static paths are 405") {
  TestServer server;
  const HttpReply reply = http_request(server.port(), "POST", "/index.html", "x=1", "text/plain");
  CHECK(reply.status == 405);
  CHECK(header(reply, "Allow") == "GET, HEAD");
  CHECK(http_request(server.port(), "DELETE", "/").status == 405);
}

TEST_CASE("transport: /api/ requests and /metrics reach the handler") {
  TestServer server;
  const HttpReply echo = http_request(server.port(), "POST", "/api/echo", "hello body", "text/x-record");
  CHECK(echo.status == 200);
  CHECK(echo.body == "POST hello body (text/x-record)");
  CHECK(header(echo, "Server") == "cinq");

  SUBCASE("an answer may come later, from another thread") {
    const auto start = std::chrono::steady_clock::now();
    const HttpReply slow = http_request(server.port(), "GET", "/api/slow");
    CHECK(slow.body == "slow but sure");
    CHECK(header(slow, "X-Slow") == "yes");
    CHECK(std::chrono::steady_clock::now() - start >= 200ms);
  }
  SUBCASE("/metrics, with the peer's address") {
    CHECK(http_request(server.port(), "GET", "/metrics").body == "metrics from 127.0.0.1");
  }
  SUBCASE("the handler's own status") {
    CHECK(http_request(server.port(), "GET", "/api/nothing").status == 404);
  }
  SUBCASE("a respond kept after answering holds nothing of the connection: it closes and is counted out") {
    CHECK(http_request(server.port(), "GET", "/api/keep").body == "answered, and kept");
    CHECK(eventually([&] { return server.stats().http_open == 0; }));
  }
}

TEST_CASE("transport: a keep-alive connection serves several requests") {
  TestServer server;
  RawSocket socket(server.port());
  socket.write("GET /app.js HTTP/1.1\r\nHost: x\r\n\r\n");
  const std::string first = socket.read_response();
  CHECK(first.starts_with("HTTP/1.1 200"));
  CHECK(first.ends_with("export const answer = 42;\n"));
  socket.write("POST /api/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi");
  CHECK(socket.read_response().ends_with("POST hi ()"));
}

TEST_CASE("transport: a malformed request is answered 400 and the connection closed") {
  TestServer server;
  RawSocket socket(server.port());
  socket.write("THIS IS NOT HTTP\r\n\r\n");
  CHECK(socket.read_response().starts_with("HTTP/1.1 400"));
  CHECK(socket.closed_by_peer());
}

TEST_CASE("transport: a body above max_http_body is refused with 413") {
  TestServer server([](net::ServerConfig& config) { config.max_http_body = 100; });
  CHECK(http_request(server.port(), "POST", "/api/echo", std::string(99, 'a')).status == 200);
  CHECK(http_request(server.port(), "POST", "/api/echo", std::string(101, 'a')).status == 413);
}

TEST_CASE("transport: a frame above hard_max_message closes the connection with 1009") {
  TestServer server([](net::ServerConfig& config) { config.hard_max_message = 1024; });
  WsClient client(server.port());
  client.send(std::string(1024, 'a'));  // exactly at the cap: fine
  CHECK(client.receive() == std::string(1024, 'A'));

  client.send(std::string(1025, 'b'));
  CHECK_FALSE(client.receive());
  CHECK(client.closed());
  CHECK(client.close_code() == 1009);
  CHECK(eventually([&] { return server.stats().oversize_closes_total == 1; }));
  CHECK(eventually([&] { return server.handler().closes == 1; }));
}

TEST_CASE("transport: a client that stops reading is dropped when its send queue fills") {
  TestServer server([](net::ServerConfig& config) { config.send_queue_max = 8; });
  WsClient client(server.port());
  client.send("flood");  // and never read: the socket buffers fill, then the queue
  CHECK(eventually([&] { return server.stats().send_queue_drops_total > 0; }));
  CHECK(eventually([&] { return server.handler().closes == 1 && server.stats().connections_open == 0; }));
  // What was on the wire is still readable, then the connection is gone.
  while (client.receive(2s)) {
  }
  CHECK(client.closed());
}

TEST_CASE("transport: connections beyond max_connections_per_address are refused with 429") {
  TestServer server([](net::ServerConfig& config) { config.max_connections_per_address = 2; });
  auto a = std::make_unique<WsClient>(server.port());
  WsClient b(server.port());
  std::string refusal;
  try {
    WsClient c(server.port());
  } catch (const std::runtime_error& e) {
    refusal = e.what();
  }
  CHECK(refusal.find("HTTP 429") != std::string::npos);
  CHECK(server.stats().connections_refused == 1);

  a.reset();  // a slot comes free once the connection is gone
  CHECK(eventually([&] { return server.stats().connections_open == 1; }));
  WsClient d(server.port());
  d.send("again");
  CHECK(d.receive() == "AGAIN");
}

TEST_CASE("transport: stop() closes connected clients with 1001 and run() returns") {
  TestServer server;
  WsClient a(server.port()), b(server.port());
  a.send("hi");
  b.send("hi");
  REQUIRE(a.receive() == "HI");
  REQUIRE(b.receive() == "HI");

  server.server().stop();
  for (WsClient* client : {&a, &b}) {
    CHECK_FALSE(client->receive());
    CHECK(client->close_code() == 1001);
  }
  // Well before the 3 s deadline: the sessions ended, so the io_context ran out of work.
  CHECK(eventually([&] { return server.returned(); }, 2500ms));
  CHECK(server.handler().closes == 2);
  CHECK_THROWS_AS(WsClient(server.port()), std::runtime_error);
}

TEST_CASE("transport: SIGTERM calls on_signal, which stops the server") {
  // Ignored until the server's signal set takes SIGTERM over, which shows in its disposition: only then is
  // the signal raised, once (Asio gives SIGTERM back to its default action when the server stops).
  std::signal(SIGTERM, SIG_IGN);
  TestServer server;
  WsClient client(server.port());
  REQUIRE(eventually([] {
    struct sigaction action {};
    ::sigaction(SIGTERM, nullptr, &action);
    return action.sa_handler != SIG_IGN;
  }));
  std::raise(SIGTERM);
  CHECK(eventually([&] { return server.signals() == 1; }));
  CHECK_FALSE(client.receive());
  CHECK(client.close_code() == 1001);
  CHECK(eventually([&] { return server.returned(); }, 2500ms));
  std::signal(SIGTERM, SIG_DFL);
}

TEST_CASE("transport: a port in use is a clear error") {
  TestServer first;
  EchoHandler handler;
  net::ServerConfig config;
  config.address = "127.0.0.1";
  config.port = first.port();
  const std::string expected =
      "cannot listen on 127.0.0.1:" + std::to_string(first.port()) + ": Address already in use";
  CHECK_THROWS_WITH_AS(net::Server(config, handler), expected.c_str(), std::runtime_error);
}

TEST_CASE("transport: a strand runs its functions in posting order, one at a time") {
  TestServer server;
  auto strand = server.server().make_strand();
  std::vector<int> order;  // no lock: the strand is the lock
  std::promise<void> done;
  for (int i = 0; i < 1000; ++i) strand->post([&order, i] { order.push_back(i); });
  strand->post([&done] { done.set_value(); });
  REQUIRE(done.get_future().wait_for(5s) == std::future_status::ready);
  std::vector<int> expected(1000);
  for (int i = 0; i < 1000; ++i) expected[static_cast<std::size_t>(i)] = i;
  CHECK(order == expected);
}

TEST_CASE("transport: a Timer fires on its strand") {
  TestServer server;
  auto strand = server.server().make_strand();
  auto timer = server.server().make_timer(strand);
  std::atomic<bool> strand_busy{false};
  std::atomic<bool> fired_while_busy{false};
  std::promise<void> fired;
  strand->post([&] {
    strand_busy = true;
    timer->arm(10ms, [&] {
      fired_while_busy = strand_busy.load();
      fired.set_value();
    });
    // The timer expires meanwhile, and another I/O thread is free; only the strand holds it back.
    std::this_thread::sleep_for(150ms);
    strand_busy = false;
  });
  REQUIRE(fired.get_future().wait_for(5s) == std::future_status::ready);
  CHECK_FALSE(fired_while_busy);
}

TEST_CASE("transport: re-arming a Timer cancels the first wait, and cancel() cancels") {
  TestServer server;
  auto timer = server.server().make_timer(server.server().make_strand());
  std::atomic<bool> first{false}, second{false};
  timer->arm(30ms, [&] { first = true; });
  timer->arm(60ms, [&] { second = true; });
  CHECK(eventually([&] { return second.load(); }));
  std::this_thread::sleep_for(100ms);
  CHECK_FALSE(first);

  std::atomic<bool> cancelled{false};
  timer->arm(30ms, [&] { cancelled = true; });
  timer->cancel();
  std::this_thread::sleep_for(150ms);
  CHECK_FALSE(cancelled);
}

TEST_CASE("transport: destroying a Timer with a pending wait is safe and runs nothing") {
  TestServer server;
  auto strand = server.server().make_strand();
  auto ran = std::make_shared<std::atomic<bool>>(false);
  auto timer = server.server().make_timer(strand);
  timer->arm(30ms, [ran] { *ran = true; });
  timer.reset();
  std::this_thread::sleep_for(150ms);
  CHECK_FALSE(*ran);

  // A timer re-armed from its own handler, like a game clock, keeps going until destroyed.
  auto ticks = std::make_shared<std::atomic<int>>(0);
  auto clock = server.server().make_timer(strand);
  std::function<void()> tick = [&] {
    if (ticks->fetch_add(1) + 1 < 3) clock->arm(5ms, tick);
  };
  clock->arm(5ms, tick);
  CHECK(eventually([&] { return *ticks == 3; }));
}

TEST_CASE("transport: static file helpers") {
  CHECK(net::percent_decode("/a%20b%2F%2e") == "/a b/.");
  CHECK_FALSE(net::percent_decode("/bad%2"));
  CHECK_FALSE(net::percent_decode("/bad%g0"));
  CHECK(net::mime_type("/x/app.mjs") == "text/javascript; charset=utf-8");
  CHECK(net::mime_type("style.CSS") == "text/css; charset=utf-8");
  CHECK(net::mime_type("board.svg") == "image/svg+xml");
  CHECK(net::mime_type("engine.wasm") == "application/wasm");
  CHECK(net::mime_type("data.bin") == "application/octet-stream");
  CHECK(net::mime_type("dir.v2/file") == "application/octet-stream");
}

}  // namespace cinq::test
