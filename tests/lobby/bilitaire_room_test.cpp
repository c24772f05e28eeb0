// Bi-litaire's own in a room: its players swap roles between the rounds while keeping their seats, and a
// tray turn left open comes back open from a save.
#include <random>

#include "tests/lobby/helpers.h"

namespace cinq::lobby::test {
namespace {

Room restored(const Saved& saved, Now now) {
  auto room = Room::restore(saved, now);
  REQUIRE_MESSAGE(room.ok(), (room.ok() ? "" : room.error().message));
  return std::move(*room);
}

TEST_CASE("Room act: in Bi-litaire's second round the seats keep their players while the roles swap") {
  std::mt19937 rng(11);
  Room room = live_room("bi-litaire", "", live_clock(600, 0));
  // Round 1: player 1 (seat 0, Alice) is the marble player and removes the first marble.
  CHECK(room.seat_to_move() == 0);
  CHECK(room.record().state().round() == 1);
  CHECK(code(room.act("bob-id", {"x d4"}, false, at(0))) == "not_your_turn");
  play(room, "x d4");
  CHECK(room.seat_to_move() == 1);  // Bob, the tray player
  while (room.record().state().round() == 1) {
    REQUIRE(room.status() == Status::live);
    play_random_action(room, rng);
    const State& st = room.record().state();
    if (st.round() == 1) CHECK(room.seat_to_move() == st.to_move());  // in round 1, seat = side
  }
  // Round 2: player 2 (seat 1, Bob) is the marble player, and the first to move; his clock runs.
  const State& st = room.record().state();
  CHECK(st.to_move() == 0);
  CHECK(room.seat_to_move() == 1);
  CHECK(mover(room) == "bob-id");
  CHECK(room.state_json(at(0))["position"]["clocks"]["running"] == 1);
  CHECK(code(room.act("alice-id", {"x d4"}, false, at(0))) == "not_your_turn");
  json ev = parse(play(room, "x d4").events[0]);
  CHECK(ev["seat"] == 1);
  CHECK(room.state_json(at(0))["position"]["round"] == 2);
  CHECK(room.seat_to_move() == 0);  // Alice, the tray player now
  CHECK(room.record().write().ends_with("\n#- 2\n1   M/x d4/\n"));
  // Play the round out: the result names the players by number, and the winner is a seat.
  while (room.status() == Status::live) {
    const State& now = room.record().state();
    CHECK(room.seat_to_move() == 1 - now.to_move());
    play_random_action(room, rng);
  }
  auto result = room.record().result();
  REQUIRE(result);
  json finished = room.state_json(at(0))["position"]["result"];
  CHECK(finished["reason"] == "score");
  CHECK(finished["text"] == room.record().result_text());
  CHECK(finished["winner"] == (result->kind == Outcome::Kind::win ? json(result->winner) : json(nullptr)));
}

TEST_CASE("Room saving: a Bi-litaire tray turn left open, second on its line, comes back open") {
  Room room = live_room("bi-litaire");
  play(room, "x d4");
  play(room, "B1 >1");  // the tray player may still announce, or end the turn
  REQUIRE(room.record().state().mid_turn());
  const Saved saved = room.saved(at(0));
  CHECK(saved.open_turn);
  CHECK(saved.record.ends_with("1   M/x d4/   T/B1 >1/\n"));
  Room back = restored(saved, at(0));
  CHECK(back.record().state().mid_turn());
  CHECK(back.seat_to_move() == 1);
  CHECK(back.record().state().fingerprint() == room.record().state().fingerprint());
  play(back, {}, true, at(0));
  play(room, {}, true, at(0));
  CHECK(back.record().write() == room.record().write());
  CHECK(back.saved(at(0)).record == room.saved(at(0)).record);  // the turn is over: no mark any more
  CHECK_FALSE(back.saved(at(0)).open_turn);
  // The older form of a saved open turn (a store of schema version 2): a last line `# turn in progress`.
  Room undo = live_room("bi-litaire");
  play(undo, "x d4");
  play(undo, "B1 >1");
  Saved older = undo.saved(at(0));
  older.record += "# turn in progress\n";
  older.open_turn = false;
  Room older_back = restored(older, at(0));
  CHECK(older_back.record().state().mid_turn());
  CHECK(older_back.record().state().fingerprint() == undo.record().state().fingerprint());
}

}  // namespace
}  // namespace cinq::lobby::test
