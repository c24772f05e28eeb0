// Analyses and hints through the real server: a `cinq serve` process on a free port, real WebSocket clients,
// the store read back after a restart. Shallow searches only (depth 1, level-1 hints): the machine is shared.
#include <doctest/doctest.h>

#include <string>

#include "rules/notation.h"
#include "tests/server/peer.h"
#include "tests/support.h"
#include "tests/support/process.h"

namespace cinq::test {
namespace {

using namespace std::chrono_literals;

json ask(Peer& p, const json& m, const std::string& answer) {
  p.send(m);
  return p.until([&](const json& r) { return r.value("type", "") == answer || r.value("type", "") == "error"; },
                 20s);
}

// An `analysis` message with status done (or an error), after any queued/running ones.
json until_analysed(Peer& p) {
  return p.until([](const json& r) {
    return (r.value("type", "") == "analysis" && r.value("status", "") == "done") || r.value("type", "") == "error";
  }, 60s);
}

// A finished record imported as a room to view; its id.
std::string import_finished(std::uint16_t port, const std::string& record) {
  auto reply = http_request(port, "POST", "/api/games/import?public=1", record, "text/plain");
  REQUIRE_MESSAGE(reply.status == 201, reply.body);
  return json::parse(reply.body)["room"];
}

}  // namespace

TEST_CASE("analysis server: a finished game analysed once (the blunder marked), stored, read back after a "
          "restart; fields named, unfinished games and a player's second analysis refused") {
  TempDir data;
  const std::string sample = read_text(data_path("records/tablut/sample-escape.txt"));
  std::string room;
  json analysis;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR, {"--analyses-per-player", "1"});
    room = import_finished(server.port(), sample);
    const std::string other = import_finished(server.port(), sample);
    CHECK(http_request(server.port(), "GET", "/api/games/" + room + "/analysis?depth=1").status == 404);
    CHECK(http_request(server.port(), "GET", "/api/games/" + room + "/analysis?depth=x").status == 400);
    CHECK(http_request(server.port(), "GET", "/api/games/" + room + "/analysis?depth=9").status == 400);
    Peer ann(server.port(), "Ann");

    json bad = ask(ann, {{"type", "analyze"}, {"room", room}, {"depth", 0}}, "analysis");
    CHECK(bad["code"] == "bad_message");
    CHECK(bad["message"].get<std::string>().find("depth") != std::string::npos);
    bad = ask(ann, {{"type", "analyze"}, {"room", room}, {"think_ms", 10}}, "analysis");
    CHECK(bad["message"].get<std::string>().find("think_ms") != std::string::npos);
    bad = ask(ann, {{"type", "analyze"}, {"room", room}, {"depth", "deep"}}, "analysis");
    CHECK(bad["code"] == "bad_message");
    CHECK(ask(ann, {{"type", "analyze"}, {"room", "nosuchgame"}, {"depth", 1}}, "nothing")["code"] == "not_found");

    // Two at once from one player: the second is over the limit of 1.
    ann.send({{"type", "analyze"}, {"room", room}, {"depth", 1}});
    ann.send({{"type", "analyze"}, {"room", other}, {"depth", 1}});
    json limited = ann.until([](const json& r) { return r.value("type", "") == "error"; }, 20s);
    CHECK(limited["code"] == "analysis_limit");
    json done = until_analysed(ann);
    REQUIRE_MESSAGE(done["type"] == "analysis", done.dump());
    CHECK(done["room"] == room);
    CHECK(done["settings"] == "depth=1");
    analysis = done["analysis"];
    REQUIRE(analysis["turns"].size() == 42);
    const json& blunder = analysis["turns"][40];
    CHECK(blunder["played"] == "A/a4 a2/");
    CHECK(blunder["mark"] == "blunder");
    CHECK(blunder.contains("best"));
    CHECK(analysis["turns"][41]["played"] == "D/g1 i1/");
    CHECK(!analysis["turns"][41].contains("best"));

