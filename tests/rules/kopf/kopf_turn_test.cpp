// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md), "The turn": the penalty, the move, passing, and
// "End of the game". Boards show the holes of each square to the right of its row; Red moves unless said.
#include <doctest/doctest.h>

#include "tests/rules/kopf/kopf_support.h"

namespace cinq::kopf::test {

TEST_CASE("Kopf penalty: any button of an opposing group of three or more may be removed, and only those") {
  // Blue: a line b2 c2 d2, a diagonal chain a5 b6 c7, a pair g7 h7, a single j10. Red's own group e9 f9 g9.
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . B   2 3 1 4 2 2 4 1 3 2
 9   . . . . R R R . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . B . . . B B . .   4 2 3 1 4 4 1 3 2 4
 6   . B . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   B . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . B B B . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(legal_starting(*s, "- ") == "- b2, - c2, - d2, - a5, - b6, - c7");
  CHECK(view_list(*s, "penalty") == "b2 c2 d2 a5 b6 c7");
  CHECK(read_error(*s, "- g7") == "- g7: the Blue button on g7 is not in a group of three or more");
  CHECK(read_error(*s, "- j10") == "- j10: the Blue button on j10 is not in a group of three or more");
  CHECK(read_error(*s, "- e9") == "- e9: e9 is Red's own button");
  CHECK(read_error(*s, "- e5") == "- e5: e5 is empty");
  CHECK(read_error(*s, "- k5") == "- k5: 'k5' is not a square (a1 to j10, lower case)");
  CHECK(read_error(*s, "- c2 d2") == "- c2 d2: a penalty names one square (- e5)");
  // The penalty is optional: the moves are there too.
  CHECK(legal_starting(*s, "e9 ") == "e9 h9, e9 h6, e9 e6, e9 b9");  // 3 holes; b6 is taken
  // Red's penalty removes a button: it counts for Red.
  CHECK(play(*s, "- c2") == "");
  CHECK(s->score() == "1-0");
}

TEST_CASE("Kopf penalty: it comes first, and the strike is computed after it") {
  // e5-f5 (range 4) meets d5 first, which shields a5. d5 is in Blue's group d5 d6 d7 d8.
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . B . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . B . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . B . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   B . . B R R . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(strike_now(*s) == "d5");
  CHECK(items_for(*s, "e5 e7") == "x d5/e5 e7");
  // Removing d5 by penalty opens the line: the strike that follows takes a5.
  CHECK(items_for(*s, "- d5") == "- d5/x a5");
  CHECK(items_for(*s, "- d6") == "- d6/x d5");
  apply_text(*s, "- d5");
  CHECK(s->mid_turn());
  CHECK(s->to_move() == 0);
  CHECK(s->score() == "2-0");
  CHECK(view_list(*s, "struck_after_penalty") == "a5");
  // The move is left, and only the move: no second penalty (d6 d7 d8 is still a group), no second strike.
  CHECK(legal_starting(*s, "- ") == "");
  CHECK(items_for(*s, "e5 e7") == "e5 e7");
  CHECK(read_error(*s, "- d6", {1, false}) == "- d6: only one penalty per turn");
  apply_text(*s, "e5 e7");
  CHECK(s->score() == "2-0");
  CHECK(s->to_move() == 1);
  CHECK_FALSE(s->mid_turn());
}

TEST_CASE("Kopf penalty: a move that forms a group of three is legal, and the opponent may punish it") {
  // g7 (1 hole) to g6 touches f5: e5 f5 g6 is a group of three.
  auto s = position(R"(
     a b c d e f g h i j
10   B . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . R . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . R R . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . B   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(legal_starting(*s, "g7 ").find("g7 g6") != std::string::npos);
  apply_text(*s, "g7 g6");
  CHECK(legal_starting(*s, "- ") == "- e5, - f5, - g6");
  apply_text(*s, "- g6");
  CHECK(s->score() == "0-1");
}

TEST_CASE("Kopf move: exactly as many squares as holes, 1 to 4 from a 4-hole square, in 8 directions") {
  SUBCASE("1 hole (c5): one square") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . B   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . R . . . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(legal_starting(*s, "c5 ") == "c5 c6, c5 d6, c5 d5, c5 d4, c5 c4, c5 b4, c5 b5, c5 b6");
  }
  SUBCASE("2 holes (e5): two squares") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . B   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . R . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(legal_starting(*s, "e5 ") == "e5 e7, e5 g7, e5 g5, e5 g3, e5 e3, e5 c3, e5 c5, e5 c7");
  }
  SUBCASE("3 holes (b5): three squares, not off the board") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . B   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . R . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(legal_starting(*s, "b5 ") == "b5 b8, b5 e8, b5 e5, b5 e2, b5 b2");
  }
  SUBCASE("4 holes (d5): one to four squares") {
    auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . B   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . R . . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
    CHECK(legal_starting(*s, "d5 ") ==
          "d5 d6, d5 d7, d5 d8, d5 d9, d5 e6, d5 f7, d5 g8, d5 h9, d5 e5, d5 f5, d5 g5, d5 h5, "
          "d5 e4, d5 f3, d5 g2, d5 h1, d5 d4, d5 d3, d5 d2, d5 d1, d5 c4, d5 b3, d5 a2, d5 c5, d5 b5, d5 a5, "
          "d5 c6, d5 b7, d5 a8");
    CHECK(read_error(*s, "d5 d10") == "d5 d10: d5 stands on 4 holes: it moves 1 to 4 squares, not 5");
  }
}

