// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md, "Notation"; docs/notation.md): records, the
// strike annotation (written by the writer, optional for the reader, checked when present), and results.
#include <doctest/doctest.h>

#include "rules/notation.h"
#include "tests/rules/kopf/kopf_support.h"
#include "tests/support.h"

namespace cinq::kopf::test {

namespace {

std::string golden(std::string_view name) {
  return cinq::test::read_text(cinq::test::data_path("kopf/" + std::string(name)));
}

// `text` with its one occurrence of `from` replaced by `to`.
std::string edit(std::string text, std::string_view from, std::string_view to) {
  auto at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "'" << from << "' is in the record");
  REQUIRE_MESSAGE(text.find(from, at + 1) == std::string::npos, "'" << from << "' is in the record once");
  return text.replace(at, from.size(), to);
}

// "line N: message" for a rejected record, "ok" for an accepted one.
std::string verdict(std::string_view text) {
  auto r = Record::read(text);
  return r.ok() ? "ok" : r.error().text();
}

// Every `x ...` item removed: the record without strike annotations.
std::string without_annotations(std::string text) {
  for (std::size_t at; (at = text.find("/x ")) != std::string::npos;)
    text.erase(at + 1, text.find('/', at + 1) - at);
  return text;
}

}  // namespace

TEST_CASE("Kopf records: the sample record replays, every strike annotation in it checked") {
  auto r = Record::read(
      cinq::test::read_text(cinq::test::data_path("records/kopf-oder-knopf/sample-finished.txt")));
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().text()));
  CHECK(r->state().score() == "6-4");
  CHECK(r->result_text() == "draw agreement 6-4");
}

TEST_CASE("Kopf records: golden games read, end as their result line says, and write back unchanged") {
  struct Case {
    const char* file;
    const char* result;
  };
  for (Case c : {Case{"strike-win-red.txt", "R score 8-2"}, Case{"strike-win-blue.txt", "B score 2-8"},
                 Case{"penalty-win.txt", "B score 4-8"}, Case{"penalty-strike-win.txt", "B score 1-9"}}) {
    INFO(std::string(c.file));
    std::string text = golden(c.file);
    auto r = Record::read(text);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().text()));
    CHECK(r->result_text() == c.result);
    CHECK(r->state().outcome().reason == "score");
    CHECK(r->write() == text);
    // The annotations are optional: without them the game is the same, and the writer puts them back.
    auto bare = Record::read(without_annotations(text));
    REQUIRE_MESSAGE(bare.ok(), (bare.ok() ? "" : bare.error().text()));
    CHECK(bare->state().fingerprint() == r->state().fingerprint());
    CHECK(bare->write() == text);
  }
}

TEST_CASE("Kopf records: a turn is penalty, strike annotation, then move, the annotation is checked") {
  std::string text = golden("strike-win-red.txt");
  CHECK(verdict(text) == "ok");
  CHECK(verdict(edit(text, "R/x b8/b9 b10/", "R/b9 b10/")) == "ok");
  CHECK(verdict(edit(text, "R/x b8/b9 b10/", "R/x b8 c9/b9 b10/")) ==
        "line 3: x b8 c9: c9 is not struck (the strike takes b8)");
  CHECK(verdict(edit(text, "R/x b8/b9 b10/", "R/x/b9 b10/")) ==
        "line 3: x: a strike annotation names the struck squares (x c4 d7)");
  CHECK(verdict(edit(text, "R/x d2/b10 e7/", "R/x d2 d2/b10 e7/")) == "line 7: x d2 d2: d2 is written twice");
  CHECK(verdict(edit(text, "R/x d2/b10 e7/", "R/x d2/x d2/b10 e7/")) ==
        "line 7: x d2: the strike is written once per turn");
  CHECK(verdict(edit(text, "R/x d2/b10 e7/", "R/b10 e7/x d2/")) ==
        "line 7: R/x d2/: the turn is already over");
  CHECK(verdict(edit(text, "R/h9 h8/", "R/x h8/h9 h8/")) == "line 2: x h8: no button is struck here");
  // The penalty comes first; the strike annotation after it is the strike that follows the penalty.
  CHECK(verdict(edit(text, "B/- g2/x d9/j4 g1/", "B/x d9/- g2/j4 g1/")) ==
        "line 5: - g2: the penalty comes before the strike");
  CHECK(verdict(edit(text, "B/- g2/x d9/j4 g1/", "B/- g2/j4 g1/")) == "ok");
  CHECK(verdict(edit(text, "R/- i3/c2 f5/", "R/- i3/")) == "line 5: R/- i3/: the turn is not complete");
  CHECK(verdict(edit(text, "3   R/e2 h2/", "3   R/- b6/e2 h2/")) ==
        "line 4: - b6: the Blue button on b6 is not in a group of three or more");
  CHECK(verdict(edit(text, "3   R/e2 h2/", "3   R/pass/")) ==
        "line 4: pass: Red has a legal move (c2 c3); a player passes only when no move exists");
  CHECK(verdict(edit(text, "3   R/e2 h2/", "3   R/")) == "line 4: R/: this turn cannot be empty");
  CHECK(verdict(edit(text, "3   R/e2 h2/", "3   R/e2 h3/")) ==
        "line 4: e2 h3: h3 is not on a line from e2 (8 directions: straight or diagonal)");
}

