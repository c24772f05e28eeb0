// Bi-litaire (docs/rules/bilitaire.md): the end of a round, the second round, the winner.
#include <doctest/doctest.h>

#include "rules/bilitaire/bilitaire.h"
#include "tests/rules/bilitaire/play.h"
#include "tests/support.h"

using namespace cinq;
using namespace cinq::bilitaire;
using namespace cinq::bilitaire::test;

namespace {

// M can jump only f7 h7 or g7 e7; then d1 and d2 are stuck until a tray comes to B2 (d3 is in a gap).
constexpr std::string_view kLastJump = R"(
 8  . . . . + + + +
 7  . . . . + o o +
 6  . . . . . . . .
 5  . . . . . . . .
 4  . . . . . . + +
 3  . . . . . . + +
 2  . . + o . . . .
 1  . . + o . . . .
    a b c d e f g h
)";

// One tray, one marble: no jump whatever the tray player does.
constexpr std::string_view kOneMarble = R"(
 8  . . . . . . . .
 7  . . . . . . . .
 6  . . . . . . . .
 5  . . . . . . . .
 4  . . . . . . . .
 3  . . . . . . . .
 2  + + . . . . . .
 1  o + . . . . . .
    a b c d e f g h
)";

// One tray, two marbles on a diagonal: no jump either.
constexpr std::string_view kTwoMarbles = R"(
 8  . . . . . . . .
 7  . . . . . . . .
 6  . . . . . . . .
 5  . . . . . . . .
 4  . . . . . . . .
 3  . . . . . . . .
 2  + o . . . . . .
 1  o + . . . . . .
    a b c d e f g h
)";

Setup round2(int round1_left) { return Setup{2, Phase::tray, 0, round1_left}; }

const std::string kInitialHoles = holes_of(**game().start(""));

}  // namespace

TEST_CASE("Bi-litaire: a round does not end on the marble player's turn, even with no jump left") {
  auto s = board(kLastJump, Setup{1, Phase::marbles, 0, -1});
  CHECK(play(s, "M/f7 h7/") == "");
  CHECK_FALSE(s->outcome().over());
  CHECK(s->round() == 1);
  CHECK(s->to_move() == 1);
  // The tray player brings a tray under d2: d1 can jump again and the round goes on.
  CHECK(play(s, "T/D2 <2/") == "");
  CHECK(s->round() == 1);
  CHECK(s->to_move() == 0);
  CHECK(legal_texts(*s) == std::vector<std::string>{"d1 d3"});
}

TEST_CASE("Bi-litaire: a round ends right after the tray player's turn that leaves no jump") {
  auto s = board(kLastJump, Setup{1, Phase::marbles, 0, -1});
  CHECK(play(s, "M/f7 h7/") == "");
  CHECK(play(s, "T/D2 <1/") == "");
  // Round 2 starts by itself: a fresh board, the marble player (now player 2) to remove a first marble.
  CHECK(s->round() == 2);
  CHECK_FALSE(s->outcome().over());
  CHECK(s->to_move() == 0);
  CHECK_FALSE(s->mid_turn());
  CHECK(holes_of(*s) == kInitialHoles);
  CHECK(s->legal_actions().size() == 48);
  CHECK(s->score() == "");  // nothing to show before both rounds are over
  const Value v = s->view();
  CHECK(v.find("marble_player")->as_int() == 2);
  CHECK(v.find("tray_player")->as_int() == 1);
  CHECK(v.find("round_scores")->as_array()[0].as_int() == 3);  // d1, d2 and h7 were left
  CHECK(s->ascii().find("M (player 2) removes a first marble") != std::string::npos);
}

TEST_CASE("Bi-litaire: removing the last useful tray also ends the round") {
  auto s = board(kLastJump, Setup{1, Phase::marbles, 0, -1});
  CHECK(play(s, "M/f7 h7/") == "");
  CHECK(play(s, "T/x D2/!2/") == "'!2': no marble can jump here");
  CHECK(play(s, "T/x D2/") == "");
  CHECK(s->round() == 2);
}

