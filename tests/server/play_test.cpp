// Issue 18 over a real socket: `try` answers its sender alone; takebacks by agreement are stored; the chat's
// two channels reach whom they should and outlive a restart; correspondence links come back after a reload.
#include <doctest/doctest.h>

#include "tests/server/peer.h"
#include "tests/support.h"
#include "tests/support/process.h"

namespace cinq::test {
namespace {



}  // namespace

TEST_CASE("try: the position after part of a Baltek turn goes to its sender only, with what may follow") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Table p(server.port(), "baltek");
  Peer carol(server.port(), "Carol");
  carol.send({{"type", "join"}, {"room", p.room}});
  carol.until_type("state");
  const std::int64_t version = p.alice.version;

  p.alice.send({{"type", "try"}, {"room", p.room}, {"actions", {"@ d3"}}, {"ref", 7}});
  json t = p.alice.until_type("tried");
  CHECK(t["ref"] == 7);
  CHECK(t["room"] == p.room);
  CHECK(t["actions"] == json::array({"@ d3"}));
  CHECK(t["position"]["mid_turn"] == true);
  CHECK(t["can_end_turn"] == true);
  CHECK_FALSE(t["legal"].empty());

  p.alice.send({{"type", "try"}, {"room", p.room}, {"actions", {"z9 z8"}}, {"ref", 8}});
  json bad = p.alice.until_type("error");
  CHECK(bad["code"] == "illegal");
  CHECK(bad["ref"] == 8);
  // The rules' reason, to be said in the reader's language: its code and parameters beside the English text.
  CHECK(bad["reason_code"] == "not_a_field_action");
  CHECK(bad["params"] == json{{"item", "z9 z8"}});
  CHECK(bad["message"] == "'z9 z8' is not a Baltek action (runs 'g3 f3', sprints 'g3* e2', kicks '@ c3')");
  p.bob.send({{"type", "try"}, {"room", p.room}, {"actions", json::array()}});
  CHECK(p.bob.until_type("error")["code"] == "not_your_turn");

  // Nobody else heard of it, and nothing was played (presence and spectator counts move the version).
  for (const json& m : carol.drain()) CHECK(m.value("kind", "") != "play");
  for (const json& m : p.bob.drain()) CHECK(m.value("kind", "") != "play");
  p.alice.send({{"type", "join"}, {"room", p.room}, {"since", version}});
  json caught_up = p.alice.until_type("events");
  for (const json& e : caught_up["events"]) CHECK(e["kind"] != "play");
  CHECK(p.alice.position["turn"] == 0);
  CHECK(p.alice.position["mid_turn"] == false);
}

TEST_CASE("takeback: asked, accepted, announced to all, and the stored record lost the turn for good") {
  TempDir data;
  std::string room;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    Table p(server.port(), "tablut");
    room = p.room;
    p.alice.send({{"type", "act"}, {"room", room}, {"actions", {"d1 d2"}}});
    p.bob.until_event("play");
    p.bob.send({{"type", "act"}, {"room", room}, {"actions", {"e3 c3"}}});
    p.alice.until_event("play");
    p.alice.until_event("play");
    p.alice.send({{"type", "act"}, {"room", room}, {"actions", {"d2 d1"}}});
    p.bob.until_event("play");  // his own
    p.bob.until_event("play");  // hers

    p.bob.send({{"type", "takeback"}, {"room", room}, {"ref", 1}});
    CHECK(p.bob.until_type("error")["code"] == "cannot_take_back");  // the last turn is Alice's
    p.alice.send({{"type", "takeback"}, {"room", room}});
    CHECK(p.bob.until_event("takeback_offer")["seat"] == 0);
    p.bob.send({{"type", "takeback"}, {"room", room}});
    json done = p.alice.until_event("takeback");
    CHECK(done["seat"] == 0);
    CHECK(p.alice.position["turn"] == 2);
    CHECK(p.alice.position["to_move"] == 0);
    CHECK(p.alice.legal.size() > 0);  // Alice is to move again
    p.bob.until_event("takeback");
    auto record = http_request(server.port(), "GET", "/api/games/" + room + "/record");
    CHECK(record.body.find("d2 d1") == std::string::npos);
    CHECK(record.body.find("D/e3 c3/") != std::string::npos);
  }
  // After a restart the game is where the takeback left it, and goes on from there.
  ServerProcess again(data.path(), CINQ_WEB_DIR);
  json state = get_json(again.port(), "/api/games/" + room);
  CHECK(state["position"]["turn"] == 2);
  CHECK(state["record"].get<std::string>().find("d2 d1") == std::string::npos);
}

