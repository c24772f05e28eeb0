// The PostgreSQL backend where it differs from SQLite, on a real throwaway PostgreSQL started by the
// test (tests/support/postgres.h) — whatever CINQ_TEST_STORE says: its schema and version, several servers
// opening one database at once, the database stopped and started again under a store that stays open, and
// `cinq store copy` between the two backends both ways. The behaviour the backends share is tested on both by
// the store, saver and server suites (ctest's `*_postgresql` runs).
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

#include "persistence/copy.h"
#include "persistence/store.h"
#include "rules/notation.h"
#include "tests/support.h"
#include "tests/support/postgres.h"
#include "tests/support/process.h"

namespace cinq::store {
namespace {

using test::PostgresCluster;

// A fresh schema of the shared cluster, by name.
std::string fresh_uri(const std::string& name) {
  PostgresCluster& pg = PostgresCluster::shared();
  pg.exec("DROP SCHEMA IF EXISTS " + name + " CASCADE");
  return pg.uri_for_schema(name);
}

std::unique_ptr<Store> open_ok(const std::string& spec) {
  Error error;
  auto store = Store::open(spec, error);
  REQUIRE_MESSAGE(store != nullptr, "opening ", Store::describe(spec), ": ", error.message);
  return store;
}

std::string ask(const std::string& uri, const std::string& sql) {
  // The schema's own connection: the URI carries its search_path.
  return test::ask_store_uri(uri, sql);
}

// An unfinished Tablut game with two turns, seat tokens and a chat line.
GameRow live_game(const std::string& id) {
  GameRow g;
  g.id = id;
  g.game = "tablut";
  g.kind = "correspondence";
  g.status = "live";
  g.record = "#! TABLUT\nA = Ann    D = Ben\n1   A/e2 c2/   D/e3 c3/\n";
  g.seat_ids = {"pA", "pB"};
  g.seat_names = {"Ann", "Ben"};
  g.clock_ms = {86400000, 86400000};
  g.clock_days = 1;
  g.deadline_ms = 1700086400000;
  g.version = 7;
  g.turns = 2;
  g.created_ms = 1700000000000;
  g.updated_ms = 1700000001000;
  g.seat_token_hashes = {"h0", "h1"};
  g.seat_tokens = {"tok0", "tok1"};
  return g;
}

GameRow finished_game(const std::string& id, bool rated, int winner) {
  GameRow g = live_game(id);
  g.kind = "live";
  g.status = "finished";
  g.result = winner == 2 ? "draw agreement" : "D resign";
  g.record = "#! TABLUT\nA = Ann    D = Ben\n1   A/e2 c2/   D/e3 c3/\n#= " + g.result + "\n";
  g.seat_tokens = {"", ""};
  g.rated = rated;
  g.winner = winner;
  return g;
}

PlayerRow account(const std::string& id, const std::string& username) {
  PlayerRow p{id, "hash-" + id, username, 1};
  p.username = username;
  p.password_hash = "$argon2id$v=19$m=65536,t=2,p=1$salt$hash";
  p.sessions = {"s1-" + id, "s2-" + id};
  return p;
}

// An installation with a bit of everything: accounts and a guest, rated and unrated finished games, games in
// progress with seat tokens and chat.
void fill(Store& store) {
  Error error;
  REQUIRE(store.save({account("pA", "ann"), account("pB", "Ben"), PlayerRow{"pG", "hash-g", "Guest-1", 3}}, {},
                     error));
  std::vector<GameRow> games;
  for (int i = 0; i < 5; ++i) {
    GameRow g = finished_game("done-" + std::to_string(i), i % 2 == 0, i % 3);
    g.updated_ms += i * 604800000LL;
    games.push_back(g);
  }
  for (int i = 0; i < 3; ++i) games.push_back(live_game("live-" + std::to_string(i)));
  games.back().is_private = true;
  REQUIRE_MESSAGE(store.save_games(games, error), error.message);
  // Chat, appended by saves as the server does.
  auto save = whole_save(store.game("live-0").value(), error);
  REQUIRE(save);
  save->chat = {ChatRow{1, "players", 0, "pA", "Ann", "hello"}, ChatRow{2, "spectators", -1, "pG", "Guest-1", "hi"}};
  REQUIRE(store.save({}, {*save}, error));
  // A tournament saved twice (version 2).
  TournamentRow t{"T1", "tablut", "swiss", "Autumn", "open", "pA", 0, 10, 10, 1, R"({"round":0})"};
  REQUIRE(store.put_tournament(t, 0, {}, error));
  t.status = "running";
  t.version = 2;
  t.state = R"({"round":1})";
  REQUIRE(store.put_tournament(t, 1, {}, error));
  REQUIRE(store.put_analysis({"t-fin", "depth=2", R"({"turns":[]})", 77}, error));
}

}  // namespace

TEST_CASE("store postgresql: the schema is created at version 12, reopening keeps every row, a newer one is refused") {
  const std::string uri = fresh_uri("schema_test");
  {
    auto store = open_ok(uri);
    CHECK(std::string(store->backend()) == "postgresql");
    fill(*store);
  }
  CHECK(ask(uri, "SELECT value FROM meta WHERE key = 'schema_version'") == "12");
  CHECK(ask(uri, "SELECT count(*) FROM pg_tables WHERE schemaname = 'schema_test'") == "24");
  {
    auto store = open_ok(uri);  // opened again: nothing created twice, every row there
    CHECK(store->count_games() == 8);
    CHECK(store->player_ids().size() == 3);
    CHECK(store->player_by_username("BEN")->id == "pB");
    CHECK(store->player("pA")->sessions == std::vector<std::string>{"s1-pA", "s2-pA"});
    CHECK(store->unfinished_games().size() == 3);
    CHECK(store->game("live-0")->chat.size() == 2);
    CHECK(store->game("live-0")->seat_tokens[1] == "tok1");
  }
  // A database written by a newer server is refused, and named.
  ask(uri, "UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  Error error;
  CHECK(Store::open(uri, error) == nullptr);
  CHECK(error.message.find("has schema version 99, newer than this server's 12") != std::string::npos);
}

TEST_CASE("store postgresql: servers opening one new database at once create its schema once, all of them work") {
  const std::string uri = fresh_uri("together");
  std::vector<std::thread> threads;
  std::atomic<int> opened{0};
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      Error error;
      auto store = Store::open(uri, error);
      if (!store) return;
      GameRow g = live_game("g" + std::to_string(i));
      if (store->save_game(g, error)) ++opened;
    });
  for (auto& t : threads) t.join();
  CHECK(opened == 4);
  CHECK(ask(uri, "SELECT count(*) FROM games") == "4");
}

