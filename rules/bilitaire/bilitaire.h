// Bi-litaire (docs/rules/bilitaire.md): side 0 is the marble player `M`, side 1 the tray player `T`;
// an Outcome's winner is a player (0 = player 1, who is M in round 1; 1 = player 2).
#pragma once

#include <memory>
#include <string_view>

#include "rules/game.h"

namespace cinq::bilitaire {

const Game& game();

// Where a position stands in its round, for building test positions.
enum class Phase {
  first_removal,  // M takes the round's first marble
  tray,           // T slides or removes a tray
  tray_done,      // T has made its tray action: an announcement or the end of the turn
  marbles,        // M jumps (one jump, or the announced chain)
  over,           // both rounds are over
};

struct Setup {
  int round = 1;
  Phase phase = Phase::tray;
  int announced = 0;     // in Phase::marbles: the announced chain length, 0 for none
  int round1_left = -1;  // in round 2: the marbles left at the end of round 1
};

// A position from an ASCII diagram of the holes, as `ascii()` draws it: eight rows `8 . . o o + o . .`
// (row number, then a cell per column a..h: `o` a marble, `+` an empty hole, `.` no hole), other lines
// ignored. Each 2 x 2 tray block must be all `.` (a free slot) or all holes.
Result<std::unique_ptr<State>> position(std::string_view diagram, const Setup& setup = {});

}  // namespace cinq::bilitaire
