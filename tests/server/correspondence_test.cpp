// Correspondence play against the real server: games played by POSTing move logs over HTTP as
// players mail them, the refusals of tampered logs, deadlines across a restart, and imports.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>

#include <cctype>
#include <map>

#include "persistence/store.h"
#include "rules/notation.h"
#include "tests/server/peer.h"
#include "tests/support.h"
#include "tests/support/process.h"
#include "tests/support/postgres.h"

namespace cinq::test {
namespace {

// The turns of the sample game, in order, as record text (`A/e8 i8/`).
std::vector<std::string> sample_turns() {
  auto sample = Record::read(read_text(data_path("records/tablut/sample-escape.txt")));
  REQUIRE(sample.ok());
  std::vector<std::string> out;
  for (const Entry& e : sample->entries())
    if (e.kind == Entry::Kind::turns)
      for (const TurnText& t : e.turns) {
        std::string s(1, t.side);
        s += '/';
        for (const auto& item : t.items) s += item + "/";
        out.push_back(s);
      }
  return out;
}

// A log with turn `k` (0-based) appended as a player writes it: the first side's turn opens a numbered
// line, the second side's goes after it on the same line.
std::string append_turn(std::string log, std::size_t k, const std::string& turn) {
  while (!log.empty() && log.back() == '\n') log.pop_back();
  if (k % 2 == 0) return log + "\n" + std::to_string(k / 2 + 1) + "   " + turn + "\n";
  return log + "   " + turn + "\n";
}

// The token in a seat link `/#/room/ID?seat=S&token=T`.
std::string token_of(const std::string& link) { return link.substr(link.find("token=") + 6); }

struct Game {
  std::string room;
  std::array<std::string, 2> tokens;
};

// An unfinished Tablut record imported as a correspondence game: Alice plays A (seat 0), Bob D (seat 1).
Game import_new(std::uint16_t port, const std::string& query = "") {
  auto reply = http_request(port, "POST", "/api/games/import" + query, "#! TABLUT\nA = Alice    D = Bob\n",
                            "text/plain");
  REQUIRE_MESSAGE(reply.status == 201, reply.body);
  json answer = json::parse(reply.body);
  CHECK(answer["status"] == "live");
  REQUIRE(answer["links"].size() == 2);
  Game g{answer["room"], {token_of(answer["links"][0]), token_of(answer["links"][1])}};
  CHECK(answer["links"][1] == "/#/room/" + g.room + "?seat=1&token=" + g.tokens[1]);
  CHECK(g.tokens[0].size() == 32);
  CHECK(g.tokens[0] != g.tokens[1]);
  return g;
}

HttpReply post_log(std::uint16_t port, const Game& g, int seat, const std::string& log,
                   const std::string& token = "") {
  return http_request(port, "POST",
                      "/api/games/" + g.room + "/record?seat=" + std::to_string(seat) +
                          "&token=" + (token.empty() ? g.tokens[seat] : token),
                      log, "text/plain");
}

std::string stored_log(std::uint16_t port, const std::string& room) {
  auto reply = http_request(port, "GET", "/api/games/" + room + "/record");
  REQUIRE(reply.status == 200);
  return reply.body;
}

json state_of(std::uint16_t port, const std::string& room) {
  auto reply = http_request(port, "GET", "/api/games/" + room);
  REQUIRE(reply.status == 200);
  return json::parse(reply.body);
}

// Plays turns [from, to) of the sample by mail, each POST appending one turn to the log the last answer gave.
std::string mail_turns(std::uint16_t port, const Game& g, std::string log, std::size_t from, std::size_t to) {
  auto turns = sample_turns();
  for (std::size_t k = from; k < to; ++k) {
    auto reply = post_log(port, g, static_cast<int>(k % 2), append_turn(log, k, turns[k]));
    REQUIRE_MESSAGE(reply.status == 200, "turn ", k + 1, ": ", reply.body);
    CHECK(reply.content_type.rfind("text/plain", 0) == 0);
    auto read = Record::read(reply.body);
    REQUIRE(read.ok());
    CHECK(read->turn_count() == static_cast<int>(k + 1));
    log = reply.body;
  }
  return log;
}

json error_of(const HttpReply& reply) { return json::parse(reply.body)["error"]; }

}  // namespace

TEST_CASE("Correspondence over HTTP: two players finish a Tablut game purely by mailing logs to the server") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Game g = import_new(server.port());
  std::string log = stored_log(server.port(), g.room);
  const std::size_t n = sample_turns().size();
  log = mail_turns(server.port(), g, log, 0, n);
  auto final_record = Record::read(log);
  REQUIRE(final_record.ok());
  CHECK(final_record->result_text() == "D escape");
  CHECK(stored_log(server.port(), g.room) == log);
  json state = state_of(server.port(), g.room);
  CHECK(state["position"]["status"] == "finished");
  CHECK(state["position"]["deadline_ms"].is_null());

