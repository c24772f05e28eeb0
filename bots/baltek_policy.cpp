// Baltek's policy for the search (bots/policy.h, docs/rules/baltek.md). A turn is up to three actions,
// a sprint and an explicit end, out of some 150 legal actions at each step: random play spends its points
// on aimless runs and almost never scores, so neither random playouts nor an unpruned tree see a goal.
// Every action gets a cheap score of football sense (shoot when you can; pass forward to a teammate; win
// the ball; get open for a pass; stand between the ball and your goal), the tree considers the best ones,
// playouts play the best one with some noise, and a position stopped early is scored by the goals, where
// the ball is and who holds it.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

#include "bots/policy.h"
#include "rules/baltek/view.h"

namespace cinq::baltek {
namespace {

// An action's code, as rules/baltek/baltek.cpp packs it (a kind, a from square and a to square).
// tests/bots/policies_test.cpp checks this reading against action_text, so the two cannot drift apart.
enum class Kind { run = 1, sprint = 2, kick = 3 };
Kind kind_of(Action a) { return static_cast<Kind>(a.code & 3); }
Square from_of(Action a) { return static_cast<Square>((a.code >> 2) & 127); }
Square to_of(Action a) { return static_cast<Square>((a.code >> 9) & 127); }
int extra_cost_of(Action a) {
  return static_cast<int>((a.code >> 16) & 3) + static_cast<int>((a.code >> 18) & 3);
}

constexpr int kSquares = 60;          // 12 columns x 5 rows, goals and missing squares included
constexpr int kCandidates = 16;       // the best-scored actions a tree node considers...
constexpr int kRandomCandidates = 4;  // ...plus a few others, so no score is trusted blindly
constexpr int kPlayoutActions = 48;   // about a dozen turns, then evaluate()
constexpr double kNoise = 6;          // playouts: the score's random spread
constexpr int kRandomPercent = 10;    // playouts: how often a uniformly random action is played
// UCB1's exploration: low, because playouts end in evaluate() and differ little from action to action
// (cinq_ladder, level 2 against 1: 50% at 1.0, 65% at 0.3, 90% at 0.15, 100% at 0.07).
constexpr double kExploration = 0.07;

int distance(Square a, Square b) {
  return std::max(std::abs(col_of(a) - col_of(b)), std::abs(row_of(a) - row_of(b)));
}

// The board seen by the side to move.
struct Board {
  Side me = 0;
  std::array<std::array<int, kSquares>, 2> at{};  // footballer index on a square, -1 if none
  Square ball = kNone;

