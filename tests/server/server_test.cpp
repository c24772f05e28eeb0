// The real server, as a separate process on a free port, played by real WebSocket clients (our own Beast
// client; tests/server/protocol_test.py does the same with Python's `websockets`).
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>

#include <thread>

#include "persistence/store.h"
#include "rules/notation.h"
#include "tests/server/peer.h"
#include "tests/support.h"
#include "tests/support/process.h"
#include "tests/support/postgres.h"

namespace cinq::test {
namespace {

// The turns of a record, as the `actions` of one `act` message each, with the side letter that plays them.
std::vector<std::pair<char, std::vector<std::string>>> turns_of(const Record& record) {
  std::vector<std::pair<char, std::vector<std::string>>> out;
  for (const Entry& e : record.entries())
    if (e.kind == Entry::Kind::turns)
      for (const TurnText& t : e.turns) out.emplace_back(t.side, t.items);
  return out;
}



void play(Peer& p, const std::string& room, const std::vector<std::string>& actions) {
  p.send({{"type", "act"}, {"room", room}, {"actions", actions}});
}

// The first legal text of a list of legal actions (expanding a folded range entry).
std::string first_legal(const json& legal) {
  const json& l = legal.at(0);
  if (l.is_string()) return l;
  if (l.is_array()) return lobby::ungroup_legal(json::array({l})).at(0);
  double from = l["from"];
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", from);
  return l["prefix"].get<std::string>() + " " + buf;
}

}  // namespace

TEST_CASE(
    "two players play a whole Tablut game to its end, spectators see every move, the record and result are "
    "stored") {
  auto sample = Record::read(read_text(data_path("records/tablut/sample-escape.txt")));
  REQUIRE(sample.ok());
  auto turns = turns_of(*sample);
  TempDir data;
  std::string room;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    Table t(server.port(), "tablut");
    room = t.room;
    std::unique_ptr<Peer> carol;  // a spectator who comes in after the third turn
    std::int64_t last_version = 0;
    for (std::size_t i = 0; i < turns.size(); ++i) {
      if (i == 3) {
        carol = std::make_unique<Peer>(server.port(), "Carol");
        carol->send({{"type", "join"}, {"room", room}});
        json state = carol->until_type("state");
        auto so_far = Record::read(state["record"].get<std::string>());
        REQUIRE(so_far.ok());
        CHECK(so_far->turn_count() == 3);
        last_version = state["version"];
      }
      Peer& mover = turns[i].first == 'A' ? t.alice : t.bob;
      play(mover, room, turns[i].second);
      json ev = t.alice.until_event("play");
      CHECK(ev["actions"] == json(turns[i].second));
      t.bob.until_event("play");
      if (carol) {
        json seen = carol->until_event("play");
        CHECK(seen["actions"] == json(turns[i].second));
        for (const json& skipped : carol->skipped) CHECK(skipped["kind"] != "play");
        CHECK(seen["version"].get<std::int64_t>() > last_version);
        last_version = seen["version"];
      }
    }
    json done = t.alice.until_event("finished");
    CHECK(done["result"]["text"] == sample->result_text());
    CHECK(done["result"]["winner"] == 1);
    CHECK(carol->until_event("finished")["result"]["text"] == sample->result_text());

    auto reply = http_request(server.port(), "GET", "/api/games/" + room + "/record");
    CHECK(reply.status == 200);
    CHECK(reply.content_type.rfind("text/plain", 0) == 0);
    auto served = Record::read(reply.body);
    REQUIRE(served.ok());
    CHECK(served->result_text() == "D escape");
    CHECK(served->player('A') == "Alice");
    CHECK(turns_of(*served) == turns);
    CHECK(get_json(server.port(), "/api/games/" + room)["position"]["status"] == "finished");

    server.kill(SIGTERM);  // a clean stop: clients are told, the process exits 0
    int status = server.wait(std::chrono::seconds(10));
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    t.alice.drain();
    CHECK(t.alice.ws().close_code() == 1001);
  }
  store::Error error;
  auto store = store::Store::open(test::store_spec(data.path() + "/cinq.db"), error);
  REQUIRE(store);
  auto row = store->game(room);
  REQUIRE(row);
  CHECK(row->status == "finished");
  CHECK(row->result == "D escape");
  auto stored = Record::read(row->record);
  REQUIRE(stored.ok());
  CHECK(turns_of(*stored) == turns);
}

