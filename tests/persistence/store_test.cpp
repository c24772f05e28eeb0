// The SQLite store and its Worker, on real database files in fresh temporary directories: WAL mode, the
// schema, every field's round trip, the queries the server makes on start, a failed save, a crash (SIGKILL)
// right after a save, and the worker's ordering, draining and stopping. Storage the size of a turn (schema
// version 3): rooms' saves as entry rows, finishing, reading back, restoring, and the upgrade of a version 2
// file with games in progress.
#include "persistence/store.h"

#include <doctest/doctest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <random>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <stdexcept>
#include <thread>
#include <vector>

#include "lobby/room.h"
#include "persistence/saver.h"
#include "persistence/worker.h"
#include "server/stored_rooms.h"
#include "rules/notation.h"
#include "rules/registry.h"
#include "tests/lobby/helpers.h"
#include "tests/support.h"
#include "tests/support/process.h"
#include "tests/persistence/helpers.h"
#include "tests/support/game_profile.h"
#include "tests/support/postgres.h"

namespace cinq::store {
namespace {

using cinq::test::TempDir;
using namespace std::chrono_literals;

using testing::open_store;  // SQLite, or PostgreSQL (tests/support/postgres.h)

void save(Store& store, const GameRow& game) {
  Error error;
  REQUIRE_MESSAGE(store.save_game(game, error), error.message);
}

// Runs `sql` on its own sqlite3 connection to `path` (the store's file as any other client sees it) and gives
// the first column of the first row as text, or SQLite's error.
std::string ask_sqlite(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
  std::string answer;
  auto collect = [](void* out, int, char** values, char**) {
    if (static_cast<std::string*>(out)->empty() && values[0] != nullptr)
      *static_cast<std::string*>(out) = values[0];
    return 0;
  };
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), collect, &answer, &message) != SQLITE_OK) {
    answer = std::string("error: ") + (message != nullptr ? message : sqlite3_errmsg(db));
    sqlite3_free(message);
  }
  sqlite3_close(db);
  return answer;
}

// A game with every field set to something other than its default.
GameRow full_game(const std::string& id) {
  GameRow g;
  g.id = id;
  g.game = "tablut";
  g.options = "board=9 king=armed";
  g.clock_base_ms = 300000;
  g.clock_increment_ms = 2500;
  g.is_private = true;
  g.kind = "correspondence";
  g.status = "live";
  g.result = "";
  g.record = "#! TABLUT\n# A: \"Zoë\" l'Ancienne \\ 王\n1   A/e2 c2/   D/e3 c3/\n2   A/c2 c1/\n";  // canonical
  g.seat_ids = {"pA1b2C3", "pZ9y8X7"};
  g.seat_names = {"Zoë «la rapide»", "Łukasz 🐉"};
  g.clock_ms = {299000, 9007199254740993};  // not representable as a double: stored as an integer
  g.version = 42;
  g.turns = 3;
  g.rematch_of = "r0ld";
  g.created_ms = 1700000000123;
  g.updated_ms = 1700000050456;
  g.clock_days = 3;
  g.deadline_ms = 1700259250456;
  g.seat_token_hashes = {"0beec7b5ea3f0fdbc95d0dd47f3c5bc275da8a33", "62cdb7020ff920e5aa642c3d4066950dd1f01f4d"};
  return g;
}

GameRow game_at(const std::string& id, const std::string& status, std::int64_t created, std::int64_t updated,
                bool is_private = false) {
  GameRow g;
  g.id = id;
  g.game = "baltek";
  g.status = status;
  g.is_private = is_private;
  g.created_ms = created;
  g.updated_ms = updated;
  return g;
}

std::vector<std::string> ids(const std::vector<GameRow>& games) {
  std::vector<std::string> out;
  for (const auto& g : games) out.push_back(g.id);
  return out;
}

void check_same(const GameRow& a, const GameRow& b) {
  CHECK(a.id == b.id);
  CHECK(a.game == b.game);
  CHECK(a.options == b.options);
  CHECK(a.clock_base_ms == b.clock_base_ms);
  CHECK(a.clock_increment_ms == b.clock_increment_ms);
  CHECK(a.is_private == b.is_private);
  CHECK(a.kind == b.kind);
  CHECK(a.status == b.status);
  CHECK(a.result == b.result);
  CHECK(a.record == b.record);
  CHECK(a.seat_ids == b.seat_ids);
  CHECK(a.seat_names == b.seat_names);
  CHECK(a.clock_ms == b.clock_ms);
  CHECK(a.version == b.version);
  CHECK(a.turns == b.turns);
  CHECK(a.rematch_of == b.rematch_of);
  CHECK(a.created_ms == b.created_ms);
  CHECK(a.updated_ms == b.updated_ms);
  CHECK(a.clock_days == b.clock_days);
  CHECK(a.deadline_ms == b.deadline_ms);
  CHECK(a.seat_token_hashes == b.seat_token_hashes);
}

