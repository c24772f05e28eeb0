// The server's tournament glue without a server (server/tournament_glue.h): how a finished room counts in its
// tournament (from the room, and from its stored row after a restart), and what a tournament shows.
#include <doctest/doctest.h>

#include "server/stored_rooms.h"
#include "server/tournament_glue.h"
#include "tests/lobby/helpers.h"

namespace cinq::server {
namespace {

using lobby::test::at;
using lobby::test::live_clock;
using lobby::test::live_room;
using lobby::test::play;
using tournament::Result;

// The outcome a finished room gives, checked to be the same when read back from its stored row.
TournamentOutcome outcome(const lobby::Room& room) {
  auto from_room = tournament_outcome(room);
  REQUIRE(from_room);
  auto from_row = tournament_outcome(to_row(room.saved(at(100000)), 0));
  REQUIRE(from_row);
  CHECK(*from_row == *from_room);
  return *from_room;
}

TEST_CASE("server tournaments: a finished room's result in its tournament") {
  lobby::Room room = live_room("tablut", "", live_clock(60, 0));
  CHECK_FALSE(tournament_outcome(room));  // live
  play(room, "d1 d2", at(1000));
  play(room, "e3 c3", at(2000));
  SUBCASE("a resignation: the other seat wins over the board") {
    REQUIRE_FALSE(room.resign("bob-id", at(3000)).error);
    TournamentOutcome o = outcome(room);
    CHECK_FALSE(o.forfeit);
    CHECK(o.result == Result::first_wins);
  }
  SUBCASE("the first seat resigns") {
    REQUIRE_FALSE(room.resign("alice-id", at(3000)).error);
    CHECK(outcome(room).result == Result::second_wins);
  }
  SUBCASE("a draw agreed") {
    REQUIRE_FALSE(room.offer_draw("alice-id", at(3000)).error);
    REQUIRE_FALSE(room.offer_draw("bob-id", at(4000)).error);
    CHECK(outcome(room).result == Result::draw);
  }
  SUBCASE("a flag fallen") {
    CHECK_FALSE(room.tick(at(2000 + 61000)).events.empty());
    CHECK(outcome(room).result == Result::second_wins);  // the first seat was to move
  }
}

TEST_CASE("server tournaments: no first move is a forfeit for the side to move, another abort a double one") {
  SUBCASE("the first seat never moves") {
    lobby::Room room = live_room("tablut", "", live_clock(60, 0));
    CHECK_FALSE(room.tick(at(lobby::Room::kFirstMoveMs)).events.empty());
    TournamentOutcome o = outcome(room);
    CHECK(o.forfeit);
    CHECK(o.present == std::array<bool, 2>{false, true});
  }
  SUBCASE("the second seat never moves") {
    lobby::Room room = live_room("tablut", "", live_clock(60, 0));
    play(room, "d1 d2", at(1000));
    CHECK_FALSE(room.tick(at(1000 + lobby::Room::kFirstMoveMs)).events.empty());
    TournamentOutcome o = outcome(room);
    CHECK(o.forfeit);
    CHECK(o.present == std::array<bool, 2>{true, false});
  }
  SUBCASE("a player aborts before both moved: nobody came, as far as the tournament knows") {
    lobby::Room room = live_room("tablut", "", live_clock(60, 0));
    REQUIRE_FALSE(room.abort("bob-id", at(1000)).error);
    TournamentOutcome o = outcome(room);
    CHECK(o.forfeit);
    CHECK(o.present == std::array<bool, 2>{false, false});
  }
}

TEST_CASE("server tournaments: the tournament as shown, and its store row") {
  tournament::Spec spec;
  spec.name = "Four";
  spec.format = tournament::Format::swiss;
  spec.game = "tablut";
  spec.rounds = 2;
  spec.pace = {60000, 0, 0};
  spec.creator = "p0";
  tournament::Tournament t("T1", spec, 1000);
  for (int i = 0; i < 4; ++i) REQUIRE_FALSE(t.join("p" + std::to_string(i), "n" + std::to_string(i), 1500 - i, 2000));
  store::TournamentRow row = tournament_row(t, 3000);
  CHECK(row.status == "open");
  CHECK(row.format == "swiss");
  CHECK(row.created_by == "p0");
  CHECK(tournament_summary(row)["status"] == "open");
  CHECK(tournament_summary(row)["entrants"] == 4);

  REQUIRE_FALSE(t.start(4000));
  tournament::Step step = t.advance(4000);
  REQUIRE(step.paired.size() == 2);
  for (const auto& g : t.rooms_to_create()) REQUIRE_FALSE(t.attach_room(g.id, g.id));
  REQUIRE_FALSE(t.record_result(step.paired[0].id, Result::first_wins, 5000).error);
  REQUIRE_FALSE(t.record_forfeit(step.paired[1].id, {false, true}, 5000).error);
  nlohmann::json shown = tournament_json(t);
  CHECK(shown["name"] == "Four");
  CHECK(shown["status"] == "running");
  CHECK(shown["spec"]["rounds"] == 2);
  REQUIRE(shown["rounds"].size() == 1);
  const nlohmann::json& games = shown["rounds"][0]["games"];
  REQUIRE(games.size() == 2);
  CHECK(games[0]["room"] == games[0]["id"]);
  CHECK(games[0]["result"] == "1-0");
  CHECK(games[1]["result"] == "0-1 forfeit");
  CHECK(shown["standings"].size() == 4);
  CHECK(shown["standings"][0]["points"] == 1);
  REQUIRE(shown["crosstable"].size() == 4);
  CHECK(shown["crosstable"][0]["cells"].size() == 1);
  CHECK(tournament_row(t, 6000).status == "running");
  CHECK(tournament_clock({0, 0, 3}).days == 3);
  CHECK(tournament_clock({60000, 2000, 0}).increment_ms == 2000);
}

}  // namespace
}  // namespace cinq::server
