// The analysis of a record (analysis/analysis.h): known blunders marked, the best turn given, the marks'
// thresholds, the stored form, and every game analysed. Shallow depths only: these run in the whole suite.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>

#include "analysis/analysis.h"
#include "rules/registry.h"
#include "tests/support.h"

namespace cinq::analysis {
namespace {

Record read_record(std::string_view text) {
  auto r = Record::read(text);
  REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
  return std::move(*r);
}

Analysis analysed(const Record& record, int depth) {
  Settings s;
  s.depth = depth;
  auto a = analyze(record, s);
  REQUIRE_MESSAGE(a, (a ? "" : a.error().message));
  return std::move(*a);
}

TEST_CASE("analysis: the marks follow the drop of win chance") {
  CHECK(mark_for(0.0) == Mark::none);
  CHECK(mark_for(0.099) == Mark::none);
  CHECK(mark_for(0.10) == Mark::mistake);
  CHECK(mark_for(0.199) == Mark::mistake);
  CHECK(mark_for(0.20) == Mark::blunder);
  CHECK(mark_for(1.0) == Mark::blunder);
  CHECK(std::string(mark_name(Mark::blunder)) == "blunder");
}

TEST_CASE("analysis: settings are checked by field and named by key") {
  Settings s;
  CHECK(!check(s));
  s.depth = 0;
  REQUIRE(check(s));
  CHECK(check(s)->starts_with("depth:"));
  s.depth = 6;
  CHECK(check(s)->starts_with("depth:"));
  s.think_ms = 20;
  CHECK(check(s)->starts_with("think_ms:"));
  s.think_ms = 500;
  CHECK(!check(s));
  CHECK(s.key() == "think=500");
  REQUIRE(parse_key("think=500"));
  CHECK(parse_key("think=500")->think_ms == 500);
  Settings d;
  d.depth = 2;
  CHECK(d.key() == "depth=2");
  CHECK(parse_key("depth=2") == d);
  CHECK(!parse_key("depth=9"));
  CHECK(!parse_key("depth=2x"));
  CHECK(!parse_key("think=10"));
  CHECK(!parse_key(""));
  CHECK(!analyze(read_record("#! TABLUT\n1   A/e8 i8/\n"), Settings{0, 0}));
}

// Tablut, tests/data: after the Defenders' king went to g1, the Attackers had to shut h1; `a4 a2` left the
// corner i1 open and the king escaped.
TEST_CASE("analysis: a Tablut blunder that let the king escape") {
  const Record record = read_record(test::read_text(test::data_path("records/tablut/sample-escape.txt")));
  const Analysis a = analysed(record, 1);
  REQUIRE(a.turns.size() == 42);
  CHECK(a.game == "tablut");
  const TurnEval& blunder = a.turns[40];
  CHECK(blunder.number == 21);
  CHECK(blunder.side == 'A');
  CHECK(blunder.played == "A/a4 a2/");
  CHECK(blunder.after == doctest::Approx(0.0));
  CHECK(blunder.best_after > blunder.after + kBlunder);
  CHECK(blunder.best == "A/h6 h1/");  // the attacker that shuts the corner's row
  CHECK(!blunder.best.empty());
  CHECK(blunder.mark == Mark::blunder);
  // The escape itself is the best turn: no mark, no other turn, and the mover's chance is whole.
  const TurnEval& escape = a.turns[41];
  CHECK(escape.played == "D/g1 i1/");
  CHECK(escape.best.empty());
  CHECK(escape.mark == Mark::none);
  CHECK(escape.after == 1.0);
  CHECK(escape.before == doctest::Approx(1.0));
  // The same depth gives the same analysis, unless a loaded machine made a search reach its think-time bound
  // before its playout cap (analysis.h): two of three agree.
  const Analysis b = analysed(record, 1);
  CHECK((b == a || analysed(record, 1) == b || analysed(record, 1) == a));
  // The text has a line per turn.
  const std::string text = text_lines(a);
  CHECK(std::count(text.begin(), text.end(), '\n') == 42);
  CHECK(text.find("21 A A/a4 a2/ ") != std::string::npos);
  CHECK(text.find(" blunder\n") != std::string::npos);
  CHECK(text.find("21 D D/g1 i1/ 1.00 -\n") != std::string::npos);
}

// Written by hand: the game above, but the Defenders' king stops next to the open corner instead.
TEST_CASE("analysis: a missed escape is a blunder and the escape is the best turn") {
  const Record record = read_record(
      "#! TABLUT\n"
      "1   A/e8 i8/    D/e3 a3/\n"
      "2   A/i6 g6/    D/d5 d7/\n"
      "3   A/d1 d5 x c5/    D/e7 i7 x i8/\n"
      "4   A/i4 g4 x g5/    D/a3 f3/\n"
      "5   A/g4 i4/    D/f5 f8/\n"
      "6   A/g6 g3/    D/e6 i6/\n"
      "7   A/b5 b6/    D/i7 e7/\n"
      "8   A/d5 c5/    D/d7 b7/\n"
      "9   A/a4 b4/    D/f8 d8/\n"
      "10  A/b4 a4/    D/e4 e3/\n"
      "11  A/e2 b2/    D/d8 i8/\n"
      "12  A/e1 b1/    D/i6 d6/\n"
      "13  A/b6 b3/    D/d6 e6/\n"
      "14  A/d9 d4/    D/i8 h8/\n"
      "15  A/c5 c7/    D/e7 d7 x c7/\n"
      "16  A/g3 g6/    D/b7 c7/\n"
      "17  A/h5 h6/    D/e5 g5/\n"
      "18  A/a5 d5/    D/e6 d6/\n"
      "19  A/a6 a7/    D/c7 c5 x d5/\n"
      "20  A/b1 c1/    D/g5 g1/\n"
      "21  A/a4 a2/    D/g1 h1/\n");
  const Analysis a = analysed(record, 1);
  REQUIRE(a.turns.size() == 42);
  const TurnEval& missed = a.turns[41];
  CHECK(missed.played == "D/g1 h1/");
  CHECK(missed.best == "D/g1 i1/");
  CHECK(missed.before == doctest::Approx(1.0));
  CHECK(missed.best_after == 1.0);  // the escape ends the game
  // Whether the king at h1 still escapes depends on the search; where it says not, the turn is marked.
  if (missed.after <= 1 - kMistake) CHECK(missed.mark != Mark::none);
  if (missed.after > 1 - kMistake) CHECK(missed.mark == Mark::none);
}

TEST_CASE("analysis: the stored form reads back, and names what is wrong") {
  const Record record = read_record("#! TABLUT\n1   A/e8 i8/    D/e3 a3/\n2   A/i6 g6/\n");
  const Analysis a = analysed(record, 1);
  REQUIRE(a.turns.size() == 3);
  const nlohmann::json j = to_json(a);
  CHECK(j["settings"] == "depth=1");
  CHECK(j["thresholds"]["blunder"] == kBlunder);
  auto back = from_json(j);
  REQUIRE(back);
  CHECK(back->turns.size() == 3);
  CHECK(back->turns[1].played == "D/e3 a3/");
  CHECK(to_json(*back) == j);
  nlohmann::json bad = j;
  bad["turns"][1].erase("eval");
  REQUIRE(!from_json(bad));
  CHECK(from_json(bad).error().message.starts_with("turns[1]"));
  bad = j;
  bad["settings"] = "depth=0";
  CHECK(from_json(bad).error().message.starts_with("settings"));
}

// Every game: a few random turns analysed at the shallowest depth, each turn with a chance in [0, 1] and its
// best turn, when given, a legal turn of that position (it is played on the record to be written).
TEST_CASE("analysis: every game") {
  std::mt19937_64 rng(7);
  for (const Game* game : games()) {
    CAPTURE(game->name());
    auto opts = Options::parse_text(game->option_specs(), game->bounded_options());
    REQUIRE(opts);
    Record record = Record::start(*game, *opts);
    std::vector<Action> legal;
    while (record.turn_count() < 4 && !record.finished()) {
      legal.clear();
      record.state().legal_actions(legal);
      REQUIRE(record.play(legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)]));
    }
    while (!record.finished() && record.state().mid_turn()) {
      legal.clear();
      record.state().legal_actions(legal);
      REQUIRE(record.play(legal.front()));
    }
    const Analysis a = analysed(record, 1);
    CHECK(a.game == game->name());
    CHECK(a.turns.size() >= 3);
    for (const TurnEval& t : a.turns) {
      CHECK(t.before >= 0);
      CHECK(t.before <= 1);
      CHECK(t.after >= 0);
      CHECK(t.after <= 1);
      CHECK(t.played.size() > 2);
      CHECK((t.side == game->side_letter(0) || t.side == game->side_letter(1)));
    }
  }
}

}  // namespace
}  // namespace cinq::analysis