TEST_CASE("store: opening creates the file and its directories, in WAL mode, with schema version 7") {
  TempDir dir;
  const std::string path = dir.path() + "/data/deeper/cinq.db";
  auto store = open_store(path);
  CHECK(std::filesystem::is_regular_file(path));
  CHECK(ask_sqlite(path, "PRAGMA journal_mode") == "wal");
  CHECK(ask_sqlite(path, "PRAGMA user_version") == "12");
  CHECK(ask_sqlite(path, "SELECT count(*) FROM sqlite_master WHERE name IN ('players', 'games', "
                         "'record_entries', 'game_progress')") == "4");
  CHECK(store->count_games() == 0);
}

TEST_CASE("store: reopening an existing file keeps every row and creates nothing twice") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  const std::string schema_sql =
      "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master ORDER BY name)";
  std::string schema;
  {
    auto store = open_store(path);
    save(*store, full_game("g1"));
    Error error;
    REQUIRE(store->put_player({"p1", "ab12", "Ann", 5}, error));
    schema = ask_sqlite(path, schema_sql);
  }
  auto store = open_store(path);
  CHECK(ask_sqlite(path, schema_sql) == schema);
  CHECK(ask_sqlite(path, "PRAGMA user_version") == "12");
  CHECK(store->count_games() == 1);
  REQUIRE(store->game("g1"));
  check_same(*store->game("g1"), full_game("g1"));
  REQUIRE(store->player("p1"));
  CHECK(store->player("p1")->name == "Ann");
}

TEST_CASE("store: a player round-trips every field, and putting it again replaces it") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  Error error;
  REQUIRE(store->put_player({"pQ7w", "9f86d081884c7d65", "Ünal \"O'Brien\" 李", 1700000000999}, error));
  auto back = store->player("pQ7w");
  REQUIRE(back);
  CHECK(back->id == "pQ7w");
  CHECK(back->token_hash == "9f86d081884c7d65");
  CHECK(back->name == "Ünal \"O'Brien\" 李");
  CHECK(back->created_ms == 1700000000999);

  REQUIRE(store->put_player({"pQ7w", "00ff", "Renamed", 7}, error));
  CHECK(store->player("pQ7w")->name == "Renamed");
  CHECK(store->player("pQ7w")->token_hash == "00ff");
  CHECK_FALSE(store->player("nobody"));
}

TEST_CASE("store: a game round-trips every field exactly") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  save(*store, full_game("room-1"));
  auto back = store->game("room-1");
  REQUIRE(back);
  check_same(*back, full_game("room-1"));
  CHECK_FALSE(store->game("room-2"));
}

TEST_CASE("store: saving a game again with the same id replaces the whole row") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  save(*store, full_game("g"));
  GameRow later = game_at("g", "finished", 10, 20);
  later.result = "A escape";
  later.record = "#! TABLUT\n1   A/e2 c2/\n# A escape\n";
  save(*store, later);
  CHECK(store->count_games() == 1);
  REQUIRE(store->game("g"));
  check_same(*store->game("g"), later);  // nothing of the first row is left (seats, clocks, rematch_of)
}

TEST_CASE("store: unfinished games are the open and live ones, oldest first") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  save(*store, game_at("live-new", "live", 300, 301));
  save(*store, game_at("done", "finished", 100, 900));
  save(*store, game_at("open-old", "open", 100, 999));
  save(*store, game_at("live-mid", "live", 200, 201));
  CHECK(ids(store->unfinished_games()) == std::vector<std::string>{"open-old", "live-mid", "live-new"});

  save(*store, game_at("live-mid", "finished", 200, 1000));  // the game ended: it is no longer reopened
  CHECK(ids(store->unfinished_games()) == std::vector<std::string>{"open-old", "live-new"});
}

TEST_CASE("store: finished games come newest first, at most `limit`, public ones unless asked") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  save(*store, game_at("f1", "finished", 1, 100));
  save(*store, game_at("f3", "finished", 3, 300));
  save(*store, game_at("secret", "finished", 4, 400, true));
  save(*store, game_at("f2", "finished", 2, 200));
  save(*store, game_at("still-live", "live", 5, 500));
  CHECK(ids(store->finished_games(10)) == std::vector<std::string>{"f3", "f2", "f1"});
  CHECK(ids(store->finished_games(2)) == std::vector<std::string>{"f3", "f2"});
  CHECK(ids(store->finished_games(10, true)) == std::vector<std::string>{"secret", "f3", "f2", "f1"});
  CHECK(store->finished_games(0).empty());
  CHECK(store->finished_games(-1).empty());
}