  // The last mover sends the same log again: the same answer, nothing changes.
  auto again = post_log(server.port(), g, 1, log);
  CHECK(again.status == 200);
  CHECK(again.body == log);
  // A turn after the end is refused: the game is over.
  auto late = post_log(server.port(), g, 0, append_turn(log, n, "A/a5 a6/"));
  CHECK(late.status == 409);
  CHECK(error_of(late)["code"] == "game_over");
  CHECK(stored_log(server.port(), g.room) == log);
}

TEST_CASE(
    "Correspondence over HTTP: every tampered log is refused with its line and reason, and changes nothing") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  const auto port = server.port();
  Game g = import_new(port);
  std::string log = mail_turns(port, g, stored_log(port, g.room), 0, 2);  // A/e8 i8/ D/e3 a3/
  const std::int64_t version = state_of(port, g.room)["version"];
  auto unchanged = [&] {
    CHECK(stored_log(port, g.room) == log);
    CHECK(state_of(port, g.room)["version"] == version);
  };
  const std::string head = "#! TABLUT\nA = Alice    D = Bob\n";

  SUBCASE("an earlier turn rewritten") {
    auto r = post_log(port, g, 0, head + "1   A/e8 i8/   D/e3 b3/\n2   A/d1 d4/\n");
    CHECK(r.status == 409);
    CHECK(error_of(r)["code"] == "differs");
    CHECK(error_of(r)["line"] == 3);
    CHECK(error_of(r)["message"] ==
          "line 3: turn 2 differs from the stored game: D/e3 b3/ was sent, the game has D/e3 a3/");
  }
  SUBCASE("a turn played for the other side") {
    auto r = post_log(port, g, 0, head + "1   A/e8 i8/   D/e3 a3/\n2   A/i6 g6/   D/d5 d7/\n");
    CHECK(r.status == 403);
    CHECK(error_of(r)["code"] == "other_side");
    CHECK(error_of(r)["line"] == 4);
    CHECK(error_of(r)["message"].get<std::string>().find("plays for the other side") != std::string::npos);
  }
  SUBCASE("a turn out of turn") {
    auto r = post_log(port, g, 1, head + "1   A/e8 i8/   D/e3 a3/\n2   A/i6 g6/\n");
    CHECK(r.status == 409);
    CHECK(error_of(r)["code"] == "not_your_turn");
    CHECK(error_of(r)["line"] == 4);
  }
  SUBCASE("an illegal move") {
    auto r = post_log(port, g, 0, head + "1   A/e8 i8/   D/e3 a3/\n2   A/e8 e5/\n");
    CHECK(r.status == 422);
    CHECK(error_of(r)["code"] == "bad_record");
    CHECK(error_of(r)["line"] == 4);
    CHECK(error_of(r)["message"].get<std::string>().rfind("line 4: ", 0) == 0);
    CHECK_FALSE(error_of(r)["reason_code"].get<std::string>().empty());
    CHECK(error_of(r)["params"]["item"] == "e8 e5");
  }
  SUBCASE("a wrong seat token") {
    auto r = post_log(port, g, 0, append_turn(log, 2, "A/i6 g6/"), g.tokens[1]);
    CHECK(r.status == 403);
    CHECK(error_of(r)["code"] == "bad_token");
  }
  SUBCASE("a log that stops before the stored game") {
    auto r = post_log(port, g, 0, head + "1   A/e8 i8/\n");
    CHECK(r.status == 409);
    CHECK(error_of(r)["code"] == "stale");
  }
  SUBCASE("the same log again") {
    auto r = post_log(port, g, 1, log);
    CHECK(r.status == 200);
    CHECK(r.body == log);
  }
  unchanged();
}