TEST_CASE("store specs: sqlite:PATH, a bare path, postgresql:// and postgres://, the password never shown") {
  test::TempDir dir;
  Error error;
  auto a = Store::open("sqlite:" + dir.path() + "/a.db", error);
  REQUIRE(a);
  CHECK(std::string(a->backend()) == "sqlite");
  CHECK(std::filesystem::exists(dir.path() + "/a.db"));
  auto b = Store::open(dir.path() + "/b.db", error);
  REQUIRE(b);
  CHECK(std::string(b->backend()) == "sqlite");
  CHECK(Store::open("mysql://x@y/z", error) == nullptr);
  CHECK(error.message == "store mysql://...: unknown scheme (sqlite:PATH or postgresql://...)");
  CHECK(Store::open("sqlite:", error) == nullptr);
  CHECK(error.message == "store sqlite:: sqlite: names no file (sqlite:PATH)");
  CHECK(Store::describe("postgresql://cinq:s3cret@db:5432/cinq") == "postgresql://cinq:***@db:5432/cinq");
  CHECK(Store::describe("postgres://cinq@db/cinq") == "postgres://cinq@db/cinq");
  CHECK(Store::describe("postgresql:///cinq?host=/run/postgresql") == "postgresql:///cinq?host=/run/postgresql");
  CHECK(Store::describe("data/cinq.db") == "sqlite:data/cinq.db");
  // A server that is not there: refused at open, with the address and libpq's reason.
  CHECK(Store::open("postgresql://cinq:pw@127.0.0.1:1/cinq", error) == nullptr);
  CHECK(error.message.find("connecting to postgresql://cinq:***@127.0.0.1:1/cinq: ") == 0);
  CHECK(error.message.find("pw@") == std::string::npos);
}

TEST_CASE("store postgresql: the database stopped under an open store: saves and reads fail, then work again "
          "once it is back, without reopening the store") {
  PostgresCluster& pg = PostgresCluster::shared();
  const std::string uri = fresh_uri("outage");
  auto store = open_ok(uri);
  Error error;
  REQUIRE(store->save_game(live_game("before"), error));
  REQUIRE(store->game("before"));

  pg.stop();
  GameRow during = live_game("during");
  CHECK_FALSE(store->save_game(during, error));
  CHECK(error.message.find("saving game during: ") == 0);
  auto unreadable = store->game("before");
  CHECK_FALSE(unreadable);  // cannot be read: nothing, and the read says it failed
  REQUIRE(unreadable.failed());
  CHECK(unreadable.error().message.find("reading game before") != std::string::npos);
  Error identity_error;
  CHECK_FALSE(store->put_player(PlayerRow{"pX", "h", "X", 1}, identity_error));

  pg.start();
  REQUIRE_MESSAGE(store->save_game(live_game("after"), error), error.message);
  auto before = store->game("before");
  CHECK_FALSE(before.failed());
  REQUIRE(before);
  CHECK(before->record == live_game("before").record);
  CHECK(store->game("after"));
  auto during_read = store->game("during");
  CHECK_FALSE(during_read);         // refused while down: never stored
  CHECK_FALSE(during_read.failed());  // a game that is not there is "none", not a failure
  CHECK(store->count_games() == 2);
}

