// Issue 16: the network threads never wait. Store reads and whole-record replays run on the worker pool
// (server/workers.h), a connection's messages keep their order while one of them waits for a worker, and
// /metrics' cinq_blocking_on_network_total stays 0. The real server, real WebSocket clients.
#include <doctest/doctest.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <regex>
#include <thread>

#include "persistence/store.h"
#include "tests/server/peer.h"
#include "tests/support.h"
#include "tests/support/process.h"
#include "tests/support/postgres.h"

namespace cinq::test {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t metric(std::uint16_t port, const std::string& name) {
  auto reply = http_request(port, "GET", "/metrics");
  REQUIRE(reply.status == 200);
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_search(reply.body, m, std::regex("\n" + name + " (\\d+)\n")), name);
  return std::stoll(m[1]);
}

// A legal text of a message that carries the mover's `legal` (a folded Batik range gives its first value).
std::string a_legal(const json& m) {
  REQUIRE(m.contains("legal"));
  const json& l = m["legal"].at(0);
  if (l.is_string()) return l;
  if (l.is_array()) return lobby::ungroup_legal(json::array({l})).at(0);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", l["from"].get<double>());
  return l["prefix"].get<std::string>() + " " + buf;
}

bool is_play(const json& m) { return m.value("type", "") == "event" && m.value("kind", "") == "play"; }

}  // namespace

TEST_CASE(
    "workers: while long Batik records are replayed and games are listed, another room's turns are answered "
    "at once, and no network thread does blocking work") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  const std::uint16_t port = server.port();
  const std::string batik = read_text(data_path("batik/match-random.txt"));
  REQUIRE(http_request(port, "POST", "/api/replay", batik, "text/plain").status == 200);

  // Carol's games: one finished and gone from memory (my_games replays it from the store), one open.
  Peer carol(port, "Carol");
  {
    Peer dave(port, "Dave");
    carol.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
    std::string done = carol.until_type("state")["room"];
    dave.send({{"type", "sit"}, {"room", done}});
    dave.until_type("state");
    carol.until_event("started");
    carol.send({{"type", "abort"}, {"room", done}});
    carol.until_event("finished");
    carol.send({{"type", "leave"}, {"room", done}});
    carol.until_type("left");
    carol.send({{"type", "create"}, {"game", "kopf-oder-knopf"}, {"seat", 1}});
    carol.until_type("state");
  }

  // Alice and Bob in a Tablut room.
  Peer alice(port, "Alice"), bob(port, "Bob");
  alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
  const std::string room = alice.until_type("state")["room"];
  bob.send({{"type", "sit"}, {"room", room}});
  bob.until_type("state");
  json to_move = alice.until_event("started");

  std::atomic<bool> stop{false};
  std::atomic<int> replays{0}, replay_failures{0}, lists{0}, list_failures{0};
  std::thread replayer([&] {
    while (!stop) {
      try {
        auto reply = http_request(port, "POST", "/api/replay", batik, "text/plain");
        ++(reply.status == 200 ? replays : replay_failures);
      } catch (const std::exception&) {
        ++replay_failures;
      }
    }
  });
  std::thread lister([&] {
    try {
      WsClient ws(port);
      ws.send(json{{"type", "hello"}, {"id", carol.id}, {"token", carol.token}}.dump());
      while (!stop) {
        ws.send(R"({"type":"my_games"})");
        for (;;) {
          auto m = ws.receive(std::chrono::seconds(10));
          if (!m) {
            ++list_failures;
            return;
          }
          json j = json::parse(*m);
          if (j.value("type", "") == "my_games") {
            ++(j["games"].size() == 2 ? lists : list_failures);
            break;
          }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(60));  // under the per-connection rate limit
      }
    } catch (const std::exception&) {
      ++list_failures;
    }
  });

  // Alice and Bob play while the workers are busy: each turn's event comes back within a second.
  std::chrono::milliseconds slowest{0};
  Peer* players[2] = {&alice, &bob};
  for (int turn = 0; turn < 12; ++turn) {
    Peer& mover = *players[turn % 2];
    const std::string action = a_legal(to_move);
    auto sent = Clock::now();
    mover.send({{"type", "act"}, {"room", room}, {"actions", {action}}});
    json ev = mover.until(is_play);
    slowest = std::max(slowest, std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sent));
    CHECK(ev["actions"] == json({action}));
    to_move = players[(turn + 1) % 2]->until(is_play);  // the other seat's copy carries its legal actions
    if (to_move["patch"].contains("result") && !to_move["patch"]["result"].is_null()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  stop = true;
  replayer.join();
  lister.join();
  MESSAGE("slowest turn: " << slowest.count() << " ms; " << replays.load() << " replays, " << lists.load()
                           << " game lists meanwhile");
  CHECK(slowest < std::chrono::seconds(1));
  CHECK(replays.load() > 0);
  CHECK(replay_failures.load() == 0);
  CHECK(lists.load() > 0);
  CHECK(list_failures.load() == 0);
  CHECK(metric(port, "cinq_blocking_on_network_total") == 0);
}