TEST_CASE("Kopf move: it jumps over any buttons and lands on an empty square") {
  // e5 (2 holes) jumps Blue's e6 and Red's f6; g5 (own) and c7 (Blue) are taken.
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . B . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . B R . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . R . R . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)");
  CHECK(strike_now(*s) == "");
  CHECK(legal_starting(*s, "e5 ") == "e5 e7, e5 g7, e5 g3, e5 e3, e5 c3, e5 c5");
  CHECK(read_error(*s, "e5 g5") == "e5 g5: g5 is taken by a Red button");
  CHECK(read_error(*s, "e5 c7") == "e5 c7: c7 is taken by a Blue button");
  CHECK(read_error(*s, "e5 e6") == "e5 e6: e5 stands on 2 holes: it moves exactly 2 squares, not 1");
  CHECK(read_error(*s, "e5 f7") == "e5 f7: f7 is not on a line from e5 (8 directions: straight or diagonal)");
  CHECK(read_error(*s, "e6 e8") == "e6 e8: e6 is a Blue button, not Red's");
  CHECK(read_error(*s, "a1 a3") == "a1 a3: a1 is empty");
  CHECK(read_error(*s, "e5 e5") == "e5 e5: a move must leave its square");
  CHECK(read_error(*s, "e5 e11") == "e5 e11: 'e11' is not a square (a1 to j10, lower case)");
  CHECK(read_error(*s, "E5 E7") ==
        "'E5 E7' is not a Kopf oder Knopf action (a penalty - e5, a strike x c4 d7, a move c3 c5, or pass)");
  CHECK(read_error(*s, "e5-e7") ==
        "'e5-e7' is not a Kopf oder Knopf action (a penalty - e5, a strike x c4 d7, a move c3 c5, or pass)");
  CHECK(play(*s, "e5 e7") == "");
}

// A layout with 3 holes everywhere: buttons on the lattice a/d/g/j x 1/4/7/10 can only move onto the
// lattice, so a full lattice blocks both players.
std::shared_ptr<const Holes> threes() {
  std::string diagram;
  for (int r = 10; r >= 1; --r) diagram += std::to_string(r) + "  3 3 3 3 3 3 3 3 3 3\n";
  auto holes = parse_layout(diagram);
  REQUIRE(holes.ok());
  return std::make_shared<const Holes>(*holes);
}

