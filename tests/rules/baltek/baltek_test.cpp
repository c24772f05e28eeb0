// Baltek: one test per rule of docs/rules/baltek.md, on ASCII boards.
// Cells: Blue's strength or '.', Red's strength or '.', 'o' for the ball or '.'; goals are '#'.
#include <doctest/doctest.h>

#include <algorithm>

#include "rules/baltek/baltek.h"
#include "rules/notation.h"
#include "tests/support.h"

using namespace cinq;
using baltek::BaltekState;

namespace {

BaltekState board(std::string_view diagram, char to_move = 'B', int points = 3, std::array<bool, 2> bonus = {true, true},
                  std::array<int, 2> score = {0, 0}, int goals = 2, int turn_limit = 0) {
  auto s = BaltekState::from_ascii(diagram, to_move, points, bonus, score, goals, turn_limit);
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  return *s;
}

BaltekState start(std::string_view options = "") {
  auto s = baltek::game().start(options);
  REQUIRE(s.ok());
  return *dynamic_cast<BaltekState*>(s->get());
}

// Plays one item; fails the test if it is refused.
void play(BaltekState& s, std::string_view text) {
  auto item = s.read_item(text, {});
  REQUIRE_MESSAGE(item.ok(), text, ": ", (item.ok() ? "" : item.error().message));
  s.apply(item->action);
}

// The reason an item is refused ("" if it is accepted).
std::string refusal(const BaltekState& s, std::string_view text) {
  auto item = s.read_item(text, {});
  return item.ok() ? "" : item.error().message;
}

bool legal(const BaltekState& s, std::string_view text) { return refusal(s, text).empty(); }

const char* kKickoffBlue = R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... 3.o ... .3. .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)";

const char* kKickoffRed = R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. 3.. ... .3o ... .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)";

}  // namespace

TEST_CASE("Baltek board: 50 field squares b1..k5 plus the goals a3 and l3, nothing else") {
  int field = 0, all = 0;
  for (int col = 0; col < 12; ++col)
    for (int row = 0; row < 5; ++row) {
      field += baltek::is_field(baltek::square(col, row));
      all += baltek::exists(baltek::square(col, row));
    }
  CHECK(field == 50);
  CHECK(all == 52);
  CHECK(baltek::parse_square("a3") == baltek::kGoal[0]);
  CHECK(baltek::parse_square("l3") == baltek::kGoal[1]);
  CHECK(baltek::parse_square("a1") == baltek::kNone);
  CHECK(baltek::parse_square("l5") == baltek::kNone);
  CHECK(baltek::parse_square("m3") == baltek::kNone);
}

TEST_CASE("Baltek kickoff: Blue kicks off the game from the fixed position, 3 points and both bonuses") {
  BaltekState s = start();
  CHECK(s.ascii() == board(kKickoffBlue).ascii());
  CHECK(s.to_move() == 0);
  CHECK(s.points() == 3);
  CHECK(s.bonus(0));
  CHECK(s.bonus(1));
  CHECK(s.outcome() == Outcome::ongoing());
}

TEST_CASE("Baltek goal: the scorer scores 1, the turn ends, the conceding team kicks off and plays next") {
  // Blue's 3 on k3 with the ball; Blue has spent its bonus.
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... ... ... .3. .1. ... 3.o #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)",
                        'B', 3, {false, false});
  play(s, "@ #");
  CHECK(s.goals_scored(0) == 1);
  CHECK(s.score() == "1-0");
  CHECK(s.to_move() == 1);  // Red conceded: Red plays next, from its kickoff position
  CHECK_FALSE(s.mid_turn());
  CHECK(s.points() == 3);
  CHECK(s.ascii() == board(kKickoffRed).ascii());
  CHECK(s.bonus(0));  // both bonuses come back at every kickoff
  CHECK(s.bonus(1));
  CHECK(s.outcome() == Outcome::ongoing());
}

TEST_CASE("Baltek turn: 3 points, a turn of three runs ends by itself, unused points are lost") {
  BaltekState s = start();
  play(s, "d5 c5");
  CHECK(s.points() == 2);
  CHECK(s.mid_turn());
  play(s, "d3 c3");
  play(s, "d1 c1");
  CHECK(s.to_move() == 1);  // no point left: Red's turn
  CHECK_FALSE(s.mid_turn());
  CHECK(s.points() == 3);
}

