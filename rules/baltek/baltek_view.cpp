// Baltek (docs/rules/baltek.md): the position as ASCII, as a view for clients, and from ASCII.
#include <algorithm>
#include <sstream>
#include <vector>

#include "rules/baltek/baltek.h"

namespace cinq::baltek {

namespace {
constexpr char kLetter[2] = {'B', 'R'};
}

// Diagram format: a header of columns, then rows 5..1. A field cell is three characters: Blue's footballer
// strength or '.', Red's or '.', 'o' for the ball or '.'. The goals a3 and l3 are '#' (a ball is never seen
// resting in a goal: a goal resets the field).
std::string BaltekState::ascii() const {
  std::string s = "      a   b   c   d   e   f   g   h   i   j   k   l\n";
  for (int row = 4; row >= 0; --row) {
    s += "  " + std::to_string(row + 1) + "   " + (row == 2 ? "#   " : "    ");
    for (int col = 1; col <= 10; ++col) {
      Square q = square(col, row);
      int b = at(0, q), r = at(1, q);
      s += b >= 0 ? char('0' + kStrength[static_cast<std::size_t>(b)]) : '.';
      s += r >= 0 ? char('0' + kStrength[static_cast<std::size_t>(r)]) : '.';
      s += ball_ == q ? 'o' : '.';
      s += ' ';
    }
    if (row == 2) s += "#";
    while (s.back() == ' ') s.pop_back();
    s += "\n";
  }
  return s;
}

Result<BaltekState> BaltekState::from_ascii(std::string_view diagram, char to_move, int points,
                                            std::array<bool, 2> bonus, std::array<int, 2> score, int goals,
                                            int turn_limit) {
  BaltekState st(goals, turn_limit);
  std::array<std::vector<std::pair<int, Square>>, 2> found;  // (strength, square)
  Square ball = kNone;
  std::istringstream in{std::string(diagram)};
  std::string line;
  int rows_seen = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first.size() != 1 || first[0] < '1' || first[0] > '5') continue;
    const int row = first[0] - '1';
    ++rows_seen;
    std::vector<std::string> cells;
    for (std::string w; words >> w;)
      if (w != "#") cells.push_back(w);
    if (cells.size() != 10)
      return make_error(ErrorCode::row_cells, {{"row", first}, {"count", "10"}},
                        "row " + first + " needs 10 cells");
    for (int col = 1; col <= 10; ++col) {
      const std::string& c = cells[static_cast<std::size_t>(col - 1)];
      if (c.size() != 3)
        return make_error(ErrorCode::cell_length, {{"cell", c}, {"row", first}},
                          "cell '" + c + "' on row " + first + " is not three characters");
      for (int team = 0; team < 2; ++team) {
        if (c[team] == '.') continue;
        if (c[team] < '1' || c[team] > '3')
          return make_error(ErrorCode::bad_strength, {{"cell", c}}, "bad strength in cell '" + c + "'");
        found[team].emplace_back(c[team] - '0', square(col, row));
      }
      if (c[2] == 'o') {
        if (ball != kNone) return make_error(ErrorCode::two_balls, {}, "two balls");
        ball = square(col, row);
      } else if (c[2] != '.') {
        return make_error(ErrorCode::ball_mark, {{"cell", c}},
                          "cell '" + c + "': the third character is 'o' (ball) or '.'");
      }
    }
  }
  if (rows_seen != 5)
    return make_error(ErrorCode::diagram_rows, {{"first", "5"}, {"last", "1"}},
                      "the diagram needs rows 5 to 1");
  if (ball == kNone) return make_error(ErrorCode::no_ball, {}, "no ball");
  for (int team = 0; team < 2; ++team) {
    auto& f = found[team];
    std::sort(f.begin(), f.end(), [](auto& a, auto& b) { return a.first > b.first; });
    if (f.size() != 6)
      return make_error(ErrorCode::six_footballers, {{"side", std::string(1, kLetter[team])}},
                        std::string(1, kLetter[team]) + " needs six footballers");
    for (int i = 0; i < 6; ++i) {
      if (f[static_cast<std::size_t>(i)].first != kStrength[static_cast<std::size_t>(i)])
        return make_error(ErrorCode::team_strengths, {{"side", std::string(1, kLetter[team])}},
                          std::string(1, kLetter[team]) + " needs one 3, two 2s and three 1s");
      st.pos_[team][static_cast<std::size_t>(i)] = f[static_cast<std::size_t>(i)].second;
    }
  }
  st.ball_ = ball;
  st.to_move_ = to_move == 'R' ? 1 : 0;
  st.points_ = points;
  st.bonus_ = bonus;
  st.score_ = score;
  return st;
}

Value BaltekState::view() const {
  Value footballers = Value::array();
  for (int team = 0; team < 2; ++team)
    for (int i = 0; i < 6; ++i) {
      Value f = Value::object();
      f.set("side", std::string(1, kLetter[team]));
      f.set("strength", kStrength[static_cast<std::size_t>(i)]);
      f.set("square", square_name(pos_[team][static_cast<std::size_t>(i)]));
      f.set("ran", team == to_move_ && (ran_ >> i & 1));
      f.set("kicked", team == to_move_ && (kicked_ >> i & 1));
      footballers.push(std::move(f));
    }
  Value v = Value::object();
  v.set("columns", "abcdefghijkl");
  v.set("rows", 5);
  v.set("goals_squares", Value(Value::Array{Value("a3"), Value("l3")}));
  v.set("footballers", std::move(footballers));
  v.set("ball", square_name(ball_));
  v.set("score", Value(Value::Array{Value(score_[0]), Value(score_[1])}));
  v.set("bonus", Value(Value::Array{Value(bonus_[0]), Value(bonus_[1])}));
  v.set("to_move", std::string(1, kLetter[to_move_]));
  v.set("points", points_);
  v.set("turn", turns_played_ + 1);
  v.set("goal_target", goals_);
  v.set("turn_limit", turn_limit_);
  return v;
}

std::string BaltekState::fingerprint() const {
  std::string s;
  for (int team = 0; team < 2; ++team)
    for (Square q : pos_[team]) s += square_name(q);
  s += "|" + square_name(ball_) + "|" + score() + "|" + std::to_string(bonus_[0]) + std::to_string(bonus_[1]);
  s += "|" + std::to_string(to_move_) + "|" + std::to_string(points_) + "|" + std::to_string(ran_) + "|" +
       std::to_string(kicked_) + "|" + std::to_string(mid_turn_) + "|" + std::to_string(turns_played_) + "|" +
       std::to_string(goals_) + "|" + std::to_string(turn_limit_) + "|" + std::to_string(winner_) +
       std::to_string(drawn_);
  return s;
}

}  // namespace cinq::baltek