TEST_CASE("Correspondence over HTTP: the second side appends its turn as a new line, numbered or not") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Game g = import_new(server.port());
  auto turns = sample_turns();
  std::string log = mail_turns(server.port(), g, stored_log(server.port(), g.room), 0, 1);  // `1   A/...`
  // `1   D/...` on a line of its own: the answer is the canonical log, both turns on line 1.
  auto numbered = post_log(server.port(), g, 1, log + "1   " + turns[1] + "\n");
  REQUIRE_MESSAGE(numbered.status == 200, numbered.body);
  CHECK(numbered.body == append_turn(log, 1, turns[1]));
  log = mail_turns(server.port(), g, numbered.body, 2, 3);
  // `D/...` alone, without its number.
  auto bare = post_log(server.port(), g, 1, log + turns[3] + "\n");
  REQUIRE_MESSAGE(bare.status == 200, bare.body);
  CHECK(bare.body == append_turn(log, 3, turns[3]));
  // The first side's turn without a number opens the next line.
  auto next = post_log(server.port(), g, 0, bare.body + turns[4] + "\n");
  REQUIRE_MESSAGE(next.status == 200, next.body);
  CHECK(next.body == append_turn(bare.body, 4, turns[4]));
  CHECK(stored_log(server.port(), g.room) == next.body);
}

TEST_CASE("Correspondence over HTTP: a game goes on across a restart, its deadline kept") {
  TempDir data;
  Game g;
  std::string log;
  json deadline;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    g = import_new(server.port(), "?days=7&private=1");
    log = mail_turns(server.port(), g, stored_log(server.port(), g.room), 0, 3);
    json state = state_of(server.port(), g.room);
    CHECK(state["clock"] == json{{"days", 7}});
    CHECK(state["private"] == true);
    deadline = state["position"]["deadline_ms"];
    CHECK(deadline.is_number());
  }
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  CHECK(state_of(server.port(), g.room)["position"]["deadline_ms"] == deadline);
  log = mail_turns(server.port(), g, log, 3, 5);
  CHECK(Record::read(log)->turn_count() == 5);
}

TEST_CASE(
    "Correspondence over HTTP: a deadline that passed while the server was down ends the game on time at "
    "start") {
  TempDir data;
  const std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
  {
    store::Error error;
    auto store = store::Store::open(test::store_spec(data.path() + "/cinq.db"), error);
    REQUIRE(store);
    store::GameRow row;
    row.id = "LateGame01";
    row.game = "tablut";
    row.kind = "correspondence";
    row.clock_days = 1;
    row.status = "live";
    row.record = "#! TABLUT\nA = Alice    D = Bob\n1   A/e8 i8/\n";  // D to move, and D's day is over
    row.seat_ids = {"pAlice", "pBob"};
    row.seat_names = {"Alice", "Bob"};
    row.version = 4;
    row.turns = 1;
    row.created_ms = now_ms - 3 * 86400000LL;
    row.updated_ms = now_ms - 2 * 86400000LL;
    row.deadline_ms = now_ms - 86400000LL;
    row.seat_token_hashes = {"h0", "h1"};
    REQUIRE(store->save_game(row, error));
  }
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  json state = state_of(server.port(), "LateGame01");
  CHECK(state["position"]["status"] == "finished");
  CHECK(state["position"]["result"]["text"] == "A time");
  CHECK(state["position"]["result"]["winner"] == 0);
  CHECK(stored_log(server.port(), "LateGame01").find("#= A time") != std::string::npos);
}

