// The pairing systems (tournament/pairing.h): FIDE's Berger tables as published, a Dutch example worked by
// hand, properties of Swiss rounds over many random events, and the arena's pairing.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/max_cardinality_matching.hpp>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tournament/pairing.h"

namespace cinq::tournament {
namespace {

// Boards as FIDE prints them: "1-6 2-5 3-4", numbers from 1, the first of each pair playing first.
std::string boards_text(const std::vector<std::array<int, 2>>& boards) {
  std::string out;
  for (const auto& board : boards)
    out += (out.empty() ? "" : " ") + std::to_string(board[0] + 1) + "-" + std::to_string(board[1] + 1);
  return out;
}
std::string berger_text(const BergerRound& round) { return boards_text(round.boards); }

TEST_CASE("tournament pairing: the Berger tables for 6 and 8 players are FIDE's (Handbook C.05, Annex 1)") {
  const std::vector<std::string> six = {"1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"};
  const auto rounds6 = berger_rounds(6);
  REQUIRE(rounds6.size() == six.size());
  for (std::size_t r = 0; r < six.size(); ++r) CHECK(berger_text(rounds6[r]) == six[r]);
  const std::vector<std::string> eight = {"1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6",
                                          "8-6 7-5 1-4 2-3", "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4",
                                          "4-8 5-3 6-2 7-1"};
  const auto rounds8 = berger_rounds(8);
  REQUIRE(rounds8.size() == eight.size());
  for (std::size_t r = 0; r < eight.size(); ++r) CHECK(berger_text(rounds8[r]) == eight[r]);
}

TEST_CASE("tournament pairing: an odd round robin gives each player one rest, where the table's dummy stood") {
  const auto rounds = berger_rounds(5);  // the table of 6, player 6 the dummy
  REQUIRE(rounds.size() == 5);
  CHECK(berger_text(rounds[0]) == "2-5 3-4");
  CHECK(rounds[0].resting == 0);
  std::set<int> resting;
  for (const auto& r : rounds) resting.insert(r.resting);
  CHECK(resting == std::set<int>{0, 1, 2, 3, 4});
}

TEST_CASE("tournament pairing: a round robin meets everyone once, a double one twice with the sides swapped") {
  for (int n = 2; n <= 13; ++n) {
    for (bool twice : {false, true}) {
      const auto rounds = round_robin_rounds(n, twice);
      CHECK(rounds.size() == static_cast<std::size_t>((n + n % 2 - 1) * (twice ? 2 : 1)));
      std::map<std::pair<int, int>, int> met;  // [first, second] -> games
      for (const auto& r : rounds) {
        std::set<int> seen;
        for (const auto& b : r.boards) {
          ++met[{b[0], b[1]}];
          seen.insert(b[0]);
          seen.insert(b[1]);
        }
        if (r.resting >= 0) seen.insert(r.resting);
        CHECK(seen.size() == static_cast<std::size_t>(n));  // everyone once a round
      }
      for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
          const int ab = met[{a, b}], ba = met[{b, a}];
          if (twice) {
            CHECK(ab == 1);
            CHECK(ba == 1);
          } else {
            CHECK(ab + ba == 1);
          }
        }
    }
  }
}

// --- Swiss

TEST_CASE("tournament pairing: side preferences follow the Dutch rules (A.6)") {
  CHECK(side_preference({}).strength == Strength::none);
  CHECK(side_preference({0}).strength == Strength::strong);
  CHECK(side_preference({0}).side == 1);
  CHECK(side_preference({0, 1}).strength == Strength::mild);
  CHECK(side_preference({0, 1}).side == 0);
  CHECK(side_preference({1, 0, 0}).strength == Strength::absolute);  // twice in a row
  CHECK(side_preference({1, 0, 0}).side == 1);
  CHECK(side_preference({0, 1, 0, 0, 1, 0}).strength == Strength::absolute);  // a balance of 2
  CHECK(side_preference({0, 1, 0, 0, 1, 0}).side == 1);
  CHECK(side_preference({0, 1, 0}).strength == Strength::strong);
}

TEST_CASE("tournament pairing: round 1 of eight players is 1-5, 6-2, 3-7, 8-4 (Dutch, the first seat drawn for 1)") {
  const SwissRound r = pair_swiss(std::vector<SwissPlayer>(8));
  CHECK(r.bye == -1);
  CHECK(boards_text(r.boards) == "1-5 6-2 3-7 8-4");
}

// Worked by hand with the Dutch rules: after round 1 (1-5, 6-2, 3-7, 8-4, the higher seeds winning), the
// bracket of 1 point is S1 = {1, 2}, S2 = {3, 4}. 1-3 and 2-4 would deny two players their side each (1 and 3
// both played first and want the second seat; 2 and 4 the first); the transposition 1-4, 2-3 grants every
// preference, so the Dutch system (C.12 before the S1/S2 order) pairs 4-1 and 2-3. Likewise the bracket of 0
// points, {5, 6, 7, 8}: 5-8 and 7-6. This implementation gives the same.
TEST_CASE("tournament pairing: round 2 of eight players transposes S2 to grant every side (a Dutch example)") {
  std::vector<SwissPlayer> p(8);
  const std::array<std::array<int, 2>, 4> round1 = {{{0, 4}, {5, 1}, {2, 6}, {7, 3}}};
  for (const auto& b : round1) {
    const int winner = std::min(b[0], b[1]);
    p[winner].points2 = 2;
    for (int s = 0; s < 2; ++s) {
      p[b[s]].sides.push_back(s);
      p[b[s]].opponents.push_back(b[1 - s]);
    }
  }
  CHECK(boards_text(pair_swiss(p).boards) == "4-1 2-3 5-8 7-6");
}

TEST_CASE("tournament pairing: an odd group floats its lowest to the next group's highest, the bye to the lowest") {
  // Seven players scoring 2, 2, 2 | 1, 1 | 0, 0 (in half points 4, 2, 0).
  std::vector<SwissPlayer> p(7);
  for (int i : {0, 1, 2}) p[i].points2 = 4;
  for (int i : {3, 4}) p[i].points2 = 2;
  const SwissRound r = pair_swiss(p);
  CHECK(r.bye == 6);  // the lowest ranked of the lowest group
  std::set<std::set<int>> pairs;
  for (const auto& b : r.boards) pairs.insert({b[0], b[1]});
  CHECK(pairs.count({0, 1}) == 1);  // S1 against S2 in the top group of 2 after its floater leaves
  CHECK(pairs.count({2, 3}) == 1);  // 3rd of the top group floats to the highest of the next
  CHECK(pairs.count({4, 5}) == 1);
}

// The state of a random Swiss event, as the pairing sees it.
struct Event {
  std::vector<SwissPlayer> players;
  std::vector<int> byes;  // per player
};

// Whether the round can be paired with no repeat and no second bye (and, if `sides`, no absolute side
// conflict): a perfect matching of the allowed pairs (a dummy for an odd count), by Boost's cardinality
// matching, independent of the weighted one under test.
bool pairable(const std::vector<SwissPlayer>& ps, bool sides) {
  using G = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  const int n = static_cast<int>(ps.size());
  const int v = n + n % 2;
  G g(static_cast<std::size_t>(v));
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if (std::count(ps[a].opponents.begin(), ps[a].opponents.end(), b) > 0) continue;
      const Preference pa = side_preference(ps[a].sides), pb = side_preference(ps[b].sides);
      if (sides && pa.strength == Strength::absolute && pb.strength == Strength::absolute && pa.side == pb.side)
        continue;
      boost::add_edge(a, b, g);
    }
    if (n % 2 == 1 && !ps[a].had_bye) boost::add_edge(a, n, g);
  }
  std::vector<boost::graph_traits<G>::vertex_descriptor> mate(static_cast<std::size_t>(v));
  boost::edmonds_maximum_cardinality_matching(g, &mate[0]);
  return static_cast<int>(boost::matching_size(g, &mate[0])) * 2 == v;
}

