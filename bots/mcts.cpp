// choose_turn (bots/bot.h): plain UCT (UCB1) over actions, not turns. A tree node is a state; its children
// are the policy's candidates there; a turn of several actions is several plies by the same seat. The tree
// lives in one vector (a node pool, indices instead of pointers); each playout clones the root state and
// replays the path down the tree, then plays on with the game's policy (bots/policy.h). For a game whose
// actions are costly to apply (Policy::keep_states: Batik), visited nodes keep their states instead, and a
// playout copies them on the way down rather than replaying each action.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "bots/bot.h"
#include "bots/policy.h"

namespace cinq::bots {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
// Progressive widening (Policy::ordered_candidates): a node visited n times considers its first
// kWidenBase + kWidenFactor * sqrt(n) candidates.
constexpr double kWidenBase = 2;
constexpr double kWidenFactor = 1;
// Policy::lazy_children: the children a node is first given (progressive widening opens 2 before its
// first visit, 3 from its first, 4 from its fourth, 5 from its ninth) ...
constexpr std::size_t kLazyFirst = 4;
// ... in a search of this many playouts or more (or with no cap): one that could fill the tree with children
// never opened (Tablut's levels 4 and 5). A smaller one makes them all at once, as it always did, and plays
// the same turns as it did before lazy children.
constexpr std::uint64_t kLazyFrom = 32'768;
// About 64 MB of tree at most: past it the search goes on without growing the tree (playouts from leaves).
constexpr std::size_t kMaxNodes = std::size_t{1} << 21;
// The playouts a later action of a turn runs past the think time when the first search left its node no
// visited child (rather than playing the rest of the turn at random).
constexpr std::uint64_t kMinPlayouts = 16;
// A slip (Policy::slip) never picks a child whose value, for the side choosing, is this low or lower: one
// the search saw lose (rewards in [0, 1]).
constexpr double kLost = 0.1;

struct Node {
  Action action;     // the action from the parent to here
  double value = 0;  // rewards summed for `chooser`
  std::uint32_t visits = 0;
  std::uint32_t first_child = kNone;  // children are contiguous in the pool
  std::uint32_t child_count = 0;
  std::int8_t chooser = 0;  // the seat that chose `action` (the parent's mover)
  bool complete = true;     // no more children to make (false: Policy::lazy_children, more to make)
};

// Seat rewards of a finished or stopped playout: win 1, draw 0.5, loss 0.
struct Rewards {
  double seat[2] = {0.5, 0.5};
};

class Search {
 public:
  // `draw` is the rewards of a drawn game (Policy::draw_reward).
  Search(const Policy& policy, std::uint64_t seed, const std::atomic<bool>* cancel,
         Clock::time_point hard_stop, bool large, Rewards draw)
      : policy_(policy),
        draw_(draw),
        rng_(seed),
        cancel_(cancel),
        hard_stop_(hard_stop),
        keep_states_(policy.keep_states()),
        ordered_(policy.ordered_candidates()),
        lazy_(large && ordered_ && policy.lazy_children() && !keep_states_),
        exploration_(policy.exploration()) {}

  std::uint32_t new_root() {
    nodes_.push_back(Node{});
    if (keep_states_) states_.resize(nodes_.size());
    return static_cast<std::uint32_t>(nodes_.size() - 1);
  }

  // Runs playouts from `root` (whose state is `root_state`) until `soft_stop`, `max_playouts` (0: no cap),
  // the hard stop or a cancel. Returns the number of playouts run.
  std::uint64_t run(std::uint32_t root, const State& root_state, Clock::time_point soft_stop,
                    std::uint64_t max_playouts) {
    std::uint64_t done = 0;
    last_check_ = Clock::time_point{};
    while ((max_playouts == 0 || done < max_playouts) && !should_stop(soft_stop)) {
      playout_once(root, root_state);
      ++done;
    }
    return done;
  }

