// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md), "The turn", step 2: the automatic strike.
// Boards show the holes of each square to the right of its row; the side to move is Red unless said.
#include <doctest/doctest.h>

#include "tests/rules/kopf/kopf_support.h"

namespace cinq::kopf::test {

TEST_CASE("Kopf strike: a pair strikes along its line in both directions, before the move") {
  // e5 and f5 have 2 holes each: range 4 from each end, reaching a5 and j5 exactly.
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   B . . . R R . . . B   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(strike_now(*s) == "a5 j5");
  // The strike comes first: even moving a button of the pair away, both buttons are removed.
  apply_text(*s, "e5 e7");
  CHECK(removed(*s, "R") == 2);
  CHECK(s->score() == "2-0");
  CHECK(s->to_move() == 1);
  CHECK(s->ascii().find(" 5   . . . . . R . . . .") != std::string::npos);
}

TEST_CASE("Kopf strike: vertical and diagonal pairs strike along their own line, both ways") {
  SUBCASE("vertical: e5 and e6, range 4") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . B . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . R . . . . .   2 3 1 4 2 2 4 1 3 2
 5   B . . . R . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . B . . . . .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(strike_now(*s) == "e1 e10");
  }
  SUBCASE("diagonal: d4 (1 hole) and e5 (2 holes), range 3") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . B .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . B . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . R . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . R . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   B . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(strike_now(*s) == "a1 h8");  // i9 is 4 squares from e5: out of range
  }
  SUBCASE("anti-diagonal: d6 (4 holes) and e5 (2 holes), range 6") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   B . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . R . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . R B . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . B .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(strike_now(*s) == "a9 i1");  // f5 is beside the pair, not on its line
  }
}

TEST_CASE("Kopf strike: the player's own button blocks the line, the other direction still strikes") {
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . B R . R R . . . B   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(strike_now(*s) == "j5");
  auto open = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . B . . R R . . . B   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(strike_now(*open) == "b5 j5");
}

TEST_CASE("Kopf strike: only the first button met is struck, an opposing button shields those behind it") {
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . B . B R R . B B .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(strike_now(*s) == "d5 h5");
}

TEST_CASE("Kopf strike: the range is the sum of the holes, counted from each end of the pair") {
  // c3 has 2 holes, d3 has 3: range 5. From d3, i3 is 5 squares away; j3 is 6.
  SUBCASE("range exactly reached") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . B . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . R R . . . . B .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(strike_now(*s) == "i3");
  }
  SUBCASE("one square short") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . B . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . R R . . . . . B   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(strike_now(*s) == "");
  }
  SUBCASE("the other way, from c3: a3 is 2 squares away") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . B . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   B . R R . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(strike_now(*s) == "a3");
  }
}

TEST_CASE("Kopf strike: a group of three or more never attacks") {
  SUBCASE("a line of three") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   B . . . R R R . . B   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(strike_now(*s) == "");
  }
  SUBCASE("a pair touched by a third button diagonally is no pair") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . R . . .   2 3 1 4 2 2 4 1 3 2
 5   B . . . R R . . . B   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(strike_now(*s) == "");
    apply_text(*s, "g6 g7");
    CHECK(removed(*s, "R") == 0);
  }
  SUBCASE("the same pair alone strikes") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   B . . . R R . . . B   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(strike_now(*s) == "a5 j5");
  }
}

TEST_CASE("Kopf strike: all pairs strike at once, a button struck twice is removed and counted once") {
  // e5-f5 (range 4) and a1-a2 (range 5) both reach a5.
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   B . . . R R . . . B   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   R . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   R . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(strike_now(*s) == "a5 j5");
  apply_text(*s, "e5 e7");
  CHECK(s->score() == "2-0");
}

TEST_CASE("Kopf strike: buttons are struck all at once, so a button shielded by a struck one stays") {
  // e5-f5 meets c5 first (a5 behind it is in range); c1-c2 (range 5) strikes c5 too. a5 stays.
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   B . B . R R . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . R . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . R . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(strike_now(*s) == "c5");
}

TEST_CASE("Kopf strike: only the side to move strikes, at the start of its turn, never right after moving") {
  // e7 has 4 holes: e7 e6 makes the pair e5-e6 (range 4), threatening e10.
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . B . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . R . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . R . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   B . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(strike_now(*s) == "");
  apply_text(*s, "e7 e6");
  CHECK(removed(*s, "R") == 0);
  CHECK(s->to_move() == 1);
  CHECK(strike_now(*s) == "");  // Blue has no pair; Red's pair does not strike in Blue's turn
  apply_text(*s, "a1 a3");
  CHECK(s->to_move() == 0);
  CHECK(strike_now(*s) == "e10");
  apply_text(*s, "e6 e8");
  CHECK(removed(*s, "R") == 1);
}

TEST_CASE("Kopf strike: the opponent's pairs do not strike in the player's turn") {
  // Blue's pair b1 (3 holes) - c1 (1 hole) reaches g1, 4 squares from c1.
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . R . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . B B . . . R . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(strike_now(*s) == "");
  apply_text(*s, "e9 e6");
  CHECK(s->to_move() == 1);
  CHECK(strike_now(*s) == "g1");
  apply_text(*s, "b1 b4");
  CHECK(s->score() == "0-1");
}

TEST_CASE("Kopf strike: the move is chosen on the board after the strike: a struck button's square is free") {
  // j2 has 3 holes: j2 j5 lands where the struck j5 stood.
  auto s = position(R"(
     a b c d e f g h i j
10   B . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . R R . . . B   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . R   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(legal_starting(*s, "j2 ") == "j2 j5, j2 g2, j2 g5");
  CHECK(items_for(*s, "j2 j5") == "x j5/j2 j5");
  apply_text(*s, "j2 j5");
  CHECK(s->ascii().find(" 5   . . . . R R . . . R") != std::string::npos);
  auto unthreatened = position(R"(
     a b c d e f g h i j
10   B . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . R . . . . B   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . R   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(legal_starting(*unthreatened, "j2 ") == "j2 g2, j2 g5");
}

TEST_CASE("Kopf view: a client sees the board, the holes, the scores and what the strike and penalty take") {
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . B . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . B . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   B . . B R R . . . B   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)",
                    {.removed = {2, 1}});
  Value v = s->view();
  CHECK(v.find("board")->as_array()[4].as_string() == "B..BRR...B");  // row 5
  CHECK(v.find("holes")->as_array()[0].as_array()[3].as_int() == 4);  // d1
  CHECK(v.find("to_move")->as_string() == "R");
  CHECK(v.find("target")->as_int() == 10);
  CHECK(removed(*s, "R") == 2);
  CHECK(removed(*s, "B") == 1);
  CHECK(view_list(*s, "strike") == "d5 j5");
  CHECK(view_list(*s, "penalty") == "d5 d6 d7");
  CHECK_FALSE(v.find("mid_turn")->as_bool());
  CHECK_FALSE(v.find("over")->as_bool());
}

}  // namespace cinq::kopf::test
