// What the store's test files share.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "persistence/store.h"
#include "tests/support/postgres.h"

namespace cinq::store::testing {

// The store of the SQLite path `path`: that file, or (CINQ_TEST_STORE=postgresql) a PostgreSQL schema standing
// for it (tests/support/postgres.h). Fails the test if it does not open.
inline std::unique_ptr<Store> open_store(const std::string& path) {
  Error error;
  auto store = Store::open(test::store_spec(path), error);
  REQUIRE_MESSAGE(store != nullptr, "opening ", path, ": ", error.message);
  return store;
}

// A live Tablut game's save, its record `record` (a `#!` line and maybe turns).
inline GameSave live_game(const std::string& id, const std::string& record = "#! TABLUT") {
  GameSave g;
  g.row.id = id;
  g.row.game = "tablut";
  g.row.status = "live";
  g.row.record = record;
  return g;
}

}  // namespace cinq::store::testing
