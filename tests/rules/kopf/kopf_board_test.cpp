// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md): the board, its hole layout, the start and options.
#include <doctest/doctest.h>

#include "rules/kopf/board.h"
#include "rules/kopf/layout.h"
#include "tests/rules/kopf/kopf_support.h"

namespace cinq::kopf::test {

TEST_CASE(
    "Kopf: the layout is the rules file's board, given by its formula, symmetric under the board's "
    "symmetries") {
  const Holes& holes = *standard_holes();
  for (int r = 0; r < kSize; ++r)
    for (int c = 0; c < kSize; ++c) {
      int ring = std::min(r, 9 - r) + std::min(c, 9 - c);
      CHECK(holes[square(c, r)] == std::array{2, 3, 1, 4}[ring % 4]);
      CHECK(holes[square(c, r)] == holes[square(9 - c, r)]);  // reflection
      CHECK(holes[square(c, r)] == holes[square(r, 9 - c)]);  // rotation by a quarter turn
    }
  CHECK(holes[*parse_square("a1")] == 2);
  CHECK(holes[*parse_square("d1")] == 4);
  CHECK(holes[*parse_square("c8")] == 2);
  CHECK(holes[*parse_square("j10")] == 2);
}

TEST_CASE("Kopf: the layout is data: another diagram loads and drives the moves") {
  std::string ones;
  for (int r = 10; r >= 1; --r) ones += std::to_string(r) + "  1 1 1 1 1 1 1 1 1 1\n";
  auto layout = parse_layout(ones);
  REQUIRE(layout.ok());
  auto s = position(R"(
10   . . . . . . . . . .
 9   . . . . . . . . . .
 8   . . . . . . . . . .
 7   . . . . . . . . . .
 6   . . . . . . . . . .
 5   . . . . R . . . . .
 4   . . . . . . . . . .
 3   . . . . . . . . . .
 2   . . . . . . . . . .
 1   . . . . . . . . . B
)",
                    {}, std::make_shared<const Holes>(*layout));
  // On this layout e5 has one hole: one square in each of the 8 directions.
  CHECK(legal(*s) == "e5 e6, e5 f6, e5 f5, e5 f4, e5 e4, e5 d4, e5 d5, e5 d6");
  CHECK(s->ascii().find(" 5   . . . . R . . . . .    5   1 1 1 1 1 1 1 1 1 1") != std::string::npos);
}

TEST_CASE("Kopf: a layout diagram is checked: every row once, ten counts of 1 to 4") {
  CHECK(parse_layout(kStandardLayout).ok());
  CHECK(parse_layout("10 1 1 1 1 1 1 1 1 1 1\n").error().message == "row 1 is missing");
  std::string bad(kStandardLayout);
  bad.replace(bad.find("10   2"), 6, "10   5");
  CHECK(parse_layout(bad).error().message == "row 10: '5' is not 1 to 4 holes");
  CHECK(parse_layout(std::string(kStandardLayout) + " 3 1 1 1 1 1 1 1 1 1 1\n").error().message ==
        "row 3 is given twice");
}

TEST_CASE("Kopf: squares are named a1 to j10, in lower case") {
  CHECK(square_name(0) == "a1");
  CHECK(square_name(99) == "j10");
  CHECK(parse_square("j10") == 99);
  CHECK(parse_square("e5") == square(4, 4));
  CHECK_FALSE(parse_square("k1"));
  CHECK_FALSE(parse_square("a11"));
  CHECK_FALSE(parse_square("a0"));
  CHECK_FALSE(parse_square("a01"));
  CHECK_FALSE(parse_square("E5"));
  CHECK_FALSE(parse_square("e"));
}

