// Tablut: the board, the start, moves, corners, the throne, options, and how a position is shown.
#include "tests/rules/tablut/helpers.h"

namespace cinq::tablut::test {
namespace {

TEST_CASE("Tablut board: the start is the rules file's diagram, attackers to move") {
  auto s = start();
  CHECK(s->ascii() ==
        "      a b c d e f g h i\n"
        "  9   # . . A A A . . #\n"
        "  8   . . . . A . . . .\n"
        "  7   . . . . D . . . .\n"
        "  6   A . . . D . . . A\n"
        "  5   A A D D K D D A A\n"
        "  4   A . . . D . . . A\n"
        "  3   . . . . D . . . .\n"
        "  2   . . . . A . . . .\n"
        "  1   # . . A A A . . #\n"
        "  A to move\n");
  CHECK(s->to_move() == kA);
  CHECK_FALSE(s->mid_turn());
  CHECK(s->legal_actions().size() == 72);
  CHECK(game().name() == "tablut");
  CHECK(game().record_name() == "TABLUT");
  CHECK(game().side_letter(0) == 'A');
  CHECK(game().side_letter(1) == 'D');
}

TEST_CASE("Tablut board: first=defenders lets the defenders start") {
  auto s = start("first=defenders");
  CHECK(s->to_move() == kD);
  CHECK(s->legal_actions().size() == 56);
  CHECK(refusal(*s, "e2 c2") == "e2 c2: e2 holds an attacker, and the defenders are to move");
}

TEST_CASE("Tablut board: options are first, king and throne, with their rules file's values") {
  CHECK(game().start("first=attackers king=armed throne=special").ok());
  CHECK(game().start("first=defenders king=unarmed throne=plain").ok());
  CHECK_FALSE(game().start("first=white").ok());
  CHECK_FALSE(game().start("king=strong").ok());
  CHECK_FALSE(game().start("throne=hostile").ok());
  CHECK_FALSE(game().start("corners=plain").ok());
  auto specs = game().option_specs();
  REQUIRE(specs.size() == 3);
  CHECK(specs[0].key == "first");
  CHECK(specs[0].default_value == "attackers");
  CHECK(specs[1].key == "king");
  CHECK(specs[1].default_value == "armed");
  CHECK(specs[2].key == "throne");
  CHECK(specs[2].default_value == "special");
}

TEST_CASE("Tablut board: every piece moves like a rook, over empty squares only") {
  auto s = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . A . . . .
  6   . . . . . . . . .
  5   . . . . K . . . .
  4   . . . . . . . . .
  3   . A . . D . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)",
                 kA);
  // b3 runs to the edges, and stops before e3's defender (no jump, no diagonal).
  CHECK(destinations(*s, "b3") == "a3 b1 b2 b4 b5 b6 b7 b8 b9 c3 d3");
  CHECK(refusal(*s, "b3 e3") == "b3 e3: e3 is occupied");
  CHECK(refusal(*s, "b3 f3") == "b3 f3: the path is blocked at e3");
  CHECK(refusal(*s, "b3 c4") == "b3 c4: a piece moves along its row or its column");
  CHECK(refusal(*s, "b3 b3") == "b3 b3: the piece does not move");
  CHECK(refusal(*s, "e7 e5") == "e7 e5: e5 is occupied");
  CHECK(refusal(*s, "c3 c4") == "c3 c4: there is no piece on c3");
  // The king moves like a rook too.
  auto d = board(s->ascii(), kD);
  CHECK(destinations(*d, "e5") == "a5 b5 c5 d5 e4 e6 f5 g5 h5 i5");
}

TEST_CASE("Tablut board: only the king may stop on a corner") {
  auto s = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   D . . . . . . . .
  2   . . . . . . . . .
  1   # . . K . . . A #
)",
                 kD);
  CHECK(destinations(*s, "a3") == "a2 a4 a5 a6 a7 a8 b3 c3 d3 e3 f3 g3 h3 i3");
  CHECK(refusal(*s, "a3 a1") == "a3 a1: only the king may stop on a corner");
  CHECK(text_of(*s, "d1", "a1") == "d1 a1");
  auto a = board(s->ascii(), kA);
  CHECK(refusal(*a, "h1 i1") == "h1 i1: only the king may stop on a corner");
}

TEST_CASE("Tablut board: with the special throne only the king stops on it, anyone passes over it") {
  const char* diagram = R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . A . + . . D .
  4   . . . . K . . . .
  3   . . . . . . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)";
  auto a = board(diagram, kA);
  CHECK(refusal(*a, "c5 e5") == "c5 e5: only the king may stop on the throne");
  CHECK(text_of(*a, "c5", "f5") == "c5 f5");  // over the empty throne
  CHECK(destinations(*a, "c5").find("e5") == std::string::npos);
  auto d = board(diagram, kD);
  CHECK(refusal(*d, "h5 e5") == "h5 e5: only the king may stop on the throne");
  CHECK(text_of(*d, "h5", "d5") == "h5 d5");
  CHECK(text_of(*d, "e4", "e5") == "e4 e5");  // the king may return
  CHECK(text_of(*d, "e4", "e9") == "e4 e9");  // or pass over it
}

