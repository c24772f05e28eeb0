// Tablut perft counts, pinned: each figure was also computed by the independent naive generator
// tests/data/tablut/perft_reference.py (same positions).
#include <array>

#include "tests/rules/tablut/helpers.h"

namespace cinq::tablut::test {
namespace {

constexpr std::string_view kStart = R"(
      a b c d e f g h i
  9   # . . A A A . . #
  8   . . . . A . . . .
  7   . . . . D . . . .
  6   A . . . D . . . A
  5   A A D D K D D A A
  4   A . . . D . . . A
  3   . . . . D . . . .
  2   . . . . A . . . .
  1   # . . A A A . . #
)";

// A middle game with captures on offer for both sides.
constexpr std::string_view kMid = R"(
      a b c d e f g h i
  9   # . . A . A . . #
  8   . . . . A . . . .
  7   . . D . . . D . .
  6   A . . . D A . . A
  5   A A . D K . D A .
  4   . . . A D . . . A
  3   . . D . . . . . .
  2   . . . . A . . D .
  1   # A . . A A . . #
)";

// The king beside the empty throne (h5 g5 captures it when the throne is special), an armed king's
// captures (f5 g5 takes h5 against i5), the king as an anvil (h3 f3 takes f4), d5 against the throne.
constexpr std::string_view kKing = R"(
      a b c d e f g h i
  9   # . . . . . . . #
  8   . . . A A . . . .
  7   . D . . . . . A .
  6   . . . . . A . . .
  5   A . . D + K . A D
  4   . . . . . A D . .
  3   . . A . . . . D .
  2   . . . . D . . . .
  1   # . . . . . A . #
)";

// The king two moves from a corner.
constexpr std::string_view kEscape = R"(
      a b c d e f g h i
  9   # . . . . . . . #
  8   . . A D . . . . .
  7   . K . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . D . . A . .
  3   . . . . . . . . .
  2   . . A . . . D . .
  1   # . . . . . . A #
)";

// b7 b8 leaves the defenders without a move.
constexpr std::string_view kBlock = R"(
      a b c d e f g h i
  9   # . . . . . . . #
  8   D . . . . . . . .
  7   A A . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . A . . . . . .
  1   # A K A . . . . #
)";

const char* const kOptions[] = {"", "king=unarmed", "throne=plain", "king=unarmed throne=plain"};

std::uint64_t perft_of(std::string_view diagram, Side side, std::string_view options, int depth) {
  return game().perft(*board(diagram, side, options), depth);
}

TEST_CASE("Tablut perft: 72 moves from the start, then 3944 and 285728") {
  auto s = start();
  CHECK(game().perft(*s, 0) == 1);
  CHECK(game().perft(*s, 1) == 72);
  CHECK(game().perft(*s, 2) == 3944);
  CHECK(game().perft(*s, 3) == 285728);
  CHECK(perft_of(kStart, kA, "", 3) == 285728);
}

TEST_CASE("Tablut perft: the start under every option") {
  auto d = start("first=defenders");
  CHECK(game().perft(*d, 1) == 56);
  CHECK(game().perft(*d, 2) == 3968);
  CHECK(game().perft(*d, 3) == 225224);
  // The king and the throne only matter once the king has left the throne: not within three moves.
  for (const char* o : kOptions) CHECK(game().perft(*start(o), 3) == 285728);
}

// Counts at depths 3 and 4 under kOptions, in order.
struct Case {
  const char* name;
  std::string_view diagram;
  Side side;
  std::array<std::uint64_t, 4> depth3;
  std::array<std::uint64_t, 4> depth4;
};
const Case kCases[] = {
    {"mid A", kMid, kA, {436991, 436988, 437006, 437003}, {24334677, 24334196, 24360239, 24359758}},
    {"mid D", kMid, kD, {272397, 272397, 272649, 272649}, {23484660, 23484850, 23508979, 23509172}},
    {"king A", kKing, kA, {335258, 336003, 360174, 360953}, {19390899, 19363368, 21581325, 21558701}},
    {"king D", kKing, kD, {260758, 260403, 284015, 283774}, {19412962, 19479151, 21443368, 21524451}},
    {"escape A", kEscape, kA, {81909, 82063, 82215, 82369}, {3715080, 3717897, 3739517, 3742322}},
    {"escape D", kEscape, kD, {82889, 82964, 83129, 83204}, {3599645, 3616463, 3622721, 3639560}},
};

