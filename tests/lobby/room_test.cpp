// A room as its players see it: creating it, taking seats, and playing turns of every shape the games
// have, checked by the rules and applied whole or not at all.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "tests/lobby/helpers.h"

namespace cinq::lobby::test {
namespace {

// ---------------------------------------------------------------------------------------------------------
// Creating a room

TEST_CASE("Room create: bad options are refused with a message naming the option") {
  auto bad = try_create("baltek", "goals=9");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "bad options: option goals=9 is not allowed (goals: 1..5)");
  auto unknown = try_create("tablut", "speed=fast");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().message == "bad options: unknown option 'speed' (options: first, king, throne)");
}

TEST_CASE("Room create: a room needs a game") {
  auto r = Room::create(RoomConfig{"room-1", nullptr, "", {}, false, ""}, at(0));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message == "unknown game");
}

TEST_CASE("Room create: a clock that cannot be played is refused with a message") {
  auto message = [](ClockSpec c) {
    auto r = try_create("tablut", "", c);
    return r.ok() ? std::string("accepted") : r.error().message;
  };
  CHECK(message({-1000, 0}) == "clock times cannot be negative");
  CHECK(message({60000, -1}) == "clock times cannot be negative");
  CHECK(message({0, 2000}) == "an increment needs a base time (base_ms > 0)");
  CHECK(message({5000, 0}) == "a live clock needs at least 10 s");
  CHECK(message({Room::kMaxClockMs + 1, 0}) == "clock too long: base up to 24 h, increment up to 1 h");
  CHECK(message({60000, 3600 * 1000 + 1}) == "clock too long: base up to 24 h, increment up to 1 h");
  CHECK(message({0, 0}) == "accepted");  // no clock: correspondence
  CHECK(message({10000, 0}) == "accepted");
  CHECK(message({Room::kMaxClockMs, 3600 * 1000}) == "accepted");
}

TEST_CASE("Room create: options are normalised to the canonical key=value list, in the rules' order") {
  Room room = open_room("baltek", "  turns=060   goals=03 ");
  CHECK(room.config().options == "goals=3 turns=60");
  CHECK(room.record().write().starts_with("#! BALTEK goals=3 turns=60\n"));
  CHECK(room.status() == Status::open);
  CHECK(room.version() == 0);
  CHECK(room.seat_to_move() == -1);
  CHECK(room.created_ms() == kWallStart);
  CHECK(open_room("tablut").config().options == "");
}

// ---------------------------------------------------------------------------------------------------------
// Seats

TEST_CASE("Room seats: a player sits in the seat asked for, or the first free one") {
  Room room = open_room("tablut");
  Effect bob = room.sit(kBob, 1, at(0));
  CHECK(kinds(bob) == "seated");
  CHECK(bob.save);
  json seated = parse(bob.events[0]);
  CHECK(seated["seat"] == 1);
  CHECK(seated["player"] == json{{"id", "bob-id"}, {"name", "bob"}});
  Effect alice = room.sit(kAlice, std::nullopt, at(0));
  CHECK(parse(alice.events[0])["seat"] == 0);
  CHECK(room.seat_of("alice-id") == 0);
  CHECK(room.seat_of("bob-id") == 1);
  CHECK(room.seat_of("carol-id") == -1);
}

TEST_CASE("Room seats: the same player cannot take both seats, a third player finds them taken") {
  Room room = open_room("tablut");
  REQUIRE(!room.sit(kAlice, std::nullopt, at(0)).error);
  Effect twice = room.sit(kAlice, 1, at(0));
  CHECK(code(twice) == "already_seated");
  CHECK(twice.events.empty());
  CHECK(room.seats()[1].id.empty());
  REQUIRE(!room.sit(kBob, std::nullopt, at(0)).error);
  CHECK(code(room.sit(kCarol, std::nullopt, at(0))) == "seat_taken");
  CHECK(code(room.sit(kCarol, 0, at(0))) == "seat_taken");
  CHECK(code(room.sit(kCarol, 2, at(0))) == "bad_message");
  CHECK(room.seats()[0].id == "alice-id");
  CHECK(room.seats()[1].id == "bob-id");
}

