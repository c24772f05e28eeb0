// Batik: a drop (rules file, "A drop"): what may be dropped, how it is written and read, how it falls.
#include <cmath>

#include "rules/notation.h"
#include "tests/rules/batik/helpers.h"

namespace cinq::batik::test {
namespace {

TEST_CASE("Batik drops: Light starts, and a turn is one drop that ends the turn by itself") {
  auto s = start();
  CHECK(s->to_move() == kLight);
  CHECK_FALSE(s->mid_turn());
  drop(*s, "SQ 0 0");
  CHECK(s->to_move() == kDark);
  CHECK_FALSE(s->mid_turn());
  CHECK_FALSE(s->outcome().over());
  CHECK(game().side_letter(kLight) == 'C');
  CHECK(game().side_letter(kDark) == 'F');
  CHECK(game().name() == "batik");
  CHECK(game().record_name() == "BATIK");
}

TEST_CASE(
    "Batik drops: every piece not yet dropped, 24 rotations, both faces, every eighth between the walls") {
  auto s = start();
  auto legal = s->legal_actions();
  std::size_t expected = 0;
  for (const auto& faces : standard_shapes())
    for (const Shape& shape : faces)
      for (int max_x : shape.max_x) expected += static_cast<std::size_t>(max_x) + 1;
  CHECK(legal.size() == expected);
  CHECK(legal.size() == 18660);
  CHECK(std::find(legal.begin(), legal.end(), encode({0, false, 0, 48})) != legal.end());  // SQ 0 6
  CHECK(std::find(legal.begin(), legal.end(), encode({0, false, 0, 49})) == legal.end());  // SQ 0 6.125
  CHECK(std::find(legal.begin(), legal.end(), Action::end_turn()) == legal.end());         // no passing
  for (std::size_t i = 0; i < legal.size(); i += 997)
    CHECK(s->read_item(s->action_text(legal[i]), {})->action == legal[i]);
}

TEST_CASE("Batik drops: a drop is written PIECE[~] ANGLE X, x as the shortest decimal") {
  CHECK(drop_text({3, false, 3, 26}) == "TL 45 3.25");
  CHECK(drop_text({2, true, 6, 0}) == "NR~ 90 0");
  CHECK(drop_text({5, false, 23, 17}) == "TS 345 2.125");
  CHECK(drop_text({8, false, 0, 4}) == "PS 0 0.5");
  CHECK(drop_text({0, false, 0, 48}) == "SQ 0 6");
  auto s = start();
  CHECK(s->action_text(encode({3, false, 3, 26})) == "TL 45 3.25");
  CHECK(s->read_item("TL 45 3.25", {})->action == encode({3, false, 3, 26}));
  CHECK(s->read_item("NR~ 90 0", {})->action == encode({2, true, 6, 0}));
  CHECK(decode(encode({7, true, 23, 56})) == Drop{7, true, 23, 56});
}

TEST_CASE("Batik drops: other spellings of the same numbers are read, and written back canonically") {
  auto s = start();
  Action a = encode({3, false, 3, 26});
  CHECK(s->read_item("TL 45 3.250", {})->action == a);
  CHECK(s->read_item("TL 045 03.25", {})->action == a);
  CHECK(s->read_item("TL  45   3.25", {})->action == a);
  CHECK(s->read_item("SQ 0 6.000", {})->action == encode({0, false, 0, 48}));
}

TEST_CASE("Batik drops: the rotation is a multiple of 15 degrees from 0 to 345") {
  auto s = start();
  CHECK(refusal(*s, "TL 345 0") == "");
  CHECK(refusal(*s, "TL 50 0") == "'TL 50 0': the rotation 50 is not a multiple of 15 degrees");
  CHECK(refusal(*s, "TL 360 0") == "'TL 360 0': the rotation 360 is out of range (0 to 345)");
  CHECK(refusal(*s, "TL -15 0") == "'TL -15 0': the rotation '-15' is not a whole number of degrees");
  CHECK(refusal(*s, "TL 45.0 0") == "'TL 45.0 0': the rotation '45.0' is not a whole number of degrees");
}

TEST_CASE("Batik drops: the position is a multiple of 1/8, written as a decimal") {
  auto s = start();
  CHECK(refusal(*s, "TL 0 0.125") == "");
  CHECK(refusal(*s, "TL 0 0.1") == "'TL 0 0.1': the position 0.1 is not a multiple of 1/8");
  CHECK(refusal(*s, "TL 0 0.0625") == "'TL 0 0.0625': the position 0.0625 is not a multiple of 1/8");
  CHECK(refusal(*s, "TL 0 1/8") == "'TL 0 1/8': the position '1/8' is not a decimal number");
  CHECK(refusal(*s, "TL 0 .5") == "'TL 0 .5': the position '.5' is not a decimal number");
  CHECK(refusal(*s, "TL 0 3.") == "'TL 0 3.': the position '3.' is not a decimal number");
}

TEST_CASE("Batik drops: the whole turned piece lies between the walls") {
  auto s = start();
  CHECK(refusal(*s, "SQ 0 6") == "");
  CHECK(refusal(*s, "SQ 0 6.125") ==
        "'SQ 0 6.125': the piece would stick out of the right wall (x from 0 to 6 for SQ 0)");
  CHECK(refusal(*s, "SQ 45 5.25") ==
        "'SQ 45 5.25': the piece would stick out of the right wall (x from 0 to 5.125 for SQ 45)");
  CHECK(refusal(*s, "PL 90 7") == "");
  CHECK(refusal(*s, "PL 0 7") ==
        "'PL 0 7': the piece would stick out of the right wall (x from 0 to 3 for PL 0)");
  CHECK(refusal(*s, "SQ 0 -1") ==
        "'SQ 0 -1': the piece would stick out of the left wall (x from 0 to 6 for SQ 0)");
  CHECK(refusal(*s, "SQ 0 123456") != "");
}

TEST_CASE("Batik drops: the piece is one of the nine, written in upper case, flipped with ~") {
  auto s = start();
  CHECK(refusal(*s, "XX 0 0") == "'XX 0 0': unknown piece 'XX' (pieces: SQ TZ NR TL TM TS PL PM PS)");
  CHECK(refusal(*s, "tl 0 0") == "'tl 0 0': unknown piece 'tl' (pieces: SQ TZ NR TL TM TS PL PM PS)");
  CHECK(refusal(*s, "TL- 0 0") != "");
  CHECK(refusal(*s, "TL 0") == "'TL 0': a drop is PIECE[~] ANGLE X, e.g. TL 45 3.25 or NR~ 90 0");
  CHECK(refusal(*s, "TL 0 0 0") != "");
  CHECK(refusal(*s, "TL~ 0 0") == "");
}

TEST_CASE("Batik drops: a piece already dropped cannot be dropped again, the other side's one can") {
  auto s = start();
  drop(*s, "SQ 0 0");
  CHECK(refusal(*s, "SQ 0 4") == "");  // Dark's own square
  drop(*s, "SQ 0 4");
  CHECK(refusal(*s, "SQ 0 0") == "'SQ 0 0': Light's SQ is already in the frame");
  CHECK(refusal(*s, "SQ~ 90 2") == "'SQ~ 90 2': Light's SQ is already in the frame");
  for (Action a : s->legal_actions()) CHECK(decode(a).piece != 0);
}

TEST_CASE("Batik drops: a drop by the side not to move is refused") {
  Record r = Record::start(game(), *Options::parse(game().option_specs(), {}));
  auto bad = r.play_turn("F/SQ 0 0/");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("C's turn") != std::string::npos);
  CHECK(r.play_turn("C/SQ 0 0/").ok());
  CHECK_FALSE(r.play_turn("C/TL 0 4/").ok());
  auto read = Record::read("#! BATIK\n1 C/SQ 0 0/ C/TL 0 4/\n");
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().line == 2);
}

