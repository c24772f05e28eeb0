// Baltek rules (docs/rules/baltek.md): turns of 3 points and a bonus; runs, sprints, kicks; goals.
#include "rules/baltek/baltek.h"
#include "rules/baltek/view.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

namespace cinq::baltek {

namespace {

constexpr const char* kTeamName[2] = {"Blue", "Red"};

enum Kind : std::uint64_t { kRun = 1, kSprint = 2, kKick = 3 };

constexpr Action make(Kind kind, Square from, Square to, int duel = 0, int lob = 0) {
  return Action{kind | std::uint64_t(from) << 2 | std::uint64_t(to) << 9 | std::uint64_t(duel) << 16 |
                std::uint64_t(lob) << 18};
}
constexpr Kind kind_of(Action a) { return Kind(a.code & 3); }
constexpr Square from_of(Action a) { return Square((a.code >> 2) & 127); }
constexpr Square to_of(Action a) { return Square((a.code >> 9) & 127); }
constexpr int duel_of(Action a) { return int((a.code >> 16) & 3); }
constexpr int lob_of(Action a) { return int((a.code >> 18) & 3); }

constexpr int kDirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

Square offset(Square s, int dc, int dr) {
  int c = col_of(s) + dc, r = row_of(s) + dr;
  if (c < 0 || c > 11 || r < 0 || r > 4) return kNone;
  return square(c, r);
}

const OptionSpec kOptions[] = {
    {"goals", "2", {}, 1, 5, ""},
    {"turns", "off", {}, 1, INT_MAX, "off"},
};
constexpr std::string_view kBoardReasons[] = {"score", "limit"};

class BaltekGame final : public Game {
 public:
  std::string_view name() const override { return "baltek"; }
  std::string_view record_name() const override { return "BALTEK"; }
  std::array<char, 2> side_letters() const override { return {'B', 'R'}; }
  const GameWords& words() const override {
    // A score is goals, written as a match's: "Ada (Blue) wins 2–1".
    static constexpr ResultWords kResults[] = {{"score", "{head} {mine}–{theirs}", "{head} on goals", ""}};
    static const GameWords kWords = {"Baltek",
        "Football on a board: two teams of six footballers run, pass and shoot, three actions a turn.",
        {"Blue", "Red"}, false, false, kResults};
    return kWords;
  }
  // Its words in French, the client's (web-client/boards/fr/baltek.js; tests/rules/words_fr_test.cpp compares
  // the sides).
  const GameWords& words_in(std::string_view language) const override {
    static const GameWords kFrench = {"Baltek",
        "Le football sur un plateau\u00a0: deux équipes de six footballeurs courent, se passent la balle et tirent, trois actions par tour.",
        {"Bleus", "Rouges"}, true, false};
    return language == "fr" ? kFrench : words();
  }
  std::span<const OptionSpec> option_specs() const override { return kOptions; }
  bool header_optional() const override { return true; }
  std::span<const std::string_view> board_reasons() const override { return kBoardReasons; }
  std::string_view bounded_options() const override { return "turns=60"; }
  std::unique_ptr<State> start(const Options& o) const override {
    return std::make_unique<BaltekState>(o.get_int("goals"), o.is_none("turns") ? 0 : o.get_int("turns"));
  }
};

}  // namespace

const Game& game() {
  static const BaltekGame g;
  return g;
}

bool is_field(Square s) { return s >= 0 && col_of(s) >= 1 && col_of(s) <= 10; }
bool exists(Square s) { return is_field(s) || s == kGoal[0] || s == kGoal[1]; }

std::string square_name(Square s) {
  return std::string(1, char('a' + col_of(s))) + std::string(1, char('1' + row_of(s)));
}

Square parse_square(std::string_view t) {
  if (t.size() != 2 || t[0] < 'a' || t[0] > 'l' || t[1] < '1' || t[1] > '5') return kNone;
  Square s = square(t[0] - 'a', t[1] - '1');
  return exists(s) ? s : kNone;
}

// ---------------------------------------------------------------------------------------------------------
// Positions

namespace {
const BaltekState& as_baltek(const State& state) {
  assert(&state.game() == &game());
  return static_cast<const BaltekState&>(state);
}
}  // namespace

Square ball_of(const State& state) { return as_baltek(state).ball(); }
Square footballer_of(const State& state, Side side, int i) { return as_baltek(state).footballer(side, i); }
int goals_of(const State& state, Side side) { return as_baltek(state).goals_scored(side); }

BaltekState::BaltekState(int goals, int turn_limit) : goals_(goals), turn_limit_(turn_limit) { kickoff(0); }

// The fixed kickoff positions (baltek.md, "Kickoff positions"): only Blue's 3, Red's 3 and the ball depend on
// who kicks off. Footballer order follows kStrength: the 3, the two 2s, the three 1s.
void BaltekState::kickoff(Side kicking) {
  auto sq = [](std::string_view n) { return parse_square(n); };
  pos_[0] = {sq(kicking == 0 ? "f3" : "e3"), sq("f5"), sq("f1"), sq("d5"), sq("d3"), sq("d1")};
  pos_[1] = {sq(kicking == 1 ? "g3" : "h3"), sq("g5"), sq("g1"), sq("i5"), sq("i3"), sq("i1")};
  ball_ = sq(kicking == 0 ? "f3" : "g3");
  bonus_ = {true, true};
}

int BaltekState::at(Side team, Square s) const {
  for (int i = 0; i < 6; ++i)
    if (pos_[team][i] == s) return i;
  return -1;
}

// ---------------------------------------------------------------------------------------------------------
// Actions

void BaltekState::generate(std::vector<Action>& out, bool any_only) const {
  if (winner_ >= 0 || drawn_ || points_ == 0) return;
  const Side me = to_move_, opp = other(me);
  for (int i = 0; i < 6; ++i) {
    if (ran_ >> i & 1) continue;
    const Square from = pos_[me][i];
    const int reach = bonus_[me] ? 2 : 1;
    for (int dc = -reach; dc <= reach; ++dc)
      for (int dr = -reach; dr <= reach; ++dr) {
        if (dc == 0 && dr == 0) continue;
        Square to = offset(from, dc, dr);
        if (!is_field(to) || at(me, to) >= 0) continue;
        bool near = std::abs(dc) <= 1 && std::abs(dr) <= 1;
        if (near) out.push_back(make(kRun, from, to));
        if (bonus_[me]) out.push_back(make(kSprint, from, to));
        if (any_only && !out.empty()) return;
      }
  }
  const int kicker = at(me, ball_);
  if (kicker < 0 || (kicked_ >> kicker & 1)) return;
  const int strength = kStrength[kicker];
  const int holder = at(opp, ball_);
  const int duel = holder >= 0 ? std::max(0, kStrength[holder] - strength) : 0;
  for (const auto& d : kDirs)
    for (int dist = 1; dist <= 2; ++dist) {
      Square to = offset(ball_, d[0] * dist, d[1] * dist);
      if (!exists(to) || to == kGoal[me]) continue;
      int lob = 0;
      if (dist == 2) {
        int over = at(opp, offset(ball_, d[0], d[1]));
        if (over >= 0) lob = std::max(0, kStrength[over] - strength);
      }
      if (1 + duel + lob > points_) continue;
      out.push_back(make(kKick, ball_, to, duel, lob));
      if (any_only) return;
    }
}

void BaltekState::legal_actions(std::vector<Action>& out) const {
  if (winner_ >= 0 || drawn_) return;
  generate(out, false);
  out.push_back(Action::end_turn());  // a team may end its turn at any time, even with no action
}

bool BaltekState::has_action() const {
  std::vector<Action> any;
  generate(any, true);
  return !any.empty();
}

std::string BaltekState::action_text(Action a) const {
  if (a.is_end_turn()) return {};
  switch (kind_of(a)) {
    case kRun: return square_name(from_of(a)) + " " + square_name(to_of(a));
    case kSprint: return square_name(from_of(a)) + "* " + square_name(to_of(a));
    case kKick: {
      std::string s = "@" + std::string(duel_of(a), '+') + std::string(lob_of(a), '!') + " ";
      return s + (to_of(a) == kGoal[other(to_move_)] ? "#" : square_name(to_of(a)));
    }
  }
  return {};
}

void BaltekState::apply(Action a) {
  assert(is_legal(a));
  if (a.is_end_turn()) {
    end_turn();
    return;
  }
  const Side me = to_move_;
  mid_turn_ = true;
  switch (kind_of(a)) {
    case kRun:
    case kSprint: {
      int i = at(me, from_of(a));
      pos_[me][i] = to_of(a);
      ran_ |= std::uint8_t(1 << i);
      points_ -= 1;
      if (kind_of(a) == kSprint) bonus_[me] = false;
      break;
    }
    case kKick: {
      kicked_ |= std::uint8_t(1 << at(me, ball_));
      points_ -= 1 + duel_of(a) + lob_of(a);
      ball_ = to_of(a);
      if (ball_ == kGoal[other(me)]) {  // a goal: the turn ends at once
        if (++score_[me] >= goals_) winner_ = me;
        else kickoff(other(me));  // the conceding team kicks off and plays next
        end_turn();
        return;
      }
      break;
    }
  }
  if (!has_action()) end_turn();  // nothing left: the turn ends by itself
}

void BaltekState::end_turn() {
  ++turns_played_;
  to_move_ = other(to_move_);
  points_ = 3;
  ran_ = kicked_ = 0;
  mid_turn_ = false;
  if (winner_ < 0 && turn_limit_ > 0 && turns_played_ >= turn_limit_) drawn_ = true;
}

Outcome BaltekState::outcome() const {
  if (winner_ >= 0) return Outcome::win(winner_, "score", score());
  if (drawn_) return Outcome::draw("limit", score());
  return Outcome::ongoing();
}

std::string BaltekState::score() const { return std::to_string(score_[0]) + "-" + std::to_string(score_[1]); }

// ---------------------------------------------------------------------------------------------------------
// Reading an action: the seed's notation, with the reasons a player needs when it is wrong.

Result<Item> BaltekState::read_item(std::string_view text, const ItemContext&) const {
  auto a = parse(fold_spaces(text));
  if (!a) return a.error();
  return Item{false, *a};
}

Result<Action> BaltekState::parse(std::string_view t) const {
  const Side me = to_move_, opp = other(me);
  const std::string who = kTeamName[me];
  const std::string quoted = "'" + std::string(t) + "'";
  const std::string item(t);
  const std::string side(1, me == 0 ? 'B' : 'R');
  if (winner_ >= 0 || drawn_) return make_error(ErrorCode::game_over_plain, {}, "the game is over");
  if (points_ == 0)
    return make_error(ErrorCode::no_points_left, {{"side", side}}, who + " has no points left this turn");
  auto sp = t.find(' ');
  if (sp == std::string_view::npos || t.find(' ', sp + 1) != std::string_view::npos) {
    if (!t.empty() && t[0] == '@' && t.size() > 1 && t.back() != '@')
      return make_error(ErrorCode::kick_space, {{"item", item}},
                        quoted + ": write a space between the kick and its square (@ d3)");
    return make_error(ErrorCode::not_a_field_action, {{"item", item}},
                      quoted + " is not a Baltek action (runs 'g3 f3', sprints 'g3* e2', kicks '@ c3')");
  }
  std::string_view head = t.substr(0, sp), tail = t.substr(sp + 1);
  if (head[0] == '@') {
    int duel = 0, lob = 0;
    for (char c : head.substr(1)) {
      if (c == '+') ++duel;
      else if (c == '!') ++lob;
      else
        return make_error(ErrorCode::kick_form, {{"item", item}},
                          quoted + ": a kick is '@', its marks '+' and '!', a space, then its square");
    }
    Square to = tail == "#" ? kGoal[opp] : parse_square(tail);
    if (to == kNone)
      return make_error(ErrorCode::not_a_field_square, {{"item", item}, {"token", std::string(tail)}},
                        quoted + ": '" + std::string(tail) + "' is not a square of the field");
    if (to == kGoal[me])
      return make_error(ErrorCode::own_goal, {{"item", item}, {"side", side}, {"square", square_name(to)}},
                        quoted + ": no own goals (" + who + " defends " + square_name(to) + ")");
    const int kicker = at(me, ball_);
    if (kicker < 0)
      return make_error(ErrorCode::ball_not_held,
                        {{"item", item}, {"side", side}, {"square", square_name(ball_)}},
                        quoted + ": no " + who + " footballer has the ball (" + square_name(ball_) + ")");
    if (kicked_ >> kicker & 1)
      return make_error(
          ErrorCode::already_kicked, {{"item", item}, {"side", side}, {"square", square_name(ball_)}},
          quoted + ": the " + who + " footballer on " + square_name(ball_) + " has already kicked");
    int dc = col_of(to) - col_of(ball_), dr = row_of(to) - row_of(ball_);
    int dist = std::max(std::abs(dc), std::abs(dr));
    if (dist == 0 || dist > 2 || (dc != 0 && dr != 0 && std::abs(dc) != std::abs(dr)))
      return make_error(
          ErrorCode::ball_distance, {{"item", item}, {"square", square_name(ball_)}},
          quoted + ": the ball moves 1 or 2 squares in a straight line from " + square_name(ball_));
    const int strength = kStrength[kicker];
    int holder = at(opp, ball_);
    int want_duel = holder >= 0 ? std::max(0, kStrength[holder] - strength) : 0;
    int want_lob = 0;
    if (dist == 2) {
      int over = at(opp, offset(ball_, dc / 2, dr / 2));
      if (over >= 0) want_lob = std::max(0, kStrength[over] - strength);
    }
    Action a = make(kKick, ball_, to, want_duel, want_lob);
    std::string fixed = action_text(a);
    auto count = [](int n, const char* what) {
      return n == 0 ? std::string("no ") + what : std::string("a ") + what + " of " + std::to_string(n);
    };
    auto needs = [&](int n, ErrorCode none, ErrorCode some, const char* what) {
      ErrorParams params = {{"side", side}, {"item", item}};
      if (n > 0) params.emplace_back("count", std::to_string(n));
      params.emplace_back("fixed", fixed);
      return make_error(
          n == 0 ? none : some, std::move(params),
          who + " kick " + std::string(t) + " needs " + count(n, what) + " (write " + fixed + ")");
    };
    if (duel != want_duel) return needs(want_duel, ErrorCode::kick_no_duel, ErrorCode::kick_duel, "duel");
    if (lob != want_lob) return needs(want_lob, ErrorCode::kick_no_lob, ErrorCode::kick_lob, "lob");
    if (1 + duel + lob > points_)
      return make_error(ErrorCode::kick_cost,
                        {{"item", item},
                         {"cost", std::to_string(1 + duel + lob)},
                         {"side", side},
                         {"left", std::to_string(points_)}},
                        quoted + " costs " + std::to_string(1 + duel + lob) + " points; " + who + " has " +
                            std::to_string(points_) + " left");
    assert(is_legal(a));
    return a;
  }
  const bool sprint = head.size() == 3 && head[2] == '*';
  Square from = parse_square(sprint ? head.substr(0, 2) : head);
  Square to = parse_square(tail);
  if (from == kNone || to == kNone)
    return make_error(ErrorCode::not_a_field_action, {{"item", item}},
                      quoted + " is not a Baltek action (runs 'g3 f3', sprints 'g3* e2', kicks '@ c3')");
  const int i = at(me, from);
  if (i < 0)
    return make_error(ErrorCode::no_footballer,
                      {{"item", item}, {"side", side}, {"square", square_name(from)}},
                      quoted + ": no " + who + " footballer on " + square_name(from));
  if (ran_ >> i & 1)
    return make_error(
        ErrorCode::already_ran, {{"item", item}, {"side", side}, {"square", square_name(from)}},
        quoted + ": the " + who + " footballer on " + square_name(from) + " has already run this turn");
  if (!is_field(to))
    return make_error(ErrorCode::into_goal, {{"item", item}}, quoted + ": footballers never enter a goal");
  if (at(me, to) >= 0)
    return make_error(ErrorCode::own_footballer_there,
                      {{"item", item}, {"square", square_name(to)}, {"side", side}},
                      quoted + ": " + square_name(to) + " holds a " + who + " footballer");
  int dist = std::max(std::abs(col_of(to) - col_of(from)), std::abs(row_of(to) - row_of(from)));
  if (sprint) {
    if (!bonus_[me])
      return make_error(ErrorCode::bonus_spent, {{"item", item}, {"side", side}},
                        quoted + ": " + who + "'s bonus is spent until the next kickoff");
    if (dist > 2)
      return make_error(ErrorCode::sprint_too_far, {{"item", item}},
                        quoted + ": a sprint goes at most 2 squares");
  } else if (dist > 1) {
    return make_error(ErrorCode::run_too_far,
                      {{"item", item}, {"sprint", square_name(from) + "* " + square_name(to)}},
                      quoted + ": a run goes to a neighbouring square (a sprint is written " +
                          square_name(from) + "* " + square_name(to) + ")");
  }
  Action a = make(sprint ? kSprint : kRun, from, to);
  assert(is_legal(a));
  return a;
}

}  // namespace cinq::baltek
