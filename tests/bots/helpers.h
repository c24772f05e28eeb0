// What the bot suites share: positions to ask the bots about.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string_view>

#include "rules/game.h"

namespace cinq::test {

inline std::unique_ptr<State> start_of(const Game& game, std::string_view options) {
  auto state = game.start(options);
  REQUIRE(state);
  return std::move(*state);
}

// A position reached by up to `actions` random actions from the start under `options` (an action that would
// end the game is not played, so the position is never over).
inline std::unique_ptr<State> random_position(const Game& game, std::string_view options,
                                              std::mt19937_64& rng, int actions) {
  std::unique_ptr<State> s = start_of(game, options);
  for (int i = 0; i < actions; ++i) {
    auto legal = s->legal_actions();
    auto next = s->clone();
    next->apply(legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)]);
    if (next->outcome().over()) break;
    s = std::move(next);
  }
  return s;
}

}  // namespace cinq::test
