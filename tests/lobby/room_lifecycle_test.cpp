// A room over time: its clocks, the endings players decide (resignation, draws, aborts) and what follows
// (rematches), the numbered events a reconnecting client catches up with, and saving and restoring a room.
#include <random>
#include <vector>

#include "tests/lobby/helpers.h"

namespace cinq::lobby::test {
namespace {

using Clocks = std::array<std::int64_t, 2>;

// ---------------------------------------------------------------------------------------------------------
// Clocks

// Both sides' first moves, at time 0: from then on Alice's clock runs (a live clock starts for each side with
// its first move; room_play_test.cpp tests that).
void first_moves(Room& room) {
  play(room, {"d1 d2"}, false, at(0));
  play(room, {"e3 c3"}, false, at(0));
}

TEST_CASE("Room clocks: the running clock goes down, a finished turn adds the increment, the other starts") {
  Room room = live_room("tablut", "", live_clock(60, 2));
  first_moves(room);
  CHECK(room.clock_left(at(0)) == Clocks{60000, 60000});
  CHECK(room.clock_left(at(5000)) == Clocks{55000, 60000});
  CHECK(room.deadline() == 60000);
  json clocks = room.state_json(at(5000))["position"]["clocks"];
  CHECK(clocks == json{{"ms", {55000, 60000}}, {"running", 0}});

  json ev = parse(play(room, {"d2 d1"}, false, at(5000)).events[0]);
  CHECK(ev["patch"]["clocks"] == json{{"ms", {57000, 60000}}, {"running", 1}});
  CHECK(room.deadline() == 5000 + 60000);
  CHECK(room.clock_left(at(8000)) == Clocks{57000, 57000});

  play(room, {"c3 e3"}, false, at(8000));
  CHECK(room.clock_left(at(8000)) == Clocks{57000, 59000});
  CHECK(room.clock_left(at(9000)) == Clocks{56000, 59000});
  CHECK(room.deadline() == 8000 + 57000);
}

TEST_CASE("Room clocks: the clock runs on in the middle of a Baltek turn, the increment comes at its end") {
  Room room = live_room("baltek", "goals=2", live_clock(60, 2));
  play(room, {"@ h3", "f5 f4", "d1* f2"}, false, at(0));  // the seed game's first turns
  play(room, {"g1* f3", "@ f3", "i3 i4"}, false, at(0));
  play(room, {"d3 c3"}, false, at(10000));
  CHECK(room.clock_left(at(10000)) == Clocks{50000, 60000});
  CHECK(room.clock_left(at(15000)) == Clocks{45000, 60000});
  CHECK(room.deadline() == 60000);
  play(room, {"f4 f5"}, false, at(15000));
  CHECK(room.clock_left(at(20000)) == Clocks{40000, 60000});
  play(room, {}, true, at(20000));
  CHECK(room.clock_left(at(20000)) == Clocks{42000, 60000});
  CHECK(room.state_json(at(21000))["position"]["clocks"]["running"] == 1);
  CHECK(room.clock_left(at(21000)) == Clocks{42000, 59000});
}

TEST_CASE("Room clocks: the flag falls at the deadline, not before, and the other seat wins on time") {
  Room room = live_room("tablut", "", live_clock(60, 2));
  first_moves(room);
  Effect early = room.tick(at(59999));
  CHECK(early.events.empty());
  CHECK_FALSE(early.save);
  CHECK(room.status() == Status::live);

  Effect flag = room.tick(at(60000));
  CHECK(kinds(flag) == "finished");
  CHECK(flag.save);
  CHECK(parse(flag.events[0])["result"] ==
        json{{"text", "D time"}, {"winner", 1}, {"reason", "time"}, {"detail", ""}});
  CHECK(room.status() == Status::finished);
  CHECK(room.clock_left(at(70000)) == Clocks{0, 60000});
  CHECK(room.deadline() == std::nullopt);
  CHECK(room.record().write().ends_with("#= D time\n"));
  CHECK(room.tick(at(90000)).events.empty());  // it falls once
}

TEST_CASE("Room clocks: a move that comes after the deadline is refused, and the game ends on time") {
  Room room = live_room("tablut", "", live_clock(60, 2));
  first_moves(room);
  play(room, {"d2 d1"}, false, at(1000));
  Effect late = room.act("bob-id", {"c3 e3"}, false, at(1000 + 60000));
  CHECK(code(late) == "game_over");
  CHECK(late.error->message == "your time ran out");
  CHECK(kinds(late) == "finished");  // everyone else hears the flag fall
  CHECK(late.save);
  CHECK(room.record().result_text() == "A time");
  CHECK(room.record().turn_count() == 3);  // the late move was not played
}

TEST_CASE("Room clocks: a room without a clock has no deadline and shows no clocks") {
  Room room = live_room("tablut");
  CHECK(room.deadline() == std::nullopt);
  CHECK(room.state_json(at(0))["clock"] == nullptr);
  CHECK(room.state_json(at(0))["position"]["clocks"] == nullptr);
  CHECK(room.tick(at(1000LL * 3600 * 24 * 30)).events.empty());
}

// ---------------------------------------------------------------------------------------------------------
// Endings decided by the players

TEST_CASE("Room endings: a player resigns and the other wins") {
  Room open = open_room("tablut");
  REQUIRE(!open.sit(kAlice, 0, at(0)).error);
  CHECK(code(open.resign("alice-id", at(0))) == "not_started");

  Room room = live_room("tablut");
  play(room, "d1 d2");
  CHECK(code(room.resign("carol-id", at(0))) == "not_seated");
  Effect e = room.resign("bob-id", at(0));
  CHECK(kinds(e) == "finished");
  CHECK(e.save);
  CHECK(parse(e.events[0])["result"]["winner"] == 0);
  CHECK(room.record().result_text() == "A resign");
  CHECK(room.status() == Status::finished);
  CHECK(code(room.resign("alice-id", at(0))) == "game_over");
}

TEST_CASE("Room endings: a draw offer stands until the opponent accepts it, declines it or moves") {
  Room room = live_room("tablut");
  Effect offer = room.offer_draw("alice-id", at(0));
  CHECK(kinds(offer) == "draw_offer");
  CHECK(parse(offer.events[0])["seat"] == 0);
  CHECK(code(room.offer_draw("alice-id", at(0))) == "already_offered");
  CHECK(code(room.decline_draw("alice-id", at(0))) == "no_draw_offer");  // one's own offer
  // Her own move leaves her offer standing.
  CHECK_FALSE(parse(play(room, "d1 d2").events[0])["patch"].contains("draw_offer"));
  CHECK(room.state_json(at(0))["position"]["draw_offer"] == 0);
  // Bob answers with a move: that declines it (the patch removes the member: null).
  json answer = parse(play(room, "e3 c3").events[0])["patch"];
  CHECK((answer.contains("draw_offer") && answer["draw_offer"] == nullptr));
  CHECK(room.state_json(at(0))["position"]["draw_offer"] == nullptr);
  CHECK(code(room.decline_draw("bob-id", at(0))) == "no_draw_offer");

  REQUIRE(!room.offer_draw("alice-id", at(0)).error);
  Effect declined = room.decline_draw("bob-id", at(0));
  CHECK(kinds(declined) == "draw_declined");
  CHECK(parse(declined.events[0])["seat"] == 1);
  CHECK(room.state_json(at(0))["position"]["draw_offer"] == nullptr);

  REQUIRE(!room.offer_draw("bob-id", at(0)).error);
  CHECK(room.state_json(at(0))["position"]["draw_offer"] == 1);
  Effect agreed = room.offer_draw("alice-id", at(0));  // an offer to a standing offer accepts it
  CHECK(kinds(agreed) == "finished");
  CHECK(agreed.save);
  CHECK(parse(agreed.events[0])["result"] ==
        json{{"text", "draw agreement"}, {"winner", nullptr}, {"reason", "agreement"}, {"detail", ""}});
  CHECK(room.record().write().ends_with("#= draw agreement\n"));
  CHECK(code(room.offer_draw("bob-id", at(0))) == "game_over");
}

TEST_CASE("Room endings: a game may be aborted until both players have played") {
  Room waiting = open_room("tablut");
  REQUIRE(!waiting.sit(kAlice, 0, at(0)).error);
  CHECK(kinds(waiting.abort("alice-id", at(0))) == "finished");
  CHECK(waiting.record().result_text() == "aborted");

  Room fresh = live_room("tablut");
  CHECK(code(fresh.abort("carol-id", at(0))) == "not_seated");
  CHECK(kinds(fresh.abort("bob-id", at(0))) == "finished");

  Room one = live_room("tablut");
  play(one, "d1 d2");
  CHECK(kinds(one.abort("bob-id", at(0))) == "finished");
  CHECK(one.record().result_text() == "aborted");
  CHECK(code(one.abort("bob-id", at(0))) == "game_over");

  Room both = live_room("tablut");
  play(both, "d1 d2");
  play(both, "e3 c3");
  Effect e = both.abort("alice-id", at(0));
  CHECK(code(e) == "cannot_abort");
  CHECK(e.events.empty());
  CHECK(both.status() == Status::live);

  // Baltek: Red's open turn counts as played.
  Room baltek = live_room("baltek");
  play(baltek, {"@ d3"}, true, at(0));
  play(baltek, "h3 g3");
  CHECK(code(baltek.abort("alice-id", at(0))) == "cannot_abort");
}

// A rated room with Alice in seat 0 and Bob in seat 1 (the room checks no accounts: the server does).
// `id`: a room's (letters and digits), or a tournament game's (`TOURNAMENT-ROUND-BOARD`).
Room rated_room(ClockSpec clock = {}, const std::string& id = "room1") {
  auto room = Room::create(RoomConfig{id, find_game("tablut"), "", clock, false, "", true}, at(0));
  REQUIRE(room.ok());
  REQUIRE(!room->sit(kAlice, 0, at(0)).error);
  REQUIRE(!room->sit(kBob, 1, at(0)).error);
  return std::move(*room);
}

TEST_CASE("Room endings: a rated game resigned or lost on time before both sides played is aborted, unrated") {
  Room at_once = rated_room();
  Effect e = at_once.resign("alice-id", at(0));
  CHECK(kinds(e) == "finished");
  json result = parse(e.events[0])["result"];
  CHECK(result["reason"] == "aborted");
  CHECK(result["detail"] == Room::kTooShortToRate);
  CHECK(result["winner"].is_null());
  CHECK(!at_once.config().rated);
  CHECK(at_once.saved(at(0)).winner == -1);
  CHECK(!at_once.saved(at(0)).rated);
  CHECK(at_once.record().write().find("# too short to rate") != std::string::npos);

  Room one = rated_room();
  play(one, "d1 d2");
  CHECK(kinds(one.resign("alice-id", at(0))) == "finished");
  CHECK(one.record().result_text() == "aborted");

  // By correspondence, the side to move lets its first days run out.
  Room late = rated_room(ClockSpec{0, 0, 1});
  play(late, "d1 d2");
  CHECK(kinds(late.tick(at(Room::kDayMs + 1))) == "finished");
  CHECK(late.record().result_text() == "aborted");
  CHECK(!late.config().rated);

  // Once both have played, a resignation is one, and rated.
  Room both = rated_room();
  play(both, "d1 d2");
  play(both, "e3 c3");
  CHECK(kinds(both.resign("alice-id", at(0))) == "finished");
  CHECK(both.record().result_text().starts_with("D resign"));
  CHECK(both.config().rated);
  CHECK(both.saved(at(0)).winner == 1);

  // An unrated game resigned at once stays a resignation.
  Room casual = live_room("tablut");
  CHECK(kinds(casual.resign("alice-id", at(0))) == "finished");
  CHECK(casual.record().result_text().starts_with("D resign"));

  // A tournament's game keeps its result (its tournament counts it: the opponent wins), unrated.
  Room tournament = rated_room({}, "T1abcd-2-3");
  CHECK(kinds(tournament.resign("alice-id", at(0))) == "finished");
  CHECK(tournament.record().result_text().starts_with("D resign"));
  CHECK(!tournament.config().rated);
  CHECK(tournament.saved(at(0)).winner == 1);
  CHECK(!tournament.saved(at(0)).rated);
  CHECK(tournament.record().write().find("# too short to rate") != std::string::npos);
}

TEST_CASE("Room endings: a rematch is offered by one player and made ready by the other") {
  Room room = live_room("tablut");
  CHECK(code(room.ask_rematch("alice-id", at(0))) == "not_finished");
  REQUIRE(!room.resign("alice-id", at(0)).error);
  CHECK(code(room.ask_rematch("carol-id", at(0))) == "not_seated");

  Effect ask = room.ask_rematch("bob-id", at(0));
  CHECK(kinds(ask) == "rematch_offer");
  CHECK(parse(ask.events[0])["seat"] == 1);
  CHECK_FALSE(ask.rematch_ready);
  CHECK(code(room.ask_rematch("bob-id", at(0))) == "already_asked");
  CHECK(room.state_json(at(0))["rematch_asked"] == json::array({false, true}));

  Effect ready = room.ask_rematch("alice-id", at(0));
  CHECK(ready.rematch_ready);
  CHECK(ready.events.empty());  // the server opens the new room, then tells everyone

  Effect opened = room.rematch_opened("room-2", at(0));
  CHECK(kinds(opened) == "rematch");
  CHECK(parse(opened.events[0])["rematch"] == "room-2");
  CHECK(parse(opened.events[0])["room"] == "room-1");  // whose event it is, as for every event
  CHECK(room.state_json(at(0))["rematch"] == "room-2");
  CHECK(code(room.ask_rematch("alice-id", at(0))) == "rematch_exists");
}

// ---------------------------------------------------------------------------------------------------------
// Versions and catching up

// Appends the events of `e` to `log`.
void keep(std::vector<Message>& log, const Effect& e) {
  log.insert(log.end(), e.events.begin(), e.events.end());
}

TEST_CASE("Room versions: each event raises the version by one, a client catches up on what it missed") {
  Room room = open_room("tablut");
  std::vector<Message> log;
  CHECK(room.events_since(0) == std::vector<Message>{});
  keep(log, room.sit(kAlice, 0, at(0)));
  keep(log, room.set_online(0, true, at(0)));
  keep(log, room.set_online(0, true, at(0)));  // no change, no event
  keep(log, room.sit(kBob, 1, at(0)));
  keep(log, room.set_spectators(3, at(0)));
  keep(log, play(room, "d1 d2"));
  keep(log, room.act("alice-id", {"d2 d3"}, false, at(0)));  // refused: no event
  keep(log, room.offer_draw("bob-id", at(0)));
  keep(log, play(room, "e3 c3"));
  keep(log, room.resign("alice-id", at(0)));
  keep(log, room.ask_rematch("alice-id", at(0)));
  REQUIRE(log.size() == 10);
  CHECK(room.version() == 10);
  for (std::size_t i = 0; i < log.size(); ++i) {
    json ev = parse(log[i]);
    CHECK(ev["version"] == i + 1);
    CHECK(ev["room"] == "room-1");
    CHECK(ev["type"] == "event");
  }
  for (std::int64_t v = 0; v <= room.version(); ++v) {
    CAPTURE(v);
    auto missed = room.events_since(v);
    REQUIRE(missed);
    CHECK(*missed == std::vector<Message>(log.begin() + v, log.end()));
  }
  CHECK(room.events_since(room.version())->empty());
  CHECK(room.events_since(room.version() + 1) == std::nullopt);  // from the future: send the full state
  CHECK(room.events_since(-1) == std::nullopt);
  CHECK(room.state_json(at(0))["version"] == 10);
}

TEST_CASE("Room epochs: events and the state carry the room's epoch, and events are given only in it") {
  Room room = open_room("tablut");
  room.set_epoch(7);
  std::vector<Message> log;
  keep(log, room.sit(kAlice, 0, at(0)));
  keep(log, room.sit(kBob, 1, at(0)));
  REQUIRE(!log.empty());
  for (const Message& m : log) CHECK(parse(m)["epoch"] == 7);
  CHECK(room.state_json(at(0))["epoch"] == 7);
  CHECK(room.events_since({1, 7})->size() == log.size() - 1);
  CHECK(room.events_since({1})->size() == log.size() - 1);  // no epoch said: the room's
  // The same version in another epoch names other events: only the state can follow it.
  CHECK(room.events_since({1, 6}) == std::nullopt);
  CHECK(room.events_since({room.version(), 6}) == std::nullopt);
  // A room given a new epoch forgets the events numbered in the old one.
  room.set_epoch(8);
  CHECK(room.events_since({1, 8}) == std::nullopt);
  CHECK(room.events_since({room.version(), 8})->empty());
}

TEST_CASE("Room versions: a client too far behind gets nothing from the log and needs the full state") {
  Room room = live_room("tablut");
  for (int i = 1; i <= 300; ++i) REQUIRE(room.set_spectators(i, at(0)).events.size() == 1);
  const std::int64_t v = room.version();
  CHECK(v == 303);
  CHECK(room.events_since(v - static_cast<std::int64_t>(Room::kEventLog))->size() == Room::kEventLog);
  CHECK(parse(room.events_since(v - 1)->front())["count"] == 300);
  CHECK(room.events_since(v - static_cast<std::int64_t>(Room::kEventLog) - 1) == std::nullopt);
  CHECK(room.events_since(0) == std::nullopt);
}

// ---------------------------------------------------------------------------------------------------------
// Saving and restoring

void check_same_saved(const Saved& a, const Saved& b) {
  CHECK(a.id == b.id);
  CHECK(a.game == b.game);
  CHECK(a.options == b.options);
  CHECK(a.clock == b.clock);
  CHECK(a.is_private == b.is_private);
  CHECK(a.status == b.status);
  CHECK(a.result == b.result);
  CHECK(a.record == b.record);
  CHECK(a.seats[0].id == b.seats[0].id);
  CHECK(a.seats[1].name == b.seats[1].name);
  CHECK(a.clock_ms == b.clock_ms);
  CHECK(a.version == b.version);
  CHECK(a.turns == b.turns);
  CHECK(a.rematch_of == b.rematch_of);
  CHECK(a.created_ms == b.created_ms);
}

Room restored(const Saved& saved, Now now) {
  auto room = Room::restore(saved, now);
  REQUIRE_MESSAGE(room.ok(), (room.ok() ? "" : room.error().message));
  return std::move(*room);
}

TEST_CASE("Room saving: a restored room is the same room, its running clock resumes from the turn's start") {
  Room room = live_room("tablut", "king=unarmed", live_clock(60, 2));
  first_moves(room);
  play(room, {"d2 d1"}, false, at(10000));    // Alice: 50 s left, +2 s
  const Saved saved = room.saved(at(13000));  // Bob has thought for 3 s
  CHECK(saved.clock_ms == Clocks{52000, 60000});
  CHECK(saved.turns == 3);
  CHECK(saved.status == Status::live);

  // The server comes back 90 s later: neither Bob's 3 s nor the downtime are charged.
  Room back = restored(saved, at(100000));
  CHECK(without_clocks(back.state_json(at(100000))) == without_clocks(room.state_json(at(13000))));
  CHECK(back.clock_left(at(100000)) == Clocks{52000, 60000});
  CHECK(back.state_json(at(101000))["position"]["clocks"] == json{{"ms", {52000, 59000}}, {"running", 1}});
  CHECK(back.deadline() == 100000 + 60000);
  check_same_saved(back.saved(at(100000)), saved);
  // Play goes on, versions go on from where they were.
  json ev = parse(play(back, {"c3 e3"}, false, at(104000)).events[0]);
  CHECK(ev["version"] == saved.version + 1);
  CHECK(back.clock_left(at(104000)) == Clocks{52000, 58000});
}

TEST_CASE("Room saving: open and finished rooms come back as they were") {
  Room open = open_room("kopf-oder-knopf", "target=8");
  REQUIRE(!open.sit(kBob, 1, at(0)).error);
  Room open_back = restored(open.saved(at(0)), at(5000));
  CHECK(open_back.status() == Status::open);
  CHECK(without_clocks(open_back.state_json(at(5000))) == without_clocks(open.state_json(at(0))));
  CHECK(kinds(open_back.sit(kAlice, std::nullopt, at(5000))) == "seated started");

  Room done = live_room("tablut");
  play(done, "d1 d2");
  REQUIRE(!done.resign("bob-id", at(0)).error);
  Room done_back = restored(done.saved(at(0)), at(5000));
  CHECK(done_back.status() == Status::finished);
  CHECK(done_back.record().result_text() == "A resign");
  // The room's notes are kept in memory only: a room read back starts without them.
  json before = without_clocks(done.state_json(at(0)));
  CHECK(before.contains("notes"));
  before.erase("notes");
  CHECK(without_clocks(done_back.state_json(at(5000))) == before);
}

TEST_CASE("Room saving: a Baltek room saved in the middle of a turn comes back with the turn still open") {
  Room room = live_room("baltek", "", live_clock(60, 2));
  play(room, {"@ d3"}, false, at(1000));
  const Saved saved = room.saved(at(2000));
  // A record has no form for an open turn (a reader ends it): the saved form says so beside it, and the
  // stored record stays a record any reader takes.
  CHECK(saved.open_turn);
  CHECK(saved.record.ends_with("1   B/@ d3/\n"));
  CHECK(Record::read(saved.record).ok());
  Room back = restored(saved, at(2000));
  CHECK(back.record().state().mid_turn());
  CHECK(back.seat_to_move() == 0);
  CHECK(back.record().state().fingerprint() == room.record().state().fingerprint());
  CHECK(without_clocks(back.state_json(at(2000))) == without_clocks(room.state_json(at(2000))));
  // Blue finishes the turn it began.
  play(back, {"f3 g3"}, true, at(3000));
  play(room, {"f3 g3"}, true, at(3000));
  CHECK(back.record().write() == room.record().write());
  CHECK(back.record().write().ends_with("1   B/@ d3/f3 g3/\n"));
}

TEST_CASE("Room saving: a Kopf oder Knopf room saved between the penalty and the move comes back mid-turn") {
  std::mt19937 rng(3);
  Room room = live_room("kopf-oder-knopf", "target=14");
  std::string penalty;
  for (int i = 0; i < 2000 && penalty.empty(); ++i) {
    const State& st = room.record().state();
    for (Action a : st.legal_actions())
      if (!st.mid_turn() && !a.is_end_turn() && st.action_text(a).starts_with("- "))
        penalty = st.action_text(a);
    if (penalty.empty()) play_random_action(room, rng);
  }
  REQUIRE(!penalty.empty());
  play(room, penalty);
  REQUIRE(room.record().state().mid_turn());
  Room back = restored(room.saved(at(0)), at(0));
  CHECK(back.record().state().mid_turn());
  CHECK(back.record().state().fingerprint() == room.record().state().fingerprint());
  CHECK(without_clocks(back.state_json(at(0))) == without_clocks(room.state_json(at(0))));
  json legal = ungroup_legal(back.state_json(at(0), back.seat_to_move())["legal"]);
  REQUIRE(!legal.empty());
  play(back, legal[0].get<std::string>());
  play(room, legal[0].get<std::string>());
  CHECK(back.record().write() == room.record().write());
}

TEST_CASE("Room saving: a stored room that cannot be read is refused with a message") {
  Room room = live_room("tablut");
  Saved bad_game = room.saved(at(0));
  bad_game.game = "chess";
  CHECK(Room::restore(bad_game, at(0)).error().message == "room room-1: unknown game 'chess'");
  Saved bad_record = room.saved(at(0));
  bad_record.record += "1   A/e5 e1/\n";
  CHECK(Room::restore(bad_record, at(0)).error().message.starts_with("room room-1: stored record: line 4: "));
  Saved other = room.saved(at(0));
  other.game = "baltek";
  CHECK(Room::restore(other, at(0)).error().message == "room room-1: stored record is another game");
}

}  // namespace
}  // namespace cinq::lobby::test
