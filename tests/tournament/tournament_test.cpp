// A tournament's life (tournament/tournament.h): entrants, start, rounds paired when due, results recorded
// once, forfeits, absents, late entries, withdrawals, the arena's streaks, tie-breaks on a table worked by
// hand, and the saved form.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tournament/pairing.h"
#include "tournament/tournament.h"

namespace cinq::tournament {
namespace {

constexpr std::int64_t kT0 = 1'700'000'000'000;  // the tests' clock starts here
constexpr std::int64_t kMinute = 60'000;

Spec spec_of(Format format) {
  Spec s;
  s.name = "Test " + std::string(format_name(format));
  s.format = format;
  s.game = "tablut";
  s.rounds = format == Format::swiss ? 3 : 0;
  s.duration_ms = format == Format::arena ? 60 * kMinute : 0;
  s.pace.base_ms = 3 * kMinute;
  s.pace.increment_ms = 2000;
  s.creator = "org";
  return s;
}

// Players p1..pN, rated so that p1 is the first seed.
Tournament with_players(const Spec& spec, int n) {
  Tournament t("T", spec, kT0);
  for (int i = 1; i <= n; ++i) REQUIRE_FALSE(t.join("p" + std::to_string(i), "Player " + std::to_string(i), 2000.0 - i, kT0));
  return t;
}

// Started, its first round paired.
Tournament started(const Spec& spec, int n) {
  Tournament t = with_players(spec, n);
  REQUIRE_FALSE(t.start(kT0));
  t.advance(kT0);
  return t;
}

const CrossRow& row_of(const std::vector<CrossRow>& rows, const std::string& player) {
  return *std::find_if(rows.begin(), rows.end(), [&](const CrossRow& r) { return r.standing.player == player; });
}

std::vector<Game> pending(const Tournament& t) {
  std::vector<Game> list;
  for (const Game& g : t.games())
    if (g.pending()) list.push_back(g);
  return list;
}

// Records a result for every pending game: `decide` gives it (by default the first seat wins).
void finish_games(Tournament& t, std::int64_t now,
                  const std::function<Result(const Game&)>& decide = [](const Game&) { return Result::first_wins; }) {
  for (const Game& g : pending(t)) {
    const Recorded r = t.record_result(g.id, decide(g), now);
    REQUIRE_FALSE(r.error);
  }
}

const Standing& standing_of(const std::vector<Standing>& table, const std::string& player) {
  return *std::find_if(table.begin(), table.end(), [&](const Standing& s) { return s.player == player; });
}

TEST_CASE("tournament: a spec needs a game, rounds for a Swiss, a live clock and a duration for an arena") {
  CHECK_FALSE(check_spec(spec_of(Format::swiss)));
  Spec s = spec_of(Format::swiss);
  s.rounds = 0;
  CHECK(check_spec(s)->code == "bad_spec");
  s = spec_of(Format::arena);
  s.pace = Pace{0, 0, 3};
  CHECK(check_spec(s)->message == "an arena is played live");
  s = spec_of(Format::round_robin);
  s.pace = Pace{0, 0, 3};
  CHECK_FALSE(check_spec(s));  // a round robin by correspondence
  s.pace = Pace{};
  CHECK(check_spec(s));
  s = spec_of(Format::swiss);
  s.game.clear();
  CHECK(check_spec(s));
}

TEST_CASE("tournament: entrants join and leave before the start, which needs two of them") {
  Tournament t("T", spec_of(Format::swiss), kT0);
  CHECK_FALSE(t.join("a", "Ann", 1500, kT0));
  CHECK(t.join("a", "Ann", 1500, kT0)->code == "already_in");
  CHECK(t.start(kT0)->code == "too_few");
  CHECK_FALSE(t.join("b", "Ben", 1600, kT0));
  CHECK_FALSE(t.withdraw("b", kT0));
  CHECK(t.entrants().size() == 1);  // gone before the start
  CHECK(t.withdraw("b", kT0)->code == "not_in");
  CHECK_FALSE(t.join("b", "Ben", 1600, kT0));  // and may come back
  CHECK_FALSE(t.start(kT0));
  CHECK(t.status() == Status::running);
  CHECK(t.start(kT0)->code == "started");
}

TEST_CASE("tournament: a planned start happens at its time through advance, with two players or more") {
  Spec s = spec_of(Format::swiss);
  s.start_ms = kT0 + 10 * kMinute;
  Tournament t = with_players(s, 1);
  CHECK_FALSE(t.advance(kT0 + 11 * kMinute).started);  // one player: it waits
  REQUIRE_FALSE(t.join("p2", "Player 2", 1900, kT0 + 12 * kMinute));
  CHECK_FALSE(t.advance(kT0 + 5 * kMinute).started);
  const Step step = t.advance(kT0 + 12 * kMinute);
  CHECK(step.started);
  CHECK(step.changed);
  CHECK(step.paired.size() == 1);
  CHECK(t.started_ms() == kT0 + 12 * kMinute);
}

TEST_CASE("tournament: a Swiss pairs its next round once every game of the current one has a result, then finishes") {
  Tournament t = with_players(spec_of(Format::swiss), 6);
  REQUIRE_FALSE(t.start(kT0));
  Step step = t.advance(kT0);
  REQUIRE(step.paired.size() == 3);
  CHECK(t.round() == 1);
  CHECK(step.paired[0].id == "T-1-1");
  CHECK(step.paired[0].seats == std::array<std::string, 2>{"p1", "p4"});
  // The server stores the state, then makes the rooms and attaches them.
  CHECK(t.rooms_to_create().size() == 3);
  CHECK_FALSE(t.attach_room("T-1-1", "room-a"));
  CHECK_FALSE(t.attach_room("T-1-1", "room-a"));  // idempotent
  CHECK(t.attach_room("T-1-1", "room-b")->code == "room_differs");
  CHECK(t.attach_room("T-9-9", "room-b")->code == "unknown_game");
  CHECK(t.rooms_to_create().size() == 2);

  REQUIRE_FALSE(t.record_result("T-1-1", Result::first_wins, kT0 + kMinute).error);
  CHECK(t.advance(kT0 + kMinute).paired.empty());  // two games still going
  finish_games(t, kT0 + 2 * kMinute);
  step = t.advance(kT0 + 2 * kMinute);
  CHECK(step.paired.size() == 3);
  CHECK(t.round() == 2);
  finish_games(t, kT0 + 3 * kMinute);
  CHECK(t.advance(kT0 + 3 * kMinute).paired.size() == 3);
  finish_games(t, kT0 + 4 * kMinute);
  step = t.advance(kT0 + 4 * kMinute);
  CHECK(step.paired.empty());
  CHECK(step.finished);
  CHECK(t.status() == Status::finished);
  CHECK(t.join("late", "Late", 1500, kT0 + 5 * kMinute)->code == "finished");
  // Nine games, no pair twice.
  std::set<std::set<std::string>> pairs;
  for (const Game& g : t.games()) pairs.insert({g.seats[0], g.seats[1]});
  CHECK(pairs.size() == 9);
}

TEST_CASE("tournament: a result is recorded once: the same again changes nothing, another or an unknown game is refused") {
  Tournament t = started(spec_of(Format::swiss), 2);
  const std::int64_t version = t.version();
  Recorded r = t.record_result("T-1-1", Result::draw, kT0 + 1);
  CHECK(r.changed);
  CHECK(t.version() == version + 1);
  r = t.record_result("T-1-1", Result::draw, kT0 + 2);
  CHECK_FALSE(r.error);
  CHECK_FALSE(r.changed);
  CHECK(t.version() == version + 1);
  CHECK(t.game("T-1-1")->ended_ms == kT0 + 1);
  CHECK(t.record_result("T-1-1", Result::first_wins, kT0 + 3).error->code == "result_differs");
  CHECK(t.record_result("T-7-1", Result::draw, kT0).error->code == "unknown_game");
  CHECK(t.record_result("T-1-1", Result::pending, kT0).error->code == "not_a_result");
  const auto table = t.standings();
  CHECK(standing_of(table, "p1").points == 0.5);  // counted once
  CHECK(standing_of(table, "p2").points == 0.5);
}

TEST_CASE("tournament: a forfeit is a win for the player who came, not a game played, and marks the other absent") {
  Tournament t = started(spec_of(Format::swiss), 4);
  const Game g = t.games()[0];  // p1 - p3
  CHECK(t.record_forfeit(g.id, {true, true}, kT0).error->code == "not_a_forfeit");
  Recorded r = t.record_forfeit(g.id, {true, false}, kT0 + kMinute);
  CHECK(r.changed);
  CHECK(t.game(g.id)->result == Result::first_wins_forfeit);
  CHECK(t.entrant(g.seats[1])->absent);
  CHECK_FALSE(t.entrant(g.seats[0])->absent);
  CHECK_FALSE(t.record_forfeit(g.id, {true, false}, kT0 + 2 * kMinute).changed);  // once
  // The other game: neither came.
  REQUIRE(t.record_forfeit(t.games()[1].id, {false, false}, kT0 + kMinute).changed);
  CHECK(t.game(t.games()[1].id)->result == Result::double_forfeit);
  const auto table = t.standings();
  const Standing& winner = standing_of(table, g.seats[0]);
  CHECK(winner.points == 1);
  CHECK(winner.wins == 0);  // not over the board
  CHECK(winner.games == 0);
  CHECK(standing_of(table, g.seats[1]).points == 0);
  CHECK(t.crosstable()[0].cells[0].text() == "+" + std::to_string(standing_of(table, g.seats[1]).rank) + "F!");
}

TEST_CASE("tournament: an absent player is skipped for the round with no points and no bye, then paired again") {
  Tournament t = with_players(spec_of(Format::swiss), 5);
  REQUIRE_FALSE(t.start(kT0));
  REQUIRE_FALSE(t.set_absent("p2", true, kT0));
  t.advance(kT0);
  CHECK(t.games().size() == 2);  // four present: no bye
  for (const Game& g : t.games()) CHECK((g.seats[0] != "p2" && g.seats[1] != "p2"));
  REQUIRE(t.rests().size() == 1);
  CHECK(t.rests()[0] == Rest{1, "p2", SitOut::absent});
  finish_games(t, kT0 + kMinute);
  REQUIRE_FALSE(t.set_absent("p2", false, kT0 + kMinute));
  t.advance(kT0 + kMinute);
  CHECK(t.games().size() == 4);  // five players: two games and a bye
  const auto table = t.standings();
  CHECK(standing_of(table, "p2").points <= 1);  // 0 for the round missed (1 if the bye came to it)
  CHECK(row_of(t.crosstable(), "p2").cells[0].text() == "abs");
  CHECK(t.set_absent("nobody", true, kT0)->code == "not_in");
}

TEST_CASE("tournament: a Swiss takes late entries until its last round is paired, with 0 for the rounds missed") {
  Tournament t = started(spec_of(Format::swiss), 4);
  REQUIRE_FALSE(t.join("late", "Late", 2500, kT0 + kMinute));  // the best rated, in round 1
  CHECK(t.entrant("late")->first_round == 2);
  finish_games(t, kT0 + 2 * kMinute);
  t.advance(kT0 + 2 * kMinute);
  CHECK(t.round() == 2);
  bool paired = false;
  for (const Game& g : t.games())
    if (g.round == 2 && (g.seats[0] == "late" || g.seats[1] == "late")) paired = true;
  const bool bye = std::any_of(t.rests().begin(), t.rests().end(), [](const Rest& r) { return r.player == "late"; });
  CHECK((paired || bye));
  CHECK(row_of(t.crosstable(), "late").cells[0].text() == ".");
  finish_games(t, kT0 + 3 * kMinute);
  t.advance(kT0 + 3 * kMinute);
  CHECK(t.round() == 3);
  CHECK(t.join("later", "Later", 1500, kT0 + 4 * kMinute)->code == "closed");
}

TEST_CASE("tournament: a withdrawn player is not paired again and keeps the games played") {
  Tournament t = started(spec_of(Format::swiss), 4);
  finish_games(t, kT0 + kMinute);
  REQUIRE_FALSE(t.withdraw("p1", kT0 + kMinute));
  CHECK(t.join("p1", "Player 1", 1999, kT0 + kMinute)->code == "closed");
  t.advance(kT0 + kMinute);
  for (const Game& g : t.games())
    if (g.round == 2) CHECK((g.seats[0] != "p1" && g.seats[1] != "p1"));
  const auto table = t.standings();
  CHECK(standing_of(table, "p1").points == 1);  // won its round 1 game from the first seat
  CHECK(standing_of(table, "p1").withdrawn);
}

TEST_CASE("tournament: a Swiss finishes early when fewer than two players are left") {
  Tournament t = started(spec_of(Format::swiss), 2);
  finish_games(t, kT0 + kMinute);
  REQUIRE_FALSE(t.withdraw("p2", kT0 + kMinute));
  CHECK(t.advance(kT0 + kMinute).finished);
}

TEST_CASE("tournament: a live round robin pairs round by round by the Berger table, the rest is a bye") {
  Tournament t = with_players(spec_of(Format::round_robin), 5);
  REQUIRE_FALSE(t.start(kT0));
  CHECK(t.total_rounds() == 5);
  int rounds = 0;
  for (std::int64_t now = kT0; t.status() == Status::running; now += kMinute) {
    const Step step = t.advance(now);
    if (step.finished) break;
    CHECK(step.paired.size() == 2);
    ++rounds;
    finish_games(t, now);
  }
  CHECK(rounds == 5);
  CHECK(t.status() == Status::finished);
  CHECK(t.rests().size() == 5);
  std::set<std::set<std::string>> pairs;
  for (const Game& g : t.games()) pairs.insert({g.seats[0], g.seats[1]});
  CHECK(pairs.size() == 10);  // everyone met everyone once
  CHECK(t.games()[0].seats == std::array<std::string, 2>{"p2", "p5"});  // round 1: 2-5 3-4, 1 rests
}

TEST_CASE("tournament: a round robin by correspondence starts all its games at once, sides swapped in the second cycle") {
  Spec s = spec_of(Format::round_robin);
  s.pace = Pace{0, 0, 3};
  s.double_round_robin = true;
  Tournament t = with_players(s, 4);
  REQUIRE_FALSE(t.start(kT0));
  const Step step = t.advance(kT0);
  CHECK(step.paired.size() == 12);
  CHECK(t.round() == 6);
  std::map<std::array<std::string, 2>, int> seated;
  for (const Game& g : t.games()) ++seated[g.seats];
  CHECK(seated.size() == 12);  // each pair twice, once from each seat
  CHECK(t.advance(kT0 + kMinute).paired.empty());
  finish_games(t, kT0 + kMinute);
  CHECK(t.advance(kT0 + kMinute).finished);
}

TEST_CASE("tournament: a round robin's game against a withdrawn or absent player is a forfeit win, with no room") {
  Tournament t = started(spec_of(Format::round_robin), 4);
  finish_games(t, kT0);
  REQUIRE_FALSE(t.withdraw("p1", kT0));
  REQUIRE_FALSE(t.set_absent("p3", true, kT0));
  const Step step = t.advance(kT0 + kMinute);
  // Round 2 (4-3 1-2) ends at its pairing, so round 3 (2-4 3-1) is paired in the same step.
  REQUIRE(step.paired.size() == 4);
  CHECK(step.paired[0].result == Result::first_wins_forfeit);   // p4 came, p3 is absent
  CHECK(step.paired[1].result == Result::second_wins_forfeit);  // p1 withdrew
  CHECK(step.paired[2].pending());                              // p2 - p4
  CHECK(step.paired[3].result == Result::double_forfeit);       // p3 - p1
  CHECK(t.round() == 3);
  REQUIRE(t.rooms_to_create().size() == 1);
  CHECK(t.rooms_to_create()[0].id == "T-3-1");
}

TEST_CASE("tournament: tie-breaks on a round robin worked by hand: points, Buchholz, Sonneborn-Berger, direct encounter") {
  // Berger for 4: round 1 1-4 2-3, round 2 4-3 1-2, round 3 2-4 3-1. The results:
  //          p1   p2   p3   p4  | points  Buchholz  S-B
  //   p1     .    0    1    =   |  1.5     4.5      2     (p2 1.5 + p4 2 + p3 1 = 4.5; S-B p3 1 + p4 1)
  //   p2     1    .    =    0   |  1.5     4.5      2     (S-B p1 1.5 + p3 0.5)
  //   p3     0    =    .    =   |  1       5        1.75
  //   p4     =    1    =    .   |  2       4        2.75
  // p1 and p2 tie on points, Buchholz and Sonneborn-Berger; p2 beat p1, so p2 ranks above the first seed.
  Tournament t = with_players(spec_of(Format::round_robin), 4);
  REQUIRE_FALSE(t.start(kT0));
  const std::map<std::string, Result> results = {
      {"T-1-1", Result::draw},        {"T-1-2", Result::draw},        {"T-2-1", Result::draw},
      {"T-2-2", Result::second_wins}, {"T-3-1", Result::second_wins}, {"T-3-2", Result::second_wins}};
  for (std::int64_t now = kT0; t.status() == Status::running; now += kMinute) {
    t.advance(now);
    finish_games(t, now, [&](const Game& g) { return results.at(g.id); });
  }
  const auto table = t.standings();
  REQUIRE(table.size() == 4);
  const std::vector<std::string> order = {table[0].player, table[1].player, table[2].player, table[3].player};
  CHECK(order == std::vector<std::string>{"p4", "p2", "p1", "p3"});
  CHECK(table[0].points == 2);
  CHECK(table[0].buchholz == 4);
  CHECK(table[0].sonneborn_berger == 2.75);
  CHECK(table[1].points == 1.5);
  CHECK(table[1].buchholz == 4.5);
  CHECK(table[1].sonneborn_berger == 2);
  CHECK(table[1].direct == 1);
  CHECK(table[2].direct == 0);
  CHECK(table[2].sonneborn_berger == 2);
  CHECK(table[3].buchholz == 5);
  CHECK(table[3].sonneborn_berger == 1.75);
  CHECK(table[3].wins == 0);
  // p2's row: round 1 drew p3 (ranked 4) from the first seat, round 2 beat p1 (3) from the second, round 3
  // lost to p4 (1) from the first.
  const auto rows = t.crosstable();
  std::vector<std::string> cells;
  for (const Cell& c : rows[1].cells) cells.push_back(c.text());
  CHECK(cells == std::vector<std::string>{"=4F", "+3S", "-1F"});
  const std::string text = t.standings_text();
  CHECK(text.find("Player 2") < text.find("Player 1"));
}

TEST_CASE("tournament: a Swiss bye is worth a win, and Buchholz counts an unplayed round at the player's own score") {
  Tournament t = started(spec_of(Format::swiss), 3);
  REQUIRE(t.rests().size() == 1);
  CHECK(t.rests()[0] == Rest{1, "p3", SitOut::bye});  // the lowest ranked
  finish_games(t, kT0 + kMinute);  // p1 beats p2
  const auto table = t.standings();
  CHECK(standing_of(table, "p3").points == 1);
  CHECK(standing_of(table, "p3").buchholz == 1);  // a virtual opponent of its own score
  CHECK(standing_of(table, "p1").buchholz == 0);  // p2 has nothing
  CHECK(standing_of(table, "p2").buchholz == 1);
  // p3 ranks first: the same points as p1, and a better Buchholz.
  CHECK(t.crosstable()[0].standing.player == "p3");
  CHECK(t.crosstable()[0].cells[0].text() == "bye");
}

TEST_CASE("tournament: arena points are 2 a win, 1 a draw, doubled after two wins in a row until a game is not won") {
  Tournament t = with_players(spec_of(Format::arena), 2);
  REQUIRE_FALSE(t.start(kT0));
  CHECK(t.ends_ms() == kT0 + 60 * kMinute);
  // p1's results, in order: win 2, win 2, win 4 (streak), draw 2 (streak, then over), win 2, loss 0.
  const std::vector<int> p1_outcomes = {1, 1, 1, 0, 1, -1};
  std::int64_t now = kT0;
  for (int outcome : p1_outcomes) {
    const Step step = t.advance(now);
    REQUIRE(step.paired.size() == 1);  // the same two: no one else waits
    const Game& g = step.paired[0];
    const int p1_seat = g.seats[0] == "p1" ? 0 : 1;
    const Result r = outcome == 0 ? Result::draw
                     : (outcome > 0) == (p1_seat == 0) ? Result::first_wins
                                                        : Result::second_wins;
    now += 5 * kMinute;
    REQUIRE(t.record_result(g.id, r, now).changed);
  }
  const auto table = t.standings();
  CHECK(standing_of(table, "p1").points == 12);
  CHECK(standing_of(table, "p2").points == 1 + 2);  // the draw, then the last game's win
  CHECK(standing_of(table, "p1").wins == 4);
  const auto rows = t.crosstable();
  std::vector<double> earned;
  for (const Cell& c : rows[0].cells) earned.push_back(c.points);
  CHECK(earned == std::vector<double>{2, 2, 4, 2, 2, 0});
  // Sides alternate: the player who played first less plays first.
  CHECK(t.games()[0].seats[0] != t.games()[1].seats[0]);
}

TEST_CASE("tournament: the arena pairs a player who finished with another waiting one, not the same opponent again") {
  Tournament t = with_players(spec_of(Format::arena), 3);
  REQUIRE_FALSE(t.start(kT0));
  Step step = t.advance(kT0);
  REQUIRE(step.paired.size() == 1);  // p1 - p2, p3 waits
  const Game first = step.paired[0];
  REQUIRE(t.record_result(first.id, Result::first_wins, kT0 + kMinute).changed);
  step = t.advance(kT0 + kMinute);
  REQUIRE(step.paired.size() == 1);
  const std::set<std::string> pair = {step.paired[0].seats[0], step.paired[0].seats[1]};
  CHECK(pair.count("p3") == 1);  // the winner meets p3, not the player it just beat
  // After the end: no more pairing; finished once the games are over.
  CHECK(t.pair_arena(kT0 + 61 * kMinute).empty());
  CHECK_FALSE(t.advance(kT0 + 61 * kMinute).finished);
  REQUIRE(t.record_result(step.paired[0].id, Result::draw, kT0 + 62 * kMinute).changed);
  CHECK(t.advance(kT0 + 62 * kMinute).finished);
  CHECK(t.join("p9", "Player 9", 1500, kT0 + 63 * kMinute)->code == "finished");
}

// The boards of a round as text, "p1-p4 p5-p2" (first seat first), in board order.
std::string round_text(const Tournament& t, int round) {
  std::string out;
  for (const Game& g : t.games())
    if (g.round == round) out += (out.empty() ? "" : " ") + g.seats[0] + "-" + g.seats[1];
  return out;
}

// The standings as text, "p1 2, p3 1.5, ..." (points, best first).
std::string standings_text(const Tournament& t) {
  std::string out;
  for (const Standing& s : t.standings()) {
    std::string points = std::to_string(s.points);
    points.erase(points.find_last_not_of('0') + 1);
    if (points.back() == '.') points.pop_back();
    out += (out.empty() ? "" : ", ") + s.player + " " + points;
  }
  return out;
}

// docs/tournaments.md, "Blocks": a pair of whom one blocked the other counts as a pair that met already.
TEST_CASE("tournament: a Swiss pairs two players who blocked one another only when nothing else pairs the round") {
  // Round 1 of four: 1-3 and 4-2 by the Dutch order; p1 blocked p3, so p1 meets another.
  Tournament plain = started(spec_of(Format::swiss), 4);
  CHECK(round_text(plain, 1) == "p1-p3 p4-p2");
  Tournament t = with_players(spec_of(Format::swiss), 4);
  REQUIRE_FALSE(t.start(kT0));
  const Blocks blocks = {{"p1", "p3"}};
  t.advance(kT0, blocks);
  const std::string round1 = round_text(t, 1);
  CHECK(round1.find("p1-p3") == std::string::npos);
  CHECK(round1.find("p3-p1") == std::string::npos);
  CHECK(round1 == "p1-p4 p3-p2");  // the same score group, the even board's first seat to the lower seed
  // After round 1 the first seats won: p1 and p3 lead. They would meet now (one score group), but p1 blocked
  // p3: each meets one of the players without a point instead, a pair that never met.
  finish_games(t, kT0 + kMinute);
  CHECK(standings_text(t) == "p1 1, p3 1, p2 0, p4 0");
  t.advance(kT0 + kMinute, blocks);
  CHECK(round_text(t, 2) == "p2-p1 p4-p3");
  // Round 3: every pairing is now a repeat or the block; the block costs one such pair where the others cost
  // two repeats, so p1 and p3 meet at last: nobody sits out for a block.
  finish_games(t, kT0 + 2 * kMinute);
  t.advance(kT0 + 2 * kMinute, blocks);
  CHECK(round_text(t, 3) == "p1-p3 p4-p2");
}

TEST_CASE("tournament: two players alone who blocked one another are paired anyway (a Swiss, an arena with nobody else)") {
  Tournament swiss = with_players(spec_of(Format::swiss), 2);
  REQUIRE_FALSE(swiss.start(kT0));
  swiss.advance(kT0, {{"p2", "p1"}});
  CHECK(round_text(swiss, 1) == "p1-p2");
  CHECK(swiss.rests().empty());  // no bye: a bye would cost one of them a game for the other's block

  Tournament arena = with_players(spec_of(Format::arena), 2);
  REQUIRE_FALSE(arena.start(kT0));
  CHECK(arena.advance(kT0, {{"p1", "p2"}}).paired.size() == 1);  // nobody else plays: they meet
}

TEST_CASE("tournament: the arena pairs a player with another than the one it blocked, who waits while others play") {
  // Three waiting: p1 and p2 are nearest, but p1 blocked p2: p1 meets p3, p2 waits.
  Tournament t = with_players(spec_of(Format::arena), 3);
  REQUIRE_FALSE(t.start(kT0));
  const Blocks blocks = {{"p1", "p2"}};
  Step step = t.advance(kT0, blocks);
  REQUIRE(step.paired.size() == 1);
  CHECK(std::set<std::string>{step.paired[0].seats[0], step.paired[0].seats[1]} == std::set<std::string>{"p1", "p3"});
  // A fourth joins and waits with p2... p2 meets p4; then p1 finishes while p2 and p4 play, and p3 waits too.
  REQUIRE_FALSE(t.join("p4", "Player 4", 1500, kT0));
  step = t.advance(kT0, blocks);
  REQUIRE(step.paired.size() == 1);
  CHECK(std::set<std::string>{step.paired[0].seats[0], step.paired[0].seats[1]} == std::set<std::string>{"p2", "p4"});
  // The pure pairing: p1 and p2 alone waiting while others play wait; nobody else playing, they meet.
  std::vector<ArenaPlayer> two(2);
  two[0].avoid = {1};
  CHECK(pair_arena(two, true).empty());
  CHECK(pair_arena(two, false).size() == 1);
}

TEST_CASE("tournament: an arena player who forfeits is paused until back") {
  Tournament t = with_players(spec_of(Format::arena), 4);
  REQUIRE_FALSE(t.start(kT0));
  const Step step = t.advance(kT0);
  REQUIRE(step.paired.size() == 2);
  const Game g = step.paired[0];
  REQUIRE(t.record_forfeit(g.id, {true, false}, kT0 + kMinute).changed);
  CHECK(t.entrant(g.seats[1])->absent);
  CHECK(t.advance(kT0 + kMinute).paired.empty());  // the winner waits: the other game still runs
  REQUIRE_FALSE(t.set_absent(g.seats[1], false, kT0 + 2 * kMinute));
  // Back, but its only waiting partner is its last opponent while another game runs: both wait for it.
  CHECK(t.advance(kT0 + 2 * kMinute).paired.empty());
  REQUIRE(t.record_result(step.paired[1].id, Result::draw, kT0 + 3 * kMinute).changed);
  const Step next = t.advance(kT0 + 3 * kMinute);
  REQUIRE(next.paired.size() == 2);
  for (const Game& n : next.paired)
    CHECK(std::set<std::string>{n.seats[0], n.seats[1]} != std::set<std::string>{g.seats[0], g.seats[1]});
}

TEST_CASE("tournament: the saved form round-trips exactly, and a restored tournament pairs the same round") {
  Spec s = spec_of(Format::swiss);
  s.rounds = 5;
  s.start_ms = kT0;
  s.options = "king=armed";
  s.rated = true;
  Tournament t = with_players(s, 9);
  t.advance(kT0);
  finish_games(t, kT0 + kMinute, [](const Game& g) { return g.board % 2 ? Result::first_wins : Result::draw; });
  REQUIRE_FALSE(t.set_absent("p4", true, kT0 + kMinute));
  t.advance(kT0 + kMinute);
  REQUIRE_FALSE(t.attach_room(t.games().back().id, "r-77"));
  REQUIRE(t.record_forfeit(t.games().back().id, {false, true}, kT0 + 2 * kMinute).changed);
  REQUIRE_FALSE(t.join("late", "Late", 1234.5, kT0 + 2 * kMinute));
  REQUIRE_FALSE(t.withdraw("p9", kT0 + 2 * kMinute));

  const nlohmann::json saved = t.to_json();
  CHECK(saved["format_version"] == 1);
  std::string error;
  auto restored = Tournament::from_json(nlohmann::json::parse(saved.dump()), &error);
  REQUIRE(restored);
  CHECK(error.empty());
  CHECK(*restored == t);
  CHECK(restored->to_json() == saved);
  // The same next round, paired by each.
  finish_games(t, kT0 + 3 * kMinute);
  finish_games(*restored, kT0 + 3 * kMinute);
  const auto a = t.advance(kT0 + 3 * kMinute).paired;
  const auto b = restored->advance(kT0 + 3 * kMinute).paired;
  CHECK(a == b);
  CHECK_FALSE(a.empty());
  CHECK(restored->standings_text() == t.standings_text());

  CHECK_FALSE(Tournament::from_json(nlohmann::json{{"format_version", 2}}, &error));
  CHECK(error == "unknown format_version 2");
  CHECK_FALSE(Tournament::from_json(nlohmann::json::object(), &error));
  CHECK(error.find("bad saved tournament") == 0);
}

TEST_CASE("tournament: the saved form of an arena and of a round robin round-trips too") {
  for (Format f : {Format::arena, Format::round_robin}) {
    Tournament t = with_players(spec_of(f), 5);
    REQUIRE_FALSE(t.start(kT0));
    t.advance(kT0);
    finish_games(t, kT0 + kMinute, [](const Game&) { return Result::second_wins; });
    t.advance(kT0 + kMinute);
    auto restored = Tournament::from_json(t.to_json());
    REQUIRE(restored);
    CHECK(*restored == t);
  }
}

}  // namespace
}  // namespace cinq::tournament