TEST_CASE("Kopf records: the game ends at the strike that reaches the target, before any move") {
  std::string text = golden("strike-win-red.txt");
  CHECK(verdict(edit(text, "11  R/x f3/", "11  R/")) == "ok");
  CHECK(verdict(edit(text, "11  R/x f3/", "11  R/x f3/e7 e9/")) ==
        "line 12: e7 e9: the strike reaches the target and ends the game, so no move follows");
  CHECK(verdict(edit(text, "11  R/x f3/", "11  R/x f3/  B/a2 a4/")) ==
        "line 12: the game is over (R score 8-2): no turn may follow");
  std::string penalty = golden("penalty-win.txt");
  CHECK(verdict(edit(penalty, "B/- j3/", "B/- j3/e4 g6/")) == "line 11: B/e4 g6/: the turn is already over");
  std::string both = golden("penalty-strike-win.txt");
  CHECK(verdict(edit(both, "B/- g4/x h5 i4 i10/", "B/- g4/")) == "ok");
  CHECK(verdict(edit(both, "B/- g4/x h5 i4 i10/", "B/- g4/x i10 h5 i4/")) == "ok");
  CHECK(verdict(edit(both, "B/- g4/x h5 i4 i10/", "B/- g4/x h5 i4/")).starts_with("line 10: "));
}

TEST_CASE("Kopf records: the result line is checked against the board, score Red's first") {
  std::string text = golden("strike-win-red.txt");
  CHECK(verdict(edit(text, "#= R score 8-2", "#= R score 8-3")) == "line 13: the score is 8-2, not 8-3");
  CHECK(verdict(edit(text, "#= R score 8-2", "#= draw blocked 8-2")) ==
        "line 13: the moves end the game: the result is 'R score 8-2'");
  CHECK(verdict(edit(text, "#= R score 8-2", "#= R score")) == "ok");
  CHECK(verdict(edit(text, "#= R score 8-2\n", "")) == "ok");
}

TEST_CASE("Kopf records: cinq replay accepts a game and rejects a bad one at its line") {
  auto good = cinq::test::run_cinq("replay " + cinq::test::data_path("kopf/penalty-strike-win.txt"));
  CHECK(good.exit_code == 0);
  CHECK(good.out.find("result: B score 1-9") != std::string::npos);
  auto bad = cinq::test::run_cinq("replay -", edit(golden("strike-win-red.txt"), "R/x b8/", "R/x b7/"));
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.find("line 3: x b7: b7 is not struck (the strike takes b8)") != std::string::npos);
}

TEST_CASE("Kopf records: the writer writes the strike annotation where the reader expects it") {
  // e5-f5 strikes d5 (shielding a5); the penalty on d5 opens the line to a5.
  auto s = position(R"(
10   . . . . . . . . . .
 9   . . . . . . . . . .
 8   . . . . . . . . . .
 7   . . . B . . . . . .
 6   . . . B . . . . . .
 5   B . . B R R . . . B
 4   . . . . . . . . . .
 3   . . . . . . . . . .
 2   . . . . . . . . . .
 1   . . . . . . . . . .
)");
  CHECK(strike_now(*s) == "d5 j5");
  CHECK(items_for(*s, "e5 e7") == "x d5 j5/e5 e7");
  CHECK(items_for(*s, "- d5") == "- d5/x a5 j5");
  // Read as the record reader does: the first item of a turn, or right after the penalty.
  CHECK(read_error(*s, "x j5 d5", {0, false}) == "");
  CHECK(read_error(*s, "x d5", {0, false}) == "x d5: j5 is struck too (the strike takes d5 j5)");
  CHECK(read_error(*s, "x d5 j5 a5", {0, false}) == "x d5 j5 a5: a5 is not struck (the strike takes d5 j5)");
  CHECK(read_error(*s, "x d5 z5", {0, false}) == "x d5 z5: 'z5' is not a square (a1 to j10, lower case)");
  CHECK(read_error(*s, "- d5", {1, true}) == "- d5: the penalty comes before the strike");
  CHECK(play(*s, "- d5") == "");
  CHECK(read_error(*s, "x a5 j5", {1, false}) == "");
  CHECK(read_error(*s, "x a5 j5", {1, true}) == "x a5 j5: the strike is written once per turn");
  CHECK(read_error(*s, "x d5 j5", {1, false}) == "x d5 j5: d5 is not struck (the strike takes a5 j5)");
  CHECK(read_error(*s, "x a5 j5", {2, false}) ==
        "x a5 j5: the strike annotation comes first in the turn, or right after the penalty");
  CHECK(items_for(*s, "e5 e7") == "e5 e7");
}

}  // namespace cinq::kopf::test