TEST_CASE(
    "Correspondence over HTTP: import of a finished record shows it, a record stopping at `...` is refused") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  const std::string sample = read_text(data_path("records/tablut/sample-escape.txt"));
  auto reply = http_request(server.port(), "POST", "/api/games/import", sample, "text/plain");
  REQUIRE(reply.status == 201);
  json answer = json::parse(reply.body);
  CHECK(answer["status"] == "finished");
  CHECK(answer["links"] == json::array());
  std::string room = answer["room"];
  auto served = Record::read(stored_log(server.port(), room));
  REQUIRE(served.ok());
  CHECK(served->result_text() == "D escape");
  CHECK(served->turn_count() == static_cast<int>(sample_turns().size()));
  CHECK(state_of(server.port(), room)["position"]["status"] == "finished");

  auto cut = http_request(server.port(), "POST", "/api/games/import", "#! TABLUT\n1   A/e8 i8/   ...\n",
                          "text/plain");
  CHECK(cut.status == 422);
  auto bad =
      http_request(server.port(), "POST", "/api/games/import", "#! TABLUT\n1   A/e8 e5/\n", "text/plain");
  CHECK(bad.status == 422);
  CHECK(error_of(bad)["line"] == 2);
  auto days = http_request(server.port(), "POST", "/api/games/import?days=4", "#! TABLUT\n", "text/plain");
  CHECK(days.status == 400);
}

TEST_CASE(
    "Correspondence over WebSocket: the creator alone gets the seat links, a link seats a player, mailed "
    "turns reach the room live") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  const auto port = server.port();
  Peer alice(port, "Alice");
  alice.send({{"type", "create"}, {"game", "tablut"}, {"clock", {{"days", 4}}}, {"seat", 0}});
  CHECK(alice.until_type("error")["code"] == "bad_clock");
  alice.send({{"type", "create"}, {"game", "tablut"}, {"clock", {{"days", 3}}}, {"seat", 0}});
  json state = alice.until_type("state");
  CHECK(state["clock"] == json{{"days", 3}});
  REQUIRE(state["links"].size() == 2);
  Game g{state["room"], {token_of(state["links"][0]), token_of(state["links"][1])}};

  Peer carol(port, "Carol");  // a spectator: no links for her
  carol.send({{"type", "join"}, {"room", g.room}});
  CHECK_FALSE(carol.until_type("state").contains("links"));

  Peer bob(port, "Bob");
  bob.send({{"type", "sit"}, {"room", g.room}, {"seat", 1}, {"seat_token", g.tokens[0]}});
  CHECK(bob.until_type("error")["code"] == "bad_token");
  bob.send({{"type", "sit"}, {"room", g.room}, {"seat", 1}, {"seat_token", g.tokens[1]}});
  CHECK(bob.until_type("state")["seats"][1]["id"] == bob.id);
  json started = carol.until_event("started");
  CHECK(started["position"]["deadline_ms"].is_number());

  // Alice mails her turn; everyone in the room sees it.
  auto reply = post_log(port, g, 0, append_turn(stored_log(port, g.room), 0, "A/e8 i8/"));
  REQUIRE_MESSAGE(reply.status == 200, reply.body);
  CHECK(carol.until_event("play")["actions"] == json{"e8 i8"});
  CHECK(bob.until_event("play")["position"]["to_move"] == 1);

  // Bob's turn, from the room.
  bob.send({{"type", "act"}, {"room", g.room}, {"actions", {"e3 a3"}}});
  alice.until([](const json& m) { return m.value("kind", "") == "play" && m["seat"] == 1; });

  // Alice's games: this one, her turn.
  alice.send({{"type", "my_games"}});
  json mine = alice.until_type("my_games");
  REQUIRE(mine["games"].size() == 1);
  CHECK(mine["games"][0]["room"] == g.room);
  CHECK(mine["games"][0]["my_seat"] == 0);
  CHECK(mine["games"][0]["my_turn"] == true);
  CHECK(mine["games"][0]["deadline_ms"].is_number());

  // Bob moves to another browser with his link: asked first, the seat then follows the new identity, and
  // the browser that held it is told.
  Peer bob2(port, "Bob");
  bob2.send({{"type", "sit"}, {"room", g.room}, {"seat", 1}, {"seat_token", g.tokens[1]}});
  CHECK(bob2.until_type("error")["code"] == "seat_held");
  bob2.send({{"type", "sit"}, {"room", g.room}, {"seat", 1}, {"seat_token", g.tokens[1]}, {"take", true}});
  json seated = carol.until_event("seated");
  CHECK(seated["seat"] == 1);
  CHECK(seated["player"]["id"] == bob2.id);
  CHECK(seated["replaces"]["id"] == bob.id);
  CHECK(bob.until_event("seated")["replaces"]["id"] == bob.id);
  bob.send({{"type", "act"}, {"room", g.room}, {"actions", {"i6 g6"}}});
  CHECK(bob.until_type("error")["code"] == "not_seated");
}

