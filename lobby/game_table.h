// The game table: every game of the registry (rules/registry.h) as the client needs to show it — names,
// title, what it is, its sides in words, its options with a hint for each — so that the browser client keeps
// no list of the games (docs/protocol.md, "The games"; GET /api/games/table).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "rules/game.h"

namespace cinq::lobby {

// One game's entry.
nlohmann::json game_entry(const Game& game);
// {"games": [entry, ...]} in the registry's order, as JSON text (built once).
const std::string& game_table_text();
// An option's hint for a form: `first=attackers|defenders`, `goals=1..5`, `turns=N`.
std::string option_hint(const OptionSpec& spec);

}  // namespace cinq::lobby
