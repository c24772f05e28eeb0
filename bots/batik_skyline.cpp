// Batik's skyline guess for the bot (bots/batik_skyline.h).
#include "bots/batik_skyline.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rules/batik/view.h"

namespace cinq::batik {

namespace {

constexpr double kNoHit = std::numeric_limits<double>::infinity();

// Where the vertical line at `x` crosses a polygon: its lowest and highest crossing (kNoHit / -kNoHit when
// it misses). Works for the one non-convex piece too: its outline is crossed at most four times.
std::pair<double, double> crossing(const Polygon& p, double x) {
  double low = kNoHit, high = -kNoHit;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Point& a = p[i];
    const Point& b = p[(i + 1) % p.size()];
    if ((x < a.x && x < b.x) || (x > a.x && x > b.x)) continue;
    double y = a.x == b.x ? std::min(a.y, b.y) : a.y + (x - a.x) * (b.y - a.y) / (b.x - a.x);
    double y2 = a.x == b.x ? std::max(a.y, b.y) : y;
    low = std::min(low, y);
    high = std::max(high, y2);
  }
  return {low, high};
}

// One face of one piece turned one way, seen from below: over each column it covers (from the left side
// of its bounding box), how high its underside is above the box's bottom.
struct Profile {
  std::vector<double> bottom;
  double height = 0;
};

using Profiles = std::vector<std::array<std::array<Profile, kAngles>, 2>>;

Profile make_profile(const Shape& shape, int angle) {
  const Box& box = shape.boxes[static_cast<std::size_t>(angle)];
  Polygon p = place(shape.outline, -box.min_x, -box.min_y, angle_radians(angle));
  Profile out;
  out.height = box.max_y - box.min_y;
  const double w = box.width();
  const int n = std::max(1, static_cast<int>(std::ceil(w * kEighths - 1e-6)));
  for (int i = 0; i < n; ++i) {
    double x = std::min((i + 0.5) / kEighths, w - 1e-6);
    double low = crossing(p, x).first;
    out.bottom.push_back(low == kNoHit ? 0 : low);
  }
  return out;
}

// Computed once for the whole process (a function-local static: thread-safe initialisation).
const Profiles& profiles() {
  static const Profiles all = [] {
    const Shapes& shapes = standard_shapes();
    Profiles p(shapes.size());
    for (std::size_t piece = 0; piece < shapes.size(); ++piece)
      for (std::size_t f = 0; f < 2; ++f)
        for (int a = 0; a < kAngles; ++a)
          p[piece][f][static_cast<std::size_t>(a)] = make_profile(shapes[piece][f], a);
    return p;
  }();
  return all;
}

}  // namespace

Skyline skyline_of(const std::vector<Body>& frame) {
  Skyline sky{};
  const Shapes& shapes = standard_shapes();
  for (const Body& b : frame) {
    Polygon p = outline_at(shapes[static_cast<std::size_t>(b.piece)][b.flipped ? 1 : 0], b.pose);
    double min_x = kNoHit, max_x = -kNoHit;
    for (const Point& q : p) {
      min_x = std::min(min_x, q.x);
      max_x = std::max(max_x, q.x);
    }
    int first = std::max(0, static_cast<int>(std::floor(min_x * kEighths)));
    int last = std::min(kColumns - 1, static_cast<int>(std::ceil(max_x * kEighths)));
    for (int c = first; c <= last; ++c) {
      double high = crossing(p, (c + 0.5) / kEighths).second;
      if (high > sky[static_cast<std::size_t>(c)]) sky[static_cast<std::size_t>(c)] = high;
    }
  }
  return sky;
}

Landing land(const Skyline& sky, const Drop& drop) {
  const Profile& pr = profiles()[static_cast<std::size_t>(drop.piece)][drop.flipped ? 1 : 0]
                                [static_cast<std::size_t>(drop.angle)];
  const int n = std::min(static_cast<int>(pr.bottom.size()), kColumns - drop.x);
  double rest = 0;
  for (int i = 0; i < n; ++i)
    rest = std::max(rest, sky[static_cast<std::size_t>(drop.x + i)] - pr.bottom[static_cast<std::size_t>(i)]);
  double holes = 0;
  for (int i = 0; i < n; ++i)
    holes += rest + pr.bottom[static_cast<std::size_t>(i)] - sky[static_cast<std::size_t>(drop.x + i)];
  return {rest + pr.height, holes / kEighths};
}

double best_top(const Skyline& sky, unsigned pieces) {
  const Shapes& shapes = standard_shapes();
  double best = kRim * 2;
  for (int piece = 0; piece < static_cast<int>(shapes.size()); ++piece) {
    if (!(pieces >> piece & 1)) continue;
    for (int f = 0; f < 2; ++f)
      for (int angle = 0; angle < kAngles; angle += 3) {
        const int max_x = shapes[static_cast<std::size_t>(piece)][static_cast<std::size_t>(f)]
                              .max_x[static_cast<std::size_t>(angle)];
        for (int x = 0;; x = std::min(x + 2, max_x)) {  // every quarter unit, and against the right wall
          best = std::min(best, land(sky, {piece, f == 1, angle, x}).top);
          if (x == max_x) break;
        }
      }
  }
  return best;
}

}  // namespace cinq::batik