// The three most important criteria of a pairing, as pairing.h lists them: repeats and second byes,
// absolute side conflicts, the sum of the squared score differences (the bye's above the lowest score).
using Tiers = std::array<long long, 3>;
Tiers tiers(const std::vector<SwissPlayer>& ps, const std::vector<std::array<int, 2>>& pairs, int bye) {
  Tiers t{0, 0, 0};
  int lowest = 1 << 30;
  for (const auto& p : ps) lowest = std::min(lowest, p.points2);
  for (const auto& pr : pairs) {
    const SwissPlayer& a = ps[pr[0]];
    const SwissPlayer& b = ps[pr[1]];
    t[0] += std::count(a.opponents.begin(), a.opponents.end(), pr[1]);
    const Preference pa = side_preference(a.sides), pb = side_preference(b.sides);
    t[1] += pa.strength == Strength::absolute && pb.strength == Strength::absolute && pa.side == pb.side;
    const long long d = a.points2 - b.points2;
    t[2] += d * d;
  }
  if (bye >= 0) {
    t[0] += ps[bye].had_bye;
    const long long d = ps[bye].points2 - lowest;
    t[2] += d * d;
  }
  return t;
}

// The best Tiers of any pairing of a small event, by trying them all.
Tiers best_tiers(const std::vector<SwissPlayer>& ps) {
  const int n = static_cast<int>(ps.size());
  Tiers best{1LL << 60, 0, 0};
  std::vector<std::array<int, 2>> pairs;
  std::vector<bool> used(static_cast<std::size_t>(n), false);
  std::function<void(int)> go = [&](int bye) {
    int a = 0;
    while (a < n && (used[a] || a == bye)) ++a;
    if (a == n) {
      best = std::min(best, tiers(ps, pairs, bye));
      return;
    }
    used[a] = true;
    for (int b = a + 1; b < n; ++b)
      if (!used[b] && b != bye) {
        used[b] = true;
        pairs.push_back({a, b});
        go(bye);
        pairs.pop_back();
        used[b] = false;
      }
    used[a] = false;
  };
  if (n % 2 == 0) go(-1);
  else
    for (int bye = 0; bye < n; ++bye) go(bye);
  return best;
}

