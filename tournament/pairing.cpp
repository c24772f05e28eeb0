// The pairing systems (pairing.h). The Swiss round is one maximum weighted matching: see pair_swiss below
// for how the Dutch system's criteria become edge weights.
#include "tournament/pairing.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/max_cardinality_matching.hpp>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <utility>

#include "tournament/detail/maximum_weighted_matching.hpp"

namespace cinq::tournament {

Preference side_preference(const std::vector<int>& sides) {
  Preference p;
  if (sides.empty()) return p;
  const int n = static_cast<int>(sides.size());
  const int firsts = static_cast<int>(std::count(sides.begin(), sides.end(), 0));
  p.balance = firsts - (n - firsts);
  const int last = sides.back();
  const bool twice = n >= 2 && sides[n - 2] == last;
  if (p.balance > 1 || p.balance < -1) {
    p.strength = Strength::absolute;
    p.side = p.balance > 1 ? 1 : 0;
  } else if (twice) {
    p.strength = Strength::absolute;
    p.side = 1 - last;
  } else if (p.balance != 0) {
    p.strength = Strength::strong;
    p.side = p.balance > 0 ? 1 : 0;
  } else {
    p.strength = Strength::mild;
    p.side = 1 - last;
  }
  return p;
}

namespace {

using Weight = long long;
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property,
                                    boost::property<boost::edge_weight_t, Weight>>;

// The criteria of pair_swiss as costs, most important first; a pairing's cost is compared tier by tier.
enum Tier { kRepeat, kAbsolute, kScore, kSide, kExchange, kTransposition, kTiers };
using Cost = std::array<long long, kTiers>;

// A player placed in the ranking by score, then by the caller's order (the seeding).
struct Placed {
  int index = 0;  // in the caller's list
  int pos = 0;    // in the ranking
  int in_group = 0;
  int group_size = 0;
  Preference pref;
};

// How hard the criteria are in one attempt at a round: phase 0 leaves out the edges of a repeat, a second
// bye or an absolute side conflict, and keeps only the edges near the ranking and the Dutch partners
// (`window`); phase 1 allows absolute conflicts at a cost, on every edge; phase 2 allows repeats too.
struct Attempt {
  int phase = 0;
  int window = 0;  // 0: every pair
};

class SwissPairer {
 public:
  explicit SwissPairer(const std::vector<SwissPlayer>& players) : players_(players) {
    const int n = static_cast<int>(players.size());
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return players[a].points2 > players[b].points2; });
    placed_.resize(static_cast<std::size_t>(n));
    for (int pos = 0; pos < n;) {
      int end = pos;
      while (end < n && players[order[end]].points2 == players[order[pos]].points2) ++end;
      for (int k = pos; k < end; ++k)
        placed_[k] = Placed{order[k], k, k - pos, end - pos, side_preference(players[order[k]].sides)};
      pos = end;
    }
    std::vector<int> pos_of(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) pos_of[order[k]] = k;
    met_.resize(static_cast<std::size_t>(n));  // by position: a few opponents each, not an n-by-n table
    for (int i = 0; i < n; ++i)
      for (const std::vector<int>* list : {&players[i].opponents, &players[i].avoid})
        for (int o : *list)
          if (o >= 0 && o < n && o != i) met_[pos_of[i]].push_back(pos_of[o]);
    lowest_points2_ = n > 0 ? players[order.back()].points2 : 0;
  }

  SwissRound pair() {
    const int n = static_cast<int>(placed_.size());
    SwissRound round;
    if (n == 0) return round;
    if (n == 1) {
      round.bye = placed_[0].index;
      return round;
    }
    std::vector<int> mate;
    for (Attempt attempt : attempts(n))
      if (match(attempt, mate)) break;
    const int vertices = n + n % 2;
    std::vector<std::array<int, 2>> pairs;  // positions in the ranking, the better ranked first
    for (int v = 0; v < n; ++v) {
      const int w = mate[v];
      if (w == n) round.bye = placed_[v].index;
      else if (w > v && w < vertices) pairs.push_back({v, w});
    }
    // Board order (Dutch): the higher score of the pair, then the lower score, then the better ranked.
    std::sort(pairs.begin(), pairs.end(), [&](const auto& x, const auto& y) {
      const int xl = points(x[1]), yl = points(y[1]);
      if (points(x[0]) != points(y[0])) return points(x[0]) > points(y[0]);
      if (xl != yl) return xl > yl;
      return x[0] < y[0];
    });
    for (std::size_t board = 0; board < pairs.size(); ++board) {
      const Placed& a = placed_[pairs[board][0]];
      const Placed& b = placed_[pairs[board][1]];
      const int side_of_a = allocate(a, b, static_cast<int>(board));
      round.boards.push_back(side_of_a == 0 ? std::array<int, 2>{a.index, b.index}
                                            : std::array<int, 2>{b.index, a.index});
    }
    return round;
  }

