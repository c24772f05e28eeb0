// Per-game knowledge for the search (bots/mcts.cpp): which actions the tree expands, how a playout picks
// its actions, when a playout stops, and how a position stopped early is scored. The defaults are plain
// MCTS (every legal action, uniform random playouts to the end); a game overrides what is too weak or too
// slow for it: Baltek (a turn is a sequence of actions), Batik (18,000 drops, each one a physics
// simulation: sampled on a grid of angles and positions), and any game whose random playouts are long.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "bots/bot.h"
#include "rules/game.h"

namespace cinq::bots {

using Rng = std::mt19937_64;

class Policy {
 public:
  virtual ~Policy() = default;
  // The actions a tree node considers for the side to move (default: all legal actions). Must be a
  // non-empty subset of the legal actions while the game is not over.
  virtual void candidates(const State& state, Rng& rng, std::vector<Action>& out) const;
  // True when candidates() lists its actions best first. The tree then widens progressively: a node
  // tries its first candidates first and opens the later ones as its visits grow, so that its value
  // follows its best replies rather than the average of all of them (which, in a game whose turn has
  // several actions, makes every own action look worse than ending the turn). Default: the candidates
  // are unordered, shuffled once, all open from the first visit.
  virtual bool ordered_candidates() const { return false; }
  // With ordered candidates: true for a game with many candidates a node (Tablut's 60 to 100 moves), whose
  // large searches would otherwise fill the tree's nodes with children never opened: a node's children are
  // then made as progressive widening opens them, a few at a time (the candidates asked for again each
  // time), rather than all at its first expansion, in searches large enough to fill the tree (mcts.cpp's
  // kLazyFrom). Not with keep_states().
  virtual bool lazy_children() const { return false; }
  // UCB1's exploration constant for this game's rewards (in [0, 1]): lower where playouts are cut short
  // and scored by evaluate(), whose values differ less from move to move than wins and losses do.
  virtual double exploration() const { return 1.0; }
  // What one playout of this game costs, in playouts of about 20,000 a second (Baltek's): Settings::playouts
  // is divided by it. Below 1 for a game whose playouts are cheaper or whose tree needs more of them.
  virtual double playout_cost() const { return 1.0; }
  // How many times its cap a level's search runs in this game for `seat` (default: once): more for a level
  // that the common caps (bots/levels.cpp) leave too close to the level below (Tablut's levels 4 and 5).
  virtual double level_search(int /*level*/, int /*seat*/) const { return 1.0; }
  // What a game drawn in its search (by the game's rules: Tablut's repetition) is worth, in [0, 1], to a
  // bot of `level` playing `seat`; the other seat gets the rest (default: half each). Below half for a
  // level that should play on rather than take a draw (Tablut's level 5 defending).
  virtual double draw_reward(int /*level*/, int /*seat*/) const { return 0.5; }
  // One action of a playout for the side to move (default: a uniformly random legal action).
  virtual Action playout_action(const State& state, Rng& rng) const;
  // A playout stops after this many actions and is scored by `evaluate` (default: effectively never).
  virtual int playout_limit() const { return 100000; }
  // The value of an unfinished position for `seat` (0 or 1, State::seat_of): in [0, 1], 0.5 for even.
  virtual double evaluate(const State& state, int seat) const;
  // True for games whose `apply` is costly (Batik: a physics simulation): the tree then keeps the state of
  // every node it has visited, and a playout starts from a copy of the deepest one instead of replaying
  // the path from the root.
  virtual bool keep_states() const { return false; }
  // A level's deliberate weakness, for a game where more search alone does not make one level clearly
  // stronger than the next (Tablut, Batik): how often a bot of `level` in `seat` plays, instead of its
  // search's choice, one of the `choices` other moves its search visited most and rated at most `margin`
  // below it (rewards in [0, 1]), never one it saw lost. Default: never.
  struct Slip {
    double chance = 0;
    double margin = 0;
    int choices = 0;
  };
  virtual Slip slip(int /*level*/, int /*seat*/) const { return {}; }
  // A game's own search for a level, instead of the tree (Tablut's level 5: an alpha-beta search): the
  // whole turn, within the settings' think time and cap, or nothing to let the tree search (default).
  virtual std::optional<Turn> own_turn(const State& /*state*/, const Settings& /*settings*/,
                                       const std::atomic<bool>* /*cancel*/) const {
    return std::nullopt;
  }
};

// The policy of a game of games() (each game has its own: bots/ID_policy.cpp for rules/games.inc's
// CINQ_GAME(ID)); the default policy for any other game.
const Policy& policy_for(const Game& game);

}  // namespace cinq::bots