TEST_CASE("a player who drops mid-game reconnects with its token, gets the missed events, and plays on") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Table t(server.port(), "tablut");
  play(t.alice, t.room, {"a4 c4"});
  t.bob.until_event("play");
  std::string id = t.bob.id, token = t.bob.token;
  std::int64_t seen = t.bob.version;
  t.bob.ws().close();

  json gone =
      t.alice.until([](const json& m) { return m.value("kind", "") == "presence" && m["online"] == false; });
  CHECK(gone["seat"] == 1);
  // Bob is away: his seat is still his; nobody else can act for him.
  Peer mallory(server.port(), "Mallory");
  play(mallory, t.room, {"e3 f3"});
  CHECK(mallory.until_type("error")["code"] == "not_seated");

  Peer bob(server.port(), id, token);
  CHECK(bob.id == id);
  bob.send({{"type", "join"}, {"room", t.room}, {"since", seen}});
  json missed = bob.until_type("events");
  CHECK(missed["events"].is_array());
  for (const json& e : missed["events"]) CHECK(e["version"].get<std::int64_t>() > seen);
  play(bob, t.room, {"e3 f3"});
  json ev = t.alice.until([](const json& m) { return m.value("kind", "") == "play" && m["seat"] == 1; });
  CHECK(ev["seat"] == 1);
  CHECK(ev["actions"] == json({"e3 f3"}));

  Peer wrong(server.port(), "y");
  wrong.send({{"type", "hello"}, {"id", id}, {"token", "not-the-token"}});
  CHECK(wrong.until_type("error")["code"] == "bad_message");  // this connection already said hello
  WsClient fresh(server.port());
  fresh.send(json{{"type", "hello"}, {"id", id}, {"token", "not-the-token"}}.dump());
  auto answer = fresh.receive();
  REQUIRE(answer);
  CHECK(json::parse(*answer)["code"] == "bad_token");
}

TEST_CASE(
    "killed with SIGKILL mid-game, the server restarts and the game goes on from the last turn anyone saw") {
  TempDir data;
  std::string room, alice_id, alice_token, bob_id, bob_token;
  const std::vector<std::vector<std::string>> opening = {{"a4 c4"}, {"e3 f3"}, {"a6 c6"}, {"d5 d8"}};
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    Table t(server.port(), "tablut");
    room = t.room;
    alice_id = t.alice.id, alice_token = t.alice.token, bob_id = t.bob.id, bob_token = t.bob.token;
    for (std::size_t i = 0; i < opening.size(); ++i) {
      play(i % 2 ? t.bob : t.alice, room, opening[i]);
      t.alice.until_event("play");
      t.bob.until_event("play");
    }
    server.kill(SIGKILL);
    server.wait(std::chrono::seconds(10));
  }
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Peer alice(server.port(), alice_id, alice_token);
  Peer bob(server.port(), bob_id, bob_token);
  alice.send({{"type", "join"}, {"room", room}, {"since", 3}});
  json state = alice.until_type("state");  // after a restart: always the whole state
  auto record = Record::read(state["record"].get<std::string>());
  REQUIRE(record.ok());
  CHECK(record->turn_count() == 4);
  CHECK(turns_of(*record).back().second == opening.back());
  CHECK(state["position"]["to_move"] == 0);
  bob.send({{"type", "join"}, {"room", room}});
  bob.until_type("state");
  play(alice, room, {"i4 h4"});
  CHECK(bob.until_event("play")["actions"] == json({"i4 h4"}));
  CHECK(get_json(server.port(), "/api/games/" + room)["position"]["turn"] == 5);
}

