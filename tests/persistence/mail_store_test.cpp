// The mail tables (schema version 7, docs/mail.md): seat addresses kept with the games row, the outbox filled
// in the save's own transaction, claimed by one sender at a time, and the Message-IDs of mails played. Every
// test case here is named "store mail: ...", so the store_postgresql test runs them all again on PostgreSQL.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <latch>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "persistence/copy.h"
#include "tests/persistence/helpers.h"
#include "tests/support/postgres.h"
#include "tests/support/process.h"

namespace cinq::store::testing {
namespace {

// A mail of game g1 for `seat`, due at `due` (and made then).
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

std::optional<MailRow> find_mail(Store& store, const std::string& id) {
  for (auto& m : store.mails_of_game("g1"))
    if (m.id == id) return m;
  return std::nullopt;
}

std::string state_of(Store& store, const std::string& id) {
  auto m = find_mail(store, id);
  return m ? m->state : "absent";
}

struct MailStore {
  test::TempDir dir;
  std::string path = dir.path() + "/cinq.db";
  std::unique_ptr<Store> store = open_store(path);
  // Saves g1 at version `version` (from `base`; none: it stands alone), `fill` adding its mail.
  bool save(std::int64_t version, std::optional<std::int64_t> base, const std::function<void(GameSave&)>& fill) {
    GameSave s = live_game("g1");
    s.row.seat_ids = {"pa", "pb"};
    s.row.version = version;
    s.row.updated_ms = 1000 + version;
    s.base_version = base;
    s.write_row = !base;
    fill(s);
    Error error;
    return store->save({}, {s}, error);
  }
};

TEST_CASE("store mail: a seat's address is written with the row, read back, kept after the end, cleared") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) {
    s.row.seat_mail[0] = {"ann@players.test", true, false, "24h,1h", "Europe/Paris", "fr"};
    s.row.seat_mail[1] = {"ben@players.test", false, true, ""};
  }));
  auto g = t.store->game("g1");
  REQUIRE(g);
  CHECK(g->seat_mail[0] == SeatMail{"ann@players.test", true, false, "24h,1h", "Europe/Paris", "fr"});
  CHECK(g->seat_mail[1] == SeatMail{"ben@players.test", false, true, ""});
  auto unfinished = t.store->unfinished_games();
  REQUIRE(unfinished.size() == 1);
  CHECK(unfinished[0].seat_mail == g->seat_mail);
  auto of_player = t.store->games_of_player("pb", 10);
  REQUIRE(of_player.size() == 1);
  CHECK(of_player[0].seat_mail == g->seat_mail);
  // A save that does not write the row leaves the stored addresses as they are.
  REQUIRE(t.save(2, 1, [](GameSave& s) { s.row.seat_mail[0] = {"other@players.test", false, false, ""}; }));
  CHECK(t.store->game("g1")->seat_mail[0].address == "ann@players.test");
  // One that writes it changes them.
  REQUIRE(t.save(3, 2, [](GameSave& s) {
    s.write_row = true;
    s.row.seat_mail[0] = {"ann@players.test", false, true, "off"};
    s.row.seat_mail[1] = {"ben@players.test", false, true, ""};
  }));
  CHECK(t.store->game("g1")->seat_mail[0] == SeatMail{"ann@players.test", false, true, "off"});
  // The game ends: the addresses stay (but an empty one goes).
  GameSave end = live_game("g1", "#! TABLUT\n#= aborted\n");
  end.row.status = "finished";
  end.row.seat_ids = {"pa", "pb"};
  end.row.version = 4;
  end.base_version = 3;
  end.row.seat_mail[0] = {"ann@players.test", false, true, "off"};
  Error error;
  REQUIRE_MESSAGE(t.store->save({}, {end}, error), error.message);
  g = t.store->game("g1");
  REQUIRE(g);
  CHECK(g->status == "finished");
  CHECK(g->seat_mail[0] == SeatMail{"ann@players.test", false, true, "off"});
  CHECK(g->seat_mail[1] == SeatMail{});
  CHECK(t.store->games_of_player("pa", 10).at(0).seat_mail[0].address == "ann@players.test");
  CHECK(test::ask_store(t.path, "SELECT count(*) FROM mail_seats WHERE game_id = 'g1'") == "1");
  // Written again without an address: its row goes.
  end.base_version.reset();
  end.row.seat_mail[0] = {};
  REQUIRE(t.store->save({}, {end}, error));
  CHECK(t.store->game("g1")->seat_mail[0] == SeatMail{});
  CHECK(test::ask_store(t.path, "SELECT count(*) FROM mail_seats WHERE game_id = 'g1'") == "0");
}

