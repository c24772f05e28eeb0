// The pairing systems of tournaments (docs/tournaments.md), as pure functions over plain numbers: a Swiss
// round after the principles of the FIDE Dutch system, Berger tables for round robins, and an arena's
// continuous pairing. Players are indexes into the list the caller gives; sides are 0 (the first seat, which
// moves first) and 1. Deterministic: the same input gives the same pairing, ties going to the better ranked.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace cinq::tournament {

// --- Sides (the Dutch system's colours)

// How much a player wants a side (FIDE Dutch, A.6): none before any game; mild to alternate after an even
// balance; strong to even out a balance of one; absolute after a balance of two or the same side twice in a
// row (a third would break the rule).
enum class Strength : std::uint8_t { none, mild, strong, absolute };

struct Preference {
  int side = -1;  // the side wanted, -1 none
  Strength strength = Strength::none;
  int balance = 0;  // games played first minus games played second
};

// The preference of a player who played `sides` (0 or 1 each, oldest first; unplayed rounds left out).
Preference side_preference(const std::vector<int>& sides);

// --- Swiss

struct SwissPlayer {
  int points2 = 0;             // the score in half points (a win 2, a draw 1)
  std::vector<int> sides;      // the sides of the games played over the board, oldest first
  std::vector<int> opponents;  // the players already met (indexes in the same list), once per game
  bool had_bye = false;        // a bye already: another only if nothing else pairs the round
  std::vector<int> avoid;      // players this one blocked or was blocked by (either way is enough): paired
                               // with them only as with an opponent met already (criterion 1)
};

struct SwissRound {
  std::vector<std::array<int, 2>> boards;  // [first seat, second seat], in board order
  int bye = -1;                            // the player left out (an odd number), -1 none
};

// Pairs one round of `players`, given in ranking order (the seeding: index 0 the highest rated; their scores
// reorder them, not the caller). Criteria, most important first:
//   1. no two players meet again (nor two who blocked one another: `avoid`, counted as a game between them),
//      and no one gets a second bye, unless nothing else pairs the round;
//   2. no absolute side conflict (two players who must both play the same side: a third time in a row, or a
//      balance beyond 2), unless nothing else pairs the round;
//   3. players meet others of their score: the sum of the squared score differences of the pairs, and the
//      bye's score above the lowest, as small as possible (so one downfloater per odd score group, to the
//      next group);
//   4. side preferences honoured: as few players as possible denied their preference (a strong one counts
//      twice);
//   5. the Dutch order within a score group: the top half (S1) against the bottom half (S2), S1's i-th
//      against S2's i-th; transpositions within S2 before exchanges between S1 and S2; a downfloater the
//      lowest of its group, meeting the highest of the next; the bye to the lowest ranked.
// One maximum weighted matching (Boost.Graph) over a graph whose edge weights encode these criteria
// lexicographically. Edges are first built only between players near each other in the ranking or near
// each other's Dutch partner, widened until the graph has a perfect matching; criteria 1 and 2 are first
// hard (edges left out), then costs. Sides follow the Dutch allocation rules (E.1-E.5); in a pair of players
// with no games, the higher ranked plays first on odd boards (1, 3, ...) and second on even ones.
SwissRound pair_swiss(const std::vector<SwissPlayer>& players);

// --- Round robin

// The Berger tables (FIDE Handbook C.05, Annex 1) for `n` players numbered 0..n-1 (the tables' 1..n): one
// entry per round, each pair [first seat, second seat] in board order. For an odd `n` a dummy completes the
// table: whoever it meets rests that round (left out of the round's pairs, named in `resting`).
struct BergerRound {
  std::vector<std::array<int, 2>> boards;
  int resting = -1;
};
std::vector<BergerRound> berger_rounds(int n);
// The rounds of a whole event: the table once, or twice with the sides swapped in the second cycle.
std::vector<BergerRound> round_robin_rounds(int n, bool double_round);

// --- Arena

struct ArenaPlayer {
  int points = 0;          // arena points so far
  int last_opponent = -1;  // the opponent of the last game (an index in the same list), -1 none
  int balance = 0;         // games played first minus games played second
  std::vector<int> avoid;  // players this one blocked or was blocked by: met only as a rematch would be
};

// Pairs the players waiting for a game, given in ranking order (best first): the best waiting player meets
// the nearest in points, never the opponent of its last game (nor one it avoids: a block either way) while
// another player waits; then the next unpaired, and so on. Two who just met (or avoid one another) and find
// no one else waiting meet only if no one else is playing either (`others_playing` false); otherwise they
// wait for the next players to finish. An odd player
// out waits. The first seat goes to the player who had it less.
std::vector<std::array<int, 2>> pair_arena(const std::vector<ArenaPlayer>& waiting, bool others_playing = false);

}  // namespace cinq::tournament