TEST_CASE("Tablut board: the occupied throne blocks the way like any piece") {
  auto d = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . A . K . . D .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)",
                 kA);
  CHECK(refusal(*d, "c5 g5") == "c5 g5: the path is blocked at e5");
}

TEST_CASE("Tablut board: with throne=plain anyone may stop on the throne once the king has left it") {
  const char* diagram = R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . A . . . . D .
  4   . . . . K . . . .
  3   . . . . . . . . .
  2   . . . . . . . . .
  1   # . . . . . . . #
)";
  auto a = board(diagram, kA, "throne=plain");
  CHECK(text_of(*a, "c5", "e5") == "c5 e5");
  CHECK(destinations(*a, "c5") == "a5 b5 c1 c2 c3 c4 c6 c7 c8 c9 d5 e5 f5 g5");
  auto d = board(diagram, kD, "throne=plain");
  CHECK(text_of(*d, "h5", "e5") == "h5 e5");
}

TEST_CASE("Tablut board: a diagram reads back from ascii(), and bad diagrams are refused") {
  auto s = start();
  play(*s, "e2 c2");
  auto copy = board(s->ascii(), kD);
  CHECK(copy->ascii() == s->ascii());
  CHECK_FALSE(position("  9   # . . .", kA).ok());
  std::string no_king = start()->ascii();
  no_king[no_king.find('K')] = '+';
  CHECK(position(no_king, kA).error().message == "a diagram needs exactly one king");
  std::string on_throne = start()->ascii();
  on_throne[on_throne.find('K')] = 'D';
  CHECK(position(on_throne, kA).error().message == "e5: only the king may stand there");
  CHECK(position(on_throne, kA, "throne=plain").error().message == "a diagram needs exactly one king");
}

TEST_CASE("Tablut board: the view shows the board, the pieces, whose turn and the result") {
  auto s = start();
  Value v = s->view();
  CHECK(v.find("size")->as_int() == 9);
  REQUIRE(v.find("pieces") != nullptr);
  CHECK(v.find("pieces")->as_object().size() == 25);
  CHECK(v.find("pieces")->find("e5")->as_string() == "K");
  CHECK(v.find("pieces")->find("d9")->as_string() == "A");
  CHECK(v.find("pieces")->find("e7")->as_string() == "D");
  CHECK(v.find("pieces")->find("a1") == nullptr);  // a corner: no piece
  CHECK(v.find("to_move") == nullptr);  // the position's `side` says who moves (not repeated in events)
  CHECK(v.find("counts")->find("A")->as_int() == 16);
  CHECK(v.find("counts")->find("D")->as_int() == 9);
  CHECK(v.find("throne")->find("special")->as_bool());
  CHECK(v.find("occurrences")->as_int() == 1);
  CHECK(v.find("outcome")->is_null());
  play(*s, "e2 c2");
  play(*s, "e4 c4");
  play(*s, "c2 e2");
  play(*s, "c4 e4");
  CHECK(s->view().find("occurrences")->as_int() == 2);
  auto won = board(R"(
  9   # . . . . . . . #
  8   . . . . . . . . .
  7   . . . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   K . . . . . . . A
  1   # . . . . . . . #
)",
                   kD);
  play(*won, "a2 a1");
  CHECK(won->view().find("outcome")->find("winner")->as_string() == "D");
  CHECK(won->view().find("outcome")->find("reason")->as_string() == "escape");
  CHECK(won->ascii().find("  game over: D escape") != std::string::npos);
}

TEST_CASE("Tablut board: the fingerprint holds the position and its history") {
  auto s = start();
  auto t = start();
  CHECK(s->fingerprint() == t->fingerprint());
  for (const char* m : {"e2 c2", "e4 c4", "c2 e2", "c4 e4"}) play(*s, m);
  // Same pieces, same side to move, but the start has now been seen twice: the futures differ.
  CHECK(s->ascii() == t->ascii());
  CHECK(s->fingerprint() != t->fingerprint());
  // One position reached through other positions: a different history, a different fingerprint.
  auto u = start();
  auto v = start();
  for (const char* m : {"e2 c2", "e4 c4", "d9 d7"}) play(*u, m);
  for (const char* m : {"d9 d7", "e4 c4", "e2 c2"}) play(*v, m);
  CHECK(u->ascii() == v->ascii());
  CHECK(u->fingerprint() != v->fingerprint());
  CHECK(start("king=unarmed")->fingerprint() != t->fingerprint());
  CHECK(start("throne=plain")->fingerprint() != t->fingerprint());
}

}  // namespace
}  // namespace cinq::tablut::test