TEST_CASE("store mail: mails are queued in the save's transaction, once per id, and not by a failed save") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) { s.mails = {mail("a", 1, "turn", 10), mail("a", 1, "turn", 10)}; }));
  auto rows = t.store->mails_of_game("g1");
  REQUIRE(ids_of(rows) == std::vector<std::string>{"a"});
  CHECK(rows[0].state == "queued");
  CHECK(rows[0].game_id == "g1");
  CHECK(rows[0].seat == 1);
  CHECK(rows[0].kind == "turn");
  CHECK(rows[0].sender == "cinq@play.test");
  CHECK(rows[0].recipient == "ben@players.test");
  CHECK(rows[0].message == "Subject: a\r\n\r\nbody\r\n");
  CHECK(rows[0].attempts == 0);
  // Queued again by a later save (an event seen twice): still one.
  REQUIRE(t.save(2, 1, [](GameSave& s) { s.mails = {mail("a", 1, "turn", 10), mail("b", 0, "turn", 11)}; }));
  CHECK(ids_of(t.store->mails_of_game("g1")) == std::vector<std::string>{"a", "b"});
  // A save from a version the store does not hold fails whole: its mail, cancels and ids are not stored.
  CHECK_FALSE(t.save(5, 3, [](GameSave& s) {
    s.mails = {mail("c", 0, "turn", 12)};
    s.mail_cancels = {{"g1", 1, {"turn"}}};
    s.received = {"stale@players.test"};
  }));
  CHECK(ids_of(t.store->mails_of_game("g1")) == std::vector<std::string>{"a", "b"});
  CHECK(state_of(*t.store, "a") == "queued");
  CHECK_FALSE(t.store->mail_received("stale@players.test"));
  // Mails of other games are not this game's.
  MailRow other = mail("x", 0, "turn", 1);
  other.game_id = "g2";
  Error error;
  REQUIRE(t.store->queue_mails({other, other}, {}, error));
  CHECK(ids_of(t.store->mails_of_game("g2")) == std::vector<std::string>{"x"});
  CHECK(t.store->mails_of_game("g1").size() == 2);
}

