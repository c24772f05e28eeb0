// Batik's policy for the search (bots/policy.h, docs/rules/batik.md). About 18,000 drops are legal and
// each one is a Box2D simulation of about a millisecond, so the tree never sees the legal list: it sees a
// few dozen drops from a grid of angles (every 45 degrees: the angles that lay some side of every piece
// flat) and positions, ranked by a skyline guess of where they would land (bots/batik_skyline.h), a few
// per piece so that the search still chooses which piece to give up. Playouts are a few drops long, each
// the best-looking of a handful of random drops, then a position is scored by what decides a match: the
// pieces each side has lost for good, whether the side to drop still has room for anything, and who runs
// out of pieces first.
#include <algorithm>
#include <bit>
#include <cmath>

#include "bots/batik_skyline.h"
#include "bots/bot.h"
#include "bots/policy.h"
#include "rules/batik/view.h"

namespace cinq::batik {
namespace {

constexpr int kSetSize = 9;           // pieces in a set (batik.md)
constexpr int kAngleGrid = 3;         // every 3rd angle index: 45 degrees
constexpr int kPositionGrid = 4;      // eighths between two positions of the grid
constexpr int kPerPiece = 4;          // the best drops of each piece the tree considers
constexpr int kMaxCandidates = 24;    // at most this many drops per tree node
constexpr int kRandomCandidates = 3;  // plus a few others from the grid, so no guess is trusted blindly
constexpr int kPlayoutTries = 6;      // random drops looked at for each playout drop
constexpr int kPlayoutDrops = 2;      // a playout is this many drops, then evaluate()
// bots/policy.h. Was 50: with half the playouts, level 3 was not clearly above level 2 (docs/performance.md,
// "Why the levels are what they are").
constexpr double kPlayoutCost = 25;
// Levels 1 to 4 slip (bots/policy.h): they drop one of the three other drops their search visited most, if
// rated within 0.05 of the best, half their turns, level 3 every turn. Level 5's search is bounded by its
// think time and was not clearly above level 4's (57 % over 100 games; 82.5 % over 40 with level 4 slipping).
// The lower levels slip so that each stays above the one below: with levels 1 to 4 slipping alike, 4 against
// 3 fell to 60 % over 100 games (77.5 % before), 66 % with level 3 slipping every turn (docs/performance.md,
// "Why the levels are what they are").
constexpr bots::Policy::Slip kSlips[bots::kMaxLevel + 1] = {
    {}, {0.5, 0.05, 3}, {0.5, 0.05, 3}, {1.0, 0.05, 3}, {0.5, 0.05, 3}, {}};

// How bad a drop looks before it is simulated: the higher it rests and the more room it wastes under
// itself, the sooner the frame overflows.
double cost(const Landing& l) { return l.top + 0.3 * l.holes; }

int max_x(const Drop& d) {
  return standard_shapes()[static_cast<std::size_t>(d.piece)][d.flipped ? 1 : 0]
      .max_x[static_cast<std::size_t>(d.angle)];
}

double logistic(double s) { return 1 / (1 + std::exp(-s)); }

// The area of the pieces of a set in `pieces` (a bit mask).
double area_of(unsigned pieces) {
  static const std::vector<double> areas = [] {
    std::vector<double> v;
    for (const PieceSpec& p : standard_set()) v.push_back(area(p.outline));
    return v;
  }();
  double total = 0;
  for (std::size_t i = 0; i < areas.size(); ++i)
    if (pieces >> i & 1) total += areas[i];
  return total;
}

class BatikPolicy final : public bots::Policy {
 public:
  void candidates(const State& state, bots::Rng& rng, std::vector<Action>& out) const override {
    const State& s = state;
    const unsigned mine = available_of(s, s.to_move());
    const Skyline sky = skyline_of(frame_of(s));
    struct Scored {
      double cost;
      Landing landing;
      Drop drop;
    };
    std::vector<Scored> grid;
    // The grid is shifted by a random offset per node: a node's drops are fixed once it is expanded, but
    // the next position searched sees others.
    const int offset = std::uniform_int_distribution<int>(0, kPositionGrid - 1)(rng);
    for (int piece = 0; piece < kSetSize; ++piece) {
      if (!(mine >> piece & 1)) continue;
      for (int f = 0; f < 2; ++f)
        for (int angle = 0; angle < kAngles; angle += kAngleGrid) {
          Drop d{piece, f == 1, angle, 0};
          const int last = max_x(d);
          for (int x = std::min(offset, last); x <= last; x += kPositionGrid) {
            d.x = x;
            const Landing l = land(sky, d);
            grid.push_back({cost(l), l, d});
          }
        }
    }
    std::stable_sort(grid.begin(), grid.end(),
                     [](const Scored& a, const Scored& b) { return a.cost < b.cost; });
    // Round robin over the pieces, best drops first: which piece to give up now is the real choice (the
    // lowest-resting drops are the small pieces', which a player rather keeps for the last gaps).
    std::array<int, kSetSize> taken{};
    std::vector<bool> used(grid.size(), false);
    std::vector<const Scored*> chosen;
    auto same = [](const Scored& a, const Scored& b) {  // a square turned 90 degrees is the same drop
      return a.drop.piece == b.drop.piece && a.drop.x == b.drop.x && std::abs(a.cost - b.cost) < 1e-6 &&
             std::abs(a.landing.top - b.landing.top) < 1e-6;
    };
    auto take = [&](std::size_t i) {
      used[i] = true;
      if (std::any_of(chosen.begin(), chosen.end(), [&](const Scored* c) { return same(*c, grid[i]); }))
        return;
      chosen.push_back(&grid[i]);
      out.push_back(encode(grid[i].drop));
    };
    for (int round = 0; round < kPerPiece; ++round)
      for (std::size_t i = 0; i < grid.size() && chosen.size() < kMaxCandidates - kRandomCandidates; ++i) {
        int& n = taken[static_cast<std::size_t>(grid[i].drop.piece)];
        if (used[i] || n != round) continue;
        std::size_t before = chosen.size();
        take(i);
        if (chosen.size() > before) ++n;
      }
    for (int k = 0; k < kRandomCandidates; ++k) {
      std::size_t i = std::uniform_int_distribution<std::size_t>(0, grid.size() - 1)(rng);
      for (std::size_t tries = 0; used[i] && tries < grid.size(); ++tries) i = (i + 1) % grid.size();
      if (!used[i]) take(i);
    }
  }