 private:
  int points(int pos) const { return players_[placed_[pos].index].points2; }
  int met(int a, int b) const { return static_cast<int>(std::count(met_[a].begin(), met_[a].end(), b)); }

  // Up to kWholeGraph players every pair is an edge (a few milliseconds); above, the edges near the ranking
  // and the Dutch partners first, which pair a large field as well in all but rare late rounds.
  static constexpr int kWholeGraph = 100;
  static constexpr int kFirstWindow = 24;

  static std::vector<Attempt> attempts(int n) {
    std::vector<Attempt> list;
    if (n > kWholeGraph)
      for (int window = kFirstWindow; window < n; window *= 2) list.push_back({0, window});
    list.push_back({0, 0});
    list.push_back({1, 0});
    list.push_back({2, 0});
    return list;
  }

  // Where a player's Dutch partner stands in the ranking: S1's i-th meets S2's i-th; the odd one out of a
  // group meets the top of the next.
  int ideal(const Placed& p) const {
    const int half = p.group_size / 2;
    if (p.in_group < half) return p.pos + half;
    if (p.in_group < 2 * half) return p.pos - half;
    return p.pos + 1;
  }

  // The cost of pairing the players at positions a < b; false if the attempt leaves the edge out.
  bool pair_cost(int a, int b, const Attempt& attempt, Cost& cost) const {
    const Placed& pa = placed_[a];
    const Placed& pb = placed_[b];
    cost.fill(0);
    cost[kRepeat] = met(a, b);
    const bool both_absolute = pa.pref.strength == Strength::absolute && pb.pref.strength == Strength::absolute;
    cost[kAbsolute] = both_absolute && pa.pref.side == pb.pref.side ? 1 : 0;
    if ((cost[kRepeat] > 0 && attempt.phase < 2) || (cost[kAbsolute] > 0 && attempt.phase < 1)) return false;
    const long long d = points(a) - points(b);
    cost[kScore] = d * d;
    if (pa.pref.side >= 0 && pa.pref.side == pb.pref.side && !both_absolute) {
      // One of the two is denied its side: the weaker preference (the stronger is granted).
      const Strength denied = std::min(pa.pref.strength, pb.pref.strength);
      cost[kSide] = denied >= Strength::strong ? 2 : 1;
    }
    if (points(a) == points(b)) {
      const int half = pa.group_size / 2;
      const bool across = pa.in_group < half && pb.in_group >= half;
      cost[kExchange] = across ? 0 : 1;
      cost[kTransposition] = std::abs((pb.in_group - pa.in_group) - half);
    } else {
      // A downfloater: the lowest of its group, meeting the highest of the lower one.
      cost[kTransposition] = (pa.group_size - 1 - pa.in_group) + pb.in_group;
    }
    return true;
  }

  // The cost of the bye for the player at `pos`; false if the attempt leaves it out.
  bool bye_cost(int pos, const Attempt& attempt, Cost& cost) const {
    cost.fill(0);
    cost[kRepeat] = players_[placed_[pos].index].had_bye ? 1 : 0;
    if (cost[kRepeat] > 0 && attempt.phase < 2) return false;
    const long long d = points(pos) - lowest_points2_;
    cost[kScore] = d * d;
    cost[kTransposition] = static_cast<long long>(placed_.size()) - 1 - pos;
    return true;
  }

  struct Edge {
    int a, b;
    Cost cost;
  };