TEST_CASE("Kopf pass: a player with no move passes, and only then") {
  // Red's eight lattice buttons cannot move; Blue's b2 can. 14 - 9 Blue = 5 removed by Red, 14 - 8 = 6 by
  // Blue.
  auto s = position(R"(
     a b c d e f g h i j
10   B . . R . . B . . R
 9   . . . . . . . . . .
 8   . . . . . . . . . .
 7   R . . B . . R . . B
 6   . . . . . . . . . .
 5   . . . . . . . . . .
 4   B . . R . . B . . R
 3   . . . . . . . . . .
 2   . B . . . . . . . .
 1   R . . B . . R . . B
)",
                    {.removed = {5, 6}}, threes());
  CHECK(legal(*s) == "pass");
  CHECK(items_for(*s, "pass") == "pass");
  CHECK(play(*s, "pass") == "");
  CHECK(s->to_move() == 1);
  CHECK_FALSE(s->outcome().over());
  CHECK(read_error(*s, "pass") ==
        "pass: Blue has a legal move (b2 b5); a player passes only when no move exists");
  apply_text(*s, "b2 e5");
  CHECK(legal(*s) == "pass");
  apply_text(*s, "pass");  // Red passed, Blue moved, Red passed: not two passes in a row
  CHECK_FALSE(s->outcome().over());
  CHECK(s->to_move() == 1);
}

TEST_CASE("Kopf pass: the moves are counted after the penalty: a penalty may open a move, or leave a pass") {
  // Red's nine lattice buttons are stuck; Blue's a1 b1 b2 is a group of three.
  auto s = position(R"(
     a b c d e f g h i j
10   R . . B . . R . . B
 9   . . . . . . . . . .
 8   . . . . . . . . . .
 7   B . . R . . R . . B
 6   . . . . . . . . . .
 5   . . . . . . . . . .
 4   R . . R . . B . . R
 3   . . . . . . . . . .
 2   . B . . . . . . . .
 1   B B . R . . B . . R
)",
                    {.removed = {5, 5}}, threes());
  CHECK(legal(*s) == "- a1, - b1, - b2, pass");
  auto opened = s->clone();
  apply_text(*opened, "- a1");
  CHECK(legal(*opened) == "d1 a1, a4 a1, d4 a1");
  apply_text(*s, "- b1");
  CHECK(s->mid_turn());
  CHECK(legal(*s) == "pass");
  CHECK(items_for(*s, "pass") == "pass");
  apply_text(*s, "pass");
  CHECK(s->to_move() == 1);
  CHECK(s->score() == "6-5");
  CHECK(s->ascii().find("Blue to move, Red passed") != std::string::npos);
}

TEST_CASE("Kopf pass: two passes in a row, one by each player, end the game: more buttons removed wins") {
  const char* lattice = R"(
     a b c d e f g h i j
10   B . . R . . B . . R
 9   . . . . . . . . . .
 8   . . . . . . . . . .
 7   R . . B . . R . . B
 6   . . . . . . . . . .
 5   . . . . . . . . . .
 4   B . . R . . B . . R
 3   . . . . . . . . . .
 2   . . . . . . . . . .
 1   R . . B . . R . . B
)";
  SUBCASE("equal: a draw") {
    auto s = position(lattice, {.removed = {6, 6}}, threes());
    apply_text(*s, "pass");
    CHECK_FALSE(s->outcome().over());
    CHECK(legal(*s) == "pass");
    apply_text(*s, "pass");
    CHECK(s->outcome() == Outcome::draw("blocked", "6-6"));
    CHECK(s->legal_actions().empty());
  }
  SUBCASE("Red removed more: Red wins") {
    auto s = position(R"(
     a b c d e f g h i j
10   B . . R . . B . . R
 9   . . . . . . . . . .
 8   . . . . . . . . . .
 7   R . . B . . R . . B
 6   . . . . . . . . . .
 5   . . . . . . . . . .
 4   B . . R . . B . . R
 3   . . . . . . . . . .
 2   . . . . . . . . . .
 1   R . . R . . R . . B
)",
                      {.removed = {7, 5}}, threes());
    apply_text(*s, "pass");
    apply_text(*s, "pass");
    CHECK(s->outcome() == Outcome::win(0, "blocked", "7-5"));
  }
  SUBCASE("Blue removed more: Blue wins, the score still Red's first") {
    auto s = position(R"(
     a b c d e f g h i j
10   B . . R . . B . . B
 9   . . . . . . . . . .
 8   . . . . . . . . . .
 7   R . . B . . R . . B
 6   . . . . . . . . . .
 5   . . . . . . . . . .
 4   B . . R . . B . . R
 3   . . . . . . . . . .
 2   . . . . . . . . . .
 1   R . . B . . R . . B
)",
                      {.to_move = 1, .removed = {5, 7}}, threes());
    apply_text(*s, "pass");
    apply_text(*s, "pass");
    CHECK(s->outcome() == Outcome::win(1, "blocked", "5-7"));
  }
  SUBCASE("after the opponent's pass, a pass ends it at once") {
    auto s = position(lattice, {.removed = {6, 6}, .opponent_passed = true}, threes());
    apply_text(*s, "pass");
    CHECK(s->outcome().over());
  }
}