TEST_CASE("chat: players' lines reach everyone, spectators' only spectators until the end, stored") {
  TempDir data;
  std::string room;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    Table p(server.port(), "tablut");
    room = p.room;
    Peer carol(server.port(), "Carol");
    carol.send({{"type", "join"}, {"room", room}});
    carol.until_type("state");

    p.alice.send({{"type", "chat"}, {"room", room}, {"text", "good luck"}});
    json seen = carol.until_type("chat");
    CHECK(seen["channel"] == "players");
    CHECK(seen["seat"] == 0);
    CHECK(seen["name"] == "Alice");
    CHECK(seen["text"] == "good luck");
    CHECK(p.bob.until_type("chat")["text"] == "good luck");

    carol.send({{"type", "chat"}, {"room", room}, {"text", "Bob should attack"}});
    CHECK(carol.until_type("chat")["channel"] == "spectators");
    for (const json& m : p.bob.drain()) CHECK(m.value("channel", "") != "spectators");
    for (const json& m : p.alice.drain()) CHECK(m.value("channel", "") != "spectators");
    CHECK(get_json(server.port(), "/api/games/" + room + "/chat")["chat"].size() == 1);

    carol.send({{"type", "chat"}, {"room", room}, {"text", "bad\x01"}, {"ref", 3}});
    json bad = carol.until_type("error");
    CHECK(bad["code"] == "bad_chat");
    CHECK(bad["ref"] == 3);

    // A newcomer's state holds what it may read.
    Peer dan(server.port(), "Dan");
    dan.send({{"type", "join"}, {"room", room}});
    CHECK(dan.until_type("state")["chat"].size() == 2);
    p.bob.send({{"type", "join"}, {"room", room}});
    CHECK(p.bob.until_type("state")["chat"].size() == 1);
  }
  // Stored: after a restart the room shows its chat; once the game is over, all of it.
  ServerProcess again(data.path(), CINQ_WEB_DIR);
  Peer alice(again.port(), "Alice2");
  alice.send({{"type", "join"}, {"room", room}});
  json state = alice.until_type("state");  // Alice2 is a spectator here
  REQUIRE(state["chat"].size() == 2);
  CHECK(state["chat"][0]["text"] == "good luck");
  CHECK(state["chat"][1]["channel"] == "spectators");
}

TEST_CASE("links: a correspondence creator finds both links again after a reload, and in my_games") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Peer alice(server.port(), "Alice");
  alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}, {"clock", {{"days", 3}}}});
  json created = alice.until_type("state");
  const std::string room = created["room"];
  REQUIRE(created["links"].size() == 2);

  Peer again(server.port(), alice.id, alice.token);  // the page reloaded
  again.send({{"type", "join"}, {"room", room}});
  CHECK(again.until_type("state")["links"] == created["links"]);
  again.send({{"type", "my_games"}});
  json games = again.until_type("my_games")["games"];
  REQUIRE(games.size() == 1);
  CHECK(games[0]["links"] == created["links"]);

  // A spectator sees none; once Bob took the free seat with its link, Alice sees her own link only.
  Peer bob(server.port(), "Bob");
  bob.send({{"type", "join"}, {"room", room}});
  CHECK_FALSE(bob.until_type("state").contains("links"));
  std::string link1 = created["links"][1];
  bob.send({{"type", "sit"}, {"room", room}, {"seat", 1}, {"seat_token", link1.substr(link1.find("token=") + 6)}});
  bob.until_event("started");
  again.send({{"type", "my_games"}});
  CHECK(again.until_type("my_games")["games"][0]["links"] == json::array({created["links"][0], nullptr}));
  // Bob's own link is seat 1's wherever he finds it again: the list is by seat.
  Peer bob_again(server.port(), bob.id, bob.token);
  bob_again.send({{"type", "join"}, {"room", room}});
  CHECK(bob_again.until_type("state")["links"] == json::array({nullptr, link1}));
  bob_again.send({{"type", "my_games"}});
  CHECK(bob_again.until_type("my_games")["games"][0]["links"] == json::array({nullptr, link1}));
}

TEST_CASE("clocks: a live game whose first side never moves is aborted after 30 s, not charged") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Table p(server.port(), "tablut", "", {{"base_ms", 60000}, {"increment_ms", 0}});
  json state = p.alice.position;
  CHECK(state["clocks"]["running"] == nullptr);
  CHECK(state["clocks"]["first_move_ms"].get<std::int64_t>() > 25000);
  json done = p.bob.until([](const json& m) { return m.value("kind", "") == "finished"; },
                          std::chrono::seconds(40));
  CHECK(done["result"]["reason"] == "aborted");
  CHECK(done["result"]["detail"] == "no first move");
}

}  // namespace cinq::test