TEST_CASE(
    "after a restart the room counts in a new epoch: a join from a version of the old one gets the whole state, "
    "though the room has numbered other events up to that version again") {
  TempDir data;
  std::string room, alice_id, alice_token, bob_id, bob_token;
  std::int64_t seen = 0, old_epoch = 0;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    Table t(server.port(), "tablut");
    room = t.room;
    alice_id = t.alice.id, alice_token = t.alice.token, bob_id = t.bob.id, bob_token = t.bob.token;
    play(t.alice, room, {"a4 c4"});
    t.alice.until_event("play");
    t.bob.until_event("play");
    t.bob.ws().close();
    // Bob's leaving is announced (a version the store does not keep) and is the last thing Alice sees.
    json gone =
        t.alice.until([](const json& m) { return m.value("kind", "") == "presence" && m["online"] == false; });
    seen = gone["version"].get<std::int64_t>();
    old_epoch = gone["epoch"].get<std::int64_t>();
    server.kill(SIGKILL);
    server.wait(std::chrono::seconds(10));
  }
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Peer bob(server.port(), bob_id, bob_token);
  bob.send({{"type", "join"}, {"room", room}});
  json state = bob.until_type("state");
  CHECK(state["epoch"].get<std::int64_t>() != old_epoch);
  // Bob's coming back is numbered from the stored version: the number Alice saw his leaving under.
  json back = bob.until([](const json& m) { return m.value("kind", "") == "presence" && m["online"] == true; });
  CHECK(back["version"] == seen);
  CHECK(back["epoch"] == state["epoch"]);

  Peer alice(server.port(), alice_id, alice_token);
  alice.send({{"type", "join"}, {"room", room}, {"since", seen}, {"epoch", old_epoch}});
  json again = alice.until([](const json& m) { return m.value("type", "") == "state" || m.value("type", "") == "events"; });
  REQUIRE(again["type"] == "state");  // not "nothing missed": Bob is back
  CHECK(again["seats"][1]["online"] == true);
  CHECK(again["epoch"] == state["epoch"]);
  // In the epoch it holds now, a join from its own version is answered with the events since.
  alice.send({{"type", "join"}, {"room", room}, {"since", again["version"]}, {"epoch", again["epoch"]}});
  json since = alice.until_type("events");
  CHECK(since["epoch"] == state["epoch"]);
  for (const json& e : since["events"]) {  // at most her own coming back
    CHECK(e["epoch"] == state["epoch"]);
    CHECK(e["version"].get<std::int64_t>() > again["version"].get<std::int64_t>());
  }
}

TEST_CASE("a live clock reopened after a crash still falls: the side to move loses on time") {
  TempDir data;
  std::string room;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    Peer alice(server.port(), "Alice");
    alice.send({{"type", "create"},
                {"game", "tablut"},
                {"seat", 0},
                {"clock", {{"base_ms", 10000}, {"increment_ms", 0}}}});
    room = alice.until_type("state")["room"];
    Peer bob(server.port(), "Bob");
    bob.send({{"type", "sit"}, {"room", room}});
    bob.until_type("state");
    // The first moves: from then on Alice's clock runs (a side's first move is not on its clock).
    play(alice, room, {"d1 d2"});
    bob.until_event("play");
    play(bob, room, {"e3 c3"});
    bob.until_event("play");
    alice.until_event("play");
    alice.until_event("play");
    server.kill(SIGKILL);
    server.wait(std::chrono::seconds(10));
  }
  // Nobody comes back: the reopened room's own timer ends the game.
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  json state = get_json(server.port(), "/api/games/" + room);
  CHECK(state["position"]["clocks"]["running"] == 0);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (state["position"]["status"] == "live" && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    state = get_json(server.port(), "/api/games/" + room);
  }
  CHECK(state["position"]["status"] == "finished");
  CHECK(state["position"]["result"]["text"] == "D time");
  CHECK(state["position"]["result"]["winner"] == 1);
}

