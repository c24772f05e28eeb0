// The analyses table (schema version 11, analysis/analysis.h): a finished game's analysis kept once per
// settings key, replaced by a later one of the same key, read back whole. Every test case here is named
// "store analyses: ...", so the store_postgresql test runs them all again on PostgreSQL.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/persistence/helpers.h"
#include "tests/support/process.h"

namespace cinq::store::testing {

TEST_CASE("store analyses: kept per game and settings, replaced by the same key, listed for the copy") {
  test::TempDir dir;
  const std::string path = dir.path() + "/a.db";
  Error error;
  {
    auto store = open_store(path);
    CHECK_FALSE(store->analysis("g1", "depth=3").failed());
    CHECK_FALSE(store->analysis("g1", "depth=3"));
    REQUIRE_MESSAGE(store->put_analysis({"g1", "depth=3", R"({"turns":[]})", 10}, error), error.message);
    REQUIRE_MESSAGE(store->put_analysis({"g1", "think=500", R"({"turns":[1]})", 11}, error), error.message);
    REQUIRE_MESSAGE(store->put_analysis({"g2", "depth=3", R"({"turns":[2]})", 12}, error), error.message);
    REQUIRE_MESSAGE(store->put_analysis({"g1", "depth=3", R"({"turns":[3]})", 13}, error), error.message);
  }
  auto store = open_store(path);  // read again after a restart
  auto row = store->analysis("g1", "depth=3");
  REQUIRE(!row.failed());
  REQUIRE(row);
  CHECK(*row == AnalysisRow{"g1", "depth=3", R"({"turns":[3]})", 13});
  CHECK_FALSE(store->analysis("g1", "depth=2"));
  CHECK_FALSE(store->analysis("g3", "depth=3"));
  auto all = store->all_analyses();
  REQUIRE(!all.failed());
  REQUIRE(all.size() == 3);
  CHECK(all[0].settings == "depth=3");
  CHECK(all[1] == AnalysisRow{"g1", "think=500", R"({"turns":[1]})", 11});
  CHECK(all[2].game_id == "g2");
}

TEST_CASE("store analyses: a store of schema version 10 gains the table at open, its games untouched") {
  test::TempDir dir;
  const std::string path = dir.path() + "/a.db";
  Error error;
  {
    auto store = open_store(path);
    REQUIRE(store->save({}, {live_game("g1")}, error));
  }
  const std::string back = test::testing_postgres()
                               ? "DROP TABLE analyses; UPDATE meta SET value = '10' WHERE key = 'schema_version'"
                               : "DROP TABLE analyses; PRAGMA user_version = 10";
  REQUIRE(test::ask_store(path, back) == "");
  auto store = open_store(path);
  CHECK(test::ask_store(path, test::testing_postgres() ? "SELECT value FROM meta WHERE key = 'schema_version'"
                                                       : "PRAGMA user_version") == "12");
  CHECK(store->game("g1"));
  CHECK(store->all_analyses().empty());
  REQUIRE_MESSAGE(store->put_analysis({"g1", "depth=1", "{}", 5}, error), error.message);
  CHECK(store->analysis("g1", "depth=1"));
}

}  // namespace cinq::store::testing