namespace cinq::tournament {
namespace {

// Random lives of Swiss tournaments: joins (late ones too), withdrawals, absences, forfeits and results in
// random order, with the invariants checked after every step and the saved form round-tripped each round.
TEST_CASE("tournament: random Swiss lives keep their invariants and their saved form") {
  for (unsigned seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    Spec spec = spec_of(Format::swiss);
    spec.rounds = 2 + static_cast<int>(rng() % 6);
    Tournament t = with_players(spec, 2 + static_cast<int>(rng() % 14));
    REQUIRE_FALSE(t.start(kT0));
    std::map<std::string, int> withdrawn_after;  // player -> the last round paired when it withdrew
    std::int64_t now = kT0;
    int joined = 0;
    for (int step = 0; step < 400 && t.status() == Status::running; ++step) {
      now += kMinute;
      const int round_before = t.round();
      if (t.advance(now).finished) break;
      const unsigned roll = rng() % 20;
      const std::vector<Game> open = pending(t);
      const std::string someone = t.entrants()[rng() % t.entrants().size()].id;
      if (roll == 0) {
        (void)t.join("late" + std::to_string(++joined), "Late", 1000 + (rng() % 1000), now);
      } else if (roll == 1 && !withdrawn_after.count(someone)) {
        REQUIRE_FALSE(t.withdraw(someone, now));
        withdrawn_after[someone] = t.round();
      } else if (roll <= 3) {
        REQUIRE_FALSE(t.set_absent(someone, roll == 2, now));
      } else if (!open.empty()) {
        const Game& g = open[rng() % open.size()];
        if (roll == 4) {
          REQUIRE_FALSE(t.record_forfeit(g.id, {rng() % 2 == 0, false}, now).error);
        } else {
          const Result r = roll % 3 == 0 ? Result::draw : roll % 3 == 1 ? Result::first_wins : Result::second_wins;
          REQUIRE(t.record_result(g.id, r, now).changed);
          CHECK_FALSE(t.record_result(g.id, r, now).changed);  // once
        }
      }
      if (t.round() != round_before) {
        auto restored = Tournament::from_json(t.to_json());
        REQUIRE(restored);
        CHECK(*restored == t);
      }
    }
    CHECK(t.status() == Status::finished);
    // Each round: a player at most once (a game, a bye or an absence), never after withdrawing.
    std::map<int, std::map<std::string, int>> seen;
    for (const Game& g : t.games())
      for (const std::string& p : g.seats) {
        ++seen[g.round][p];
        if (withdrawn_after.count(p)) CHECK(g.round <= withdrawn_after[p]);
      }
    int byes = 0;
    for (const Rest& r : t.rests()) {
      ++seen[r.round][r.player];
      byes += r.kind == SitOut::bye;
    }
    for (const auto& round : seen)
      for (const auto& player : round.second) CHECK(player.second == 1);
    // The points: every game's and every bye's, no more.
    double total = 0, expected = byes;
    for (const Standing& s : t.standings()) total += s.points;
    for (const Game& g : t.games()) expected += points_for(g.result, 0) + points_for(g.result, 1);
    CHECK(total == expected);
  }
}

}  // namespace
}  // namespace cinq::tournament
