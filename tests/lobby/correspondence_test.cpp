// Correspondence rooms as pure logic: days-per-turn clocks on wall time, seat tokens, logs sent by mail,
// and imported records. Time is injected (helpers.h: at()), so days pass in an instant.
#include <doctest/doctest.h>

#include <cctype>

#include "tests/lobby/helpers.h"

namespace cinq::lobby::test {
namespace {

constexpr std::int64_t kDay = Room::kDayMs;

ClockSpec days(std::int64_t n) { return ClockSpec{0, 0, n}; }

// A Tablut correspondence room, Alice (A, seat 0) and Bob (D, seat 1) seated at time 0, seat tokens set.
Room mail_room(std::int64_t n = 3) {
  Room room = live_room("tablut", "", days(n));
  room.set_seat_token_hash(0, "hash-0");
  room.set_seat_token_hash(1, "hash-1");
  return room;
}

// The room's log with a turn appended: `2   A/i6 g6/` on a line of its own, `D/e3 a3/` after the last line's.
std::string with(const Room& room, const std::string& turn) {
  std::string log = room.record().write();
  if (std::isdigit(static_cast<unsigned char>(turn[0]))) return log + turn + "\n";
  log.pop_back();
  return log + "   " + turn + "\n";
}

}  // namespace

TEST_CASE(
    "Correspondence clock: N days per turn with N in 1, 2, 3, 5, 7, 14, no base time or increment with it") {
  for (std::int64_t n : {1, 2, 3, 5, 7, 14}) CHECK(try_create("tablut", "", days(n)).ok());
  for (std::int64_t n : {-1, 4, 6, 15, 30}) {
    auto room = try_create("tablut", "", days(n));
    REQUIRE_FALSE(room.ok());
    CHECK(room.error().message.find("1, 2, 3, 5, 7 or 14") != std::string::npos);
  }
  CHECK_FALSE(try_create("tablut", "", ClockSpec{60000, 0, 3}).ok());
  CHECK_FALSE(try_create("tablut", "", ClockSpec{0, 1000, 3}).ok());
}

TEST_CASE("Correspondence clock: the side to move has N days of wall time from the start of its turn") {
  Room room = mail_room(3);
  CHECK_FALSE(room.deadline().has_value());  // no live clock runs
  REQUIRE(room.wall_deadline().has_value());
  CHECK(*room.wall_deadline() == kWallStart + 3 * kDay);
  json state = json::parse(room.state_message(at(0)));
  CHECK(state["clock"] == json{{"days", 3}});
  CHECK(state["position"]["deadline_ms"] == kWallStart + 3 * kDay);
  CHECK(state["position"]["clocks"].is_null());

  // Alice takes two days; Bob's deadline is three days from her move.
  play(room, "e8 i8", at(2 * kDay));
  CHECK(*room.wall_deadline() == kWallStart + 5 * kDay);
  CHECK(room.summary(at(2 * kDay)).to_json()["deadline_ms"] == kWallStart + 5 * kDay);
}

TEST_CASE(
    "Correspondence clock: a missed deadline ends the game on time for the other side, not a moment before") {
  Room room = mail_room(1);
  play(room, "e8 i8", at(1000));  // Bob (D) must move by one day after this
  CHECK(room.tick(at(1000 + kDay - 1)).events.empty());
  CHECK(room.status() == Status::live);
  Effect e = room.tick(at(1000 + kDay));
  CHECK(kinds(e) == "finished");
  CHECK(e.save);
  CHECK(room.record().result_text() == "A time");
  CHECK(parse(e.events.back())["result"]["winner"] == 0);
  CHECK_FALSE(room.wall_deadline().has_value());
  CHECK(room.record().write().find("#= A time") != std::string::npos);
}

TEST_CASE("Correspondence clock: a move after the deadline is refused and the game ends on time") {
  Room room = mail_room(1);
  Effect e = room.act(kAlice.id, {"e8 i8"}, false, at(kDay + 5));
  CHECK(code(e) == "game_over");
  CHECK(kinds(e) == "finished");
  CHECK(room.record().result_text() == "D time");
}

TEST_CASE(
    "Correspondence clock: the deadline is saved as wall time, restored after it passed, the game ends at "
    "the first tick") {
  Room room = mail_room(2);
  play(room, "e8 i8", at(1000));
  Saved saved = room.saved(at(1000));
  CHECK(saved.deadline_ms == kWallStart + 1000 + 2 * kDay);
  CHECK(saved.seat_token_hashes == std::array<std::string, 2>{"hash-0", "hash-1"});

  // The server comes back a day later (its steady clock started again at 0): the deadline has not moved.
  auto back = Room::restore(saved, Now{0, kWallStart + kDay});
  REQUIRE(back.ok());
  CHECK(*back->wall_deadline() == kWallStart + 1000 + 2 * kDay);
  CHECK(back->seat_token_hash(1) == "hash-1");
  CHECK(back->tick(Now{5, kWallStart + kDay}).events.empty());

  // Three days later: the deadline went by while the server was down.
  auto late = Room::restore(saved, Now{0, kWallStart + 3 * kDay});
  REQUIRE(late.ok());
  CHECK(kinds(late->tick(Now{0, kWallStart + 3 * kDay})) == "finished");
  CHECK(late->record().result_text() == "A time");
}

TEST_CASE(
    "Correspondence seats: a seat token moves the seat to another player id, a wrong token is refused") {
  Room room = mail_room();
  CHECK(code(room.claim_seat(kCarol, 1, "hash-0", at(0))) == "bad_token");
  CHECK(code(room.claim_seat(kCarol, 1, "", at(0))) == "bad_token");
  CHECK(code(room.claim_seat(kAlice, 1, "hash-1", at(0))) == "already_seated");
  Player bob_elsewhere{"bob-laptop", "bob"};
  // A guest's seat moves only when asked to (the client asks its player first).
  CHECK(code(room.claim_seat(bob_elsewhere, 1, "hash-1", at(0))) == "seat_held");
  CHECK(room.seats()[1].id == kBob.id);
  Effect e = room.claim_seat(bob_elsewhere, 1, "hash-1", at(0), {true, ""});
  CHECK(code(e) == "");
  CHECK(kinds(e) == "seated");
  CHECK(room.seats()[1].id == "bob-laptop");
  CHECK(room.seat_of(kBob.id) == -1);
  CHECK(room.claim_seat(bob_elsewhere, 1, "hash-1", at(0)).events.empty());  // already there: nothing
  CHECK(room.status() == Status::live);
}

TEST_CASE(
    "Correspondence by mail: the log with the sender's new turn appended plays it, the same log again "
    "changes nothing") {
  Room room = mail_room();
  std::string log = with(room, "1   A/e8 i8/");
  Effect e = room.play_log(0, log, at(1000));
  REQUIRE_MESSAGE(!e.error, (e.error ? e.error->message : ""));
  CHECK(kinds(e) == "play");
  CHECK(e.save);
  CHECK(room.record().turn_count() == 1);
  const std::int64_t version = room.version();
  Effect again = room.play_log(0, log, at(2000));
  CHECK_FALSE(again.error);
  CHECK(again.events.empty());
  CHECK_FALSE(again.save);
  CHECK(room.version() == version);
}

TEST_CASE(
    "Correspondence by mail: comments, timestamps, spacing and optional annotations may differ from the "
    "stored log") {
  Room room = mail_room();
  REQUIRE(!room.play_log(0, with(room, "1   A/e8 i8/"), at(0)).error);
  REQUIRE(!room.play_log(1, with(room, "D/e3 a3/"), at(0)).error);
  REQUIRE(!room.play_log(0, with(room, "2 A/i6 g6/"), at(0)).error);
  REQUIRE(!room.play_log(1, with(room, "D/d5 d7/"), at(0)).error);
  std::string log =
      "#! TABLUT\n# Bob, my dear: here is my move.\n> 2026-11-22 08:00:00\n"
      "1 A/e8   i8/ D/e3 a3/\n2   A/i6 g6/   D/d5 d7/\n3   A/d1 d5/\n";
  Effect e = room.play_log(0, log, at(0));
  REQUIRE_MESSAGE(!e.error, (e.error ? e.error->message : ""));
  CHECK(room.record().write().find("A/d1 d5 x c5/") !=
        std::string::npos);  // the canonical text, with its capture
}

TEST_CASE("Correspondence by mail: refusals name the line and the reason, and change nothing") {
  Room room = mail_room();
  REQUIRE(!room.play_log(0, with(room, "1   A/e8 i8/"), at(0)).error);
  REQUIRE(!room.play_log(1, with(room, "D/e3 a3/"), at(0)).error);
  const std::string stored = room.record().write();
  const std::int64_t version = room.version();
  auto refused = [&](int seat, const std::string& log, const std::string& expected_code, int expected_line) {
    Effect e = room.play_log(seat, log, at(0));
    REQUIRE(e.error);
    CHECK(e.error->code == expected_code);
    CHECK(e.error->line == expected_line);
    CHECK(e.events.empty());
    CHECK(room.record().write() == stored);
    CHECK(room.version() == version);
    return e.error->message;
  };
  std::string header = "#! TABLUT\n";
  // Turn 2 rewritten (D/e3 b3/ instead of D/e3 a3/) under a new turn 3.
  CHECK(refused(0, header + "1   A/e8 i8/   D/e3 b3/\n2   A/d1 d4/\n", "differs", 2) ==
        "line 2: turn 2 differs from the stored game: D/e3 b3/ was sent, the game has D/e3 a3/");
  // Alice plays her turn and Bob's.
  CHECK(refused(0, header + "1   A/e8 i8/   D/e3 a3/\n2   A/i6 g6/   D/d5 d7/\n", "other_side", 3)
            .find("plays for the other side") != std::string::npos);
  // Bob, out of turn, sends a turn for Alice.
  CHECK(refused(1, header + "1   A/e8 i8/   D/e3 a3/\n2   A/i6 g6/\n", "not_your_turn", 3)
            .find("it is not your turn") != std::string::npos);
  // An illegal move: the record itself is wrong.
  refused(0, header + "1   A/e8 i8/   D/e3 a3/\n2   A/e8 e5/\n", "bad_record", 3);
  // A log that stops before the stored game does.
  refused(0, header + "1   A/e8 i8/\n", "stale", 2);
  // Another game.
  refused(0, "#! BALTEK\n", "other_game", 1);
}

TEST_CASE(
    "Correspondence by mail: a finished game takes no new turn, but the same log is answered as before") {
  Room room = mail_room();
  REQUIRE(!room.play_log(0, with(room, "1   A/e8 i8/"), at(0)).error);
  REQUIRE(!room.resign(kBob.id, at(0)).error);
  const std::string stored = room.record().write();
  CHECK(code(room.play_log(1, stored + "D/e3 a3/\n", at(0))) == "game_over");
  CHECK(code(room.play_log(1, "#! TABLUT\n1   A/e8 i8/   D/e3 a3/\n", at(0))) == "game_over");
  CHECK_FALSE(room.play_log(0, stored, at(0)).error);
  CHECK(room.record().write() == stored);
}

TEST_CASE(
    "Correspondence import: a finished record is a finished room, an unfinished one plays on, `...` is "
    "refused") {
  auto finished = Record::read("#! TABLUT\n1   A/e8 i8/\n#= D resign\n");
  REQUIRE(finished.ok());
  auto shown = Room::from_record("imp-1", *finished, 3, false, at(0));
  REQUIRE(shown.ok());
  CHECK(shown->status() == Status::finished);
  CHECK(shown->record().result_text() == "D resign");

  auto unfinished = Record::read("#! TABLUT\nA = ann    D = dan\n1   A/e8 i8/\n");
  REQUIRE(unfinished.ok());
  auto room = Room::from_record("imp-2", *unfinished, 5, true, at(0));
  REQUIRE(room.ok());
  CHECK(room->status() == Status::live);
  CHECK(room->config().clock.days == 5);
  CHECK(room->config().is_private);
  CHECK(room->seat_to_move() == 1);
  CHECK(*room->wall_deadline() == kWallStart + 5 * kDay);
  CHECK(code(room->sit(kCarol, 1, at(0))) == "bad_token");  // a game under way: its link is needed

  auto cut = Record::read("#! TABLUT\n1   A/e8 i8/   ...\n");
  if (cut.ok()) CHECK_FALSE(Room::from_record("imp-3", *cut, 3, false, at(0)).ok());
  CHECK_FALSE(Room::from_record("imp-4", *unfinished, 4, false, at(0)).ok());
}

}  // namespace cinq::lobby::test
