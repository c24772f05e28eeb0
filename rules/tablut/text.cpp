// Tablut (docs/rules/tablut.md, notation.md): reading a move with or without its capture list, with
// errors a player can read.
#include <algorithm>

#include "rules/tablut/state.h"

namespace cinq::tablut {

std::string square_name(int sq) {
  return {static_cast<char>('a' + column(sq)), static_cast<char>('1' + row(sq))};
}

std::optional<int> parse_square(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'i' || text[1] < '1' || text[1] > '9')
    return std::nullopt;
  return (text[1] - '1') * kSize + (text[0] - 'a');
}

namespace {

std::string piece_name(std::uint8_t p) {
  return p == kAttacker ? "an attacker" : p == kKing ? "the king" : "a defender";
}

std::string list_text(const std::vector<int>& squares) {
  std::string s;
  for (int sq : squares) s += " " + square_name(sq);
  return s;
}

}  // namespace

std::optional<Error> TablutState::why_illegal(Move m, const std::string& item) const {
  auto fail = [&](ErrorCode code, ErrorParams params, const std::string& why) {
    params.insert(params.begin(), {"item", item});
    return make_error(code, std::move(params), item + ": " + why);
  };
  std::uint8_t p = board_.at(m.from);
  if (p == kEmpty)
    return fail(ErrorCode::no_piece_on, {{"square", square_name(m.from)}},
                "there is no piece on " + square_name(m.from));
  if (!board_.owns(p))
    return fail(ErrorCode::not_own_piece,
                {{"square", square_name(m.from)}, {"side", std::string(1, board_.side() == 0 ? 'A' : 'D')}},
                square_name(m.from) + " holds " + piece_name(p) + ", and the " +
                    (board_.side() == 0 ? "attackers" : "defenders") + " are to move");
  if (m.from == m.to) return fail(ErrorCode::piece_stays, {}, "the piece does not move");
  if (row(m.from) != row(m.to) && column(m.from) != column(m.to))
    return fail(ErrorCode::not_row_or_column, {}, "a piece moves along its row or its column");
  int step = row(m.from) == row(m.to) ? 1 : kSize;
  if (m.to < m.from) step = -step;
  for (int t = m.from + step;; t += step) {
    if (board_.at(t) != kEmpty) {
      if (t == m.to)
        return fail(ErrorCode::square_occupied, {{"square", square_name(t)}},
                    square_name(t) + " is occupied");
      return fail(ErrorCode::path_blocked, {{"square", square_name(t)}},
                  "the path is blocked at " + square_name(t));
    }
    if (t == m.to) break;
  }
  if (!board_.may_stop(p, m.to)) {
    if (is_corner(m.to)) return fail(ErrorCode::corner_for_king, {}, "only the king may stop on a corner");
    return fail(ErrorCode::throne_for_king, {}, "only the king may stop on the throne");
  }
  return std::nullopt;
}

Result<Item> TablutState::read_item(std::string_view text, const ItemContext&) const {
  std::string folded = fold_spaces(text);
  if (ending_ != Ending::none)
    return make_error(ErrorCode::item_game_over, {{"item", folded}}, "'" + folded + "': the game is over");
  auto tokens = split_words(folded);
  if (tokens.size() < 2)
    return make_error(ErrorCode::not_a_move, {{"item", folded}},
                      "'" + folded + "' is not a move: write the from and to squares, as in e2 a2");
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i == 2) {
      if (tokens[i] != "x")
        return make_error(ErrorCode::capture_list_only, {{"item", folded}},
                          "'" + folded + "': only a capture list may follow the move, as in e2 a2 x a3 b4");
      continue;
    }
    if (!parse_square(tokens[i]))
      return make_error(
          ErrorCode::not_a_square,
          {{"item", folded}, {"token", std::string(tokens[i])}, {"first", "a1"}, {"last", "i9"}},
          "'" + folded + "': '" + std::string(tokens[i]) + "' is not a square (a1 to i9, lower case)");
  }
  if (tokens.size() == 3)
    return make_error(ErrorCode::bare_x, {{"item", folded}},
                      "'" + folded + "': a bare x; list the captured squares after it, or leave it out");

  Move m{static_cast<std::uint8_t>(*parse_square(tokens[0])),
         static_cast<std::uint8_t>(*parse_square(tokens[1]))};
  std::string mv = std::string(tokens[0]) + " " + std::string(tokens[1]);
  if (auto why = why_illegal(m, mv)) return *why;

  if (tokens.size() > 3) {
    std::vector<int> listed;
    for (std::size_t i = 3; i < tokens.size(); ++i) {
      int sq = *parse_square(tokens[i]);
      if (std::find(listed.begin(), listed.end(), sq) != listed.end())
        return make_error(ErrorCode::listed_twice, {{"item", folded}, {"square", square_name(sq)}},
                          "'" + folded + "': " + square_name(sq) + " is listed twice");
      listed.push_back(sq);
    }
    std::sort(listed.begin(), listed.end(), by_column_then_row);
    auto captured = captured_by(m);
    if (listed != captured && captured.empty())
      return make_error(ErrorCode::captures_nothing, {{"item", folded}, {"move", mv}},
                        "'" + folded + "': the move captures nothing (write " + mv + ")");
    if (listed != captured)
      return make_error(ErrorCode::captures_other,
                        {{"item", folded},
                         {"squares", list_text(captured).substr(1)},
                         {"move", mv + " x" + list_text(captured)}},
                        "'" + folded + "': the move captures " + list_text(captured).substr(1) + " (write " +
                            mv + " x" + list_text(captured) + ")");
  }
  return Item{false, encode(m)};
}

}  // namespace cinq::tablut