TEST_CASE(
    "Batik drops: the piece is released at rest, its lowest point on the rim, its box's left side at x") {
  auto s = start();
  drop(*s, "TL 45 3.25");
  const LastFall* fall = last_fall_of(*s);
  REQUIRE(fall != nullptr);
  const Body& b = fall->bodies.back();
  Box released = box_of(outline_at(shape_of(b), fall->fall.start.back()));
  CHECK(released.min_y == doctest::Approx(8).epsilon(1e-6));
  CHECK(released.min_x == doctest::Approx(3.25).epsilon(1e-6));
  CHECK(fall->fall.start.back().angle == doctest::Approx(std::acos(-1) / 4));
  // At rest: the first animation frame after the release has barely moved (no push, only gravity).
  REQUIRE(fall->fall.frames.size() > 2);
  CHECK(fall->fall.frames[1][0].y < fall->fall.frames[0][0].y);
  CHECK(fall->fall.frames[0][0].y - fall->fall.frames[1][0].y < 0.03);
  CHECK(fall->fall.frames[1][0].x == fall->fall.frames[0][0].x);
}

TEST_CASE("Batik drops: a piece falls straight down onto the floor, or onto the pieces under it") {
  // x from the left wall, y up from the floor.
  auto s = start();
  drop(*s, "SQ 0 3");
  Box first = box_of(outline(*s, 0));
  CHECK(first.min_x == doctest::Approx(3).epsilon(0.005));
  CHECK(first.min_y == doctest::Approx(0).scale(1).epsilon(0.01));
  CHECK(first.max_y == doctest::Approx(2).epsilon(0.005));
  drop(*s, "SQ 0 3");
  Box second = box_of(outline(*s, 1));
  CHECK(second.min_y == doctest::Approx(2).epsilon(0.01));
  CHECK(second.min_x == doctest::Approx(3).epsilon(0.005));
}

TEST_CASE("Batik drops: the walls keep every piece in the frame") {
  // A long bar dropped tilted against a wall slides down it and stays inside.
  auto s = start("match=off");
  drop(*s, "PL 60 0");
  drop(*s, "PL~ 300 5.5");
  for (std::size_t i = 0; i < 2; ++i) {
    Box b = box_of(outline(*s, i));
    CHECK(b.min_x > -0.02);
    CHECK(b.max_x < 8.02);
    CHECK(b.min_y > -0.02);
  }
}

TEST_CASE("Batik drops: the simulation runs until every piece is at rest, or until the cap") {
  auto s = start();
  drop(*s, "NR 0 2");
  const Fall& fall = last_fall_of(*s)->fall;
  CHECK(fall.at_rest);
  CHECK(fall.steps < kMaxSteps);
  CHECK(frame_of(*s)[0].asleep);
  // With a cap of half a second the same piece is stopped in the air.
  Body b = last_fall_of(*s)->bodies.back();
  Fall capped = simulate(standard_shapes(), {b}, 30);
  CHECK_FALSE(capped.at_rest);
  CHECK(capped.steps == 30);
  CHECK_FALSE(capped.asleep[0]);  // still moving: the next drop rebuilds it awake
  CHECK(top(shape_of(b), capped.end[0]) > 5);
  CHECK(kMaxSteps * kTimeStep == doctest::Approx(10));
}

}  // namespace
}  // namespace cinq::batik::test
