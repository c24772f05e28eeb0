// Tournaments of bots played offline (`cinq tournament simulate`): every game played through the rules by
// bots of one level, seeded, and the rounds and standings printed. The only part of tournament/ that knows
// the games and the bots (a library of its own, cinq_tournament_sim).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "tournament/tournament.h"

namespace cinq::tournament {

struct SimulateConfig {
  Format format = Format::swiss;
  std::string game;     // a game of the registry (rules/registry.h)
  std::string options;  // its options, `key=value ...`
  int players = 8;
  int rounds = 5;                   // Swiss
  bool double_round_robin = false;  // round robin
  int minutes = 60;                 // arena: its duration, in simulated time
  int level = 0;                    // the bots' level (0: random legal turns)
  std::uint64_t seed = 1;           // of every game's turns: the same seed, the same tournament
  bool json = false;                // the final state (Tournament::to_json) and standings as JSON instead
};

// Plays the tournament and writes, as plain text, each round's pairings with their results (an arena's games
// in the order they end, at their simulated time), then the standings with their tie-breaks and the
// crosstable. An arena's game takes a simulated 20 s plus 2 s per action. False, with `error`, for an
// unknown game or bad options.
bool simulate(const SimulateConfig& config, std::ostream& out, std::string& error);

}  // namespace cinq::tournament
