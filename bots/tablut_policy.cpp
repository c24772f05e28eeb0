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
// widening to the others as it visits more. Level 5 searches with alpha-beta instead (ab::Searcher, below),
// on the same evaluation plus the defenders' room and the attackers' blockade (room_logit).
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <optional>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bots/bot.h"
#include "bots/policy.h"
#include "bots/tablut_search.h"
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
// Levels 4 and 5 search more than their caps: the attackers of level 4 3 times (150,000 playouts), level 5's
// tree twice (333,333) on either side (level 5 searches with alpha-beta, kAlphaBeta; its tree plays only
// where Settings::own_search is off: bench/ladder.cpp's --lower-tree). Level 5, and level 4's attackers on their longer turns, are then cut by
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
// The levels that search with alpha-beta (ab::Searcher) instead of the tree, and the nodes it may visit for
// each of a level's playouts (Settings::playouts): the cap keeps a seed's games the same on any machine,
// the think time bounds them on a slower one.
constexpr bool kAlphaBeta[bots::kMaxLevel + 1] = {false, false, false, false, false, true};
constexpr std::uint64_t kNodesPerPlayout = 10;
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

// The defenders' room and the attackers' blockade, for the alpha-beta search (level 5): the squares the
// defenders' soldiers and the king can reach in a move, the squares the king alone can, and the region the
// king could walk to were the defenders out of its way (the empty squares and the defenders' that no ring of
// attackers cuts it off from) and the corners that region holds. A ring closed round the king, no corner
// inside, is the attackers' way to win; defenders hemmed in until none can move lose too.
struct Room {
  int defenders_reach = 0;
  int king_reach = 0;
  int region = 0;
  int corners = 0;
};

// The squares beside those of `s` (not `s` itself unless beside another).
Squares beside(Squares s) {
  return ((s << kSize) & kBoard) | (s >> kSize) | ((s << 1) & ~kFirstColumn & kBoard) | ((s >> 1) & ~kLastColumn);
}

Room room(const Board& b, const std::array<Squares, 4>& held) {
  Room r;
  const int k = b.king();
  if (k == kNoSquare) return r;
  const Squares empty = held[kEmpty];
  const Squares king = square_bit(k);
  r.defenders_reach = count(reach(b, held[kDefender], empty));
  // The king may stop on corners and the throne: walk without those limits.
  const Squares passable = empty;
  const Squares kr = (shifted<kSize>(walk<kSize>(king, passable)) & kBoard) | shifted<-kSize>(walk<-kSize>(king, passable)) |
                     (shifted<1>(walk<1>(king, passable & ~kFirstColumn)) & ~kFirstColumn) |
                     (shifted<-1>(walk<-1>(king, passable & ~kLastColumn)) & ~kLastColumn);
  r.king_reach = count(kr & empty);
  const Squares open = kBoard & ~held[kAttacker];
  Squares region = king;
  for (;;) {
    const Squares grown = region | (beside(region) & open);
    if (grown == region) break;
    region = grown;
  }
  r.region = count(region);
  r.corners = count(region & kCorners);
  return r;
}

// The room's weight in the defenders' logit.
constexpr double kDefendersReach = 0.025;
constexpr double kKingReach = 0.04;
constexpr double kSealed = 1.5;     // no corner in the king's region
constexpr double kCornerOpen = 0.15;  // each corner in it
constexpr double kHemmed = 0.8;     // defenders with fewer than kFewMoves squares to go to
constexpr int kFewMoves = 6;

double room_logit(const Board& b, const std::array<Squares, 4>& held) {
  const Room r = room(b, held);
  double x = kDefendersReach * r.defenders_reach + kKingReach * r.king_reach + kCornerOpen * r.corners;
  if (r.corners == 0) x -= kSealed + 0.02 * (81 - r.region);
  if (r.defenders_reach + r.king_reach < kFewMoves) x -= kHemmed;
  return x;
}