TEST_CASE("store mail: a slot replaces its queued mail, not a sent one nor one a sender holds") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) { s.mails = {mail("t1", 1, "turn", 10, "turn.g1.1")}; }));
  REQUIRE(t.save(2, 1, [](GameSave& s) {
    MailRow m = mail("t2", 1, "reminder", 20, "turn.g1.1");
    m.recipient = "ben2@players.test";
    s.mails = {m};
  }));
  auto rows = t.store->mails_of_game("g1");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].id == "t1");  // its row keeps its id
  CHECK(rows[0].message == "Subject: t2\r\n\r\nbody\r\n");
  CHECK(rows[0].kind == "reminder");
  CHECK(rows[0].recipient == "ben2@players.test");
  CHECK(rows[0].due_ms == 20);
  CHECK(rows[0].created_ms == 20);
  // After a temporary failure it is still queued, and replaced again (tried at once: next_ms goes back to 0).
  REQUIRE(t.store->claim_mails("n1", 100, 50, 10).size() == 1);
  Error error;
  REQUIRE(t.store->finish_mail("t1", "queued", 110, 5000, "421 busy", error));
  REQUIRE(t.save(3, 2, [](GameSave& s) { s.mails = {mail("t3", 1, "turn", 200, "turn.g1.1")}; }));
  rows = t.store->mails_of_game("g1");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].id == "t1");
  CHECK(rows[0].message == "Subject: t3\r\n\r\nbody\r\n");
  CHECK(rows[0].next_ms == 0);
  CHECK(rows[0].attempts == 1);
  // Claimed by a sender (until 1300): a mail of its slot made meanwhile is a row of its own.
  REQUIRE(ids_of(t.store->claim_mails("n1", 300, 1000, 10)) == std::vector<std::string>{"t1"});
  REQUIRE(t.save(4, 3, [](GameSave& s) { s.mails = {mail("t4", 1, "turn", 400, "turn.g1.1")}; }));
  CHECK(ids_of(t.store->mails_of_game("g1")) == std::vector<std::string>{"t1", "t4"});
  CHECK(find_mail(*t.store, "t1")->message == "Subject: t3\r\n\r\nbody\r\n");
  // Sent: the next mail of the slot is a row of its own too.
  REQUIRE(t.store->finish_mail("t1", "sent", 450, 0, "", error));
  REQUIRE(t.save(5, 4, [](GameSave& s) { s.mails = {mail("t5", 1, "turn", 500, "turn.g1.1")}; }));
  CHECK(ids_of(t.store->mails_of_game("g1")) == std::vector<std::string>{"t1", "t4"});  // t5 replaced t4
  CHECK(find_mail(*t.store, "t4")->message == "Subject: t5\r\n\r\nbody\r\n");
  CHECK(state_of(*t.store, "t1") == "sent");
  // A mail without a slot is never replaced, nor replaces.
  REQUIRE(t.save(6, 5, [](GameSave& s) { s.mails = {mail("u1", 1, "turn", 600), mail("u2", 1, "turn", 601)}; }));
  CHECK(t.store->mails_of_game("g1").size() == 4);
}

TEST_CASE("store mail: a cancel takes the seat's queued mails of its kinds only, before the save's own mails") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) {
    s.mails = {mail("turn1", 1, "turn", 10), mail("rem1", 1, "reminder", 50), mail("end1", 1, "end", 10),
               mail("turn0", 0, "turn", 10), mail("sent1", 1, "turn", 5)};
  }));
  REQUIRE(t.store->claim_mails("n1", 5, 100, 1).size() == 1);  // sent1, the only one due at 5
  Error error;
  REQUIRE(t.store->finish_mail("sent1", "sent", 6, 0, "", error));
  // The seat played: its waiting mails go, and the save queues a new one of a cancelled kind.
  REQUIRE(t.save(2, 1, [](GameSave& s) {
    s.mail_cancels = {{"g1", 1, {"turn", "reminder"}}};
    s.mails = {mail("turn1b", 1, "turn", 20)};
  }));
  CHECK(state_of(*t.store, "turn1") == "cancelled");
  CHECK(state_of(*t.store, "rem1") == "cancelled");
  CHECK(state_of(*t.store, "end1") == "queued");
  CHECK(state_of(*t.store, "turn0") == "queued");
  CHECK(state_of(*t.store, "sent1") == "sent");
  CHECK(state_of(*t.store, "turn1b") == "queued");
  // A cancel of another game touches none of these.
  REQUIRE(t.save(3, 2, [](GameSave& s) { s.mail_cancels = {{"g2", 0, {"turn", "end"}}}; }));
  CHECK(state_of(*t.store, "turn0") == "queued");
  // A cancelled mail is never claimed; a cancelled kind of another name ("turns") is not a kind cancelled.
  REQUIRE(t.save(4, 3, [](GameSave& s) {
    s.mails = {mail("odd", 0, "turns", 11)};
    s.mail_cancels = {{"g1", 0, {"turn"}}};
  }));
  CHECK(state_of(*t.store, "turn0") == "cancelled");
  CHECK(state_of(*t.store, "odd") == "queued");
  CHECK(ids_of(t.store->claim_mails("n1", 1000, 100, 10)) == std::vector<std::string>{"end1", "odd", "turn1b"});
}