TEST_CASE("store copy: SQLite to PostgreSQL and back, games in progress included: every game, player, token, "
          "chat line and rating the same") {
  test::TempDir dir;
  const std::string sqlite_from = "sqlite:" + dir.path() + "/from.db";
  const std::string pg = fresh_uri("copy_target");
  const std::string sqlite_back = "sqlite:" + dir.path() + "/back.db";
  {
    auto from = open_ok(sqlite_from);
    fill(*from);
    REQUIRE(from->all_ratings().size() == 2);  // the three rated games changed ann's and Ben's live Tablut ratings
    REQUIRE(from->all_rating_history().size() == 6);
  }
  auto from = open_ok(sqlite_from);
  ModerationWrite moderation;
  moderation.roles = {RoleRow{"pA", "moderator", "", 5}};
  moderation.sanctions = {SanctionRow{"pB", "mute", "insults", "pA", 6, 600}};
  moderation.reports = {ReportRow{"r1", 7, "pA", "pB", "live-0", "a line", "insults"}};
  moderation.blocks = {BlockRow{"pA", "pB", 8}};
  moderation.audit = {AuditRow{0, 9, "pA", "ann", "mute", "pB", "Ben", "1h: insults"},
                      AuditRow{0, 10, "", "cinq admin", "grant", "pA", "ann", "role moderator"}};
  moderation.sightings = {SightingRow{"pA", "device", "d1", 11, 12, 3}};
  {
    Error written;
    REQUIRE_MESSAGE(from->moderate(moderation, written), written.message);
  }
  auto to = open_ok(pg);
  CopyReport report;
  Error error;
  REQUIRE_MESSAGE(copy_store(*from, *to, report, error), error.message);
  CHECK(report.players == 3);
  CHECK(report.games == 8);
  CHECK(report.unfinished == 3);
  CHECK(report.chat_lines == 2);
  CHECK(report.ratings == 2);
  CHECK(report.rating_changes == 6);
  CHECK(report.tournaments == 1);
  CHECK(report.moderation == 7);
  CHECK(to->audit("", 10).size() == 2);
  CHECK(to->audit("", 10).front().seq == 2);  // the log keeps its numbers
  CHECK(to->moderation_rows().sanctions == from->moderation_rows().sanctions);
  CHECK(to->moderation_rows().sightings == from->moderation_rows().sightings);
  REQUIRE(to->tournament("T1"));
  CHECK(to->tournament("T1")->version == 2);  // its version kept: the next save follows it
  CHECK(to->tournament("T1")->state == R"({"round":1})");
  CHECK(report.analyses == 1);
  CHECK(to->analysis("t-fin", "depth=2")->analysis == R"({"turns":[]})");
  // Not applied again by the copy: the same ratings, not a second period.
  CHECK(to->ratings("pA").size() == from->ratings("pA").size());
  for (std::size_t i = 0; i < to->ratings("pA").size(); ++i)
    CHECK(to->ratings("pA")[i].rating == doctest::Approx(from->ratings("pA")[i].rating).epsilon(1e-12));
  CHECK(to->player("pB")->sessions == from->player("pB")->sessions);
  CHECK(to->player("pB")->password_hash == from->player("pB")->password_hash);

  // A copy into a store that is not empty is refused, and writes nothing.
  CopyReport again;
  CHECK_FALSE(copy_store(*from, *to, again, error));
  CHECK(error.message == "the target store is not empty: copy into a new database or file");

  // And back into a new SQLite file: the same as the original, game by game.
  auto back = open_ok(sqlite_back);
  CopyReport report_back;
  REQUIRE_MESSAGE(copy_store(*to, *back, report_back, error), error.message);
  CHECK(report_back.games == 8);
  for (const std::string& id : from->game_ids()) {
    auto a = from->game(id);
    auto b = back->game(id);
    REQUIRE(b);
    CHECK(a->record == b->record);
    CHECK(a->version == b->version);
    CHECK(a->seat_tokens == b->seat_tokens);
    CHECK(a->chat.size() == b->chat.size());
  }
  // The games in progress reopen and go on from the copy: a turn saved on top of its stored version.
  auto live = back->game("live-1");
  REQUIRE(live);
  GameSave turn;
  turn.row = *live;
  turn.row.record = "#! TABLUT";
  turn.row.version = live->version + 1;
  turn.row.turns = 3;
  turn.write_row = false;
  turn.base_version = live->version;
  auto parts = split_record(live->record);
  REQUIRE(parts);
  turn.from = static_cast<std::int64_t>(parts->entries.size());
  turn.entries = {"A/c2 c1/"};
  REQUIRE_MESSAGE(back->save({}, {turn}, error), error.message);
  CHECK(back->game("live-1")->record == "#! TABLUT\nA = Ann    D = Ben\n1   A/e2 c2/   D/e3 c3/\n2   A/c2 c1/\n");
}

