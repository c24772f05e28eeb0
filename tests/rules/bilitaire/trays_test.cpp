// Bi-litaire (docs/rules/bilitaire.md): the board, the start and the tray player's actions.
#include <doctest/doctest.h>

#include <algorithm>

#include "rules/bilitaire/bilitaire.h"
#include "tests/rules/bilitaire/play.h"

using namespace cinq;
using namespace cinq::bilitaire;
using namespace cinq::bilitaire::test;

namespace {

bool has(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Two trays side by side on A1 and B1, one empty tray on A3.
constexpr std::string_view kTwoTrays = R"(
 8  . . . . . . . .
 7  . . . . . . . .
 6  + + . . . . . .
 5  + + . . . . . .
 4  . . . . . . . .
 3  . . . . . . . .
 2  o o + o . . . .
 1  o + o o . . . .
    a b c d e f g h
)";

}  // namespace

TEST_CASE("Bi-litaire: the game starts with twelve trays, the corners free, and 48 marbles") {
  auto s = game().start("");
  REQUIRE(s.ok());
  const State& st = **s;
  CHECK(holes_of(st) ==
        " 8  . . o o o o . .\n"
        " 7  . . o o o o . .\n"
        " 6  o o o o o o o o\n"
        " 5  o o o o o o o o\n"
        " 4  o o o o o o o o\n"
        " 3  o o o o o o o o\n"
        " 2  . . o o o o . .\n"
        " 1  . . o o o o . .\n"
        "    a b c d e f g h\n");
  CHECK(st.ascii().find("slots:   4  .  T  T  .") != std::string::npos);
  CHECK(st.round() == 1);
  CHECK(st.to_move() == 0);  // the marble player starts
  CHECK_FALSE(st.mid_turn());
  CHECK(st.score() == "");
}

TEST_CASE("Bi-litaire: the game's names, sides and players") {
  const Game& g = game();
  CHECK(g.name() == "bi-litaire");
  CHECK(g.record_name() == "BI-LITAIRE");
  CHECK(g.side_letter(0) == 'M');
  CHECK(g.side_letter(1) == 'T');
  CHECK(g.winner_token(0) == "1");
  CHECK(g.winner_token(1) == "2");
  CHECK(g.has_rounds());
  CHECK(g.option_specs().empty());
  CHECK(g.bounded_options().empty());
  REQUIRE(g.board_reasons().size() == 1);
  CHECK(g.board_reasons()[0] == "score");
  CHECK_FALSE(g.start("turns=3").ok());  // Bi-litaire has no options
}

TEST_CASE("Bi-litaire: the marble player's first move removes any one marble") {
  auto s = std::move(*game().start(""));
  CHECK(s->legal_actions().size() == 48);
  CHECK(item_error(*s, "x a1") == "'x a1': a1 is in a gap (no tray on A1)");
  CHECK(item_error(*s, "d2 d4") ==
        "'d2 d4': the marble player starts the round by removing one marble (x d4)");
  CHECK(play(s, "M/x d4/") == "");
  CHECK(s->to_move() == 1);  // then the tray player
  CHECK(holes_of(*s).find(" 4  o o o + o o o o") != std::string::npos);
}

TEST_CASE("Bi-litaire: the tray player must make a tray action: an empty turn is refused") {
  auto s = board(kTwoTrays);
  CHECK_FALSE(s->is_legal(Action::end_turn()));
  CHECK(play(s, "T/") == "the turn cannot end here");
  CHECK(item_error(*s, "c1 a1") ==
        "'c1 a1': it is the tray player's turn: slide a tray (B1 >2) or remove an empty one (x B1)");
}

TEST_CASE("Bi-litaire: a push moves the tray and the trays touching it ahead, marbles ride along") {
  auto s = board(kTwoTrays);
  // A1 pushed right takes B1 with it.
  CHECK(play(s, "T/A1 >1/") == "");
  CHECK(holes_of(*s) ==
        " 8  . . . . . . . .\n"
        " 7  . . . . . . . .\n"
        " 6  + + . . . . . .\n"
        " 5  + + . . . . . .\n"
        " 4  . . . . . . . .\n"
        " 3  . . . . . . . .\n"
        " 2  . . o o + o . .\n"
        " 1  . . o + o o . .\n"
        "    a b c d e f g h\n");
}