namespace {

json ask(Peer& p, const json& m, const std::string& answer) {
  p.send(m);
  return p.until([&](const json& r) { return r.value("type", "") == answer || r.value("type", "") == "error"; });
}

}  // namespace

TEST_CASE("Correspondence seats: a guest's seat link opened in a second browser asks before it moves the seat") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  const auto port = server.port();
  Peer ann(port, "Ann");
  ann.send({{"type", "create"}, {"game", "tablut"}, {"clock", {{"days", 1}}}, {"seat", 0}});
  json state = ann.until_type("state");
  Game g{state["room"], {token_of(state["links"][0]), token_of(state["links"][1])}};
  Peer ben(port, "Ben");
  ben.send({{"type", "sit"}, {"room", g.room}, {"seat", 1}, {"seat_token", g.tokens[1]}});
  CHECK(ben.until_type("state")["seats"][1]["id"] == ben.id);

  // Ben's link in another browser: refused until asked to take it, naming who holds it; nothing changed.
  Peer other(port, "Ben");
  other.send({{"type", "sit"}, {"room", g.room}, {"seat", 1}, {"seat_token", g.tokens[1]}});
  json held = other.until_type("error");
  CHECK(held["code"] == "seat_held");
  CHECK(held["message"].get<std::string>().find("Ben") != std::string::npos);
  CHECK(state_of(port, g.room)["seats"][1]["id"] == ben.id);
  // `take` without a token is a bad message; with it the seat moves, and Ben's browser hears whose it is now.
  other.send({{"type", "sit"}, {"room", g.room}, {"seat", 1}, {"take", true}});
  CHECK(other.until_type("error")["code"] == "bad_message");
  other.send({{"type", "sit"}, {"room", g.room}, {"seat", 1}, {"seat_token", g.tokens[1]}, {"take", true}});
  json moved = ben.until_event("seated");
  CHECK(moved["player"]["id"] == other.id);
  CHECK(moved["replaces"] == json{{"id", ben.id}, {"name", "Ben"}});
  // A reload of Ben's first browser finds the note with the state.
  Peer ben_again(port, ben.id, ben.token);
  ben_again.send({{"type", "join"}, {"room", g.room}});
  json notes = ben_again.until_type("state")["notes"];
  REQUIRE(notes.is_array());
  CHECK(notes.back()["kind"] == "seated");
  CHECK(notes.back()["replaces"]["id"] == ben.id);
}

