// Tablut notation (notation.md): `e2 a2`, the capture list `x a3 b4`, and the errors a player reads.
#include "tests/rules/tablut/helpers.h"

namespace cinq::tablut::test {
namespace {

// h3 c3 takes b3, c2 and c4.
constexpr std::string_view kThreeCaptures = R"(
  9   # . . . . . . K #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . A . + . . . .
  4   . . D . . . . . .
  3   A D . . . . . A .
  2   . . D . . . . . .
  1   # . A . . . . . #
)";

TEST_CASE("Tablut notation: a move is written from and to, then its captures by column then row") {
  auto s = board(kThreeCaptures, kA);
  CHECK(s->action_text(move("h3", "g3")) == "h3 g3");
  CHECK(s->action_text(move("h3", "c3")) == "h3 c3 x b3 c2 c4");
  CHECK(s->record_items(move("h3", "c3")) == std::vector<std::string>{"h3 c3 x b3 c2 c4"});
  // Every legal action's text reads back to it.
  for (Action a : s->legal_actions()) {
    auto item = s->read_item(s->action_text(a), {});
    REQUIRE(item.ok());
    CHECK(item->action == a);
    CHECK_FALSE(item->annotation);
  }
}

TEST_CASE("Tablut notation: a move is read with or without its capture list, in any order") {
  auto s = board(kThreeCaptures, kA);
  Action want = move("h3", "c3");
  for (const char* text :
       {"h3 c3", "h3 c3 x b3 c2 c4", "h3 c3 x c4 b3 c2", "h3 c3 x c2 c4 b3", "  h3   c3  x\tc4 b3 c2 "}) {
    CAPTURE(text);
    auto item = s->read_item(text, {});
    REQUIRE_MESSAGE(item.ok(), (item.ok() ? "" : item.error().message));
    CHECK(item->action == want);
  }
}

TEST_CASE("Tablut notation: a capture list that differs from the captures made is refused") {
  auto s = board(kThreeCaptures, kA);
  CHECK(refusal(*s, "h3 c3 x b3 c2") ==
        "'h3 c3 x b3 c2': the move captures b3 c2 c4 (write h3 c3 x b3 c2 c4)");
  CHECK(refusal(*s, "h3 c3 x b3 c2 c4 d4") ==
        "'h3 c3 x b3 c2 c4 d4': the move captures b3 c2 c4 (write h3 c3 x b3 c2 c4)");
  CHECK(refusal(*s, "h3 c3 x b3 b3 c2 c4") == "'h3 c3 x b3 b3 c2 c4': b3 is listed twice");
  CHECK(refusal(*s, "h3 c3 x") == "'h3 c3 x': a bare x; list the captured squares after it, or leave it out");
  CHECK(refusal(*s, "h3 g3 x g4") == "'h3 g3 x g4': the move captures nothing (write h3 g3)");
  CHECK(refusal(*s, "h3 g3 x") == "'h3 g3 x': a bare x; list the captured squares after it, or leave it out");
}

TEST_CASE("Tablut notation: malformed items are refused with the reason") {
  auto s = board(kThreeCaptures, kA);
  CHECK(refusal(*s, "h3") == "'h3' is not a move: write the from and to squares, as in e2 a2");
  CHECK(refusal(*s, "h3c3") == "'h3c3' is not a move: write the from and to squares, as in e2 a2");
  CHECK(refusal(*s, "") == "'' is not a move: write the from and to squares, as in e2 a2");
  CHECK(refusal(*s, "H3 C3") == "'H3 C3': 'H3' is not a square (a1 to i9, lower case)");
  CHECK(refusal(*s, "h3 j3") == "'h3 j3': 'j3' is not a square (a1 to i9, lower case)");
  CHECK(refusal(*s, "h3 h0") == "'h3 h0': 'h0' is not a square (a1 to i9, lower case)");
  CHECK(refusal(*s, "h3 c3 b3") ==
        "'h3 c3 b3': only a capture list may follow the move, as in e2 a2 x a3 b4");
  CHECK(refusal(*s, "h3 c3 x b3 c2 k4") == "'h3 c3 x b3 c2 k4': 'k4' is not a square (a1 to i9, lower case)");
  CHECK(refusal(*s, "h3 c3 x b3 x c2") == "'h3 c3 x b3 x c2': 'x' is not a square (a1 to i9, lower case)");
}

TEST_CASE("Tablut notation: an illegal move is refused with the rule it breaks") {
  auto s = board(kThreeCaptures, kA);
  CHECK(refusal(*s, "d5 d6") == "d5 d6: there is no piece on d5");
  CHECK(refusal(*s, "b3 b1") == "b3 b1: b3 holds a defender, and the attackers are to move");
  CHECK(refusal(*s, "h3 a3") == "h3 a3: the path is blocked at b3");
  CHECK(refusal(*s, "h3 b3") == "h3 b3: b3 is occupied");
  CHECK(refusal(*s, "h3 g4") == "h3 g4: a piece moves along its row or its column");
  CHECK(refusal(*s, "c1 b1") == "");
  CHECK(refusal(*s, "c1 a1") == "c1 a1: only the king may stop on a corner");
  auto d = board(kThreeCaptures, kD);
  CHECK(refusal(*d, "h9 i9") == "");
  CHECK(refusal(*d, "c5 c6") == "c5 c6: c5 holds an attacker, and the defenders are to move");
  CHECK(refusal(*d, "h9 c9") == "");
}

}  // namespace
}  // namespace cinq::tablut::test