void play(Event& e, const SwissRound& r, std::mt19937& rng) {
  for (const auto& b : r.boards) {
    const int roll = static_cast<int>(rng() % 10);
    // The better seed (the lower index) wins more often; a fifth of the games are drawn.
    const int better = std::min(b[0], b[1]) == b[0] ? 0 : 1;
    const int winner = roll < 2 ? -1 : roll < 7 ? better : 1 - better;
    for (int s = 0; s < 2; ++s) {
      SwissPlayer& p = e.players[b[s]];
      p.points2 += winner < 0 ? 1 : winner == s ? 2 : 0;
      p.sides.push_back(s);
      p.opponents.push_back(b[1 - s]);
    }
  }
  if (r.bye >= 0) {
    e.players[r.bye].points2 += 2;
    e.players[r.bye].had_bye = true;
    ++e.byes[r.bye];
  }
}

TEST_CASE("tournament pairing: Swiss rounds of random events of 2 to 200 players keep the Dutch rules where possible") {
  int events = 0, rounds_checked = 0, exact = 0;
  for (unsigned seed = 1; seed <= 120; ++seed) {
    std::mt19937 rng(seed);
    const int n = seed <= 60 ? 2 + static_cast<int>(rng() % 11) : 2 + static_cast<int>(rng() % 199);
    const int rounds = 1 + static_cast<int>(rng() % static_cast<unsigned>(std::min(n + 1, 11)));
    Event e{std::vector<SwissPlayer>(static_cast<std::size_t>(n)), std::vector<int>(static_cast<std::size_t>(n), 0)};
    ++events;
    for (int round = 1; round <= rounds; ++round) {
      CAPTURE(seed);
      CAPTURE(n);
      CAPTURE(round);
      const std::vector<SwissPlayer> before = e.players;
      const SwissRound r = pair_swiss(before);
      ++rounds_checked;
      // Everyone once: the boards and at most one bye, which an odd number needs.
      std::vector<int> seen(static_cast<std::size_t>(n), 0);
      for (const auto& b : r.boards) {
        ++seen[b[0]];
        ++seen[b[1]];
      }
      CHECK((r.bye >= 0) == (n % 2 == 1));
      if (r.bye >= 0) ++seen[r.bye];
      CHECK(std::all_of(seen.begin(), seen.end(), [](int k) { return k == 1; }));
      // No repeat, no second bye, unless no pairing avoids them.
      const Tiers got = tiers(before, r.boards, r.bye);
      if (got[0] > 0) CHECK_FALSE(pairable(before, false));
      // Small events: repeats, absolute side conflicts and score differences are the least possible.
      if (n <= 12) {
        const Tiers best = best_tiers(before);
        CAPTURE(got[0]);
        CAPTURE(got[1]);
        CAPTURE(got[2]);
        CAPTURE(best[0]);
        CAPTURE(best[1]);
        CAPTURE(best[2]);
        CHECK(got == best);
        ++exact;
      }
      play(e, r, rng);
      // No side three times in a row, no balance beyond 2, unless no pairing without repeats allowed it.
      bool sides_kept = true;
      for (const SwissPlayer& p : e.players) {
        const auto& s = p.sides;
        const std::size_t k = s.size();
        if (k >= 3 && s[k - 1] == s[k - 2] && s[k - 2] == s[k - 3]) sides_kept = false;
        if (std::abs(side_preference(s).balance) > 2) sides_kept = false;
      }
      if (!sides_kept) CHECK_FALSE(pairable(before, true));
    }
    for (int b : e.byes) CHECK(b <= std::max(1, (rounds + n - 1) / n));
  }
  CHECK(events == 120);
  MESSAGE(rounds_checked << " rounds checked, " << exact << " against every possible pairing");
}