  std::vector<Edge> edges(const Attempt& attempt) const {
    const int n = static_cast<int>(placed_.size());
    std::vector<std::pair<int, int>> pairs;
    if (attempt.window == 0) {
      for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) pairs.emplace_back(a, b);
    } else {
      const int w = attempt.window;
      for (int a = 0; a < n; ++a) {
        for (int b = a + 1; b <= std::min(n - 1, a + w); ++b) pairs.emplace_back(a, b);
        const int centre = ideal(placed_[a]);
        for (int b = std::max(0, centre - w); b <= std::min(n - 1, centre + w); ++b)
          if (b != a) pairs.emplace_back(std::min(a, b), std::max(a, b));
      }
      std::sort(pairs.begin(), pairs.end());
      pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    }
    std::vector<Edge> list;
    list.reserve(pairs.size() + static_cast<std::size_t>(n));
    Cost cost;
    for (const auto& [a, b] : pairs)
      if (pair_cost(a, b, attempt, cost)) list.push_back({a, b, cost});
    if (n % 2 == 1)  // the bye: an edge to a dummy vertex n
      for (int p = 0; p < n; ++p)
        if (bye_cost(p, attempt, cost)) list.push_back({p, n, cost});
    return list;
  }

  // Runs one attempt: true, with `mate` (by position; n the bye), if it pairs everyone.
  bool match(const Attempt& attempt, std::vector<int>& mate) const {
    const int n = static_cast<int>(placed_.size());
    const int vertices = n + n % 2;
    const std::vector<Edge> list = edges(attempt);

    // Edge weights: each tier's unit exceeds what the tiers below it can add up to over a whole matching,
    // and every edge weighs more than the cost of a whole matching, so that the heaviest matching is a perfect
    // one (when there is one) and the cheapest of those, tier by tier. A tier that would not fit in the
    // weights' range is dropped, the least important first (only on big graphs that need repeats).
    const long double pairs = vertices / 2;
    Cost highest{};
    for (const Edge& e : list)
      for (int t = 0; t < kTiers; ++t) highest[t] = std::max(highest[t], e.cost[t]);
    std::array<long long, kTiers> unit{};
    long long base = 0;
    const long double limit = static_cast<long double>(std::numeric_limits<Weight>::max() / 8);
    for (int kept = kTiers; kept > 0; --kept) {
      long double below = 0;  // the most one edge costs in the tiers below t
      std::array<long double, kTiers> u{};
      for (int t = kTiers - 1; t >= 0; --t) {
        u[t] = t < kept ? pairs * below + 1 : 0;
        below += static_cast<long double>(highest[t]) * u[t];
      }
      const long double b = pairs * below + 1;
      if (b <= limit) {
        for (int t = 0; t < kTiers; ++t) unit[t] = static_cast<long long>(u[t]);
        base = static_cast<long long>(b);
        break;
      }
    }
    Graph g(static_cast<std::size_t>(vertices));
    for (const Edge& e : list) {
      Weight w = base;
      for (int t = 0; t < kTiers; ++t) w -= e.cost[t] * unit[t];
      boost::add_edge(e.a, e.b, w, g);
    }
    using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
    std::vector<Vertex> m(static_cast<std::size_t>(vertices));
    // A perfect matching first, by cardinality alone (fast): else the attempt fails at once.
    boost::edmonds_maximum_cardinality_matching(g, &m[0]);
    if (static_cast<int>(boost::matching_size(g, &m[0])) * 2 != vertices) return false;
    boost::cinq_fixed::maximum_weighted_matching(g, &m[0]);
    mate.assign(static_cast<std::size_t>(vertices), -1);
    int matched = 0;
    for (int v = 0; v < vertices; ++v)
      if (m[v] != boost::graph_traits<Graph>::null_vertex()) {
        mate[v] = static_cast<int>(m[v]);
        ++matched;
      }
    return matched == vertices;
  }

  // The side of `a` (the better ranked) against `b`, by the Dutch allocation rules E.1-E.5; `board` counts
  // from 0.
  int allocate(const Placed& a, const Placed& b, int board) const {
    const Preference& pa = a.pref;
    const Preference& pb = b.pref;
    if (pa.side < 0 && pb.side < 0) return board % 2;  // no games yet: alternating from board 1
    if (pb.side < 0) return pa.side;
    if (pa.side < 0) return 1 - pb.side;
    if (pa.side != pb.side) return pa.side;                                   // E.1: both granted
    if (pa.strength != pb.strength) return pa.strength > pb.strength ? pa.side : 1 - pb.side;  // E.2
    if (pa.strength == Strength::absolute && std::abs(pa.balance) != std::abs(pb.balance))
      return std::abs(pa.balance) > std::abs(pb.balance) ? pa.side : 1 - pb.side;
    // E.4: alternate from the latest game in which they had different sides.
    const auto& ha = players_[a.index].sides;
    const auto& hb = players_[b.index].sides;
    for (std::size_t k = 1; k <= std::min(ha.size(), hb.size()); ++k)
      if (ha[ha.size() - k] != hb[hb.size() - k]) return 1 - ha[ha.size() - k];
    return pa.side;  // E.5: the better ranked's preference
  }

  const std::vector<SwissPlayer>& players_;
  std::vector<Placed> placed_;
  std::vector<std::vector<int>> met_;  // by position: the positions of the opponents met, once a game
  int lowest_points2_ = 0;
};

}  // namespace