TEST_CASE("Baltek turn: a team may end its turn at any time, even with no action") {
  BaltekState s = start();
  CHECK(s.is_legal(Action::end_turn()));
  s.apply(Action::end_turn());
  CHECK(s.to_move() == 1);
  play(s, "i5 j5");
  CHECK(s.is_legal(Action::end_turn()));
  s.apply(Action::end_turn());
  CHECK(s.to_move() == 0);
  CHECK(s.points() == 3);  // the next turn has 3 points again
}

TEST_CASE("Baltek turn: a kick that spends the last points ends the turn by itself") {
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 3.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... 13o ... ... .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)");
  play(s, "@++ g3");  // 1 + a duel of 2 (Red's 3 against Blue's 1)
  CHECK(s.to_move() == 1);
  CHECK_FALSE(s.mid_turn());
}

TEST_CASE("Baltek run: 1 point to a neighbouring field square without a teammate, the ball stays") {
  BaltekState s = start();
  CHECK(legal(s, "d3 e4"));       // diagonal neighbour
  CHECK_FALSE(legal(s, "d3 f3"));  // two squares: a sprint, not a run
  CHECK(refusal(s, "d3 b1").find("a sprint is written d3* b1") != std::string::npos);
  CHECK(legal(s, "f5 e5"));
  CHECK(legal(s, "f3 f4"));
  play(s, "f3 g3");  // Blue's 3 leaves the ball behind
  CHECK(s.ball() == baltek::parse_square("f3"));
  CHECK(s.points() == 2);
}

TEST_CASE("Baltek run: not onto a teammate, but onto an opponent and onto the ball") {
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. 3.. .3. ..o ... .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)");
  CHECK_FALSE(legal(s, "d3 e3"));  // e3 holds Blue's 3
  CHECK(refusal(s, "d3 e3").find("holds a Blue footballer") != std::string::npos);
  CHECK(legal(s, "e3 f3"));  // onto Red's 3: shared square
  CHECK(legal(s, "e3 f2"));
  play(s, "e3 f3");
  CHECK(s.ascii().find("33.") != std::string::npos);  // Blue 3 and Red 3 share f3
  play(s, "f5 g4");
  play(s, "d3 e4");
  CHECK(s.to_move() == 1);
}

TEST_CASE("Baltek run: footballers never enter a goal, and run once per turn") {
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   1.. ... ... ... 3.o ... .3. .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)");
  CHECK_FALSE(legal(s, "b3 a3"));
  CHECK(refusal(s, "b3 a3").find("goal") != std::string::npos);
  play(s, "b3 b4");
  CHECK_FALSE(legal(s, "b4 b5"));
  CHECK_FALSE(legal(s, "b4* b2"));  // a sprint is that footballer's run too
}

TEST_CASE("Baltek sprint: 1 point and the bonus, any field square within distance 2, counts as the run") {
  BaltekState s = start();
  CHECK(legal(s, "d3* f4"));
  CHECK(legal(s, "d3* b1"));
  CHECK(legal(s, "d3* e3"));       // distance 1 is within reach too
  CHECK_FALSE(legal(s, "d3* g3"));  // distance 3
  CHECK_FALSE(legal(s, "d3* f5"));  // a teammate there
  play(s, "d3* f4");
  CHECK_FALSE(s.bonus(0));
  CHECK(s.bonus(1));
  CHECK(s.points() == 2);
  CHECK(refusal(s, "d5* e3").find("bonus is spent") != std::string::npos);
  CHECK(legal(s, "d5 e4"));
}

TEST_CASE("Baltek sprint: the square passed over is not checked") {
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. 3.. .3o ... ... .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)");
  CHECK(legal(s, "d3* f3"));  // over e3, held by Blue's 3 and Red's 3
}

TEST_CASE("Baltek sprint: a spent bonus stays spent until the next kickoff") {
  BaltekState s = start();
  play(s, "d3* e2");
  s.apply(Action::end_turn());
  play(s, "i3 h2");
  s.apply(Action::end_turn());
  CHECK_FALSE(s.bonus(0));
  CHECK_FALSE(legal(s, "d5* d3"));
}

