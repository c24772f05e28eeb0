// Batik's physics (docs/rules/batik.md, "A drop"): Box2D 2.4 with fixed constants.
#include "rules/batik/physics.h"

#include <box2d/box2d.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <mutex>

namespace cinq::batik {

namespace {

// The material. The rules ask for friction about 0.5 and little bounce; these are fixed for a version.
constexpr float kGravity = 10.0f;
constexpr float kFriction = 0.5f;
constexpr float kRestitution = 0.1f;
constexpr float kDensity = 1.0f;
constexpr float kWallHeight = 40.0f;  // the side walls go on far above the rim
constexpr float kWallThickness = 2.0f;
// A body has moved when it went further than this from its release pose (units, radians).
constexpr float kMoved = 1e-3f;

// A static box whose surface, skin included, is the given rectangle's inner side.
void add_box(b2Body* ground, float x0, float y0, float x1, float y1) {
  b2PolygonShape box;
  box.SetAsBox((x1 - x0) / 2, (y1 - y0) / 2, b2Vec2((x0 + x1) / 2, (y0 + y1) / 2), 0.0f);
  b2FixtureDef fd;
  fd.shape = &box;
  fd.friction = kFriction;
  fd.restitution = kRestitution;
  ground->CreateFixture(&fd);
}

void add_walls(b2World& world) {
  b2BodyDef bd;  // static
  b2Body* ground = world.CreateBody(&bd);
  const float s = b2_polygonRadius;
  const float w = static_cast<float>(kFrameWidth);
  add_box(ground, -kWallThickness, -kWallThickness, w + kWallThickness, -s);  // floor
  add_box(ground, -kWallThickness, -kWallThickness, -s, kWallHeight);         // left wall
  add_box(ground, w + s, -kWallThickness, w + kWallThickness, kWallHeight);   // right wall
}

b2Body* add_piece(b2World& world, const Shape& shape, const Pose& pose) {
  b2BodyDef bd;
  bd.type = b2_dynamicBody;
  bd.position.Set(pose.x, pose.y);
  bd.angle = pose.angle;
  b2Body* body = world.CreateBody(&bd);
  for (const Polygon& part : shape.parts) {
    b2Vec2 points[b2_maxPolygonVertices];
    assert(part.size() <= b2_maxPolygonVertices);
    int n = 0;
    for (const Point& p : part) points[n++].Set(static_cast<float>(p.x), static_cast<float>(p.y));
    b2PolygonShape polygon;
    polygon.Set(points, n);
    b2FixtureDef fd;
    fd.shape = &polygon;
    fd.density = kDensity;
    fd.friction = kFriction;
    fd.restitution = kRestitution;
    body->CreateFixture(&fd);
  }
  return body;
}

Pose pose_of(const b2Body* body) { return {body->GetPosition().x, body->GetPosition().y, body->GetAngle()}; }

bool moved(const Pose& a, const Pose& b) {
  return std::abs(a.x - b.x) > kMoved || std::abs(a.y - b.y) > kMoved || std::abs(a.angle - b.angle) > kMoved;
}

}  // namespace

Pose release_pose(const Shape& shape, int angle_index, int x_eighths) {
  const Box& box = shape.boxes[static_cast<std::size_t>(angle_index)];
  double x = static_cast<double>(x_eighths) / kEighths - box.min_x;
  double y = kRim - box.min_y;
  return {static_cast<float>(x), static_cast<float>(y), static_cast<float>(angle_radians(angle_index))};
}

Fall simulate(const Shapes& shapes, const std::vector<Body>& bodies, int max_steps) {
  // Box2D 2.4 bumps global statistics counters (b2_gjkCalls, b2_toiCalls...) without a lock: one simulation
  // at a time in the process, so that rooms on several threads stay free of data races.
  static std::mutex box2d_globals;
  std::lock_guard lock(box2d_globals);
  b2World world(b2Vec2(0.0f, -kGravity));
  world.SetAllowSleeping(true);
  world.SetContinuousPhysics(true);
  add_walls(world);
  std::vector<b2Body*> handles;
  handles.reserve(bodies.size());
  for (const Body& b : bodies)
    handles.push_back(add_piece(world, shapes[static_cast<std::size_t>(b.piece)][b.flipped ? 1 : 0], b.pose));

  Fall fall;
  std::vector<std::vector<Pose>> samples;  // every body, every sample
  auto sample = [&] {
    std::vector<Pose> poses;
    poses.reserve(handles.size());
    for (const b2Body* h : handles) poses.push_back(pose_of(h));
    samples.push_back(std::move(poses));
  };
  // Find the contacts (a step of no time solves nothing), then let the resting pieces sleep: touching
  // contacts are kept, so a falling piece wakes a whole stack it hits, as Box2D does.
  world.Step(0.0f, kVelocityIterations, kPositionIterations);
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].asleep) handles[i]->SetAwake(false);
  for (const b2Body* h : handles) fall.start.push_back(pose_of(h));
  sample();
  while (fall.steps < max_steps) {
    world.Step(kTimeStep, kVelocityIterations, kPositionIterations);
    ++fall.steps;
    fall.at_rest = std::none_of(handles.begin(), handles.end(), [](const b2Body* h) { return h->IsAwake(); });
    if (fall.at_rest) break;
    if (fall.steps % kSampleSteps == 0) sample();
  }
  for (const b2Body* h : handles) {
    fall.end.push_back(pose_of(h));
    fall.asleep.push_back(!h->IsAwake());
  }
  if (samples.back() != fall.end) samples.push_back(fall.end);

  for (std::size_t i = 0; i < handles.size(); ++i)
    if (std::any_of(samples.begin(), samples.end(),
                    [&](const auto& s) { return moved(s[i], fall.start[i]); }))
      fall.moving.push_back(static_cast<int>(i));
  for (const auto& s : samples) {
    std::vector<Pose> frame;
    for (int i : fall.moving) frame.push_back(s[static_cast<std::size_t>(i)]);
    fall.frames.push_back(std::move(frame));
  }
  return fall;
}

Polygon outline_at(const Shape& shape, const Pose& pose) {
  return place(shape.outline, pose.x, pose.y, pose.angle);
}

double top(const Shape& shape, const Pose& pose) {
  double y = -1e9;
  for (const Point& p : outline_at(shape, pose)) y = std::max(y, p.y);
  return y;
}

}  // namespace cinq::batik
