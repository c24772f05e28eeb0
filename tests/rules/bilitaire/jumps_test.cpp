// Bi-litaire (docs/rules/bilitaire.md): the marble player's jumps and chains, the announcements.
#include <doctest/doctest.h>

#include "rules/bilitaire/bilitaire.h"
#include "tests/rules/bilitaire/play.h"

using namespace cinq;
using namespace cinq::bilitaire;
using namespace cinq::bilitaire::test;

namespace {

using Texts = std::vector<std::string>;

// Trays A1, B1 and D1 on the bottom row, C1 free: a gap between d and g.
constexpr std::string_view kRow = R"(
 8  . . . . . . . .
 7  . . . . . . . .
 6  . . . . . . . .
 5  . . . . . . . .
 4  . . . . . . . .
 3  . . . . . . . .
 2  + + o o . . + +
 1  o o + o . . o +
    a b c d e f g h
)";

// Four trays around d4 where c3 can run a loop: c3 c5 e5 e3 c3, or the other way round.
constexpr std::string_view kLoop = R"(
 8  . . . . . . . .
 7  . . . . . . . .
 6  . . + + + + . .
 5  . . + o + + . .
 4  . . o + o + . .
 3  . . o o + + . .
 2  . . . . . . . .
 1  . . . . . . . .
    a b c d e f g h
)";

// The same, with the tray of e3..f4 pushed to D2: the loop is broken until it comes back.
constexpr std::string_view kBrokenLoop = R"(
 8  . . . . . . . .
 7  . . . . . . . .
 6  . . + + + + . .
 5  . . + o + + . .
 4  . . o + . . o +
 3  . . o o . . + +
 2  . . . . . . . .
 1  . . . . . . . .
    a b c d e f g h
)";

const Setup kMarbles{1, Phase::marbles, 0, -1};
Setup announced(int k) { return Setup{1, Phase::marbles, k, -1}; }

}  // namespace

TEST_CASE(
    "Bi-litaire: a marble jumps over an adjacent marble into the empty hole behind, across touching trays") {
  auto s = board(kRow, kMarbles);
  CHECK(legal_texts(*s) == Texts{"a1 c1", "d2 b2"});
  CHECK(play(s, "M/a1 c1/") == "");
  CHECK(holes_of(*s).find(" 1  + + o o . . o +") != std::string::npos);  // b1 was jumped and removed
  CHECK(s->to_move() == 1);
}

TEST_CASE("Bi-litaire: no jump lands on a gap or crosses one") {
  auto s = board(kRow, kMarbles);
  CHECK(item_error(*s, "c2 e2") == "'c2 e2': e2 is in a gap (no tray on C1)");
  CHECK(item_error(*s, "d1 f1") == "'d1 f1': there is no hole on e1 to jump over (no tray on C1)");
  CHECK(item_error(*s, "g1 e1") == "'g1 e1': there is no hole on f1 to jump over (no tray on C1)");
}

TEST_CASE("Bi-litaire: a jump is orthogonal, over one marble, into an empty hole") {
  auto s = board(kRow, kMarbles);
  CHECK(item_error(*s, "a1 b2") == "'a1 b2': a jump goes straight over one hole (across, up or down)");
  CHECK(item_error(*s, "a1 e1") == "'a1 e1': a jump goes straight over one hole (across, up or down)");
  CHECK(item_error(*s, "a1 a3") == "'a1 a3': there is no marble on a2 to jump over");
  CHECK(item_error(*s, "b1 d1") == "'b1 d1': there is no marble on c1 to jump over");
  CHECK(item_error(*s, "c1 a1") == "'c1 a1': there is no marble on c1");
  CHECK(item_error(*s, "e1 c1") == "'e1 c1': e1 is in a gap (no tray on C1)");
  CHECK(item_error(*s, "d1 b1") == "'d1 b1': there is no marble on c1 to jump over");
  CHECK(item_error(*s, "c2 a2") == "'c2 a2': there is no marble on b2 to jump over");
  auto full = board(R"(
 2  + + + + . . . .
 1  o o o + . . . .
 3  . . . . . . . .
 4  . . . . . . . .
 5  . . . . . . . .
 6  . . . . . . . .
 7  . . . . . . . .
 8  . . . . . . . .
)",
                    kMarbles);
  CHECK(item_error(*full, "a1 c1") == "'a1 c1': c1 is not empty");
  CHECK(item_error(*s, "x a1") ==
        "'x a1': a marble is removed only at the start of a round; now a marble jumps (d2 d4)");
  CHECK(item_error(*s, "A1 >1") == "'A1 >1': it is the marble player's turn: a marble jumps (d2 d4)");
  CHECK(item_error(*s, "!2") == "'!2': only the tray player announces");
}

