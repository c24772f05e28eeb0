// The shared conformance suite (docs/design.md), run over every registered game: random games in which, at
// every step, each legal action's text reads back to it, a copy stays in step, the record written so far
// replays to the same state, and the game ends within a bound.
#include <doctest/doctest.h>

#include <set>

#include "rules/registry.h"
#include "tests/support.h"

using namespace cinq;

TEST_CASE("conformance: every registered game passes the shared random-game suite") {
  for (const Game* g : games()) {
    // name() views a string literal: its data() outlives the subcase
    SUBCASE(g->name().data()) { test::check_conformance(*g, "", 20261121u, 4); }
  }
}

TEST_CASE("registry: games are listed once, found by either name, in any case") {
  std::set<std::string> names;
  for (const Game* g : games()) {
    CHECK(names.insert(std::string(g->name())).second);
    CHECK(find_game(g->name()) == g);
    CHECK(find_game(g->record_name()) == g);
    std::string lower(g->record_name());
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    CHECK(lower == g->name());
  }
  CHECK(find_game("chess") == nullptr);
  CHECK(find_game("baltek") != nullptr);
}