TEST_CASE("Bi-litaire: trays behind the pushed tray stay") {
  auto s = board(kTwoTrays);
  CHECK(act(s, "B1 >2") == "");  // (the turn is not ended: no jump is left, it would end the round)
  CHECK(holes_of(*s).find(" 2  o o . . . . + o") != std::string::npos);
  CHECK(holes_of(*s).find(" 1  o + . . . . o o") != std::string::npos);
}

TEST_CASE("Bi-litaire: never sideways: pushing a tray up leaves its neighbour in the row") {
  auto s = board(kTwoTrays);
  CHECK(play(s, "T/A1 ^1/") == "");
  CHECK(holes_of(*s).find(" 4  o o . .") != std::string::npos);
  CHECK(holes_of(*s).find(" 1  . . o o") != std::string::npos);
}

TEST_CASE("Bi-litaire: one tray moves up to 3 slots, two up to 2, three only 1") {
  auto one = board(kTwoTrays);
  CHECK(has(legal_texts(*one), "A3 >3"));
  CHECK(item_error(*one, "A3 >4") == "'A3 >4': a single tray moves at most 3 slots");
  CHECK(item_error(*one, "A1 >3") == "'A1 >3': a group of two trays (A1 B1) moves at most 2 slots");
  CHECK(has(legal_texts(*one), "A1 >2"));
  auto three = board(R"(
 8  . . . . . . . .
 7  . . . . . . . .
 6  . . . . . . . .
 5  . . . . . . . .
 4  . . . . . . . .
 3  . . . . . . . .
 2  o o o o o o . .
 1  o o o o o o . .
)");
  CHECK(has(legal_texts(*three), "A1 >1"));
  CHECK(item_error(*three, "A1 >2") == "'A1 >2': a group of three trays (A1 B1 C1) moves only 1 slot");
  CHECK(act(three, "A1 >1") == "");
  CHECK(holes_of(*three).find(" 1  . . o o o o o o") != std::string::npos);
}

TEST_CASE("Bi-litaire: a group of four trays cannot be pushed") {
  auto s = board(R"(
 8  . . o o . . . .
 7  . . o o . . . .
 6  . . o o . . . .
 5  . . o o . . . .
 4  . . o o . . . .
 3  . . o o . . . .
 2  . . o o . . . .
 1  . . o o . . . .
)");
  CHECK(item_error(*s, "B1 ^1") == "'B1 ^1': a group of four trays (B1 B2 B3 B4) cannot be pushed");
  CHECK(item_error(*s, "B4 v1") == "'B4 v1': a group of four trays (B4 B3 B2 B1) cannot be pushed");
  CHECK(has(legal_texts(*s), "B2 >2"));  // across the column, one at a time, they move
  CHECK_FALSE(has(legal_texts(*s), "B1 ^1"));
}

TEST_CASE("Bi-litaire: a push is blocked by the frame") {
  auto s = board(kTwoTrays);
  CHECK(item_error(*s, "A1 <1") == "'A1 <1': the push is blocked by the frame");
  CHECK(item_error(*s, "B1 v1") == "'B1 v1': the push is blocked by the frame");
  CHECK(item_error(*s, "B1 >3") == "'B1 >3': the push is blocked by the frame");
  CHECK(item_error(*s, "A3 ^2") == "'A3 ^2': the push is blocked by the frame");
  CHECK(has(legal_texts(*s), "A3 ^1"));
}

TEST_CASE("Bi-litaire: a push moves into free slots only: it is blocked by a tray ahead") {
  auto s = board(kTwoTrays);
  CHECK(item_error(*s, "A1 ^2") == "'A1 ^2': the push is blocked by the tray on A3");
  CHECK(item_error(*s, "A3 v2") == "'A3 v2': the push is blocked by the tray on A1");
  CHECK(has(legal_texts(*s), "A3 v1"));
  CHECK(item_error(*s, "C1 >1") == "'C1 >1': there is no tray on C1");
}