TEST_CASE("cli: cinq store backup dumps a PostgreSQL store with pg_dump, pg_restore'd into a new database, cinq "
          "store check replays every game, and a SQLite store checks too") {
  test::TempDir dir;
  PostgresCluster& pg = PostgresCluster::shared();
  // Whole databases, as an installation has: pg_dump takes a database.
  auto database = [&](const std::string& name) {
    pg.exec("DROP DATABASE IF EXISTS " + name);
    pg.exec("CREATE DATABASE " + name + " OWNER cinq");
    const std::string uri = pg.uri();
    return uri.substr(0, uri.rfind('/') + 1) + name;
  };
  const std::string source = database("cinq_backup_source");
  {
    auto store = open_ok(source);
    fill(*store);
  }
  const std::string dump = dir.path() + "/cinq.dump";
  auto run = test::run_cinq("store backup --store '" + source + "' '" + dump + "'");
  CHECK(run.exit_code == 0);
  CHECK(run.out.find("backed up postgresql://cinq@127.0.0.1:") != std::string::npos);
  CHECK(run.out.find(" (pg_dump, ") != std::string::npos);
  auto again = test::run_cinq("store backup --store '" + source + "' '" + dump + "'");
  CHECK(again.exit_code == 1);
  CHECK(again.out.find("already exists") != std::string::npos);

  const std::string target = database("cinq_backup_target");
  CHECK(std::system(("pg_restore --no-owner --dbname='" + target + "' '" + dump + "'").c_str()) == 0);
  auto check = test::run_cinq("store check '" + target + "'");
  CHECK(check.exit_code == 0);
  CHECK(check.out.find(": 3 players, 8 games (3 unfinished); every game replays\n") != std::string::npos);
  CHECK(open_ok(target)->game("live-2")->record == open_ok(source)->game("live-2")->record);

  const std::string file = "sqlite:" + dir.path() + "/store.db";
  {
    auto store = open_ok(file);
    fill(*store);
  }
  auto sqlite_check = test::run_cinq("store check '" + file + "'");
  CHECK(sqlite_check.exit_code == 0);
  CHECK(sqlite_check.out.find(file + ": 3 players, 8 games (3 unfinished); every game replays\n") !=
        std::string::npos);
}

}  // namespace cinq::store

namespace cinq::store {

TEST_CASE("cli: cinq store copy moves a SQLite installation to PostgreSQL and back, refuses a target that is not "
          "empty and a source that is not there") {
  test::TempDir dir;
  const std::string from = "sqlite:" + dir.path() + "/from.db";
  {
    auto store = open_ok(from);
    fill(*store);
  }
  const std::string pg = fresh_uri("cli_copy");
  auto run = test::run_cinq("store copy '" + from + "' '" + pg + "'");
  CHECK(run.exit_code == 0);
  CHECK(run.out.find("copied " + from + " to postgresql://cinq@127.0.0.1:") != std::string::npos);
  CHECK_MESSAGE(run.out.find(": 3 players, 8 games (3 unfinished), 2 chat lines, 2 ratings, 6 rating changes, 1 "
                             "tournaments, 1 analyses, 0 moderation rows; every count and every game checked\n") !=
                    std::string::npos,
                run.out);
  auto again = test::run_cinq("store copy '" + from + "' '" + pg + "'");
  CHECK(again.exit_code == 1);
  CHECK(again.out.find("the target store is not empty") != std::string::npos);
  const std::string back = "sqlite:" + dir.path() + "/back.db";
  auto home = test::run_cinq("store copy '" + pg + "' '" + back + "'");
  CHECK(home.exit_code == 0);
  CHECK(open_ok(back)->game("live-2")->record == open_ok(from)->game("live-2")->record);
  auto missing = test::run_cinq("store copy 'sqlite:" + dir.path() + "/none.db' '" + back + "'");
  CHECK(missing.exit_code == 1);
  CHECK(missing.out.find("none.db: no such file") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/none.db"));
}

}  // namespace cinq::store
