#include "rules/registry.h"

#include <cctype>

// One include and one line per game.
#include "rules/baltek/baltek.h"
#include "rules/batik/batik.h"
#include "rules/tablut/tablut.h"
#include "rules/kopf/kopf.h"
#include "rules/bilitaire/bilitaire.h"

namespace cinq {

const std::vector<const Game*>& games() {
  static const std::vector<const Game*> list = {
      &baltek::game(),
      &batik::game(),
      &tablut::game(),
      &kopf::game(),
      &bilitaire::game(),
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