TEST_CASE("store: a save that the database refuses returns false, says which game and why, and changes nothing") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  auto store = open_store(path);
  save(*store, game_at("g", "live", 1, 1));
  // Another client of the database makes it refuse any row whose result is "refused".
  for (const char* when : {"INSERT", "UPDATE"})
    REQUIRE(test::refuse_writes(path, "games", when, "NEW.result = 'refused'", "refused by the test") == "");
  GameRow refused = game_at("g", "finished", 1, 2);
  refused.result = "refused";
  Error error;
  CHECK_FALSE(store->save_game(refused, error));
  CHECK(error.message == "saving game g: refused by the test");
  refused.id = "new";
  CHECK_FALSE(store->save_game(refused, error));
  CHECK(store->game("g")->status == "live");
  CHECK_FALSE(store->game("new"));
  CHECK(store->count_games() == 1);

  // The failed transaction was ended: the next save goes through.
  save(*store, game_at("g", "finished", 1, 3));
  CHECK(store->game("g")->status == "finished");
}

TEST_CASE("store: reads see committed saves only, and are not blocked by another client's write") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  auto store = open_store(path);
  save(*store, game_at("g", "live", 1, 1));
  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &other) == SQLITE_OK);
  REQUIRE(sqlite3_exec(other, "BEGIN IMMEDIATE; UPDATE games SET status = 'finished';", nullptr, nullptr,
                       nullptr) == SQLITE_OK);
  auto start = std::chrono::steady_clock::now();
  CHECK(store->game("g")->status == "live");
  CHECK(store->unfinished_games().size() == 1);
  CHECK(std::chrono::steady_clock::now() - start < 1s);  // far below the 5 s busy timeout
  sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_close(other);
  CHECK(store->game("g")->status == "finished");
}

TEST_CASE("store: saves and reads from several threads at once all land") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  constexpr int kThreads = 4;
  constexpr int kSaves = 20;
  std::atomic<int> failures{0};
  std::atomic<bool> done{false};
  std::thread reader([&] {
    while (!done) store->unfinished_games();
  });
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&, t] {
      for (int i = 0; i < kSaves; ++i) {
        Error error;
        if (!store->save_game(game_at("t" + std::to_string(t) + "-" + std::to_string(i), "live", i, i),
                              error)) {
          ++failures;
        }
      }
    });
  }
  for (auto& w : writers) w.join();
  done = true;
  reader.join();
  CHECK(failures == 0);
  CHECK(store->count_games() == kThreads * kSaves);
}

TEST_CASE("store: every save that returned before a crash (SIGKILL) is there after reopening") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  constexpr int kGames = 30;
  const std::string spec = test::store_spec(path);  // before the fork: the parent's PostgreSQL, if any
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The child must not return into doctest: it leaves by SIGKILL, or by _exit if something failed.
    Error error;
    auto store = Store::open(spec, error);
    if (store == nullptr) _exit(2);
    for (int i = 0; i < kGames; ++i) {
      GameRow g = full_game("crash-" + std::to_string(i));
      g.turns = i;
      if (!store->save_game(g, error)) _exit(3);
    }
    raise(SIGKILL);
    _exit(4);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE_MESSAGE(WIFSIGNALED(status), "the child exited with ", WEXITSTATUS(status), " instead of dying");
  CHECK(WTERMSIG(status) == SIGKILL);
  if (!test::testing_postgres())
    CHECK(std::filesystem::exists(path + "-wal"));  // never closed: the saves are in the write-ahead log

  auto store = open_store(path);
  CHECK(store->count_games() == kGames);
  for (int i = 0; i < kGames; ++i) {
    auto g = store->game("crash-" + std::to_string(i));
    REQUIRE(g);
    CHECK(g->turns == i);
    CHECK(g->record == full_game("x").record);
  }
}

TEST_CASE("store: a path that cannot hold a database gives no store and a message naming the path") {
  TempDir dir;
  const std::string file = dir.path() + "/a-file";
  std::ofstream(file) << "not a directory\n";
  Error error;
  CHECK(Store::open(file + "/cinq.db", error) == nullptr);
  CHECK(error.message.find(file) != std::string::npos);
  CHECK(error.message.find("Not a directory") != std::string::npos);

  error = {};
  CHECK(Store::open(file, error) == nullptr);  // a file that is not a database
  CHECK(error.message.find(file) != std::string::npos);
  CHECK(error.message.find("file is not a database") != std::string::npos);
}

// ---------------------------------------------------------------------------------------------------------
// Storage the size of a turn (schema version 3): rooms' saves.

// Saves `room` as the server does after an effect that asks for it; gives the save as the room handed it.
lobby::RoomSave store_room(Store& store, lobby::Room& room) {
  lobby::RoomSave s = room.take_save(lobby::test::at(0));
  Error error;
  REQUIRE_MESSAGE(store.save({}, {server::to_save(s, 1000 + room.version())}, error), error.message);
  return s;
}