TEST_CASE("store mail: only due mails are claimed, by one claimer at a time, until the claim runs out") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) {
    s.mails = {mail("due", 0, "turn", 10), mail("later", 0, "reminder", 500), mail("gone", 1, "turn", 10),
               mail("first", 1, "end", 5)};
    s.mails.back().created_ms = 1;
  }));
  REQUIRE(t.save(2, 1, [](GameSave& s) { s.mail_cancels = {{"g1", 1, {"turn"}}}; }));
  CHECK(t.store->claim_mails("n1", 4, 1000, 10).empty());  // nothing due yet
  // Oldest due first, at most `limit`.
  auto claimed = t.store->claim_mails("n1", 100, 1000, 1);
  REQUIRE(ids_of(claimed) == std::vector<std::string>{"first"});
  CHECK(claimed[0].kind == "end");
  CHECK(claimed[0].message == "Subject: first\r\n\r\nbody\r\n");
  CHECK(ids_of(t.store->claim_mails("n1", 100, 1000, 10)) == std::vector<std::string>{"due"});
  CHECK(t.store->claim_mails("n2", 200, 1000, 10).empty());  // claimed by n1 until 1100
  // n1 died: its claims ran out at 1100; "later" is due by then too.
  CHECK(ids_of(t.store->claim_mails("n2", 1100, 1000, 10)) == std::vector<std::string>{"first", "due", "later"});
  Error error;
  // A temporary failure: queued again, not before next_ms, its error kept.
  REQUIRE(t.store->finish_mail("due", "queued", 1200, 1500, "421 try later", error));
  auto row = find_mail(*t.store, "due");
  REQUIRE(row);
  CHECK(row->state == "queued");
  CHECK(row->attempts == 1);
  CHECK(row->next_ms == 1500);
  CHECK(row->error == "421 try later");
  CHECK(row->sent_ms == 0);
  CHECK(t.store->claim_mails("n1", 1300, 1000, 10).empty());
  auto again = t.store->claim_mails("n1", 1500, 1000, 10);
  REQUIRE(ids_of(again) == std::vector<std::string>{"due"});  // "first" and "later" are still n2's
  CHECK(again[0].attempts == 1);
  CHECK(again[0].error == "421 try later");
  REQUIRE(t.store->finish_mail("due", "failed", 1600, 0, "550 no such user", error));
  REQUIRE(t.store->finish_mail("later", "sent", 1600, 0, "", error));
  REQUIRE(t.store->finish_mail("first", "sent", 1700, 0, "", error));
  row = find_mail(*t.store, "due");
  CHECK((row->state == "failed" && row->attempts == 2 && row->error == "550 no such user" && row->sent_ms == 0));
  row = find_mail(*t.store, "later");
  CHECK((row->state == "sent" && row->attempts == 1 && row->sent_ms == 1600 && row->error.empty()));
  auto counts = t.store->count_mails();
  std::sort(counts.begin(), counts.end());
  CHECK(counts == std::vector<std::pair<std::string, std::int64_t>>{{"cancelled", 1}, {"failed", 1}, {"sent", 2}});
  // Neither sent, failed nor cancelled mails are claimed again, however late.
  CHECK(t.store->claim_mails("n1", 100000, 1000, 10).empty());
}

