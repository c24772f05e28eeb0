// Tablut's policy for the search (bots/policy.h, docs/rules/tablut.md). Uniform random playouts last
// some 300 moves and are mostly won by a king that wanders into a corner past attackers who never block
// it, so they say little about a position. Playouts here play the obvious moves (the king's escape to a
// corner, the block of an open line to a corner, the king's capture, and usually a capture), stop after
// kPlayoutLimit moves and score the position by material and the king's way to the corners.
#include <algorithm>
#include <cmath>

#include "bots/games.h"
#include "rules/tablut/state.h"

namespace cinq::tablut {
namespace {

constexpr int kPlayoutLimit = 60;
// How often a playout takes a capture when one is on offer (always would make playouts predictable).
constexpr double kCaptureBias = 0.8;
constexpr int kDirections[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};

int at_or_none(const Board& b, int c, int r) {
  return c < 0 || c >= kSize || r < 0 || r >= kSize ? -1 : b.at(r * kSize + c);
}

// Hostile to a piece of `side` for a capture: an enemy, a corner, or the empty special throne.
bool hostile(const Board& b, int sq, int side) {
  const std::uint8_t p = b.at(sq);
  if (is_corner(sq)) return true;
  if (sq == kThrone && p == kEmpty && b.rules().special_throne) return true;
  if (side == 1) return p == kAttacker;  // attackers capture defenders
  return p == kDefender || (p == kKing && b.rules().armed_king);
}

// Whether moving to `to` takes a soldier (the king's capture is looked for apart).
bool captures(const Board& b, Move m) {
  const std::uint8_t piece = b.at(m.from);
  if (piece == kKing && !b.rules().armed_king) return false;
  const int side = b.side();
  const int c = column(m.to), r = row(m.to);
  for (const auto& d : kDirections) {
    const int n = at_or_none(b, c + d[0], r + d[1]);
    const bool enemy = side == 0 ? n == kDefender : n == kAttacker;
    if (!enemy) continue;
    const int fc = c + 2 * d[0], fr = r + 2 * d[1];
    if (fc < 0 || fc >= kSize || fr < 0 || fr >= kSize) continue;
    const int far = fr * kSize + fc;
    if (far != m.from && hostile(b, far, 1 - side)) return true;
  }
  return false;
}

// The squares between the king and a corner it could reach next move (empty lines along an edge).
int escape_lanes(const Board& b, bool lane[kSquares]) {
  const int k = b.king();
  if (k == kNoSquare) return 0;
  int open = 0;
  for (const auto& d : kDirections) {
    int c = column(k) + d[0], r = row(k) + d[1];
    int path[kSize], len = 0;
    for (; c >= 0 && c < kSize && r >= 0 && r < kSize; c += d[0], r += d[1]) {
      const int sq = r * kSize + c;
      if (is_corner(sq)) {
        ++open;
        for (int i = 0; i < len; ++i) lane[path[i]] = true;
        break;
      }
      if (b.at(sq) != kEmpty) break;
      path[len++] = sq;
    }
  }
  return open;
}

// An attacker's move onto the king's last free side (three attackers or the throne already there).
bool takes_king(const Board& b, Move m) {
  const int k = b.king();
  if (k == kNoSquare || on_edge(k)) return false;
  const int dc = std::abs(column(m.to) - column(k)), dr = std::abs(row(m.to) - row(k));
  if (dc + dr != 1) return false;
  for (const auto& d : kDirections) {
    const int sq = (row(k) + d[1]) * kSize + column(k) + d[0];
    if (sq == m.to) continue;
    if (b.at(sq) != kAttacker && !(sq == kThrone && b.rules().special_throne)) return false;
  }
  return true;
}

// The moves that decide the game now or next move, when there are any: the king's escape, its capture,
// else the attackers' blocks of an open lane (without one the king escapes). Returns how many, into `out`.
int forced_moves(const Board& b, const Move* moves, int n, Move* out) {
  int count = 0;
  if (b.side() == 1) {
    for (int i = 0; i < n; ++i)
      if (moves[i].from == b.king() && is_corner(moves[i].to)) out[count++] = moves[i];
    return count;
  }
  for (int i = 0; i < n; ++i)
    if (takes_king(b, moves[i])) out[count++] = moves[i];
  if (count > 0) return count;
  bool lane[kSquares] = {};
  if (escape_lanes(b, lane) > 0)
    for (int i = 0; i < n; ++i)
      if (lane[moves[i].to]) out[count++] = moves[i];
  return count;
}

class TablutPolicy final : public bots::Policy {
 public:
  // The tree too looks only at the forced moves when there are some: a small search must not spend its
  // playouts finding out that a king with an open lane escapes.
  void candidates(const State& state, bots::Rng& /*rng*/, std::vector<Action>& out) const override {
    const Board& b = static_cast<const TablutState&>(state).board();
    Move moves[kMaxMoves], forced[kMaxMoves];
    const int n = b.generate(moves);
    const int f = forced_moves(b, moves, n, forced);
    for (int i = 0; i < (f > 0 ? f : n); ++i) out.push_back(encode(f > 0 ? forced[i] : moves[i]));
  }

  Action playout_action(const State& state, bots::Rng& rng) const override {
    const Board& b = static_cast<const TablutState&>(state).board();
    Move moves[kMaxMoves];
    const int n = b.generate(moves);
    assert(n > 0);
    auto pick = [&](const Move* from, int count) {
      return encode(from[std::uniform_int_distribution<int>(0, count - 1)(rng)]);
    };
    Move chosen[kMaxMoves];
    int count = forced_moves(b, moves, n, chosen);
    if (count > 0) return pick(chosen, count);
    if (std::bernoulli_distribution(kCaptureBias)(rng)) {
      for (int i = 0; i < n; ++i)
        if (captures(b, moves[i])) chosen[count++] = moves[i];
      if (count > 0) return pick(chosen, count);
    }
    return pick(moves, n);
  }

  int playout_limit() const override { return kPlayoutLimit; }

  // Material (a defender is worth about two attackers: 8 against 16 at the start) and the king's freedom:
  // open lanes to a corner, the edge, the distance to the nearest corner.
  double evaluate(const State& state, int seat) const override {
    const Board& b = static_cast<const TablutState&>(state).board();
    int attackers = 0, defenders = 0;
    for (int sq = 0; sq < kSquares; ++sq) {
      attackers += b.at(sq) == kAttacker;
      defenders += b.at(sq) == kDefender;
    }
    double x = 0.25 * (2 * defenders - attackers);
    const int k = b.king();
    if (k != kNoSquare) {
      bool lane[kSquares] = {};
      const int lanes = escape_lanes(b, lane);
      // Two lanes at once cannot both be blocked: nearly a win, more so with the defenders to move.
      x += lanes >= 2 ? 2.5 : lanes == 1 ? (b.side() == 1 ? 2.5 : 0.6) : 0;
      const int dc = std::min(column(k), kSize - 1 - column(k)), dr = std::min(row(k), kSize - 1 - row(k));
      x += 0.2 * (4 - (dc + dr)) + (on_edge(k) ? 0.3 : 0);
    }
    const double defenders_win = 1 / (1 + std::exp(-x));
    // Seat 1 holds the defenders in Tablut (seats are sides).
    return seat == 1 ? defenders_win : 1 - defenders_win;
  }
};

}  // namespace
}  // namespace cinq::tablut

namespace cinq::bots {

const Policy& tablut_policy() {
  static const tablut::TablutPolicy policy;
  return policy;
}

}  // namespace cinq::bots
