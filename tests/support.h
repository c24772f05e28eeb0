// Helpers shared by the test suites: files, the `cinq` binary, and the conformance suite every game passes.
#pragma once

#include <string>
#include <string_view>

#include "rules/game.h"

namespace cinq::test {

// The text of a file; fails the test if it cannot be read.
std::string read_text(const std::string& path);
// A path under tests/data (records/... holds the sample records of docs/notation.md).
std::string data_path(std::string_view relative);

struct Run {
  int exit_code = -1;
  std::string out;  // stdout and stderr together
};
// Runs the built `cinq` binary with `args` (a shell word list), optionally feeding `input` on stdin.
Run run_cinq(std::string_view args, std::string_view input = {});

// The shared conformance suite (docs/design.md): `games` random games of `game` under `options` (its
// bounded_options() when empty), seeded by `seed`. At every step: each legal action's text reads back to
// that action, a clone stays in step, the record written so far reads back to the same state, and the game
// ends within `max_actions`. Reports failures through doctest.
void check_conformance(const Game& game, std::string_view options, unsigned seed, int games,
                       int max_actions = 5000);

}  // namespace cinq::test
