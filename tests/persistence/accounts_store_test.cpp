// The store's accounts and ratings (schema version 5), on real database files: user names unique
// whatever their case, login tokens written with the player row, a rated game's result applied to both
// ratings once however often its finished row is written, the leaderboard and the archive's filters.
#include <doctest/doctest.h>

#include <thread>

#include "persistence/store.h"
#include "ratings/glicko2.h"
#include "tests/support.h"
#include "tests/support/process.h"
#include "tests/support/postgres.h"

namespace cinq::store {
namespace {

std::unique_ptr<Store> open_at(const std::string& path) {
  Error error;
  auto store = Store::open(test::store_spec(path), error);  // SQLite, or PostgreSQL (postgres.h)
  REQUIRE_MESSAGE(store != nullptr, error.message);
  return store;
}

PlayerRow account(const std::string& id, const std::string& username) {
  PlayerRow p{id, "hash-" + id, username, 1};
  p.username = username;
  p.password_hash = "$argon2id$v=19$m=65536,t=2,p=1$salt$hash";
  return p;
}

// A finished Tablut game, seat 0 against seat 1, who won (0, 1, 2 for a draw).
GameRow finished(const std::string& id, int winner, bool rated, std::int64_t at_ms) {
  GameRow g;
  g.id = id;
  g.game = "tablut";
  g.status = "finished";
  g.result = winner == 2 ? "draw agreement" : "A resign";
  g.record = "#! TABLUT\n#= " + g.result + "\n";
  g.seat_ids = {"pA", "pB"};
  g.seat_names = {"ann", "bob"};
  g.rated = rated;
  g.winner = winner;
  g.created_ms = at_ms - 1000;
  g.updated_ms = at_ms;
  return g;
}

}  // namespace

TEST_CASE("store accounts: user names are found whatever their case, login tokens go with the row") {
  test::TempDir dir;
  auto store = open_at(dir.path() + "/cinq.db");
  Error error;
  PlayerRow ann = account("pA", "Ann_1");
  ann.sessions = {"s1", "s2"};
  REQUIRE(store->put_player(ann, error));
  auto found = store->player_by_username("ann_1");
  REQUIRE(found);
  CHECK(found->id == "pA");
  CHECK(found->username == "Ann_1");
  CHECK(found->sessions == std::vector<std::string>{"s1", "s2"});
  CHECK_FALSE(store->player_by_username(""));
  CHECK_FALSE(store->player_by_username("ann"));
  // The stored list becomes the row's: a logout drops one.
  ann.sessions = {"s2"};
  REQUIRE(store->put_player(ann, error));
  CHECK(store->player("pA")->sessions == std::vector<std::string>{"s2"});
  // A second account of the same name, in another case, is refused by the unique index.
  CHECK_FALSE(store->put_player(account("pZ", "ANN_1"), error));
  // Guests have no user name and may share names.
  REQUIRE(store->put_player({"pG1", "h", "Guest", 1}, error));
  REQUIRE(store->put_player({"pG2", "h", "Guest", 1}, error));
}

TEST_CASE("store accounts: login tokens written as changes keep those another writer added") {
  test::TempDir dir;
  auto store = open_at(dir.path() + "/cinq.db");
  auto other = open_at(dir.path() + "/cinq.db");  // another node's connection to the same database
  Error error;
  PlayerRow ann = account("pA", "ann");
  ann.sessions = {"s1"};
  REQUIRE(store->put_player(ann, error));
  // Two logins from the same copy of the row (s1), on two connections: each adds its own token.
  PlayerRow here = ann, there = ann;
  for (PlayerRow* row : {&here, &there}) row->session_write = PlayerRow::SessionWrite::changes;
  here.sessions = {"s1", "s2"};
  here.sessions_added = {"s2"};
  there.sessions = {"s1", "s3"};
  there.sessions_added = {"s3"};
  REQUIRE_MESSAGE(store->save({here}, {}, error), error.message);
  REQUIRE_MESSAGE(other->save({there}, {}, error), error.message);
  CHECK(store->player("pA")->sessions == std::vector<std::string>{"s1", "s2", "s3"});
  // A rename from a copy that knows none of them changes no token.
  PlayerRow renamed = ann;
  renamed.session_write = PlayerRow::SessionWrite::changes;
  renamed.sessions = {};
  renamed.name = "Ann";
  REQUIRE(other->save({renamed}, {}, error));
  CHECK(store->player("pA")->sessions == std::vector<std::string>{"s1", "s2", "s3"});
  CHECK(store->player("pA")->name == "Ann");
  // A logout ends one; the oldest beyond kMaxSessions go.
  PlayerRow out = renamed;
  out.sessions_ended = {"s2"};
  REQUIRE(store->save({out}, {}, error));
  CHECK(store->player("pA")->sessions == std::vector<std::string>{"s1", "s3"});
  for (std::size_t i = 0; i < kMaxSessions; ++i) {
    PlayerRow login = renamed;
    login.sessions_added = {"n" + std::to_string(i)};
    REQUIRE(store->save({login}, {}, error));
  }
  auto sessions = store->player("pA")->sessions;
  REQUIRE(sessions.size() == kMaxSessions);
  CHECK(sessions.front() == "n0");
  CHECK(sessions.back() == "n" + std::to_string(kMaxSessions - 1));
  // Logging out everywhere ends them all.
  PlayerRow all = renamed;
  all.sessions_all_ended = true;
  REQUIRE(other->save({all}, {}, error));
  CHECK(store->player("pA")->sessions.empty());
}

TEST_CASE("store accounts: a user name is claimed once, by the unique index, whatever its case") {
  test::TempDir dir;
  auto store = open_at(dir.path() + "/cinq.db");
  auto other = open_at(dir.path() + "/cinq.db");
  Error error;
  for (const char* id : {"pG1", "pG2", "pG3", "pG4"}) REQUIRE(store->put_player({id, "h", "Guest", 1}, error));
  CHECK(store->claim_username("pG1", "Zed", "hash-1", error) == UsernameClaim::claimed);
  auto zed = store->player("pG1");
  REQUIRE(zed);
  CHECK(zed->username == "Zed");
  CHECK(zed->name == "Zed");
  CHECK(zed->password_hash == "hash-1");
  // Another guest, on another connection, asking for it in another case: taken, and nothing changed.
  CHECK(other->claim_username("pG2", "zED", "hash-2", error) == UsernameClaim::taken);
  CHECK(store->player("pG2")->username.empty());
  CHECK(store->player("pG2")->name == "Guest");
  // An account keeps its name; an unknown player is no guest.
  CHECK(store->claim_username("pG1", "Other", "hash-3", error) == UsernameClaim::not_guest);
  CHECK(store->player("pG1")->username == "Zed");
  CHECK(store->claim_username("nobody", "Nobody", "hash-4", error) == UsernameClaim::not_guest);
  // Two at the same instant, on two connections: one each way, never both.
  UsernameClaim a{}, b{};
  std::thread ta([&] {
    Error e;
    a = store->claim_username("pG3", "Race", "hash-5", e);
  });
  std::thread tb([&] {
    Error e;
    b = other->claim_username("pG4", "RACE", "hash-6", e);
  });
  ta.join();
  tb.join();
  CHECK(((a == UsernameClaim::claimed && b == UsernameClaim::taken) ||
         (a == UsernameClaim::taken && b == UsernameClaim::claimed)));
  CHECK(store->player_by_username("race"));
}

TEST_CASE("store ratings: a rated result changes both ratings once, by Glicko-2, however often it is written") {
  test::TempDir dir;
  auto store = open_at(dir.path() + "/cinq.db");
  Error error;
  REQUIRE(store->put_player(account("pA", "ann"), error));
  REQUIRE(store->put_player(account("pB", "bob"), error));
  const GameRow game = finished("g1", 0, true, 1'000'000);
  for (int i = 0; i < 3; ++i) REQUIRE_MESSAGE(store->save_game(game, error), error.message);
  const ratings::Rating fresh;
  const ratings::Rating won = ratings::update(fresh, {{fresh, 1.0}});
  auto ann = store->ratings("pA");
  auto bob = store->ratings("pB");
  REQUIRE(ann.size() == 1);
  REQUIRE(bob.size() == 1);
  CHECK(ann[0].rating == doctest::Approx(won.rating));
  CHECK(ann[0].games == 1);
  CHECK(ann[0].wins == 1);
  CHECK(bob[0].losses == 1);
  CHECK(ann[0].pool == "live");
  CHECK(store->game_ratings("g1").size() == 2);
  CHECK(store->rating_history("pA").size() == 1);
  // Unrated and undecided games change nothing.
  REQUIRE(store->save_game(finished("g2", 1, false, 2'000'000), error));
  GameRow aborted = finished("g3", -1, true, 3'000'000);
  aborted.result = "aborted";
  REQUIRE(store->save_game(aborted, error));
  CHECK(store->ratings("pA")[0].games == 1);
  // A draw a year later: the deviation grew over the idle weeks first, then the game lowered it.
  const std::int64_t year = 52 * ratings::kIdlePeriodMs;
  REQUIRE(store->save_game(finished("g4", 2, true, 1'000'000 + year), error));
  ann = store->ratings("pA");
  CHECK(ann[0].games == 2);
  CHECK(ann[0].draws == 1);
  auto history = store->rating_history("pA");
  REQUIRE(history.size() == 2);
  CHECK(history[0].game_id == "g4");  // newest first
  CHECK(history[0].before_deviation > history[1].deviation);
  CHECK(history[0].before_deviation ==
        doctest::Approx(ratings::idle(ratings::Rating{history[1].rating, history[1].deviation, history[1].volatility},
                                      52).deviation));
}

TEST_CASE("store archive: finished public games by player, result, game, rated and time, paged, counted") {
  test::TempDir dir;
  auto store = open_at(dir.path() + "/cinq.db");
  Error error;
  for (int i = 0; i < 25; ++i) REQUIRE(store->save_game(finished("w" + std::to_string(i), i % 2, false, 1000 + i), error));
  REQUIRE(store->save_game(finished("d", 2, true, 5000), error));
  GameRow hidden = finished("private", 0, false, 6000);
  hidden.is_private = true;
  REQUIRE(store->save_game(hidden, error));
  std::int64_t total = 0;
  ArchiveQuery all;
  auto page = store->search_games(all, &total);
  CHECK(total == 26);  // the private one is not in the archive
  REQUIRE(page.size() == 20);
  CHECK(page[0].id == "d");  // newest first
  all.offset = 20;
  CHECK(store->search_games(all).size() == 6);
  ArchiveQuery wins;
  wins.player_id = "pA";
  wins.result = "win";
  store->search_games(wins, &total);
  CHECK(total == 13);  // seat 0 won the even ones
  wins.result = "loss";
  store->search_games(wins, &total);
  CHECK(total == 12);
  ArchiveQuery draws;
  draws.result = "draw";
  draws.rated = 1;
  auto d = store->search_games(draws, &total);
  REQUIRE(total == 1);
  CHECK(d[0].id == "d");
  CHECK(d[0].winner == 2);
  CHECK(d[0].rated);
  ArchiveQuery span;
  span.from_ms = 1010;
  span.to_ms = 1020;
  store->search_games(span, &total);
  CHECK(total == 10);
  ArchiveQuery other;
  other.game = "baltek";
  store->search_games(other, &total);
  CHECK(total == 0);
}

}  // namespace cinq::store
