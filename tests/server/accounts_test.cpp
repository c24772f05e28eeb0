// Accounts, ratings and the archive against a real server over real sockets: registering keeps a
// guest's games, a second login finds them, wrong passwords and too many attempts are refused, logging out
// everywhere ends every token, and a rated game changes both ratings once, also across a SIGKILL.
#include <doctest/doctest.h>
#include <signal.h>

#include <cmath>
#include <thread>

#include "ratings/glicko2.h"
#include "tests/server/peer.h"
#include "tests/support.h"
#include "tests/support/process.h"

namespace cinq::test {
namespace {

using namespace std::chrono_literals;

json ask(Peer& p, const json& m, const std::string& answer) {
  p.send(m);
  return p.until([&](const json& r) { return r.value("type", "") == answer || r.value("type", "") == "error"; });
}

// A guest that registers as `username`.
void register_as(Peer& p, const std::string& username, const std::string& password) {
  json r = ask(p, {{"type", "register"}, {"username", username}, {"password", password}}, "registered");
  REQUIRE_MESSAGE(r["type"] == "registered", r.dump());
  CHECK(r["username"] == username);
}

// A new connection that logs in (no hello first).
struct Login {
  Login(std::uint16_t port, const std::string& username, const std::string& password) : ws(port) {
    ws.send(json{{"type", "login"}, {"username", username}, {"password", password}}.dump());
    auto m = ws.receive(20s);
    REQUIRE(m);
    answer = json::parse(*m);
  }
  WsClient ws;
  json answer;
};

// Alice's move, then Bob resigns: Alice (seat 0) wins a Tablut game.
void alice_wins(Peer& alice, Peer& bob, const std::string& room) {
  REQUIRE(!alice.legal.empty());
  alice.send({{"type", "act"}, {"room", room}, {"actions", {alice.legal.at(0)}}});
  bob.until_event("play");
  // A move each: a rated game resigned before both sides played would end aborted and unrated.
  REQUIRE(!bob.legal.empty());
  bob.send({{"type", "act"}, {"room", room}, {"actions", {bob.legal.at(0)}}});  // handled before the resign
  bob.send({{"type", "resign"}, {"room", room}});
  alice.until_event("finished");
}

}  // namespace

TEST_CASE("accounts: a guest registers keeping its games, logs in elsewhere, a wrong password is refused") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Peer guest(server.port(), "Ada");
  guest.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
  const std::string room = guest.until_type("state")["room"];
  register_as(guest, "ada_l", "correct horse");

  // Names: checked, and unique whatever the case.
  Peer other(server.port(), "Other");
  CHECK(ask(other, {{"type", "register"}, {"username", "ADA_L"}, {"password", "whatever1"}}, "registered")["code"] ==
        "username_taken");
  CHECK(ask(other, {{"type", "register"}, {"username", "a"}, {"password", "whatever1"}}, "registered")["code"] ==
        "bad_username");
  CHECK(ask(other, {{"type", "register"}, {"username", "name with space"}, {"password", "whatever1"}},
            "registered")["code"] == "bad_username");
  CHECK(ask(other, {{"type", "register"}, {"username", "otto"}, {"password", "short"}}, "registered")["code"] ==
        "bad_password");
  CHECK(ask(guest, {{"type", "register"}, {"username", "ada2"}, {"password", "whatever1"}}, "registered")["code"] ==
        "already_registered");

  // A wrong password, an unknown name: one answer for both.
  Login wrong(server.port(), "ada_l", "wrong horse");
  CHECK(wrong.answer["code"] == "bad_login");
  Login unknown(server.port(), "nobody", "correct horse");
  CHECK(unknown.answer["code"] == "bad_login");

  // Logged in from "another browser": the same player, a token of its own, the guest's game there.
  Login second(server.port(), "Ada_L", "correct horse");
  REQUIRE_MESSAGE(second.answer["type"] == "welcome", second.answer.dump());
  CHECK(second.answer["player"]["id"] == guest.id);
  CHECK(second.answer["username"] == "ada_l");
  CHECK(second.answer["player"]["name"] == "ada_l");
  CHECK(second.answer["token"] != guest.token);
  Peer again(server.port(), guest.id, second.answer["token"].get<std::string>());
  again.send({{"type", "my_games"}});
  json games = again.until_type("my_games");
  bool found = false;
  for (const json& g : games["games"]) found = found || g["room"] == room;
  CHECK_MESSAGE(found, games.dump());
  // The first browser's token still works too.
  Peer first(server.port(), guest.id, guest.token);
  CHECK(first.id == guest.id);
  // Nothing secret is stored in clear: the password is an Argon2id hash.
  json player = get_json(server.port(), "/api/players/ada_l");
  CHECK(player["username"] == "ada_l");
  CHECK(player.dump().find("horse") == std::string::npos);
}

