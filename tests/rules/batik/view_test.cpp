// Batik: what clients and tools see: the view (polygons in frame coordinates, the last fall's frames) and the
// ASCII diagram.
#include <cmath>

#include "tests/rules/batik/helpers.h"

namespace cinq::batik::test {
namespace {

double num(const Value& v) { return v.is_double() ? v.as_double() : static_cast<double>(v.as_int()); }

TEST_CASE(
    "Batik view: the ASCII diagram shows the frame with coordinates, Light in lower case, Dark in upper") {
  auto s = start();
  drop(*s, "SQ 0 0");
  drop(*s, "TL 0 4");
  CHECK(s->ascii() ==
        "Batik, game 1: C to drop\n"
        "   +--------------------------------+\n"
        "   |                                |\n"
        " 9 |                                |\n"
        "   |                                |\n"
        " 8 |................................| rim\n"
        "   |                                |\n"
        " 7 |                                |\n"
        "   |                                |\n"
        " 6 |                                |\n"
        "   |                                |\n"
        " 5 |                                |\n"
        "   |                                |\n"
        " 4 |                                |\n"
        "   |                                |\n"
        " 3 |                                |\n"
        "   |                                |\n"
        " 2 |                                |\n"
        "   |aaaaaaaa               DD       |\n"
        " 1 |aaaaaaaa             DDDDDD     |\n"
        "   |aaaaaaaa           DDDDDDDDDD   |\n"
        " 0 |aaaaaaaa         DDDDDDDDDDDDDD |\n"
        "   +================================+\n"
        "   0   1   2   3   4   5   6   7   8\n"
        "pieces: a=SQ b=TZ c=NR d=TL e=TM f=TS g=PL h=PM i=PS (Light lower case, Dark upper case)\n"
        "C has: TZ NR TL TM TS PL PM PS\n"
        "F has: SQ TZ NR TM TS PL PM PS\n");
}

TEST_CASE("Batik view: every piece's polygon in frame coordinates, with its owner and id") {
  auto s = start();
  drop(*s, "SQ 0 3");
  drop(*s, "NR~ 0 0");
  Value v = s->view();
  CHECK(v.find("game")->as_string() == "batik");
  CHECK(num(*v.find("width")) == 8);
  CHECK(num(*v.find("rim")) == 8);
  CHECK(num(*v.find("tolerance")) == kTolerance);
  CHECK(v.find("to_move")->as_string() == "C");
  CHECK(v.find("round")->as_int() == 1);
  const auto& pieces = v.find("pieces")->as_array();
  REQUIRE(pieces.size() == 2);
  CHECK(pieces[0].find("side")->as_string() == "C");
  CHECK(pieces[0].find("owner")->as_int() == 0);
  CHECK(pieces[0].find("id")->as_string() == "SQ");
  CHECK(pieces[1].find("side")->as_string() == "F");
  CHECK(pieces[1].find("id")->as_string() == "NR");
  CHECK(pieces[1].find("flipped")->as_bool());
  const auto& square = pieces[0].find("polygon")->as_array();
  REQUIRE(square.size() == 4);
  double expected[4][2] = {{3, 0}, {5, 0}, {5, 2}, {3, 2}};
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(num(square[i].as_array()[0]) == doctest::Approx(expected[i][0]).epsilon(0.01));
    CHECK(std::abs(num(square[i].as_array()[1]) - expected[i][1]) < 0.01);
  }
  CHECK(pieces[1].find("polygon")->as_array().size() == 7);  // NR drawn whole, not in parts
  const auto& sides = v.find("sides")->as_array();
  CHECK(sides[0].find("available")->as_array().size() == 8);
  CHECK(sides[1].find("dropped")->as_array()[0].as_string() == "NR");
}

TEST_CASE("Batik view: the last fall, sampled every 1/30 s from the release to rest, for animation") {
  auto s = start();
  drop(*s, "SQ 0 0");
  drop(*s, "TS 0 0.5");  // lands on the square
  Value v = s->view();
  const Value& fall = *v.find("last_fall");
  CHECK(fall.find("side")->as_string() == "F");
  CHECK(fall.find("drop")->as_string() == "TS 0 0.5");
  CHECK(num(*fall.find("interval")) == doctest::Approx(1.0 / 30));
  CHECK_FALSE(fall.find("overflow")->as_bool());
  CHECK(fall.find("pieces")->as_array().size() == 2);
  const auto& moving = fall.find("moving")->as_array();
  REQUIRE(moving.size() >= 1);
  CHECK(moving.back().as_int() == 1);  // the dropped piece; the square may be shaken a little
  const auto& frames = fall.find("frames")->as_array();
  REQUIRE(frames.size() > 10);
  for (const Value& f : frames) CHECK(f.as_array().size() == moving.size());
  // The first frame is the release (lowest point on the rim), the last the resting polygon.
  auto low = [](const Value& polygon) {
    double y = 1e9;
    for (const Value& p : polygon.as_array()) y = std::min(y, num(p.as_array()[1]));
    return y;
  };
  const std::size_t k = moving.size() - 1;
  CHECK(low(frames.front().as_array()[k]) == doctest::Approx(8));
  CHECK(low(frames.back().as_array()[k]) == doctest::Approx(2).epsilon(0.01));
  const Value& end = *fall.find("pieces")->as_array()[1].find("end");
  CHECK(low(end) == doctest::Approx(low(frames.back().as_array()[k])).epsilon(0.001));
  // Before the first drop there is no fall to show.
  CHECK(start()->view().find("last_fall")->is_null());
}

TEST_CASE("Batik view: after a game of a match, the frame is empty and the overflowing fall is still shown") {
  auto s = start();
  for (const char* d : {"SQ 0 0", "SQ 0 0", "TZ 0 0", "TZ 0 0", "TL 0 0"}) drop(*s, d);
  Value v = s->view();
  CHECK(v.find("pieces")->as_array().empty());
  CHECK(v.find("round")->as_int() == 2);
  CHECK(v.find("to_move")->as_string() == "F");
  const auto& games = v.find("games")->as_array();
  REQUIRE(games.size() == 1);
  CHECK(games[0].find("winner")->as_string() == "F");
  CHECK(games[0].find("reason")->as_string() == "overflow");
  const Value& fall = *v.find("last_fall");
  CHECK(fall.find("game")->as_int() == 1);
  CHECK(fall.find("overflow")->as_bool());
  CHECK(fall.find("pieces")->as_array().size() == 5);
  CHECK(v.find("sides")->as_array()[0].find("lost")->as_array()[0].as_string() == "TL");
}

}  // namespace
}  // namespace cinq::batik::test