TEST_CASE(
    "workers: messages sent at once keep their order while one waits for a worker (hello with a stored "
    "identity, join of a stored room)") {
  TempDir data;
  std::string room, finished, alice_id, alice_token;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    Peer alice(server.port(), "Alice"), bob(server.port(), "Bob");
    alice_id = alice.id, alice_token = alice.token;
    alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
    room = alice.until_type("state")["room"];
    bob.send({{"type", "sit"}, {"room", room}});
    bob.until_type("state");
    alice.until_event("started");
    alice.send({{"type", "create"}, {"game", "kopf-oder-knopf"}, {"seat", 0}});
    finished = alice.until_type("state")["room"];
    bob.send({{"type", "sit"}, {"room", finished}});
    alice.until_event("started");
    alice.send({{"type", "resign"}, {"room", finished}});
    alice.until_event("finished");
    server.kill(SIGKILL);
    server.wait(std::chrono::seconds(10));
  }
  // After a restart nothing of Alice is in memory, and the finished room is in the store only.
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  WsClient ws(server.port());
  for (const json& m : {json{{"type", "hello"}, {"id", alice_id}, {"token", alice_token}, {"ref", 1}},
                        json{{"type", "join"}, {"room", finished}, {"ref", 2}},
                        json{{"type", "rematch"}, {"room", finished}, {"ref", 3}},
                        json{{"type", "join"}, {"room", room}, {"ref", 4}},
                        json{{"type", "act"}, {"room", room}, {"actions", {"a4 c4"}}, {"ref", 5}}})
    ws.send(m.dump());
  std::vector<std::string> seen;
  auto deadline = Clock::now() + std::chrono::seconds(10);
  bool played = false;
  while (!played && Clock::now() < deadline) {
    auto text = ws.receive(std::chrono::seconds(5));
    REQUIRE(text);
    json m = json::parse(*text);
    std::string what = m.value("type", "");
    if (what == "error") {
      what += ":" + m["code"].get<std::string>();
      CHECK(m["code"] != "hello_required");
      CHECK(m["code"] != "no_room");
    }
    if (what == "state") what += ":" + m["room"].get<std::string>();
    if (what == "event") what += ":" + m["kind"].get<std::string>();
    if (what == "event:presence" || what == "event:spectators" || what == "event:rematch_offer") continue;
    seen.push_back(what);
    played = what == "event:play";
  }
  std::string order;
  for (const auto& s : seen) order += s + " ";
  INFO("seen: ", order, " finished=", finished, " room=", room);
  // welcome first; each room's answers in the order asked (join, then the play); the two rooms' answers may
  // interleave, as docs/protocol.md says.
  REQUIRE(seen.size() == 4);
  CHECK(seen[0] == "welcome");
  CHECK(std::count(seen.begin(), seen.end(), "state:" + finished) == 1);
  auto room_state = std::find(seen.begin(), seen.end(), "state:" + room);
  REQUIRE(room_state != seen.end());
  CHECK(room_state < seen.end() - 1);
  CHECK(seen.back() == "event:play");
  CHECK(metric(server.port(), "cinq_blocking_on_network_total") == 0);
}