TEST_CASE("Room seats: a player without an id cannot sit (an empty id is how a free seat looks)") {
  Room room = open_room("tablut");
  CHECK(code(room.sit(Player{"", "nobody"}, 0, at(0))) == "bad_message");
  CHECK(room.version() == 0);
  CHECK(room.seats()[0].name.empty());
}

TEST_CASE("Room seats: when both are seated the game starts, and the record gets the players and the time") {
  Room room = open_room("tablut");
  REQUIRE(!room.sit(kAlice, 0, at(0)).error);
  CHECK(room.status() == Status::open);
  Effect e = room.sit(kBob, 1, at(1500));
  CHECK(kinds(e) == "seated started");
  CHECK(room.status() == Status::live);
  json started = parse(e.events[1]);
  CHECK(started["patch"]["status"] == "live");
  CHECK(started["patch"]["to_move"] == 0);
  CHECK_FALSE(started["patch"].contains("side"));  // the state's sides[to_move] says it
  CHECK_FALSE(started.contains("legal"));  // the same text for everyone: the mover's copy adds them
  CHECK(e.patched == 1);
  CHECK(e.mover == 0);
  CHECK(ungroup_legal(json::parse(with_members(*e.events[1], e.legal))["legal"]).size() == 72);
  CHECK(ungroup_legal(room.state_json(at(0), 0)["legal"]).size() == 72);
  CHECK_FALSE(room.state_json(at(0), 1).contains("legal"));  // the waiting seat
  CHECK_FALSE(room.state_json(at(0)).contains("legal"));     // a spectator
  CHECK(room.seat_to_move() == 0);
  CHECK(room.record().player('A') == "alice");
  CHECK(room.record().player('D') == "bob");
  CHECK(room.record().write() ==
        "#! TABLUT\n"
        "A = alice    D = bob\n"
        "> 2026-11-21 10:00:01\n");
}

TEST_CASE("Room seats: leaving before the start frees the seat, the last one to leave closes the room") {
  Room room = open_room("tablut");
  REQUIRE(!room.sit(kAlice, 0, at(0)).error);
  CHECK(room.leave("carol-id", at(0)).events.empty());  // not seated: nothing to leave
  Effect e = room.leave("alice-id", at(0));
  CHECK(kinds(e) == "left finished");
  CHECK(e.save);
  CHECK(parse(e.events[0])["seat"] == 0);
  CHECK(room.seats()[0].id.empty());
  CHECK(room.status() == Status::finished);
  CHECK(room.record().result_text() == "aborted");
  CHECK(parse(e.events[1])["result"] ==
        json{{"text", "aborted"}, {"winner", nullptr}, {"reason", "aborted"}, {"detail", ""}});
  CHECK(code(room.sit(kBob, std::nullopt, at(0))) == "game_over");
}

TEST_CASE("Room seats: a player who leaves a game in play keeps the seat") {
  Room room = live_room("tablut");
  Effect e = room.leave("alice-id", at(0));
  CHECK(e.events.empty());
  CHECK_FALSE(e.error);
  CHECK(room.seats()[0].id == "alice-id");
  CHECK(room.status() == Status::live);
  CHECK(!play(room, "d1 d2").error);
}

// ---------------------------------------------------------------------------------------------------------
// Acting

TEST_CASE("Room act: only the seat to move may act, in a game that is on") {
  Room room = open_room("tablut");
  REQUIRE(!room.sit(kAlice, 0, at(0)).error);
  CHECK(code(room.act("alice-id", {"d1 d2"}, false, at(0))) == "not_started");
  REQUIRE(!room.sit(kBob, 1, at(0)).error);
  CHECK(code(room.act("carol-id", {"d1 d2"}, false, at(0))) == "not_seated");
  CHECK(code(room.act("bob-id", {"e3 c3"}, false, at(0))) == "not_your_turn");
  CHECK(code(room.act("alice-id", {}, false, at(0))) == "bad_message");
  CHECK(room.version() == 3);  // two `seated`, one `started`: refusals are no events
  REQUIRE(!room.resign("bob-id", at(0)).error);
  Effect late = room.act("alice-id", {"d1 d2"}, false, at(0));
  CHECK(code(late) == "game_over");
  CHECK(late.error->message == "the game is over (A resign)");
}