TEST_CASE("store mail: a mail cancelled while it is sent stays cancelled after a temporary failure") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) { s.mails = {mail("m", 1, "turn", 10), mail("n", 1, "turn", 10)}; }));
  REQUIRE(t.store->claim_mails("n1", 100, 1000, 10).size() == 2);
  REQUIRE(t.save(2, 1, [](GameSave& s) { s.mail_cancels = {{"g1", 1, {"turn"}}}; }));
  Error error;
  REQUIRE(t.store->finish_mail("m", "queued", 200, 300, "421 later", error));
  REQUIRE(t.store->finish_mail("n", "sent", 200, 0, "", error));  // it went: so it is recorded
  CHECK(state_of(*t.store, "m") == "cancelled");
  CHECK(state_of(*t.store, "n") == "sent");
  CHECK(t.store->claim_mails("n1", 5000, 1000, 10).empty());
}

TEST_CASE("store mail: two claimers at once, on two connections, get disjoint mails and every one") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) {
    for (int i = 0; i < 60; ++i) s.mails.push_back(mail("m" + std::to_string(i), i % 2, "turn", i));
  }));
  auto second = open_store(t.path);  // another process's view of the same store
  std::vector<MailRow> a, b;
  std::latch start(2);
  auto claimer = [&start](Store& store, const std::string& node, std::vector<MailRow>& out) {
    start.arrive_and_wait();
    // Until nothing is left (whatever another holds in a claim not yet committed is that one's).
    for (int k = 0; k < 200; ++k) {
      auto got = store.claim_mails(node, 100, 100000, 2);
      if (got.empty()) break;
      for (auto& m : got) out.push_back(std::move(m));
    }
  };
  std::thread one([&] { claimer(*t.store, "n1", a); });
  std::thread two([&] { claimer(*second, "n2", b); });
  one.join();
  two.join();
  INFO("n1 claimed ", a.size(), ", n2 ", b.size());
  std::set<std::string> seen;
  for (const auto& m : a) CHECK(seen.insert(m.id).second);
  for (const auto& m : b) CHECK(seen.insert(m.id).second);
  CHECK(seen.size() == 60);
}

TEST_CASE("store mail: the Message-IDs of played mails, mails queued outside a save, the counts") {
  MailStore t;
  CHECK(t.store->count_mails().empty());
  REQUIRE(t.save(7, std::nullopt, [](GameSave& s) { s.received = {"reply.1@players.test", "reply.1@players.test"}; }));
  CHECK(t.store->mail_received("reply.1@players.test"));
  CHECK_FALSE(t.store->mail_received("reply.2@players.test"));
  CHECK(test::ask_store(t.path, "SELECT at_ms FROM mail_received WHERE message_id = 'reply.1@players.test'") ==
        "1007");  // the save's updated_ms
  // Delivered twice, played once: a second save naming it changes nothing.
  REQUIRE(t.save(8, 7, [](GameSave& s) { s.received = {"reply.1@players.test"}; }));
  CHECK(test::ask_store(t.path, "SELECT at_ms FROM mail_received WHERE message_id = 'reply.1@players.test'") ==
        "1007");
  Error error;
  MailRow answer = mail("answer", -1, "answer", 5);
  REQUIRE(t.store->queue_mails({answer, mail("answer2", 0, "answer", 6)}, {"reply.2@players.test"}, error));
  REQUIRE(t.store->queue_mails({answer}, {"reply.2@players.test"}, error));  // again: nothing new
  CHECK(t.store->mail_received("reply.2@players.test"));
  auto rows = t.store->mails_of_game("g1");
  REQUIRE(ids_of(rows) == std::vector<std::string>{"answer", "answer2"});
  CHECK(rows[0].seat == -1);
  REQUIRE(t.store->queue_mails({}, {}, error));
  auto counts = t.store->count_mails();
  CHECK(counts == std::vector<std::pair<std::string, std::int64_t>>{{"queued", 2}});
}

