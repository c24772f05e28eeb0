// What one player or one address may make or hold: open rooms and rooms against bots per
// player, imports per address and hour (private unless asked), open rooms nobody holds expire, bot thinking
// shared between players, HTTP requests and connections per address, descriptors kept in reserve. Each limit
// is a `cinq serve` option; the tests set small ones.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <thread>

#include "tests/server/peer.h"
#include "tests/support.h"
#include "tests/support/process.h"

namespace cinq::test {
namespace {

using namespace std::chrono_literals;


// The value of one line of /metrics (`name` with its labels), or -1.
long long metric(std::uint16_t port, const std::string& name) {
  const std::string text = http_request(port, "GET", "/metrics").body;
  auto at = text.find("\n" + name + " ");
  if (at == std::string::npos) return -1;
  return std::stoll(text.substr(at + name.size() + 2));
}

// A TCP connection to 127.0.0.1:PORT from `source` (any 127.x.y.z is this machine: another address).
class Socket {
 public:
  Socket(std::uint16_t port, const char* source = "127.0.0.1") {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd_ >= 0);
    sockaddr_in from{};
    from.sin_family = AF_INET;
    inet_pton(AF_INET, source, &from.sin_addr);
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&from), sizeof from) == 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0);
    timeval tv{5, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  ~Socket() { ::close(fd_); }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;

  void send(const std::string& text) { REQUIRE(::send(fd_, text.data(), text.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(text.size())); }
  // Everything until the server closes the connection (or 5 s pass), or the first `enough` bytes.
  std::string read(std::size_t enough = 1 << 20) {
    std::string out;
    char buf[4096];
    while (out.size() < enough) {
      ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
  }
  // The status line of one GET of `target` on this connection (the server closes after it).
  std::string get(const std::string& target) {
    send("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    std::string answer = read();
    return answer.substr(0, answer.find("\r\n"));
  }

 private:
  int fd_ = -1;
};

const std::string kUpgrade =
    "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

}  // namespace

TEST_CASE("limits: a player has a few open rooms at most, one it left still counts until someone takes it up") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR, {"--open-rooms-per-player", "3"});
  Peer alice(server.port(), "Alice");
  std::vector<std::string> rooms;
  for (int i = 0; i < 3; ++i) {
    alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
    rooms.push_back(alice.until_type("state")["room"]);
  }
  alice.send({{"type", "create"}, {"game", "kopf-oder-knopf"}, {"seat", 0}, {"ref", 7}});
  json refused = alice.until_type("error");
  CHECK(refused["code"] == "too_many_rooms");
  CHECK(refused["ref"] == 7);
  // Another player is not limited by Alice's rooms, and taking one up frees Alice's place.
  Peer bob(server.port(), "Bob");
  bob.send({{"type", "sit"}, {"room", rooms[1]}});
  bob.until_type("state");
  alice.drain();
  alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
  rooms.push_back(alice.until_type("state")["room"]);
  alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
  CHECK(alice.until_type("error")["code"] == "too_many_rooms");
  // Leaving an open room closes it (nobody waits in it any more): that frees a place too.
  alice.send({{"type", "leave"}, {"room", rooms[0]}});
  alice.until_type("left");
  alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
  CHECK(alice.until_type("state")["room"].is_string());
  CHECK(get_json(server.port(), "/api/games")["games"].size() == 4);  // three open, one live
  CHECK(metric(server.port(), "cinq_limit_refusals_total{limit=\"open_rooms\"}") == 2);
}

TEST_CASE("limits: an open room reopened at start that nobody comes back to is aborted after --open-room-expiry") {
  TempDir data;
  std::string gone;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR, {"--open-room-expiry", "0"});  // never, on this run
    Peer carl(server.port(), "Carl");
    carl.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
    gone = carl.until_type("state")["room"];
  }
  ServerProcess server(data.path(), CINQ_WEB_DIR, {"--open-room-expiry", "1"});
  CHECK(get_json(server.port(), "/api/games/" + gone)["position"]["status"] == "open");
  std::this_thread::sleep_for(2500ms);
  json state = get_json(server.port(), "/api/games/" + gone);
  CHECK(state["position"]["status"] == "finished");
  CHECK(state["position"]["result"]["text"] == "aborted");
  CHECK(metric(server.port(), "cinq_rooms_expired_total") == 1);
}