TEST_CASE("Room act: a move is announced to everyone as a `play` event with the new position") {
  Room room = live_room("tablut");
  Effect e = play(room, "d1 d2");
  CHECK(e.save);
  CHECK(kinds(e) == "play");
  json ev = parse(e.events[0]);
  CHECK(ev["type"] == "event");
  CHECK(ev["room"] == "room-1");
  CHECK(ev["seat"] == 0);
  CHECK(ev["actions"] == json::array({"d1 d2"}));
  CHECK_FALSE(ev.contains("end_turn"));  // only when true
  CHECK(ev["patch"]["turn"] == 1);
  CHECK(ev["patch"]["to_move"] == 1);
  CHECK_FALSE(ev["patch"].contains("side"));
  CHECK(room.seat_to_move() == 1);
  // Spaces are folded as in a record: `d2   d1` is the move `d2 d1`.
  CHECK(parse(play(room, " e3    c3 ").events[0])["actions"] == json::array({"e3 c3"}));
}

TEST_CASE("Room act: an illegal move is refused with the rules' message and changes nothing") {
  Room room = live_room("tablut");
  play(room, "d1 d2");
  const std::string record = room.record().write();
  const std::int64_t version = room.version();
  const std::string board = R"(      a b c d e f g h i
  9   # . . A A A . . #
  8   . . . . A . . . .
  7   . . . . D . . . .
  6   A . . . D . . . A
  5   A A D D K D D A A
  4   A . . . D . . . A
  3   . . . . D . . . .
  2   . . . A A . . . .
  1   # . . . A A . . #
  D to move
)";
  CHECK(room.record().state().ascii() == board);
  for (std::string bad : {"e5 e1", "e3 e3", "d5 d9", "zz", "e3 c3 x c2"}) {
    CAPTURE(bad);
    Effect e = room.act("bob-id", {bad}, false, at(0));
    CHECK(code(e) == "illegal");
    auto rules = room.record().state().read_item(fold_spaces(bad), {});
    CHECK(e.error->message == (rules.ok() ? "'" + bad + "' is not legal now" : rules.error().message));
    CHECK(e.events.empty());
    CHECK_FALSE(e.save);
    CHECK(room.version() == version);
    CHECK(room.record().write() == record);
    CHECK(room.record().state().ascii() == board);
  }
  CHECK(room.act("bob-id", {"e5 e1"}, false, at(0)).error->message == "e5 e1: the path is blocked at e4");
  CHECK(room.act("bob-id", {"e3 c3 x c2"}, false, at(0)).error->message ==
        "'e3 c3 x c2': the move captures nothing (write e3 c3)");
  CHECK(room.act("bob-id", {"zz"}, false, at(0)).error->message ==
        "'zz' is not a move: write the from and to squares, as in e2 a2");
}

TEST_CASE("Room act: a message of several items is played whole or not at all") {
  Room room = live_room("baltek");
  const std::string record = room.record().write();
  const std::string fingerprint = room.record().state().fingerprint();
  Effect e = room.act("alice-id", {"@ d3", "f3 g3", "k3 k4"}, true, at(0));
  CHECK(code(e) == "illegal");
  CHECK(e.events.empty());
  CHECK(room.version() == 3);
  CHECK(room.record().write() == record);
  CHECK(room.record().state().fingerprint() == fingerprint);
  CHECK_FALSE(room.record().state().mid_turn());
  // A turn that is over takes no more items: the second Tablut move is refused, and the first with it.
  Room tablut = live_room("tablut");
  Effect two = tablut.act("alice-id", {"d1 d2", "d2 d3"}, false, at(0));
  CHECK(code(two) == "illegal");
  CHECK(two.error->message == "'d2 d3': your turn is already over");
  CHECK(tablut.record().turn_count() == 0);
}