TEST_CASE("Bi-litaire: without an announcement the marble player makes exactly one jump") {
  auto s = board(kLoop, kMarbles);
  CHECK(legal_texts(*s) == Texts{"c3 e3", "c3 c5"});
  CHECK(item_error(*s, "c3 c5 e5") ==
        "'c3 c5 e5': without an announcement the marble player makes exactly one jump, not 2");
  CHECK(play(s, "M/c3 c5/") == "");
}

TEST_CASE("Bi-litaire: an announcement k is legal only if some marble can make k jumps in a row") {
  auto s = board(kLoop, Setup{1, Phase::tray_done, 0, -1});
  CHECK(s->mid_turn());
  CHECK(legal_texts(*s) == Texts{"!2", "!3", "!4", ""});
  CHECK(s->ascii().find("round 1: T (player 2) announces up to !4 or ends the turn") != std::string::npos);
  CHECK(item_error(*s, "!5") == "'!5': no marble can make 5 jumps in a row here (at most 4)");
  CHECK(item_error(*s, "!1") == "'!1': an announcement is at least 2 (a single jump needs none)");
  CHECK(item_error(*s, "!x") == "'!x' is not an announcement (write the number of jumps: !3)");
  CHECK(item_error(*s, "!02") == "'!02' is not an announcement (write the number of jumps: !3)");
  CHECK(item_error(*s, "!2 !3") == "'!2 !3': an announcement is one token (!3)");
  auto item = s->read_item("!3", {});
  REQUIRE(item.ok());
  s->apply(item->action);
  CHECK_FALSE(s->mid_turn());  // the announcement ends the tray player's turn
  CHECK(s->to_move() == 0);
}

TEST_CASE("Bi-litaire: the announcement is judged on the board after the tray action") {
  auto s = board(kBrokenLoop);
  CHECK(item_error(*s, "!4") == "'!4': the tray player announces after its tray action");
  auto before = board(kBrokenLoop, Setup{1, Phase::tray_done, 0, -1});
  CHECK(legal_texts(*before) == Texts{"!2", ""});  // c3 c5 e5 is the longest chain here
  CHECK(play(s, "T/D2 <1/!5/") == "'!5': no marble can make 5 jumps in a row here (at most 4)");
  CHECK(play(s, "T/D2 <1/!4/") == "");
  CHECK(s->to_move() == 0);
}

TEST_CASE(
    "Bi-litaire: after an announcement k the marble player's actions are exactly the chains of k jumps") {
  auto s = board(kLoop, announced(3));
  CHECK(legal_texts(*s) == Texts{"c3 e3 e5 c5", "c3 c5 e5 e3"});
  CHECK(item_error(*s, "c3 c5 e5") ==
        "'c3 c5 e5': the tray player announced !3: the chain must make exactly 3 jumps, not 2");
  CHECK(item_error(*s, "c3 c5") ==
        "'c3 c5': the tray player announced !3: the chain must make exactly 3 jumps, not 1");
  // It stops after the third jump even though it could go on.
  CHECK(item_error(*s, "c3 c5 e5 e3 c3") ==
        "'c3 c5 e5 e3 c3': the tray player announced !3: the chain must make exactly 3 jumps, not 4");
  auto two = board(kLoop, announced(2));
  CHECK(legal_texts(*two) == Texts{"c3 e3 e5", "c3 c5 e5"});  // when several chains fit, the player chooses
}

TEST_CASE("Bi-litaire: a chain may turn, and may land on its starting hole") {
  auto s = board(kLoop, announced(4));
  CHECK(legal_texts(*s) == Texts{"c3 e3 e5 c5 c3", "c3 c5 e5 e3 c3"});
  CHECK(play(s, "M/c3 c5 e5 e3 c3/") == "");
  CHECK(holes_of(*s) ==
        " 8  . . . . . . . .\n"
        " 7  . . . . . . . .\n"
        " 6  . . + + + + . .\n"
        " 5  . . + + + + . .\n"
        " 4  . . + + + + . .\n"
        " 3  . . o + + + . .\n"
        " 2  . . . . . . . .\n"
        " 1  . . . . . . . .\n"
        "    a b c d e f g h\n");
}

TEST_CASE("Bi-litaire: each jumped marble leaves at once: a chain cannot jump it twice") {
  auto s = board(kLoop, announced(2));
  CHECK(item_error(*s, "c3 c5 c3") == "'c3 c5 c3': jump c5 c3: there is no marble on c4 to jump over");
  CHECK(item_error(*s, "c3 c5 e6") ==
        "'c3 c5 e6': jump c5 e6: a jump goes straight over one hole (across, up or down)");
}
