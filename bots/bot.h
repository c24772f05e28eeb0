// Computer opponents: a Monte Carlo tree search over the rules contract (rules/game.h), with a
// playout policy per game (bots/policy.h). Pure logic like rules/: standard library only, no I/O, no
// sockets; the server runs it on its own threads (server/bot_runner.*), `cinq selfplay` runs it inline.
//
// A bot plays whole turns: `choose_turn` returns every action of the side to move's turn (one for Tablut
// and Batik, up to four for Baltek with its end of turn, a penalty then a move in Kopf oder Knopf, a tray
// action then an announcement or end of turn in Bi-litaire), all legal in sequence from the given state.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rules/game.h"

namespace cinq::bots {

// How strong a bot is. Level 0 plays uniformly random legal actions; levels 1..kMaxLevel search longer.
inline constexpr int kMaxLevel = 5;

struct Settings {
  int level = 3;
  // The search stops at whichever comes first: `think` of wall time, or `playouts` playouts (0: no cap).
  // Playouts are counted in Baltek's: a game whose playouts cost more (Policy::playout_cost: Batik,
  // Bi-litaire) runs proportionally fewer, one whose playouts are cheaper (Tablut's) more, so that in every
  // game a level's cap, not its clock, decides how far it searches, and the same settings give the same turn
  // anywhere; except where the clock cuts the search first (Batik's level 5; Tablut's level 4 attackers on
  // their longer turns, which search more than their cap: Policy::level_search). Tablut's level 5 searches
  // with alpha-beta (Policy::own_turn), 10 nodes a playout of its cap.
  std::chrono::milliseconds think{1000};
  std::uint64_t playouts = 0;
  // Never exceeded, whatever the game (a room must never stall): the search is abandoned, and the best
  // action found so far (or a random legal one) is played. Includes every action of the turn.
  std::chrono::milliseconds hard_limit{5000};
  std::uint64_t seed = 1;  // the same seed, state and playout cap give the same turn
  // False: the tree searches even where the game has a search of its own for the level (Policy::own_turn:
  // Tablut's level 5), to measure one against the other (bench/ladder.cpp's --lower-tree).
  bool own_search = true;
};

// The settings of a level (0..kMaxLevel): its think time, playout cap and hard limit.
Settings level_settings(int level);
// Shortens a level's think time for a clock with `remaining_ms` left on it (a bot never loses on time
// while it can avoid it): at most a small share of the time left, never under a floor.
Settings for_clock(Settings s, std::int64_t remaining_ms, std::int64_t increment_ms);

struct Turn {
  std::vector<Action> actions;  // the whole turn, in order; legal one after the other from the state
  std::uint64_t playouts = 0;   // playouts run (of this game: not scaled by their cost)
  std::chrono::microseconds elapsed{0};
  bool hit_hard_limit = false;
  std::size_t nodes = 0;  // the nodes the search made (its memory: some 32 bytes each)
  // What the search thinks the mover's turn is worth: the mean reward (a win 1, a draw its share, a loss 0) of
  // the first action it searched, as chosen (before a slip), for the side to move; in [0, 1]. Negative when
  // nothing was searched (level 0, a forced turn, a search cut before any playout). Read by the analysis
  // (analysis/); the bot's choice does not depend on it.
  double value = -1;
};

// Chooses the whole turn of the side to move. `state` must not be over. If `cancel` is given and becomes
// true, the search stops as soon as it can and a legal turn is still returned.
Turn choose_turn(const State& state, const Settings& settings, const std::atomic<bool>* cancel = nullptr);

// A display name for a bot of `level` ("Computer (level 3)"): valid as a player name in a record.
std::string bot_name(int level);

}  // namespace cinq::bots