// The stored game reads back as the room stands: its whole record, its open turn, its progress.
void check_stored(Store& store, const lobby::Room& room) {
  auto row = store.game(room.id());
  REQUIRE(row);
  const lobby::Saved now = room.saved(lobby::test::at(0));
  CHECK(row->record == now.record);
  CHECK(row->open_turn == now.open_turn);
  CHECK(row->status == lobby::status_name(now.status));
  CHECK(row->result == now.result);
  CHECK(row->version == now.version);
  CHECK(row->turns == now.turns);
  CHECK(row->clock_ms == now.clock_ms);
  CHECK(row->seat_ids[1] == now.seats[1].id);
}

// A room built again from its stored row, as the server reopens it.
lobby::Room reopened(Store& store, const std::string& id) {
  auto row = store.game(id);
  REQUIRE(row);
  auto room = lobby::Room::restore(server::from_row(*row), lobby::test::at(0));
  REQUIRE_MESSAGE(room.ok(), (room.ok() ? "" : room.error().message));
  return std::move(*room);
}

TEST_CASE("store: a game in progress is kept as entry rows, a turn writes its entry and progress, no games row") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  auto store = open_store(path);
  lobby::Room room = lobby::test::live_room("tablut", "", lobby::test::live_clock(300, 3));
  lobby::RoomSave first = store_room(*store, room);
  CHECK(first.row_changed);
  CHECK_FALSE(first.base_version);  // a new room: its first save stands alone
  CHECK(first.entries.size() == 2);  // the players and the timestamp
  CHECK(test::ask_store(path, "SELECT record FROM games WHERE id = 'room-1'") == "#! TABLUT");
  CHECK(test::ask_store(path, "SELECT group_concat(text, '|') FROM record_entries WHERE game_id = 'room-1'") ==
        "A = alice    D = bob|> 2026-11-21 10:00:00");
  check_stored(*store, room);

  // From now on the games row may not change: a turn must not write it.
  REQUIRE(test::refuse_writes(path, "games", "UPDATE", "", "frozen") == "");
  std::mt19937 rng(5);
  for (int turn = 0; turn < 12; ++turn) {
    const std::int64_t before = room.version();
    lobby::test::play_random_action(room, rng, lobby::test::at(1000 * turn));
    REQUIRE(room.status() == lobby::Status::live);
    lobby::RoomSave s = store_room(*store, room);
    CHECK_FALSE(s.row_changed);
    CHECK(s.base_version == before);
    REQUIRE(s.entries.size() == 1);  // this turn's entry alone
    CHECK(s.from == static_cast<std::size_t>(turn + 2));
    CHECK(s.saved.record == "#! TABLUT");
    check_stored(*store, room);
  }
  CHECK(test::ask_store(path, "SELECT count(*) FROM record_entries WHERE game_id = 'room-1'") == "14");
  CHECK(test::ask_store(path, "SELECT version FROM game_progress WHERE game_id = 'room-1'") ==
        std::to_string(room.version()));

  // A queried column changed (the result, the status): the row is written, here refused by the trigger.
  REQUIRE(!room.resign(room.seats()[0].id, lobby::test::at(20000)).error);
  lobby::RoomSave done = room.take_save(lobby::test::at(20000));
  CHECK(done.row_changed);
  Error error;
  CHECK_FALSE(store->save({}, {server::to_save(done, 1)}, error));
  CHECK(error.message == "saving game room-1: frozen");
}

TEST_CASE("store: a finished game keeps its whole record in its row, its entries and progress go") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  auto store = open_store(path);
  lobby::Room room = lobby::test::live_room("tablut");
  store_room(*store, room);
  std::mt19937 rng(9);
  for (int turn = 0; turn < 6; ++turn) {
    lobby::test::play_random_action(room, rng);
    store_room(*store, room);
  }
  CHECK(test::ask_store(path, "SELECT count(*) FROM record_entries") == "8");
  REQUIRE(!room.offer_draw("alice-id", lobby::test::at(0)).error);
  REQUIRE(!room.offer_draw("bob-id", lobby::test::at(0)).error);
  lobby::RoomSave done = store_room(*store, room);
  // The whole record, but made from the version stored: if a save before it failed, it fails too.
  CHECK(done.base_version == room.version() - 2);
  CHECK(done.entries.empty());
  CHECK(test::ask_store(path, "SELECT count(*) FROM record_entries") == "0");
  CHECK(test::ask_store(path, "SELECT count(*) FROM game_progress") == "0");
  const std::string record = room.record().write();
  CHECK(record.ends_with("#= draw agreement\n"));
  CHECK(test::ask_store(path, "SELECT record FROM games") == record);
  check_stored(*store, room);
  CHECK(store->finished_games(10).size() == 1);
  CHECK(store->unfinished_games().empty());
  CHECK(store->games_of_player("alice-id").front().record == record);
}