TEST_CASE("workers: a token stored as SHA-1 (the old way) still proves its identity, and is kept as SHA-256") {
  TempDir data;
  const std::string token = "Legacy0token0with032characters0X";
  {
    store::Error error;
    auto store = store::Store::open(test::store_spec(data.path() + "/cinq.db"), error);
    REQUIRE(store);
    REQUIRE(store->put_player({"pLegacy", "546d3e250ed61b5dd5fb731b5f5eec56de01e679", "Old", 1}, error));
  }
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    WsClient thief(server.port());
    thief.send(json{{"type", "hello"}, {"id", "pLegacy"}, {"token", "Legacy0token0with032characters0Y"}}.dump());
    CHECK(json::parse(thief.receive().value())["code"] == "bad_token");
    Peer old(server.port(), "pLegacy", token);
    CHECK(old.id == "pLegacy");
    server.kill(SIGTERM);
    server.wait(std::chrono::seconds(10));
  }
  store::Error error;
  auto store = store::Store::open(test::store_spec(data.path() + "/cinq.db"), error);
  REQUIRE(store);
  auto row = store->player("pLegacy");
  REQUIRE(row);
  CHECK(row->token_hash == "7640df3c6c283b7e8b5df42c4530280bd9bbbab86cdbdfafdcc559dd888a1659");
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Peer again(server.port(), "pLegacy", token);
  CHECK(again.id == "pLegacy");
}

TEST_CASE("workers: the HTTP API's routes: unknown paths are 404, other methods 405, queries percent-decoded") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  const std::uint16_t port = server.port();
  CHECK(http_request(port, "GET", "/api/nothing").status == 404);
  CHECK(http_request(port, "GET", "/api/games/").status == 404);
  CHECK(http_request(port, "GET", "/api/games/x/y").status == 404);
  auto wrong = http_request(port, "DELETE", "/api/games");
  CHECK(wrong.status == 405);
  CHECK(json::parse(wrong.body)["error"]["code"] == "method");
  CHECK(http_request(port, "GET", "/api/replay").status == 405);
  CHECK(http_request(port, "GET", "/api/games/import").status == 405);
  CHECK(http_request(port, "POST", "/metrics").status == 405);
  auto missing = http_request(port, "GET", "/api/games/nosuchroom");
  CHECK(missing.status == 404);
  CHECK(json::parse(missing.body)["error"]["code"] == "not_found");
  // An import, its seat token sent percent-encoded.
  auto imported = http_request(port, "POST", "/api/games/import?%64ays=2", "#! TABLUT\n", "text/plain");
  REQUIRE(imported.status == 201);
  json answer = json::parse(imported.body);
  std::string link = answer["links"][0];
  std::string token = link.substr(link.find("token=") + 6);
  std::string encoded;
  for (char ch : token) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(ch));
    encoded += buf;
  }
  std::string id = answer["room"];
  auto reply = http_request(port, "POST", "/api/games/" + id + "/record?seat=0&token=" + encoded,
                            "#! TABLUT\n", "text/plain");
  CHECK(reply.status == 200);  // the token was read: the same log, nothing new
  CHECK(reply.body.rfind("#! TABLUT", 0) == 0);
  CHECK(http_request(port, "POST", "/api/games/" + id + "/record?seat=0&token=wrong", "#! TABLUT\n").status ==
        403);
  CHECK(metric(port, "cinq_blocking_on_network_total") == 0);
}

}  // namespace cinq::test
