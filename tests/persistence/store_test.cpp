// The SQLite store and its Worker, on real database files in fresh temporary directories: WAL mode, the
// schema, every field's round trip, the queries the server makes on start, a failed save, a crash (SIGKILL)
// right after a save, and the worker's ordering, draining and stopping.
#include "persistence/store.h"

#include <doctest/doctest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "persistence/worker.h"
#include "tests/support/process.h"

namespace cinq::store {
namespace {

using cinq::test::TempDir;
using namespace std::chrono_literals;

std::unique_ptr<Store> open_store(const std::string& path) {
  Error error;
  auto store = Store::open(path, error);
  REQUIRE_MESSAGE(store != nullptr, "opening ", path, ": ", error.message);
  return store;
}

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
  g.record = "#! TABLUT\n# A: \"Zoë\" l'Ancienne \\ 王\n1   A/e2 c2/        D/e3 c3/\n2   A/c2 c1/\n";
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

TEST_CASE("store: opening creates the file and its directories, in WAL mode, with schema version 2") {
  TempDir dir;
  const std::string path = dir.path() + "/data/deeper/cinq.db";
  auto store = open_store(path);
  CHECK(std::filesystem::is_regular_file(path));
  CHECK(ask_sqlite(path, "PRAGMA journal_mode") == "wal");
  CHECK(ask_sqlite(path, "PRAGMA user_version") == "2");
  CHECK(ask_sqlite(path, "SELECT count(*) FROM sqlite_master WHERE name IN ('players', 'games')") == "2");
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
  CHECK(ask_sqlite(path, "PRAGMA user_version") == "2");
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

TEST_CASE("store: a save that SQLite refuses returns false, says which game and why, and changes nothing") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  auto store = open_store(path);
  save(*store, game_at("g", "live", 1, 1));
  // Another client of the file makes SQLite refuse any row whose result is "refused".
  for (const char* when : {"INSERT", "UPDATE"}) {
    REQUIRE(ask_sqlite(path, std::string("CREATE TRIGGER refuse_") + when + " BEFORE " + when +
                                 " ON games WHEN NEW.result = 'refused' BEGIN SELECT RAISE(ABORT, "
                                 "'refused by the test'); END") == "");
  }
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
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The child must not return into doctest: it leaves by SIGKILL, or by _exit if something failed.
    Error error;
    auto store = Store::open(path, error);
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

// Captures what this process writes to stderr (fd 2) while it lives.
class StderrCapture {
 public:
  StderrCapture() : path_(dir_.path() + "/stderr") {
    std::fflush(stderr);
    saved_ = dup(STDERR_FILENO);
    std::FILE* f = std::fopen(path_.c_str(), "w");
    dup2(fileno(f), STDERR_FILENO);
    std::fclose(f);
  }
  ~StderrCapture() { restore(); }
  std::string text() {
    restore();
    std::ifstream in(path_);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    dup2(saved_, STDERR_FILENO);
    close(saved_);
    saved_ = -1;
  }
  TempDir dir_;
  std::string path_;
  int saved_ = -1;
};

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
    "worker: a job that throws is reported on stderr with the worker's name, and later jobs still run") {
  StderrCapture captured;
  Worker worker("saves-7");
  bool later_ran = false;
  worker.post([] { throw std::runtime_error("disk on fire"); });
  worker.post([] { throw 42; });
  worker.post([&] { later_ran = true; });
  worker.drain();
  CHECK(later_ran);
  std::string text = captured.text();
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