// The alpha-beta search's evaluation: the tree's and the room.
double search_logit(const Board& b) {
  const int k = b.king();
  if (k == kNoSquare) return -8;
  if (is_corner(k)) return 8;
  return defenders_logit(b) + room_logit(b, holdings(b));
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

// Level 5's search: alpha-beta (negamax, principal variation search) with iterative deepening, a
// transposition table, move ordering (the table's move, captures, killers, history, and near the root the
// evaluation's gain as the tree's prior), late move reductions, and a quiescence search on captures and the
// king's threats. The game's sharp lines are answered exactly at every node, the quiescence's included: the
// king's move to a corner and the king's capture win at once; attackers facing an open lane may only block it
// (none: lost). The evaluation is defenders_logit plus the room (room_logit), from the mover's side, in
// hundredths of a logit.
namespace ab {

constexpr int kWin = 30000;
constexpr int kInfinity = 32000;
constexpr int kMaxPly = 96;
constexpr int kQuiescenceDepth = 6;
// The transposition table: 2^kTableBits entries of 16 bytes (8 MB), made for each turn (a turn's search
// depends on nothing but its position, seed and budget).
constexpr int kTableBits = 19;

enum Bound : std::uint8_t { kNoBound = 0, kExact, kLower, kUpper };

struct Entry {
  std::uint64_t key = 0;
  std::int16_t score = 0;
  std::int8_t depth = 0;
  Bound bound = kNoBound;
  Move move{};
};

std::uint64_t hash_of(const Key& k) {
  std::uint64_t h = 0x9e3779b97f4a7c15u;
  for (std::uint64_t w : k.w) {
    h ^= w + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 31;
  }
  return h;
}

inline int move_index(Move m) { return m.from * kSquares + m.to; }

class Searcher {
 public:
  // `draw` is a draw's score for the side to move at the root.
  Searcher(const Board& b, std::chrono::steady_clock::time_point deadline, std::uint64_t max_nodes,
           const std::atomic<bool>* cancel, int draw)
      : b_(b), deadline_(deadline), max_nodes_(max_nodes), cancel_(cancel), root_side_(b.side()), draw_(draw),
        table_(std::size_t{1} << kTableBits), history_(kSquares * kSquares, 0) {}

  // Iterative deepening: the best move of the deepest search completed (or of the one cut, when it had
  // searched its first move). `order` is the root's moves, in the order to try ties.
  // Root moves in `drawn` end the game drawn (the game's own repetition, which the search, seeing only the
  // position, does not know): they are scored as the draw without a search.
  Move best(std::vector<Move> root_moves, const std::vector<bool>& drawn_in, int& score_out, int& depth_out) {
    std::vector<bool> drawn = drawn_in;
    Move best = root_moves.front();
    std::vector<int> scores(root_moves.size(), 0);
    for (int depth = 1; depth <= kMaxPly - 8; ++depth) {
      int alpha = -kInfinity;
      Move iteration_best = best;
      int iteration_score = -kInfinity;
      bool searched_one = false;
      for (std::size_t i = 0; i < root_moves.size(); ++i) {
        const Move m = root_moves[i];
        if (drawn[i]) {
          scores[i] = draw_;
          searched_one = searched_one || i == 0;
          if (draw_ > iteration_score) iteration_score = draw_, iteration_best = m;
          if (draw_ > alpha) alpha = draw_;
          continue;
        }
        const Undo u = b_.make(m);
        path_.push_back(hash_of(b_.key()));
        const bool capture = u.captures.count > 0;
        if (capture) boundaries_.push_back(path_.size() - 1);
        int score;
        if (i == 0) {
          score = -negamax(depth - 1, -kInfinity, -alpha, 1);
        } else {
          score = -negamax(depth - 1, -alpha - 1, -alpha, 1);
          if (score > alpha && !stopped_) score = -negamax(depth - 1, -kInfinity, -alpha, 1);
        }
        if (capture) boundaries_.pop_back();
        path_.pop_back();
        b_.unmake(m, u);
        if (stopped_) break;
        searched_one = true;
        scores[i] = score;
        if (score > iteration_score) {
          iteration_score = score;
          iteration_best = m;
        }
        if (score > alpha) alpha = score;
      }
      // A cut iteration tried the last one's best first: what it found is at least as good.
      if (searched_one) {
        best = iteration_best;
        score_out = iteration_score;
        if (!stopped_) depth_out = depth;
      }
      if (stopped_) break;
      // The next iteration tries the moves best first (ties keep their order).
      std::vector<std::size_t> idx(root_moves.size());
      for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
      std::stable_sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) { return scores[x] > scores[y]; });
      std::vector<Move> reordered;
      std::vector<int> rescored;
      std::vector<bool> redrawn;
      for (std::size_t i : idx)
        reordered.push_back(root_moves[i]), rescored.push_back(scores[i]), redrawn.push_back(drawn[i]);
      root_moves = std::move(reordered);
      scores = std::move(rescored);
      drawn = std::move(redrawn);
      if (std::abs(iteration_score) >= kWin - kMaxPly) break;  // a win or a loss is proved
    }
    return best;
  }

  std::uint64_t nodes() const { return nodes_; }

 private:
  // Past the cap, a cancel, or the deadline; or when the next look at the clock, if it comes as late as the
  // latest one so far (a wait for a core on a loaded machine), would be past the deadline (as the tree
  // stops when its longest playout would end past its think time).
  bool out_of_time() {
    if (stopped_) return true;
    if ((nodes_ & 127) == 0) {
      const auto now = std::chrono::steady_clock::now();
      if (checked_ != std::chrono::steady_clock::time_point{}) longest_gap_ = std::max(longest_gap_, now - checked_);
      checked_ = now;
      if ((max_nodes_ != 0 && nodes_ >= max_nodes_) || now + longest_gap_ >= deadline_ ||
          (cancel_ && cancel_->load(std::memory_order_relaxed)))
        stopped_ = true;
    } else if (max_nodes_ != 0 && nodes_ >= max_nodes_) {
      stopped_ = true;
    }
    return stopped_;
  }

  // The position's value for the side to move.
  int evaluate() {
    const double x = search_logit(b_);
    const int v = static_cast<int>(std::lround(std::clamp(x, -50.0, 50.0) * 100));
    return b_.side() == 1 ? v : -v;
  }

  // Whether the current position occurred before since the last capture (a draw: the search does not wait
  // for the third time).
  bool repeated() const {
    const std::size_t from = boundaries_.empty() ? 0 : boundaries_.back();
    const std::uint64_t h = path_.back();
    for (std::size_t i = path_.size() - 1; i-- > from;)
      if (path_[i] == h) return true;
    return false;
  }

  // The moves the sharp lines leave, into `moves` (n of them): returns a decided score, or nothing. A win
  // now (the king to a corner, the king's capture); attackers facing an open lane: only the blocks.
  std::optional<int> sharp(Move* moves, int& n, int ply) {
    if (n == 0) return -kWin + ply;  // no move: lost
    const int k = b_.king();
    if (b_.side() == 1) {
      for (int i = 0; i < n; ++i)
        if (moves[i].from == k && is_corner(moves[i].to)) return kWin - ply - 1;
      return std::nullopt;
    }
    for (int i = 0; i < n; ++i)
      if (takes_king(b_, moves[i])) return kWin - ply - 1;
    const std::array<Squares, 4> held = holdings(b_);
    Lanes lanes(b_, held[kEmpty], held[kAttacker]);
    Squares lane = 0;
    if (escape_lanes(lanes, &lane) == 0) return std::nullopt;
    int kept = 0;
    for (int i = 0; i < n; ++i)
      if (((lane >> moves[i].to) & 1) != 0) moves[kept++] = moves[i];
    n = kept;
    if (n == 0) return -kWin + ply + 2;  // the king escapes next move
    return std::nullopt;
  }

  void push(const Undo& u) {
    path_.push_back(hash_of(b_.key()));
    if (u.captures.count > 0) boundaries_.push_back(path_.size() - 1);
  }
  void pop(const Undo& u) {
    if (u.captures.count > 0) boundaries_.pop_back();
    path_.pop_back();
  }

  // Orders moves[0..n) best first: the table's move, captures, killers, history; at depth >= 2 the
  // evaluation's gain after the move (the tree's prior) instead of the history.
  void order(Move* moves, int n, Move tt, int ply, int depth) {
    std::pair<int, Move> scored[kMaxMoves];
    const bool by_eval = depth >= 3;
    const double before = by_eval ? defenders_logit(b_) : 0;
    for (int i = 0; i < n; ++i) {
      const Move m = moves[i];
      int s;
      if (m.from == tt.from && m.to == tt.to && (tt.from != tt.to)) {
        s = 1 << 30;
      } else {
        s = 0;
        if (captures(b_, m)) s += 1 << 24;
        if (m.from == killers_[ply][0].from && m.to == killers_[ply][0].to) s += 1 << 22;
        else if (m.from == killers_[ply][1].from && m.to == killers_[ply][1].to) s += 1 << 21;
        if (by_eval) s += static_cast<int>(std::lround(prior(b_, m, before) * 1000)) * 64;
        s += std::min(history_[static_cast<std::size_t>(move_index(m))], 1 << 20) / 64;
      }
      scored[i] = {s, m};
    }
    std::stable_sort(scored, scored + n, [](const auto& x, const auto& y) { return x.first > y.first; });
    for (int i = 0; i < n; ++i) moves[i] = scored[i].second;
  }

  // The game over by the last move: the side to move lost.
  bool over() const { return b_.king() == kNoSquare || is_corner(b_.king()); }

  int negamax(int depth, int alpha, int beta, int ply) {
    ++nodes_;
    if (out_of_time()) return 0;
    if (over()) return -kWin + ply;
    if (repeated()) return b_.side() == root_side_ ? draw_ : -draw_;
    Move moves[kMaxMoves];
    int n = b_.generate(moves);
    if (std::optional<int> decided = sharp(moves, n, ply)) return *decided;
    if (depth <= 0 || ply >= kMaxPly - 8) return quiescence(alpha, beta, ply, 0);

    const std::uint64_t key = path_.back();
    Entry& e = table_[key & ((std::size_t{1} << kTableBits) - 1)];
    Move tt{};
    if (e.key == key) {
      tt = e.move;
      if (e.depth >= depth) {
        const int s = e.score;
        if (e.bound == kExact || (e.bound == kLower && s >= beta) || (e.bound == kUpper && s <= alpha)) return s;
      }
    }
    order(moves, n, tt, ply, depth);
    const int alpha0 = alpha;
    int best = -kInfinity;
    Move best_move = moves[0];
    for (int i = 0; i < n; ++i) {
      const Move m = moves[i];
      const bool quiet = !captures(b_, m) && b_.at(m.from) != kKing;
      const Undo u = b_.make(m);
      push(u);
      int score;
      if (i == 0) {
        score = -negamax(depth - 1, -beta, -alpha, ply + 1);
      } else {
        int reduction = 0;
        if (depth >= 3 && quiet && i >= 3) reduction = i >= 10 && depth >= 4 ? 2 : 1;
        score = -negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
        if (score > alpha && reduction > 0) score = -negamax(depth - 1, -alpha - 1, -alpha, ply + 1);
        if (score > alpha && score < beta) score = -negamax(depth - 1, -beta, -alpha, ply + 1);
      }
      pop(u);
      b_.unmake(m, u);
      if (stopped_) return 0;
      if (score > best) {
        best = score;
        best_move = m;
      }
      if (score > alpha) alpha = score;
      if (alpha >= beta) {
        if (quiet) {
          killers_[ply][1] = killers_[ply][0];
          killers_[ply][0] = m;
          history_[static_cast<std::size_t>(move_index(m))] += depth * depth;
        }
        break;
      }
    }
    e.key = key;
    e.score = static_cast<std::int16_t>(best);
    e.depth = static_cast<std::int8_t>(depth);
    e.bound = best >= beta ? kLower : best <= alpha0 ? kUpper : kExact;
    e.move = best_move;
    return best;
  }

  int quiescence(int alpha, int beta, int ply, int qdepth) {
    // The sharp lines were looked at by the caller (negamax) or below (here, on each move made).
    const bool blocking = b_.side() == 0 && lane_open();
    int best = -kInfinity;
    if (!blocking) {
      best = evaluate();
      if (best >= beta || qdepth >= kQuiescenceDepth || ply >= kMaxPly - 2) return best;
      if (best > alpha) alpha = best;
    }
    Move moves[kMaxMoves];
    int n = b_.generate(moves);
    int kept = 0;
    const std::array<Squares, 4> held = holdings(b_);
    std::optional<Lanes> lanes;
    Squares lane = 0;
    if (blocking) {
      lanes.emplace(b_, held[kEmpty], held[kAttacker]);
      escape_lanes(*lanes, &lane);
    }
    for (int i = 0; i < n; ++i) {
      const Move m = moves[i];
      bool keep;
      if (blocking) {
        keep = ((lane >> m.to) & 1) != 0;
      } else {
        keep = captures(b_, m);
        // The king's move to a square with a lane: a threat the attackers must answer.
        if (!keep && b_.side() == 1 && m.from == b_.king() && qdepth < 2 && kLanes[m.to].count > 0) {
          if (!lanes) lanes.emplace(b_, held[kEmpty], held[kAttacker]);
          keep = lanes->from(m.to, m.from) > 0;
        }
      }
      if (keep) moves[kept++] = m;
    }
    if (blocking && kept == 0) return -kWin + ply + 2;
    for (int i = 0; i < kept; ++i) {
      ++nodes_;
      if (out_of_time()) return 0;
      const Move m = moves[i];
      const Undo u = b_.make(m);
      push(u);
      int score;
      Move replies[kMaxMoves];
      int rn = over() ? 0 : b_.generate(replies);
      if (over())
        score = kWin - ply - 1;
      else if (std::optional<int> decided = sharp(replies, rn, ply + 1))
        score = -*decided;
      else
        score = -quiescence(-beta, -alpha, ply + 1, qdepth + 1);
      pop(u);
      b_.unmake(m, u);
      if (stopped_) return 0;
      if (score > best) best = score;
      if (score > alpha) alpha = score;
      if (alpha >= beta) break;
    }
    return best;
  }

  bool lane_open() {
    const std::array<Squares, 4> held = holdings(b_);
    Lanes lanes(b_, held[kEmpty], held[kAttacker]);
    return escape_lanes(lanes) > 0;
  }

  Board b_;
  std::chrono::steady_clock::time_point deadline_;
  std::uint64_t max_nodes_;
  const std::atomic<bool>* cancel_;
  int root_side_;
  int draw_;
  std::vector<Entry> table_;
  std::vector<int> history_;
  Move killers_[kMaxPly][2]{};
  std::vector<std::uint64_t> path_;
  std::vector<std::size_t> boundaries_;
  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
  std::chrono::steady_clock::time_point checked_{};
  std::chrono::steady_clock::duration longest_gap_{};

 public:
  void start_path() { path_.assign(1, hash_of(b_.key())); }
};

}  // namespace ab

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

  std::optional<bots::Turn> own_turn(const State& state, const bots::Settings& settings,
                                     const std::atomic<bool>* cancel) const override {
    if (!kAlphaBeta[by_level(settings.level)]) return std::nullopt;
    const auto start = std::chrono::steady_clock::now();
    const Board& b = board_of(state);
    Move moves[kMaxMoves], forced[kMaxMoves];
    int n = b.generate(moves);
    bots::Turn turn;
    if (n == 0) return std::nullopt;
    // The forced moves when there are some (as the tree's candidates), else every move: shuffled by the
    // seed, then by their prior.
    if (const int f = forced_moves(b, moves, n, forced); f > 0) {
      std::copy(forced, forced + f, moves);
      n = f;
    }
    bots::Rng rng(settings.seed);
    std::shuffle(moves, moves + n, rng);
    // A forced move, or a search cancelled before it starts: played at once, unsearched.
    if (n == 1 || (cancel && cancel->load(std::memory_order_relaxed))) {
      turn.actions.push_back(encode(moves[0]));
      return turn;
    }
    Board scratch = b;
    const double before = defenders_logit(b);
    std::vector<std::pair<double, Move>> scored;
    for (int i = 0; i < n; ++i) scored.push_back({prior(scratch, moves[i], before), moves[i]});
    std::stable_sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    std::vector<Move> root;
    std::vector<bool> drawn;
    for (const auto& [p, m] : scored) {
      root.push_back(m);
      std::unique_ptr<State> after = state.clone();
      after->apply(encode(m));
      const Outcome o = after->outcome();
      drawn.push_back(o.over() && o.kind != Outcome::Kind::win);
    }
    // A draw's worth to the mover (draw_reward), as a score: level 5's defenders play on.
    const double reward = std::clamp(draw_reward(settings.level, b.side()), 0.01, 0.99);
    const int draw = static_cast<int>(std::lround(100 * std::log(reward / (1 - reward))));
    const auto think_stop = start + settings.think - settings.think / 100;
    const auto margin = std::min(settings.hard_limit / 4, std::chrono::milliseconds(500));
    const auto deadline = std::min(think_stop, start + settings.hard_limit - margin);
    const std::uint64_t cap = settings.playouts * kNodesPerPlayout;
    ab::Searcher searcher(b, deadline, cap, cancel, draw);
    searcher.start_path();
    int score = 0, depth = 0;
    const Move best = searcher.best(std::move(root), drawn, score, depth);
    turn.actions.push_back(encode(best));
    turn.playouts = searcher.nodes();

    turn.value = 1 / (1 + std::exp(-score / 100.0));
    return turn;
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

double tablut_search_value(const State& state, int seat) {
  const tablut::Board& b = tablut::board_of(state);
  const double x = tablut::search_logit(b);
  const double defenders_win = 1 / (1 + std::exp(-x));
  return seat == 1 ? defenders_win : 1 - defenders_win;
}

const Policy& tablut_policy() {
  static const tablut::TablutPolicy policy;
  return policy;
}

}  // namespace cinq::bots
