// Scoring, tie-breaks, standings and the crosstable (tournament.h, docs/tournaments.md "Scoring").
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>

#include "tournament/tournament.h"

namespace cinq::tournament {

namespace {

// A result as the player of `seat` saw it: 1 won, 0 drew, -1 lost (a double forfeit is a loss).
int outcome_for(Result r, int seat) {
  switch (r) {
    case Result::first_wins:
    case Result::first_wins_forfeit: return seat == 0 ? 1 : -1;
    case Result::second_wins:
    case Result::second_wins_forfeit: return seat == 1 ? 1 : -1;
    case Result::draw: return 0;
    case Result::pending:
    case Result::double_forfeit: return -1;
  }
  return -1;
}

bool over_the_board(const Game& g) { return !g.pending() && !forfeit(g.result); }

// Arena points: a win 2, a draw 1, a loss 0; after two wins in a row, 4 and 2 until a game is not won.
struct ArenaScore {
  double points = 0;
  int run = 0;  // wins in a row
  bool on_streak() const { return run >= 2; }
  double add(int outcome) {
    const double factor = on_streak() ? 2 : 1;
    const double earned = outcome > 0 ? 2 * factor : outcome == 0 ? factor : 0;
    run = outcome > 0 ? run + 1 : 0;
    points += earned;
    return earned;
  }
};

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

}  // namespace

std::vector<Standing> Tournament::standings() const {
  const std::vector<const Entrant*> seeds = seeded();
  std::map<std::string, Standing> by_id;
  std::map<std::string, int> seed_of;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    Standing& s = by_id[seeds[i]->id];
    s.player = seeds[i]->id;
    s.name = seeds[i]->name;
    s.withdrawn = seeds[i]->withdrawn;
    seed_of[seeds[i]->id] = static_cast<int>(i);
  }
  const bool arena = spec_.format == Format::arena;
  std::map<std::string, ArenaScore> streaks;
  for (const Game& g : games_) {  // in pairing order: a player's games in the order played
    if (g.pending()) continue;
    for (int s = 0; s < 2; ++s) {
      auto it = by_id.find(g.seats[s]);
      if (it == by_id.end()) continue;
      Standing& st = it->second;
      const int outcome = outcome_for(g.result, s);
      if (arena) {
        streaks[st.player].add(outcome);
      } else {
        st.points += points_for(g.result, s);
      }
      if (over_the_board(g)) {
        ++st.games;
        st.wins += outcome > 0 ? 1 : 0;
      }
    }
  }
  if (arena) {
    for (auto& [id, st] : by_id) {
      st.points = streaks[id].points;
      st.on_streak = streaks[id].on_streak();
    }
  } else {
    for (const Rest& r : rests_)
      if (r.kind == SitOut::bye)
        if (auto it = by_id.find(r.player); it != by_id.end()) it->second.points += 1;
    // Buchholz: the opponents' points, one per round paired so far; a round not played over the board (a
    // bye, an absence, a forfeit, before a late entry, after a withdrawal) counts a virtual opponent with the
    // player's own points. Sonneborn-Berger: the points of the opponents beaten, half those of the drawn.
    std::map<std::string, std::map<int, const Game*>> played;  // player -> round -> game
    for (const Game& g : games_)
      for (int s = 0; s < 2; ++s) played[g.seats[s]][g.round] = &g;
    for (auto& [id, st] : by_id) {
      for (int round = 1; round <= round_; ++round) {
        auto it = played[id].find(round);
        if (it == played[id].end() || forfeit(it->second->result)) {
          st.buchholz += st.points;
          continue;
        }
        const Game& g = *it->second;
        if (g.pending()) continue;
        const int seat = g.seats[0] == id ? 0 : 1;
        const double opponent = by_id[g.seats[1 - seat]].points;
        st.buchholz += opponent;
        st.sonneborn_berger += opponent * points_for(g.result, seat);
      }
    }
    // Direct encounter: among the players tied on points, Buchholz and Sonneborn-Berger who all met over the
    // board, their points in those games.
    std::map<std::tuple<double, double, double>, std::vector<std::string>> tied;
    for (const auto& [id, st] : by_id) tied[{st.points, st.buchholz, st.sonneborn_berger}].push_back(id);
    for (const auto& [key, group] : tied) {
      if (group.size() < 2) continue;
      std::map<std::pair<std::string, std::string>, bool> met;
      std::map<std::string, double> direct;
      for (const Game& g : games_) {
        if (!over_the_board(g)) continue;
        const bool in0 = std::find(group.begin(), group.end(), g.seats[0]) != group.end();
        const bool in1 = std::find(group.begin(), group.end(), g.seats[1]) != group.end();
        if (!in0 || !in1) continue;
        met[{std::min(g.seats[0], g.seats[1]), std::max(g.seats[0], g.seats[1])}] = true;
        for (int s = 0; s < 2; ++s) direct[g.seats[s]] += points_for(g.result, s);
      }
      if (met.size() == group.size() * (group.size() - 1) / 2)
        for (const std::string& id : group) by_id[id].direct = direct[id];
    }
  }
  std::vector<Standing> list;
  for (auto& entry : by_id) list.push_back(std::move(entry.second));
  std::sort(list.begin(), list.end(), [&](const Standing& a, const Standing& b) {
    if (a.points != b.points) return a.points > b.points;
    if (!arena) {
      if (a.buchholz != b.buchholz) return a.buchholz > b.buchholz;
      if (a.sonneborn_berger != b.sonneborn_berger) return a.sonneborn_berger > b.sonneborn_berger;
      if (a.direct != b.direct) return a.direct > b.direct;
    }
    if (a.wins != b.wins) return a.wins > b.wins;
    return seed_of[a.player] < seed_of[b.player];
  });
  for (std::size_t i = 0; i < list.size(); ++i) list[i].rank = static_cast<int>(i) + 1;
  return list;
}

