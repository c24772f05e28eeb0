// Tablut: the end of the game — a blocked side, threefold repetition, what ends first, and the results.
#include "tests/rules/tablut/helpers.h"

namespace cinq::tablut::test {
namespace {

TEST_CASE("Tablut end: the defenders without a legal move lose") {
  auto s = board(R"(
  9   # . . . . . . . #
  8   D . . . . . . . .
  7   A A . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . A . . . . . .
  1   # A K A . . . . #
)",
                 kA);
  play(*s, "b7 b8");
  CHECK(result(*s) == "A blocked");
  CHECK(s->legal_actions().empty());
}

constexpr std::string_view kBoxedAttacker = R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . K
  3   . . . . . . . . .
  2   . D . . . . . . .
  1   # A D . . . . . #
)";

TEST_CASE("Tablut end: the attackers without a legal move lose") {
  auto s = board(kBoxedAttacker, kD);
  play(*s, "i4 h4");
  CHECK(result(*s) == "D blocked");
  // A diagram can start blocked too.
  CHECK(result(*board(kBoxedAttacker, kA)) == "D blocked");
}

TEST_CASE("Tablut end: a side with no pieces left loses") {
  auto s = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   . D A . D . . . .
  2   . . . . . . . . .
  1   # . . . . . K . #
)",
                 kD);
  play(*s, "e3 d3");
  CHECK(result(*s) == "D blocked");
}

TEST_CASE("Tablut end: reaching a corner or capturing the king wins even if the other side is left blocked") {
  auto s = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . K
  3   . . . . . . . . .
  2   . D . . . . . . .
  1   # A D . . . . . #
)",
                 kD);
  play(*s, "i4 i1");
  CHECK(result(*s) == "D escape");
}

TEST_CASE("Tablut end: the third occurrence of a position is a draw, the start counts as the first") {
  auto s = start();
  const char* shuffle[] = {"e2 c2", "e4 c4", "c2 e2", "c4 e4"};
  for (const char* m : shuffle) play(*s, m);
  CHECK(result(*s) == "ongoing");  // the start, a second time
  for (int i = 0; i < 3; ++i) play(*s, shuffle[i]);
  CHECK(result(*s) == "ongoing");
  play(*s, shuffle[3]);
  CHECK(result(*s) == "draw repetition");
  CHECK(s->legal_actions().empty());
  CHECK(s->outcome().winner == -1);
}

TEST_CASE("Tablut end: a position is its pieces and the side to move") {
  // e2 runs a triangle (c2, b2, back to e2) while e3 goes out and back: the start's pieces, defenders to
  // move — a new position, not a second occurrence of the start.
  auto s = start();
  for (const char* m : {"e2 c2", "e3 d3", "c2 b2", "d3 e3", "b2 e2"}) play(*s, m);
  auto pieces = [](const State& x) {
    std::string a = x.ascii();
    return a.substr(0, a.size() - std::string("  A to move\n").size());
  };
  CHECK(pieces(*s) == pieces(*start()));
  CHECK(s->to_move() == kD);
  CHECK(s->view().find("occurrences")->as_int() == 1);
}

TEST_CASE("Tablut end: a capture clears the history, the position it reaches is a first occurrence") {
  auto s = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . K . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . A D . . . . A .
  1   # . . . . . . . #
)",
                 kA);
  const char* shuffle[] = {"h2 h3", "e5 e6", "h3 h2", "e6 e5"};
  for (const char* m : shuffle) play(*s, m);
  CHECK(s->view().find("occurrences")->as_int() == 2);
  play(*s, "h2 d2 x c2");
  CHECK(s->view().find("occurrences")->as_int() == 1);
  CHECK(s->fingerprint().find('*') == s->fingerprint().rfind('*'));  // one position in the history
  // The new history counts from the capture: the reached position's third occurrence comes after two
  // round trips.
  const char* again[] = {"e5 e6", "d2 d3", "e6 e5", "d3 d2"};
  for (const char* m : again) play(*s, m);
  CHECK(s->view().find("occurrences")->as_int() == 2);
  for (int i = 0; i < 3; ++i) play(*s, again[i]);
  CHECK(result(*s) == "ongoing");
  play(*s, again[3]);
  CHECK(result(*s) == "draw repetition");
}

TEST_CASE("Tablut end: results use the board's four reasons, without detail, nothing is read after the end") {
  auto reasons = game().board_reasons();
  REQUIRE(reasons.size() == 4);
  CHECK(reasons[0] == "escape");
  CHECK(reasons[1] == "capture");
  CHECK(reasons[2] == "blocked");
  CHECK(reasons[3] == "repetition");
  auto s = board(kBoxedAttacker, kD);
  play(*s, "i4 h4");
  CHECK(s->score().empty());
  CHECK(s->outcome().detail.empty());
  CHECK(refusal(*s, "b1 a1") == "'b1 a1': the game is over");
}

}  // namespace
}  // namespace cinq::tablut::test
