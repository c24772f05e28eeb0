// Batik's frame as a Box2D world (docs/rules/batik.md, "A drop"): the only authority on where pieces
// rest. Determinism: a drop builds a fresh world from the stored resting poses, always in the same order,
// with a fixed time step and fixed iteration counts; the same poses and drop give bit-identical results on
// the same build. Resting pieces are rebuilt asleep, their contacts already found, as Box2D leaves a stack
// it put to sleep: a piece the fall does not touch stays exactly where it was (rebuilt awake, every stack
// would sag a little at every drop).
#pragma once

#include <vector>

#include "rules/batik/pieces.h"

namespace cinq::batik {

// Where a body is: its centroid and its angle in radians, as Box2D keeps them (floats: stored and
// restored exactly).
struct Pose {
  float x = 0;
  float y = 0;
  float angle = 0;
  friend bool operator==(const Pose&, const Pose&) = default;
};

// One piece in the frame.
struct Body {
  int owner = 0;  // side
  int piece = 0;  // index in the set
  bool flipped = false;
  Pose pose;
  bool asleep = false;  // at rest when its last fall ended (false only if the cap stopped it moving)
};

constexpr float kTimeStep = 1.0f / 60.0f;  // seconds of simulated time per step
constexpr int kVelocityIterations = 12;
constexpr int kPositionIterations = 4;
constexpr int kMaxSteps = 600;       // the cap: 10 s of simulated time
constexpr int kSampleSteps = 2;      // one animation frame every 1/30 s
constexpr double kTolerance = 0.05;  // how far above the rim a piece may rest without overflowing

// A fall, from the release to rest.
struct Fall {
  std::vector<Pose> start;                // every body as released (the dropped one last)
  std::vector<Pose> end;                  // every body at rest, or at the cap
  std::vector<bool> asleep;               // every body at the end: asleep (all of them, unless the cap hit)
  std::vector<int> moving;                // the bodies that moved, by index
  std::vector<std::vector<Pose>> frames;  // the moving bodies' poses every kSampleSteps steps, start to end
  int steps = 0;                          // steps simulated
  bool at_rest = false;                   // false if the cap stopped it
};

// The pose of a piece released at rest with its lowest point on the rim and the left side of its bounding
// box at `x_eighths` / 8.
Pose release_pose(const Shape& shape, int angle_index, int x_eighths);
// Runs the world made of `bodies` (the new one included, in order) until every body sleeps or `max_steps`.
// Bodies marked asleep start asleep.
Fall simulate(const Shapes& shapes, const std::vector<Body>& bodies, int max_steps = kMaxSteps);
// The piece's outline in frame coordinates.
Polygon outline_at(const Shape& shape, const Pose& pose);
// The highest point of a body.
double top(const Shape& shape, const Pose& pose);

}  // namespace cinq::batik
