// Tablut's position, move generator and captures (docs/rules/tablut.md): the fast core under the
// contract's State, used as it is by the perft walk (no virtual calls, make/unmake).
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <vector>

namespace cinq::tablut {

// Squares are numbered row * 9 + column from a1 = 0 (column a..i, row 1..9); e5 = 40.
constexpr int kSize = 9;
constexpr int kSquares = kSize * kSize;
constexpr int kThrone = 4 * kSize + 4;
constexpr int kNoSquare = -1;
// No position has more: 25 pieces with at most 16 destinations each.
constexpr int kMaxMoves = 400;

enum Piece : std::uint8_t { kEmpty = 0, kAttacker = 1, kDefender = 2, kKing = 3 };

inline int column(int sq) { return sq % kSize; }
inline int row(int sq) { return sq / kSize; }
inline bool is_corner(int sq) {
  return sq == 0 || sq == kSize - 1 || sq == kSquares - kSize || sq == kSquares - 1;
}
inline bool on_edge(int sq) {
  return column(sq) == 0 || column(sq) == kSize - 1 || row(sq) == 0 || row(sq) == kSize - 1;
}

namespace detail {
constexpr auto kNeighbour = [] {
  std::array<std::array<std::int8_t, 4>, kSquares> t{};
  for (int s = 0; s < kSquares; ++s) {
    const int c = s % kSize, r = s / kSize;
    t[s][0] = static_cast<std::int8_t>(r + 1 < kSize ? s + kSize : kNoSquare);
    t[s][1] = static_cast<std::int8_t>(r > 0 ? s - kSize : kNoSquare);
    t[s][2] = static_cast<std::int8_t>(c + 1 < kSize ? s + 1 : kNoSquare);
    t[s][3] = static_cast<std::int8_t>(c > 0 ? s - 1 : kNoSquare);
  }
  return t;
}();
}  // namespace detail

// The square beside `sq` in direction `d` (0 up a row, 1 down, 2 right, 3 left: `d ^ 1` is the opposite),
// kNoSquare off the board.
inline int neighbour(int sq, int d) {
  return detail::kNeighbour[static_cast<std::size_t>(sq)][static_cast<std::size_t>(d)];
}

// The options that change play.
struct Rules {
  bool armed_king = true;      // king=armed
  bool special_throne = true;  // throne=special
};

// An exact image of a position (2 bits per square, plus the side to move): what repetition compares.
// Exact rather than hashed, so a repetition can never be a collision.
struct Key {
  std::array<std::uint64_t, 3> w{};
  friend bool operator==(const Key&, const Key&) = default;
  friend auto operator<=>(const Key&, const Key&) = default;
};

struct Move {
  std::uint8_t from = 0;
  std::uint8_t to = 0;
};

// What a move took off the board: up to three soldiers, plus the king.
struct Captures {
  int count = 0;
  std::array<std::uint8_t, 4> squares{};
  std::array<std::uint8_t, 4> pieces{};
  bool king = false;
};

// The undo record of make().
struct Undo {
  Captures captures;
  int king_before = kNoSquare;
  Key key_before;
};

class Board {
 public:
  Board() = default;
  explicit Board(Rules rules) : rules_(rules) {}

  const Rules& rules() const { return rules_; }
  int side() const { return side_; }  // 0 attackers, 1 defenders
  std::uint8_t at(int sq) const { return sq_[static_cast<std::size_t>(sq)]; }
  int king() const { return king_; }  // kNoSquare once captured
  const Key& key() const { return key_; }

  // Setting up (diagrams, the start): keeps the key and the king's square in step.
  void put(int sq, std::uint8_t piece);
  void set_side(int side);

  // The moves of the side to move, into `out` (room for kMaxMoves); returns how many.
  int generate(Move* out) const;
  bool has_move() const;
  // Plays a legal move: captures, then the other side to move.
  Undo make(Move m);
  void unmake(Move m, const Undo& u);

  bool king_escaped() const { return king_ != kNoSquare && is_corner(king_); }
  bool king_captured() const { return king_ == kNoSquare; }

  // Whether a piece of the side to move may stop on `to` (corners and the special throne).
  bool may_stop(std::uint8_t piece, int to) const {
    if (piece == kKing) return true;
    return !is_corner(to) && !(to == kThrone && rules_.special_throne);
  }
  bool owns(std::uint8_t piece) const { return piece != kEmpty && (piece == kAttacker) == (side_ == 0); }

 private:
  void set(int sq, std::uint8_t piece);
  bool hostile_to_attacker(int sq) const;
  bool hostile_to_defender(int sq) const;
  bool king_enclosed(int k) const;

  std::array<std::uint8_t, kSquares> sq_{};
  Rules rules_;
  int side_ = 0;
  int king_ = kNoSquare;
  Key key_;
};

// The standard start with attackers (side 0) or defenders to move.
Board start_board(Rules rules, int first_side);

// How the game stands after the last move, as far as the board decides.
enum class Ending { none, escape, capture, repetition, blocked };

// How many times `key` occurs in `history`.
int occurrences(const std::vector<Key>& history, const Key& key);
// The ending of a position reached with `history` (its key last): escape, capture, repetition, blocked.
Ending ending_of(const Board& board, const std::vector<Key>& history);

// perft: the number of move sequences of `depth` moves from `board` with `history` (a position where the
// game is over is not expanded further; moves into it still count).
std::uint64_t perft(const Board& board, const std::vector<Key>& history, int depth);

}  // namespace cinq::tablut