  explicit Board(const State& s) : me(s.to_move()), ball(ball_of(s)) {
    for (auto& side : at) side.fill(-1);
    for (Side side = 0; side < 2; ++side)
      for (int i = 0; i < 6; ++i) at[side][static_cast<std::size_t>(footballer_of(s, side, i))] = i;
  }
  int on(Side side, Square s) const { return s == kNone ? -1 : at[side][static_cast<std::size_t>(s)]; }
  // How far `s` is up the field for `side`: 0 at its own goal's column, 11 at the goal it attacks.
  static int progress(Side side, Square s) { return side == 0 ? col_of(s) : 11 - col_of(s); }
  // The side holding the ball: a footballer on its square that an opponent there does not outweigh.
  Side holder() const {
    int mine = on(me, ball), theirs = on(other(me), ball);
    if (mine >= 0 && (theirs < 0 || kStrength[mine] >= kStrength[theirs])) return me;
    if (theirs >= 0) return other(me);
    return -1;
  }
  // The squares a side may shoot from (baltek.md, "Shot"): near the goal it attacks.
  static bool shooting_square(Side side, Square s) {
    int c = progress(side, s), r = row_of(s);
    return (c == 10 && r >= 1 && r <= 3) || (c == 9 && (r == 0 || r == 2 || r == 4));
  }
};

// Football sense for one legal action of the side to move; higher is better, 0 is "nothing gained".
double score(const Board& b, Action a) {
  if (a.is_end_turn()) return 0;
  const Side me = b.me, opp = other(me);
  const Square from = from_of(a), to = to_of(a);
  if (kind_of(a) == Kind::kick) {
    if (to == kGoal[opp]) return 1000;  // a goal ends the turn: always worth it
    double s = 10.0 * (Board::progress(me, to) - Board::progress(me, from)) - 5.0 * extra_cost_of(a);
    const int mate = b.on(me, to), rival = b.on(opp, to);
    if (mate >= 0)
      s += (rival >= 0 && kStrength[rival] > kStrength[mate]) ? -8 : 12;
    else if (rival >= 0)
      s -= 20;  // a pass to the opponent
    else
      s -= 4;  // a loose ball
    if (Board::shooting_square(me, to) && mate >= 0) s += 15;
    return s;
  }
  const int i = b.on(me, from);
  double s = kind_of(a) == Kind::sprint ? -3.0 : 0.0;  // the bonus is worth keeping
  const Side holder = b.holder();
  if (from == b.ball && holder == me) return s - 15;  // leaving the ball behind
  if (to == b.ball) {
    const int rival = b.on(opp, to);
    // Winning the ball, or making the opponent's kick costly (a duel).
    return s + (holder == me ? -2 : 25 + (rival >= 0 ? 4.0 * (kStrength[i] - kStrength[rival]) : 0));
  }
  const int closer = distance(from, b.ball) - distance(to, b.ball);
  if (holder == me) {
    // Getting open: within a pass of the ball, further up the field than it.
    const bool open = distance(to, b.ball) <= 2 && Board::progress(me, to) > Board::progress(me, b.ball);
    const bool was_open =
        distance(from, b.ball) <= 2 && Board::progress(me, from) > Board::progress(me, b.ball);
    s += open && !was_open ? 8 : 0;
    s += 2.0 * (Board::progress(me, to) - Board::progress(me, from));
  } else {
    // Chasing the ball, and standing between it and our goal.
    s += 4.0 * closer;
    const bool behind = Board::progress(me, to) < Board::progress(me, b.ball);
    const bool was_behind = Board::progress(me, from) < Board::progress(me, b.ball);
    s += behind && !was_behind ? 3 : 0;
  }
  return s;
}

double logistic(double s) { return 1 / (1 + std::exp(-s)); }

class BaltekPolicy final : public bots::Policy {
 public:
  void candidates(const State& state, bots::Rng& rng, std::vector<Action>& out) const override {
    const State& s = state;
    const Board b(s);
    const std::vector<Action> legal = s.legal_actions();
    std::vector<std::pair<double, Action>> scored;
    scored.reserve(legal.size());
    for (Action a : legal) scored.push_back({score(b, a), a});
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& x, const auto& y) { return x.first > y.first; });
    if (scored.front().first >= 1000) {  // a goal: nothing else is worth considering
      out.push_back(scored.front().second);
      return;
    }
    // The best ones, a few others at random from the rest (a partial shuffle), and always the end of the
    // turn: keeping points is free, and the tree must be able to stop a turn anywhere. Listed best first
    // (the random ones and the end of the turn at their score's place), for progressive widening.
    std::size_t n = std::min<std::size_t>(kCandidates, scored.size());
    for (int k = 0; k < kRandomCandidates && n < scored.size(); ++k, ++n)
      std::swap(scored[n], scored[std::uniform_int_distribution<std::size_t>(n, scored.size() - 1)(rng)]);
    scored.resize(n);
    if (std::none_of(scored.begin(), scored.end(), [](const auto& x) { return x.second.is_end_turn(); }))
      scored.push_back({score(b, Action::end_turn()), Action::end_turn()});
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& x, const auto& y) { return x.first > y.first; });
    for (const auto& x : scored) out.push_back(x.second);
  }

  bool ordered_candidates() const override { return true; }
  double exploration() const override { return kExploration; }

  Action playout_action(const State& state, bots::Rng& rng) const override {
    const State& s = state;
    // One buffer per thread: a playout asks this dozens of times, and the server runs bots on threads.
    thread_local std::vector<Action> legal;
    legal.clear();
    s.legal_actions(legal);
    if (std::uniform_int_distribution<int>(0, 99)(rng) < kRandomPercent)
      return legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
    const Board b(s);
    std::uniform_real_distribution<double> noise(0, kNoise);
    Action best = Action::end_turn();
    double best_score = 0;  // below this, ending the turn is as good
    for (Action a : legal) {
      double v = score(b, a) + noise(rng);
      if (v > best_score) {
        best_score = v;
        best = a;
      }
    }
    return best;
  }

  int playout_limit() const override { return kPlayoutActions; }

  double evaluate(const State& state, int seat) const override {
    const State& s = state;
    const Outcome o = s.outcome();
    if (o.over()) return o.kind == Outcome::Kind::win ? (o.winner == seat ? 1.0 : 0.0) : 0.5;
    const Side me = seat;  // seats are sides in Baltek
    const Board b(s);
    const double goals = goals_of(s, me) - goals_of(s, other(me));
    // Where the ball is, from -1 (at our goal) to 1 (at theirs).
    const double field = (Board::progress(me, b.ball) - 5.5) / 5.5;
    const Side holder = b.holder();
    const double held = holder == me ? 1 : holder == other(me) ? -1 : 0;
    // A ball held in the opponent's half by the side about to play is half a goal.
    const double threat =
        holder == s.to_move() ? held * std::max(0, Board::progress(holder, b.ball) - 5) / 6.0 : 0;
    return logistic(1.6 * goals + 0.8 * field + 0.2 * held + 0.8 * threat);
  }
};

}  // namespace
}  // namespace cinq::baltek

namespace cinq::bots {

const Policy& baltek_policy() {
  static const baltek::BaltekPolicy policy;
  return policy;
}

}  // namespace cinq::bots
