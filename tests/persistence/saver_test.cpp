// Group commit (persistence/saver.h) on a real database file: saves queued while the writer is busy share one
// transaction, each one's callback runs after that commit, the last row of a game wins, players and games
// commit in the order they were queued, and a refused commit fails every save in it and writes none.
#include "persistence/saver.h"

#include <doctest/doctest.h>
#include <sqlite3.h>

#include <atomic>
#include <future>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace cinq::store {
namespace {

using cinq::test::TempDir;

std::unique_ptr<Store> open_store(const std::string& path) {
  Error error;
  auto store = Store::open(path, error);
  REQUIRE_MESSAGE(store != nullptr, "opening ", path, ": ", error.message);
  return store;
}

GameRow row(const std::string& id, const std::string& record) {
  GameRow g;
  g.id = id;
  g.game = "tablut";
  g.status = "live";
  g.record = record;
  return g;
}

// Holds the writer thread until released, so that saves pile up behind it.
struct Gate {
  std::promise<void> open;
  std::shared_future<void> opened = open.get_future().share();
  void block(Worker& w) {
    w.post([f = opened] { f.wait(); });
  }
};

TEST_CASE("saver: saves queued while the writer is busy are committed together, then each is told") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  Worker writer("test-writer");
  std::vector<std::size_t> commits;
  Saver saver(*store, writer, [&](std::size_t rows, double) { commits.push_back(rows); });

  Gate gate;
  gate.block(writer);
  std::atomic<int> done{0};
  std::atomic<int> failed{0};
  auto count = [&](bool ok, const std::string&) { ok ? ++done : ++failed; };
  for (int i = 0; i < 50; ++i)
    REQUIRE(saver.save(row("g" + std::to_string(i % 10), "turn " + std::to_string(i)), count));
  REQUIRE(saver.save(PlayerRow{"p1", "hash", "Ann", 1}, count));
  CHECK(done == 0);  // nothing is acknowledged before its commit
  gate.open.set_value();
  writer.drain();

  CHECK(done == 51);
  CHECK(failed == 0);
  // One transaction for everything that waited: ten games (the last row of each), and the player.
  REQUIRE(commits == std::vector<std::size_t>{10});
  CHECK(store->count_games() == 10);
  CHECK(store->game("g3")->record == "turn 43");
  CHECK(store->player("p1")->name == "Ann");

  // On a quiet writer a save commits at once, alone.
  REQUIRE(saver.save(row("g3", "turn 50"), count));
  writer.drain();
  CHECK(commits == std::vector<std::size_t>{10, 1});
  CHECK(store->game("g3")->record == "turn 50");
}

TEST_CASE("saver: a refused commit fails every save in it and writes none of them") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  auto store = open_store(path);
  Worker writer("test-writer");
  Saver saver(*store, writer);
  {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
    REQUIRE(sqlite3_exec(db,
                         "CREATE TRIGGER refuse BEFORE INSERT ON games WHEN NEW.record = 'refused' "
                         "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
  }
  Gate gate;
  gate.block(writer);
  std::vector<std::string> errors;
  std::mutex m;
  auto note = [&](bool ok, const std::string& why) {
    std::lock_guard lock(m);
    errors.push_back(ok ? "ok" : why);
  };
  REQUIRE(saver.save(row("a", "fine"), note));
  REQUIRE(saver.save(row("b", "refused"), note));
  REQUIRE(saver.save(PlayerRow{"p1", "hash", "Ann", 1}, note));
  gate.open.set_value();
  writer.drain();
  REQUIRE(errors.size() == 3);
  for (const auto& e : errors) CHECK(e == "saving 2 games and 1 players: refused by the test");
  CHECK(store->count_games() == 0);
  CHECK_FALSE(store->player("p1"));

  // The next commit starts clean.
  REQUIRE(saver.save(row("a", "fine"), note));
  writer.drain();
  CHECK(errors.back() == "ok");
  CHECK(store->count_games() == 1);
}

TEST_CASE("saver: after the writer stopped, a save is refused and its callback never runs") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  Worker writer("test-writer");
  Saver saver(*store, writer);
  writer.stop();
  bool called = false;
  CHECK_FALSE(saver.save(row("a", "x"), [&](bool, const std::string&) { called = true; }));
  CHECK_FALSE(called);
  CHECK(store->count_games() == 0);
}

}  // namespace
}  // namespace cinq::store