TEST_CASE("Baltek kick: 1 or 2 squares in a straight line, never like a knight, by a footballer on the ball") {
  BaltekState s = start();  // Blue's 3 holds the ball on f3
  for (const char* ok : {"@ g3", "@ h3", "@ f5", "@ d1", "@ e4", "@ f1", "@ h5", "@ d3"}) CHECK_MESSAGE(legal(s, ok), ok);
  CHECK_FALSE(legal(s, "@ i3"));  // three squares
  CHECK_FALSE(legal(s, "@ g5"));  // a knight's jump
  CHECK(refusal(s, "@ g5").find("straight line") != std::string::npos);
  play(s, "@ d3");  // to Blue's 1 on d3
  CHECK(s.ball() == baltek::parse_square("d3"));
  CHECK(s.points() == 2);
  play(s, "@ c2");  // the receiver may kick on
  CHECK(s.ball() == baltek::parse_square("c2"));
  CHECK(refusal(s, "@ c1").find("no Blue footballer has the ball") != std::string::npos);
}

TEST_CASE("Baltek kick: each footballer kicks at most once a turn, and may both run and kick") {
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... 3.o 2.. .3. .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... ... .2. ... .1. ... ...
)");
  play(s, "@ g3");  // f3 -> g3, Blue's 2
  play(s, "g3 g4");  // the receiver runs on; the ball stays on g3
  CHECK(refusal(s, "@ h3").find("no Blue footballer has the ball") != std::string::npos);
  BaltekState t = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... 3.o 2.. .3. .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... ... .2. ... .1. ... ...
)");
  play(t, "@ g3");
  play(t, "@ f3");  // back to the 3, which has kicked already
  CHECK(refusal(t, "@ e3").find("already kicked") != std::string::npos);
}

TEST_CASE("Baltek duel: an opponent sharing the kicker's square and stronger costs the difference") {
  // Blue 1 with the ball on e4, sharing it with Red's 2 (the seed's check case).
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. ... ... .1. ... ...
  4       ... ... ... 12o ... ... ... ... ... ...
  3   #   ... ... ... ... 3.. ... ... .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... .3. 1.. ... 2.. .2. ... .1. ... ...
)");
  CHECK(refusal(s, "@ g4") == "Blue kick @ g4 needs a duel of 1 (write @+ g4)");
  CHECK(legal(s, "@+ g4"));
  play(s, "@+ g4");
  CHECK(s.points() == 1);  // 1 for the kick + 1 for the duel
}

TEST_CASE("Baltek duel: equal or weaker opponents cost nothing, and the marks must say so") {
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... 31o ... .3. ... ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)");
  CHECK(legal(s, "@ f5"));
  CHECK(refusal(s, "@+ f5") == "Blue kick @+ f5 needs no duel (write @ f5)");
}

TEST_CASE("Baltek duel: a difference of 2 costs 2, so only a 1-square kick with no lob fits in 3 points") {
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 3.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... 13o ... ... .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)");
  CHECK(legal(s, "@++ g3"));
  play(s, "d5 c5");
  CHECK(refusal(s, "@++ g3") == "'@++ g3' costs 3 points; Blue has 2 left");
}

TEST_CASE("Baltek lob: a stronger opponent on the square passed over costs the difference, even with a teammate there") {
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. ... ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 3.. 1.o 22. ... .1. ... ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... .3. ... .2. .1. ... ...
)");
  CHECK(refusal(s, "@ g3") == "Blue kick @ g3 needs a lob of 1 (write @! g3)");
  CHECK(legal(s, "@! g3"));
  CHECK(legal(s, "@ f3"));   // one square: no lob; an opponent on the destination costs nothing
  CHECK(refusal(s, "@! f3") == "Blue kick @! f3 needs no lob (write @ f3)");
  CHECK(legal(s, "@ c3"));   // over d3, empty
  play(s, "@! g3");
  CHECK(s.points() == 1);
}

TEST_CASE("Baltek lob: a teammate alone on the square passed over costs nothing") {
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... ... ... 1.o 3.. ... .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. .3. .1. ... ...
)");
  CHECK(legal(s, "@ g3"));
}

