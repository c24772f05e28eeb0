// Tablut's board core (docs/rules/tablut.md): moves, captures, endings, perft.
#include "rules/tablut/board.h"

#include <algorithm>
#include <cassert>

namespace cinq::tablut {

namespace {

constexpr std::uint64_t kSideBit = std::uint64_t{1} << 63;

}  // namespace

void Board::set(int sq, std::uint8_t piece) {
  auto i = static_cast<std::size_t>(sq);
  key_.w[i >> 5] ^= static_cast<std::uint64_t>(sq_[i] ^ piece) << (2 * (i & 31));
  sq_[i] = piece;
}

void Board::put(int sq, std::uint8_t piece) {
  if (at(sq) == kKing) king_ = kNoSquare;
  set(sq, piece);
  if (piece == kKing) king_ = sq;
}

void Board::set_side(int side) {
  if (side != side_) key_.w[2] ^= kSideBit;
  side_ = side;
}

int Board::generate(Move* out) const {
  int n = 0;
  for (int s = 0; s < kSquares; ++s) {
    std::uint8_t p = sq_[static_cast<std::size_t>(s)];
    if (!owns(p)) continue;
    for (int d = 0; d < 4; ++d)
      for (int t = neighbour(s, d); t != kNoSquare && at(t) == kEmpty; t = neighbour(t, d))
        if (may_stop(p, t)) out[n++] = Move{static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(t)};
  }
  assert(n <= kMaxMoves);
  return n;
}

bool Board::has_move() const {
  for (int s = 0; s < kSquares; ++s) {
    std::uint8_t p = at(s);
    if (!owns(p)) continue;
    for (int d = 0; d < 4; ++d)
      for (int t = neighbour(s, d); t != kNoSquare && at(t) == kEmpty; t = neighbour(t, d))
        if (may_stop(p, t)) return true;
  }
  return false;
}

// The throne, when special, is hostile to attackers while empty; an armed king on it is hostile as a piece.
bool Board::hostile_to_attacker(int sq) const {
  std::uint8_t p = at(sq);
  return p == kDefender || (p == kKing && rules_.armed_king) || is_corner(sq) ||
         (rules_.special_throne && sq == kThrone && p == kEmpty);
}

bool Board::hostile_to_defender(int sq) const {
  std::uint8_t p = at(sq);
  return p == kAttacker || is_corner(sq) || (rules_.special_throne && sq == kThrone && p == kEmpty);
}

// Four attackers, or three and the special throne, around a king off the edge.
bool Board::king_enclosed(int k) const {
  if (on_edge(k)) return false;
  for (int d = 0; d < 4; ++d) {
    int s = neighbour(k, d);
    if (at(s) != kAttacker && !(rules_.special_throne && s == kThrone)) return false;
  }
  return true;
}

Undo Board::make(Move m) {
  Undo u;
  u.king_before = king_;
  u.key_before = key_;
  std::uint8_t p = at(m.from);
  assert(owns(p) && at(m.to) == kEmpty);
  set(m.from, kEmpty);
  set(m.to, p);
  if (p == kKing) king_ = m.to;

  // Only the moved piece captures, against the square beyond each neighbour; an unarmed king never does.
  Captures& c = u.captures;
  if (p != kKing || rules_.armed_king) {
    for (int d = 0; d < 4; ++d) {
      int n = neighbour(m.to, d);
      if (n == kNoSquare) continue;
      std::uint8_t q = at(n);
      bool taken = false;
      if (side_ == 0) {
        if (q == kDefender) {
          int f = neighbour(n, d);
          taken = f != kNoSquare && hostile_to_defender(f);
        } else if (q == kKing) {
          taken = king_enclosed(n);
          c.king = taken;
        }
      } else if (q == kAttacker) {
        int f = neighbour(n, d);
        taken = f != kNoSquare && hostile_to_attacker(f);
      }
      if (taken) {
        c.squares[static_cast<std::size_t>(c.count)] = static_cast<std::uint8_t>(n);
        c.pieces[static_cast<std::size_t>(c.count)] = q;
        ++c.count;
      }
    }
  }
  // Removed only after all are found, so that no capture depends on another.
  for (int i = 0; i < c.count; ++i) set(c.squares[static_cast<std::size_t>(i)], kEmpty);
  if (c.king) king_ = kNoSquare;
  set_side(1 - side_);
  return u;
}

void Board::unmake(Move m, const Undo& u) {
  const Captures& c = u.captures;
  for (int i = 0; i < c.count; ++i)
    sq_[c.squares[static_cast<std::size_t>(i)]] = c.pieces[static_cast<std::size_t>(i)];
  sq_[m.from] = sq_[m.to];
  sq_[m.to] = kEmpty;
  king_ = u.king_before;
  key_ = u.key_before;
  side_ = 1 - side_;
}

Board start_board(Rules rules, int first_side) {
  Board b(rules);
  auto sq = [](char c, int r) { return (r - 1) * kSize + (c - 'a'); };
  for (const char* s :
       {"d1", "e1", "f1", "e2", "a4", "a5", "a6", "b5", "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8"})
    b.put(sq(s[0], s[1] - '0'), kAttacker);
  for (const char* s : {"e3", "e4", "e6", "e7", "c5", "d5", "f5", "g5"})
    b.put(sq(s[0], s[1] - '0'), kDefender);
  b.put(kThrone, kKing);
  b.set_side(first_side);
  return b;
}

int occurrences(const std::vector<Key>& history, const Key& key) {
  return static_cast<int>(std::count(history.begin(), history.end(), key));
}

Ending ending_of(const Board& board, const std::vector<Key>& history) {
  if (board.king_captured()) return Ending::capture;
  if (board.king_escaped()) return Ending::escape;
  if (occurrences(history, board.key()) >= 3) return Ending::repetition;
  if (!board.has_move()) return Ending::blocked;
  return Ending::none;
}

namespace {

// A depth-first walk with make/unmake; the history is one stack, `start_` marking the last capture.
class Walker {
 public:
  Walker(const Board& board, const std::vector<Key>& history) : board_(board), history_(history) {
    history_.reserve(history_.size() + 64);
  }