TEST_CASE("Bi-litaire: a push names the pushed tray, a direction and a whole number of slots") {
  auto s = board(kTwoTrays);
  CHECK(item_error(*s, "A1 >0") == "'A1 >0': a push moves the trays at least one slot");
  CHECK(item_error(*s, "A1 >1.5") == "'A1 >1.5': a push is written with > < ^ or v and a distance (B1 >2)");
  CHECK(item_error(*s, "A1 >01") == "'A1 >01': a push is written with > < ^ or v and a distance (B1 >2)");
  CHECK(item_error(*s, "a1 >1") ==
        "'a1 >1': it is the tray player's turn: slide a tray (B1 >2) or remove an empty one (x B1)");
  CHECK(item_error(*s, "A1 >1") == "");
  CHECK(item_error(*s, "A1  >1") == "");  // spaces inside an action are folded
  CHECK(item_error(*s, "A1 > 1") ==
        "'A1 > 1': a push is the slot then the direction and distance in one token (B1 >2)");
  CHECK(item_error(*s, "E1 >1") ==
        "'E1 >1': not a tray action: slide a tray (B1 >2) or remove an empty one (x B1)");
  auto legal = legal_texts(*s);
  // A1 and B1 up, A3 in every free direction: each text once, only whole slots.
  CHECK(legal == std::vector<std::string>{"A1 >1", "A1 >2", "A1 ^1", "B1 >1", "B1 >2", "B1 ^1", "B1 ^2",
                                          "B1 ^3", "A3 >1", "A3 >2", "A3 >3", "A3 ^1", "A3 v1", "x A3"});
}

TEST_CASE("Bi-litaire: empty trays slide like the others") {
  auto s = board(kTwoTrays);
  CHECK(play(s, "T/A3 >3/") == "");
  CHECK(holes_of(*s).find(" 6  . . . . . . + +") != std::string::npos);
}

TEST_CASE("Bi-litaire: the tray player may remove an empty tray, for good, and no other") {
  auto s = board(kTwoTrays);
  CHECK(item_error(*s, "x A1") == "'x A1': the tray on A1 still holds 3 marbles");
  CHECK(item_error(*s, "x C3") == "'x C3': there is no tray on C3");
  CHECK(item_error(*s, "x a1") == "'x a1': the tray player removes an empty tray (x B1), not a marble");
  CHECK(play(s, "T/x A3/") == "");
  CHECK(holes_of(*s).find(" 6  . . . . . . . .") != std::string::npos);
  CHECK(holes_of(*s).find(" 5  . . . . . . . .") != std::string::npos);
}

TEST_CASE("Bi-litaire: after its tray action the tray player may announce or end the turn") {
  auto s = board(kTwoTrays);
  auto item = s->read_item("A3 >3", {});
  REQUIRE(item.ok());
  s->apply(item->action);
  CHECK(s->mid_turn());
  CHECK(s->to_move() == 1);
  CHECK(legal_texts(*s) == std::vector<std::string>{""});  // no chain of two: only the end of the turn
  CHECK(item_error(*s, "A1 >1") == "'A1 >1': the tray action is made; announce a chain (!2) or end the turn");
  CHECK(item_error(*s, "!2") == "'!2': no marble can make 2 jumps in a row here (at most 1)");
  s->apply(Action::end_turn());
  CHECK_FALSE(s->mid_turn());
  CHECK(s->to_move() == 0);
}

TEST_CASE("Bi-litaire: a diagram reads back from ascii(), and a bad diagram is refused") {
  auto s = board(kTwoTrays);
  auto again = position(s->ascii());
  REQUIRE(again.ok());
  CHECK((*again)->fingerprint() == s->fingerprint());
  CHECK(position(" 1 o o o o o o o o").error().message == "row 2 is missing");
  CHECK(position(" 1 o o x o o o o o").error().message == "row 1: 'x' is not a cell (o, + or .)");
  std::string half(kTwoTrays);
  half[half.find(" 1  o +") + 6] = '.';
  CHECK(position(half).error().message == "slot A1 is half a tray");
  CHECK(position(kTwoTrays, Setup{2, Phase::tray, 0, -1}).error().message ==
        "round 2, and round 2 only, needs the marbles left at the end of round 1");
  CHECK(position(kTwoTrays, Setup{1, Phase::marbles, 3, -1}).error().message ==
        "no chain of 3 jumps here to announce");
  CHECK(position(kTwoTrays, Setup{1, Phase::over, 0, -1}).error().message ==
        "a diagram sets a game in progress, not a finished one");
}
