// Batik: the piece set of the rules file ("Pieces") and the geometry drawn from it.
#include <box2d/b2_common.h>

#include <cmath>

#include "tests/rules/batik/helpers.h"

namespace cinq::batik::test {
namespace {

bool convex(const Polygon& p) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    Point a = p[i], b = p[(i + 1) % p.size()], c = p[(i + 2) % p.size()];
    if ((b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x) <= 0) return false;
  }
  return true;
}

TEST_CASE("Batik pieces: each set is the rules file's nine pieces, with their vertices and areas") {
  const auto& set = standard_set();
  REQUIRE(set.size() == 9);
  const char* ids[] = {"SQ", "TZ", "NR", "TL", "TM", "TS", "PL", "PM", "PS"};
  const double areas[] = {4, 6, 7, 4, 2, 1, 4, 3, 1};
  double total = 0;
  for (std::size_t i = 0; i < 9; ++i) {
    CHECK(set[i].id == ids[i]);
    CHECK(area(set[i].outline) == areas[i]);
    total += area(set[i].outline);
  }
  CHECK(total == 32);  // one set fills an 8 x 4 rectangle
  // Two vertex lists checked one by one: the non-convex NR and a parallelogram.
  Polygon nr = {{0, 0}, {4, 0}, {4, 2}, {3, 2}, {2, 1}, {1, 2}, {0, 2}};
  REQUIRE(set[2].outline.size() == nr.size());
  for (std::size_t i = 0; i < nr.size(); ++i)
    CHECK((set[2].outline[i].x == nr[i].x && set[2].outline[i].y == nr[i].y));
  Polygon pl = {{0, 0}, {4, 0}, {5, 1}, {1, 1}};
  for (std::size_t i = 0; i < pl.size(); ++i)
    CHECK((set[6].outline[i].x == pl[i].x && set[6].outline[i].y == pl[i].y));
}

TEST_CASE("Batik pieces: NR, the one piece that is not convex, is split into convex parts that cover it") {
  const auto& set = standard_set();
  CHECK_FALSE(convex(set[2].outline));
  REQUIRE(set[2].parts.size() == 2);
  double parts = 0;
  for (const Polygon& p : set[2].parts) {
    CHECK(convex(p));
    parts += area(p);
  }
  CHECK(parts == 7);
  for (std::size_t i = 0; i < set.size(); ++i)
    if (i != 2) CHECK(convex(set[i].outline));
}

TEST_CASE("Batik pieces: a flipped piece is the mirror image of the piece, left to right") {
  // TZ's cut corner is on the right; flipped, it is on the left.
  const Shape& tz = standard_shapes()[1][0];
  const Shape& flipped = standard_shapes()[1][1];
  for (const Point& p : tz.outline) {
    bool found = false;
    for (const Point& q : flipped.outline)
      found = found || (std::abs(q.x + p.x) < 1e-12 && std::abs(q.y - p.y) < 1e-12);
    CHECK(found);
  }
  CHECK(area(flipped.outline) == doctest::Approx(6));  // still counter-clockwise
}

TEST_CASE("Batik pieces: the collision polygons are the outline moved in by Box2D's skin") {
  // A square's only part is 2 - 2 * skin wide: with the skin, it touches others along its outline.
  const Shape& sq = standard_shapes()[0][0];
  REQUIRE(sq.parts.size() == 1);
  Box b = box_of(sq.parts[0]);
  CHECK(b.width() == doctest::Approx(2 - 2 * b2_polygonRadius));
  // NR's inner cut is not moved in: its two halves still meet.
  const Shape& nr = standard_shapes()[2][0];
  CHECK(box_of(nr.parts[0]).max_x == doctest::Approx(box_of(nr.parts[1]).min_x));
}

TEST_CASE("Batik pieces: a position keeps the whole turned piece between the walls, in eighths") {
  const Shapes& shapes = standard_shapes();
  CHECK(shapes[0][0].max_x[0] == 48);  // SQ 0: x up to 6
  CHECK(shapes[0][0].max_x[6] == 48);  // SQ 90: still 2 wide
  CHECK(shapes[0][0].max_x[3] == 41);  // SQ 45: 2.83 wide, x up to 5.125
  CHECK(shapes[6][0].max_x[0] == 24);  // PL 0: 5 wide, x up to 3
  CHECK(shapes[6][0].max_x[6] == 56);  // PL 90: 1 wide, x up to 7
  CHECK(shapes[2][1].max_x[0] == 32);  // NR~ 0: 4 wide
}

TEST_CASE("Batik pieces: another set can be loaded as data") {
  std::vector<PieceSpec> set = {{"U", "unit square", {{0, 0}, {1, 0}, {1, 1}, {0, 1}}, {}}};
  Shapes shapes = make_shapes(set, 0.01);
  REQUIRE(shapes.size() == 1);
  CHECK(shapes[0][0].max_x[0] == 56);
  CHECK(shapes[0][0].outline[0].x == doctest::Approx(-0.5));  // centred on its centroid
}

}  // namespace
}  // namespace cinq::batik::test
