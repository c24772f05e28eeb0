// The games, from their one list, rules/games.inc (explicit: static self-registration silently drops games
// linked from a static library).
#pragma once

#include <string_view>
#include <vector>

#include "rules/game.h"

namespace cinq {

// Every game, in a fixed order.
const std::vector<const Game*>& games();
// A game by its lower-case name (`kopf-oder-knopf`) or its record name in any case (`KOPF-ODER-KNOPF`);
// nullptr if there is none.
const Game* find_game(std::string_view name);
// "baltek, tablut, ..." for messages.
std::string game_names();

}  // namespace cinq
