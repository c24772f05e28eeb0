// The mail tables (schema version 7, docs/mail.md): seat addresses kept with the games row, the outbox filled
// in the save's own transaction, claimed by one sender at a time, and the Message-IDs of mails played. Run on
// SQLite here and again on PostgreSQL (the store_postgresql test).
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <thread>

#include "persistence/saver.h"
#include "tests/persistence/helpers.h"
#include "tests/support/process.h"

namespace cinq::store::testing {
namespace {

MailRow mail(const std::string& id, int seat, const std::string& kind, std::int64_t due, const std::string& slot = "") {
  MailRow m;
  m.id = id;
  m.slot = slot;
  m.game_id = "g1";
  m.seat = seat;
  m.kind = kind;
  m.sender = "cinq@play.test";
  m.recipient = seat == 0 ? "ann@players.test" : "ben@players.test";
  m.message = "Subject: " + id + "\r\n\r\nbody\r\n";
  m.created_ms = due;
  m.due_ms = due;
  return m;
}

std::vector<std::string> ids_of(const std::vector<MailRow>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(r.id);
  return out;
}

std::string state_of(Store& store, const std::string& id) {
  for (const auto& m : store.mails_of_game("g1"))
    if (m.id == id) return m.state;
  return "absent";
}

struct MailStore {
  test::TempDir dir;
  std::unique_ptr<Store> store = open_store(dir.path() + "/cinq.db");
  // Saves g1 at version `version` (from `base`), with `fill` adding its mail.
  bool save(std::int64_t version, std::optional<std::int64_t> base, const std::function<void(GameSave&)>& fill) {
    GameSave s = live_game("g1");
    s.row.version = version;
    s.row.updated_ms = 1000 + version;
    s.base_version = base;
    fill(s);
    Error error;
    return store->save({}, {s}, error);
  }
};

TEST_CASE("store mail: a seat's address is written with the row, read back, kept after the end, cleared") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) {
    s.row.seat_mail[0] = {"ann@players.test", true, false, "24h,1h"};
    s.row.seat_mail[1] = {"ben@players.test", false, true, ""};
  }));
  auto g = t.store->game("g1");
  REQUIRE(g);
  CHECK(g->seat_mail[0] == SeatMail{"ann@players.test", true, false, "24h,1h"});
  CHECK(g->seat_mail[1] == SeatMail{"ben@players.test", false, true, ""});
  auto unfinished = t.store->unfinished_games();
  REQUIRE(unfinished.size() == 1);
  CHECK(unfinished[0].seat_mail[0].address == "ann@players.test");
  GameSave end = live_game("g1", "#! TABLUT\n#= aborted\n");
  end.row.status = "finished";
  end.row.seat_mail = g->seat_mail;
  end.row.seat_mail[1] = {};
  Error error;
  REQUIRE(t.store->save({}, {end}, error));
  g = t.store->game("g1");
  CHECK(g->seat_mail[0].address == "ann@players.test");
  CHECK(g->seat_mail[1].address.empty());
}

TEST_CASE("store mail: mails are queued in the save's transaction, once per id, and not by a failed save") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) { s.mails = {mail("a", 1, "turn", 10), mail("a", 1, "turn", 10)}; }));
  CHECK(ids_of(t.store->mails_of_game("g1")) == std::vector<std::string>{"a"});
  // A save from a version the store does not hold fails whole: its mail is not queued.
  CHECK_FALSE(t.save(5, 3, [](GameSave& s) { s.mails = {mail("b", 0, "turn", 10)}; }));
  CHECK(ids_of(t.store->mails_of_game("g1")) == std::vector<std::string>{"a"});
}