TEST_CASE("Room act: a Baltek turn sent action by action is the same turn as sent in one message") {
  Room by_action = live_room("baltek");
  Room at_once = live_room("baltek");

  json first = parse(play(by_action, "@ d3").events[0]);
  CHECK(first["actions"] == json::array({"@ d3"}));
  CHECK_FALSE(first.contains("end_turn"));
  CHECK(first["patch"]["mid_turn"] == true);
  CHECK(by_action.state_json(at(0), 0)["can_end_turn"] == true);
  CHECK(by_action.seat_to_move() == 0);
  CHECK_FALSE(parse(play(by_action, "f3 g3").events[0])["patch"].contains("mid_turn"));  // it goes on
  // The other player cannot act in the middle of Blue's turn.
  CHECK(code(by_action.act("bob-id", {"h3 g3"}, false, at(0))) == "not_your_turn");
  json end = parse(play(by_action, {}, true, at(0)).events[0]);
  CHECK(end["actions"] == json::array());
  CHECK(end["end_turn"] == true);
  CHECK(end["patch"]["mid_turn"] == false);  // the turn is over
  CHECK(by_action.seat_to_move() == 1);

  json whole = parse(play(at_once, {"@ d3", "f3 g3"}, true, at(0)).events[0]);
  CHECK(whole["actions"] == json::array({"@ d3", "f3 g3"}));
  CHECK(whole["patch"]["turn"] == 1);
  CHECK(at_once.record().write() == by_action.record().write());
  CHECK(at_once.record().state().fingerprint() == by_action.record().state().fingerprint());
  CHECK(at_once.record().write().ends_with("1   B/@ d3/f3 g3/\n"));
}

TEST_CASE("Room act: the seed's Baltek game, turn by turn, ends where the rules say") {
  Room room = live_room("baltek");
  play(room, {"@ d3", "f3 g3", "d1 e1"}, false, at(0));  // three points spent: the turn ends by itself
  CHECK(room.seat_to_move() == 1);
  play(room, {"h3 g3", "g5 f5", "i3 h3"}, false, at(0));
  play(room, {"e1 e2"}, false, at(0));  // then the rest of the turn, one action at a time
  play(room, "d5 e4");
  play(room, "f5 g4");
  play(room, {"f5 e4", "g1 f1", "i1 h2"}, true, at(0));  // end_turn after a turn that ended is ignored
  play(room, {"@ e4", "@+ g4"}, false, at(0));
  play(room, {"g3 g4", "i5 i4", "@ i4"}, false, at(0));
  // baltek.md's check case: Blue 1 on d3 e2 e4, 2 on f1 g4, 3 on g3; Red 1 on h2 h3 i4, 2 on e4 f1, 3 on g4.
  CHECK(room.record().state().ascii() == R"(      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... ... ... ... ... ... ... ... ...
  4       ... ... ... 12. ... 23. ... .1o ... ...
  3   #   ... ... 1.. ... ... 3.. .1. ... ... ... #
  2       ... ... ... 1.. ... ... .1. ... ... ...
  1       ... ... ... ... 22. ... ... ... ... ...
)");
  const std::string seed_turns =
      "1   B/@ d3/f3 g3/d1 e1/    R/h3 g3/g5 f5/i3 h3/\n"
      "2   B/e1 e2/d5 e4/f5 g4/   R/f5 e4/g1 f1/i1 h2/\n"
      "3   B/@ e4/@+ g4/          R/g3 g4/i5 i4/@ i4/\n";
  CHECK(room.record().write().ends_with(seed_turns));
}