// Plays random actions (one item per message, as a browser sends them) in a room of `game`, saving after
// each as the server does; checks that the stored game reads back as the room stands, and now and then
// reopens the room from the store and plays on with the reopened one.
void play_and_store(const Game& game, unsigned seed) {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  lobby::Room room = lobby::test::live_room(game.name(), game.bounded_options());
  store_room(*store, room);
  std::mt19937 rng(seed);
  for (int action = 0; action < 400 && room.status() != lobby::Status::finished; ++action) {
    lobby::test::play_random_action(room, rng);
    lobby::RoomSave s = store_room(*store, room);
    // The size of a turn: this action's turn entry (and a round's result and `#- N` line when one starts).
    if (room.status() != lobby::Status::finished && s.base_version && action % 37 != 1) CHECK(s.entries.size() <= 3);
    if (action < 40 || action % 5 == 0 || room.status() == lobby::Status::finished) check_stored(*store, room);
    if (action % 37 == 0 && room.status() != lobby::Status::finished) {
      // The server restarts: the room comes back from the store (its next save rewrites its entries).
      lobby::Room back = reopened(*store, room.id());
      CHECK(back.record().write() == room.record().write());
      CHECK(back.record().state().fingerprint() == room.record().state().fingerprint());
      CHECK(back.version() == room.version());
      room = std::move(back);
    }
  }
  check_stored(*store, room);
}

TEST_CASE("store: rooms of every game played at random read back from their saves, and reopen, every step") {
  for (const Game* g : games()) {
    SUBCASE(g->name().data()) { play_and_store(*g, 1616u); }
  }
}

// Plays the turns of the record in `file` in a room, whole turn by whole turn, saving after each; the stored
// game reads back as the room stands at every turn, reopens to the same game, and at the end has the
// record's turns and results.
void replay_through_store(const std::string& file) {
  auto sample = Record::read(cinq::test::read_text(cinq::test::data_path(file)));
  REQUIRE_MESSAGE(sample.ok(), (sample.ok() ? "" : sample.error().text()));
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  lobby::Room room = lobby::test::live_room(sample->game().name(), sample->options().text());
  store_room(*store, room);
  int turns = 0;
  for (const Entry& e : sample->entries()) {
    if (e.kind != Entry::Kind::turns) continue;
    const TurnText& t = e.turns.front();
    INFO("turn ", turns + 1, ": ", turn_text(t));
    REQUIRE(room.seat_to_move() >= 0);
    lobby::Effect effect = room.act_seat(room.seat_to_move(), t.items, true, lobby::test::at(0));
    REQUIRE_MESSAGE(!effect.error, (effect.error ? effect.error->message : ""));
    store_room(*store, room);
    ++turns;
    check_stored(*store, room);
    if (turns % 5 == 0) {
      lobby::Room back = reopened(*store, room.id());
      CHECK(back.record().write() == room.record().write());
      CHECK(back.record().state().fingerprint() == room.record().state().fingerprint());
      room = std::move(back);
    }
  }
  CHECK(room.record().result_text() == sample->result_text());
  CHECK(room.record().state().fingerprint() == sample->state().fingerprint());
  // The results the sample writes (a Batik game's inside the match, the match's) are all in the stored one.
  auto stored = Record::read(store->game(room.id())->record);
  REQUIRE(stored.ok());
  auto results = [](const Record& r) {
    std::vector<std::string> out;
    for (const std::string& text : r.entry_texts(0))
      if (text.starts_with("#=") || text.starts_with("#-")) out.push_back(text);
    return out;
  };
  CHECK(results(*stored) == results(*sample));
  CHECK(stored->write() == room.record().write());
}

TEST_CASE("store: a game of rounds or a match (results within it) survives save, read and restore unchanged") {
  for (const Game* game : games()) {
    const std::string_view record = test::profile(*game).rounds_record;
    if (record.empty()) continue;
    CAPTURE(game->name());
    replay_through_store(std::string(record));
  }
}

// The schema of version 2, as it was (the games table with the whole record; no entries).
constexpr const char* kVersion2 = R"sql(
CREATE TABLE players (
  id TEXT PRIMARY KEY NOT NULL,
  token_hash TEXT NOT NULL,
  name TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE TABLE games (
  id TEXT PRIMARY KEY NOT NULL,
  game TEXT NOT NULL,
  options TEXT NOT NULL,
  clock_base_ms INTEGER NOT NULL,
  clock_increment_ms INTEGER NOT NULL,
  is_private INTEGER NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  result TEXT NOT NULL,
  record TEXT NOT NULL,
  seat0_id TEXT NOT NULL,
  seat1_id TEXT NOT NULL,
  seat0_name TEXT NOT NULL,
  seat1_name TEXT NOT NULL,
  seat0_clock_ms INTEGER NOT NULL,
  seat1_clock_ms INTEGER NOT NULL,
  version INTEGER NOT NULL,
  turns INTEGER NOT NULL,
  rematch_of TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  clock_days INTEGER NOT NULL DEFAULT 0,
  deadline_ms INTEGER NOT NULL DEFAULT 0,
  seat0_token_hash TEXT NOT NULL DEFAULT '',
  seat1_token_hash TEXT NOT NULL DEFAULT ''
);
CREATE INDEX games_by_status ON games(status);
CREATE INDEX games_by_updated ON games(updated_ms);
CREATE INDEX games_by_seat0 ON games(seat0_id);
CREATE INDEX games_by_seat1 ON games(seat1_id);
PRAGMA user_version = 2;
)sql";