TEST_CASE("limits: an open room nobody connected holds is aborted after --open-room-expiry, a held one stays") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR, {"--open-room-expiry", "1"});
  std::string gone, held, mail;
  Peer alice(server.port(), "Alice");
  {
    Peer carl(server.port(), "Carl");
    carl.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
    gone = carl.until_type("state")["room"];
    // A correspondence room waits for the friend its creator sent the link to.
    carl.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}, {"clock", {{"days", 3}}}});
    mail = carl.until_type("state")["room"];
  }  // Carl is gone
  alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
  held = alice.until_type("state")["room"];
  std::this_thread::sleep_for(2500ms);
  json state = get_json(server.port(), "/api/games/" + gone);
  CHECK(state["position"]["status"] == "finished");
  CHECK(state["position"]["result"]["text"] == "aborted");
  CHECK(get_json(server.port(), "/api/games/" + held)["position"]["status"] == "open");
  CHECK(get_json(server.port(), "/api/games/" + mail)["position"]["status"] == "open");
  json listed = get_json(server.port(), "/api/games")["games"];
  CHECK(listed.size() == 2);
  for (const json& g : listed) CHECK(g.at("room") != gone);  // at(): a listing names its game `room`
  CHECK(metric(server.port(), "cinq_rooms_expired_total") == 1);
}

TEST_CASE("limits: rooms against the computer per player, a finished one frees its place") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR, {"--bot-rooms-per-player", "1", "--bot-answer-ms", "0"});
  Peer alice(server.port(), "Alice");
  alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}, {"bot", 1}});
  std::string room = alice.until_type("state")["room"];
  alice.send({{"type", "create"}, {"game", "kopf-oder-knopf"}, {"seat", 0}, {"bot", 1}});
  CHECK(alice.until_type("error")["code"] == "too_many_rooms");
  Peer bob(server.port(), "Bob");  // another player has a place of its own
  bob.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}, {"bot", 1}});
  CHECK(bob.until_type("state")["room"].is_string());
  alice.send({{"type", "resign"}, {"room", room}});
  alice.until_event("finished");
  alice.send({{"type", "create"}, {"game", "kopf-oder-knopf"}, {"seat", 0}, {"bot", 1}});
  CHECK(alice.until_type("state")["room"].is_string());
  CHECK(metric(server.port(), "cinq_limit_refusals_total{limit=\"bot_rooms\"}") == 1);
}

TEST_CASE("limits: one player's many bots never hold another player's bot behind all of theirs") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR, {"--bot-rooms-per-player", "0", "--bot-answer-ms", "0"});
  // Xavier sits second in five rooms against level-5 bots (4 s a turn): five turns queue for the one bot
  // thread at once. Yvonne's level-1 bot (0.1 s) then waits for the one being thought, not for all five.
  Peer xavier(server.port(), "Xavier");
  for (int i = 0; i < 5; ++i) {
    xavier.send({{"type", "create"}, {"game", "tablut"}, {"seat", 1}, {"bot", 5}});
    xavier.until_type("state");
  }
  std::this_thread::sleep_for(300ms);
  Peer yvonne(server.port(), "Yvonne");
  const auto asked = std::chrono::steady_clock::now();
  yvonne.send({{"type", "create"}, {"game", "tablut"}, {"seat", 1}, {"bot", 1}});
  yvonne.until_type("state");
  yvonne.until_event("play");  // the bot's first turn
  const auto waited = std::chrono::steady_clock::now() - asked;
  MESSAGE("Yvonne's bot answered after " << std::chrono::duration_cast<std::chrono::milliseconds>(waited).count()
                                         << " ms");
  CHECK(waited < 12s);  // one level-5 turn (4 s, 9 s at worst) and its own; in arrival order, 5 x 4 s
}

