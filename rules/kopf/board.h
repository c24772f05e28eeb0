// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md): the board's geometry and the pure rules on it
// (groups, the strike, the moves), free of turns and records so each can be tested alone.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/kopf/kopf.h"

namespace cinq::kopf {

inline constexpr std::int8_t kEmpty = -1;
// Who stands on each square: kEmpty, or the side (0 Red, 1 Blue).
using Cells = std::array<std::int8_t, kSquares>;

inline constexpr int col_of(int sq) { return sq % kSize; }
inline constexpr int row_of(int sq) { return sq / kSize; }
inline constexpr bool on_board(int col, int row) {
  return col >= 0 && col < kSize && row >= 0 && row < kSize;
}
inline constexpr int square(int col, int row) { return row * kSize + col; }

// The 8 directions, as (column, row) steps.
inline constexpr std::array<std::pair<int, int>, 8> kDirections = {
    {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}};

std::string square_name(int sq);                         // "e5", "j10"
std::optional<int> parse_square(std::string_view text);  // lower case, rows 1..10 without leading zero

// The start: the ring b2..i9, alternating from Red on b9 clockwise.
Cells start_cells();

// For every occupied square, the size of its group (buttons of the same side touching orthogonally or
// diagonally, connected); 0 for an empty square.
std::array<std::int8_t, kSquares> group_sizes(const Cells& cells);

// The buttons of `opponent` that a penalty may remove: those in a group of three or more. Ascending.
std::vector<int> penalty_squares(const Cells& cells, int opponent);

// The opposing buttons `side`'s pairs strike on `cells`, sorted by column then row (the writer's order).
std::vector<int> strike(const Cells& cells, const Holes& holes, int side);

// `side`'s moves on `cells` as (from, to), by origin square then direction then distance.
std::vector<std::pair<int, int>> moves(const Cells& cells, const Holes& holes, int side);

// Why (from, to) is not a move of `side` on `cells`, in words; "" if it is one.
std::optional<Error> move_error(const Cells& cells, const Holes& holes, int side, int from, int to,
                                const std::string& item);

}  // namespace cinq::kopf