TEST_CASE("tournament pairing: a large field pairs within score groups, one floater per odd group") {
  std::mt19937 rng(7);
  Event e{std::vector<SwissPlayer>(200), std::vector<int>(200, 0)};
  for (int round = 1; round <= 5; ++round) {
    const SwissRound r = pair_swiss(e.players);
    std::map<int, int> group_size;
    for (const auto& p : e.players) ++group_size[p.points2];
    int odd_groups = 0;
    for (const auto& g : group_size) odd_groups += g.second % 2;
    int mixed = 0;
    for (const auto& b : r.boards) mixed += e.players[b[0]].points2 != e.players[b[1]].points2;
    CAPTURE(round);
    CHECK(mixed <= odd_groups);
    play(e, r, rng);
  }
}

// --- Arena

TEST_CASE("tournament pairing: the arena pairs near scores and never the last opponent while another waits") {
  // Ranked by points: 0 (10), 1 (9), 2 (4), 3 (3). 0 last met 1.
  std::vector<ArenaPlayer> w = {{10, 1, 0}, {9, 0, 0}, {4, -1, 1}, {3, -1, -1}};
  const auto pairs = pair_arena(w);
  REQUIRE(pairs.size() == 2);
  std::set<std::set<int>> got;
  for (const auto& p : pairs) got.insert({p[0], p[1]});
  CHECK(got == std::set<std::set<int>>{{0, 2}, {1, 3}});
  // The side to the one who played it less: 2 played first more often than 0.
  CHECK(pairs[0] == std::array<int, 2>{0, 2});
  CHECK(pairs[1] == std::array<int, 2>{3, 1});
  // Only the last opponent waiting: they meet again if no one else is playing, else they wait.
  CHECK(pair_arena({{10, 1, 0}, {9, 0, 0}}).size() == 1);
  CHECK(pair_arena({{10, 1, 0}, {9, 0, 0}}, true).empty());
  // One player alone waits.
  CHECK(pair_arena({{5, -1, 0}}).empty());
}

}  // namespace
}  // namespace cinq::tournament