  // The most visited child of `node` (ties: the better value), kNone if no child was visited.
  std::uint32_t best_child(std::uint32_t node) const {
    const Node& n = nodes_[node];
    std::uint32_t best = kNone;
    for (std::uint32_t i = 0; i < n.child_count; ++i) {
      const std::uint32_t c = n.first_child + i;
      if (nodes_[c].visits == 0) continue;
      if (best == kNone || nodes_[c].visits > nodes_[best].visits ||
          (nodes_[c].visits == nodes_[best].visits && nodes_[c].value > nodes_[best].value))
        best = c;
    }
    return best;
  }

  // Another child of `node` instead of `best` (best_child), chosen at random among the `slip.choices` most
  // visited whose value is at most `slip.margin` below `best`'s and above kLost (Policy::slip); `best`
  // itself if there is none.
  std::uint32_t slip_child(std::uint32_t node, std::uint32_t best, const Policy::Slip& slip) {
    const Node& n = nodes_[node];
    const double floor = std::max(kLost, nodes_[best].value / nodes_[best].visits - slip.margin);
    std::vector<std::uint32_t> near;
    for (std::uint32_t i = 0; i < n.child_count; ++i) {
      const std::uint32_t c = n.first_child + i;
      if (c != best && nodes_[c].visits > 0 && nodes_[c].value / nodes_[c].visits >= floor) near.push_back(c);
    }
    if (near.empty()) return best;
    const std::size_t keep = std::min(static_cast<std::size_t>(std::max(1, slip.choices)), near.size());
    std::partial_sort(near.begin(), near.begin() + static_cast<std::ptrdiff_t>(keep), near.end(),
                      [&](std::uint32_t x, std::uint32_t y) { return nodes_[x].visits > nodes_[y].visits; });
    return near[std::uniform_int_distribution<std::size_t>(0, keep - 1)(rng_)];
  }

  // The child of `node` reached by `a`, kNone if the node is not expanded or `a` is not a candidate.
  std::uint32_t child_by_action(std::uint32_t node, Action a) const {
    const Node& n = nodes_[node];
    for (std::uint32_t i = 0; i < n.child_count; ++i)
      if (nodes_[n.first_child + i].action == a) return n.first_child + i;
    return kNone;
  }

  Action action_of(std::uint32_t node) const { return nodes_[node].action; }
  // The mean reward of `node` for the seat that chose its action (0 unvisited).
  double mean(std::uint32_t node) const {
    return nodes_[node].visits == 0 ? 0.0 : nodes_[node].value / nodes_[node].visits;
  }
  bool hit_hard_limit() const { return hard_hit_; }
  Rng& rng() { return rng_; }
  std::size_t size() const { return nodes_.size(); }

 private:
  // Past the hard stop, or a cancel; or when the next playout, if it lasts as long as the longest one so far,
  // would end past `soft_stop` (so that a search cut by its clock ends before it, not a playout after).
  bool should_stop(Clock::time_point soft_stop) {
    if (cancel_ && cancel_->load(std::memory_order_relaxed)) return true;
    const auto now = Clock::now();
    if (last_check_ != Clock::time_point{}) longest_playout_ = std::max(longest_playout_, now - last_check_);
    last_check_ = now;
    const auto next_end = now + longest_playout_;
    // The hard stop came first.
    if (now >= hard_stop_ || (next_end >= hard_stop_ && soft_stop >= hard_stop_)) {
      hard_hit_ = true;
      return true;
    }
    return next_end >= soft_stop;
  }

  void playout_once(std::uint32_t root, const State& root_state) {
    std::unique_ptr<State> state = root_state.clone();
    path_.clear();
    path_.push_back(root);
    std::uint32_t node = root;
    bool over = state->outcome().over();
    // Selection and expansion: down the tree until a node not visited before (or the end of the game).
    while (!over) {
      if (nodes_[node].first_child == kNone && !expand(node, *state)) break;
      if (!nodes_[node].complete) {
        const std::uint32_t wanted = opened(nodes_[node]);
        if (wanted > nodes_[node].child_count) widen(node, *state, wanted);
      }
      node = select(node);
      if (keep_states_ && states_[node]) {
        state = states_[node]->clone();
      } else {
        state->apply(nodes_[node].action);
        if (keep_states_) states_[node] = state->clone();
      }
      path_.push_back(node);
      over = state->outcome().over();
      if (nodes_[node].visits == 0) break;
    }
    const Rewards r = play_out(*state);
    for (std::uint32_t i : path_) {
      Node& n = nodes_[i];
      ++n.visits;
      n.value += r.seat[n.chooser];
    }
  }

