// Untrusted input that used to slip through: clocks that are not clocks, names that hide
// or reorder characters, a game id that is not UTF-8. Each gets a clear error and changes nothing.
#include <doctest/doctest.h>

#include <string>

#include "tests/server/peer.h"
#include "tests/support.h"
#include "tests/support/process.h"

namespace cinq::test {
namespace {

TEST_CASE("input: a clock object must be a clock: {days: 0}, an unknown member or {} is bad_clock") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Peer alice(server.port(), "Alice");
  for (const json& clock : {json{{"days", 0}}, json{{"x", 1}}, json::object(), json{{"base_ms", 0}},
                            json{{"base_ms", 60000}, {"increment_ms", 0}, {"dayz", 3}}}) {
    CAPTURE(clock.dump());
    alice.send({{"type", "create"}, {"game", "tablut"}, {"clock", clock}, {"seat", 0}});
    json error = alice.until_type("error");
    CHECK(error["code"] == "bad_clock");
  }
  alice.send({{"type", "create"}, {"game", "tablut"}, {"clock", {{"base_ms", "60000"}}}, {"seat", 0}});
  CHECK(alice.until_type("error")["code"] == "bad_message");  // a clock, but not in numbers
  // Nothing was made; null and a real clock still work.
  auto games = json::parse(http_request(server.port(), "GET", "/api/games").body);
  CHECK(games["games"].empty());
  alice.send({{"type", "create"}, {"game", "tablut"}, {"clock", nullptr}, {"seat", 0}});
  CHECK(alice.until_type("state")["clock"] == nullptr);
  alice.send({{"type", "create"}, {"game", "tablut"}, {"clock", {{"base_ms", 60000}}}, {"seat", 0}});
  CHECK(alice.until_type("state")["clock"] == json{{"base_ms", 60000}, {"increment_ms", 0}});
}

TEST_CASE("input: names with invisible or direction-changing characters are bad_name") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  for (const std::string& name : {std::string("\xE2\x80\xAE" "boB"),   // U+202E RIGHT-TO-LEFT OVERRIDE
                                  std::string("\xEF\xBB\xBF" "Bob"),   // U+FEFF, a byte-order mark
                                  std::string("Bo\xE2\x80\x8B" "b"),   // U+200B ZERO WIDTH SPACE
                                  std::string("Bob\xC2\x85")}) {       // U+0085, a C1 control
    CAPTURE(name);
    WsClient ws(server.port());
    ws.send(json{{"type", "hello"}, {"name", name}}.dump());
    auto reply = json::parse(*ws.receive(std::chrono::seconds(5)));
    CHECK(reply["type"] == "error");
    CHECK(reply["code"] == "bad_name");
  }
  Peer ok(server.port(), "Zoë Ørsted");  // letters beyond ASCII are names: welcomed
  ok.send({{"type", "name"}, {"name", "\xE2\x81\xA6" "x"}});  // U+2066, an isolate
  CHECK(ok.until_type("error")["code"] == "bad_name");
}

TEST_CASE("input: a game id that is not UTF-8 is a 404 in JSON, not a 500") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  for (const char* target : {"/api/games/%E9", "/api/games/%E9/record", "/api/games/%FF%FE"}) {
    CAPTURE(target);
    auto reply = http_request(server.port(), "GET", target);
    CHECK(reply.status == 404);
    auto body = json::parse(reply.body);  // valid JSON: the bad byte became U+FFFD
    CHECK(body["error"]["code"] == "not_found");
  }
}

TEST_CASE("input: an empty or blank record is refused by the import and the replay, and makes no room") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  for (const char* body : {"", "   \n\t\r\n"}) {
    for (const char* target : {"/api/games/import", "/api/replay"}) {
      CAPTURE(target);
      auto reply = http_request(server.port(), "POST", target, body, "text/plain");
      CHECK(reply.status == 422);
      auto answer = json::parse(reply.body);
      CHECK(answer["error"]["code"] == "bad_record");
      CHECK(answer["error"]["line"] == 1);
    }
  }
  auto games = json::parse(http_request(server.port(), "GET", "/api/games").body);
  CHECK(games["games"].empty());
}

TEST_CASE("input: the replay's bad record gives the rules' reason as a code, its parameters and the game") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  auto reply = http_request(server.port(), "POST", "/api/replay", "#! TABLUT\n1 D/e3 c3/\n", "text/plain");
  CHECK(reply.status == 422);
  auto error = json::parse(reply.body)["error"];
  CHECK(error["code"] == "bad_record");
  CHECK(error["line"] == 2);
  CHECK(error["message"] == "line 2: it is A's turn, not D's");
  CHECK(error["reason_code"] == "wrong_side");
  CHECK(error["params"] == json{{"side", "A"}, {"written_side", "D"}});
  CHECK(error["game"] == "tablut");
  // A record without a known game names none.
  error = json::parse(
      http_request(server.port(), "POST", "/api/replay", "#! NOSUCH\n", "text/plain").body)["error"];
  CHECK(error["reason_code"] == "unknown_game");
  CHECK_FALSE(error.contains("game"));
}

}  // namespace
}  // namespace cinq::test
