// The cluster's Redis client (server/net/redis.h) against a real redis-server (tests/support/redis.h): replies
// in the order of the commands, messages in the order they were published, a subscription confirmed before
// anything published after it, and both connections back by themselves after Redis restarts, with their
// subscriptions.
#include "server/net/redis.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <optional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/net/transport.h"
#include "tests/support/redis.h"

namespace cinq::net {
namespace {

class Idle : public Handler {
 public:
  void on_open(const std::shared_ptr<Connection>&) override {}
  void on_message(const std::shared_ptr<Connection>&, std::string) override {}
  void on_close(const std::shared_ptr<Connection>&) override {}
  void on_http(HttpRequest, std::function<void(HttpResponse)> respond) override { respond({}); }
};

// A transport with nothing but the client on its threads, and what the client delivered.
struct Bench {
  Idle idle;
  Server server{[] {
                  ServerConfig c;
                  c.address = "127.0.0.1";
                  c.port = 0;
                  return c;
                }(),
                idle};
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::pair<std::string, std::string>> messages;
  std::vector<bool> states;
  std::unique_ptr<Redis> redis;
  std::thread thread;

  explicit Bench(const std::string& uri) {
    std::string error;
    auto config = RedisConfig::parse(uri, error);
    REQUIRE_MESSAGE(config, error);
    redis = std::make_unique<Redis>(
        server, *config,
        [this](const std::string& channel, std::string payload) {
          std::lock_guard lock(mutex);
          messages.emplace_back(channel, std::move(payload));
          changed.notify_all();
        },
        [this](bool up) {
          std::lock_guard lock(mutex);
          states.push_back(up);
          changed.notify_all();
        });
    thread = std::thread([this] { server.run({}); });
    redis->start();
  }
  ~Bench() {
    redis->stop();
    server.stop();
    thread.join();
  }

  template <class Predicate>
  bool wait(Predicate p, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, timeout, p);
  }

  std::optional<RedisReply> ask(std::vector<std::string> args) {
    auto answer = std::make_shared<std::promise<std::optional<RedisReply>>>();
    auto future = answer->get_future();
    redis->command(std::move(args), [answer](std::optional<RedisReply> r) { answer->set_value(std::move(r)); });
    if (future.wait_for(std::chrono::seconds(5)) != std::future_status::ready) return std::nullopt;
    return future.get();
  }
};

}  // namespace

TEST_CASE("redis client: a command is written as a RESP array of bulk strings, any bytes in them") {
  CHECK(encode_command({"SET", "k", "a b\r\nc"}) == "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$6\r\na b\r\nc\r\n");
  CHECK(encode_command({}) == "*0\r\n");
}

TEST_CASE("redis client: --bus takes redis://HOST:PORT, the port 6379 by default, and refuses anything else") {
  std::string error;
  auto c = RedisConfig::parse("redis://10.0.0.7:7000", error);
  REQUIRE(c);
  CHECK(c->host == "10.0.0.7");
  CHECK(c->port == 7000);
  c = RedisConfig::parse("redis://cache", error);
  REQUIRE(c);
  CHECK(c->port == 6379);
  CHECK_FALSE(RedisConfig::parse("http://cache:6379", error));
  CHECK(error.find("redis://HOST:PORT") != std::string::npos);
  CHECK_FALSE(RedisConfig::parse("redis://cache:99999", error));
  CHECK_FALSE(RedisConfig::parse("redis://:6379", error));
}

TEST_CASE("redis client: replies come in the order of the commands, errors as errors") {
  test::RedisServer server;
  Bench bench(server.uri());
  REQUIRE(bench.wait([&] { return !bench.states.empty() && bench.states.back(); }));
  std::vector<long long> counts;
  std::mutex m;
  std::atomic<int> left{200};
  for (int i = 0; i < 200; ++i)
    bench.redis->command({"INCR", "n"}, [&](std::optional<RedisReply> r) {
      std::lock_guard lock(m);
      counts.push_back(r ? r->integer : -1);
      left--;
    });
  REQUIRE(bench.wait([&] { return left.load() == 0; }));
  for (std::size_t i = 0; i < counts.size(); ++i) CHECK(counts[i] == static_cast<long long>(i + 1));
  auto bad = bench.ask({"NOSUCHCOMMAND"});
  REQUIRE(bad);
  CHECK(bad->is_error());
  auto value = bench.ask({"GET", "n"});
  REQUIRE(value);
  CHECK(value->text == "200");
}

TEST_CASE("redis client: a confirmed subscription receives every message published after it, in order") {
  test::RedisServer server;
  Bench bench(server.uri());
  std::atomic<bool> ready{false};
  bench.redis->subscribe("room:1", [&] {
    ready = true;
    bench.changed.notify_all();
  });
  REQUIRE(bench.wait([&] { return ready.load() && bench.redis->up(); }));
  for (int i = 0; i < 1000; ++i) bench.redis->publish("room:1", "event " + std::to_string(i));
  REQUIRE(bench.wait([&] { return bench.messages.size() == 1000; }));
  for (int i = 0; i < 1000; ++i) {
    CHECK(bench.messages[i].first == "room:1");
    CHECK(bench.messages[i].second == "event " + std::to_string(i));
  }
  // A channel given up receives nothing more.
  // The UNSUBSCRIBE goes out on the subscriber's own connection, which nothing here orders against the
  // commands connection: Redis counts no subscriber for the channel once it has read it.
  bench.redis->unsubscribe("room:1");
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (server.command("PUBLISH", "room:1", "late") != "0" && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(server.command("PUBLISH", "room:1", "late") == "0");
}

TEST_CASE("redis client: Redis restarted, both connections come back by themselves with their subscriptions") {
  test::RedisServer server;
  Bench bench(server.uri());
  std::atomic<bool> ready{false};
  bench.redis->subscribe("inbox", [&] { ready = true; });
  REQUIRE(bench.wait([&] { return ready.load() && !bench.states.empty() && bench.states.back(); }));
  server.stop(SIGKILL);
  REQUIRE(bench.wait([&] { return !bench.states.back(); }));
  CHECK_FALSE(bench.redis->up());
  // While it is down a command is answered at once with nothing.
  auto none = bench.ask({"PING"});
  CHECK_FALSE(none);
  server.start();
  REQUIRE(bench.wait([&] { return bench.states.back(); }));
  CHECK(bench.redis->up());
  CHECK(server.command("PUBLISH", "inbox", "after the restart") == "1");
  REQUIRE(bench.wait([&] { return !bench.messages.empty(); }));
  CHECK(bench.messages.back().second == "after the restart");
  auto pong = bench.ask({"PING"});
  REQUIRE(pong);
  CHECK(pong->text == "PONG");
}

}  // namespace cinq::net