  bool expand(std::uint32_t node, const State& state) {
    buffer_.clear();
    policy_.candidates(state, rng_, buffer_);
    assert(!buffer_.empty());
    if (nodes_.size() + buffer_.size() > kMaxNodes || buffer_.empty()) return false;
    // Unordered candidates are shuffled once here, so that unvisited children are tried in a random order
    // (and ties broken); ordered ones keep the policy's order, which progressive widening follows.
    if (!ordered_) std::shuffle(buffer_.begin(), buffer_.end(), rng_);
    const auto chooser = static_cast<std::int8_t>(state.seat_of(state.to_move()));
    const auto first = static_cast<std::uint32_t>(nodes_.size());
    const std::size_t make = lazy_ ? std::min(buffer_.size(), kLazyFirst) : buffer_.size();
    for (std::size_t i = 0; i < make; ++i) {
      Node child;
      child.action = buffer_[i];
      child.chooser = chooser;
      nodes_.push_back(child);
    }
    nodes_[node].first_child = first;
    nodes_[node].child_count = static_cast<std::uint32_t>(make);
    nodes_[node].complete = make == buffer_.size();
    if (keep_states_) states_.resize(nodes_.size());
    return true;
  }

  // Policy::lazy_children: gives `node` (whose state is `state`) at least `wanted` children, twice as many
  // as it has at least, if it has more candidates and the tree has room. Its children move to the end of
  // the pool, in the same order, and the new ones follow them in the candidates' order; the old block is
  // left unused.
  void widen(std::uint32_t node, const State& state, std::uint32_t wanted) {
    buffer_.clear();
    policy_.candidates(state, rng_, buffer_);
    const std::uint32_t had = nodes_[node].child_count;
    const std::size_t target = std::min<std::size_t>(buffer_.size(), std::max<std::size_t>(wanted, 2 * had));
    if (target <= had || nodes_.size() + target > kMaxNodes) {  // none left, or no room left: never again
      nodes_[node].complete = true;
      return;
    }
    const std::uint32_t old_first = nodes_[node].first_child;
    const auto first = static_cast<std::uint32_t>(nodes_.size());
    for (std::uint32_t i = 0; i < had; ++i) {
      const Node moved = nodes_[old_first + i];
      nodes_.push_back(moved);
    }
    const std::int8_t chooser = nodes_[first].chooser;
    std::size_t made = had;
    for (std::size_t i = 0; i < buffer_.size() && made < target; ++i) {
      bool have = false;
      for (std::uint32_t j = 0; j < had && !have; ++j) have = nodes_[first + j].action == buffer_[i];
      if (have) continue;
      Node child;
      child.action = buffer_[i];
      child.chooser = chooser;
      nodes_.push_back(child);
      ++made;
    }
    nodes_[node].first_child = first;
    nodes_[node].child_count = static_cast<std::uint32_t>(made);
    nodes_[node].complete = made == buffer_.size();
  }

  // How many of an ordered node's candidates progressive widening opens at its visits.
  static std::uint32_t opened(const Node& n) {
    return static_cast<std::uint32_t>(kWidenBase + kWidenFactor * std::sqrt(double(n.visits)));
  }

  // UCB1 over the children open at this node's visits; an unvisited one first.
  std::uint32_t select(std::uint32_t node) const {
    const Node& n = nodes_[node];
    const double explore = exploration_ * std::sqrt(std::log(std::max<double>(1, n.visits)));
    std::uint32_t open = n.child_count;
    if (ordered_) open = std::min(open, opened(n));
    std::uint32_t best = n.first_child;
    double best_score = -1;
    for (std::uint32_t i = 0; i < open; ++i) {
      const std::uint32_t c = n.first_child + i;
      const Node& child = nodes_[c];
      if (child.visits == 0) return c;
      const double score = child.value / child.visits + explore / std::sqrt(double(child.visits));
      if (score > best_score) {
        best_score = score;
        best = c;
      }
    }
    return best;
  }

