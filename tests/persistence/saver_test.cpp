// Group commit (persistence/saver.h) on a real database file: saves queued while the writer is busy share one
// transaction, each one's callback runs after that commit, the saves of one game merge into one, players and
// games commit in the order they were queued, and a refused commit fails every save in it and writes none.
#include "persistence/saver.h"

#include <doctest/doctest.h>
#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/process.h"
#include "tests/persistence/helpers.h"
#include "tests/support/postgres.h"

namespace cinq::store {
namespace {

using cinq::test::TempDir;

using testing::open_store;  // SQLite, or PostgreSQL (tests/support/postgres.h)

// A new game's save: its `#!` line `header` and no entry.
GameSave row(const std::string& id, const std::string& header) { return testing::live_game(id, header); }

// A change to game `id` at version `base`: the entries from `from` on, the version after it. Like every save,
// it carries every column as it is now (the `#!` line too).
GameSave change(const std::string& id, std::int64_t base, std::int64_t version, std::int64_t from,
                std::vector<std::string> entries, const std::string& header = "#! TABLUT") {
  GameSave g;
  g.row.id = id;
  g.row.game = "tablut";
  g.row.status = "live";
  g.row.record = header;
  g.row.version = version;
  g.write_row = false;
  g.from = from;
  g.entries = std::move(entries);
  g.base_version = base;
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

TEST_CASE("saver: with a wait, a commit starts no sooner than the wait after its first save, and takes the saves queued meanwhile") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  Worker writer("test-writer");
  std::vector<std::size_t> commits;
  std::mutex mutex;
  Saver saver(*store, writer, [&](std::size_t rows, double) {
    std::lock_guard lock(mutex);
    commits.push_back(rows);
  });
  saver.set_wait(std::chrono::milliseconds(200));
  std::atomic<int> done{0};
  auto count = [&](bool ok, const std::string&) { CHECK(ok); ++done; };
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(saver.save(row("w1", "#! TABLUT"), count));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(done == 0);  // the writer is free, yet the commit waits
  REQUIRE(saver.save(row("w2", "#! TABLUT"), count));
  REQUIRE(saver.save(row("w3", "#! TABLUT"), count));
  writer.drain();
  CHECK(done == 3);
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(200));
  {
    std::lock_guard lock(mutex);
    CHECK(commits == std::vector<std::size_t>{3});  // one commit for the three
  }
  // Without a wait, a save on an idle writer commits alone, at once.
  saver.set_wait(std::chrono::microseconds(0));
  REQUIRE(saver.save(row("w4", "#! TABLUT"), count));
  writer.drain();
  CHECK(done == 4);
  std::lock_guard lock(mutex);
  CHECK(commits == std::vector<std::size_t>{3, 1});
}

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
  // Ten new games, then four turns of each: "A/a1 a2/" ... as entries 0 to 3, versions 1 to 4.
  for (int g = 0; g < 10; ++g) REQUIRE(saver.save(row("g" + std::to_string(g), "#! TABLUT"), count));
  for (int i = 0; i < 40; ++i) {
    const int turn = i / 10;
    REQUIRE(saver.save(change("g" + std::to_string(i % 10), turn, turn + 1, turn,
                              {std::string(turn % 2 ? "D" : "A") + "/t" + std::to_string(turn) + "/"}),
                       count));
  }
  REQUIRE(saver.save(PlayerRow{"p1", "hash", "Ann", 1}, count));
  CHECK(done == 0);  // nothing is acknowledged before its commit
  gate.open.set_value();
  writer.drain();

  CHECK(done == 51);
  CHECK(failed == 0);
  // One transaction for everything that waited: ten games (the saves of each merged into one), the player.
  REQUIRE(commits == std::vector<std::size_t>{10});
  CHECK(store->count_games() == 10);
  CHECK(store->game("g3")->record == "#! TABLUT\n1   A/t0/   D/t1/\n2   A/t2/   D/t3/\n");
  CHECK(store->game("g3")->version == 4);
  CHECK(store->player("p1")->name == "Ann");

  // On a quiet writer a save commits at once, alone.
  REQUIRE(saver.save(change("g3", 4, 5, 4, {"A/t4/"}), count));
  writer.drain();
  CHECK(commits == std::vector<std::size_t>{10, 1});
  CHECK(store->game("g3")->record == "#! TABLUT\n1   A/t0/   D/t1/\n2   A/t2/   D/t3/\n3   A/t4/\n");
  CHECK(failed == 0);
}

