// The real server on a real PostgreSQL when the database goes away: a throwaway cluster
// (tests/support/postgres.h) stopped and started again under a game in play, then the server killed with
// SIGKILL and restarted. The server's other tests run on PostgreSQL too (ctest's store_postgresql).
#include <doctest/doctest.h>
#include <signal.h>

#include "persistence/store.h"
#include "rules/notation.h"
#include "tests/server/peer.h"
#include "tests/support.h"
#include "tests/support/postgres.h"
#include "tests/support/process.h"

namespace cinq::test {
namespace {

// The turns of a record, as the `actions` of one `act` message each, with the side letter that plays them.
std::vector<std::pair<char, std::vector<std::string>>> turns_of(const Record& record) {
  std::vector<std::pair<char, std::vector<std::string>>> out;
  for (const Entry& e : record.entries())
    if (e.kind == Entry::Kind::turns)
      for (const TurnText& t : e.turns) out.emplace_back(t.side, t.items);
  return out;
}

// The answer to an `act` for `p`: the room's event of that play, or an error (the events of the turns before
// it, still unread, are passed over).
json act(Peer& p, const std::string& room, const std::vector<std::string>& actions) {
  p.send({{"type", "act"}, {"room", room}, {"actions", actions}});
  return p.until([&](const json& m) {
    const std::string type = m.value("type", "");
    return type == "error" || (type == "event" && m.value("kind", "") == "play" && m["actions"] == json(actions));
  });
}

}  // namespace

TEST_CASE("postgresql: the database stopped under play: turns and new identities are refused with storage, nothing "
          "refused is announced, once it is back the server reconnects by itself and play goes on, after a SIGKILL "
          "every announced turn is there") {
  auto sample = Record::read(read_text(data_path("records/tablut/sample-escape.txt")));
  REQUIRE(sample.ok());
  const auto turns = turns_of(*sample);
  REQUIRE(turns.size() > 8);
  PostgresCluster& pg = PostgresCluster::shared();
  pg.exec("DROP SCHEMA IF EXISTS server_outage CASCADE");
  const std::string uri = pg.uri_for_schema("server_outage");
  TempDir data;
  std::string room;
  std::size_t announced = 0;
  std::string alice_id, alice_token, bob_id, bob_token;
  {
    ServerProcess server(data.path(), CINQ_WEB_DIR, {"--store", uri});
    Table t(server.port(), "tablut");
    room = t.room;
    alice_id = t.alice.id, alice_token = t.alice.token, bob_id = t.bob.id, bob_token = t.bob.token;
    auto mover = [&](std::size_t i) -> Peer& { return turns[i].first == 'A' ? t.alice : t.bob; };
    for (; announced < 4; ++announced) {
      json ev = act(mover(announced), room, turns[announced].second);
      REQUIRE(ev["type"] == "event");
    }

    pg.stop();
    CHECK(ask_store_uri(uri, "SELECT 1").rfind("error: ", 0) == 0);  // it is down
    // The turn is refused: the save failed, nothing is announced, the room is closed until it is read again.
    json refused = act(mover(announced), room, turns[announced].second);
    CHECK(refused["type"] == "error");
    CHECK(refused["code"] == "storage");
    for (Peer* p : {&t.alice, &t.bob})
      for (const json& m : p->drain())
        CHECK_FALSE((m.value("kind", "") == "play" && m["actions"] == json(turns[announced].second)));
    // Rejoining needs the store: "try again", never "no such room".
    Peer& other = turns[announced].first == 'A' ? t.bob : t.alice;
    other.send({{"type", "join"}, {"room", room}});
    json again = other.until_type("error");
    CHECK(again["code"] == "storage");
    CHECK(again["message"].get<std::string>().find("try again") != std::string::npos);
    // A new identity cannot be stored, so none is given.
    WsClient newcomer(server.port());
    newcomer.send(json{{"type", "hello"}, {"name", "Dora"}}.dump());
    json hello = json::parse(newcomer.receive(std::chrono::seconds(20)).value());
    CHECK(hello["type"] == "error");
    CHECK(hello["code"] == "storage");
    CHECK(get_json(server.port(), "/api/health")["status"] == "ok");  // the server itself is up

    pg.start();
    // Back: the room is read again and the refused turn is played for real.
    for (Peer* p : {&t.alice, &t.bob}) {
      p->drain();
      p->send({{"type", "join"}, {"room", room}});
      json state = p->until_type("state");
      auto so_far = Record::read(state["record"].get<std::string>());
      REQUIRE(so_far.ok());
      CHECK(so_far->turn_count() == static_cast<int>(announced));  // the refused turn is not there
    }
    for (; announced < 8; ++announced) {
      json ev = act(mover(announced), room, turns[announced].second);
      REQUIRE_MESSAGE(ev["type"] == "event", ev.dump());
    }
    Peer dora(server.port(), "Dora");  // identities are stored again
    CHECK(!dora.id.empty());
    t.alice.drain();
    server.kill(SIGKILL);
    server.wait(std::chrono::seconds(10));
  }
  // Restarted on the same database: every announced turn, and the players' identities.
  ServerProcess server(data.path(), CINQ_WEB_DIR, {"--store", uri});
  Peer alice(server.port(), alice_id, alice_token);
  CHECK(alice.id == alice_id);
  alice.send({{"type", "join"}, {"room", room}});
  json state = alice.until_type("state");
  auto stored = Record::read(state["record"].get<std::string>());
  REQUIRE(stored.ok());
  auto played = turns_of(*stored);
  REQUIRE(played.size() == announced);
  for (std::size_t i = 0; i < announced; ++i) CHECK(played[i] == turns[i]);
  // And the game goes on to its end.
  Peer bob(server.port(), bob_id, bob_token);
  bob.send({{"type", "join"}, {"room", room}});
  bob.until_type("state");
  for (std::size_t i = announced; i < turns.size(); ++i) {
    json ev = act(turns[i].first == 'A' ? alice : bob, room, turns[i].second);
    REQUIRE_MESSAGE(ev["type"] == "event", ev.dump());
  }
  CHECK(alice.until_event("finished")["result"]["text"] == sample->result_text());
  store::Error error;
  auto store = store::Store::open(uri, error);
  REQUIRE(store);
  CHECK(store->game(room)->status == "finished");
}

}  // namespace cinq::test