TEST_CASE("store mail: a store of schema version 6 gains the mail tables (7 to 9) at open and keeps its games") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave&) {}));
  t.store.reset();
  // Back to version 6: the mail tables gone, the version set back, as a server of version 6 left it.
  const std::string back = test::testing_postgres()
                               ? "DROP TABLE mail_seats, mail_outbox, mail_received, account_mail;"
                                 " UPDATE meta SET value = '6' WHERE key = 'schema_version'"
                               : "DROP TABLE mail_seats; DROP TABLE mail_outbox; DROP TABLE mail_received;"
                                 " DROP TABLE account_mail;"
                                 " PRAGMA user_version = 6";
  REQUIRE(test::ask_store(t.path, back) == "");
  CHECK(test::ask_store(t.path, "SELECT count(*) FROM mail_outbox").rfind("error:", 0) == 0);
  t.store = open_store(t.path);
  CHECK(test::ask_store(t.path, test::testing_postgres()
                                    ? "SELECT value FROM meta WHERE key = 'schema_version'"
                                    : "PRAGMA user_version") == "12");
  auto g = t.store->game("g1");
  REQUIRE(g);
  CHECK(g->version == 1);
  CHECK(g->seat_mail[0] == SeatMail{});
  CHECK(t.store->count_mails().empty());
  // The new tables work.
  REQUIRE(t.save(2, 1, [](GameSave& s) {
    s.write_row = true;
    s.row.seat_mail[1] = {"ben@players.test", true, true, ""};
    s.mails = {mail("m", 1, "turn", 1)};
    s.received = {"x@players.test"};
  }));
  CHECK(t.store->game("g1")->seat_mail[1].address == "ben@players.test");
  CHECK(ids_of(t.store->claim_mails("n1", 10, 10, 10)) == std::vector<std::string>{"m"});
  CHECK(t.store->mail_received("x@players.test"));
  Error error;
  REQUIRE(t.store->put_account_mail({"pb", "ben@players.test", "", "", "K", "", "", 1}, {}, error));
  CHECK(t.store->account_mail("pb")->address == "ben@players.test");
  // Opened again at the current version: nothing changes.
  t.store = open_store(t.path);
  CHECK(t.store->mails_of_game("g1").size() == 1);
}

TEST_CASE("store mail: a store of schema version 8 gains the seats' language at open, English for its seats") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) { s.row.seat_mail[0] = {"ann@players.test", true, true, "", "Europe/Paris"}; }));
  t.store.reset();
  // Back to version 8: the column gone, the version set back, as a server of version 8 left it.
  const std::string back = test::testing_postgres()
                               ? "ALTER TABLE mail_seats DROP COLUMN language;"
                                 " UPDATE meta SET value = '8' WHERE key = 'schema_version'"
                               : "ALTER TABLE mail_seats DROP COLUMN language; PRAGMA user_version = 8";
  REQUIRE(test::ask_store(t.path, back) == "");
  t.store = open_store(t.path);
  CHECK(test::ask_store(t.path, test::testing_postgres()
                                    ? "SELECT value FROM meta WHERE key = 'schema_version'"
                                    : "PRAGMA user_version") == "12");
  CHECK(t.store->game("g1")->seat_mail[0] == SeatMail{"ann@players.test", true, true, "", "Europe/Paris", ""});
  REQUIRE(t.save(2, 1, [](GameSave& s) {
    s.write_row = true;
    s.row.seat_mail[0] = {"ann@players.test", true, true, "", "Europe/Paris", "fr"};
  }));
  CHECK(t.store->game("g1")->seat_mail[0].language == "fr");
}