  Action playout_action(const State& state, bots::Rng& rng) const override {
    const State& s = state;
    const unsigned mine = available_of(s, s.to_move());
    const Skyline sky = skyline_of(frame_of(s));
    std::array<int, kSetSize> pieces{};
    int n = 0;
    for (int piece = 0; piece < kSetSize; ++piece)
      if (mine >> piece & 1) pieces[static_cast<std::size_t>(n++)] = piece;
    assert(n > 0);
    Drop best;
    double best_cost = 1e9;
    for (int t = 0; t < kPlayoutTries; ++t) {
      Drop d;
      d.piece = pieces[std::uniform_int_distribution<std::size_t>(0, static_cast<std::size_t>(n - 1))(rng)];
      d.flipped = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
      // Mostly the flat angles, sometimes any: a player does not only lay pieces flat.
      const bool flat = std::uniform_int_distribution<int>(0, 4)(rng) != 0;
      d.angle = flat ? kAngleGrid * std::uniform_int_distribution<int>(0, kAngles / kAngleGrid - 1)(rng)
                     : std::uniform_int_distribution<int>(0, kAngles - 1)(rng);
      d.x = std::uniform_int_distribution<int>(0, max_x(d))(rng);
      double c = cost(land(sky, d));
      if (c < best_cost) {
        best_cost = c;
        best = d;
      }
    }
    return encode(best);
  }

  int playout_limit() const override { return kPlayoutDrops; }
  bool keep_states() const override { return true; }
  // Best first (the round robin above; the random ones last): progressive widening follows that order.
  bool ordered_candidates() const override { return true; }
  // A playout is two simulated drops (Box2D), some 800 to 1,600 a second against Baltek's 17,000: it
  // counts as 25 (kPlayoutCost).
  double playout_cost() const override { return kPlayoutCost; }
  Slip slip(int level, int /*seat*/) const override {
    return kSlips[std::clamp(level, 0, bots::kMaxLevel)];
  }

  double evaluate(const State& state, int seat) const override {
    const State& s = state;
    const Outcome o = s.outcome();
    if (o.over()) return o.kind == Outcome::Kind::win ? (o.winner == seat ? 1.0 : 0.0) : 0.5;
    const Side me = seat;  // seats are sides in Batik
    const Side mover = s.to_move();
    const double sign = mover == me ? 1 : -1;  // turns the mover's terms into mine
    // The pieces lost for good: each one is a drop fewer before running out.
    const double lost = std::popcount(lost_of(s, other(me))) - std::popcount(lost_of(s, me));
    // Room: if even the mover's best-looking drop would rest above the rim, the mover is about to lose
    // this game (and a piece).
    const Skyline sky = skyline_of(frame_of(s));
    const double margin = kRim + kTolerance - best_top(sky, available_of(s, mover));
    const double danger = logistic(-margin / 0.4);
    // Running out: with no overflow, the mover runs out first iff it has no more pieces than the other.
    // That decides once what is left to drop fits easily in the room left under the rim.
    const int a = std::popcount(available_of(s, mover)), b = std::popcount(available_of(s, other(mover)));
    double room = kRim * kFrameWidth;
    for (double h : sky) room -= h / kEighths;
    const double to_drop = area_of(available_of(s, mover)) + area_of(available_of(s, other(mover)));
    const double exhaustion = (a <= b ? -1.0 : 1.0) * logistic((room - 1.4 * to_drop) / 3);
    // Losing a game costs a piece in a match, and everything in a single game.
    const double game = is_match(s) ? 1.2 : 3.0;
    return logistic(lost + sign * (-game * danger + 3 * exhaustion));
  }
};

}  // namespace
}  // namespace cinq::batik

namespace cinq::bots {

const Policy& batik_policy() {
  static const batik::BatikPolicy policy;
  return policy;
}

}  // namespace cinq::bots
