// When the store cannot write: another program holds the database's write lock past
// the server's busy timeout (5 s), and the save in the way fails. Afterwards memory, store and clients agree
// (docs/protocol.md, "When a save fails"): the failed command and every one queued behind it are dropped,
// nobody is told of anything the store does not hold, and identities and names are stored before they are
// given. Run under AddressSanitizer (the sanitizer stage of .ci/run), the first test also proves that the
// answers of saves arriving after the room closed touch no freed memory.
#include <doctest/doctest.h>
#include <signal.h>
#include <sqlite3.h>

#include <thread>

#include "rules/notation.h"
#include "tests/server/peer.h"
#include "tests/support.h"
#include "tests/support/process.h"

namespace cinq::test {
namespace {

using namespace std::chrono_literals;

// The database's write lock, held from this process (BEGIN IMMEDIATE) until released.
class WriteLock {
 public:
  explicit WriteLock(const std::string& path) {
    REQUIRE(sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
    since_ = std::chrono::steady_clock::now();
  }
  ~WriteLock() { release(); }
  void release() {
    if (!db_) return;
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db_);
    db_ = nullptr;
  }
  // Waits until the lock has been held for `held`.
  void hold_until(std::chrono::milliseconds held) { std::this_thread::sleep_until(since_ + held); }

 private:
  sqlite3* db_ = nullptr;
  std::chrono::steady_clock::time_point since_;
};


// The server is still running and its log shows no sanitizer report.
void check_alive(ServerProcess& server) {
  CHECK(server.wait(0ms) == -1);
  const std::string log = server.log();
  CHECK_MESSAGE(log.find("AddressSanitizer") == std::string::npos, log);
  CHECK_MESSAGE(log.find("runtime error:") == std::string::npos, log);
}

}  // namespace

TEST_CASE(
    "storage: a failed save is dropped everywhere: nothing queued behind it commits later, the rejoined room "
    "and a restarted server show the stored game, and no freed batch is touched") {
  TempDir data;
  const std::string db = data.path() + "/cinq.db";
  std::string room, first_turn;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    Peer alice(server.port(), "Alice");
    alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
    room = alice.until_type("state")["room"];
    Peer bob(server.port(), "Bob");
    bob.send({{"type", "sit"}, {"room", room}});
    bob.until_type("state");
    alice.until_event("started");
    REQUIRE(!alice.legal.empty());  // Tablut: the attacker (Alice, seat 0) moves first
    first_turn = alice.legal.at(0);
    alice.drain();  // the presence events of the sitting down
    bob.drain();

    // A locked store, as a player met it: one turn, six offers declined, a resignation, all while the store is
    // locked; the turn's save fails after the busy timeout, the rest were queued behind it.
    WriteLock lock(db);
    alice.send({{"type", "act"}, {"room", room}, {"actions", {first_turn}}});
    for (int i = 0; i < 6; ++i) {
      alice.send({{"type", "draw"}, {"room", room}});
      bob.send({{"type", "decline_draw"}, {"room", room}});
      std::this_thread::sleep_for(50ms);
    }
    alice.send({{"type", "resign"}, {"room", room}});
    json told = alice.until([](const json& m) { return m.value("code", "") == "storage"; }, 15s);
    CHECK(told["room"] == room);
    for (const json& m : alice.skipped) CHECK_MESSAGE(m.value("type", "") != "event", m.dump());  // nothing was announced
    bob.until([](const json& m) { return m.value("code", "") == "storage"; }, 15s);
    for (const json& m : bob.skipped) CHECK(m.value("type", "") != "event");
    lock.hold_until(6500ms);
    lock.release();
    std::this_thread::sleep_for(1500ms);  // the queued saves' turn on the writer, had they been kept
    check_alive(server);

    // Rejoined, the room is the stored one: live, no turn; and it plays on.
    alice.send({{"type", "join"}, {"room", room}});
    json state = alice.until_type("state");
    CHECK(state["position"]["status"] == "live");
    CHECK(Record::read(state["record"].get<std::string>())->turn_count() == 0);
    bob.send({{"type", "join"}, {"room", room}});
    bob.until_type("state");
    alice.send({{"type", "act"}, {"room", room}, {"actions", {first_turn}}});
    CHECK(bob.until_event("play")["actions"] == json({first_turn}));
    check_alive(server);
  }
  // After a restart: what the clients were last told, not the resignation they were told had failed.
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  json state = get_json(server.port(), "/api/games/" + room);
  CHECK(state["position"]["status"] == "live");
  CHECK(Record::read(state["record"].get<std::string>())->turn_count() == 1);
}

TEST_CASE("storage: an identity is stored before its welcome, a name before it is shown, neither is half-made") {
  TempDir data;
  const std::string db = data.path() + "/cinq.db";
  std::string id, token;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR);
    Peer ann(server.port(), "Ann");
    id = ann.id;
    token = ann.token;
    {
      WriteLock lock(db);
      WsClient newcomer(server.port());
      newcomer.send(json{{"type", "hello"}, {"name", "Ned"}, {"ref", 1}}.dump());
      ann.send({{"type", "name"}, {"name", "Anna"}, {"ref", 2}});
      // No welcome while the store cannot take the row: a refusal once the save fails.
      auto answer = newcomer.receive(15s);
      REQUIRE(answer);
      json refused = json::parse(*answer);
      CHECK(refused["type"] == "error");
      CHECK(refused["code"] == "storage");
      CHECK(refused["ref"] == 1);
      json unnamed = ann.until_type("error");
      CHECK(unnamed["code"] == "storage");
      CHECK(unnamed["ref"] == 2);
    }
    // The name is as stored; a hello works again now.
    Peer ned(server.port(), "Ned");
    CHECK_FALSE(ned.id.empty());
    Peer again(server.port(), id, token);
    ann.send({{"type", "my_games"}});
    CHECK(ann.until_type("my_games").is_object());

    // A welcome, then the server is killed at once: the identity was stored before it was given.
    Peer quick(server.port(), "Quick");
    id = quick.id;
    token = quick.token;
    server.kill(SIGKILL);
    server.wait(10s);
  }
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Peer back(server.port(), id, token);
  CHECK(back.id == id);
}

TEST_CASE("storage: a game whose first save fails is never shown: its creator is told, the room does not exist") {
  TempDir data;
  ServerProcess server(data.path(), CINQ_WEB_DIR);
  Peer alice(server.port(), "Alice");
  std::string room;
  {
    WriteLock lock(data.path() + "/cinq.db");
    alice.send({{"type", "create"}, {"game", "tablut"}, {"seat", 0}});
    json told = alice.until([](const json& m) { return m.value("code", "") == "storage"; }, 15s);
    for (const json& m : alice.skipped) CHECK(m.value("type", "") != "state");
    room = told["room"];
    auto imported = http_request(server.port(), "POST", "/api/games/import",
                                 read_text(data_path("records/tablut/sample-escape.txt")));
    CHECK(imported.status == 503);
    CHECK(json::parse(imported.body)["error"]["code"] == "storage");
  }
  alice.send({{"type", "join"}, {"room", room}});
  CHECK(alice.until_type("error")["code"] == "no_room");
  CHECK(get_json(server.port(), "/api/games")["games"].empty());
  check_alive(server);
}

}  // namespace cinq::test