TEST_CASE("limits: imports per address and hour, each private unless asked") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR, {"--imports-per-hour", "2"});
  const std::string record = read_text(data_path("records/tablut/sample-escape.txt"));
  const std::string unfinished = read_text(data_path("records/tablut/example-in-progress.txt"));
  auto first = http_request(server.port(), "POST", "/api/games/import", unfinished);
  REQUIRE(first.status == 201);
  CHECK(get_json(server.port(), "/api/games")["games"].empty());  // private: not listed
  auto second = http_request(server.port(), "POST", "/api/games/import?public=1", unfinished);
  REQUIRE(second.status == 201);
  CHECK(get_json(server.port(), "/api/games")["games"].size() == 1);
  auto third = http_request(server.port(), "POST", "/api/games/import", record);
  CHECK(third.status == 429);
  CHECK(json::parse(third.body)["error"]["code"] == "too_many_imports");
  bool retry = false;
  for (const auto& [name, value] : third.headers) retry = retry || (name == "Retry-After" && std::stoi(value) > 3500);
  CHECK(retry);
  CHECK(metric(server.port(), "cinq_limit_refusals_total{limit=\"imports\"}") == 1);
}

TEST_CASE("limits: HTTP requests beyond the rate of one address are answered 429, other addresses are served") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR, {"--http-rate", "3"});  // bursts of 30
  int ok = 0, limited = 0;
  for (int i = 0; i < 45; ++i) {
    auto reply = http_request(server.port(), "GET", "/api/health");
    (reply.status == 200 ? ok : limited) += 1;
    if (reply.status == 429) {
      bool retry = false;
      for (const auto& [name, value] : reply.headers) retry = retry || name == "Retry-After";
      CHECK(retry);
    }
  }
  CHECK(ok >= 30);
  CHECK(ok < 40);
  CHECK(limited > 0);
  Socket other(server.port(), "127.0.0.2");
  CHECK(other.get("/api/health") == "HTTP/1.1 200 OK");
  std::this_thread::sleep_for(1200ms);  // three more a second
  CHECK(http_request(server.port(), "GET", "/api/health").status == 200);
}

TEST_CASE("limits: idle HTTP connections of one address are capped, descriptors stay for health checks") {
  TempDir data;
  // 300 descriptors: WebSocket connections stop at 300 - 128, every connection at 300 - 32.
  ServerProcess server(data.path(), CINQ_WEB_DIR,
                       {"--max-open-files", "300", "--http-connections-per-address", "4",
                        "--per-address-connections", "0", "--http-rate", "0"});
  {
    std::vector<std::unique_ptr<Socket>> idle;
    for (int i = 0; i < 4; ++i) idle.push_back(std::make_unique<Socket>(server.port()));
    std::this_thread::sleep_for(200ms);
    Socket fifth(server.port());
    const std::string answer = fifth.read();
    CHECK(answer.rfind("HTTP/1.1 429", 0) == 0);
    Socket other(server.port(), "127.0.0.2");
    CHECK(other.get("/api/health") == "HTTP/1.1 200 OK");
  }
  std::this_thread::sleep_for(200ms);
  // WebSocket connections until the server says it is full; a health check still works.
  std::vector<std::unique_ptr<Socket>> sockets;
  std::string refused;
  for (int i = 0; i < 260 && refused.empty(); ++i) {
    auto s = std::make_unique<Socket>(server.port(), i % 2 ? "127.0.0.3" : "127.0.0.4");
    s->send(kUpgrade);
    std::string answer = s->read(12);
    if (answer.rfind("HTTP/1.1 101", 0) != 0) refused = answer;
    sockets.push_back(std::move(s));
  }
  CHECK(sockets.size() > 150);
  CHECK(sockets.size() < 180);
  CHECK(refused.rfind("HTTP/1.1 503", 0) == 0);
  Socket health(server.port(), "127.0.0.5");
  CHECK(health.get("/api/health") == "HTTP/1.1 200 OK");
  CHECK(metric(server.port(), "cinq_connections_shed_total") >= 1);
  CHECK(metric(server.port(), "cinq_http_connections_refused_total") == 1);
}

}  // namespace cinq::test
