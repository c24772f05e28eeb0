// Batik test helpers: starting games, dropping by text, looking at where pieces rest.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>

#include "rules/batik/batik.h"
#include "rules/batik/state.h"

namespace cinq::batik::test {

constexpr Side kLight = 0;
constexpr Side kDark = 1;

inline std::unique_ptr<State> start(std::string_view options = "") {
  auto s = game().start(options);
  REQUIRE(s.ok());
  return std::move(*s);
}

// Reads a drop as a record would and plays it.
inline void drop(State& s, std::string_view text) {
  auto item = s.read_item(text, {});
  REQUIRE_MESSAGE(item.ok(), text, ": ", (item.ok() ? "" : item.error().message));
  REQUIRE(s.is_legal(item->action));
  s.apply(item->action);
}

// Why a drop is refused ("" if it is not).
inline std::string refusal(const State& s, std::string_view text) {
  auto item = s.read_item(text, {});
  return item.ok() ? "" : item.error().message;
}

inline const Shape& shape_of(const Body& b) {
  return standard_shapes()[static_cast<std::size_t>(b.piece)][b.flipped ? 1 : 0];
}

// The resting outline of the i-th piece dropped in this game.
inline Polygon outline(const State& s, std::size_t i) {
  const Body& b = frame_of(s).at(i);
  return outline_at(shape_of(b), b.pose);
}

inline Box box_of(const Polygon& p) {
  Box b{p[0].x, p[0].y, p[0].x, p[0].y};
  for (const Point& q : p) {
    b.min_x = std::min(b.min_x, q.x);
    b.min_y = std::min(b.min_y, q.y);
    b.max_x = std::max(b.max_x, q.x);
    b.max_y = std::max(b.max_y, q.y);
  }
  return b;
}

// The highest point of any piece in the frame.
inline double highest(const std::vector<Body>& frame) {
  double y = 0;
  for (const Body& b : frame) y = std::max(y, top(shape_of(b), b.pose));
  return y;
}

// A piece resting in place (asleep), its bounding box's lower-left corner at (x, y), unturned.
inline Body resting(Side owner, std::string_view id, double x, double y) {
  int piece = piece_index(id);
  const Shape& shape = standard_shapes()[static_cast<std::size_t>(piece)][0];
  Body b{owner, piece, false, {}, true};
  b.pose = {static_cast<float>(x - shape.boxes[0].min_x), static_cast<float>(y - shape.boxes[0].min_y), 0.0f};
  return b;
}

// A random legal drop.
inline Action random_drop(const State& s, std::mt19937& rng) {
  auto legal = s.legal_actions();
  REQUIRE(!legal.empty());
  return legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
}

}  // namespace cinq::batik::test