TEST_CASE("Kopf end: the strike that reaches the target wins at once, before moving") {
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . B   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   B . . . R R . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)",
                    {.removed = {9, 0}});
  CHECK(strike_now(*s) == "a5");
  CHECK(legal(*s) == "end");
  CHECK(items_for(*s, "end") == "x a5");
  CHECK(read_error(*s, "e5 e7") ==
        "e5 e7: the strike reaches the target and ends the game, so no move follows");
  CHECK(read_error(*s, "pass") ==
        "pass: the strike reaches the target and ends the game, so no move follows");
  apply_text(*s, "end");
  CHECK(s->outcome() == Outcome::win(0, "score", "10-0"));
  CHECK(s->legal_actions().empty());
  CHECK(read_error(*s, "e5 e7") == "e5 e7: the game is over");
}

TEST_CASE("Kopf end: one strike may pass the target, the score counts every button removed") {
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
)",
                    {.removed = {9, 3}});
  apply_text(*s, "end");
  CHECK(s->outcome() == Outcome::win(0, "score", "11-3"));
}

TEST_CASE("Kopf end: a penalty that reaches the target ends the game: no strike, no move") {
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . B . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . B . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   B . . B R R . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)",
                    {.removed = {9, 0}});
  CHECK(legal(*s) == "- d5, - d6, - d7, end");  // the strike on d5 alone would reach the target too
  CHECK(items_for(*s, "- d6") == "- d6");
  apply_text(*s, "- d6");
  CHECK(s->outcome() == Outcome::win(0, "score", "10-0"));  // d5 was not struck
  CHECK_FALSE(s->mid_turn());
}

TEST_CASE("Kopf end: the strike after a penalty may reach the target: no move follows") {
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . B . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . B . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   B . . B R R . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)",
                    {.removed = {8, 0}});
  CHECK(items_for(*s, "- d5") == "- d5/x a5");
  apply_text(*s, "- d5");
  CHECK(s->outcome() == Outcome::win(0, "score", "10-0"));
  CHECK_FALSE(s->mid_turn());
  CHECK(s->legal_actions().empty());
  // The annotation of that strike may still follow the penalty in the record, and is checked; nothing else.
  CHECK(read_error(*s, "x a5", {1, false}) == "");
  CHECK(read_error(*s, "x d6", {1, false}) == "x d6: d6 is not struck (the strike takes a5)");
  CHECK(read_error(*s, "x a5", {2, true}) == "x a5: the game is over");
  CHECK(read_error(*s, "e5 e7", {1, false}) == "e5 e7: the game is over");
}

TEST_CASE("Kopf end: the target is an option, Blue wins by score with Red's figure first") {
  // Blue's pair c3 (2 holes) - d3 (3 holes) reaches i3, 5 squares from d3.
  auto s = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . R . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . B B . . . . R .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)",
                    {.to_move = 1, .removed = {4, 7}, .target = 8});
  CHECK(strike_now(*s) == "i3");
  CHECK(legal(*s) == "end");
  apply_text(*s, "end");
  CHECK(s->outcome() == Outcome::win(1, "score", "4-8"));
  auto higher = position(R"(
     a b c d e f g h i j
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . R . . . . .   2 3 1 4 2 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . B B . . . . R .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
)",
                         {.to_move = 1, .removed = {4, 7}, .target = 9});
  CHECK(legal_starting(*higher, "c3 ") != "");
  apply_text(*higher, "c3 c5");
  CHECK_FALSE(higher->outcome().over());
  CHECK(higher->score() == "4-8");
}

}  // namespace cinq::kopf::test
