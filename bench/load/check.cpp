// cinq_load_check: the load client's reading of cinq's messages, on hand-written protocol 2 (and 1)
// messages (docs/protocol.md). Built with the benchmarks, run by hand like them: build*/bench/cinq_load_check
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>

#include "bench/load/messages.h"
#include "bench/load/options.h"
#include "bench/load/scan.h"

using cinq::load::read_message;

TEST_CASE("welcome: the protocol version") {
  const auto m = read_message(
      R"({"type":"welcome","protocol":2,"player":{"id":"p3kT9","name":"Alice"},"token":"Qm2"})", 1, -1);
  CHECK(m.type == "welcome");
  CHECK(m.protocol == 2);
  CHECK_FALSE(m.turn.says);
  // A protocol 1 server says nothing of it.
  CHECK_FALSE(
      read_message(R"({"type":"welcome","player":{"id":"p","name":"A"},"token":"t"})", 1, -1).protocol);
}

TEST_CASE("v2: a play event with legal gives the move; its members may come in any order") {
  const std::string text =
      R"({"type":"event","room":"Ab3dE5fG7h","version":8,"kind":"play","seat":1,"actions":["e3 c3"],)"
      R"("patch":{"turn":3,"to_move":0,"side":"A",)"
      R"("view":{"rows":["...","..."],"legal":["not","this"]}},"legal":["e2 c2","e2 d2","d1 d2"],)"
      R"("can_end_turn":false})";
  const auto m = read_message(text, 2, 0);
  CHECK(m.type == "event");
  CHECK(m.kind == "play");
  CHECK(m.room == "Ab3dE5fG7h");
  CHECK(m.seat == 1);
  CHECK(m.turn.says);
  CHECK(m.turn.mine);
  CHECK_FALSE(m.turn.can_end);
  CHECK(cinq::load::scan::count(m.turn.legal) == 3);  // the top-level one, not the view's
  CHECK(cinq::load::scan::pick(m.turn.legal, 2, 0) == "d1 d2");

  const auto first = read_message(
      R"({"legal":["a1 a2"],"can_end_turn":true,"type":"event","kind":"play","seat":0,"room":"R",)"
      R"("patch":{"turn":4}})",
      2, 1);
  CHECK(first.turn.mine);
  CHECK(first.turn.can_end);
  CHECK(first.kind == "play");
}

TEST_CASE("v2: a patch without legal says there is nothing to play") {
  const auto m = read_message(
      R"({"type":"event","room":"R","version":9,"kind":"play","seat":0,"actions":["e2 c2"],"end_turn":true,)"
      R"("patch":{"turn":4,"to_move":1,"side":"D","clocks":null}})",
      2, 0);
  CHECK(m.turn.says);
  CHECK_FALSE(m.turn.mine);
  CHECK(m.turn.legal.empty());
  // A finished game: the patch clears to_move.
  const auto f = read_message(
      R"({"type":"event","room":"R","version":90,"kind":"finished","result":{"text":"A escape","winner":0,)"
      R"("reason":"escape","detail":""},"patch":{"status":"finished","to_move":null,"result":{"winner":0}}})",
      2, 0);
  CHECK(f.kind == "finished");
  CHECK(f.turn.says);
  CHECK_FALSE(f.turn.mine);
}

TEST_CASE("v2: events without a patch leave the move as it was") {
  for (const char* text :
       {R"({"type":"event","room":"R","version":10,"kind":"presence","seat":1,"online":false})",
        R"({"type":"event","room":"R","version":11,"kind":"spectators","count":2})",
        R"({"type":"event","room":"R","version":2,"kind":"seated","seat":1,"player":{"id":"p","name":"B"}})",
        R"({"type":"event","room":"R","version":12,"kind":"rematch_offer","seat":0})"}) {
    CAPTURE(text);
    CHECK_FALSE(read_message(text, 2, 0).turn.says);
  }
  const auto r =
      read_message(R"({"type":"event","room":"R","version":13,"kind":"rematch","rematch":"Zz9"})", 2, 0);
  CHECK(r.kind == "rematch");
  CHECK(r.rematch == "Zz9");
}

