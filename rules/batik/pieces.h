// Batik's piece set and its geometry (docs/rules/batik.md, "Pieces"): the set is data, so that another
// set can be loaded; everything the engine needs (outlines, convex parts, bounding boxes per rotation) is
// derived from it here.
#pragma once

#include <array>
#include <string_view>
#include <vector>

namespace cinq::batik {

struct Point {
  double x = 0;
  double y = 0;
};
using Polygon = std::vector<Point>;  // counter-clockwise

// One piece as the rules file gives it: vertices in units, before rotation, and its convex parts (a convex
// piece is its own single part; Box2D only takes convex polygons).
struct PieceSpec {
  std::string_view id;  // the notation's id: SQ, TZ, ...
  std::string_view name;
  Polygon outline;
  std::vector<Polygon> parts;
};

// The nine pieces of one set, in the rules file's order (which is also the order of legal actions).
const std::vector<PieceSpec>& standard_set();

constexpr int kAngles = 24;        // rotations: multiples of 15 degrees
constexpr int kAngleStep = 15;     // degrees
constexpr double kFrameWidth = 8;  // units
constexpr double kRim = 8;         // the rim's height
constexpr int kEighths = 8;        // positions are multiples of 1/8 unit

// A box around a rotated outline, relative to the piece's centroid.
struct Box {
  double min_x = 0, min_y = 0, max_x = 0, max_y = 0;
  double width() const { return max_x - min_x; }
};

// One piece, one face up, in body coordinates: the origin is the outline's centroid.
struct Shape {
  Polygon outline;             // the piece as drawn and as judged for overflow
  std::vector<Polygon> parts;  // for collision: shrunk by Box2D's skin on the outline's edges, so that
                               // skin included, pieces touch along their true outlines
  std::array<Box, kAngles> boxes;
  std::array<int, kAngles> max_x;  // the largest left position in eighths that keeps the piece in the walls
};

// Every piece of a set, both faces: shapes()[piece][flipped].
using Shapes = std::vector<std::array<Shape, 2>>;
// Derives the shapes of a set; `skin` is the collision margin Box2D adds around polygons.
Shapes make_shapes(const std::vector<PieceSpec>& set, double skin);
// The shapes of the standard set with Box2D's skin.
const Shapes& standard_shapes();

// Angle index (0..23) to radians, counter-clockwise.
double angle_radians(int angle_index);
// `outline` turned by `angle` radians then moved by (x, y).
Polygon place(const Polygon& outline, double x, double y, double angle);
// The area of a counter-clockwise polygon.
double area(const Polygon& p);

}  // namespace cinq::batik