TEST_CASE("Tablut perft: positions with captures, king captures and escapes, under every option") {
  for (const Case& c : kCases)
    for (std::size_t i = 0; i < 4; ++i) {
      CAPTURE(c.name);
      CAPTURE(kOptions[i]);
      CHECK(perft_of(c.diagram, c.side, kOptions[i], 3) == c.depth3[i]);
    }
}

// Slow for a unit test run (a few seconds, more in a debug build): skipped, so ctest never lists it. Run it
// with `cinq_tests --no-skip -tc='Tablut perft at depth 4*'`.
TEST_CASE("Tablut perft at depth 4, every pinned position" * doctest::skip()) {
  for (const char* o : kOptions) CHECK(game().perft(*start(o), 4) == 15951824);
  CHECK(game().perft(*start("first=defenders"), 4) == 16170968);
  for (const Case& c : kCases)
    for (std::size_t i = 0; i < 4; ++i) {
      CAPTURE(c.name);
      CAPTURE(kOptions[i]);
      CHECK(perft_of(c.diagram, c.side, kOptions[i], 4) == c.depth4[i]);
    }
  CHECK(perft_of(kBlock, kA, "", 4) == 556641);
  CHECK(perft_of(kBlock, kD, "", 4) == 362993);
  auto s = start();
  for (const char* m : {"d1 d2", "e3 d3", "d2 d1", "d3 e3", "d1 d2"}) play(*s, m);
  CHECK(game().perft(*s, 4) == 15682616);
}

TEST_CASE("Tablut perft: a move that leaves the other side blocked counts, and nothing follows it") {
  CHECK(perft_of(kBlock, kA, "", 1) == 51);
  CHECK(perft_of(kBlock, kA, "", 2) == 563);
  CHECK(perft_of(kBlock, kA, "", 3) == 28947);
  CHECK(perft_of(kBlock, kD, "", 1) == 8);
  CHECK(perft_of(kBlock, kD, "", 2) == 410);
  CHECK(perft_of(kBlock, kD, "", 3) == 7032);
}

TEST_CASE("Tablut perft: a finished game has no move sequences") {
  auto s = board(kBlock, kA);
  play(*s, "b7 b8");
  REQUIRE(result(*s) == "A blocked");
  CHECK(game().perft(*s, 0) == 1);
  CHECK(game().perft(*s, 1) == 0);
  CHECK(game().perft(*s, 3) == 0);
}

TEST_CASE("Tablut perft: a third occurrence ends the game inside the walk") {
  // The shuffle brings the start back a second time; one more round trip and d3 e3 makes its third.
  auto s = start();
  for (const char* m : {"d1 d2", "e3 d3", "d2 d1", "d3 e3", "d1 d2", "e3 d3", "d2 d1"}) play(*s, m);
  auto fresh = board(s->ascii(), kD);  // the same position with no history
  // d3 e3 counts as one sequence that ends the game, instead of its 72 continuations.
  CHECK(game().perft(*s, 2) == game().perft(*fresh, 2) - 72 + 1);
  CHECK(game().perft(*s, 3) == game().Game::perft(*s, 3));
}

TEST_CASE("Tablut perft: the fast walk agrees with the contract's generic walk") {
  const std::pair<std::string_view, Side> positions[] = {
      {kStart, kA}, {kMid, kA}, {kMid, kD}, {kKing, kA}, {kKing, kD}, {kEscape, kD}, {kBlock, kA}};
  for (const auto& [diagram, side] : positions)
    for (const char* o : kOptions) {
      auto s = board(diagram, side, o);
      CAPTURE(o);
      CHECK(game().perft(*s, 2) == game().Game::perft(*s, 2));
    }
  auto s = start();
  for (const char* m : {"d1 d2", "e3 d3", "d2 d1", "d3 e3", "d1 d2"}) play(*s, m);
  CHECK(game().perft(*s, 3) == game().Game::perft(*s, 3));
}

}  // namespace
}  // namespace cinq::tablut::test
