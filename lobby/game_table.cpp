#include "lobby/game_table.h"

#include <climits>

#include "rules/registry.h"

namespace cinq::lobby {

std::string option_hint(const OptionSpec& spec) {
  std::string values;
  if (!spec.choices.empty()) {
    for (const std::string& choice : spec.choices) values += (values.empty() ? "" : "|") + choice;
  } else if (spec.max == INT_MAX) {
    values = "N";  // any count from `min` (or none_value)
  } else {
    values = std::to_string(spec.min) + ".." + std::to_string(spec.max);
  }
  return spec.key + "=" + values;
}

nlohmann::json game_entry(const Game& game) {
  const GameWords& words = game.words();
  nlohmann::json sides = nlohmann::json::array();
  for (Side s = 0; s < 2; ++s)
    sides.push_back({{"letter", std::string(1, game.side_letter(s))},
                     {"name", std::string(words.sides[static_cast<std::size_t>(s)])}});
  nlohmann::json options = nlohmann::json::array();
  std::string hints;
  for (const OptionSpec& spec : game.option_specs()) {
    nlohmann::json o = {{"key", spec.key}, {"default", spec.default_value}, {"hint", option_hint(spec)}};
    if (!spec.choices.empty()) {
      o["choices"] = spec.choices;
    } else {
      o["min"] = spec.min;
      if (spec.max != INT_MAX) o["max"] = spec.max;
    }
    if (!spec.none_value.empty()) o["none"] = spec.none_value;
    hints += (hints.empty() ? "" : "  ") + option_hint(spec);
    options.push_back(std::move(o));
  }
  // Each member only where the game words it: the client has its own sentence for the rest.
  nlohmann::json results = nlohmann::json::object();
  for (const ResultWords& r : words.results) {
    nlohmann::json wording = nlohmann::json::object();
    if (!r.win.empty()) wording["win"] = std::string(r.win);
    if (!r.win_bare.empty()) wording["win_bare"] = std::string(r.win_bare);
    if (!r.draw.empty()) wording["draw"] = std::string(r.draw);
    results[std::string(r.reason)] = std::move(wording);
  }
  return {{"name", std::string(game.name())},
          {"record_name", std::string(game.record_name())},
          {"title", std::string(words.title)},
          {"about", std::string(words.about)},
          {"sides", std::move(sides)},
          {"plural", words.plural},
          {"numbered_players", words.numbered_players},
          {"options", std::move(options)},
          {"options_hint", hints},
          {"results", std::move(results)}};
}

const std::string& game_table_text() {
  static const std::string text = [] {
    nlohmann::json games = nlohmann::json::array();
    for (const Game* g : cinq::games()) games.push_back(game_entry(*g));
    return nlohmann::json{{"games", std::move(games)}}.dump();
  }();
  return text;
}

}  // namespace cinq::lobby