TEST_CASE("v2: a state gives the move with top-level legal, or not") {
  const std::string position =
      R"({"status":"live","turn":2,"round":1,"to_move":1,"side":"D","mid_turn":false,"clocks":null,)"
      R"("deadline_ms":null,"draw_offer":null,"result":null,"view":{"rows":["..{..}..","\"quoted\""]}})";
  const std::string head =
      R"({"type":"state","room":"Ab3dE5fG7h","version":7,"game":"tablut","options":"","clock":null,)"
      R"("private":false,"created_ms":1790000000000,"sides":["A","D"],"seats":[{"id":"p1","name":"Alice",)"
      R"("online":true},{"id":"p2","name":"Bob","online":false}],"spectators":2,"rematch_of":null,)"
      R"("rematch":null,"rematch_asked":[false,false],"record":"#! TABLUT\nA = \"Alice\"    D = Bob {\n",)"
      R"("position":)" +
      position;
  const auto mine =
      read_message(head + R"(,"legal":["e3 c3",{"prefix":"TL 45","from":0,"to":6.5,"step":0.125},)"
                          R"(["a4","b4 c4 d4"]],)"
                          R"("can_end_turn":false})",
                   2, 1);
  CHECK(mine.type == "state");
  CHECK(mine.room == "Ab3dE5fG7h");
  CHECK(mine.turn.says);
  CHECK(mine.turn.mine);
  CHECK(cinq::load::scan::count(mine.turn.legal) == 3);
  const std::string folded = cinq::load::scan::pick(mine.turn.legal, 1, 3);
  CHECK(folded == "TL 45 0.375");
  CHECK(cinq::load::scan::pick(mine.turn.legal, 2, 4) == "a4 c4");  // a group's word 4 % 3
  const auto theirs = read_message(head + "}", 2, 0);
  CHECK(theirs.turn.says);
  CHECK_FALSE(theirs.turn.mine);
}

TEST_CASE("v1: the move is read from the position") {
  const std::string event =
      R"({"type":"event","room":"R","version":8,"kind":"play","seat":1,"actions":["e3 c3"],"position":)"
      R"({"status":"live","turn":3,"to_move":0,"legal":["a1 a2","b1 b2"],"can_end_turn":false,"view":{}}})";
  const auto mine = read_message(event, 1, 0);
  CHECK(mine.turn.says);
  CHECK(mine.turn.mine);
  CHECK(cinq::load::scan::count(mine.turn.legal) == 2);
  const auto theirs = read_message(event, 1, 1);
  CHECK(theirs.turn.says);
  CHECK_FALSE(theirs.turn.mine);
  CHECK(theirs.turn.legal.empty());
  // The same message read as protocol 2 gives nobody the move: no top-level legal.
  CHECK_FALSE(read_message(event, 2, 0).turn.mine);
}

TEST_CASE("errors") {
  const auto e =
      read_message(R"({"type":"error","code":"not_your_turn","message":"x","ref":7,"room":"R"})", 2, 0);
  CHECK(e.type == "error");
  CHECK(e.code == "not_your_turn");
}

TEST_CASE("--relay-shape") {
  const auto s = cinq::load::parse_relay_shape("1.02x231,1x2400,1.5x231");
  REQUIRE(s);
  CHECK(s->frames[0] == doctest::Approx(1.02));
  CHECK(s->bytes[1] == doctest::Approx(2400));
  CHECK(s->frames[2] == doctest::Approx(1.5));
  CHECK_FALSE(cinq::load::parse_relay_shape("1x2,1x2"));
  CHECK_FALSE(cinq::load::parse_relay_shape("0x2,1x2,1x2"));
  CHECK_FALSE(cinq::load::parse_relay_shape("1x2,1x2,1x2,1x2"));
  CHECK_FALSE(cinq::load::parse_relay_shape("1x2,1y2,1x2"));
}

TEST_CASE("--placement: where a room's connections go among several URLs") {
  using cinq::load::place;
  using cinq::load::Placement;
  // same: the whole room on one URL, rooms round-robin.
  for (int peer = 0; peer < 4; ++peer) {
    CHECK(place(Placement::same, 3, 0, peer, 7) == 0);
    CHECK(place(Placement::same, 3, 4, peer, 7) == 1);
  }
  // cross: the two players always on different URLs, whatever the room.
  for (std::size_t urls = 2; urls <= 4; ++urls)
    for (std::size_t room = 0; room < 10; ++room)
      CHECK(place(Placement::cross, urls, room, 0, 0) != place(Placement::cross, urls, room, 1, 0));
  CHECK(place(Placement::cross, 3, 1, 2, 0) == 0);  // spectators on the URLs after
  // any: the draw decides.
  CHECK(place(Placement::any, 3, 0, 0, 5) == 2);
  CHECK(place(Placement::any, 3, 0, 1, 6) == 0);
}