TEST_CASE("store mail: a slot replaces its queued mail, not a sent one") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) { s.mails = {mail("t1", 1, "turn", 10, "turn.g1.1")}; }));
  REQUIRE(t.save(2, 1, [](GameSave& s) { s.mails = {mail("t2", 1, "turn", 20, "turn.g1.1")}; }));
  auto rows = t.store->mails_of_game("g1");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].id == "t1");
  CHECK(rows[0].message.find("t2") != std::string::npos);
  CHECK(rows[0].due_ms == 20);
  auto claimed = t.store->claim_mails("n1", 100, 1000, 10);
  REQUIRE(claimed.size() == 1);
  Error error;
  REQUIRE(t.store->finish_mail("t1", "sent", 101, 0, "", error));
  REQUIRE(t.save(3, 2, [](GameSave& s) { s.mails = {mail("t3", 1, "turn", 30, "turn.g1.1")}; }));
  CHECK(ids_of(t.store->mails_of_game("g1")) == std::vector<std::string>{"t1", "t3"});
}

TEST_CASE("store mail: a cancel takes the seat's queued mails of its kinds only") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) {
    s.mails = {mail("turn1", 1, "turn", 10), mail("rem1", 1, "reminder", 50), mail("end0", 0, "end", 10),
               mail("turn0", 0, "turn", 10)};
  }));
  REQUIRE(t.save(2, 1, [](GameSave& s) { s.mail_cancels = {{"g1", 1, {"turn", "reminder"}}}; }));
  CHECK(state_of(*t.store, "turn1") == "cancelled");
  CHECK(state_of(*t.store, "rem1") == "cancelled");
  CHECK(state_of(*t.store, "end0") == "queued");
  CHECK(state_of(*t.store, "turn0") == "queued");
}

TEST_CASE("store mail: only due mails are claimed, by one claimer at a time, until the claim runs out") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) {
    s.mails = {mail("due", 0, "turn", 10), mail("later", 0, "reminder", 500), mail("gone", 1, "turn", 10)};
    s.mail_cancels = {};
  }));
  REQUIRE(t.save(2, 1, [](GameSave& s) { s.mail_cancels = {{"g1", 1, {"turn"}}}; }));
  CHECK(ids_of(t.store->claim_mails("n1", 100, 1000, 10)) == std::vector<std::string>{"due"});
  CHECK(t.store->claim_mails("n2", 200, 1000, 10).empty());  // claimed by n1 until 1100
  // n1 died: its claim ran out at 1100; "later" is due by then too.
  CHECK(ids_of(t.store->claim_mails("n2", 1100, 1000, 10)) == std::vector<std::string>{"due", "later"});
  Error error;
  // A temporary failure: queued again, not before next_ms.
  REQUIRE(t.store->finish_mail("due", "queued", 1200, 1500, "421 try later", error));
  CHECK(t.store->claim_mails("n1", 1300, 1000, 10).empty());
  auto again = t.store->claim_mails("n1", 1500, 1000, 10);
  REQUIRE(again.size() == 1);  // "later" is still n2's
  CHECK(again[0].id == "due");
  CHECK(again[0].attempts == 1);
  CHECK(again[0].error == "421 try later");
  REQUIRE(t.store->finish_mail("due", "failed", 1600, 0, "550 no such user", error));
  REQUIRE(t.store->finish_mail("later", "sent", 1600, 0, "", error));
  auto rows = t.store->mails_of_game("g1");
  for (const auto& r : rows) {
    if (r.id == "due") CHECK((r.state == "failed" && r.attempts == 2 && r.error == "550 no such user"));
    if (r.id == "later") CHECK((r.state == "sent" && r.sent_ms == 1600));
  }
  auto counts = t.store->count_mails();
  std::sort(counts.begin(), counts.end());
  CHECK(counts == std::vector<std::pair<std::string, std::int64_t>>{{"cancelled", 1}, {"failed", 1}, {"sent", 1}});
  CHECK(t.store->claim_mails("n1", 100000, 1000, 10).empty());
}

