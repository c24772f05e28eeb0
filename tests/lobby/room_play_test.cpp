// What playing in a room feels like: a turn tried before it is sent, takebacks by agreement, the
// room's chat, the first move before a live clock starts, and a correspondence room's links shown again.
#include <doctest/doctest.h>

#include "tests/lobby/helpers.h"

namespace cinq::lobby::test {
namespace {

using Clocks = std::array<std::int64_t, 2>;

// The members of a `tried` answer, as JSON.
json tried(const Room::Tried& t) {
  REQUIRE_MESSAGE(!t.error, (t.error ? t.error->code + ": " + t.error->message : ""));
  return json::parse("{" + t.members + "}");
}

TEST_CASE("Room try: a Baltek turn is composed step by step, the room does not change and nobody is told") {
  Room room = live_room("baltek");
  const std::string before = room.record().write();
  const std::int64_t version = room.version();

  json none = tried(room.try_turn("alice-id", {}, false, at(0)));
  CHECK(none["actions"] == json::array());
  CHECK(none["position"]["mid_turn"] == false);
  CHECK(none["position"] == room.state_json(at(0))["position"]);

  json one = tried(room.try_turn("alice-id", {"@ d3"}, false, at(0)));
  CHECK(one["actions"] == json::array({"@ d3"}));
  CHECK(one["position"]["mid_turn"] == true);
  CHECK(one["position"]["to_move"] == 0);
  CHECK(one["can_end_turn"] == true);
  CHECK_FALSE(one["legal"].empty());
  // The ball is where the tried action put it, in the position the sender alone receives.
  CHECK(one["position"]["view"] != room.state_json(at(0))["position"]["view"]);

  json ended = tried(room.try_turn("alice-id", {"@ d3", "f3 g3"}, true, at(0)));
  CHECK(ended["position"]["to_move"] == 1);
  CHECK(ended["position"]["turn"] == 1);
  CHECK(ended["legal"] == json::array());  // the other seat's turn: nothing for the sender to add

  CHECK(room.record().write() == before);
  CHECK(room.version() == version);
  CHECK(room.seat_to_move() == 0);
  CHECK_FALSE(room.record().state().mid_turn());
  // And the turn tried is the turn played.
  Effect e = play(room, {"@ d3", "f3 g3"}, true, at(0));
  CHECK(room.state_json(at(0))["position"]["view"] == ended["position"]["view"]);
}

TEST_CASE("Room try: refused as act is: not your turn, not seated, illegal with the rules' reason") {
  Room room = live_room("tablut");
  CHECK(room.try_turn("bob-id", {"e3 c3"}, false, at(0)).error->code == "not_your_turn");
  CHECK(room.try_turn("carol-id", {"d1 d2"}, false, at(0)).error->code == "not_seated");
  auto bad = room.try_turn("alice-id", {"e2 e9"}, false, at(0));
  REQUIRE(bad.error);
  CHECK(bad.error->code == "illegal");
  CHECK(bad.error->message.find("e2 e9") != std::string::npos);
  // A Tablut move ends the turn: the tried position is the opponent's turn.
  json moved = tried(room.try_turn("alice-id", {"d1 d2"}, false, at(0)));
  CHECK(moved["position"]["to_move"] == 1);
  CHECK(moved["legal"] == json::array());
}

TEST_CASE("Room takeback: asked by the player of the last turn, accepted by the opponent, the turn is gone") {
  Room room = live_room("tablut");
  play(room, "d1 d2");
  const std::string after_first = room.record().write();
  play(room, "e3 c3");
  const std::string fingerprint_before = room.record().state().fingerprint();
  play(room, "d2 d1");  // Alice's second turn
  // Only Alice may ask: the last turn is hers.
  CHECK(code(room.take_back("bob-id", at(0))) == "cannot_take_back");
  Effect ask = room.take_back("alice-id", at(0));
  CHECK(kinds(ask) == "takeback_offer");
  CHECK(parse(ask.events[0])["patch"]["takeback_offer"] == 0);
  CHECK(code(room.take_back("alice-id", at(0))) == "already_offered");

  Effect done = room.take_back("bob-id", at(0));  // Bob accepts
  REQUIRE_FALSE(done.error);
  CHECK(done.save);
  CHECK(kinds(done) == "takeback");
  json ev = parse(done.events[0]);
  CHECK(ev["seat"] == 0);
  CHECK(ev["patch"]["turn"] == 2);
  CHECK(ev["patch"]["to_move"] == 0);
  CHECK(ev["patch"]["takeback_offer"] == nullptr);  // the request is gone
  CHECK(room.record().state().fingerprint() == fingerprint_before);
  CHECK(room.record().turn_count() == 2);
  CHECK(room.record().write().ends_with("1   A/d1 d2/   D/e3 c3/\n"));
  CHECK(room.seat_to_move() == 0);
  (void)after_first;

  // The save rewrites the record's entries from the one taken back: what it stores reads as the room.
  RoomSave save = room.take_save(at(0));
  CHECK(save.saved.turns == 2);
}

TEST_CASE("Room takeback: refused once the opponent plays on, declined, never in correspondence or with a bot") {
  Room room = live_room("tablut");
  play(room, "d1 d2");
  REQUIRE_FALSE(room.take_back("alice-id", at(0)).error);
  play(room, "e3 c3");  // Bob plays instead of answering: the request is gone
  CHECK(room.state_json(at(0))["position"]["takeback_offer"] == nullptr);
  CHECK(code(room.take_back("alice-id", at(0))) == "cannot_take_back");
  CHECK(code(room.decline_takeback("alice-id", at(0))) == "no_takeback_offer");

  REQUIRE_FALSE(room.take_back("bob-id", at(0)).error);
  Effect no = room.decline_takeback("alice-id", at(0));
  CHECK(kinds(no) == "takeback_declined");
  CHECK(room.record().turn_count() == 2);

  Room mail = live_room("tablut", "", ClockSpec{0, 0, 3});
  play(mail, "d1 d2");
  Effect refused = mail.take_back("alice-id", at(0));
  CHECK(code(refused) == "cannot_take_back");
  CHECK(refused.error->message.find("correspondence") != std::string::npos);

  Room bot = open_room("tablut");
  REQUIRE(!bot.sit(kAlice, 0, at(0)).error);
  REQUIRE(!bot.sit(Player{"bot:1", "Computer (level 1)"}, 1, at(0)).error);
  REQUIRE_FALSE(bot.act("alice-id", {"d1 d2"}, false, at(0)).error);
  CHECK(code(bot.take_back("alice-id", at(0))) == "cannot_take_back");
}

TEST_CASE("Room takeback: the opponent's time runs until it accepts, then the clock of the taker runs") {
  Room room = live_room("tablut", "", live_clock(60, 2));
  play(room, "d1 d2", at(1000));  // the first moves are not on the clock
  play(room, "e3 c3", at(2000));
  play(room, "d2 d1", at(5000));  // Alice: 3 s charged, 2 s added
  CHECK(room.clock_left(at(5000)) == Clocks{59000, 60000});
  REQUIRE_FALSE(room.take_back("alice-id", at(6000)).error);
  REQUIRE_FALSE(room.take_back("bob-id", at(7000)).error);  // Bob's 2 s are his
  CHECK(room.seat_to_move() == 0);
  CHECK(room.state_json(at(7000))["position"]["clocks"] == json{{"ms", {59000, 58000}}, {"running", 0}});
  CHECK(room.clock_left(at(8000)) == Clocks{58000, 58000});
}

TEST_CASE("Room clocks: a live clock starts for each side with its first move, 30 s without it aborts") {
  Room room = live_room("tablut", "", live_clock(60, 2));
  json clocks = room.state_json(at(5000))["position"]["clocks"];
  CHECK(clocks == json{{"ms", {60000, 60000}}, {"running", nullptr}, {"first_move_ms", 25000}});
  CHECK(room.deadline() == std::optional<std::int64_t>(Room::kFirstMoveMs));
  play(room, "d1 d2", at(10000));  // Alice's first move: no time charged, no increment
  CHECK(room.clock_left(at(10000)) == Clocks{60000, 60000});
  clocks = room.state_json(at(12000))["position"]["clocks"];
  CHECK(clocks == json{{"ms", {60000, 60000}}, {"running", nullptr}, {"first_move_ms", 28000}});
  json ev = parse(play(room, "e3 c3", at(20000)).events[0]);  // Bob's: now Alice's clock runs
  // The patch sends the clocks whole, and removes the first-move time from what the clients hold.
  CHECK(ev["patch"]["clocks"] == json{{"ms", {60000, 60000}}, {"running", 0}, {"first_move_ms", nullptr}});
  CHECK(room.clock_left(at(25000)) == Clocks{55000, 60000});
  CHECK(room.state_json(at(25000))["position"]["clocks"] == json{{"ms", {55000, 60000}}, {"running", 0}});

  Room idle = live_room("tablut", "", live_clock(60, 2));
  play(idle, "d1 d2", at(1000));
  CHECK(idle.tick(at(30999)).events.empty());
  Effect e = idle.tick(at(31000));  // Bob never made his first move
  CHECK(kinds(e) == "finished");
  json result = parse(e.events[0])["result"];
  CHECK(result["reason"] == "aborted");
  CHECK(result["winner"] == nullptr);
  CHECK(result["detail"] == "no first move");
  CHECK(idle.status() == Status::finished);
  CHECK(idle.record().write().find("# no first move") != std::string::npos);
}

TEST_CASE("Room clocks: without a clock, or by correspondence, there is no first-move limit") {
  Room plain = live_room("tablut");
  CHECK_FALSE(plain.deadline());
  CHECK(plain.tick(at(3600 * 1000)).events.empty());
  Room mail = live_room("tablut", "", ClockSpec{0, 0, 3});
  CHECK(mail.tick(at(3600 * 1000)).events.empty());
  CHECK(mail.status() == Status::live);
}

TEST_CASE("Room chat: players write to everyone, spectators among themselves until the game is over") {
  Room room = live_room("tablut");
  Effect hi = room.chat(kAlice, "  good luck  ", at(0));
  REQUIRE_FALSE(hi.error);
  CHECK(hi.save);
  CHECK(hi.events.empty());  // not an event: no version
  REQUIRE(hi.chat.size() == 1);
  json m = json::parse(*hi.chat[0].second);
  CHECK(m == json{{"type", "chat"}, {"room", "room-1"}, {"channel", "players"}, {"seat", 0}, {"name", "alice"}, {"player", "alice-id"},
                  {"text", "good luck"}, {"at_ms", kWallStart}});
  Effect aside = room.chat(kCarol, "Alice is losing", at(10));
  REQUIRE(aside.chat.size() == 1);
  const ChatLine& line = aside.chat[0].first;
  CHECK(line.spectators);
  CHECK(line.seat == -1);
  CHECK_FALSE(room.may_read(line, 0));
  CHECK_FALSE(room.may_read(line, 1));
  CHECK(room.may_read(line, -1));
  CHECK(room.may_read(hi.chat[0].first, -1));

  // The state shows each viewer what it may read.
  CHECK(room.state_json(at(20), 0)["chat"].size() == 1);
  CHECK(room.state_json(at(20), -1)["chat"].size() == 2);
  REQUIRE_FALSE(room.resign("bob-id", at(30)).error);
  CHECK(room.may_read(line, 0));
  CHECK(room.state_json(at(40), 1)["chat"].size() == 2);

  // Nothing of the chat is in the record; the save carries the new lines, once.
  CHECK(room.record().write().find("good luck") == std::string::npos);
  RoomSave save = room.take_save(at(50));
  CHECK(save.chat.size() == 2);
  CHECK(room.take_save(at(60)).chat.empty());
}

TEST_CASE("Room chat: empty, too long, control characters and floods are refused") {
  Room room = live_room("tablut");
  CHECK(code(room.chat(kAlice, "   ", at(0))) == "bad_chat");
  CHECK(code(room.chat(kAlice, std::string(301, 'x'), at(0))) == "bad_chat");
  CHECK_FALSE(room.chat(kAlice, std::string(300, 'x'), at(0)).error);
  // 300 characters of two bytes each are 300 characters.
  std::string accents;
  for (int i = 0; i < 299; ++i) accents += "\xC3\xA9";
  CHECK_FALSE(room.chat(kAlice, accents, at(1)).error);
  CHECK(code(room.chat(kBob, "two\nlines", at(0))) == "bad_chat");
  CHECK(code(room.chat(kBob, "bell\x07", at(0))) == "bad_chat");
  CHECK(code(room.chat(kBob, "\xE2\x80\xAE" "reversed", at(0))) == "bad_chat");  // U+202E
  CHECK(code(room.chat(kBob, "\xC3", at(0))) == "bad_chat");                     // cut UTF-8
  // Five lines in ten seconds, then a wait.
  for (int i = 0; i < 5; ++i) CHECK_FALSE(room.chat(kBob, "hi", at(1000 + i)).error);
  CHECK(code(room.chat(kBob, "hi", at(2000))) == "chat_limit");
  CHECK_FALSE(room.chat(kCarol, "me too", at(2000)).error);  // per player
  CHECK_FALSE(room.chat(kBob, "hi again", at(11000)).error);
}

TEST_CASE("Room chat and links: kept by a save, given back by restore") {
  Room room = live_room("tablut", "", ClockSpec{0, 0, 3});
  room.set_seat_token(0, "T0");
  room.set_seat_token(1, "T1");
  REQUIRE_FALSE(room.chat(kAlice, "your move", at(0)).error);
  Saved saved = room.saved(at(0));
  saved.stored = true;
  auto back = Room::restore(saved, at(100));
  REQUIRE(back.ok());
  CHECK(back->state_json(at(100), 1)["chat"][0]["text"] == "your move");
  // Each seated player sees its own seat's link; nobody sees another player's. The list is by seat (null
  // for a link not given), so that seat 1's own link is never read as seat 0's.
  CHECK(back->state_json(at(100), 0)["links"] == json::array({"/#/room/room-1?seat=0&token=T0", nullptr}));
  CHECK(back->state_json(at(100), 1)["links"] == json::array({nullptr, "/#/room/room-1?seat=1&token=T1"}));
  CHECK_FALSE(back->state_json(at(100), -1).contains("links"));
}

TEST_CASE("Room links: the creator of a correspondence room sees the free seat's link until it is taken") {
  Room room = open_room("tablut", "", ClockSpec{0, 0, 3});
  room.set_seat_token(0, "T0");
  room.set_seat_token(1, "T1");
  REQUIRE(!room.sit(kAlice, 0, at(0)).error);
  using Links = std::array<std::string, 2>;
  CHECK(room.seat_links(0) == Links{"/#/room/room-1?seat=0&token=T0", "/#/room/room-1?seat=1&token=T1"});
  CHECK(room.seat_links(-1) == Links{});
  REQUIRE(!room.sit(kBob, 1, at(0)).error);
  CHECK(room.seat_links(0) == Links{"/#/room/room-1?seat=0&token=T0", ""});
  CHECK(room.seat_links(1) == Links{"", "/#/room/room-1?seat=1&token=T1"});
  Room live = open_room("tablut");  // not correspondence: no links
  live.set_seat_token(0, "T0");
  CHECK(live.seat_links(0) == Links{});
}

TEST_CASE("Room seats by link: an account's seat is its own, a guest's moves when asked and says from whom") {
  Room room = open_room("tablut", "", ClockSpec{0, 0, 1});
  room.set_seat_token_hash(0, "H0");
  room.set_seat_token_hash(1, "H1");
  const Player ada{"ada-id", "Ada", "ada"};  // an account
  REQUIRE(!room.sit(ada, 0, at(0)).error);
  REQUIRE(!room.claim_seat(kBob, 1, "H1", at(0)).error);  // a free seat: taken
  const Player carol{"carol-id", "Carol"};
  for (bool take : {false, true}) {
    Effect owned = room.claim_seat(carol, 0, "H0", at(1), {take, ""});
    REQUIRE(owned.error);
    CHECK(owned.error->code == "seat_owned");
    CHECK(owned.error->message == "seat 0 (Attackers) belongs to the account ada: log in as ada to play it; "
                                  "anyone else watches the game");
  }
  CHECK(room.seats()[0].id == "ada-id");
  // The room may not know the holder is an account (a guest who registered since): the server says so.
  Effect told = room.claim_seat(carol, 1, "H1", at(1), {true, "bob_account"});
  REQUIRE(told.error);
  CHECK(told.error->code == "seat_owned");
  // A guest's seat: asked first, then moved, the event naming whom it replaces; a note of it is kept.
  Effect held = room.claim_seat(carol, 1, "H1", at(2));
  REQUIRE(held.error);
  CHECK(held.error->code == "seat_held");
  CHECK(held.error->message.find("held by bob in another browser") != std::string::npos);
  Effect moved = room.claim_seat(carol, 1, "H1", at(3), {true, ""});
  REQUIRE(!moved.error);
  json seated = json::parse(*moved.events.at(0));
  CHECK(seated["replaces"] == json{{"id", "bob-id"}, {"name", "bob"}});
  CHECK(room.seats()[1].id == "carol-id");
  json notes = room.state_json(at(4), 1)["notes"];
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]["kind"] == "seated");
  CHECK(notes[0]["replaces"]["id"] == "bob-id");
  CHECK(notes[0]["at_ms"] == at(3).unix_ms);
}