// Writes `room` into a version 2 file the way that version's server did: the whole row, the record whole
// and, while a turn was open, followed by the line `# turn in progress`.
void insert_v2(sqlite3* db, const lobby::Room& room) {
  const lobby::Saved s = room.saved(lobby::test::at(0));
  GameRow r = server::to_row(s, 5000 + s.version);
  if (s.open_turn) r.record += "# turn in progress\n";
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(db,
                             "INSERT INTO games VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
                             "?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)",
                             -1, &stmt, nullptr) == SQLITE_OK);
  int i = 0;
  auto text = [&](const std::string& v) { sqlite3_bind_text(stmt, ++i, v.c_str(), -1, SQLITE_TRANSIENT); };
  auto integer = [&](std::int64_t v) { sqlite3_bind_int64(stmt, ++i, v); };
  text(r.id), text(r.game), text(r.options), integer(r.clock_base_ms), integer(r.clock_increment_ms);
  integer(r.is_private), text(r.kind), text(r.status), text(r.result), text(r.record);
  text(r.seat_ids[0]), text(r.seat_ids[1]), text(r.seat_names[0]), text(r.seat_names[1]);
  integer(r.clock_ms[0]), integer(r.clock_ms[1]), integer(r.version), integer(r.turns), text(r.rematch_of);
  integer(r.created_ms), integer(r.updated_ms), integer(r.clock_days), integer(r.deadline_ms);
  text(r.seat_token_hashes[0]), text(r.seat_token_hashes[1]);
  CHECK(sqlite3_step(stmt) == SQLITE_DONE);
  sqlite3_finalize(stmt);
}

lobby::Room room_with_id(const std::string& id, std::string_view game, std::string_view options = "",
                         lobby::ClockSpec clock = {}) {
  auto room = lobby::Room::create(lobby::RoomConfig{id, find_game(game), std::string(options), clock, false, ""},
                                  lobby::test::at(0));
  REQUIRE(room.ok());
  return std::move(*room);
}