  std::uint64_t root(int depth) {
    if (depth <= 0) return 1;
    if (ending_of(board_, history_) != Ending::none) return 0;
    return expand(depth);
  }

 private:
  // The sequences from a live position, depth >= 1; 0 when the side to move has no move.
  std::uint64_t expand(int depth) {
    Move moves[kMaxMoves];
    int n = board_.generate(moves);
    if (depth == 1) return static_cast<std::uint64_t>(n);
    std::uint64_t total = 0;
    for (int i = 0; i < n; ++i) total += child(moves[i], depth - 1);
    return total;
  }

  std::uint64_t child(Move m, int depth) {
    Undo u = board_.make(m);
    std::size_t start_before = start_;
    if (u.captures.count > 0) start_ = history_.size();
    history_.push_back(board_.key());
    std::uint64_t r = 1;  // the game ended here: the move counts, nothing follows
    if (!board_.king_captured() && !board_.king_escaped() && !repeated()) {
      r = expand(depth);
      if (r == 0) r = 1;  // blocked: the game ends here too
    }
    history_.pop_back();
    start_ = start_before;
    board_.unmake(m, u);
    return r;
  }

  // The position just reached is a third occurrence. Sides alternate, so equal keys lie two apart.
  bool repeated() const {
    const Key& k = history_.back();
    int seen = 1;
    for (std::size_t i = history_.size() - 1; i >= start_ + 2; i -= 2)
      if (history_[i - 2] == k && ++seen == 3) return true;
    return false;
  }

  Board board_;
  std::vector<Key> history_;
  std::size_t start_ = 0;
};

}  // namespace

std::uint64_t perft(const Board& board, const std::vector<Key>& history, int depth) {
  return Walker(board, history).root(depth);
}

}  // namespace cinq::tablut