TEST_CASE("bad input gets an error for its sender only and changes nothing") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Table t(server.port(), "tablut");
  Peer carol(server.port(), "Carol");
  carol.send({{"type", "join"}, {"room", t.room}});
  carol.until_type("state");
  t.alice.drain();
  t.bob.drain();
  carol.drain();
  json before = get_json(server.port(), "/api/games/" + t.room);

  auto refused = [&](Peer& sender, const std::string& raw, const std::string& code) {
    CAPTURE(raw.substr(0, 80));
    sender.send_raw(raw);
    json e = sender.until_type("error");
    CHECK(e["code"] == code);
    CHECK(!e["message"].get<std::string>().empty());
    for (Peer* other : {&t.alice, &t.bob, &carol})
      if (other != &sender) CHECK(other->drain(std::chrono::milliseconds(100)).empty());
    json after = get_json(server.port(), "/api/games/" + t.room);
    CHECK(after["version"] == before["version"]);
    CHECK(after["record"] == before["record"]);
  };
  std::string room = t.room;
  refused(t.alice, "{not json", "bad_json");
  refused(t.alice, "[1,2]", "bad_json");
  refused(t.alice, R"({"type":"teleport"})", "unknown_type");
  refused(t.alice, R"({"type":"act","actions":["a4 c4"]})", "bad_message");
  refused(t.alice, R"({"type":"act","room":")" + room + R"(","actions":"a4 c4"})", "bad_message");
  refused(t.alice, R"({"type":"act","room":"nosuchroom","actions":["a4 c4"]})", "no_room");
  refused(t.alice,
          R"({"type":"act","room":")" + room + R"(","actions":["a4 c4"],"pad":")" + std::string(5000, 'x') +
              "\"}",
          "too_big");
  refused(t.bob, R"({"type":"act","room":")" + room + R"(","actions":["e3 f3"]})", "not_your_turn");
  refused(t.alice, R"({"type":"act","room":")" + room + R"(","actions":["a4 a9"]})", "illegal");
  refused(t.alice, R"({"type":"act","room":")" + room + R"(","actions":["a4 c4","a4 c4"]})", "illegal");
  refused(carol, R"({"type":"act","room":")" + room + R"(","actions":["a4 c4"]})", "not_seated");
  refused(carol, R"({"type":"resign","room":")" + room + R"("})", "not_seated");
  refused(t.alice, R"({"type":"create","game":"chess"})", "unknown_game");
  refused(t.alice, R"({"type":"create","game":"tablut","options":"king=golden"})", "bad_options");

  // A message before hello, and a flood.
  WsClient anonymous(server.port());
  anonymous.send(R"({"type":"rooms"})");
  CHECK(json::parse(anonymous.receive().value())["code"] == "hello_required");
  for (int i = 0; i < 100; ++i) anonymous.send(R"({"type":"ping"})");
  bool limited = false;
  while (auto m = anonymous.receive(std::chrono::milliseconds(300)))
    limited = limited || json::parse(*m).value("code", "") == "rate_limited";
  CHECK(limited);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  anonymous.send(R"({"type":"ping"})");
  CHECK(json::parse(anonymous.receive().value())["type"] == "pong");

  // A frame over the hard cap closes that connection only.
  // (The server may close before the client has written the whole frame: then the write fails, or the close
  // frame is lost to the reset; either way that connection, and only it, is gone.)
  WsClient huge(server.port());
  try {
    huge.send(std::string(100 * 1024, 'x'));
    while (huge.receive(std::chrono::seconds(2))) {
    }
  } catch (const std::exception&) {
  }
  CHECK((huge.closed() || huge.close_code() == 1009));
  if (huge.close_code() != 0) CHECK(huge.close_code() == 1009);

  play(t.alice, t.room, {"a4 c4"});  // the game itself is untouched and goes on
  CHECK(t.bob.until_event("play")["version"].get<std::int64_t>() ==
        before["version"].get<std::int64_t>() + 1);
}

TEST_CASE("a Baltek turn sent action by action is shown to the room at each action, then ended") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Table t(server.port(), "baltek");
  Peer carol(server.port(), "Carol");
  carol.send({{"type", "join"}, {"room", t.room}});
  json state = carol.until_type("state");
  CHECK_FALSE(state.contains("legal"));  // a spectator is never sent the legal actions
  std::vector<std::string> sent;
  for (int i = 0; i < 2; ++i) {
    std::string action = first_legal(t.alice.legal);  // only the seat to move has them
    sent.push_back(action);
    play(t.alice, t.room, {action});
    json ev = carol.until_event("play");
    CHECK_FALSE(ev.contains("legal"));
    CHECK(ev["actions"] == json({action}));
    CHECK(ev["position"]["mid_turn"] == true);
    CHECK(ev["position"]["to_move"] == 0);
    json mine = t.alice.until_event("play");  // the same event, with Alice's legal actions for the rest
    CHECK(mine["version"] == ev["version"]);
  }
  CHECK(t.alice.can_end_turn == true);
  t.alice.send({{"type", "act"}, {"room", t.room}, {"end_turn", true}});
  json end = carol.until_event("play");
  CHECK(end["end_turn"] == true);
  CHECK(end["position"]["mid_turn"] == false);
  CHECK(end["position"]["to_move"] == 1);
  auto record = Record::read(http_request(server.port(), "GET", "/api/games/" + t.room + "/record").body);
  REQUIRE(record.ok());
  auto turns = turns_of(*record);
  REQUIRE(turns.size() == 1);
  CHECK(turns[0].second == sent);
}

TEST_CASE("a Batik drop's fall frames reach the spectators") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Table t(server.port(), "batik");
  Peer carol(server.port(), "Carol");
  carol.send({{"type", "join"}, {"room", t.room}});
  carol.until_type("state");
  std::string drop = first_legal(t.alice.legal);
  play(t.alice, t.room, {drop});
  json ev = carol.until_event("play");
  CHECK(ev["actions"] == json({drop}));
  const json& fall = ev["position"]["view"]["last_fall"];
  REQUIRE(fall.is_object());
  CHECK(fall["frames"].size() > 1);
  CHECK(ev["position"]["to_move"] == 1);
}

}  // namespace cinq::test