TEST_CASE("store: a version 2 file with games in progress is upgraded in place, every game reads back, plays on") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  std::mt19937 rng(2);
  std::vector<lobby::Room> rooms;
  auto seated = [&](lobby::Room room) {
    REQUIRE(!room.sit(lobby::test::kAlice, 0, lobby::test::at(0)).error);
    REQUIRE(!room.sit(lobby::test::kBob, 1, lobby::test::at(0)).error);
    return room;
  };
  // Tablut some turns in, on a clock.
  rooms.push_back(seated(room_with_id("tablut-live", "tablut", "", lobby::test::live_clock(300, 3))));
  for (int i = 0; i < 9; ++i) lobby::test::play_random_action(rooms.back(), rng);
  // Every game by correspondence (a seat token set), with its test profile's options: into its second round
  // or game where it has them (a Batik match's first result line not written yet: the board's), then a few
  // actions sent one by one, stopping where a turn is left open (Baltek's turns are several actions).
  const std::size_t first_mail = rooms.size();
  for (const Game* game : games()) {
    const std::string name(game->name());
    rooms.push_back(seated(
        room_with_id(name + "-mail", name, test::profile(*game).store_options, lobby::ClockSpec{0, 0, 3})));
    lobby::Room& room = rooms.back();
    room.set_seat_token_hash(0, "h0");
    for (int i = 0; i < 20000 && game->has_rounds() && room.record().state().round() < 2; ++i)
      lobby::test::play_random_action(room, rng);
    if (game->has_rounds()) REQUIRE(room.record().state().round() == 2);
    for (int i = 0; i < 3 && !room.record().state().mid_turn(); ++i) lobby::test::play_random_action(room, rng);
    REQUIRE(room.status() == lobby::Status::live);
  }
  const std::size_t end_mail = rooms.size();
  // A room still waiting for its second player.
  rooms.push_back(room_with_id("tablut-open", "tablut"));
  REQUIRE(!rooms.back().sit(lobby::test::kCarol, 1, lobby::test::at(0)).error);
  // A finished game.
  rooms.push_back(seated(room_with_id("tablut-done", "tablut")));
  lobby::test::play_random_action(rooms.back(), rng);
  REQUIRE(!rooms.back().resign("bob-id", lobby::test::at(0)).error);
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, kVersion2, nullptr, nullptr, nullptr) == SQLITE_OK);
    for (const lobby::Room& room : rooms) insert_v2(db, room);
    sqlite3_close(db);
  }
  const std::string finished_v2 = ask_sqlite(path, "SELECT record FROM games WHERE id = 'tablut-done'");

  auto store = open_store(path);
  CHECK(ask_sqlite(path, "PRAGMA user_version") == "12");
  for (const lobby::Room& room : rooms) {
    INFO(room.id());
    check_stored(*store, room);
    const bool finished = room.status() == lobby::Status::finished;
    CHECK(ask_sqlite(path, "SELECT record FROM games WHERE id = '" + room.id() + "'") ==
          (finished ? room.record().write() : room.record().header_line()));
    CHECK(ask_sqlite(path, "SELECT count(*) FROM game_progress WHERE game_id = '" + room.id() + "'") ==
          (finished ? "0" : "1"));
  }
  CHECK(ask_sqlite(path, "SELECT record FROM games WHERE id = 'tablut-done'") == finished_v2);
  CHECK(store->unfinished_games().size() == rooms.size() - 1);
  bool some_open_turn = false;
  for (std::size_t i = first_mail; i < end_mail; ++i) {
    const lobby::Room& room = rooms[i];
    INFO(room.id());
    CHECK(store->game(room.id())->open_turn == room.record().state().mid_turn());
    CHECK(store->game(room.id())->seat_token_hashes[0] == "h0");
    some_open_turn = some_open_turn || room.record().state().mid_turn();
  }
  CHECK(some_open_turn);  // a game whose turns are several actions left one open
  CHECK(ask_sqlite(path, "SELECT count(*) FROM record_entries WHERE game_id = 'tablut-live'") == "11");

  // Play goes on: every unfinished room reopened from the upgraded file accepts turns, saved as changes.
  for (const lobby::Room& before : rooms) {
    if (before.status() == lobby::Status::finished) continue;
    INFO(before.id());
    lobby::Room room = reopened(*store, before.id());
    CHECK(room.record().write() == before.record().write());
    if (room.status() == lobby::Status::open) {
      REQUIRE(!room.sit(lobby::test::kAlice, 0, lobby::test::at(0)).error);
      store_room(*store, room);
      check_stored(*store, room);
    }
    for (int i = 0; i < 4 && room.status() == lobby::Status::live; ++i) {
      lobby::test::play_random_action(room, rng);
      lobby::RoomSave s = store_room(*store, room);
      CHECK(s.base_version);  // a change to what the store holds
      check_stored(*store, room);
    }
    CHECK(reopened(*store, before.id()).record().write() == room.record().write());
  }
}

TEST_CASE("worker: jobs run one at a time, in the order they were posted, off the caller's thread") {
  Worker worker("order");
  std::vector<int> order;
  std::atomic<int> running{0};
  bool overlapped = false;
  std::thread::id job_thread;
  for (int i = 0; i < 50; ++i) {
    CHECK(worker.post([&, i] {
      if (++running > 1) overlapped = true;
      if (i % 10 == 0) std::this_thread::sleep_for(1ms);
      order.push_back(i);
      job_thread = std::this_thread::get_id();
      --running;
    }));
  }
  worker.drain();
  std::vector<int> expected(50);
  for (int i = 0; i < 50; ++i) expected[i] = i;
  CHECK(order == expected);
  CHECK_FALSE(overlapped);
  CHECK(job_thread != std::this_thread::get_id());
}

TEST_CASE("worker: drain waits until every job posted so far has run") {
  Worker worker("drain");
  std::atomic<int> done{0};
  for (int i = 0; i < 3; ++i) {
    worker.post([&] {
      std::this_thread::sleep_for(30ms);
      ++done;
    });
  }
  CHECK(worker.queued() >= 2);  // the first may already be running
  worker.drain();
  CHECK(done == 3);
  CHECK(worker.queued() == 0);
  worker.drain();  // nothing to wait for: returns at once
}

TEST_CASE("worker: stop runs the jobs already queued, then refuses new ones") {
  std::atomic<int> done{0};
  Worker worker("stop");
  for (int i = 0; i < 5; ++i) {
    worker.post([&] {
      std::this_thread::sleep_for(10ms);
      ++done;
    });
  }
  worker.stop();
  CHECK(done == 5);
  CHECK_FALSE(worker.post([&] { ++done; }));
  worker.stop();  // a second stop is harmless
  CHECK(done == 5);
  CHECK(worker.queued() == 0);
}

TEST_CASE("worker: destroying a worker runs the jobs already posted") {
  std::atomic<int> done{0};
  {
    Worker worker("destroyed");
    for (int i = 0; i < 4; ++i) worker.post([&] { ++done; });
  }
  CHECK(done == 4);
}

