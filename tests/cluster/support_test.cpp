// The cluster tests' helpers: a throwaway Redis, and HAProxy with the configuration that ships
// (docker/haproxy.cfg) in front of real `cinq serve` processes and of a fake backend whose health the test
// sets.
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <csignal>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/haproxy.h"
#include "tests/support/process.h"
#include "tests/support/redis.h"
#include "tests/support/ws_client.h"

namespace cinq::test {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

std::string header(const HttpReply& reply, const std::string& name) {
  for (const auto& [key, value] : reply.headers) {
    if (key.size() != name.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < key.size(); ++i)
      same = same && std::tolower(static_cast<unsigned char>(key[i])) ==
                         std::tolower(static_cast<unsigned char>(name[i]));
    if (same) return value;
  }
  return "";
}

// The backend that answered a GET of `target` through HAProxy ("" if the request failed or was not 200).
std::string answered_by(int port, const std::string& target = "/api/health") {
  try {
    const HttpReply reply = http_request(static_cast<std::uint16_t>(port), "GET", target);
    return reply.status == 200 ? header(reply, "X-Cinq-Node") : "";
  } catch (const std::runtime_error&) {
    return "";
  }
}

// Waits up to `limit` until `n` requests in a row are answered by `node`; how long it took, or nullopt.
std::optional<Clock::duration> until_only(int port, const std::string& node, int n, Clock::duration limit) {
  const auto start = Clock::now();
  int in_a_row = 0;
  while (Clock::now() - start < limit) {
    in_a_row = answered_by(port) == node ? in_a_row + 1 : 0;
    if (in_a_row == n) return Clock::now() - start;
    std::this_thread::sleep_for(20ms);
  }
  return std::nullopt;
}

// An HTTP backend on a thread: GET /api/health answers 200 or, once draining, 503; anything else 200 with
// the body `name`. One request per connection.
class FakeNode {
 public:
  explicit FakeNode(std::string name) : name_(std::move(name)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd_, 64) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      throw std::runtime_error("fake node: cannot listen");
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~FakeNode() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  void drain(bool draining) { draining_ = draining; }

 private:
  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) continue;
      std::string request;
      char chunk[2048];
      while (request.find("\r\n\r\n") == std::string::npos) {
        pollfd q{c, POLLIN, 0};
        if (::poll(&q, 1, 1000) <= 0) break;
        const ssize_t n = ::recv(c, chunk, sizeof chunk, 0);
        if (n <= 0) break;
        request.append(chunk, static_cast<std::size_t>(n));
      }
      const bool health = request.rfind("GET /api/health ", 0) == 0;
      const bool down = health && draining_;
      const std::string body = health ? (down ? R"({"status":"draining"})" : R"({"status":"ok"})") : name_;
      const std::string answer =
          std::string("HTTP/1.1 ") + (down ? "503 Service Unavailable" : "200 OK") +
          "\r\nContent-Type: text/plain\r\nContent-Length: " + std::to_string(body.size()) +
          "\r\nConnection: close\r\n\r\n" + body;
      const ssize_t sent = ::send(c, answer.data(), answer.size(), MSG_NOSIGNAL);
      (void)sent;
      ::close(c);
    }
  }

  std::string name_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> draining_{false};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

TEST_CASE("cluster support: a throwaway Redis answers, forgets everything, and restarts on its port") {
  RedisServer redis;
  const int port = redis.port();
  CHECK(redis.uri() == "redis://127.0.0.1:" + std::to_string(port));
  CHECK(redis.command("PING") == "PONG");
  CHECK(redis.command("SET", "room:1", "a value\r\nwith a line break") == "OK");
  CHECK(redis.command("GET", "room:1") == "a value\r\nwith a line break");
  CHECK(redis.command("GET", "room:2") == "(nil)");
  CHECK(redis.command("PUBLISH", "node:n1", "{}") == "0");  // nobody subscribed
  CHECK(redis.command("RPUSH", "list", "a", "b") == "2");
  CHECK(redis.command("LRANGE", "list", "0", "-1") == "a\nb\n");
  CHECK(redis.command("NO-SUCH-COMMAND").rfind("error: ERR unknown command", 0) == 0);
  CHECK(redis.command("CONFIG", "GET", "appendonly") == "appendonly\nno\n");
  CHECK(redis.command("CONFIG", "GET", "save") == "save\n\n");

  redis.stop();
  CHECK_FALSE(redis.running());
  CHECK_FALSE(accepts_connections(port));
  CHECK_THROWS_AS(redis.command("PING"), std::runtime_error);

  redis.start();
  CHECK(redis.port() == port);
  CHECK(redis.command("PING") == "PONG");
  CHECK(redis.command("GET", "room:1") == "(nil)");  // no persistence

  // A crash too.
  redis.stop(SIGKILL);
  CHECK_FALSE(accepts_connections(port));
  redis.start();
  CHECK(redis.command("PING") == "PONG");
  CHECK(redis.log().find("Ready to accept connections") != std::string::npos);
}

