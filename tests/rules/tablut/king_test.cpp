// Tablut: capturing the king, and its escape.
#include "tests/rules/tablut/helpers.h"

namespace cinq::tablut::test {
namespace {

constexpr std::string_view kFourAround = R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . A . . . . .
  6   . . A K A . . . .
  5   A . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)";

TEST_CASE("Tablut king: four attackers around the king capture it, and the attackers win") {
  for (const char* options : {"", "king=unarmed", "throne=plain"}) {
    CAPTURE(options);
    auto s = board(kFourAround, kA, options);
    CHECK(text_of(*s, "a5", "b5") == "a5 b5");
    CHECK(text_of(*s, "a5", "d5") == "a5 d5 x d6");
    play(*s, "a5 d5");
    CHECK(result(*s) == "A capture");
    CHECK(s->ascii().find('K') == std::string::npos);
    CHECK(s->legal_actions().empty());
  }
}

TEST_CASE("Tablut king: three attackers do not capture it") {
  auto s = board(kFourAround, kA);
  play(*s, "a5 b5");
  CHECK(result(*s) == "ongoing");
}

TEST_CASE("Tablut king: on the throne it takes four attackers") {
  auto s = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . A . . . .
  5   . . . A K A . . .
  4   . . . . . . . . .
  3   . . . . A . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)",
                 kA);
  CHECK(text_of(*s, "e3", "e4") == "e3 e4 x e5");
  play(*s, "e3 e4");
  CHECK(result(*s) == "A capture");
}

TEST_CASE("Tablut king: beside the special throne three attackers capture it, beside a plain one, four") {
  const char* three = R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   A . . . . . . . .
  6   . . . A K A . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)";
  CHECK(text_of(*board(three, kA), "a7", "e7") == "a7 e7 x e6");
  CHECK(text_of(*board(three, kA, "king=unarmed"), "a7", "e7") == "a7 e7 x e6");
  CHECK(text_of(*board(three, kA, "throne=plain"), "a7", "e7") == "a7 e7");
  const char* four = R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   A . . . . . . . .
  6   . . . A K A . . .
  5   . . . . A . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)";
  CHECK(text_of(*board(four, kA, "throne=plain"), "a7", "e7") == "a7 e7 x e6");
}

TEST_CASE("Tablut king: a king that moves into an enclosure is not captured, nor by a move elsewhere") {
  auto s = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . A . . . .
  6   . . . A . A . . .
  5   . . . . K . . . .
  4   . . . . . . . . .
  3   . . . . . . . . D
  2   A . . . . . . . .
  1   # . . . . . . . #
)",
                 kD);
  play(*s, "e5 e6");  // three attackers and the empty special throne around it now
  CHECK(result(*s) == "ongoing");
  play(*s, "a2 a3");  // the moved attacker must be one of the four
  CHECK(result(*s) == "ongoing");
  CHECK(s->ascii().find('K') != std::string::npos);
  // Leaving and coming back does capture it.
  play(*s, "i3 i4");
  play(*s, "d6 d7");
  play(*s, "i4 i3");
  CHECK(text_of(*s, "d7", "d6") == "d7 d6 x e6");
}

TEST_CASE("Tablut king: on the board's edge the king cannot be captured") {
  auto s = board(R"(
  9   # . . A K A . . #
  8   A . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . D
  2   . . . . . . . . .
  1   # . . . . . . . #
)",
                 kA);
  play(*s, "a8 e8");
  CHECK(result(*s) == "ongoing");
}

TEST_CASE("Tablut king: soldiers taken by the move that captures the king are taken too") {
  auto s = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . A . . . . .
  6   . . A K A . . . .
  5   . A D . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . . A . . . . .
  1   # . . . . . . . #
)",
                 kA);
  CHECK(text_of(*s, "d2", "d5") == "d2 d5 x c5 d6");
  play(*s, "d2 d5");
  CHECK(result(*s) == "A capture");
  CHECK(s->ascii().find("  5   . A . A + . . . .") != std::string::npos);
}

TEST_CASE("Tablut king: the king on a corner wins for the defenders") {
  auto s = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   K . . . . . . . .
  3   . . . . . . . . .
  2   . . . . . . . . .
  1   # . . A . . . . #
)",
                 kD);
  CHECK(destinations(*s, "a4").find("a1") != std::string::npos);
  CHECK(destinations(*s, "a4").find("a9") != std::string::npos);
  play(*s, "a4 a1");
  CHECK(result(*s) == "D escape");
  CHECK(s->legal_actions().empty());
}

}  // namespace
}  // namespace cinq::tablut::test
