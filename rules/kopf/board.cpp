// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md): geometry, groups, strike and moves.
#include "rules/kopf/board.h"

#include <algorithm>
#include <cstdlib>

namespace cinq::kopf {

namespace {

const char* side_name(int side) { return side == 0 ? "Red" : "Blue"; }

// How far a button on `h` holes may move: exactly h, or 1..4 from a 4-hole square.
std::pair<int, int> distance_range(int h) { return h == 4 ? std::pair{1, 4} : std::pair{h, h}; }

}  // namespace

std::string square_name(int sq) {
  return std::string(1, static_cast<char>('a' + col_of(sq))) + std::to_string(row_of(sq) + 1);
}

std::optional<int> parse_square(std::string_view text) {
  if (text.size() < 2 || text.size() > 3) return std::nullopt;
  int col = text[0] - 'a';
  if (col < 0 || col >= kSize) return std::nullopt;
  std::string_view digits = text.substr(1);
  if (digits[0] == '0') return std::nullopt;
  int row = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    row = row * 10 + (c - '0');
  }
  if (row < 1 || row > kSize) return std::nullopt;
  return square(col, row - 1);
}

Cells start_cells() {
  Cells cells;
  cells.fill(kEmpty);
  // The ring clockwise from b9: along row 9 to i9, down column i to i2, along row 2 to b2, up column b.
  std::vector<int> ring;
  for (int c = 1; c <= 8; ++c) ring.push_back(square(c, 8));
  for (int r = 7; r >= 1; --r) ring.push_back(square(8, r));
  for (int c = 7; c >= 1; --c) ring.push_back(square(c, 1));
  for (int r = 2; r <= 7; ++r) ring.push_back(square(1, r));
  for (std::size_t i = 0; i < ring.size(); ++i) cells[ring[i]] = static_cast<std::int8_t>(i % 2);
  return cells;
}

std::array<std::int8_t, kSquares> group_sizes(const Cells& cells) {
  std::array<std::int8_t, kSquares> size{};
  std::array<bool, kSquares> seen{};
  std::vector<int> group;
  for (int s = 0; s < kSquares; ++s) {
    if (cells[s] == kEmpty || seen[s]) continue;
    group.assign(1, s);
    seen[s] = true;
    for (std::size_t i = 0; i < group.size(); ++i) {
      int g = group[i];
      for (auto [dc, dr] : kDirections) {
        int c = col_of(g) + dc, r = row_of(g) + dr;
        if (!on_board(c, r)) continue;
        int n = square(c, r);
        if (!seen[n] && cells[n] == cells[s]) {
          seen[n] = true;
          group.push_back(n);
        }
      }
    }
    for (int g : group) size[g] = static_cast<std::int8_t>(std::min<std::size_t>(group.size(), 127));
  }
  return size;
}

std::vector<int> penalty_squares(const Cells& cells, int opponent) {
  auto size = group_sizes(cells);
  std::vector<int> out;
  for (int s = 0; s < kSquares; ++s)
    if (cells[s] == opponent && size[s] >= 3) out.push_back(s);
  return out;
}

std::vector<int> strike(const Cells& cells, const Holes& holes, int side) {
  auto size = group_sizes(cells);
  std::array<bool, kSquares> struck{};
  // Scans from `from` (excluded) along (dc, dr) for `range` squares; the first button met decides.
  auto scan = [&](int from, int dc, int dr, int range) {
    int c = col_of(from), r = row_of(from);
    for (int k = 0; k < range; ++k) {
      c += dc;
      r += dr;
      if (!on_board(c, r)) return;
      int s = square(c, r);
      if (cells[s] == kEmpty) continue;
      if (cells[s] != side) struck[s] = true;
      return;  // own button: the line is blocked; opposing button: struck, and it shields those behind
    }
  };
  for (int a = 0; a < kSquares; ++a) {
    if (cells[a] != side || size[a] != 2) continue;
    for (auto [dc, dr] : kDirections) {
      int c = col_of(a) + dc, r = row_of(a) + dr;
      if (!on_board(c, r)) continue;
      int b = square(c, r);
      if (b < a || cells[b] != side) continue;  // each pair once, from its lower square
      int range = holes[a] + holes[b];
      scan(b, dc, dr, range);
      scan(a, -dc, -dr, range);
    }
  }
  std::vector<int> out;
  for (int c = 0; c < kSize; ++c)
    for (int r = 0; r < kSize; ++r)
      if (struck[square(c, r)]) out.push_back(square(c, r));
  return out;
}

std::vector<std::pair<int, int>> moves(const Cells& cells, const Holes& holes, int side) {
  std::vector<std::pair<int, int>> out;
  for (int from = 0; from < kSquares; ++from) {
    if (cells[from] != side) continue;
    auto [lo, hi] = distance_range(holes[from]);
    for (auto [dc, dr] : kDirections)
      for (int n = lo; n <= hi; ++n) {
        int c = col_of(from) + dc * n, r = row_of(from) + dr * n;
        if (on_board(c, r) && cells[square(c, r)] == kEmpty) out.emplace_back(from, square(c, r));
      }
  }
  return out;
}

std::optional<Error> move_error(const Cells& cells, const Holes& holes, int side, int from, int to,
                                const std::string& item) {
  auto fail = [&](ErrorCode code, ErrorParams params, const std::string& why) {
    params.insert(params.begin(), {"item", item});
    return make_error(code, std::move(params), item + ": " + why);
  };
  auto letter = [](int s) { return std::string(s == 0 ? "R" : "B"); };
  std::string f = square_name(from), t = square_name(to);
  if (cells[from] == kEmpty) return fail(ErrorCode::square_empty, {{"square", f}}, f + " is empty");
  if (cells[from] != side)
    return fail(ErrorCode::other_button,
                {{"square", f}, {"owner_side", letter(cells[from])}, {"side", letter(side)}},
                f + " is a " + side_name(cells[from]) + " button, not " + side_name(side) + "'s");
  if (from == to) return fail(ErrorCode::piece_stays, {}, "a move must leave its square");
  int dc = col_of(to) - col_of(from), dr = row_of(to) - row_of(from);
  if (dc != 0 && dr != 0 && std::abs(dc) != std::abs(dr))
    return fail(ErrorCode::not_on_line, {{"to", t}, {"from", f}},
                t + " is not on a line from " + f + " (8 directions: straight or diagonal)");
  int n = std::max(std::abs(dc), std::abs(dr));
  int h = holes[from];
  auto [lo, hi] = distance_range(h);
  if (n < lo || n > hi) {
    if (h == 4)
      return fail(ErrorCode::four_holes_distance, {{"square", f}, {"distance", std::to_string(n)}},
                  f + " stands on 4 holes: it moves 1 to 4 squares, not " + std::to_string(n));
    return fail(ErrorCode::holes_distance,
                {{"square", f}, {"holes", std::to_string(h)}, {"distance", std::to_string(n)}},
                f + " stands on " + std::to_string(h) + (h == 1 ? " hole" : " holes") +
                    ": it moves exactly " + std::to_string(h) + (h == 1 ? " square" : " squares") + ", not " +
                    std::to_string(n));
  }
  if (cells[to] != kEmpty)
    return fail(ErrorCode::square_taken, {{"square", t}, {"owner_side", letter(cells[to])}},
                t + " is taken by a " + std::string(side_name(cells[to])) + " button");
  return std::nullopt;
}

}  // namespace cinq::kopf
