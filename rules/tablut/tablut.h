// Tablut (docs/rules/tablut.md): the game, and what tests need to set up positions.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "rules/game.h"

namespace cinq::tablut {

const Game& game();

// A position from an ASCII diagram, as `State::ascii()` draws it: one line per row, `9` to `1`, each the row
// number then nine cells (`A` attacker, `D` defender, `K` king, `.` empty; `#` on a corner and `+` on the
// empty throne are empty too). Other lines (the column letters, "A to move") are ignored. `to_move` plays
// next; `options` are `key=value` as on a `#!` line. The position is the first of its repetition history.
Result<std::unique_ptr<State>> position(std::string_view diagram, Side to_move,
                                        std::string_view options = {});

// The action for `from` and `to` squares (`"e2"`, `"a2"`); for tests and tools. Not checked for legality.
Action move(std::string_view from, std::string_view to);

}  // namespace cinq::tablut