// Plays random actions until the side to move, at the start of its turn, has a move that strikes: returns
// that move's record items (the strike annotation, then the move).
std::vector<std::string> play_to_a_strike(Room& room, std::mt19937& rng) {
  for (int i = 0; i < 2000 && room.status() == Status::live; ++i) {
    const State& st = room.record().state();
    if (!st.mid_turn())
      for (Action a : st.legal_actions())
        if (!a.is_end_turn() && st.action_text(a) != "pass" && !st.action_text(a).starts_with("- ")) {
          std::vector<std::string> items = st.record_items(a);
          if (items.size() == 2 && items[0].starts_with("x ")) return items;
        }
    play_random_action(room, rng);
  }
  FAIL("no strike in 2000 random actions");
  return {};
}

TEST_CASE("Room act: Kopf oder Knopf's strike annotation may be given or left out, a wrong one is refused") {
  std::mt19937 rng(7);
  Room with = live_room("kopf-oder-knopf", "target=14", live_clock(60, 2));
  std::vector<std::string> items = play_to_a_strike(with, rng);
  Room without = with;
  Room wrong = with;
  const std::string strike = items[0], move = items[1];
  CAPTURE(strike);
  CAPTURE(move);

  json played = parse(play(with, {strike, move}, false, at(0)).events[0]);
  CHECK(played["actions"] == json::array({move}));  // the strike is checked, not played
  CHECK(played["patch"].contains("turn"));
  play(without, {move}, false, at(0));
  CHECK(with.record().write() == without.record().write());
  CHECK(with.record().write().ends_with("/" + strike + "/" + move + "/\n"));

  const std::string record = wrong.record().write();
  Effect e = wrong.act(mover(wrong), {"x j10", move}, false, at(0));
  CHECK(code(e) == "illegal");
  CHECK(e.error->message == "x j10: j10 is not struck (the strike takes " + strike.substr(2) + ")");
  CHECK(code(wrong.act(mover(wrong), {strike, strike, move}, false, at(0))) == "illegal");  // written once
  // The annotation alone plays nothing: it is refused, and neither the turn nor the clock moves on.
  const auto clocks = wrong.clock_left(at(0));
  Effect alone = wrong.act(mover(wrong), {strike}, false, at(0));
  CHECK(code(alone) == "illegal");
  CHECK(alone.error->message == "nothing to play: an annotation needs the action that follows it");
  CHECK(alone.events.empty());
  CHECK(wrong.record().write() == record);
  CHECK(wrong.clock_left(at(0)) == clocks);
}

// Kopf oder Knopf (tests/data/kopf/penalty-strike-win.txt): Blue's last penalty makes a strike that reaches
// the target, so the game ends with the strike and the turn is written `B/- g4/x h5 i4 i10/`.
constexpr std::string_view kPenaltyStrikeWin = R"(#! KOPF-ODER-KNOPF target=8
1   R/b7 d7/        B/h2 g1/
2   R/h9 i10/       B/b4 d4/
3   R/c2 c1/        B/g1 h1/
4   R/i6 f3/        B/- g2/i9 h9/
5   R/f3 e4/        B/x f9/d2 b4/
6   R/i2 i1/        B/b8 b7/
7   R/e4 g4/        B/x b5 b9/i3 h2/
8   R/i8 i9/        B/x i9/i5 i8/
9   R/- h9/e2 h5/
)";

// A room where the turns of `record` were sent, one message per turn.
Room room_after(std::string_view game, std::string_view options, std::string_view record) {
  Room room = live_room(game, options);
  auto lines = parse_lines(record);
  REQUIRE(lines.ok());
  for (const Entry& line : *lines)
    for (const TurnText& turn : line.turns) play(room, turn.items, false, at(0));
  return room;
}