SwissRound pair_swiss(const std::vector<SwissPlayer>& players) { return SwissPairer(players).pair(); }

// FIDE's Berger tables: with N players (N even; a dummy N for an odd count) and m = N - 1, round r's first
// board is x against N, x = (r - 1) N/2 mod m + 1, N playing first in even rounds; board k (2..N/2) is
// x + (k - 1) against x - (k - 1), modulo m in 1..m, the first of them playing first.
std::vector<BergerRound> berger_rounds(int n) {
  std::vector<BergerRound> rounds;
  if (n < 2) return rounds;
  const int count = n + n % 2;
  const int m = count - 1;
  const int half = count / 2;
  auto wrap = [m](int v) { return ((v - 1) % m + m) % m + 1; };
  for (int r = 1; r <= m; ++r) {
    BergerRound round;
    const int x = (r - 1) * half % m + 1;
    std::vector<std::array<int, 2>> boards;
    boards.push_back(r % 2 == 1 ? std::array<int, 2>{x, count} : std::array<int, 2>{count, x});
    for (int k = 2; k <= half; ++k) boards.push_back({wrap(x + k - 1), wrap(x - (k - 1))});
    for (const auto& board : boards) {
      const std::array<int, 2> zero_based{board[0] - 1, board[1] - 1};
      if (n % 2 == 1 && (board[0] == count || board[1] == count))
        round.resting = board[0] == count ? zero_based[1] : zero_based[0];
      else
        round.boards.push_back(zero_based);
    }
    rounds.push_back(std::move(round));
  }
  return rounds;
}

std::vector<BergerRound> round_robin_rounds(int n, bool double_round) {
  std::vector<BergerRound> rounds = berger_rounds(n);
  if (!double_round) return rounds;
  const std::size_t cycle = rounds.size();
  for (std::size_t r = 0; r < cycle; ++r) {
    BergerRound swapped = rounds[r];
    for (auto& board : swapped.boards) std::swap(board[0], board[1]);
    rounds.push_back(std::move(swapped));
  }
  return rounds;
}

std::vector<std::array<int, 2>> pair_arena(const std::vector<ArenaPlayer>& waiting, bool others_playing) {
  const int n = static_cast<int>(waiting.size());
  std::vector<bool> taken(static_cast<std::size_t>(n), false);
  std::vector<std::array<int, 2>> pairs;
  for (int i = 0; i < n; ++i) {
    if (taken[i]) continue;
    int chosen = -1, rematch = -1;
    for (int j = i + 1; j < n; ++j) {
      if (taken[j]) continue;
      const auto avoids = [&](int a, int b) {
        return std::find(waiting[a].avoid.begin(), waiting[a].avoid.end(), b) != waiting[a].avoid.end();
      };
      const bool again = waiting[i].last_opponent == j || waiting[j].last_opponent == i || avoids(i, j) || avoids(j, i);
      if (again) {
        if (rematch < 0) rematch = j;
        continue;
      }
      if (chosen < 0 || std::abs(waiting[j].points - waiting[i].points) <
                            std::abs(waiting[chosen].points - waiting[i].points))
        chosen = j;
    }
    if (chosen < 0 && !others_playing) chosen = rematch;
    if (chosen < 0) continue;
    taken[i] = taken[chosen] = true;
    const bool i_first = waiting[i].balance <= waiting[chosen].balance;
    pairs.push_back(i_first ? std::array<int, 2>{i, chosen} : std::array<int, 2>{chosen, i});
  }
  return pairs;
}

}  // namespace cinq::tournament