TEST_CASE("Bi-litaire: after round 2 the player whose marble round left fewer marbles wins") {
  auto s = board(kOneMarble, round2(3));
  CHECK(play(s, "T/A1 >1/") == "");
  REQUIRE(s->outcome().over());
  CHECK(s->outcome() == Outcome::win(1, "score", "3-1"));  // player 2 left 1 marble, player 1 left 3
  CHECK(s->score() == "3-1");
  CHECK(s->legal_actions().empty());
  CHECK(s->view().find("winner")->as_int() == 2);

  auto p1 = board(kTwoMarbles, round2(1));
  CHECK(play(p1, "T/A1 ^1/") == "");
  CHECK(p1->outcome() == Outcome::win(0, "score", "1-2"));
  CHECK(game().winner_token(p1->outcome().winner) == "1");
}

TEST_CASE("Bi-litaire: an equal number of marbles left is a draw") {
  auto s = board(kOneMarble, round2(1));
  CHECK(play(s, "T/A1 >3/") == "");
  CHECK(s->outcome() == Outcome::draw("score", "1-1"));
  CHECK(play(s, "M/x a1/") == "the game is over");
}

TEST_CASE("Bi-litaire: player 1 plays the marbles in round 1, player 2 in round 2") {
  auto s = std::move(*game().start(""));
  CHECK(s->view().find("marble_player")->as_int() == 1);
  CHECK(s->ascii().find("round 1: M (player 1) removes a first marble") != std::string::npos);
  CHECK(play(s, "M/x d4/") == "");
  CHECK(s->ascii().find("round 1: T (player 2) slides or removes a tray") != std::string::npos);
}

TEST_CASE("Bi-litaire: move generation counts from the start") {
  auto s = std::move(*game().start(""));
  CHECK(game().perft(*s, 1) == 48);
  CHECK(game().perft(*s, 2) == 48 * 16);  // four pushes into each free corner
  // With one empty hole no chain of two exists: the tray player can only end its turn.
  CHECK(game().perft(*s, 3) == 48 * 16);
  // Checked against tests/data/bilitaire/reference.py, written from the rules text alone.
  CHECK(game().perft(*s, 4) == 1984);
  CHECK(game().perft(*s, 5) == 34752);
  CHECK(game().perft(*s, 6) == 34752);
  CHECK(game().perft(*s, 7) == 142176);
}

// The sample record of tests/data/records/bi-litaire, played turn by turn (the record reader's own tests
// read it whole).
TEST_CASE("Bi-litaire: the sample two-round game plays through to 13-12, player 2 winning") {
  std::string text =
      cinq::test::read_text(cinq::test::data_path("records/bi-litaire/sample-two-rounds.txt"));
  std::vector<std::string> turns;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = fold_spaces(std::string_view(text).substr(start, end - start));
    start = end + 1;
    if (line.empty() || line[0] == '#' || line[0] == '>' || line.find(" = ") != std::string::npos) continue;
    // Tokens `M/x`, `c5/`: a turn runs from a token starting with a side letter and `/` to a token ending in
    // `/`.
    std::string turn;
    std::size_t p = line.find(' ') + 1;
    while (p < line.size()) {
      std::size_t q = line.find(' ', p);
      if (q == std::string::npos) q = line.size();
      std::string tok = line.substr(p, q - p);
      turn += (turn.empty() ? "" : " ") + tok;
      if (tok.back() == '/') {
        turns.push_back(turn);
        turn.clear();
      }
      p = q + 1;
    }
  }
  REQUIRE(turns.size() == 2 * 24 + 2 * 28);
  auto s = std::move(*game().start(""));
  for (std::size_t i = 0; i < turns.size(); ++i) {
    INFO("turn " << i << ": " << turns[i]);
    REQUIRE(play(s, turns[i]) == "");
    if (i == 47) CHECK(s->round() == 2);
    if (i < 47) CHECK(s->round() == 1);
  }
  CHECK(s->outcome() == Outcome::win(1, "score", "13-12"));
}
