// Batik's pieces (docs/rules/batik.md, "Pieces"): the set as data and the geometry derived from it.
#include "rules/batik/pieces.h"

#include <box2d/b2_common.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

namespace cinq::batik {

const std::vector<PieceSpec>& standard_set() {
  // The rules file's table. NR is the only non-convex piece: cut at x = 2 into two convex halves.
  static const std::vector<PieceSpec> set = {
      {"SQ", "square", {{0, 0}, {2, 0}, {2, 2}, {0, 2}}, {}},
      {"TZ", "triangle with a corner cut off", {{0, 0}, {4, 0}, {2, 2}, {0, 2}}, {}},
      {"NR",
       "rectangle with a triangle cut out",
       {{0, 0}, {4, 0}, {4, 2}, {3, 2}, {2, 1}, {1, 2}, {0, 2}},
       {{{0, 0}, {2, 0}, {2, 1}, {1, 2}, {0, 2}}, {{2, 0}, {4, 0}, {4, 2}, {3, 2}, {2, 1}}}},
      {"TL", "large triangle", {{0, 0}, {4, 0}, {2, 2}}, {}},
      {"TM", "medium triangle", {{0, 0}, {2, 0}, {0, 2}}, {}},
      {"TS", "small triangle", {{0, 0}, {2, 0}, {1, 1}}, {}},
      {"PL", "long parallelogram", {{0, 0}, {4, 0}, {5, 1}, {1, 1}}, {}},
      {"PM", "medium parallelogram", {{0, 0}, {3, 0}, {4, 1}, {1, 1}}, {}},
      {"PS", "small parallelogram", {{0, 0}, {1, 0}, {2, 1}, {1, 1}}, {}},
  };
  return set;
}

double area(const Polygon& p) {
  double a = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Point& u = p[i];
    const Point& v = p[(i + 1) % p.size()];
    a += u.x * v.y - v.x * u.y;
  }
  return a / 2;
}

double angle_radians(int angle_index) { return angle_index * std::numbers::pi / 12; }

Polygon place(const Polygon& outline, double x, double y, double angle) {
  double c = std::cos(angle), s = std::sin(angle);
  Polygon out;
  out.reserve(outline.size());
  for (const Point& p : outline) out.push_back({x + c * p.x - s * p.y, y + s * p.x + c * p.y});
  return out;
}

namespace {

Point centroid(const Polygon& p) {
  double a = 0, cx = 0, cy = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Point& u = p[i];
    const Point& v = p[(i + 1) % p.size()];
    double cross = u.x * v.y - v.x * u.y;
    a += cross;
    cx += (u.x + v.x) * cross;
    cy += (u.y + v.y) * cross;
  }
  return {cx / (3 * a), cy / (3 * a)};
}

// Mirrored left-right, still counter-clockwise.
Polygon mirror(const Polygon& p) {
  Polygon out;
  for (auto it = p.rbegin(); it != p.rend(); ++it) out.push_back({-it->x, it->y});
  return out;
}

Polygon moved(const Polygon& p, Point by) {
  Polygon out;
  for (const Point& q : p) out.push_back({q.x + by.x, q.y + by.y});
  return out;
}

bool same(Point a, Point b) { return a.x == b.x && a.y == b.y; }

// True if edge a->b of one part is shared with another part (walked b->a there): an inner cut, not on the
// piece's outline.
bool inner_edge(const std::vector<Polygon>& parts, std::size_t self, Point a, Point b) {
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k == self) continue;
    const Polygon& q = parts[k];
    for (std::size_t i = 0; i < q.size(); ++i)
      if (same(q[i], b) && same(q[(i + 1) % q.size()], a)) return true;
  }
  return false;
}

// Moves each outline edge of a convex part inward by `skin` (inner cuts stay), by intersecting the moved
// edge lines of each corner.
Polygon shrink(const std::vector<Polygon>& parts, std::size_t self, double skin) {
  const Polygon& p = parts[self];
  std::size_t n = p.size();
  struct Line {
    double nx, ny, c;  // inward normal and offset: nx*x + ny*y = c
  };
  std::vector<Line> lines;
  for (std::size_t i = 0; i < n; ++i) {
    Point a = p[i], b = p[(i + 1) % n];
    double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
    double nx = -dy / len, ny = dx / len;  // left of a->b: inside, for a counter-clockwise polygon
    double d = inner_edge(parts, self, a, b) ? 0 : skin;
    lines.push_back({nx, ny, nx * a.x + ny * a.y + d});
  }
  Polygon out;
  for (std::size_t i = 0; i < n; ++i) {
    const Line& l1 = lines[(i + n - 1) % n];  // the edge ending at vertex i
    const Line& l2 = lines[i];                // the edge starting at vertex i
    double det = l1.nx * l2.ny - l1.ny * l2.nx;
    assert(std::abs(det) > 1e-9 && "parts must have no straight corners");
    out.push_back({(l1.c * l2.ny - l1.ny * l2.c) / det, (l1.nx * l2.c - l1.c * l2.nx) / det});
  }
  return out;
}

Shape make_shape(const Polygon& outline, std::vector<Polygon> parts, double skin) {
  if (parts.empty()) parts.push_back(outline);
  Point c = centroid(outline);
  Shape s;
  s.outline = moved(outline, {-c.x, -c.y});
  for (auto& part : parts) part = moved(part, {-c.x, -c.y});
  for (std::size_t i = 0; i < parts.size(); ++i) s.parts.push_back(shrink(parts, i, skin));
  for (int k = 0; k < kAngles; ++k) {
    Polygon turned = place(s.outline, 0, 0, angle_radians(k));
    Box& b = s.boxes[static_cast<std::size_t>(k)];
    b = {turned[0].x, turned[0].y, turned[0].x, turned[0].y};
    for (const Point& q : turned) {
      b.min_x = std::min(b.min_x, q.x);
      b.min_y = std::min(b.min_y, q.y);
      b.max_x = std::max(b.max_x, q.x);
      b.max_y = std::max(b.max_y, q.y);
    }
    // The epsilon absorbs rounding in sin/cos: a square turned 90 degrees is still 2 wide.
    s.max_x[static_cast<std::size_t>(k)] =
        static_cast<int>(std::floor((kFrameWidth - b.width()) * kEighths + 1e-6));
  }
  return s;
}

}  // namespace

Shapes make_shapes(const std::vector<PieceSpec>& set, double skin) {
  Shapes shapes;
  for (const PieceSpec& spec : set) {
    std::vector<Polygon> mirrored_parts;
    for (const Polygon& part : spec.parts) mirrored_parts.push_back(mirror(part));
    shapes.push_back(
        {make_shape(spec.outline, spec.parts, skin), make_shape(mirror(spec.outline), mirrored_parts, skin)});
  }
  return shapes;
}

const Shapes& standard_shapes() {
  static const Shapes shapes = make_shapes(standard_set(), b2_polygonRadius);
  return shapes;
}

}  // namespace cinq::batik
