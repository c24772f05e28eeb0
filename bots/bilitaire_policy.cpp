// Bi-litaire's policy for the search (bots/policy.h, docs/rules/bilitaire.md). Uniform random playouts
// play both rounds to the end (about 170 actions, 3,000 a second) with a tray player who never blocks and
// a marble player who never plans: their results say little. What decides a round is how many jumps the
// marble player keeps within reach: every position here is read through that count, taken on bitboards
// (jumps()). Playouts play each side's greedy choice most of the time (the marble player the jump that
// leaves the most jumps, the tray player the slide or tray removal that leaves the fewest, announcing
// nothing), the tree looks at the same choices first, and a playout stops after kPlayoutActions actions:
// the position is then scored by what the round will likely end at (the marbles left, less the jumps in
// reach, more for the trays already gone, less an announced chain, which removes its marbles for sure)
// against the other round's result, known or typical.
#include <algorithm>
#include <bit>
#include <cmath>

#include "bots/policy.h"
#include "rules/bilitaire/view.h"

namespace cinq::bilitaire {
namespace {

constexpr int kPlayoutActions = 60;     // most of a round, then evaluate()
constexpr double kGreedy = 0.8;         // how often a playout takes the greedy choice
constexpr double kAnnounce = 0.05;      // how often a playout's tray player announces
constexpr double kJumpWeight = 0.5;     // marbles a jump in reach is worth at the end of the round
constexpr double kTrayWeight = 0.3;     // marbles each tray gone keeps on the board
constexpr double kTypicalLeft = 14;     // a round's result between equal players (cinq selfplay)
constexpr double kScale = 2.5;          // marbles for a logit
constexpr double kExploration = 0.3;
constexpr double kPlayoutCost = 5;      // some 4,000 playouts a second against Baltek's 20,000

constexpr std::uint64_t kColumnsUpToF = 0x3f3f3f3f3f3f3f3fULL;  // a jump right starts in a..f
constexpr std::uint64_t kColumnsFromC = 0xfcfcfcfcfcfcfcfcULL;  // a jump left starts in c..h

// The single jumps on offer on `b`: every marble with a marble beside it and an empty hole behind, in
// each of the four directions.
int jumps(const Board& b) {
  const std::uint64_t m = b.marbles, empty = b.holes() & ~b.marbles;
  const std::uint64_t right = m & (m >> 1) & (empty >> 2) & kColumnsUpToF;
  const std::uint64_t left = m & (m << 1) & (empty << 2) & kColumnsFromC;
  const std::uint64_t up = m & (m >> 8) & (empty >> 16);
  const std::uint64_t down = m & (m << 8) & (empty << 16);
  return std::popcount(right) + std::popcount(left) + std::popcount(up) + std::popcount(down);
}

// The board after a tray action or a chain (what the greedy choices compare).
Board after(const Board& b, Action a) {
  Board out = b;
  const Decoded d = decode(a);
  if (d.kind == Kind::push) {
    out.apply_push(d.push);
  } else if (d.kind == Kind::remove_tray) {
    out.trays &= static_cast<std::uint16_t>(~(1u << d.slot));
  } else if (d.kind == Kind::chain) {
    int from = d.path.front();
    out.marbles &= ~(std::uint64_t{1} << from);
    for (std::size_t i = 1; i < d.path.size(); ++i) {
      const int to = d.path[i];
      out.marbles &= ~(std::uint64_t{1} << ((from + to) / 2));  // the jumped marble, halfway
      from = to;
    }
    out.marbles |= std::uint64_t{1} << from;
  }
  return out;
}

// How good `a` looks to the side to move: jumps kept for the marble player, jumps denied for the tray
// player; the end of the turn before an announcement (an announcement gives marbles away).
double greed(const State& s, Action a) {
  if (phase_of(s) == Phase::tray_done) return a.is_end_turn() ? 1 : -decode(a).count;
  const int j = jumps(after(board_of(s), a));
  return s.to_move() == kMarbleSide ? j : -j;
}

class BilitairePolicy final : public bots::Policy {
 public:
  void candidates(const State& state, bots::Rng& rng, std::vector<Action>& out) const override {
    const State& s = state;
    std::vector<Action> legal;
    s.legal_actions(legal);
    std::shuffle(legal.begin(), legal.end(), rng);  // ties in a random order
    std::vector<std::pair<double, Action>> scored;
    for (Action a : legal) scored.push_back({phase_of(s) == Phase::first_removal ? 0 : greed(s, a), a});
    std::stable_sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    for (const auto& x : scored) out.push_back(x.second);
  }

  bool ordered_candidates() const override { return true; }
  double exploration() const override { return kExploration; }
  double playout_cost() const override { return kPlayoutCost; }
  int playout_limit() const override { return kPlayoutActions; }

  Action playout_action(const State& state, bots::Rng& rng) const override {
    const State& s = state;
    thread_local std::vector<Action> legal;
    legal.clear();
    s.legal_actions(legal);
    assert(!legal.empty());
    auto random = [&] { return legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)]; };
    if (phase_of(s) == Phase::tray_done)
      return std::bernoulli_distribution(kAnnounce)(rng) ? random() : Action::end_turn();
    if (phase_of(s) == Phase::first_removal || !std::bernoulli_distribution(kGreedy)(rng)) return random();
    Action best = legal.front();
    double best_score = -1e9;
    for (Action a : legal)
      if (const double g = greed(s, a) + std::uniform_real_distribution<double>(0, 0.5)(rng); g > best_score) {
        best_score = g;
        best = a;
      }
    return best;
  }

  double evaluate(const State& state, int seat) const override {
    const State& s = state;
    const Outcome o = s.outcome();
    if (o.over()) return o.kind == Outcome::Kind::win ? (o.winner == seat ? 1.0 : 0.0) : 0.5;
    // What this round will likely end at.
    const Board& b = board_of(s);
    double left = b.marble_count() - kJumpWeight * jumps(b) + kTrayWeight * (12 - std::popcount(b.trays));
    if (phase_of(s) == Phase::marbles) {  // an announced chain is sure to be made
      std::vector<Action> chains;
      s.legal_actions(chains);
      if (!chains.empty()) left -= static_cast<double>(decode(chains.front()).path.size()) - 2;
    }
    left = std::max(left, 1.0);
    // Player 1 plays the marbles in round 1: fewer left than in the other round wins.
    const double other = s.round() == 1 ? kTypicalLeft : left_after(s, 1);
    const double marble_player_wins = 1 / (1 + std::exp(-(other - left) / kScale));
    const int marble_seat = s.seat_of(kMarbleSide);
    return seat == marble_seat ? marble_player_wins : 1 - marble_player_wins;
  }
};

}  // namespace
}  // namespace cinq::bilitaire

namespace cinq::bots {

const Policy& bilitaire_policy() {
  static const bilitaire::BilitairePolicy policy;
  return policy;
}

}  // namespace cinq::bots