TEST_CASE("Room act: a strike annotation may follow a penalty whose strike ended the game, as in a record") {
  Room with = room_after("kopf-oder-knopf", "target=8", kPenaltyStrikeWin);
  Room without = with;
  CHECK(kinds(play(with, {"- g4", "x h5 i4 i10"}, false, at(0))) == "play finished");
  CHECK(with.record().result_text() == "B score 1-9");
  CHECK(kinds(play(without, {"- g4"}, false, at(0))) == "play finished");
  CHECK(without.record().write() == with.record().write());
  CHECK(with.record().write().ends_with("9   R/- h9/e2 h5/   B/- g4/x h5 i4 i10/\n#= B score 1-9\n"));
  // Nothing else may follow, and the strike is written once.
  Room more = room_after("kopf-oder-knopf", "target=8", kPenaltyStrikeWin);
  CHECK(code(more.act("bob-id", {"- g4", "x h5 i4 i10", "x h5 i4 i10"}, false, at(0))) == "illegal");
  CHECK(code(more.act("bob-id", {"- g4", "x h5 i4 i10", "b7 b8"}, false, at(0))) == "illegal");
  CHECK(code(more.act("bob-id", {"- g4", "x h5"}, false, at(0))) == "illegal");
  // Unchanged: Red's group g4 h5 i4 invites the penalty; Blue has struck 5 buttons of the 8 it needs.
  CHECK(more.record().state().ascii() == R"(     a b c d e f g h i j        a b c d e f g h i j  (holes)
10   . . . . . . . . R .   10   2 3 1 4 2 2 4 1 3 2
 9   . . B R B . B . . .    9   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . B .    8   1 4 2 3 1 1 3 2 4 1
 7   . B . R . . . . B .    7   4 2 3 1 4 4 1 3 2 4
 6   . B . . . . . . . .    6   2 3 1 4 2 2 4 1 3 2
 5   . . . . . . . R . .    5   2 3 1 4 2 2 4 1 3 2
 4   . B . B . . R . R .    4   4 2 3 1 4 4 1 3 2 4
 3   . R . . . . . . . .    3   1 4 2 3 1 1 3 2 4 1
 2   . B . . . B . B . .    2   3 1 4 2 3 3 2 4 1 3
 1   . . R . . . . B R .    1   2 3 1 4 2 2 4 1 3 2
     a b c d e f g h i j        a b c d e f g h i j
removed: Red 1, Blue 5 (target 8)
Blue to move
)");
}

TEST_CASE("Room act: a Tablut game played to its end announces the result, and the saved record keeps it") {
  std::mt19937 rng(2026);
  Room room = live_room("tablut");
  Effect last;
  for (int i = 0; i < 5000 && room.status() == Status::live; ++i) {
    // The texts come from what the room sends its clients: the position's legal list.
    json legal = ungroup_legal(room.state_json(at(0), room.seat_to_move())["legal"]);
    REQUIRE(!legal.empty());
    last = play(room, legal[rng() % legal.size()].get<std::string>());
  }
  REQUIRE(room.status() == Status::finished);
  CHECK(kinds(last) == "play finished");
  const std::string result = room.record().result_text();
  CAPTURE(result);
  json finished = parse(last.events[1]);
  CHECK(finished["result"]["text"] == result);
  json position = room.state_json(at(0))["position"];
  CHECK(position["status"] == "finished");
  CHECK(position["to_move"] == nullptr);
  CHECK(last.mover == -1);
  CHECK_FALSE(room.state_json(at(0), 0).contains("legal"));
  CHECK_FALSE(room.state_json(at(0), 1).contains("legal"));
  CHECK(room.seat_to_move() == -1);
  CHECK(room.record().write().ends_with("#= " + result + "\n"));
  Saved saved = room.saved(at(0));
  CHECK(saved.status == Status::finished);
  CHECK(saved.result == result);
  auto back = Record::read(saved.record);
  REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().text()));
  CHECK(back->result_text() == result);
  CHECK(back->state().fingerprint() == room.record().state().fingerprint());
  CHECK(code(room.act("alice-id", {"d1 d2"}, false, at(0))) == "game_over");
  CHECK(code(room.act("bob-id", {"e3 c3"}, false, at(0))) == "game_over");
}

}  // namespace
}  // namespace cinq::lobby::test