  Rewards play_out(State& state) {
    const int limit = policy_.playout_limit();
    Rewards r;
    for (int steps = 0;; ++steps) {
      const Outcome o = state.outcome();
      if (o.over()) {
        if (o.kind == Outcome::Kind::win && (o.winner == 0 || o.winner == 1)) {
          r.seat[o.winner] = 1;
          r.seat[1 - o.winner] = 0;
          return r;
        }
        return draw_;
      }
      if (steps >= limit) break;
      state.apply(policy_.playout_action(state, rng_));
    }
    const double e = std::clamp(policy_.evaluate(state, 0), 0.0, 1.0);
    r.seat[0] = e;
    r.seat[1] = 1 - e;
    return r;
  }

  const Policy& policy_;
  const Rewards draw_;
  Rng rng_;
  const std::atomic<bool>* cancel_;
  Clock::time_point hard_stop_;
  bool hard_hit_ = false;
  Clock::time_point last_check_;        // should_stop's last call in this run, {} before the first
  Clock::duration longest_playout_{0};  // the longest time between two such calls: a playout
  const bool keep_states_;
  const bool ordered_;
  const bool lazy_;
  const double exploration_;
  std::vector<Node> nodes_;
  std::vector<std::unique_ptr<State>> states_;  // by node, when keep_states_: the state after its action
  std::vector<std::uint32_t> path_;
  std::vector<Action> buffer_;
};

bool turn_over(const State& state) { return state.outcome().over() || !state.mid_turn(); }

// The rest of the turn played at random: level 0, or a search cut short before it learned anything.
void random_rest(State& state, Rng& rng, Turn& turn) {
  std::vector<Action> legal;
  do {
    legal.clear();
    state.legal_actions(legal);
    assert(!legal.empty());
    const Action a = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
    state.apply(a);
    turn.actions.push_back(a);
  } while (!turn_over(state));
}

// A bot does not leave its turn empty (a Baltek bot would otherwise pass for hundreds of turns) when a turn
// it can see makes its position better by its own evaluation (Policy::evaluate when the turn is over, the
// opponent to move, against the same after the empty turn). The search may prefer the empty turn on noisy
// playouts; this looks for the better turn with a small beam search over the turn's actions, each partial
// turn scored as if it ended there. Returns the best such turn if it evaluates strictly better than the empty
// one, else nothing.
constexpr std::size_t kBeam = 6;
constexpr int kMaxTurnActions = 8;

std::optional<std::vector<Action>> improving_turn(const State& state, const Policy& policy) {
  const int seat = state.seat_of(state.to_move());
  // The value of `s` for the mover if its turn ended there (nothing if it cannot end there).
  auto ended = [&](const State& s) -> std::optional<double> {
    if (s.outcome().over() || !s.mid_turn()) return policy.evaluate(s, seat);
    if (!s.is_legal(Action::end_turn())) return std::nullopt;
    auto after = s.clone();
    after->apply(Action::end_turn());
    return policy.evaluate(*after, seat);
  };
  const std::optional<double> empty = ended(state);
  if (!empty) return std::nullopt;
  struct Partial {
    std::unique_ptr<State> state;
    std::vector<Action> actions;
    double value;
  };
  std::vector<Partial> frontier, next;
  frontier.push_back({state.clone(), {}, *empty});
  std::optional<std::vector<Action>> best;
  double best_value = *empty + 1e-9;
  std::vector<Action> legal;
  for (int depth = 0; depth < kMaxTurnActions && !frontier.empty(); ++depth) {
    next.clear();
    for (const Partial& p : frontier) {
      legal.clear();
      p.state->legal_actions(legal);
      for (Action a : legal) {
        if (a.is_end_turn()) continue;
        Partial child{p.state->clone(), p.actions, -1};
        child.state->apply(a);
        child.actions.push_back(a);
        const std::optional<double> v = ended(*child.state);
        if (v && *v > best_value) {
          best_value = *v;
          best = child.actions;
          if (child.state->mid_turn() && !child.state->outcome().over())
            best->push_back(Action::end_turn());
        }
        if (child.state->mid_turn() && !child.state->outcome().over()) {
          child.value = v.value_or(-1);
          next.push_back(std::move(child));
        }
      }
    }
    const std::size_t keep = std::min(kBeam, next.size());
    std::partial_sort(next.begin(), next.begin() + static_cast<std::ptrdiff_t>(keep), next.end(),
                      [](const Partial& x, const Partial& y) { return x.value > y.value; });
    next.resize(keep);
    std::swap(frontier, next);
  }
  return best;
}

}  // namespace