TEST_CASE("Room notes: the last notes come with the state, oldest first, at most kNotesKept") {
  Room room = live_room("tablut");
  CHECK_FALSE(room.state_json(at(0)).contains("notes"));
  REQUIRE(!room.offer_draw("alice-id", at(1)).error);
  REQUIRE(!room.decline_draw("bob-id", at(2)).error);
  json notes = room.state_json(at(3))["notes"];
  REQUIRE(notes.size() == 2);
  CHECK(notes[0]["kind"] == "draw_offer");
  CHECK(notes[0]["seat"] == 0);
  CHECK(notes[1]["kind"] == "draw_declined");
  CHECK(notes[1]["seat"] == 1);
  CHECK(notes[1]["version"] == room.version());
  for (int i = 0; i < 10; ++i) {
    REQUIRE(!room.offer_draw("alice-id", at(4 + 2 * i)).error);
    REQUIRE(!room.decline_draw("bob-id", at(5 + 2 * i)).error);
  }
  notes = room.state_json(at(30))["notes"];
  CHECK(notes.size() == Room::kNotesKept);
  CHECK(notes.back()["kind"] == "draw_declined");
}

TEST_CASE("Room rename: a seat shows its player's new name, the record keeps the old one") {
  Room room = live_room("tablut");
  const std::string record = room.record().write();
  Effect e = room.rename_seat("alice-id", "Alicia", "", at(1));
  REQUIRE(e.events.size() == 1);
  CHECK(json::parse(*e.events[0])["kind"] == "renamed");
  CHECK(room.seats()[0].name == "Alicia");
  CHECK(room.summary(at(1)).seats[0] == "Alicia");
  CHECK(room.record().write() == record);
  CHECK(room.rename_seat("alice-id", "Alicia", "", at(2)).events.empty());  // nothing changed
  CHECK(room.rename_seat("carol-id", "Caro", "", at(2)).events.empty());   // no seat here
}

TEST_CASE("record_until: a record cut after a turn plays on from there, its result gone") {
  auto record = Record::read("#! TABLUT\nA = Ann    D = Dan\n1   A/e8 i8/   D/e3 a3/\n2   A/i6 g6/\n#= D resign\n");
  REQUIRE(record.ok());
  auto two = record_until(*record, 2);
  REQUIRE(two.ok());
  CHECK(two->turn_count() == 2);
  CHECK_FALSE(two->finished());
  CHECK(two->write() == "#! TABLUT\nA = Ann    D = Dan\n1   A/e8 i8/   D/e3 a3/\n");
  auto all = record_until(*record, 3);  // the resignation goes: the game goes on from the last turn
  REQUIRE(all.ok());
  CHECK_FALSE(all->finished());
  CHECK(all->turn_count() == 3);
  auto none = record_until(*record, 0);
  REQUIRE(none.ok());
  CHECK(none->turn_count() == 0);
  CHECK(none->write().find("A = Ann") != std::string::npos);
  CHECK_FALSE(record_until(*record, 4).ok());
  CHECK(record_until(*record, 4).error().message.find("turns: the record has 3 turns") == 0);
}

}  // namespace
}  // namespace cinq::lobby::test
