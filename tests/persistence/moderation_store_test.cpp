// The moderation tables (schema version 12): roles, sanctions, reports, blocks, the audit log and sightings,
// written by one transaction each (Store::moderate) and read back; the accounts seen from one address or
// browser with their rated games. Every test case here is named "store moderation: ...", so the
// store_postgresql test runs them all again on PostgreSQL.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/persistence/helpers.h"
#include "tests/support/process.h"

namespace cinq::store::testing {
namespace {

AuditRow entry(const std::string& action, const std::string& target, std::int64_t at) {
  return AuditRow{0, at, "pM", "Mia", action, target, "Zed", "7d: spam"};
}

GameSave finished_game(const std::string& id, const std::string& a, const std::string& b, bool rated) {
  GameSave g = live_game(id, "#! TABLUT\n#= aborted\n");
  g.row.status = "finished";
  g.row.result = "aborted";
  g.row.seat_ids = {a, b};
  g.row.seat_names = {a, b};
  g.row.rated = rated;
  return g;
}

// A read's rows as a plain vector (to compare).
template <class T>
std::vector<T> rows(const std::vector<T>& read) {
  return read;
}

}  // namespace

TEST_CASE("store moderation: roles, sanctions, reports and blocks are written, replaced and removed") {
  test::TempDir dir;
  auto store = open_store(dir.path() + "/m.db");
  Error error;
  CHECK(store->roles().empty());
  CHECK(store->sanctions().empty());

  ModerationWrite w;
  w.roles = {RoleRow{"pM", "moderator", "", 10}, RoleRow{"pA", "administrator", "", 11}};
  w.sanctions = {SanctionRow{"pZ", "ban", "spam", "pM", 20, 0}, SanctionRow{"pZ", "mute", "insults", "pM", 21, 99}};
  w.reports = {ReportRow{"r1", 30, "pC", "pZ", "AB12", "a line", "insults"}};
  w.blocks = {BlockRow{"pC", "pZ", 40}, BlockRow{"pC", "pY", 41}};
  REQUIRE_MESSAGE(store->moderate(w, error), error.message);
  CHECK(rows(store->roles()) == std::vector<RoleRow>{{"pA", "administrator", "", 11}, {"pM", "moderator", "", 10}});
  CHECK(store->sanctions().size() == 2);
  CHECK(store->report("r1")->status == "open");
  CHECK(store->blocks("pZ").size() == 1);
  CHECK(store->blocks("pC").size() == 2);
  CHECK(store->blocks("").size() == 2);

  // Replaced, lifted, resolved, unblocked.
  ModerationWrite change;
  change.roles = {RoleRow{"pM", "administrator", "pA", 50}};
  change.roles_removed = {"pA"};
  change.sanctions = {SanctionRow{"pZ", "ban", "spam again", "pM", 51, 1000}};
  change.sanctions_lifted = {{"pZ", "mute"}};
  ReportRow resolved{"r1", 30, "pC", "pZ", "AB12", "a line", "insults", "resolved", "pM", 52};
  change.reports = {resolved};
  change.blocks = {BlockRow{"pC", "pZ", 53}};  // blocked already: kept as it was
  change.blocks_removed = {{"pC", "pY"}};
  REQUIRE_MESSAGE(store->moderate(change, error), error.message);
  CHECK(rows(store->roles()) == std::vector<RoleRow>{{"pM", "administrator", "pA", 50}});
  CHECK(rows(store->sanctions()) == std::vector<SanctionRow>{{"pZ", "ban", "spam again", "pM", 51, 1000}});
  CHECK(*store->report("r1") == resolved);
  CHECK(store->reports("open", 10).empty());
  CHECK(store->reports("resolved", 10).size() == 1);
  CHECK(store->reports("", 10).size() == 1);
  CHECK(rows(store->blocks("pC")) == std::vector<BlockRow>{{"pC", "pZ", 40}});
  CHECK_FALSE(store->report("nope").has_value());
}

TEST_CASE("store moderation: the audit log is numbered in order, read newest first, by target too") {
  test::TempDir dir;
  auto store = open_store(dir.path() + "/m.db");
  Error error;
  for (int i = 0; i < 3; ++i) {
    ModerationWrite w;
    w.audit = {entry(i == 2 ? "unban" : "ban", i == 1 ? "pY" : "pZ", 100 + i)};
    REQUIRE_MESSAGE(store->moderate(w, error), error.message);
  }
  auto all = store->audit("", 10);
  REQUIRE(all.size() == 3);
  CHECK(all[0].seq == 3);
  CHECK(all[0].action == "unban");
  CHECK(all[2].seq == 1);
  CHECK(all[2].detail == "7d: spam");
  CHECK(store->audit("pZ", 10).size() == 2);
  CHECK(store->audit("", 1).size() == 1);
}

TEST_CASE("store moderation: sightings count, and the accounts seen from one value come with their rated games") {
  test::TempDir dir;
  auto store = open_store(dir.path() + "/m.db");
  Error error;
  ModerationWrite w;
  w.sightings = {SightingRow{"pA", "address", "h1", 10, 10, 1}, SightingRow{"pB", "address", "h1", 11, 11, 1},
                 SightingRow{"pA", "device", "d1", 10, 10, 1},  SightingRow{"pB", "device", "d1", 12, 12, 1},
                 SightingRow{"pC", "address", "h1", 13, 13, 1}, SightingRow{"pA", "address", "h1", 20, 20, 1}};
  REQUIRE_MESSAGE(store->moderate(w, error), error.message);
  REQUIRE_MESSAGE(store->save({}, {finished_game("g1", "pA", "pB", true), finished_game("g2", "pB", "pA", true),
                                   finished_game("g3", "pA", "pC", false)},
                              error),
                  error.message);
  auto stored = store->moderation_rows();
  REQUIRE_FALSE(stored.failed());
  REQUIRE(stored.sightings.size() == 5);
  CHECK(stored.sightings[0] == SightingRow{"pA", "address", "h1", 10, 20, 2});
  auto links = store->linked_accounts(10);
  REQUIRE(links.size() == 4);  // A-B by address and by device, A-C and B-C by address
  CHECK(links[0].rated_games == 2);
  CHECK(links[1].rated_games == 2);
  CHECK(links[0].a == "pA");
  CHECK(links[0].b == "pB");
  CHECK(links[2].rated_games == 0);  // A and C played an unrated game only
}

}  // namespace cinq::store::testing