TEST_CASE("saver: merging the saves of one game: the later columns and progress, entries by index") {
  // An open turn rewritten, then ended and followed by another turn.
  GameSave a = change("g", 7, 8, 5, {"B/x/"});
  a.write_row = true;
  GameSave b = change("g", 8, 9, 5, {"B/x/y/"});
  b.row.clock_ms = {1, 2};
  REQUIRE(merge(a, std::move(b)));
  CHECK(a.from == 5);
  CHECK(a.entries == std::vector<std::string>{"B/x/y/"});
  CHECK(a.base_version == 8 - 1);  // what the first one needed
  CHECK(a.row.version == 9);
  CHECK(a.row.clock_ms == std::array<std::int64_t, 2>{1, 2});
  CHECK(a.write_row);  // the first one changed the row
  REQUIRE(merge(a, change("g", 9, 10, 6, {"R/z/", "# note"})));
  CHECK(a.entries == std::vector<std::string>{"B/x/y/", "R/z/", "# note"});
  REQUIRE(merge(a, change("g", 10, 11, 7, {"R/w/"})));  // a later save from inside the first's entries
  CHECK(a.entries == std::vector<std::string>{"B/x/y/", "R/z/", "R/w/"});
  REQUIRE(merge(a, change("g", 11, 12, 2, {"A/rewritten/"})));  // from before it: replaces all of them
  CHECK(a.from == 2);
  CHECK(a.entries == std::vector<std::string>{"A/rewritten/"});
  CHECK(a.row.version == 12);

  // What cannot be one save: another game, another version, a gap.
  CHECK_FALSE(merge(a, change("h", 12, 13, 3, {})));
  CHECK_FALSE(merge(a, change("g", 11, 13, 3, {})));
  CHECK_FALSE(merge(a, change("g", 12, 13, 4, {"R/gap/"})));
  CHECK(a.row.version == 12);
  // A save that stands alone (a finished game's) replaces everything before it.
  GameSave done = row("g", "#! TABLUT\n1   A/x/\n#= A resign\n");
  done.row.status = "finished";
  REQUIRE(merge(a, std::move(done)));
  CHECK(a.row.status == "finished");
  CHECK_FALSE(a.base_version);
}

// A mail of game `game` for `seat` (store.h, MailRow).
MailRow mail(const std::string& id, int seat, const std::string& kind, const std::string& game = "g") {
  MailRow m;
  m.id = id;
  m.game_id = game;
  m.seat = seat;
  m.kind = kind;
  m.message = "Subject: " + id + "\r\n\r\n";
  return m;
}

std::vector<std::string> ids_of(const std::vector<MailRow>& mails) {
  std::vector<std::string> out;
  for (const auto& m : mails) out.push_back(m.id);
  return out;
}

TEST_CASE("saver: merged saves keep every mail operation in order, a later cancel dropping the mails it cancels") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  Error error;
  // Stored before: a your-turn mail for seat 1 waiting.
  GameSave first = row("g", "#! TABLUT");
  first.mails = {mail("stored.turn.1", 1, "turn")};
  REQUIRE(store->save({}, {first}, error));

  GameSave a = change("g", 0, 1, 0, {"A/x/"});
  a.mails = {mail("turn.1", 1, "turn"), mail("end.0", 0, "end"), mail("rem.1", 1, "reminder")};
  a.received = {"r1@players.test"};
  GameSave b = change("g", 1, 2, 1, {"B/y/"});
  b.mail_cancels = {{"g", 1, {"turn", "reminder"}}};  // seat 1 played
  b.mails = {mail("turn.0", 0, "turn"), mail("turn.1.other", 1, "turn", "h")};
  b.received = {"r2@players.test"};
  GameSave c = change("g", 2, 3, 2, {"A/z/"});
  c.mail_cancels = {{"g", 0, {"turn"}}};
  c.mails = {mail("turn.1b", 1, "turn")};
  REQUIRE(merge(a, std::move(b)));
  REQUIRE(merge(a, std::move(c)));
  // b's cancel took a's mails of seat 1 (not another game's, not seat 0's end), c's took b's of seat 0.
  CHECK(ids_of(a.mails) == std::vector<std::string>{"end.0", "turn.1.other", "turn.1b"});
  REQUIRE(a.mail_cancels.size() == 2);
  CHECK(a.mail_cancels[0].seat == 1);
  CHECK(a.mail_cancels[1].seat == 0);
  CHECK(a.received == std::vector<std::string>{"r1@players.test", "r2@players.test"});

  // A save that stands alone (the game finished) comes after them: what they queued and cancelled is kept in
  // front of its own, and its cancels drop theirs as well.
  GameSave done = row("g", "#! TABLUT\n1   A/x/ B/y/\n2   A/z/\n#= B resign\n");
  done.row.status = "finished";
  done.mail_cancels = {{"g", 1, {"turn"}}};
  done.mails = {mail("end.1", 1, "end"), mail("end.0", 0, "end")};
  done.received = {"r3@players.test"};
  REQUIRE(merge(a, std::move(done)));
  CHECK(a.row.status == "finished");
  CHECK_FALSE(a.base_version);
  CHECK(ids_of(a.mails) == std::vector<std::string>{"end.0", "turn.1.other", "end.1", "end.0"});
  REQUIRE(a.mail_cancels.size() == 3);
  CHECK(a.mail_cancels[2].seat == 1);
  CHECK(a.received == std::vector<std::string>{"r1@players.test", "r2@players.test", "r3@players.test"});

  // Stored, the merged save does what the four saves would have done one after the other.
  REQUIRE_MESSAGE(store->save({}, {a}, error), error.message);
  std::vector<std::string> states;
  for (const MailRow& m : store->mails_of_game("g")) states.push_back(m.id + " " + m.state);
  std::sort(states.begin(), states.end());
  CHECK(states == std::vector<std::string>{"end.0 queued", "end.1 queued", "stored.turn.1 cancelled"});
  CHECK(ids_of(store->mails_of_game("h")) == std::vector<std::string>{"turn.1.other"});
  CHECK(store->mail_received("r1@players.test"));
  CHECK(store->mail_received("r3@players.test"));
}