TEST_CASE("store mail: two claimers at once get disjoint mails") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) {
    for (int i = 0; i < 40; ++i) s.mails.push_back(mail("m" + std::to_string(i), i % 2, "turn", i));
  }));
  std::vector<MailRow> a, b;
  std::thread one([&] {
    for (int k = 0; k < 10; ++k)
      for (auto& m : t.store->claim_mails("n1", 100, 100000, 3)) a.push_back(m);
  });
  std::thread two([&] {
    for (int k = 0; k < 10; ++k)
      for (auto& m : t.store->claim_mails("n2", 100, 100000, 3)) b.push_back(m);
  });
  one.join();
  two.join();
  std::set<std::string> seen;
  for (const auto& m : a) CHECK(seen.insert(m.id).second);
  for (const auto& m : b) CHECK(seen.insert(m.id).second);
  CHECK(seen.size() == 40);
}

TEST_CASE("store mail: the Message-IDs of played mails, and mails queued outside a save") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) { s.received = {"reply.1@players.test"}; }));
  CHECK(t.store->mail_received("reply.1@players.test"));
  CHECK_FALSE(t.store->mail_received("reply.2@players.test"));
  Error error;
  REQUIRE(t.store->queue_mails({mail("answer", 0, "answer", 5)}, {"reply.2@players.test"}, error));
  CHECK(t.store->mail_received("reply.2@players.test"));
  CHECK(ids_of(t.store->mails_of_game("g1")) == std::vector<std::string>{"answer"});
}

}  // namespace
}  // namespace cinq::store::testing

namespace cinq::store::testing {
namespace {

TEST_CASE("saver: merged saves keep their mail in order, a later cancel dropping an earlier queued mail") {
  GameSave first = live_game("g1");
  first.row.version = 1;
  first.mails = {mail("turn.b", 1, "turn", 1), mail("end.a", 0, "end", 1)};
  first.received = {"r1"};
  GameSave second = live_game("g1");
  second.row.version = 2;
  second.base_version = 1;
  second.mail_cancels = {{"g1", 1, {"turn", "reminder"}}};
  second.mails = {mail("turn.a", 0, "turn", 2)};
  second.received = {"r2"};
  REQUIRE(merge(first, std::move(second)));
  CHECK(ids_of(first.mails) == std::vector<std::string>{"end.a", "turn.a"});
  CHECK(first.mail_cancels.size() == 1);
  CHECK(first.received == std::vector<std::string>{"r1", "r2"});
  // A save that stands alone (a finished game's) keeps what came before it.
  GameSave last = live_game("g1", "#! TABLUT\n#= aborted\n");
  last.row.status = "finished";
  last.mails = {mail("end.b", 1, "end", 3)};
  REQUIRE(merge(first, std::move(last)));
  CHECK(ids_of(first.mails) == std::vector<std::string>{"end.a", "turn.a", "end.b"});
  CHECK(first.received == std::vector<std::string>{"r1", "r2"});
}

}  // namespace
}  // namespace cinq::store::testing

#include <sqlite3.h>

namespace cinq::store::testing {
namespace {

TEST_CASE("store: a version 6 file gains the mail tables at open and keeps its games") {
  test::TempDir dir;
  const std::string path = dir.path() + "/cinq.db";
  {
    Error error;
    auto store = Store::open("sqlite:" + path, error);
    REQUIRE(store);
    GameSave s = live_game("old");
    s.row.version = 1;
    REQUIRE(store->save({}, {s}, error));
  }
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "DROP TABLE mail_seats; DROP TABLE mail_outbox; DROP TABLE mail_received; PRAGMA user_version=6",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  Error error;
  auto store = Store::open("sqlite:" + path, error);
  REQUIRE_MESSAGE(store, error.message);
  CHECK(store->game("old").has_value());
  REQUIRE(store->queue_mails({mail("m", 0, "turn", 1)}, {"x@y"}, error));
  CHECK(store->mail_received("x@y"));
}

}  // namespace
}  // namespace cinq::store::testing