    // Asked again: read back at once, the same.
    json again = ask(ann, {{"type", "analyze"}, {"room", room}, {"depth", 1}}, "analysis");
    CHECK(again["status"] == "done");
    CHECK(again["analysis"] == analysis);
    CHECK(get_json(server.port(), "/api/games/" + room + "/analysis?depth=1") == analysis);

    // A game under way is not analysed.
    json state = ask(ann, {{"type", "create"}, {"game", "tablut"}, {"bot", 1}, {"seat", 1}}, "state");
    CHECK(ask(ann, {{"type", "analyze"}, {"room", state["room"]}, {"depth", 1}}, "nothing")["code"] ==
          "not_finished");
  }
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  CHECK(get_json(server.port(), "/api/games/" + room + "/analysis?depth=1") == analysis);
}

TEST_CASE("analysis server: hints against the computer are given, counted in the record and the result, kept "
          "across a restart; refused against a person and in a rated game") {
  TempDir data;
  std::string room;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR, {"--bot-answer-ms", "0"});
    Peer ann(server.port(), "Ann");
    json state = ask(ann, {{"type", "create"}, {"game", "tablut"}, {"bot", 1}, {"seat", 0}}, "state");
    room = state["room"];
    REQUIRE(state["position"]["to_move"] == 0);
    CHECK(!state["position"].contains("hints"));
    ann.send({{"type", "hint"}, {"room", room}});
    json hint = ann.until([](const json& r) {
      return r.value("kind", "") == "hint" || r.value("type", "") == "error";
    }, 20s);
    REQUIRE_MESSAGE(hint.value("kind", "") == "hint", hint.dump());
    CHECK(hint["seat"] == 0);
    CHECK(hint["hints"] == json::array({1, 0}));
    const std::string turn = hint["turn"];
    REQUIRE(turn.rfind("A/", 0) == 0);
    // The hinted turn is legal: played as it is.
    const std::string move = turn.substr(2, turn.size() - 3);
    ann.send({{"type", "act"}, {"room", room}, {"actions", {move}}});
    ann.until([](const json& r) { return r.value("kind", "") == "play" && r.value("seat", -1) == 1; }, 20s);
    // Not while the computer is to move; again on Ann's turn.
    ann.send({{"type", "hint"}, {"room", room}});
    hint = ann.until([](const json& r) { return r.value("kind", "") == "hint" || r.value("type", "") == "error"; },
                     20s);
    CHECK(hint["hints"] == json::array({2, 0}));
    ann.send({{"type", "resign"}, {"room", room}});
    ann.until_event("finished");
    json stored = get_json(server.port(), "/api/games/" + room);
    CHECK(stored["position"]["hints"] == json::array({2, 0}));
    const std::string record = http_request(server.port(), "GET", "/api/games/" + room + "/record").body;
    CHECK(record.find("# hint 1 A/") != std::string::npos);
    CHECK(Record::read(record).ok());

    // Against a person: refused, in words that say why.
    Table table(server.port(), "tablut");
    json refused = ask(table.alice, {{"type", "hint"}, {"room", table.room}}, "nothing");
    CHECK(refused["code"] == "no_hints_person");
    CHECK(refused["message"].get<std::string>().find("computer") != std::string::npos);

    // In a rated game (accounts only, never against the computer): refused.
    Peer cy(server.port(), "Cy");
    Peer di(server.port(), "Di");
    CHECK(ask(cy, {{"type", "register"}, {"username", "cyrus"}, {"password", "cyrus password"}}, "registered")["type"] ==
          "registered");
    CHECK(ask(di, {{"type", "register"}, {"username", "diane"}, {"password", "diane password"}}, "registered")["type"] ==
          "registered");
    json rated = ask(cy, {{"type", "create"}, {"game", "tablut"}, {"seat", 0}, {"rated", true}}, "state");
    di.send({{"type", "sit"}, {"room", rated["room"]}});
    di.until_type("state");
    cy.until_event("started");
    refused = ask(cy, {{"type", "hint"}, {"room", rated["room"]}}, "nothing");
    CHECK(refused["code"] == "no_hints_rated");
  }
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  CHECK(get_json(server.port(), "/api/games/" + room)["position"]["hints"] == json::array({2, 0}));
}

}  // namespace cinq::test