TEST_CASE("saver: a game's saves merged or not, in one commit or several, give the same stored game") {
  TempDir dir;
  auto store = open_store(dir.path() + "/cinq.db");
  Worker writer("test-writer");
  std::vector<std::size_t> commits;
  Saver saver(*store, writer, [&](std::size_t games, double) { commits.push_back(games); });
  std::atomic<int> failed{0};
  auto count = [&](bool ok, const std::string&) {
    if (!ok) ++failed;
  };
  // One after another (each commits alone), then the same again held together.
  for (const std::string id : {"alone", "together"}) {
    Gate gate;
    if (id == "together") gate.block(writer);
    auto save = [&](GameSave g) {
      REQUIRE(saver.save(std::move(g), count));
      if (id == "alone") writer.drain();
    };
    save(row(id, "#! BALTEK"));
    save(change(id, 0, 1, 0, {"B = Ann    R = Ben"}, "#! BALTEK"));
    save(change(id, 1, 2, 1, {"B/@ d3/"}, "#! BALTEK"));        // a turn still open
    save(change(id, 2, 3, 1, {"B/@ d3/f3 g3/"}, "#! BALTEK"));  // it grows
    save(change(id, 3, 4, 1, {"B/@ d3/f3 g3/d1 e1/", "R/h3 g3/"}, "#! BALTEK"));
    if (id == "together") gate.open.set_value();
    writer.drain();
  }
  CHECK(failed == 0);
  CHECK(commits == std::vector<std::size_t>{1, 1, 1, 1, 1, 1});
  const std::string record = "#! BALTEK\nB = Ann    R = Ben\n1   B/@ d3/f3 g3/d1 e1/   R/h3 g3/\n";
  CHECK(store->game("alone")->record == record);
  CHECK(store->game("together")->record == record);
  CHECK(store->game("together")->version == 4);
}

TEST_CASE("saver: after a failed save, the saves of that game made after it fail too, until it is reloaded") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  auto store = open_store(path);
  Worker writer("test-writer");
  Saver saver(*store, writer);
  std::vector<std::string> results;
  std::mutex m;
  auto note = [&](bool ok, const std::string& why) {
    std::lock_guard lock(m);
    results.push_back(ok ? "ok" : why);
  };
  REQUIRE(saver.save(row("g", "#! TABLUT"), note));
  REQUIRE(saver.save(change("g", 0, 1, 0, {"A/e2 c2/"}), note));
  writer.drain();
  REQUIRE(test::refuse_writes(path, "record_entries", "INSERT", "NEW.text = 'D/refused/'", "refused by the test") ==
          "");
  REQUIRE(saver.save(change("g", 1, 2, 1, {"D/refused/"}), note));
  writer.drain();
  REQUIRE(saver.save(change("g", 2, 3, 2, {"A/c2 c1/"}), note));  // made before the room heard of the failure
  writer.drain();
  REQUIRE(results.size() == 4);
  CHECK(results[2] == "saving game g: refused by the test");
  CHECK(results[3] ==
        "saving game g: game g is not stored at version 2 (a save before this one failed): it must be reloaded");
  CHECK(store->game("g")->record == "#! TABLUT\n1   A/e2 c2/\n");
  CHECK(store->game("g")->version == 1);
  // Reloaded at version 1, the room saves again from there.
  REQUIRE(saver.save(change("g", 1, 2, 0, {"A/e2 c2/", "D/e3 c3/"}), note));
  writer.drain();
  CHECK(results.back() == "ok");
  CHECK(store->game("g")->record == "#! TABLUT\n1   A/e2 c2/   D/e3 c3/\n");
}

TEST_CASE("saver: a refused commit fails every save in it and writes none of them") {
  TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  auto store = open_store(path);
  Worker writer("test-writer");
  Saver saver(*store, writer);
  REQUIRE(test::refuse_writes(path, "games", "INSERT", "NEW.record = 'refused'", "refused by the test") == "");
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
