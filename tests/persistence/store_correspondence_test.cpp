// The store's correspondence columns (schema version 2): a file written by version 1 is upgraded in place
// (to the current version), its games kept; a player's games come unfinished first.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <string>
#include <vector>

#include "persistence/store.h"
#include "tests/support/process.h"
#include "tests/support/postgres.h"

namespace cinq::store {
namespace {

using cinq::test::TempDir;

std::unique_ptr<Store> open_at(const std::string& path) {
  Error error;
  auto store = Store::open(test::store_spec(path), error);  // SQLite, or PostgreSQL (postgres.h)
  REQUIRE_MESSAGE(store != nullptr, "opening ", path, ": ", error.message);
  return store;
}

// Runs SQL on a connection of its own; the first column of the first row, or "error: ...".
std::string sql(const std::string& path, const std::string& text) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  std::string answer;
  auto collect = [](void* out, int, char** values, char**) {
    if (static_cast<std::string*>(out)->empty() && values[0] != nullptr)
      *static_cast<std::string*>(out) = values[0];
    return 0;
  };
  char* message = nullptr;
  if (sqlite3_exec(db, text.c_str(), collect, &answer, &message) != SQLITE_OK) {
    answer = std::string("error: ") + (message != nullptr ? message : "?");
    sqlite3_free(message);
  }
  sqlite3_close(db);
  return answer;
}

// The games table as schema version 1 wrote it, with one game in it.
constexpr const char* kVersion1 = R"sql(
CREATE TABLE players (id TEXT PRIMARY KEY NOT NULL, token_hash TEXT NOT NULL, name TEXT NOT NULL,
  created_ms INTEGER NOT NULL);
CREATE TABLE games (id TEXT PRIMARY KEY NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL,
  clock_base_ms INTEGER NOT NULL, clock_increment_ms INTEGER NOT NULL, is_private INTEGER NOT NULL,
  kind TEXT NOT NULL, status TEXT NOT NULL, result TEXT NOT NULL, record TEXT NOT NULL, seat0_id TEXT NOT NULL,
  seat1_id TEXT NOT NULL, seat0_name TEXT NOT NULL, seat1_name TEXT NOT NULL, seat0_clock_ms INTEGER NOT NULL,
  seat1_clock_ms INTEGER NOT NULL, version INTEGER NOT NULL, turns INTEGER NOT NULL, rematch_of TEXT NOT NULL,
  created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL);
CREATE INDEX games_by_status ON games(status);
CREATE INDEX games_by_updated ON games(updated_ms);
INSERT INTO games VALUES ('old1', 'tablut', '', 0, 0, 0, 'live', 'live', '', '#! TABLUT\n', 'pa', 'pb', 'Ann',
  'Bob', 0, 0, 3, 0, '', 1000, 2000);
PRAGMA user_version = 1;
)sql";

GameRow game_of(const std::string& id, const std::string& status, const std::string& seat0,
                std::int64_t deadline, std::int64_t updated) {
  GameRow g;
  g.id = id;
  g.game = "tablut";
  g.status = status;
  g.kind = "correspondence";
  g.clock_days = 3;
  g.seat_ids = {seat0, "someone"};
  g.deadline_ms = deadline;
  g.updated_ms = updated;
  return g;
}

}  // namespace

TEST_CASE("store: a file of schema version 1 is upgraded to the current version and keeps its games") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  REQUIRE(sql(path, kVersion1).empty());
  auto store = open_at(path);
  CHECK(sql(path, "PRAGMA user_version") == "12");
  auto old = store->game("old1");
  REQUIRE(old);
  CHECK(old->record.rfind("#! TABLUT", 0) == 0);  // unfinished: its `#!` line, then its entries (none)
  CHECK(old->seat_names[0] == "Ann");
  CHECK(old->version == 3);
  CHECK(old->clock_days == 0);
  CHECK(old->deadline_ms == 0);
  CHECK(old->seat_token_hashes == std::array<std::string, 2>{"", ""});

  GameRow g = game_of("new1", "live", "pa", 1234, 5);
  g.seat_token_hashes = {"h0", "h1"};
  Error error;
  REQUIRE(store->save_game(g, error));
  auto back = store->game("new1");
  REQUIRE(back);
  CHECK(back->deadline_ms == 1234);
  CHECK(back->clock_days == 3);
  CHECK(back->seat_token_hashes == std::array<std::string, 2>{"h0", "h1"});
}

TEST_CASE(
    "store: a player's games: unfinished ones first, nearest deadline first, then finished, newest first") {
  TempDir dir;
  auto store = open_at(dir.path() + "/cinq.db");
  Error error;
  for (const GameRow& g : {game_of("f-old", "finished", "me", 0, 10), game_of("late", "live", "me", 9000, 1),
                           game_of("f-new", "finished", "me", 0, 20), game_of("soon", "live", "me", 5000, 1),
                           game_of("theirs", "live", "other", 1000, 1)}) {
    REQUIRE(store->save_game(g, error));
  }
  GameRow second = game_of("seat1", "live", "other", 7000, 1);
  second.seat_ids = {"other", "me"};
  REQUIRE(store->save_game(second, error));
  std::vector<std::string> ids;
  for (const auto& g : store->games_of_player("me")) ids.push_back(g.id);
  CHECK(ids == std::vector<std::string>{"soon", "seat1", "late", "f-new", "f-old"});
  CHECK(store->games_of_player("me", 2).size() == 2);
  CHECK(store->games_of_player("").empty());
}

}  // namespace cinq::store
