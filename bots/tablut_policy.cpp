// Tablut's policy for the search (bots/policy.h, docs/rules/tablut.md). Uniform random playouts last
// some 300 moves and are mostly won by a king that wanders into a corner past attackers who never block
// it, so they say little about a position. Playouts here play the obvious moves (the king's escape to a
// corner, the block of an open line to a corner, the king's capture, the attackers' wall across a corner,
// and usually a capture) and stop after kPlayoutLimit moves: the tree is then nearly a search on the
// evaluation, which scores material (a soldier the side to move can take counts as taken), the king's way
// to the corners (its open lanes, a lane no attacker can block counting as two; the squares from which it
// would have one, its free paths), the attackers pressing it and their walls across the corners. Longer
// playouts were tried (20 moves, on bench/ladder.cpp): with them a level's extra playouts bought no
// strength, and the defenders won almost every game whatever the levels. The tree looks at the likely moves
// first (captures, the king's runs towards a lane, the attackers' moves against the king and its paths),
// widening to the others as it visits more.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bots/bot.h"
#include "bots/policy.h"
#include "rules/tablut/view.h"

namespace cinq::tablut {
namespace {

constexpr int kPlayoutLimit = 3;
constexpr double kExploration = 0.3;
// How often a playout takes a capture when one is on offer (always would make playouts predictable).
constexpr double kCaptureBias = 0.8;
constexpr int kDirections[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
// The blockade's weight in the defenders' logit: each wall piece, and each corner whose wall is whole. Four
// whole walls leave the king no lane and no free path, and weigh -6 together: more than the draw at best
// they leave the defenders is worth, but the most the blockade can give.
constexpr double kWallPiece = 0.3;
constexpr double kWallClosed = 0.6;
// How much of a soldier's value a capture on offer counts: to the side to move, and to the other side.
constexpr double kThreatNow = 0.8;
constexpr double kThreatNext = 0.3;
// Playouts of 3 moves cost less than Baltek's: each level runs 1/kPlayoutCost times its cap (167 at level 1,
// 2,000 at level 2, ...). Below some 2,000 playouts a Tablut tree hardly improves on its first choices: with
// the caps as they were, level 2 scored 48.8 % against level 1 (docs/performance.md, "Why the levels are
// what they are").
constexpr double kPlayoutCost = 0.3;
// Levels 4 and 5 search more than their caps: the attackers of level 4 3 times (150,000 playouts), level 5
// twice (333,333) on either side. Level 5, and level 4's attackers on their longer turns, are then cut by
// their think times. The attack needs the search: a pair is decided by how well the higher level attacks
// the lower one's defence (the defenders win most games), and with the common caps levels 4 and 5 won at
// most 3 games of 20 as attackers (docs/performance.md, "Why the levels are what they are"). Level 4's
// defenders keep their cap (50,000): 1.5 times changed nothing measurable against level 3, and left level
// 5's attack, in the same think time, only twice their search.
constexpr double kDefendersSearch[bots::kMaxLevel + 1] = {1, 1, 1, 1, 1, 2};
constexpr double kAttackersSearch[bots::kMaxLevel + 1] = {1, 1, 1, 1, 3, 2};
// What a draw (by repetition) is worth to the defenders in their own search, by level (the attackers there
// get the rest; in the attackers' search a draw is worth half to either side). Level 5's defenders play on.
// The repetitions the defenders took were offered where their evaluation rated them at 0.04 to 0.08 (a
// closed wall at a corner counts heavily against them), and from there the stronger side still escapes:
// given to every level's defenders, this turned level 4's 4 draws against level 3 into wins, but also a
// draw of level 3's defence into a loss for level 4. Level 5 meets no stronger defence.
constexpr double kDefendersDraw[bots::kMaxLevel + 1] = {0.5, 0.5, 0.5, 0.5, 0.5, 0.02};
// How often an attackers' playout move builds a wall when it can.
constexpr double kWallBias = 0.6;
// The levels' slips (bots/policy.h), {chance, margin, choices} by level. More search alone did not make a
// level clearly stronger than the one below: the defenders win most games, so a pair is decided by how well
// the higher level attacks the lower one's defence, and a level's extra search won only 0-30 % of those
// games. So the defenders of levels 1 and 2 always play, when there is one, one of the three other moves
// their search visited most (rated within 0.4 and 0.3 of the best, never one it saw lose), and level 1's
// attackers too: a beginner attacking (the harder side for a human too) gets a chance. Levels 3 to 5 never
// slip. Set on the ladder (docs/performance.md, "Why the levels are what they are").
constexpr bots::Policy::Slip kDefendersSlip[bots::kMaxLevel + 1] = {
    {}, {1.0, 0.4, 3}, {1.0, 0.3, 3}, {}, {}, {}};
constexpr bots::Policy::Slip kAttackersSlip[bots::kMaxLevel + 1] = {{}, {1.0, 0.4, 3}, {}, {}, {}, {}};

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

// Whether a piece of `side` can stop on `sq` in one move, were it empty (a soldier: not on a corner or the
// special throne; the king too when `king` is set).
bool reaches(const Board& b, int sq, int side, bool king) {
  if (is_corner(sq) || (sq == kThrone && b.rules().special_throne)) return false;
  for (int d = 0; d < 4; ++d)  // kDirections' order, as neighbour's (rules/tablut/board.h)
    for (int at = neighbour(sq, d); at >= 0; at = neighbour(at, d)) {
      const std::uint8_t p = b.at(at);
      if (p == kEmpty) {
        if (is_corner(at)) break;
        continue;  // an empty square, the empty throne included, is passed over
      }
      if (side == 0 ? p == kAttacker : (p == kDefender || (p == kKing && king))) return true;
      break;
    }
  return false;
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

// A set of squares, bit `sq` for square sq.
__extension__ typedef unsigned __int128 Squares;

constexpr Squares square_bit(int sq) { return Squares{1} << sq; }

constexpr Squares kBoard = (Squares{1} << kSquares) - 1;
// The squares of the first and the last column, and of the others (with a square on either side in their
// row).
constexpr Squares kFirstColumn = [] {
  Squares s = 0;
  for (int r = 0; r < kSize; ++r) s |= square_bit(r * kSize);
  return s;
}();
constexpr Squares kLastColumn = kFirstColumn << (kSize - 1);
constexpr Squares kInnerColumns = kBoard & ~kFirstColumn & ~kLastColumn;
constexpr Squares kCorners =
    square_bit(0) | square_bit(kSize - 1) | square_bit(kSquares - kSize) | square_bit(kSquares - 1);
constexpr Squares kCornersAndThrone = kCorners | square_bit(kThrone);

// The squares in `s`. Bit arithmetic rather than std::popcount, which without -mpopcnt is a call.
int count(Squares s) {
  const auto bits = [](std::uint64_t x) {
    x -= (x >> 1) & 0x5555'5555'5555'5555u;
    x = (x & 0x3333'3333'3333'3333u) + ((x >> 2) & 0x3333'3333'3333'3333u);
    x = (x + (x >> 4)) & 0x0f0f'0f0f'0f0f'0f0fu;
    return static_cast<int>((x * 0x0101'0101'0101'0101u) >> 56);
  };
  return bits(static_cast<std::uint64_t>(s)) + bits(static_cast<std::uint64_t>(s >> 64));
}

// The squares holding each kind of piece (by Piece), read 16 squares at a time where SSE2 is there.
std::array<Squares, 4> holdings(const Board& b) {
  alignas(16) std::array<std::uint8_t, 96> cells{};
  for (int sq = 0; sq < kSquares; ++sq) cells[static_cast<std::size_t>(sq)] = b.at(sq);
  std::array<Squares, 4> out{};
#if defined(__SSE2__)
  for (std::uint8_t piece = kEmpty; piece <= kKing; ++piece) {
    const __m128i wanted = _mm_set1_epi8(static_cast<char>(piece));
    for (std::size_t at = 0; at < cells.size(); at += 16) {
      const __m128i chunk = _mm_load_si128(reinterpret_cast<const __m128i*>(cells.data() + at));
      const auto bits = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, wanted))) & 0xffffu;
      out[piece] |= Squares{bits} << at;
    }
  }
  out[kEmpty] &= kBoard;  // the padding past the board reads as empty
#else
  for (int sq = 0; sq < kSquares; ++sq) out[cells[static_cast<std::size_t>(sq)]] |= square_bit(sq);
#endif
  return out;
}

// The squares of `s` moved `shift` squares up the board's numbering (down, for a negative shift).
template <int kShift>
Squares shifted(Squares s) {
  if constexpr (kShift > 0)
    return s << kShift;
  else
    return s >> -kShift;
}

// `from` and the squares of `through` reached from it by a walk of `shift` at a time, over squares of
// `through` only: three doublings cover a walk of 7 squares. `through` must hold no square a walk would
// wrap onto (a row's first square, for a walk to the right).
template <int kShift>
Squares walk(Squares from, Squares through) {
  from |= through & shifted<kShift>(from);
  through &= shifted<kShift>(through);
  from |= through & shifted<2 * kShift>(from);
  through &= shifted<2 * kShift>(through);
  return from | (through & shifted<4 * kShift>(from));
}

// The lowest and the highest square of a set that is not empty.
int lowest(Squares s) {
  const auto low = static_cast<std::uint64_t>(s);
  return low != 0 ? std::countr_zero(low) : 64 + std::countr_zero(static_cast<std::uint64_t>(s >> 64));
}
int highest(Squares s) {
  const auto high = static_cast<std::uint64_t>(s >> 64);
  return high != 0 ? 127 - std::countl_zero(high) : 63 - std::countl_zero(static_cast<std::uint64_t>(s));
}

// The squares from each square to the board's edge in each direction (kDirections' order), itself left out.
constexpr auto kRays = [] {
  std::array<std::array<Squares, 4>, kSquares> t{};
  for (int sq = 0; sq < kSquares; ++sq)
    for (std::size_t d = 0; d < 4; ++d)
      for (int c = sq % kSize + kDirections[d][0], r = sq / kSize + kDirections[d][1];
           c >= 0 && c < kSize && r >= 0 && r < kSize; c += kDirections[d][0], r += kDirections[d][1])
        t[static_cast<std::size_t>(sq)][d] |= square_bit(r * kSize + c);
  return t;
}();

// The king's lanes to the corners. A lane runs along an edge from a square to a corner, over empty squares;
// it is worth one, or two when nothing can block it (the king beside the corner, or no attacker able to stop
// on any square of it): a lane that cannot be blocked wins as surely as two. For each square, the squares
// between it and the corners it would have a lane to: its rays along an edge, at most two (along its edge,
// or its two edges for a corner), each ending on a corner.
struct LaneSquares {
  int count = 0;
  std::array<Squares, 2> between{};
};

constexpr auto kLanes = [] {
  std::array<LaneSquares, kSquares> t{};
  for (int from = 0; from < kSquares; ++from)
    for (std::size_t d = 0; d < 4; ++d) {
      // Only a walk along an edge (a row or a column) ends on a corner, when it leaves the square at all.
      const int line = kDirections[d][1] == 0 ? from / kSize : from % kSize;
      const Squares ray = kRays[static_cast<std::size_t>(from)][d];
      if ((line != 0 && line != kSize - 1) || ray == 0) continue;
      LaneSquares& l = t[static_cast<std::size_t>(from)];
      l.between[static_cast<std::size_t>(l.count++)] = ray & ~kCorners;
    }
  return t;
}();

// The squares of the board's edge but its corners.
constexpr Squares kEdges = (kFirstColumn | kLastColumn | Squares{(1u << kSize) - 1} |
                            Squares{(1u << kSize) - 1} << (kSquares - kSize)) &
                           ~kCorners;

// The squares from `from` in direction `d` (kDirections' order) before the first square of `stops`.
Squares before_stop(int from, int d, Squares stops) {
  const Squares ray = kRays[static_cast<std::size_t>(from)][static_cast<std::size_t>(d)], hit = ray & stops;
  if (hit == 0) return ray;
  const int stop = d == 0 || d == 2 ? lowest(hit) : highest(hit);  // up the numbering: the lowest first
  return ray & ~kRays[static_cast<std::size_t>(stop)][static_cast<std::size_t>(d)] & ~square_bit(stop);
}

// The squares a piece of `movers` can stop on in one move, were they empty (reaches, for every square at
// once): a walk from them crosses only empty squares (the empty throne included) and no corner, and ends
// on the square after the last one crossed.
Squares reach(const Board& b, Squares movers, Squares empty) {
  const Squares passable = empty & ~kCorners;
  Squares out = (shifted<kSize>(walk<kSize>(movers, passable)) & kBoard) |
                shifted<-kSize>(walk<-kSize>(movers, passable)) |
                (shifted<1>(walk<1>(movers, passable & ~kFirstColumn)) & ~kFirstColumn) |
                (shifted<-1>(walk<-1>(movers, passable & ~kLastColumn)) & ~kLastColumn);
  return out & ~kCorners & ~(b.rules().special_throne ? square_bit(kThrone) : 0);
}

// A position's lanes, read from its empty squares and its attackers; the squares the attackers can reach
// are found when a lane first needs them.
class Lanes {
 public:
  Lanes(const Board& b, Squares empty, Squares attackers) : board_(b), empty_(empty), attackers_(attackers) {}

  // The lanes from `from` (with `ignore` read as empty: the king's square, when it would have moved), each
  // worth one or two; their squares are added to `squares` if given.
  int from(int from, int ignore = kNoSquare, Squares* squares = nullptr) {
    const LaneSquares& l = kLanes[static_cast<std::size_t>(from)];
    const Squares occupied = ~empty_ & ~(ignore == kNoSquare ? Squares{0} : square_bit(ignore));
    int open = 0;
    for (int i = 0; i < l.count; ++i) {
      const Squares between = l.between[static_cast<std::size_t>(i)];
      if ((between & occupied) != 0) continue;
      if (!reached_) {
        attackers_reach_ = reach(board_, attackers_, empty_);
        reached_ = true;
      }
      open += (between & attackers_reach_) != 0 ? 1 : 2;
      if (squares) *squares |= between;
    }
    return open;
  }

  const Board& board() const { return board_; }
  Squares empty_squares() const { return empty_; }

 private:
  const Board& board_;
  Squares empty_;
  Squares attackers_;
  Squares attackers_reach_ = 0;
  bool reached_ = false;
};

// The king's lanes to a corner it could reach next move, counted by their worth; their squares are added to
// `squares` if given.
int escape_lanes(Lanes& lanes, Squares* squares = nullptr) {
  const int k = lanes.board().king();
  return k == kNoSquare ? 0 : lanes.from(k, kNoSquare, squares);
}

// The king's free paths: the empty squares it can reach in one move from which a corner would be open
// (its origin then empty). Each is a threat the attackers must answer, and a fork (two lanes) is a win.
constexpr int kMaxRoutes = 6;

struct Paths {
  int routes = 0;  // squares with at least one lane, up to kMaxRoutes
  int forks = 0;   // squares with two lanes or more: the king there cannot be stopped
};

Paths free_paths(Lanes& lanes) {
  Paths p;
  const int k = lanes.board().king();
  if (k == kNoSquare) return p;
  // Only the edge's squares have lanes: those the king can reach, up to a piece or a corner.
  const Squares stops = ~lanes.empty_squares() | kCorners;
  for (int d = 0; d < 4; ++d)
    for (Squares edge = before_stop(k, d, stops) & kEdges; edge != 0; edge &= edge - 1) {
      const int n = lanes.from(lowest(edge), k);
      p.routes += n > 0 && p.routes < kMaxRoutes;
      p.forks += n >= 2;
    }
  return p;
}

// The moves that decide the game now or within two moves, when there are any: the king's escape, else
// its run to a fork; the king's capture, else the attackers' blocks of an open lane (without one the king
// escapes), else their moves that leave the king no fork to run to. Returns how many, into `out` (none
// when nothing is forced, or when no move answers the threat: the game is lost anyway).
int forced_moves(const Board& b, const Move* moves, int n, Move* out) {
  int count = 0;
  const int k = b.king();
  if (k == kNoSquare) return 0;
  if (b.side() == 1) {
    for (int i = 0; i < n; ++i)
      if (moves[i].from == k && is_corner(moves[i].to)) out[count++] = moves[i];
    if (count > 0) return count;
    std::optional<Lanes> lanes;  // made when a king's move first reaches a square with lanes
    for (int i = 0; i < n; ++i) {
      if (moves[i].from != k || kLanes[moves[i].to].count == 0) continue;
      if (!lanes) {
        const std::array<Squares, 4> held = holdings(b);
        lanes.emplace(b, held[kEmpty], held[kAttacker]);
      }
      if (lanes->from(moves[i].to, k) >= 2) out[count++] = moves[i];
    }
    return count;
  }
  for (int i = 0; i < n; ++i)
    if (takes_king(b, moves[i])) out[count++] = moves[i];
  if (count > 0) return count;
  const std::array<Squares, 4> held = holdings(b);
  Lanes lanes(b, held[kEmpty], held[kAttacker]);
  Squares lane = 0;
  if (escape_lanes(lanes, &lane) > 0) {
    for (int i = 0; i < n; ++i)
      if (((lane >> moves[i].to) & 1) != 0) out[count++] = moves[i];
    return count;
  }
  if (free_paths(lanes).forks == 0) return 0;
  // Each attacker's move, made: its square sets follow from the move and what it took.
  Board after = b;
  for (int i = 0; i < n; ++i) {
    const Move m = moves[i];
    const Undo u = after.make(m);
    Squares empty = (held[kEmpty] | square_bit(m.from)) & ~square_bit(m.to);
    for (int c = 0; c < u.captures.count; ++c)
      empty |= square_bit(u.captures.squares[static_cast<std::size_t>(c)]);
    Lanes lanes_after(after, empty, (held[kAttacker] & ~square_bit(m.from)) | square_bit(m.to));
    if (free_paths(lanes_after).forks == 0) out[count++] = m;
    after.unmake(m, u);
  }
  return count;
}

// The attackers' blockade: a corner is closed by a diagonal wall across it (c1 b2 a3 for a1), which a
// rook move cannot cross and whose pieces no defender can reach to take. The corner whose wall `sq` is
// part of, or -1.
constexpr int barrier_corner_of(int sq) {
  const int c = sq % kSize, r = sq / kSize;
  const int dc = std::min(c, kSize - 1 - c), dr = std::min(r, kSize - 1 - r);
  if (dc + dr != 2 || dc > 2 || dr > 2) return -1;
  return (c < kSize / 2 ? 0 : 1) + (r < kSize / 2 ? 0 : 2);
}

constexpr auto kBarrierCorner = [] {
  std::array<std::int8_t, kSquares> t{};
  for (int sq = 0; sq < kSquares; ++sq)
    t[static_cast<std::size_t>(sq)] = static_cast<std::int8_t>(barrier_corner_of(sq));
  return t;
}();

int barrier_corner(int sq) { return kBarrierCorner[static_cast<std::size_t>(sq)]; }

// Whether the soldier on `sq` can be taken by `side`'s next move: it stands beside a square hostile to it
// whose other side is empty and reachable by `side`.
bool capturable(const Board& b, int sq, int side) {
  for (int d = 0; d < 4; ++d) {
    const int far = neighbour(sq, d), empty = neighbour(sq, d ^ 1);
    if (far < 0 || empty < 0) continue;
    if (b.at(empty) == kEmpty && hostile(b, far, 1 - side) &&
        reaches(b, empty, side, side == 1 && b.rules().armed_king))
      return true;
  }
  return false;
}

// The soldiers of `soldiers` that stand between a square of `hostile` and an empty square, in a row or a
// column: those that might be taken next move (capturable decides).
Squares exposed(Squares soldiers, Squares hostile, Squares empty) {
  const Squares rows = ((hostile >> 1) & (empty << 1)) | ((hostile << 1) & (empty >> 1));
  const Squares columns = ((hostile >> kSize) & (empty << kSize)) | ((hostile << kSize) & (empty >> kSize));
  return soldiers & ((rows & kInnerColumns) | columns);
}

// Whether a soldier of `soldiers` can be taken by `side`'s next move.
bool any_capturable(const Board& b, Squares soldiers, int side) {
  for (auto low = static_cast<std::uint64_t>(soldiers); low != 0; low &= low - 1)
    if (capturable(b, std::countr_zero(low), side)) return true;
  for (auto high = static_cast<std::uint64_t>(soldiers >> 64); high != 0; high &= high - 1)
    if (capturable(b, 64 + std::countr_zero(high), side)) return true;
  return false;
}

// What one pass over the board counts: material, the attackers' blockade (the wall pieces standing, 0..12,
// and the corners whose wall is whole), and the threats: the most valuable soldier of the other side that
// each side can take with its next move, in attackers (a defender is worth two), or 0. The threats are
// looked for only among the soldiers a square set shows standing between a square that might be hostile
// (a corner, the throne, an enemy) and an empty one: most positions have few or none.
struct Census {
  int attackers = 0;
  int defenders = 0;
  int wall_pieces = 0;
  int walls_closed = 0;
  int threat[2] = {0, 0};
};

// The squares of each corner's wall.
constexpr auto kWalls = [] {
  std::array<Squares, 4> w{};
  for (int sq = 0; sq < kSquares; ++sq)
    if (const int corner = barrier_corner_of(sq); corner >= 0)
      w[static_cast<std::size_t>(corner)] |= square_bit(sq);
  return w;
}();

Census census(const Board& b, const std::array<Squares, 4>& held) {
  Census out;
  const Squares attackers = held[kAttacker], defenders = held[kDefender], empty = held[kEmpty];
  out.attackers = count(attackers);
  out.defenders = count(defenders);
  for (const Squares wall : kWalls) {
    const int n = count(attackers & wall);
    out.wall_pieces += n;
    out.walls_closed += n == 3;
  }
  if (any_capturable(b, exposed(attackers, defenders | held[kKing] | kCornersAndThrone, empty), 1))
    out.threat[1] = 1;
  if (any_capturable(b, exposed(defenders, attackers | kCornersAndThrone, empty), 0)) out.threat[0] = 2;
  return out;
}

// An attacker's move onto a wall square from a square off the walls.
bool builds_wall(Move m) { return barrier_corner(m.to) >= 0 && barrier_corner(m.from) < 0; }

// Attackers (and the special throne) beside the king.
int pressing(const Board& b) {
  const int k = b.king();
  if (k == kNoSquare) return 4;
  int n = 0;
  for (const auto& d : kDirections) {
    const int c = column(k) + d[0], r = row(k) + d[1];
    const int piece = at_or_none(b, c, r);
    n += piece == kAttacker || (piece >= 0 && r * kSize + c == kThrone && b.rules().special_throne);
  }
  return n;
}

// The position for the defenders, in logits: material (a defender is worth about two attackers: 8
// against 16 at the start), the attackers' blockade, and the king's freedom: open lanes to a corner, its
// free paths and forks, the attackers beside it, the distance to the nearest corner.
double defenders_logit(const Board& b) {
  const int k = b.king();
  if (k == kNoSquare) return -8;
  if (is_corner(k)) return 8;
  const std::array<Squares, 4> held = holdings(b);
  const Census n = census(b, held);
  double x =
      0.25 * (2 * n.defenders - n.attackers) - kWallPiece * n.wall_pieces - kWallClosed * n.walls_closed;
  // A soldier the side to move can take now is as good as taken; the other side's threat can be parried.
  const int mover = b.side();
  const double threats = kThreatNow * n.threat[mover] - kThreatNext * n.threat[1 - mover];
  x += 0.25 * (mover == 1 ? threats : -threats);
  Lanes lanes(b, held[kEmpty], held[kAttacker]);
  const int open = escape_lanes(lanes);
  // Two lanes at once cannot both be blocked: nearly a win, more so with the defenders to move.
  x += open >= 2 ? 2.5 : open == 1 ? (b.side() == 1 ? 2.5 : 0.6) : 0;
  const Paths p = free_paths(lanes);
  x += 0.3 * p.routes + (p.forks > 0 ? (b.side() == 1 ? 2.0 : 0.5) : 0) - 0.35 * pressing(b);
  const int dc = std::min(column(k), kSize - 1 - column(k)), dr = std::min(row(k), kSize - 1 - row(k));
  return x + 0.1 * (4 - (dc + dr)) + (on_edge(k) ? 0.2 : 0);
}

// A move's prior (the tree's order for progressive widening): how much better the position evaluates for
// the mover after it, the move made and taken back.
double prior(Board& b, Move m, double before) {
  const int mover = b.side();
  const Undo u = b.make(m);
  const double after = defenders_logit(b);
  b.unmake(m, u);
  return mover == 1 ? after - before : before - after;
}

// The index of `level` in the tables by level above.
std::size_t by_level(int level) { return static_cast<std::size_t>(std::clamp(level, 0, bots::kMaxLevel)); }

class TablutPolicy final : public bots::Policy {
 public:
  // The tree too looks only at the forced moves when there are some: a small search must not spend its
  // playouts finding out that a king with an open lane escapes. Otherwise every move, the likely ones
  // first (ties in a random order).
  void candidates(const State& state, bots::Rng& rng, std::vector<Action>& out) const override {
    const Board& b = board_of(state);
    Move moves[kMaxMoves], forced[kMaxMoves];
    const int n = b.generate(moves);
    const int f = forced_moves(b, moves, n, forced);
    if (f > 0) {
      for (int i = 0; i < f; ++i) out.push_back(encode(forced[i]));
      return;
    }
    std::shuffle(moves, moves + n, rng);
    Board scratch = b;
    const double before = defenders_logit(b);
    std::pair<double, Move> scored[kMaxMoves];
    for (int i = 0; i < n; ++i) scored[i] = {prior(scratch, moves[i], before), moves[i]};
    std::stable_sort(scored, scored + n, [](const auto& x, const auto& y) { return x.first > y.first; });
    for (int i = 0; i < n; ++i) out.push_back(encode(scored[i].second));
  }

  bool ordered_candidates() const override { return true; }
  bool lazy_children() const override { return true; }
  double exploration() const override { return kExploration; }
  double playout_cost() const override { return kPlayoutCost; }
  double level_search(int level, int seat) const override {
    return seat == 1 ? kDefendersSearch[by_level(level)] : kAttackersSearch[by_level(level)];
  }
  double draw_reward(int level, int seat) const override {
    return seat == 1 ? kDefendersDraw[by_level(level)] : 0.5;
  }
  Slip slip(int level, int seat) const override {
    return seat == 1 ? kDefendersSlip[by_level(level)] : kAttackersSlip[by_level(level)];
  }

  Action playout_action(const State& state, bots::Rng& rng) const override {
    const Board& b = board_of(state);
    Move moves[kMaxMoves];
    const int n = b.generate(moves);
    assert(n > 0);
    auto pick = [&](const Move* from, int count) {
      return encode(from[std::uniform_int_distribution<int>(0, count - 1)(rng)]);
    };
    Move chosen[kMaxMoves];
    int count = forced_moves(b, moves, n, chosen);
    if (count > 0) return pick(chosen, count);
    if (b.side() == 0 && std::bernoulli_distribution(kWallBias)(rng)) {
      for (int i = 0; i < n; ++i)
        if (builds_wall(moves[i])) chosen[count++] = moves[i];
      if (count > 0) return pick(chosen, count);
    }
    if (std::bernoulli_distribution(kCaptureBias)(rng)) {
      for (int i = 0; i < n; ++i)
        if (captures(b, moves[i])) chosen[count++] = moves[i];
      if (count > 0) return pick(chosen, count);
    }
    return pick(moves, n);
  }

  int playout_limit() const override { return kPlayoutLimit; }

  double evaluate(const State& state, int seat) const override {
    const double defenders_win =
        1 / (1 + std::exp(-defenders_logit(board_of(state))));
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