TEST_CASE(
    "worker: a job that throws is logged with the worker's name, and later jobs still run") {
  // The server's one logging path (spdlog's default logger), captured for the test.
  std::ostringstream log;
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(
      std::make_shared<spdlog::logger>("capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(log)));
  Worker worker("saves-7");
  bool later_ran = false;
  worker.post([] { throw std::runtime_error("disk on fire"); });
  worker.post([] { throw 42; });
  worker.post([&] { later_ran = true; });
  worker.drain();
  CHECK(later_ran);
  spdlog::set_default_logger(previous);
  std::string text = log.str();
  CHECK(text.find("saves-7") != std::string::npos);
  CHECK(text.find("disk on fire") != std::string::npos);
}

TEST_CASE("worker: a job may drain or stop its own worker without waiting for itself") {
  Worker worker("self");
  bool after = false;
  worker.post([&] {
    worker.drain();
    worker.stop();
    after = true;
  });
  worker.drain();
  CHECK(after);
  CHECK_FALSE(worker.post([] {}));
}

TEST_CASE("worker: saves posted to a worker land in the store in posting order") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  Worker worker("store");
  std::atomic<int> failures{0};
  for (int v = 1; v <= 20; ++v) {
    GameRow g = game_at("room", "live", 1, v);
    g.version = v;
    worker.post([&store, &failures, g] {
      Error error;
      if (!store->save_game(g, error)) ++failures;
    });
  }
  worker.drain();
  CHECK(failures == 0);
  CHECK(store->game("room")->version == 20);
}

}  // namespace
}  // namespace cinq::store

namespace cinq::store {
namespace {

// Issue 18 (schema version 4): the chat and the seat tokens.

TEST_CASE("store: chat lines are appended with the game's saves, kept in order, and read back by a room") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  auto store = open_store(path);
  lobby::Room room = lobby::test::live_room("tablut", "", lobby::ClockSpec{0, 0, 3});
  room.set_seat_token(0, "T0");
  room.set_seat_token(1, "T1");
  store_room(*store, room);
  REQUIRE_FALSE(room.chat(lobby::test::kAlice, "hello", lobby::test::at(1)).error);
  REQUIRE_FALSE(room.chat(lobby::test::kCarol, "watching", lobby::test::at(2)).error);
  store_room(*store, room);
  REQUIRE_FALSE(room.chat(lobby::test::kBob, "hi", lobby::test::at(3)).error);
  store_room(*store, room);
  CHECK(test::ask_store(path, "SELECT group_concat(seq || ':' || channel || ':' || seat || ':' || text, '|') FROM chat") ==
        "1:players:0:hello|2:spectators:-1:watching|3:players:1:hi");
  CHECK(test::ask_store(path, "SELECT count(*) FROM seat_tokens") == "2");
  auto lines = store->chat("room-1");
  REQUIRE(lines.size() == 3);
  CHECK(lines[1].name == "carol");
  CHECK(lines[1].player_id == "carol-id");
  CHECK(store->chat("room-1", 1).at(0).text == "hi");  // the last lines, oldest first

  lobby::Room back = reopened(*store, "room-1");
  CHECK(back.state_json(lobby::test::at(5), -1)["chat"].size() == 3);
  CHECK(back.state_json(lobby::test::at(5), 0)["chat"].size() == 2);
  CHECK(back.seat_links(0) == std::array<std::string, 2>{"/#/room/room-1?seat=0&token=T0", ""});

  // Once the game is over, its tokens go (no link is shown any more); the chat stays.
  REQUIRE_FALSE(back.resign("alice-id", lobby::test::at(6)).error);
  store_room(*store, back);
  CHECK(test::ask_store(path, "SELECT count(*) FROM seat_tokens") == "0");
  CHECK(store->chat("room-1").size() == 3);
}

TEST_CASE("store: saves queued together keep every chat line, also when a finished game's save replaces them") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  lobby::Room room = lobby::test::live_room("tablut");
  store_room(*store, room);
  REQUIRE_FALSE(room.chat(lobby::test::kAlice, "one", lobby::test::at(1)).error);
  GameSave a = server::to_save(room.take_save(lobby::test::at(1)), 1);
  REQUIRE_FALSE(room.chat(lobby::test::kBob, "two", lobby::test::at(2)).error);
  GameSave b = server::to_save(room.take_save(lobby::test::at(2)), 2);
  REQUIRE_FALSE(room.resign("bob-id", lobby::test::at(3)).error);
  REQUIRE_FALSE(room.chat(lobby::test::kBob, "gg", lobby::test::at(4)).error);
  GameSave c = server::to_save(room.take_save(lobby::test::at(4)), 3);
  CHECK(merge(a, std::move(b)));
  CHECK(merge(a, std::move(c)));
  Error error;
  REQUIRE_MESSAGE(store->save({}, {a}, error), error.message);
  auto lines = store->chat("room-1");
  REQUIRE(lines.size() == 3);
  CHECK(lines[2].text == "gg");
}

}  // namespace
}  // namespace cinq::store