TEST_CASE("cluster support: HAProxy passes HTTP and a WebSocket through to a cinq node") {
  TempDir data;
  ServerProcess node(data.path(), CINQ_WEB_DIR);
  Haproxy proxy({"127.0.0.1:" + std::to_string(node.port())});
  INFO(proxy.config());

  const HttpReply health = http_request(static_cast<std::uint16_t>(proxy.port()), "GET", "/api/health");
  CHECK(health.status == 200);
  CHECK(health.body.find(R"("status":"ok")") != std::string::npos);
  CHECK(header(health, "X-Cinq-Node") == "n1");
  CHECK(http_request(static_cast<std::uint16_t>(proxy.port()), "GET", "/").status == 200);  // static files

  WsClient client(static_cast<std::uint16_t>(proxy.port()));
  client.send(R"({"type":"hello","name":"through haproxy"})");
  const auto welcome = client.receive();
  REQUIRE(welcome.has_value());
  CHECK(welcome->find(R"("type":"welcome")") != std::string::npos);
  client.send(R"({"type":"hello","name":"again"})");  // the tunnel stays open both ways
  const auto second = client.receive();
  REQUIRE(second.has_value());
  client.close();

  // Its access log is in the file; a tunnel's line is written once it has closed.
  const auto deadline = Clock::now() + 3s;
  while (proxy.log().find("GET /ws") == std::string::npos && Clock::now() < deadline)
    std::this_thread::sleep_for(20ms);
  CHECK(proxy.log().find("GET /api/health") != std::string::npos);
  CHECK(proxy.log().find("GET /ws") != std::string::npos);
}

TEST_CASE("cluster support: HAProxy stops sending requests to a cinq node that died, and takes it back") {
  TempDir data1, data2;
  ServerProcess n1(data1.path(), CINQ_WEB_DIR);
  auto n2 = std::make_unique<ServerProcess>(data2.path(), CINQ_WEB_DIR);
  const std::string n2_port = std::to_string(n2->port());
  Haproxy proxy({"127.0.0.1:" + std::to_string(n1.port()), "127.0.0.1:" + n2_port});
  INFO(proxy.log());

  // Both answer.
  bool seen1 = false, seen2 = false;
  for (int i = 0; i < 20 && !(seen1 && seen2); ++i) {
    const std::string node = answered_by(proxy.port());
    seen1 = seen1 || node == "n1";
    seen2 = seen2 || node == "n2";
  }
  CHECK(seen1);
  CHECK(seen2);

  n2->kill(SIGKILL);
  const auto killed = Clock::now();
  n2.reset();
  // Every request is answered from the start (a refused connection is tried again on n1), and the health
  // checks take n2 out within about a second.
  int failed = 0;
  while (proxy.log().find("nodes/n2 is DOWN") == std::string::npos && Clock::now() - killed < 3s) {
    if (answered_by(proxy.port()) != "n1") ++failed;
    std::this_thread::sleep_for(20ms);
  }
  const auto down_after = Clock::now() - killed;
  CHECK(failed == 0);
  CHECK(down_after < 2s);
  for (int i = 0; i < 10; ++i) CHECK(answered_by(proxy.port()) == "n1");

  // Restarted on its port, it is back after two good checks.
  n2 = std::make_unique<ServerProcess>(data2.path(), CINQ_WEB_DIR,
                                       std::vector<std::string>{"--port", n2_port});
  CHECK(n2->port() == std::stoi(n2_port));
  CHECK(proxy.wait_for_log("nodes/n2 is UP", 3s));
  CHECK(until_only(proxy.port(), "n2", 1, 2s).has_value());
}

TEST_CASE("cluster support: HAProxy takes a node whose health answers 503 out of rotation, and back") {
  FakeNode one("one"), two("two");
  Haproxy proxy({one.address(), two.address()});
  INFO(proxy.log());
  CHECK(until_only(proxy.port(), "n1", 1, 5s).has_value());
  CHECK(until_only(proxy.port(), "n2", 1, 5s).has_value());

  one.drain(true);  // as a node does on SIGTERM
  const auto out = until_only(proxy.port(), "n2", 10, 5s);
  REQUIRE(out);
  CHECK(*out < 2s);
  CHECK(http_request(static_cast<std::uint16_t>(proxy.port()), "GET", "/anything").body == "two");

  one.drain(false);  // two good checks bring it back
  CHECK(until_only(proxy.port(), "n1", 1, 3s).has_value());
}

}  // namespace cinq::test
