// Tablut (docs/rules/tablut.md): the contract's State over the board core. Internal to rules/tablut.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/game.h"
#include "rules/tablut/board.h"
#include "rules/tablut/view.h"

namespace cinq::tablut {

// The codes of actions (encode, decode) are in view.h.

std::string square_name(int sq);                         // "e5"
std::optional<int> parse_square(std::string_view text);  // lower case only, as notation.md writes squares
// The order of a capture list: by column, then by row.
inline bool by_column_then_row(int a, int b) {
  return column(a) != column(b) ? column(a) < column(b) : row(a) < row(b);
}

class TablutState final : public State {
 public:
  explicit TablutState(const Board& board);

  std::unique_ptr<State> clone() const override;
  const Game& game() const override;
  Side to_move() const override { return board_.side(); }
  bool mid_turn() const override { return false; }  // one move per turn

  void legal_actions(std::vector<Action>& out) const override;
  using State::legal_actions;
  std::string action_text(Action a) const override;
  Result<Item> read_item(std::string_view text, const ItemContext& ctx) const override;
  void apply(Action a) override;

  Outcome outcome() const override;
  Value view() const override;
  std::string ascii() const override;
  std::string fingerprint() const override;

  const Board& board() const { return board_; }
  const std::vector<Key>& history() const { return history_; }

 private:
  // The squares `m` would capture (the king's included), by column then row.
  std::vector<int> captured_by(Move m) const;
  // Why `m` is not a legal move for the side to move, or "" if it is.
  // Why move `m` (written `item`) is not legal, or nothing.
  std::optional<Error> why_illegal(Move m, const std::string& item) const;

  Board board_;
  std::vector<Key> history_;  // the positions since the last capture, the current one last
  Ending ending_ = Ending::none;
};

}  // namespace cinq::tablut
