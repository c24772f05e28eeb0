// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md): the board's hole layout, the one place it is kept.
//
// The original board's figures are lost, so this project defines its own layout (the rules file's "Board").
// It is data on purpose: to play on another layout, replace this diagram (rows 10 down to 1, columns a..j,
// one digit 1..4 per square) or pass another one to `parse_layout`; nothing else knows the numbers.
#pragma once

#include <string_view>

namespace cinq::kopf {

inline constexpr std::string_view kStandardLayout = R"(
     a b c d e f g h i j
10   2 3 1 4 2 2 4 1 3 2
 9   3 1 4 2 3 3 2 4 1 3
 8   1 4 2 3 1 1 3 2 4 1
 7   4 2 3 1 4 4 1 3 2 4
 6   2 3 1 4 2 2 4 1 3 2
 5   2 3 1 4 2 2 4 1 3 2
 4   4 2 3 1 4 4 1 3 2 4
 3   1 4 2 3 1 1 3 2 4 1
 2   3 1 4 2 3 3 2 4 1 3
 1   2 3 1 4 2 2 4 1 3 2
)";

}  // namespace cinq::kopf
