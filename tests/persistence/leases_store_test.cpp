// Several nodes on one store (store.h: Fence, NodeRow, Lease): a room's lease is taken by its first
// save or by acquire(), held while its node's heartbeat is fresh, taken over once it is not, and every save
// under an old lease fails and changes nothing. Run on SQLite and on PostgreSQL (ctest's store_postgresql).
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "persistence/store.h"
#include "tests/persistence/helpers.h"
#include "tests/support/postgres.h"
#include "tests/support/process.h"

namespace cinq::store {
namespace {

using cinq::test::TempDir;

using testing::open_store;  // SQLite, or PostgreSQL (tests/support/postgres.h)

// A new unfinished game's first save, made by `node` under lease 1, taking it.
GameSave first_save(const std::string& id, const std::string& node) {
  GameSave g = testing::live_game(id);
  g.row.version = 1;
  g.replaces = false;
  g.fence = Fence{node, 1, true};
  return g;
}

// The next turn of that game, at version `base` + 1, made under `lease` by `node`.
GameSave turn(const std::string& id, const std::string& node, std::int64_t lease, std::int64_t base,
              const std::string& entry) {
  GameSave g = testing::live_game(id);
  g.row.version = base + 1;
  g.row.commands = "n1/" + std::to_string(base);
  g.write_row = false;
  g.from = base - 1;
  g.entries = {entry};
  g.replaces = false;  // appends: no delete is sent
  g.base_version = base;
  g.fence = Fence{node, lease, false};
  return g;
}

NodeRow node(const std::string& id) { return NodeRow{id, id.substr(0, 2), "127.0.0.1:1", 1, 0}; }

}  // namespace

TEST_CASE("store leases: a room's first save takes its lease, another live node cannot take it, and the saves go on") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  Error error;
  REQUIRE(store->beat(node("n1:a"), 60000, error));
  REQUIRE(store->beat(node("n2:b"), 60000, error));
  REQUIRE_MESSAGE(store->save({}, {first_save("g1", "n1:a")}, error), error.message);
  auto lease = store->acquire("g1", "n2:b", error);
  REQUIRE(lease);
  CHECK(lease->lease == 0);
  CHECK(lease->owner == "n1:a");
  CHECK_MESSAGE(store->save({}, {turn("g1", "n1:a", 1, 1, "A/e2 c2/")}, error), error.message);
  auto g = store->game("g1");
  REQUIRE(g);
  CHECK(g->version == 2);
  CHECK(g->commands == "n1/1");
  CHECK(g->record.find("A/e2 c2/") != std::string::npos);
  // The same id made again elsewhere (never expected: ids are random) cannot take a lease that exists.
  CHECK_FALSE(store->save({}, {first_save("g1", "n2:b")}, error));
}

TEST_CASE("store leases: a lease given up is taken by another node with a greater number, and a save under the old one fails and changes nothing") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  Error error;
  REQUIRE(store->beat(node("n1:a"), 60000, error));
  REQUIRE(store->beat(node("n2:b"), 60000, error));
  REQUIRE(store->save({}, {first_save("g2", "n1:a")}, error));
  REQUIRE(store->release("g2", "n1:a", 1, error));
  auto taken = store->acquire("g2", "n2:b", error);
  REQUIRE(taken);
  CHECK(taken->lease == 2);
  CHECK(store->acquire("g2", "n1:a", error)->owner == "n2:b");
  // n1 still thinks it plays the room: its save is refused whole (fenced), as if never sent.
  CHECK_FALSE(store->save({}, {turn("g2", "n1:a", 1, 1, "A/e2 c2/")}, error));
  CHECK(error.message.find("g2") != std::string::npos);
  CHECK(store->game("g2")->version == 1);
  // The new owner's save goes through.
  CHECK_MESSAGE(store->save({}, {turn("g2", "n2:b", 2, 1, "A/e2 d2/")}, error), error.message);
  CHECK(store->game("g2")->record.find("A/e2 d2/") != std::string::npos);
}

TEST_CASE("store leases: a node whose heartbeat stopped loses its rooms to the others, orphans lists the games nobody alive holds, leave gives every lease up") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  Error error;
  REQUIRE(store->beat(node("n1:a"), 300, error));  // a short heartbeat: dead in 0.3 s
  REQUIRE(store->beat(node("n2:b"), 60000, error));
  REQUIRE(store->save({}, {first_save("g3", "n1:a"), first_save("g4", "n2:b")}, error));
  auto live = store->live_nodes();
  CHECK(live.size() == 2);
  CHECK(store->orphans(10).empty());
  CHECK(store->acquire("g3", "n2:b", error)->owner == "n1:a");
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  live = store->live_nodes();
  REQUIRE(live.size() == 1);
  CHECK(live[0].id == "n2:b");
  CHECK(store->orphans(10) == std::vector<std::string>{"g3"});
  auto taken = store->acquire("g3", "n2:b", error);
  REQUIRE(taken);
  CHECK(taken->lease == 2);
  CHECK(store->orphans(10).empty());
  // A node that stops gives its leases up: its games are orphans at once.
  REQUIRE(store->leave("n2:b", error));
  CHECK(store->live_nodes().empty());
  auto orphans = store->orphans(10);
  CHECK(orphans == std::vector<std::string>{"g3", "g4"});
}

}  // namespace cinq::store