Turn choose_turn(const State& state, const Settings& settings, const std::atomic<bool>* cancel) {
  const auto start = Clock::now();
  Turn turn;
  assert(!state.outcome().over());
  if (state.outcome().over()) return turn;
  if (settings.level > 0 && settings.own_search)
    if (std::optional<Turn> own = policy_for(state.game()).own_turn(state, settings, cancel)) {
      own->elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
      return *own;
    }
  // The search stops a little before the hard limit: a playout under way, and the rest of the turn, must
  // still fit in it.
  const auto margin = std::min(settings.hard_limit / 4, std::chrono::milliseconds(500));
  const auto hard_stop = start + settings.hard_limit - margin;
  // A search cut by its clock stops a hundredth of the think time before it: freeing the tree (up to 64 MB
  // of nodes, a few ms) and the rest of the turn fit in that.
  const auto think_stop = start + settings.think - settings.think / 100;
  std::unique_ptr<State> current = state.clone();
  const Policy& policy = policy_for(state.game());
  const int seat = state.seat_of(state.to_move());
  const auto playouts = static_cast<std::uint64_t>(
      static_cast<double>(settings.playouts) * policy.level_search(settings.level, seat) / policy.playout_cost());
  Rewards draw;
  draw.seat[seat] = policy.draw_reward(settings.level, seat);
  draw.seat[1 - seat] = 1 - draw.seat[seat];
  Search search(policy, settings.seed, cancel, hard_stop, playouts == 0 || playouts >= kLazyFrom, draw);
  const Policy::Slip slip = policy.slip(settings.level, seat);

  if (settings.level <= 0) {
    random_rest(*current, search.rng(), turn);
  } else {
    std::uint32_t root = search.new_root();
    std::vector<Action> legal;
    for (bool first = true;; first = false) {
      legal.clear();
      current->legal_actions(legal);
      Action a = legal.front();
      if (legal.size() == 1) {  // forced (a pass, an end of turn): no search
        const std::uint32_t child = search.child_by_action(root, a);
        root = child != kNone ? child : search.new_root();
      } else {
        // The turn's first action gets the whole budget; each later one (Baltek, Kopf, Bi-litaire) a sixth
        // more, on the subtree the first search already grew under it, but the whole turn stays within the
        // think time (a level is never slower than it says): past it, a later action searches only enough
        // to have a visited child, if the first search left it none.
        const auto soft_stop = first ? think_stop : std::min(Clock::now() + settings.think / 6, think_stop);
        const std::uint64_t cap =
            settings.playouts == 0 ? 0 : std::max<std::uint64_t>(1, first ? playouts : playouts / 6);
        turn.playouts += search.run(root, *current, std::min(soft_stop, hard_stop), cap);
        if (search.best_child(root) == kNone) turn.playouts += search.run(root, *current, hard_stop, kMinPlayouts);
        std::uint32_t best = search.best_child(root);
        if (best == kNone) {
          random_rest(*current, search.rng(), turn);
          break;
        }
        if (turn.value < 0) turn.value = search.mean(best);
        if (slip.chance > 0 && std::bernoulli_distribution(slip.chance)(search.rng()))
          best = search.slip_child(root, best, slip);
        root = best;
        a = search.action_of(best);
      }
      current->apply(a);
      turn.actions.push_back(a);
      if (turn_over(*current)) break;
    }
  }
  const bool cancelled = cancel && cancel->load(std::memory_order_relaxed);
  if (settings.level > 0 && !cancelled && turn.actions.size() == 1 && turn.actions.front().is_end_turn())
    if (auto better = improving_turn(state, policy)) turn.actions = std::move(*better);
  turn.hit_hard_limit = search.hit_hard_limit();
  turn.nodes = search.size();
  turn.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
  return turn;
}

}  // namespace cinq::bots
