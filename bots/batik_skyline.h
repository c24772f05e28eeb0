// A cheap stand-in for Batik's physics (docs/rules/batik.md), for the bot only: the frame's skyline
// (the top of the pieces over each eighth of the width) and where a drop would land if it fell straight down
// onto it, Tetris-like, without sliding or tilting. A real drop is a Box2D simulation of about a millisecond;
// this guess takes microseconds, so the search can rank thousands of drops and spend simulations on the
// few that look sensible. The rules never use it: only apply() decides where a piece rests.
#pragma once

#include <array>
#include <vector>

#include "rules/batik/view.h"

namespace cinq::batik {

constexpr int kColumns = 64;  // kFrameWidth * kEighths: one column per eighth of a unit
using Skyline = std::array<double, kColumns>;

// The height of the highest piece over each column of the frame (0 over the bare floor).
Skyline skyline_of(const std::vector<Body>& frame);

// Where a drop would come to rest falling straight down onto `sky`.
struct Landing {
  double top = 0;    // the highest point of the piece at rest
  double holes = 0;  // the area left empty under the piece (units squared)
};
Landing land(const Skyline& sky, const Drop& drop);

// The lowest `top` any drop of the pieces in `pieces` (a bit mask over the set) can reach on `sky`, over a
// coarse grid of angles and positions; kRim * 2 if `pieces` is empty.
double best_top(const Skyline& sky, unsigned pieces);

}  // namespace cinq::batik
