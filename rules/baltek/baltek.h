// Baltek, as docs/rules/baltek.md plays it: turn-based football on a 10 x 5 field with two goals.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "rules/game.h"

namespace cinq::baltek {

const Game& game();

// Squares: columns a..l (0..11), rows 1..5 (0..4). Only the field b1..k5 and the goals a3, l3 exist.
using Square = int;  // col * 5 + row, or kNone
constexpr Square kNone = -1;
constexpr Square square(int col, int row) { return col * 5 + row; }
constexpr int col_of(Square s) { return s / 5; }
constexpr int row_of(Square s) { return s % 5; }
constexpr Square kGoal[2] = {square(0, 2), square(11, 2)};  // a3 defended by Blue, l3 by Red
bool is_field(Square s);
bool exists(Square s);  // a field square or a goal
std::string square_name(Square s);
Square parse_square(std::string_view text);  // kNone if not a square of the 52

constexpr std::array<int, 6> kStrength = {3, 2, 2, 1, 1, 1};  // footballer i of each team

class BaltekState final : public State {
 public:
  // The kickoff position of a fresh game (Blue kicks off).
  BaltekState(int goals, int turn_limit);
  // A position from an ASCII diagram in the format of ascii(): five rows `N  cell cell ...` where a field
  // cell is three characters, Blue's strength or '.', Red's strength or '.', then 'o' for the ball or '.',
  // and the goals are '#'. `to_move` 'B' or 'R'; points left, bonuses, score as given. Returns an error for a
  // malformed diagram (a team needs exactly its six footballers: one 3, two 2s, three 1s).
  static Result<BaltekState> from_ascii(std::string_view diagram, char to_move = 'B', int points = 3,
                                        std::array<bool, 2> bonus = {true, true},
                                        std::array<int, 2> score = {0, 0}, int goals = 2, int turn_limit = 0);

  std::unique_ptr<State> clone() const override { return std::make_unique<BaltekState>(*this); }
  const Game& game() const override { return baltek::game(); }
  Side to_move() const override { return to_move_; }
  bool mid_turn() const override { return mid_turn_; }
  using State::legal_actions;
  void legal_actions(std::vector<Action>& out) const override;
  std::string action_text(Action a) const override;
  Result<Item> read_item(std::string_view text, const ItemContext& ctx) const override;
  void apply(Action a) override;
  Outcome outcome() const override;
  std::string score() const override;
  Value view() const override;
  std::string ascii() const override;
  std::string fingerprint() const override;

  // For tests.
  int points() const { return points_; }
  bool bonus(Side s) const { return bonus_[s]; }
  int goals_scored(Side s) const { return score_[s]; }
  Square ball() const { return ball_; }
  Square footballer(Side s, int i) const { return pos_[s][i]; }
  int turns_played() const { return turns_played_; }

 private:
  void kickoff(Side kicking);
  void end_turn();
  int at(Side team, Square s) const;  // index of team's footballer on s, or -1
  bool has_action() const;
  // Fills `out` with the actions other than end_turn; stops at the first when `any_only`.
  void generate(std::vector<Action>& out, bool any_only) const;
  Result<Action> parse(std::string_view text) const;

  std::array<std::array<Square, 6>, 2> pos_{};
  Square ball_ = kNone;
  std::array<int, 2> score_{0, 0};
  std::array<bool, 2> bonus_{true, true};
  Side to_move_ = 0;
  int points_ = 3;
  std::uint8_t ran_ = 0, kicked_ = 0;  // footballers of the side to move that ran / kicked this turn
  bool mid_turn_ = false;
  int turns_played_ = 0;  // complete turns, both sides counted
  int goals_ = 2;         // option goals
  int turn_limit_ = 0;    // option turns; 0 = off
  int winner_ = -1;
  bool drawn_ = false;
};

}  // namespace cinq::baltek