TEST_CASE("accounts: too many failed logins are rate_limited, for that account from that address, for a short while") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Peer ben(server.port(), "Ben");
  register_as(ben, "ben", "right password");
  for (int i = 0; i < 5; ++i) CHECK(Login(server.port(), "ben", "wrong password").answer["code"] == "bad_login");
  json limited = Login(server.port(), "ben", "right password").answer;
  CHECK(limited["code"] == "rate_limited");
  CHECK(limited["message"].get<std::string>().find("try again in") != std::string::npos);
  // Another account from the same address is not locked out by it.
  Peer cy(server.port(), "Cy");
  register_as(cy, "cyd", "cy password");
  CHECK(Login(server.port(), "cyd", "cy password").answer["type"] == "welcome");
}

TEST_CASE("accounts: log out ends this token, log out everywhere ends every token and tells the others") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Peer dee(server.port(), "Dee");
  CHECK(ask(dee, {{"type", "logout"}}, "logged_out")["code"] == "no_account");  // a guest has nothing to log back in with
  register_as(dee, "dee", "dee password");
  Login two(server.port(), "dee", "dee password");
  Login three(server.port(), "dee", "dee password");
  REQUIRE(three.answer["type"] == "welcome");

  // Log out: that token stops working, the others do not.
  three.ws.send(json{{"type", "logout"}}.dump());
  auto out = three.ws.receive(10s);
  REQUIRE(out);
  CHECK(json::parse(*out)["type"] == "logged_out");
  WsClient stale(server.port());
  stale.send(json{{"type", "hello"}, {"id", dee.id}, {"token", three.answer["token"]}}.dump());
  CHECK(json::parse(*stale.receive(10s))["code"] == "bad_token");
  Peer still(server.port(), dee.id, two.answer["token"].get<std::string>());

  // Everywhere: every token stops, the other connections are told.
  CHECK(ask(dee, {{"type", "logout_all"}}, "logged_out")["type"] == "logged_out");
  still.until_type("logged_out");
  for (const std::string& token : {dee.token, two.answer["token"].get<std::string>()}) {
    WsClient c(server.port());
    c.send(json{{"type", "hello"}, {"id", dee.id}, {"token", token}}.dump());
    CHECK(json::parse(*c.receive(10s))["code"] == "bad_token");
  }
  // The password still logs in.
  CHECK(Login(server.port(), "dee", "dee password").answer["type"] == "welcome");
  // Change of password: the old one stops working.
  Login four(server.port(), "dee", "dee password");
  four.ws.send(json{{"type", "change_password"}, {"old", "dee password"}, {"new", "new dee password"}}.dump());
  CHECK(json::parse(*four.ws.receive(20s))["type"] == "password_changed");
  CHECK(Login(server.port(), "dee", "dee password").answer["code"] == "bad_login");
  CHECK(Login(server.port(), "dee", "new dee password").answer["type"] == "welcome");
}