TEST_CASE("store mail: a copy of the store has the seats' mail and the mails still queued") {
  MailStore t;
  REQUIRE(t.save(1, std::nullopt, [](GameSave& s) {
    s.row.seat_mail[0] = {"ann@players.test", true, true, "8h"};
    s.mails = {mail("sent", 0, "turn", 1), mail("queued", 1, "turn", 2, "turn.g1.1"),
               mail("gone", 0, "reminder", 3)};
  }));
  REQUIRE(t.store->claim_mails("n1", 1, 10, 1).size() == 1);
  Error error;
  REQUIRE(t.store->finish_mail("sent", "sent", 2, 0, "", error));
  REQUIRE(t.save(2, 1, [](GameSave& s) { s.mail_cancels = {{"g1", 0, {"reminder"}}}; }));
  MailRow loose = mail("loose", -1, "answer", 4);
  loose.game_id = "";
  REQUIRE(t.store->queue_mails({loose}, {}, error));

  test::TempDir other;
  auto copy = open_store(other.path() + "/copy.db");
  CopyReport report;
  REQUIRE_MESSAGE(copy_store(*t.store, *copy, report, error), error.message);
  auto g = copy->game("g1");
  REQUIRE(g);
  CHECK(g->seat_mail[0] == SeatMail{"ann@players.test", true, true, "8h"});
  auto rows = copy->mails_of_game("g1");
  REQUIRE(ids_of(rows) == std::vector<std::string>{"queued"});  // the history stays behind
  CHECK(rows[0].slot == "turn.g1.1");
  CHECK(rows[0].message == "Subject: queued\r\n\r\nbody\r\n");
  CHECK(ids_of(copy->mails_of_game("")) == std::vector<std::string>{"loose"});
}

TEST_CASE("store mail: an account's address and settings, with its mails in one transaction, found by seat") {
  MailStore t;
  CHECK(!t.store->account_mail("pb"));
  AccountMail ben{"pb", "", "ben@players.test", "HASH", "KEY", "turn end", "", 5};
  Error error;
  MailRow confirm = mail("confirm.pb", -1, "confirm", 5);
  confirm.game_id = "";
  REQUIRE_MESSAGE(t.store->put_account_mail(ben, {confirm}, error), error.message);
  CHECK(t.store->account_mail("pb") == ben);
  CHECK(ids_of(t.store->mails_of_game("")) == std::vector<std::string>{"confirm.pb"});
  // Replaced whole; its mails queued once per id.
  ben.address = "ben@players.test";
  ben.pending = ben.code_hash = "";
  ben.prefs = "reminder digest=7";
  REQUIRE(t.store->put_account_mail(ben, {confirm}, error));
  CHECK(t.store->account_mail("pb") == ben);
  CHECK(t.store->mails_of_game("").size() == 1);
  // Found by the seat it holds (pb sits in g1's seat 1); nobody's for a guest's seat (pa has no row), nor for
  // a seat that plays by mail alone.
  REQUIRE(t.save(1, std::nullopt, [](GameSave&) {}));
  CHECK(t.store->seat_account_mail("g1", 1) == ben);
  CHECK(!t.store->seat_account_mail("g1", 0));
  CHECK(!t.store->seat_account_mail("nope", 1));
  REQUIRE(t.save(2, 1, [](GameSave& s) {
    s.write_row = true;
    s.row.seat_mail[1] = {"ben@players.test", true, true, ""};
  }));
  CHECK(!t.store->seat_account_mail("g1", 1));
  // The digest's accounts: a digest chosen and an address confirmed.
  AccountMail pending_only{"pc", "", "cy@players.test", "H", "K", "digest=3", "", 6};
  AccountMail no_digest{"pd", "dee@players.test", "", "", "K", "turn", "", 6};
  REQUIRE(t.store->put_account_mail(pending_only, {}, error));
  REQUIRE(t.store->put_account_mail(no_digest, {}, error));
  auto digests = t.store->digest_accounts();
  REQUIRE(digests.size() == 1);
  CHECK(digests[0] == ben);
  // A copy of the store carries it with its player.
  PlayerRow player{"pb", "tokenhash", "Ben", 1, "ben", "argon", {}};
  REQUIRE(t.store->put_player(player, error));
  test::TempDir other;
  auto copy = open_store(other.path() + "/copy.db");
  CopyReport report;
  REQUIRE_MESSAGE(copy_store(*t.store, *copy, report, error), error.message);
  CHECK(copy->account_mail("pb") == ben);
}

}  // namespace
}  // namespace cinq::store::testing
