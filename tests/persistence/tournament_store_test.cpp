// The tournaments table (schema version 10, docs/tournaments.md): a tournament's whole state in one row whose
// version chains its saves, and the mails a save queues in its transaction. Every test case here is named
// "store tournaments: ...", so the store_postgresql test runs them all again on PostgreSQL.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/persistence/helpers.h"
#include "tests/support/process.h"

namespace cinq::store::testing {
namespace {

TournamentRow swiss(const std::string& id, std::int64_t version, const std::string& status = "open",
                    std::int64_t starts_ms = 0, std::int64_t created_ms = 1000) {
  TournamentRow t;
  t.id = id;
  t.game = "tablut";
  t.format = "swiss";
  t.name = "Autumn Swiss " + id;
  t.status = status;
  t.created_by = "pA";
  t.starts_ms = starts_ms;
  t.created_ms = created_ms;
  t.updated_ms = created_ms + version;
  t.version = version;
  t.state = R"({"round":)" + std::to_string(version - 1) + "}";
  return t;
}

MailRow round_mail(const std::string& id) {
  MailRow m;
  m.id = id;
  m.kind = "tournament";
  m.sender = "cinq@play.test";
  m.recipient = "ann@players.test";
  m.message = "Subject: round 1\r\n\r\nyour game is ready\r\n";
  m.created_ms = 5;
  m.due_ms = 5;
  return m;
}

// The stored row of `id`, which must be there.
TournamentRow stored(Store& store, const std::string& id) {
  auto row = store.tournament(id);
  REQUIRE_MESSAGE(!row.failed(), row.error().message);
  REQUIRE(row);
  return *row;
}

}  // namespace

TEST_CASE("store tournaments: a new one is stored once, each save follows the version it read, and a stale "
          "save writes nothing, its mails neither") {
  test::TempDir dir;
  auto store = open_store(dir.path() + "/t.db");
  Error error;
  CHECK_FALSE(store->tournament("T1").failed());
  CHECK_FALSE(store->tournament("T1"));

  REQUIRE_MESSAGE(store->put_tournament(swiss("T1", 1), 0, {}, error), error.message);
  CHECK(stored(*store, "T1") == swiss("T1", 1));
  // The same id again: refused, the stored row unchanged.
  TournamentRow twin = swiss("T1", 1);
  twin.name = "another";
  CHECK_FALSE(store->put_tournament(twin, 0, {}, error));
  CHECK(error.message.find("tournament T1") != std::string::npos);
  CHECK(stored(*store, "T1").name == "Autumn Swiss T1");

  // Round 1 paired: version 2 after 1, with its mail.
  REQUIRE_MESSAGE(store->put_tournament(swiss("T1", 2, "running"), 1, {round_mail("t.T1.1.pA")}, error),
                  error.message);
  CHECK(stored(*store, "T1") == swiss("T1", 2, "running"));
  MailRow queued = round_mail("t.T1.1.pA");
  bool found = false;
  for (const MailRow& m : store->claim_mails("n", 10, 1000, 10)) found = found || m.id == queued.id;
  CHECK(found);

  // A writer that read version 1 and pairs again: refused whole (its row and its mail).
  CHECK_FALSE(store->put_tournament(swiss("T1", 2, "running"), 1, {round_mail("t.T1.1.again")}, error));
  CHECK(error.message.find("not stored at version 1") != std::string::npos);
  for (const MailRow& m : store->claim_mails("n2", 2000, 1000, 10)) CHECK(m.id != "t.T1.1.again");
  CHECK(stored(*store, "T1").version == 2);
  // A version that does not follow the one named is refused before anything is written.
  CHECK_FALSE(store->put_tournament(swiss("T1", 4, "running"), 2, {}, error));
  CHECK(stored(*store, "T1").version == 2);
}

TEST_CASE("store tournaments: listed by status, latest start first, at most the limit, and read back after a "
          "reopen") {
  test::TempDir dir;
  const std::string path = dir.path() + "/t.db";
  {
    auto store = open_store(path);
    Error error;
    REQUIRE(store->put_tournament(swiss("A", 1, "open", 5000), 0, {}, error));
    REQUIRE(store->put_tournament(swiss("B", 1, "open", 9000), 0, {}, error));
    REQUIRE(store->put_tournament(swiss("C", 1, "open", 0, 7000), 0, {}, error));
    TournamentRow done = swiss("D", 1, "open", 1000);
    REQUIRE(store->put_tournament(done, 0, {}, error));
    done.status = "finished";
    done.version = 2;
    done.state = R"({"round":1})";
    REQUIRE(store->put_tournament(done, 1, {}, error));
  }
  auto store = open_store(path);
  auto ids = [](const std::vector<TournamentRow>& rows) {
    std::vector<std::string> out;
    for (const TournamentRow& t : rows) out.push_back(t.id);
    return out;
  };
  CHECK(ids(store->tournaments("open", 10)) == std::vector<std::string>{"B", "A", "C"});
  CHECK(ids(store->tournaments("open", 2)) == std::vector<std::string>{"B", "A"});
  CHECK(ids(store->tournaments("finished", 10)) == std::vector<std::string>{"D"});
  CHECK(ids(store->tournaments("", 10)) == std::vector<std::string>{"B", "A", "D", "C"});
  CHECK(store->tournaments("running", 10).empty());
  CHECK(stored(*store, "D").state == R"({"round":1})");
}

TEST_CASE("store tournaments: the unfinished ones no live node runs are orphans, under a lease of their own "
          "beside the rooms'") {
  test::TempDir dir;
  auto store = open_store(dir.path() + "/t.db");
  Error error;
  REQUIRE(store->put_tournament(swiss("A", 1, "open", 0, 1000), 0, {}, error));
  REQUIRE(store->put_tournament(swiss("B", 1, "running", 0, 2000), 0, {}, error));
  REQUIRE(store->put_tournament(swiss("C", 1, "finished", 0, 3000), 0, {}, error));
  CHECK(store->tournament_orphans(10) == std::vector<std::string>{"A", "B"});
  CHECK(store->tournament_orphans(1) == std::vector<std::string>{"A"});
  REQUIRE(store->beat(NodeRow{"n1:a", "n1", "127.0.0.1:1", 1, 0}, 300, error));  // dead in 0.3 s
  REQUIRE(store->beat(NodeRow{"n2:b", "n2", "127.0.0.1:2", 1, 0}, 60000, error));
  auto a = store->acquire(tournament_lease("A"), "n1:a", error);
  REQUIRE(a);
  CHECK(a->lease == 1);
  CHECK(store->tournament_orphans(10) == std::vector<std::string>{"B"});
  // The lease is the tournament's alone: a game of the same id is another lease, and no game is an orphan.
  CHECK(store->orphans(10).empty());
  CHECK(store->acquire(tournament_lease("A"), "n2:b", error)->owner == "n1:a");
  // Its node's heartbeat stops: the tournament is an orphan again, and the other node takes it.
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  CHECK(store->tournament_orphans(10) == std::vector<std::string>{"A", "B"});
  auto taken = store->acquire(tournament_lease("A"), "n2:b", error);
  REQUIRE(taken);
  CHECK(taken->lease == 2);
  CHECK(store->tournament_orphans(10) == std::vector<std::string>{"B"});
  // A node that stops gives its tournaments up with its rooms.
  REQUIRE(store->leave("n2:b", error));
  CHECK(store->tournament_orphans(10) == std::vector<std::string>{"A", "B"});
}

}  // namespace cinq::store::testing

namespace cinq::store::testing {

TEST_CASE("store tournaments: a store of schema version 9 gains the table at open, its games untouched") {
  test::TempDir dir;
  const std::string path = dir.path() + "/t.db";
  Error error;
  {
    auto store = open_store(path);
    REQUIRE(store->save({}, {live_game("g1")}, error));
  }
  // Back to version 9, as a server of version 9 left it.
  const std::string back = test::testing_postgres()
                               ? "DROP TABLE tournaments; UPDATE meta SET value = '9' WHERE key = 'schema_version'"
                               : "DROP TABLE tournaments; PRAGMA user_version = 9";
  REQUIRE(test::ask_store(path, back) == "");
  auto store = open_store(path);
  CHECK(test::ask_store(path, test::testing_postgres() ? "SELECT value FROM meta WHERE key = 'schema_version'"
                                                       : "PRAGMA user_version") == "12");
  CHECK(store->game("g1"));
  CHECK(store->tournaments("", 10).empty());
  REQUIRE_MESSAGE(store->put_tournament(swiss("T", 1), 0, {}, error), error.message);
  CHECK(stored(*store, "T") == swiss("T", 1));
}

}  // namespace cinq::store::testing