TEST_CASE("Kopf: the start ring alternates from Red on b9 clockwise, and Red moves first") {
  auto s = start();
  CHECK(s->ascii() == R"(     a b c d e f g h i j        a b c d e f g h i j  (holes)
10   . . . . . . . . . .   10   2 3 1 4 2 2 4 1 3 2
 9   . R B R B R B R B .    9   3 1 4 2 3 3 2 4 1 3
 8   . B . . . . . . R .    8   1 4 2 3 1 1 3 2 4 1
 7   . R . . . . . . B .    7   4 2 3 1 4 4 1 3 2 4
 6   . B . . . . . . R .    6   2 3 1 4 2 2 4 1 3 2
 5   . R . . . . . . B .    5   2 3 1 4 2 2 4 1 3 2
 4   . B . . . . . . R .    4   4 2 3 1 4 4 1 3 2 4
 3   . R . . . . . . B .    3   1 4 2 3 1 1 3 2 4 1
 2   . B R B R B R B R .    2   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . .    1   2 3 1 4 2 2 4 1 3 2
     a b c d e f g h i j        a b c d e f g h i j
removed: Red 0, Blue 0 (target 10)
Red to move
)");
  CHECK(s->to_move() == 0);
  CHECK_FALSE(s->mid_turn());
  CHECK(s->score() == "0-0");
  CHECK(game().side_letter(0) == 'R');
  CHECK(game().side_letter(1) == 'B');
}

TEST_CASE(
    "Kopf: at the start each player has two diagonal pairs at the ring's corners, and nothing is struck") {
  auto cells = start_cells();
  auto size = group_sizes(cells);
  std::string red_pairs, blue_pairs;
  for (int c = 0; c < kSize; ++c)
    for (int r = 0; r < kSize; ++r) {
      int sq = square(c, r);
      if (size[sq] == 2) (cells[sq] == 0 ? red_pairs : blue_pairs) += square_name(sq) + " ";
      CHECK(size[sq] <= 2);
    }
  CHECK(red_pairs == "b3 c2 h9 i8 ");
  CHECK(blue_pairs == "b8 c9 h2 i3 ");
  auto s = start();
  CHECK(strike_now(*s) == "");
  CHECK(view_list(*s, "penalty") == "");
}

TEST_CASE("Kopf: the option target is 10 by default, 8 to 14") {
  CHECK(game().name() == "kopf-oder-knopf");
  CHECK(game().record_name() == "KOPF-ODER-KNOPF");
  CHECK(start()->view().find("target")->as_int() == 10);
  CHECK(start("target=8")->view().find("target")->as_int() == 8);
  CHECK(start("target=14")->view().find("target")->as_int() == 14);
  CHECK_FALSE(game().start("target=7").ok());
  CHECK_FALSE(game().start("target=15").ok());
  CHECK_FALSE(game().start("target=ten").ok());
  CHECK_FALSE(game().start("goal=8").ok());
  CHECK(game().bounded_options() == "target=8");
  CHECK(game().board_reasons().size() == 2);
  CHECK(game().board_reasons()[0] == "score");
  CHECK(game().board_reasons()[1] == "blocked");
}

TEST_CASE("Kopf: a diagram must agree with the layout when it shows the holes") {
  auto wrong = from_ascii(R"(
10   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 9   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 8   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 7   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 6   . . . . . . . . . .   2 3 1 4 2 2 4 1 3 2
 5   . . . . R . . . . .   2 3 1 4 3 2 4 1 3 2
 4   . . . . . . . . . .   4 2 3 1 4 4 1 3 2 4
 3   . . . . . . . . . .   1 4 2 3 1 1 3 2 4 1
 2   . . . . . . . . . .   3 1 4 2 3 3 2 4 1 3
 1   . . . . . . . . . B   2 3 1 4 2 2 4 1 3 2
)");
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message == "row 5: the layout has 2 holes on e5, the diagram says 3");
  // The start's own ascii() reads back to the start.
  auto s = start();
  CHECK(position(s->ascii())->fingerprint() == s->fingerprint());
}

TEST_CASE("Kopf: perft from the start pins the move generator") {
  auto s = start();
  // Counted by hand: b9 (1 hole) 6 moves, d9 (2) 2, f9 (3) 2, h9 (4) 13.
  CHECK(legal_starting(*s, "b9 ") == "b9 b10, b9 c10, b9 c8, b9 a8, b9 a9, b9 a10");
  CHECK(legal_starting(*s, "d9 ") == "d9 f7, d9 d7");
  CHECK(legal_starting(*s, "f9 ") == "f9 f6, f9 c6");
  CHECK(legal_starting(*s, "h9 ") ==
        "h9 h10, h9 i10, h9 j9, h9 j7, h9 h8, h9 h7, h9 h6, h9 h5, h9 g8, h9 f7, h9 e6, h9 d5, h9 g10");
  CHECK(game().perft(*s, 1) == 80);
  CHECK(game().perft(*s, 2) == 6558);
  CHECK(game().perft(*s, 3) == 533736);
}

}  // namespace cinq::kopf::test