TEST_CASE("Baltek duel and lob together: both marks, in either order, equal to the cost") {
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .1. ... ... ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... ... 12o 3.. ... .1. ... ... ... #
  2       ... ... ... ... .2. ... ... ... ... ...
  1       ... ... 1.. ... 2.. ... .3. .1. ... ...
)");
  // e3 -> g1 passes over f2 (Red 2): duel 1 (Red 2 on e3) + lob 1.
  CHECK(s.action_text(s.read_item("@+! g1", {})->action) == "@+! g1");
  CHECK(legal(s, "@!+ g1"));
  CHECK(refusal(s, "@+ g1") == "Blue kick @+ g1 needs a lob of 1 (write @+! g1)");
  CHECK(refusal(s, "@! g1") == "Blue kick @! g1 needs a duel of 1 (write @+! g1)");
}

TEST_CASE("Baltek shot: Blue shoots at l3 only from k3, j3, k2, k4, j1, j5, Red at a3 only from b3, c3, b2, b4, c1, c5") {
  // For every field square: the side's 3 alone there with the ball, everyone else in rows 1 and 5.
  for (int side = 0; side < 2; ++side) {
    std::vector<std::string> from;
    for (int col = 1; col <= 10; ++col)
      for (int row = 0; row < 5; ++row) {
        std::string diagram;
        for (int r = 4; r >= 0; --r) diagram += "  " + std::to_string(r + 1) + std::string(10, ' ') + "\n";
        std::vector<std::vector<std::string>> cells(5, std::vector<std::string>(11, "..."));
        cells[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = side == 0 ? "3.o" : ".3o";
        std::vector<std::string> others = {".3.", ".2.", ".2.", ".1.", ".1.", ".1.", "2..", "2..", "1..", "1..", "1.."};
        if (side == 1)
          for (auto& o : others) std::swap(o[0], o[1]);
        for (int c = 1; c <= 10 && !others.empty(); ++c)
          for (int r : {0, 4})
            if (!others.empty() && !(c == col && r == row)) {
              cells[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] = others.back();
              others.pop_back();
            }
        diagram.clear();
        for (int r = 4; r >= 0; --r) {
          diagram += "  " + std::to_string(r + 1);
          for (int c = 1; c <= 10; ++c) diagram += " " + cells[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
          diagram += "\n";
        }
        BaltekState p = board(diagram, side == 0 ? 'B' : 'R');
        if (legal(p, "@ #")) from.push_back(baltek::square_name(baltek::square(col, row)));
      }
    std::sort(from.begin(), from.end());
    if (side == 0) CHECK(from == std::vector<std::string>{"j1", "j3", "j5", "k2", "k3", "k4"});
    else CHECK(from == std::vector<std::string>{"b2", "b3", "b4", "c1", "c3", "c5"});
  }
}

TEST_CASE("Baltek shot: written '@ #' or by the goal's square, no own goals") {
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   3.o ... 1.. ... ... ... .3. .1. ... ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)");
  CHECK(refusal(s, "@ a3") == "'@ a3': no own goals (Blue defends a3)");
  CHECK(refusal(s, "@ #").find("straight line") != std::string::npos);  // l3 is far away
  BaltekState r = board(kKickoffRed, 'R');
  play(r, "g3 f2");
  CHECK(refusal(r, "@ l3") == "'@ l3': no own goals (Red defends l3)");
  BaltekState t = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... ... ... .3. .1. 3.o ... #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)");
  auto by_square = t.read_item("@ l3", {});
  REQUIRE(by_square.ok());
  CHECK(t.action_text(by_square->action) == "@ #");
}

TEST_CASE("Baltek shot: a shot may have to pay a duel or a lob like any kick") {
  BaltekState s = board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... ... ... ... .1. 1.o .3. #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 3.. ... 2.. .2. ... .1. ... ...
)");
  CHECK(refusal(s, "@ #") == "Blue kick @ # needs a lob of 2 (write @!! #)");
  CHECK(legal(s, "@!! #"));
}

TEST_CASE("Baltek goal: the turn ends at once, so nothing may follow it in the turn") {
  // The sample game up to line 29, then line 30 with the goal as Blue's second action and a run after it.
  std::string sample = test::read_text(test::data_path("records/baltek/sample-won-2-1.txt"));
  std::string head = sample.substr(0, sample.find("\n30 "));
  auto ok = Record::read(head + "\n30  B/j2 k2/@ #/\n");
  REQUIRE_MESSAGE(ok.ok(), (ok.ok() ? "" : ok.error().text()));
  CHECK(ok->state().score() == "1-0");
  CHECK(ok->state().to_move() == 1);
  auto bad = Record::read(head + "\n30  B/j2 k2/@ #/e3 d3/\n");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().text() == "line 33: B/e3 d3/: the turn is already over");
}