std::string Cell::text() const {
  switch (kind) {
    case Kind::bye: return "bye";
    case Kind::absent: return "abs";
    case Kind::none: return ".";
    case Kind::game: break;
  }
  const int outcome = outcome_for(result, seat);
  const char mark = result == Result::pending ? '?' : outcome > 0 ? '+' : outcome == 0 ? '=' : '-';
  return mark + std::to_string(opponent_rank) + (seat == 0 ? "F" : "S") + (forfeit(result) ? "!" : "");
}

std::vector<CrossRow> Tournament::crosstable() const {
  const std::vector<Standing> table = standings();
  std::map<std::string, int> rank;
  for (const Standing& s : table) rank[s.player] = s.rank;
  const bool arena = spec_.format == Format::arena;
  std::vector<CrossRow> rows;
  for (const Standing& s : table) {
    CrossRow row{s, {}};
    if (!arena) row.cells.resize(static_cast<std::size_t>(round_));
    ArenaScore streak;
    for (const Game& g : games_) {
      const int seat = g.seats[0] == s.player ? 0 : g.seats[1] == s.player ? 1 : -1;
      if (seat < 0) continue;
      Cell c;
      c.kind = Cell::Kind::game;
      c.opponent = g.seats[1 - seat];
      c.opponent_rank = rank[c.opponent];
      c.seat = seat;
      c.result = g.result;
      c.points = arena ? (g.pending() ? 0 : streak.add(outcome_for(g.result, seat))) : points_for(g.result, seat);
      if (arena)
        row.cells.push_back(std::move(c));
      else
        row.cells[static_cast<std::size_t>(g.round - 1)] = std::move(c);
    }
    if (!arena)
      for (const Rest& r : rests_)
        if (r.player == s.player) {
          Cell& c = row.cells[static_cast<std::size_t>(r.round - 1)];
          c.kind = r.kind == SitOut::bye ? Cell::Kind::bye : Cell::Kind::absent;
          c.points = r.kind == SitOut::bye ? 1 : 0;
        }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string Tournament::standings_text() const {
  const bool arena = spec_.format == Format::arena;
  std::string out;
  char line[256];
  if (arena)
    std::snprintf(line, sizeof line, "%4s  %-20s %6s %5s %5s  %s\n", "Rank", "Player", "Points", "Wins", "Games",
                  "Games in order");
  else
    std::snprintf(line, sizeof line, "%4s  %-20s %6s %8s %7s %6s %5s  %s\n", "Rank", "Player", "Points",
                  "Buchholz", "S-B", "Direct", "Wins", "Rounds");
  out += line;
  for (const CrossRow& row : crosstable()) {
    const Standing& s = row.standing;
    const std::string name = s.name + (s.withdrawn ? " (w)" : "") + (s.on_streak ? " (streak)" : "");
    if (arena)
      std::snprintf(line, sizeof line, "%4d  %-20s %6s %5d %5d ", s.rank, name.c_str(), number(s.points).c_str(),
                    s.wins, s.games);
    else
      std::snprintf(line, sizeof line, "%4d  %-20s %6s %8s %7s %6s %5d ", s.rank, name.c_str(),
                    number(s.points).c_str(), number(s.buchholz).c_str(), number(s.sonneborn_berger).c_str(),
                    number(s.direct).c_str(), s.wins);
    out += line;
    for (const Cell& c : row.cells) {
      std::snprintf(line, sizeof line, " %5s", c.text().c_str());
      out += line;
    }
    out += "\n";
  }
  return out;
}

}  // namespace cinq::tournament
