// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md): the game, and what tests and tools need to set up
// positions (an ASCII diagram, another hole layout).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>

#include "rules/game.h"

namespace cinq::kopf {

const Game& game();

inline constexpr int kSize = 10;  // columns a..j, rows 1..10
inline constexpr int kSquares = kSize * kSize;

// Holes per square (1..4), indexed row * 10 + column from a1.
using Holes = std::array<std::int8_t, kSquares>;

// Reads a layout diagram like layout.h's: one line per row, the row number then ten digits 1..4. Lines
// not starting with a row number (the column letters) are ignored. Every row exactly once.
Result<Holes> parse_layout(std::string_view diagram);
// The project's layout (layout.h), parsed once.
const std::shared_ptr<const Holes>& standard_holes();

// What a diagram alone does not say about a position.
struct Setup {
  Side to_move = 0;              // 0 Red, 1 Blue
  std::array<int, 2> removed{};  // buttons removed so far by Red, by Blue
  int target = 10;               // the `target` option (8..14)
  bool opponent_passed = false;  // the previous turn was a pass
};

// A position at the start of a turn from a diagram in the form `ascii()` prints: lines starting with a row
// number give that row's ten squares (`.` empty, `R` Red, `B` Blue); if the line then carries ten more
// digits, they must equal the layout's holes (so diagrams in tests cannot misstate them). Other lines are
// ignored. Errors name what is wrong.
Result<std::unique_ptr<State>> from_ascii(std::string_view diagram, const Setup& setup = {},
                                          std::shared_ptr<const Holes> holes = nullptr);

}  // namespace cinq::kopf