TEST_CASE("Baltek goals option: the first team to reach the target wins, 1..5, default 2") {
  const char* shot = R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... 1.. ... 2.. .2. ... .1. ... ...
  4       ... ... ... ... ... ... ... ... ... ...
  3   #   ... ... 1.. ... ... ... .3. .1. ... 3.o #
  2       ... ... ... ... ... ... ... ... ... ...
  1       ... ... 1.. ... 2.. .2. ... .1. ... ...
)";
  BaltekState s = board(shot, 'B', 3, {true, true}, {1, 1}, 2);
  play(s, "@ #");
  CHECK(s.outcome() == Outcome::win(0, "score", "2-1"));
  CHECK(s.legal_actions().empty());
  BaltekState three = board(shot, 'B', 3, {true, true}, {1, 1}, 3);
  play(three, "@ #");
  CHECK_FALSE(three.outcome().over());
  CHECK(baltek::game().start("goals=5").ok());
  CHECK(baltek::game().start("goals=0").error().message == "option goals=0 is not allowed (goals: 1..5)");
  CHECK_FALSE(baltek::game().start("goals=6").ok());
  auto def = baltek::game().start("");
  CHECK(dynamic_cast<BaltekState&>(**def).view().find("goal_target")->as_int() == 2);
}

TEST_CASE("Baltek turns option: after the N-th turn, both sides counted, without a winner, a draw by limit") {
  auto s = baltek::game().start("turns=3");
  REQUIRE(s.ok());
  State& st = **s;
  for (int i = 0; i < 2; ++i) st.apply(Action::end_turn());
  CHECK_FALSE(st.outcome().over());
  st.apply(Action::end_turn());
  CHECK(st.outcome() == Outcome::draw("limit", "0-0"));
  CHECK(st.legal_actions().empty());
  CHECK_FALSE(baltek::game().start("turns=0").ok());
  CHECK(baltek::game().start("turns=off").ok());
}

TEST_CASE("Baltek notation: the later rules' compact forms are errors") {
  BaltekState s = start();
  CHECK(refusal(s, "@d3") == "'@d3': write a space between the kick and its square (@ d3)");
  CHECK_FALSE(legal(s, "d3e3"));
  CHECK_FALSE(legal(s, "@ x9"));
  CHECK(legal(s, "@  d3"));  // runs of spaces fold
}

TEST_CASE("Baltek check case: the seed's example replays to the final position of baltek.md") {
  auto r = Record::read(test::read_text(test::data_path("records/baltek/seed-example.txt")));
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().text()));
  CHECK(r->incomplete());
  CHECK(r->turn_count() == 6);
  // Blue 1 on d3, e2, e4; Blue 2 on f1, g4; Blue 3 on g3; Red 1 on h2, h3, i4; Red 2 on e4, f1; Red 3 on g4;
  // ball on i4; score 0-0; Blue to move.
  CHECK(r->state().ascii() == board(R"(
      a   b   c   d   e   f   g   h   i   j   k   l
  5       ... ... ... ... ... ... ... ... ... ...
  4       ... ... ... 12. ... 23. ... .1o ... ...
  3   #   ... ... 1.. ... ... 3.. .1. ... ... ... #
  2       ... ... ... 1.. ... ... .1. ... ... ...
  1       ... ... ... ... 22. ... ... ... ... ...
)").ascii());
  CHECK(r->state().score() == "0-0");
  CHECK(r->state().to_move() == 0);
  auto& st = dynamic_cast<const BaltekState&>(r->state());
  CHECK(st.bonus(0));  // no sprint ('*') in these three lines: both bonuses are still there
  CHECK(st.bonus(1));
}

TEST_CASE("Baltek sample: a whole game won 2-1 replays with its result") {
  auto r = Record::read(test::read_text(test::data_path("records/baltek/sample-won-2-1.txt")));
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().text()));
  CHECK(r->finished());
  CHECK(r->result_text() == "B score 2-1");
  CHECK(r->turn_count() == 153);
}