TEST_CASE("Correspondence seats: an account's seat is taken by that account only, also after a restart") {
  TempDir data;
  Game g;
  std::string ada_id, ada_token;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    const auto port = server.port();
    // Ada creates the room as a guest and registers afterwards: her seat is an account's from then on.
    Peer ada(port, "Ada");
    ada.send({{"type", "create"}, {"game", "tablut"}, {"clock", {{"days", 1}}}, {"seat", 0}});
    json state = ada.until_type("state");
    g = Game{state["room"], {token_of(state["links"][0]), token_of(state["links"][1])}};
    json r = ask(ada, {{"type", "register"}, {"username", "ada_x"}, {"password", "correct horse"}}, "registered");
    REQUIRE_MESSAGE(r["type"] == "registered", r.dump());
    ada_id = ada.id;
    ada_token = ada.token;
    Peer ben(port, "Ben");
    ben.send({{"type", "sit"}, {"room", g.room}, {"seat", 1}, {"seat_token", g.tokens[1]}});
    CHECK(ben.until_type("state")["seats"][1]["id"] == ben.id);
    // Ada's own link in a third browser: her seat stays hers, even when asked to take it.
    Peer guest(port, "Guest");
    for (bool take : {false, true}) {
      guest.send({{"type", "sit"}, {"room", g.room}, {"seat", 0}, {"seat_token", g.tokens[0]}, {"take", take}});
      json refused = guest.until_type("error");
      CHECK(refused["code"] == "seat_owned");
      CHECK(refused["message"].get<std::string>().find("log in as ada_x") != std::string::npos);
    }
    CHECK(state_of(port, g.room)["seats"][0]["id"] == ada_id);
    // The guest still watches the game.
    guest.send({{"type", "join"}, {"room", g.room}});
    CHECK(guest.until_type("state")["seats"][0]["id"] == ada_id);
  }
  // After a restart (the room read back from the store), the same.
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  const auto port = server.port();
  Peer mallory(port, "Mallory");
  mallory.send({{"type", "sit"}, {"room", g.room}, {"seat", 0}, {"seat_token", g.tokens[0]}, {"take", true}});
  CHECK(mallory.until_type("error")["code"] == "seat_owned");
  CHECK(state_of(port, g.room)["seats"][0]["id"] == ada_id);
  // Ada, logged in elsewhere, opens her link: it is hers (nothing to move), and she plays.
  WsClient ws(port);
  ws.send(json{{"type", "login"}, {"username", "ada_x"}, {"password", "correct horse"}}.dump());
  auto welcome = ws.receive(std::chrono::seconds(20));
  REQUIRE(welcome);
  CHECK(json::parse(*welcome)["player"]["id"] == ada_id);
  ws.send(json{{"type", "sit"}, {"room", g.room}, {"seat", 0}, {"seat_token", g.tokens[0]}}.dump());
  ws.send(json{{"type", "act"}, {"room", g.room}, {"actions", {"e8 i8"}}}.dump());
  bool played = false;
  for (int i = 0; i < 20 && !played; ++i) {
    auto m = ws.receive(std::chrono::seconds(10));
    REQUIRE(m);
    json j = json::parse(*m);
    REQUIRE_MESSAGE(j.value("type", "") != "error", j.dump());
    played = j.value("kind", "") == "play";
  }
  CHECK(played);
}

TEST_CASE("Correspondence over HTTP: a log with no moves is answered with what to send") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Game g = import_new(server.port());
  for (const std::string body : {"", "\n\n", "A = Alice\n"}) {
    auto reply = post_log(server.port(), g, 0, body);
    CHECK(reply.status == 422);
    CHECK_MESSAGE(json::parse(reply.body)["error"]["message"].get<std::string>().find(
                      "no moves were sent: send the game's log with your turn under it") != std::string::npos,
                  reply.body);
  }
}

}  // namespace cinq::test
