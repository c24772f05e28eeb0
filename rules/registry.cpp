#include "rules/registry.h"

#include <cctype>

// Each game's `game()`, declared from the list (the games' own headers declare it too).
#define CINQ_GAME(id) \
  namespace cinq::id { \
  const Game& game(); \
  }
#include "rules/games.inc"
#undef CINQ_GAME

namespace cinq {

const std::vector<const Game*>& games() {
  static const std::vector<const Game*> list = {
#define CINQ_GAME(id) &id::game(),
#include "rules/games.inc"
#undef CINQ_GAME
  };
  return list;
}

const Game* find_game(std::string_view name) {
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  std::string wanted = lower(name);
  for (const Game* g : games())
    if (g->name() == wanted || lower(g->record_name()) == wanted) return g;
  return nullptr;
}

std::string game_names() {
  std::string s;
  for (const Game* g : games()) s += (s.empty() ? "" : ", ") + std::string(g->name());
  return s;
}

}  // namespace cinq
