// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md): reading a record's items, with errors a player can
// read. The strike annotation follows notation.md's rules for Tablut's capture list: optional, but when
// written it must name exactly the struck buttons, in any order.
#include <algorithm>

#include "rules/kopf/state.h"

namespace cinq::kopf {

namespace {

const char* side_name(Side s) { return s == 0 ? "Red" : "Blue"; }
std::string side_letter(Side s) { return s == 0 ? "R" : "B"; }

Result<int> read_square(std::string_view item, std::string_view token) {
  if (auto sq = parse_square(token)) return *sq;
  return make_error(
      ErrorCode::not_a_square,
      {{"item", std::string(item)}, {"token", std::string(token)}, {"first", "a1"}, {"last", "j10"}},
      std::string(item) + ": '" + std::string(token) + "' is not a square (a1 to j10, lower case)");
}

}  // namespace

Result<Item> KopfState::read_item(std::string_view raw, const ItemContext& ctx) const {
  std::string text = fold_spaces(raw);
  bool is_strike = text == "x" || text.starts_with("x ");
  if (end_ != End::none) {
    // The strike that followed this turn's penalty is written after it even when it ended the game.
    if (is_strike && mid_turn_ && ctx.index == 1 && !ctx.after_annotation) return read_strike(text, ctx);
    return make_error(ErrorCode::item_game_over, {{"item", text}}, text + ": the game is over");
  }
  if (is_strike) return read_strike(text, ctx);
  if (text == "-" || text.starts_with("- ")) return read_penalty(text, ctx);
  if (text == "pass") {
    if (auto e = strike_ends_game(text)) return *e;
    auto list = moves(move_board(), *holes_, to_move_);
    if (!list.empty())
      return make_error(ErrorCode::pass_with_move,
                        {{"side", side_letter(to_move_)},
                         {"move", square_name(list.front().first) + " " + square_name(list.front().second)}},
                        "pass: " + std::string(side_name(to_move_)) + " has a legal move (" +
                            square_name(list.front().first) + " " + square_name(list.front().second) +
                            "); a player passes only when no move exists");
    return Item{false, make_action(Kind::pass)};
  }
  return read_move(text);
}

std::optional<Error> KopfState::strike_ends_game(std::string_view item) const {
  if (mid_turn_ || !reaches_target(pending_strike().size())) return std::nullopt;
  return make_error(
      ErrorCode::strike_ends_game, {{"item", std::string(item)}},
      std::string(item) + ": the strike reaches the target and ends the game, so no move follows");
}

Result<Item> KopfState::read_strike(std::string_view text, const ItemContext& ctx) const {
  const std::vector<int>* expected = nullptr;
  std::vector<int> pending;
  if (ctx.after_annotation)
    return make_error(ErrorCode::strike_twice, {{"item", std::string(text)}},
                      std::string(text) + ": the strike is written once per turn");
  if (!mid_turn_ && ctx.index == 0) {
    pending = pending_strike();
    expected = &pending;
  } else if (mid_turn_ && ctx.index == 1) {
    expected = &after_penalty_;
  } else {
    return make_error(
        ErrorCode::strike_place, {{"item", std::string(text)}},
        std::string(text) + ": the strike annotation comes first in the turn, or right after the penalty");
  }
  auto tokens = split_words(text);
  if (tokens.size() == 1)
    return make_error(ErrorCode::strike_names_squares, {},
                      "x: a strike annotation names the struck squares (x c4 d7)");
  std::vector<int> written;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    auto sq = read_square(text, tokens[i]);
    if (!sq) return sq.error();
    if (std::find(written.begin(), written.end(), *sq) != written.end())
      return make_error(ErrorCode::listed_twice,
                        {{"item", std::string(text)}, {"square", std::string(tokens[i])}},
                        std::string(text) + ": " + std::string(tokens[i]) + " is written twice");
    written.push_back(*sq);
  }
  if (expected->empty())
    return make_error(ErrorCode::nothing_struck, {{"item", std::string(text)}},
                      std::string(text) + ": no button is struck here");
  std::string struck;
  for (int sq : *expected) struck += (struck.empty() ? "" : " ") + square_name(sq);
  const std::string listed = " (the strike takes " + struck + ")";
  for (int sq : written)
    if (std::find(expected->begin(), expected->end(), sq) == expected->end())
      return make_error(ErrorCode::not_struck,
                        {{"item", std::string(text)}, {"square", square_name(sq)}, {"struck", struck}},
                        std::string(text) + ": " + square_name(sq) + " is not struck" + listed);
  for (int sq : *expected)
    if (std::find(written.begin(), written.end(), sq) == written.end())
      return make_error(ErrorCode::struck_too,
                        {{"item", std::string(text)}, {"square", square_name(sq)}, {"struck", struck}},
                        std::string(text) + ": " + square_name(sq) + " is struck too" + listed);
  return Item{true, Action{}};
}

Result<Item> KopfState::read_penalty(std::string_view text, const ItemContext& ctx) const {
  auto tokens = split_words(text);
  if (tokens.size() != 2)
    return make_error(ErrorCode::penalty_one_square, {{"item", std::string(text)}},
                      std::string(text) + ": a penalty names one square (- e5)");
  if (ctx.after_annotation || (!mid_turn_ && ctx.index > 0))
    return make_error(ErrorCode::penalty_before_strike, {{"item", std::string(text)}},
                      std::string(text) + ": the penalty comes before the strike");
  if (mid_turn_)
    return make_error(ErrorCode::one_penalty, {{"item", std::string(text)}},
                      std::string(text) + ": only one penalty per turn");
  auto sq = read_square(text, tokens[1]);
  if (!sq) return sq.error();
  Side opponent = other(to_move_);
  std::string name = square_name(*sq);
  if (cells_[*sq] == kEmpty)
    return make_error(ErrorCode::square_empty, {{"item", std::string(text)}, {"square", name}},
                      std::string(text) + ": " + name + " is empty");
  if (cells_[*sq] == to_move_)
    return make_error(ErrorCode::penalty_own_button,
                      {{"item", std::string(text)}, {"square", name}, {"side", side_letter(to_move_)}},
                      std::string(text) + ": " + name + " is " + side_name(to_move_) + "'s own button");
  if (group_sizes(cells_)[*sq] < 3)
    return make_error(ErrorCode::penalty_small_group,
                      {{"item", std::string(text)}, {"side", side_letter(opponent)}, {"square", name}},
                      std::string(text) + ": the " + side_name(opponent) + " button on " + name +
                          " is not in a group of three or more");
  return Item{false, make_action(Kind::penalty, *sq)};
}

Result<Item> KopfState::read_move(std::string_view text) const {
  auto tokens = split_words(text);
  if (tokens.size() != 2 || !parse_square(tokens[0]))
    return make_error(
        ErrorCode::not_a_button_action, {{"item", std::string(text)}},
        "'" + std::string(text) +
            "' is not a Kopf oder Knopf action (a penalty - e5, a strike x c4 d7, a move c3 c5, "
            "or pass)");
  auto from = read_square(text, tokens[0]);
  auto to = read_square(text, tokens[1]);
  if (!from) return from.error();
  if (!to) return to.error();
  if (auto e = strike_ends_game(text)) return *e;
  if (auto why = move_error(move_board(), *holes_, to_move_, *from, *to, std::string(text))) return *why;
  return Item{false, make_action(Kind::move, *from, *to)};
}

}  // namespace cinq::kopf
