// Batik: the end of a game (overflow, no piece left) and the match (rules file, "End of a game", "Match").
#include "tests/rules/batik/helpers.h"

namespace cinq::batik::test {
namespace {

// Two squares then two cut triangles stacked against the left wall: exactly up to the rim.
void stack_to_the_rim(State& s) {
  drop(s, "SQ 0 0");
  drop(s, "SQ 0 0");
  drop(s, "TZ 0 0");
  drop(s, "TZ 0 0");
}

TEST_CASE(
    "Batik end: a stack up to the rim does not overflow, one more piece on it does, and its dropper loses") {
  auto s = start("match=off");
  stack_to_the_rim(*s);
  CHECK_FALSE(s->outcome().over());
  CHECK(highest(frame_of(*s)) == doctest::Approx(8).epsilon(0.01));
  CHECK(highest(frame_of(*s)) <= kRim + kTolerance);
  CHECK(s->to_move() == kLight);
  drop(*s, "TL 0 0");
  CHECK(highest(frame_of(*s)) > kRim + kTolerance);
  CHECK(s->outcome() == Outcome::win(kDark, "overflow"));
  CHECK(s->legal_actions().empty());
  CHECK(s->round() == 1);
  CHECK(last_fall_of(*s)->overflow);
}

TEST_CASE("Batik end: a piece may stick out by the small tolerance, not more") {
  // A column of squares built by hand, its top square resting 0.04 (then 0.06) above the rim; Light drops
  // a small triangle away from it.
  for (double above : {0.04, 0.06}) {
    CAPTURE(above);
    std::vector<Body> frame = {resting(kLight, "SQ", 0, 0), resting(kDark, "SQ", 0, 2),
                               resting(kLight, "TZ", 0, 4), resting(kDark, "SQ", 0, 6 + above)};
    auto s = make_state(false, kLight, frame);
    drop(*s, "TS 0 6");
    CHECK(frame_of(*s)[3].pose == frame[3].pose);  // untouched: it has not moved
    if (above < kTolerance)
      CHECK_FALSE(s->outcome().over());
    else
      CHECK(s->outcome() == Outcome::win(kDark, "overflow"));
  }
}

TEST_CASE("Batik end: the dropper loses whichever piece sticks out, its own or the other side's") {
  // Dark's square already sticks out (a position built by hand); Light drops a triangle far from it and
  // loses.
  std::vector<Body> frame = {resting(kLight, "SQ", 0, 0), resting(kDark, "SQ", 0, 2),
                             resting(kLight, "TZ", 0, 4), resting(kDark, "SQ", 0, 6.5)};
  auto s = make_state(false, kLight, frame);
  drop(*s, "TS 0 6");
  CHECK(s->outcome() == Outcome::win(kDark, "overflow"));
  // A drop that does not overflow passes the turn.
  auto t = start("match=off");
  drop(*t, "TS 0 6");
  CHECK_FALSE(t->outcome().over());
  CHECK(t->to_move() == kDark);
}

TEST_CASE("Batik end: a player who has to drop and has no piece left loses (a single game)") {
  // A frame filled by hand with all of Light's pieces and eight of Dark's (resting, out of the way of the
  // last drop): Dark drops its last piece, then Light has none.
  std::vector<Body> frame;
  for (const char* id : {"SQ", "TZ", "NR", "TL", "TM", "TS", "PL", "PM", "PS"}) {
    frame.push_back(resting(kLight, id, 0, 0));
    if (std::string_view(id) != "TS") frame.push_back(resting(kDark, id, 0, 0));
  }
  auto s = make_state(false, kDark, frame);
  CHECK_FALSE(s->outcome().over());
  REQUIRE(s->legal_actions().size() > 0);
  for (Action a : s->legal_actions()) CHECK(decode(a).piece == piece_index("TS"));
  drop(*s, "TS 0 6");
  CHECK(s->outcome() == Outcome::win(kDark, "exhausted"));
  CHECK(s->legal_actions().empty());
}

TEST_CASE("Batik match: the loser's dropped piece leaves its set, the winner starts the next game") {
  auto s = start();  // a match is the default
  stack_to_the_rim(*s);
  drop(*s, "TL 0 0");  // Light overflows
  CHECK_FALSE(s->outcome().over());
  CHECK(s->round() == 2);
  CHECK(s->round_result(1) == Outcome::win(kDark, "overflow"));
  CHECK_FALSE(s->round_result(2).has_value());
  CHECK(s->to_move() == kDark);        // the winner starts
  CHECK(frame_of(*s).empty());         // a new game: an empty frame
  CHECK(last_fall_of(*s)->game == 1);  // the overflowing fall is still there to show
  CHECK(refusal(*s, "SQ 0 0") == "");  // Dark has all its pieces back
  drop(*s, "SQ 0 0");
  CHECK(refusal(*s, "TL 0 4") == "'TL 0 4': Light lost TL in an earlier game of the match");
  CHECK(refusal(*s, "SQ 0 4") == "");  // Light has its other pieces back
  for (Action a : s->legal_actions()) CHECK(decode(a).piece != piece_index("TL"));
  CHECK(as_batik(*s).lost(kLight) == 1u << piece_index("TL"));
  CHECK(as_batik(*s).lost(kDark) == 0u);
}

TEST_CASE("Batik match: it ends when a player has to drop and has no piece left in this game") {
  // Light has lost every piece but its square in earlier games.
  unsigned all_but_square = ((1u << 9) - 1) & ~1u;
  auto s = make_state(true, kLight, {}, {all_but_square, 0});
  drop(*s, "SQ 0 0");
  CHECK_FALSE(s->outcome().over());
  drop(*s, "TS 0 6");
  CHECK(s->outcome() == Outcome::win(kDark, "exhausted"));
  CHECK(s->legal_actions().empty());
}

TEST_CASE("Batik match: random matches end by exhaustion, each game closed by an overflow") {
  std::mt19937 rng(5);
  for (int m = 0; m < 3; ++m) {
    auto s = start();
    int games = 1;
    while (!s->outcome().over()) {
      Side dropper = s->to_move();
      int round = s->round();
      s->apply(random_drop(*s, rng));
      const LastFall& last = *last_fall_of(*s);
      double high = 0;
      for (std::size_t i = 0; i < last.bodies.size(); ++i)
        high = std::max(high, top(shape_of(last.bodies[i]), last.fall.end[i]));
      CHECK(last.overflow == (high > kRim + kTolerance));
      if (s->round() != round) {  // a game ended by overflow: the dropper lost it
        CHECK(last.overflow);
        CHECK(s->round_result(round) == Outcome::win(other(dropper), "overflow"));
        CHECK(s->to_move() == other(dropper));
        ++games;
      } else if (!s->outcome().over()) {
        CHECK_FALSE(last.overflow);
      }
    }
    CHECK(s->outcome().reason == "exhausted");
    CHECK(as_batik(*s).available(s->to_move()) == 0u);
    CHECK(s->round() == games);
    CHECK(games > 1);
  }
}

TEST_CASE("Batik match: match=off plays a single game, match=on is the default") {
  auto specs = game().option_specs();
  REQUIRE(specs.size() == 1);
  CHECK(specs[0].key == "match");
  CHECK(specs[0].default_value == "on");
  CHECK(as_batik(*start()).match());
  CHECK_FALSE(as_batik(*start("match=off")).match());
  CHECK_FALSE(game().start("match=maybe").ok());
  CHECK(game().has_rounds());
  CHECK(game().board_reasons().size() == 2);
  CHECK(game().board_reasons()[0] == "overflow");
  CHECK(game().board_reasons()[1] == "exhausted");
  CHECK(start()->score() == "");
}

}  // namespace
}  // namespace cinq::batik::test