TEST_CASE("ratings: a rated game changes both ratings once, by Glicko-2, also across a SIGKILL") {
  TempDir data;
  std::string room;
  // What Glicko-2 gives two new players (1500/350/0.06) when the first wins.
  const ratings::Rating fresh;
  const ratings::Rating winner = ratings::update(fresh, {{fresh, 1.0}});
  const ratings::Rating loser = ratings::update(fresh, {{fresh, 0.0}});
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    Peer alice(server.port(), "Alice");
    Peer bob(server.port(), "Bob");
    Peer guest(server.port(), "Guest");
    register_as(alice, "alice", "alice password");
    register_as(bob, "bob", "bob password");
    // Guests cannot play rated games, bots are never rated.
    CHECK(ask(guest, {{"type", "create"}, {"game", "tablut"}, {"rated", true}}, "state")["code"] == "account_required");
    CHECK(ask(alice, {{"type", "create"}, {"game", "tablut"}, {"rated", true}, {"bot", 1}}, "state")["code"] ==
          "cannot_rate");
    alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}, {"rated", true}});
    json state = alice.until_type("state");
    CHECK(state["rated"] == true);
    room = state["room"];
    CHECK(ask(guest, {{"type", "sit"}, {"room", room}}, "state")["code"] == "account_required");
    bob.send({{"type", "sit"}, {"room", room}});
    bob.until_type("state");
    alice.until_event("started");
    alice_wins(alice, bob, room);
    // The room tells both players the change, once the result is stored.
    for (Peer* p : {&alice, &bob}) {
      json told = p->until_type("ratings");
      CHECK(told["room"] == room);
      CHECK(told["seats"][0]["before"] == 1500);
      CHECK(told["seats"][0]["after"].get<double>() == doctest::Approx(winner.rating).epsilon(0.001));
      CHECK(told["seats"][1]["after"].get<double>() == doctest::Approx(loser.rating).epsilon(0.001));
      CHECK(told["seats"][1]["provisional"] == true);
    }
    // Stored with the result: a SIGKILL right after the announcement loses nothing.
    server.kill(SIGKILL);
    server.wait(10s);
  }
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  for (int restart = 0; restart < 2; ++restart) {
    json a = get_json(server.port(), "/api/players/alice");
    json b = get_json(server.port(), "/api/players/bob");
    REQUIRE(a["ratings"].size() == 1);
    REQUIRE(b["ratings"].size() == 1);
    CHECK(a["ratings"][0]["game"] == "tablut");
    CHECK(a["ratings"][0]["pool"] == "live");
    CHECK(a["ratings"][0]["games"] == 1);
    CHECK(a["ratings"][0]["wins"] == 1);
    CHECK(b["ratings"][0]["losses"] == 1);
    CHECK(a["ratings"][0]["rating"].get<double>() == doctest::Approx(winner.rating).epsilon(0.001));
    CHECK(b["ratings"][0]["rating"].get<double>() == doctest::Approx(loser.rating).epsilon(0.001));
    CHECK(a["ratings"][0]["provisional"] == true);
    CHECK(a["history"].size() == 1);
    CHECK(a["history"][0]["game_id"] == room);
    // The room, reopened and joined again, does not count the game a second time.
    Peer alice(server.port(), "Alice again");
    alice.send({{"type", "join"}, {"room", room}});
    json state = alice.until_type("state");
    json seats = state.contains("ratings") ? state["ratings"] : alice.until_type("ratings")["seats"];
    CHECK(seats[0]["after"].get<double>() == doctest::Approx(winner.rating).epsilon(0.001));
  }
  // The archive finds it by player, result, game, rated.
  json won = get_json(server.port(), "/api/games?player=alice&result=win&game=tablut&rated=true");
  REQUIRE(won["total"] == 1);
  CHECK(won["games"][0]["id"] == room);
  CHECK(won["games"][0]["winner"] == 0);
  CHECK(won["games"][0]["seats"][1]["username"] == "bob");
  CHECK(get_json(server.port(), "/api/games?player=bob&result=win")["total"] == 0);
  CHECK(get_json(server.port(), "/api/games?player=bob&result=loss")["total"] == 1);
  CHECK(get_json(server.port(), "/api/games?rated=false")["total"] == 0);
  CHECK(http_request(server.port(), "GET", "/api/games?from=yesterday").status == 400);
  // Provisional ratings are not ranked; the export is the records one after another.
  CHECK(get_json(server.port(), "/api/leaderboard/tablut")["players"].empty());
  auto text = http_request(server.port(), "GET", "/api/players/alice/games.txt");
  CHECK(text.status == 200);
  CHECK(text.body.rfind("#! TABLUT", 0) == 0);
  CHECK(http_request(server.port(), "GET", "/api/players/nobody").status == 404);

  // A seated account shows its rating in the room and the lobby's list.
  Login logged(server.port(), "alice", "alice password");
  Peer alice(server.port(), logged.answer["player"]["id"].get<std::string>(), logged.answer["token"].get<std::string>());
  alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}, {"rated", true}});
  json state = alice.until_type("state");
  CHECK(state["seats"][0]["username"] == "alice");
  CHECK(state["seats"][0]["rating"]["rating"] == std::round(winner.rating));
  CHECK(state["seats"][0]["rating"]["provisional"] == true);
  json listed;
  for (int i = 0; i < 40 && listed.is_null(); ++i) {
    const json list = get_json(server.port(), "/api/games");
    for (const json& r : list["games"])
      if (r["room"] == state["room"]) listed = r;
    if (listed.is_null()) std::this_thread::sleep_for(100ms);
  }
  REQUIRE_MESSAGE(!listed.is_null(), get_json(server.port(), "/api/games").dump());
  CHECK(listed["rated"] == true);
  CHECK(listed["seats"][0]["rating"]["rating"] == std::round(winner.rating));
  CHECK(listed["seats"][0]["username"] == "alice");
}

TEST_CASE("seeks: rated seeks pair with rated seeks only, within each other's rating range") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Peer a(server.port(), "A");
  Peer b(server.port(), "B");
  Peer c(server.port(), "C");
  register_as(a, "seek_a", "password a");
  register_as(b, "seek_b", "password b");
  register_as(c, "seek_c", "password c");
  // A new player is 1500: a range above it does not pair.
  CHECK(ask(a, {{"type", "seek"}, {"game", "tablut"}, {"rated", true}, {"rating_range", {1600, 2000}}}, "seeking")["type"] ==
        "seeking");
  CHECK(ask(b, {{"type", "seek"}, {"game", "tablut"}, {"rated", true}}, "seeking")["type"] == "seeking");
  // An unrated seek does not pair with a rated one.
  CHECK(ask(c, {{"type", "seek"}, {"game", "tablut"}}, "seeking")["type"] == "seeking");
  // A rated seek in range pairs with B.
  c.send({{"type", "seek"}, {"game", "tablut"}, {"rated", true}, {"rating_range", {1400, 1600}}});
  json paired = c.until_type("paired");
  CHECK(paired["rated"] == true);
  b.until_type("paired");
}

}  // namespace cinq::test
