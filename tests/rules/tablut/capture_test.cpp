// Tablut: custodial captures of soldiers, hostile squares, the armed and the unarmed king.
#include "tests/rules/tablut/helpers.h"

namespace cinq::tablut::test {
namespace {

TEST_CASE("Tablut capture: a soldier between the moved piece and an enemy, on a row or a column, is taken") {
  const char* diagram = R"(
  9   # . . . . . . K #
  8   . . . . . . . . .
  7   . . . A . . . . .
  6   . . . D . . . . .
  5   A . . . + . . . .
  4   . A D . . . A . .
  3   . . . . . . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)";
  auto s = board(diagram, kA);
  CHECK(text_of(*s, "g4", "d4") == "g4 d4 x c4");  // on the row
  CHECK(text_of(*s, "a5", "d5") == "a5 d5 x d6");  // on the column
  play(*s, "g4 d4");
  CHECK(s->ascii().find("  4   . A . A . . . . .") != std::string::npos);
  CHECK(result(*s) == "ongoing");
}

TEST_CASE("Tablut capture: a piece may move between two enemies, only the moved piece captures") {
  auto s = board(R"(
  9   # . . . . . . K #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . A . A . . . . A
  1   # . D . . . . . #
)",
                 kD);
  play(*s, "c1 c2");  // into the sandwich: safe
  CHECK(s->ascii().find("  2   . A D A . . . . A") != std::string::npos);
  // An attacker's move elsewhere on the row does not take it either: b2 and d2 did not move.
  CHECK(text_of(*s, "i2", "e2") == "i2 e2");
  // Nor does an attacker into a sandwich of defenders lose a piece.
  auto a = board(R"(
  9   # . . . . . . K #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . D . D . . . . .
  1   # . A . . . . . #
)",
                 kA);
  play(*a, "c1 c2");
  CHECK(a->ascii().find("  2   . D A D . . . . .") != std::string::npos);
}

TEST_CASE("Tablut capture: never on a diagonal, never against the board's edge") {
  auto s = board(R"(
  9   # . . . . . . K #
  8   . . . A . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   D . D . . . . . .
  2   . A . . . . . . .
  1   # . . . . . . . #
)",
                 kA);
  CHECK(text_of(*s, "d8", "d4") == "d8 d4");  // b2 c3 d4 is a diagonal
  CHECK(text_of(*s, "b2", "b3") == "b2 b3");  // a3 has only the edge beyond it
}

TEST_CASE("Tablut capture: one move takes up to three soldiers, listed by column then row") {
  auto s = board(R"(
  9   # . . . . . . K #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . A . + . . . .
  4   . . D . . . . . .
  3   A D . . . . . A .
  2   . . D . . . . . .
  1   # . A . . . . . #
)",
                 kA);
  CHECK(text_of(*s, "h3", "c3") == "h3 c3 x b3 c2 c4");
  play(*s, "h3 c3");
  CHECK(s->view().find("counts")->find("D")->as_int() == 1);  // the king alone is left
}

TEST_CASE("Tablut capture: corners are hostile to both sides") {
  const char* diagram = R"(
  9   # . . . . . . . #
  8   . . A . . . . . A
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . K . . . .
  3   . . . . . . . . .
  2   . . . . . . . . D
  1   # D . . . . . . #
)";
  CHECK(text_of(*board(diagram, kA), "c8", "c1") == "c8 c1 x b1");
  CHECK(text_of(*board(diagram, kD), "i2", "i7") == "i2 i7 x i8");
  CHECK(text_of(*board(diagram, kA, "throne=plain king=unarmed"), "c8", "c1") == "c8 c1 x b1");
  CHECK(text_of(*board(diagram, kD, "throne=plain king=unarmed"), "i2", "i7") == "i2 i7 x i8");
}

TEST_CASE("Tablut capture: the empty special throne is hostile to both sides, the plain throne to none") {
  const char* diagram = R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . A . . . . . . .
  6   . . . . D . . . .
  5   . . . A + . . . .
  4   . . . . . . . . .
  3   . . D . . . . . .
  2   . . . . . . . . .
  1   # . . . . . . K #
)";
  CHECK(text_of(*board(diagram, kA), "b7", "e7") == "b7 e7 x e6");
  CHECK(text_of(*board(diagram, kD), "c3", "c5") == "c3 c5 x d5");
  CHECK(text_of(*board(diagram, kD, "king=unarmed"), "c3", "c5") == "c3 c5 x d5");
  CHECK(text_of(*board(diagram, kA, "throne=plain"), "b7", "e7") == "b7 e7");
  CHECK(text_of(*board(diagram, kD, "throne=plain"), "c3", "c5") == "c3 c5");
}

TEST_CASE("Tablut capture: the king on the throne shields defenders, an armed king there takes attackers") {
  const char* diagram = R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . A . . . . . . .
  6   . . . . D . . . .
  5   . . . A K . . . .
  4   . . . . . . . . .
  3   . . D . . . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)";
  // The occupied throne is not hostile to defenders.
  CHECK(text_of(*board(diagram, kA), "b7", "e7") == "b7 e7");
  // The throne stays hostile to attackers: the armed king is an enemy piece there.
  CHECK(text_of(*board(diagram, kD), "c3", "c5") == "c3 c5 x d5");
  CHECK(text_of(*board(diagram, kD, "throne=plain"), "c3", "c5") == "c3 c5 x d5");
  // Unarmed, the king takes no part, and the occupied throne is not hostile to attackers.
  CHECK(text_of(*board(diagram, kD, "king=unarmed"), "c3", "c5") == "c3 c5");
  CHECK(text_of(*board(diagram, kD, "king=unarmed throne=plain"), "c3", "c5") == "c3 c5");
}

TEST_CASE("Tablut capture: an armed king captures by moving and as the far piece, an unarmed king does not") {
  const char* moving = R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   . K . A D . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)";
  CHECK(text_of(*board(moving, kD), "b3", "c3") == "b3 c3 x d3");
  CHECK(text_of(*board(moving, kD, "king=unarmed"), "b3", "c3") == "b3 c3");
  const char* anvil = R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . K . .
  6   . . . . . . A . .
  5   . . . . + . . . D
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)";
  CHECK(text_of(*board(anvil, kD), "i5", "g5") == "i5 g5 x g6");
  CHECK(text_of(*board(anvil, kD, "king=unarmed"), "i5", "g5") == "i5 g5");
}

TEST_CASE("Tablut capture: the king is no soldier: two attackers do not take it") {
  auto s = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   . . A K . . . . A
  2   . . . . . . . . .
  1   # . . . . . . . #
)",
                 kA);
  play(*s, "i3 e3");
  CHECK(result(*s) == "ongoing");
  CHECK(s->ascii().find("  3   . . A K A . . . .") != std::string::npos);
}

}  // namespace
}  // namespace cinq::tablut::test
