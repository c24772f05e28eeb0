// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md): the turn, the end, and showing a position.
#include "rules/kopf/state.h"

#include <cassert>

namespace cinq::kopf {

namespace {

const char* side_name(Side s) { return s == 0 ? "Red" : "Blue"; }

std::string strike_text(const std::vector<int>& struck) {
  std::string s = "x";
  for (int sq : struck) s += " " + square_name(sq);
  return s;
}

}  // namespace

KopfState::KopfState(const Game& game, std::shared_ptr<const Holes> holes, int target, Cells cells,
                     Side to_move, std::array<int, 2> removed, bool opponent_passed)
    : game_(&game),
      holes_(std::move(holes)),
      target_(target),
      cells_(cells),
      to_move_(to_move),
      removed_(removed),
      opponent_passed_(opponent_passed) {}

Cells KopfState::move_board() const {
  Cells cells = cells_;
  if (!mid_turn_)
    for (int sq : pending_strike()) cells[sq] = kEmpty;
  return cells;
}

void KopfState::legal_actions(std::vector<Action>& out) const {
  if (end_ != End::none) return;
  if (!mid_turn_) {
    for (int sq : penalty_squares(cells_, other(to_move_))) out.push_back(make_action(Kind::penalty, sq));
    if (reaches_target(pending_strike().size())) {
      out.push_back(Action::end_turn());
      return;
    }
  }
  auto list = moves(move_board(), *holes_, to_move_);
  for (auto [from, to] : list) out.push_back(make_action(Kind::move, from, to));
  if (list.empty()) out.push_back(make_action(Kind::pass));
}

std::string KopfState::action_text(Action a) const {
  if (a.is_end_turn()) return "";
  switch (kind_of(a)) {
    case Kind::penalty:
      return "- " + square_name(from_of(a));
    case Kind::move:
      return square_name(from_of(a)) + " " + square_name(to_of(a));
    case Kind::pass:
      return "pass";
  }
  assert(false && "not a Kopf oder Knopf action");
  return "";
}

std::vector<std::string> KopfState::record_items(Action a) const {
  std::vector<std::string> items;
  if (mid_turn_) {
    items.push_back(action_text(a));
    return items;
  }
  if (!a.is_end_turn() && kind_of(a) == Kind::penalty) {
    items.push_back(action_text(a));
    if (reaches_target(1)) return items;  // the penalty wins: no strike follows
    Cells cells = cells_;
    cells[from_of(a)] = kEmpty;
    auto struck = strike(cells, *holes_, to_move_);
    if (!struck.empty()) items.push_back(strike_text(struck));
    return items;
  }
  auto struck = pending_strike();
  if (!struck.empty()) items.push_back(strike_text(struck));
  if (!a.is_end_turn()) items.push_back(action_text(a));
  return items;
}

void KopfState::remove(const std::vector<int>& squares) {
  for (int sq : squares) {
    assert(cells_[sq] == other(to_move_));
    cells_[sq] = kEmpty;
  }
  removed_[static_cast<std::size_t>(to_move_)] += static_cast<int>(squares.size());
  if (removed_[static_cast<std::size_t>(to_move_)] >= target_) {
    end_ = End::score;
    winner_ = to_move_;
  }
}

void KopfState::apply(Action a) {
  assert(end_ == End::none);
  if (!a.is_end_turn() && kind_of(a) == Kind::penalty) {
    assert(!mid_turn_);
    remove({from_of(a)});
    if (end_ != End::none) return;  // the penalty reached the target: no strike, no move
    after_penalty_ = pending_strike();
    remove(after_penalty_);
    mid_turn_ = true;
    return;
  }
  if (!mid_turn_) remove(pending_strike());
  if (a.is_end_turn()) {
    assert(end_ != End::none);  // legal only when the strike reaches the target
    return;
  }
  assert(end_ == End::none);
  if (kind_of(a) == Kind::move) {
    assert(cells_[from_of(a)] == to_move_ && cells_[to_of(a)] == kEmpty);
    cells_[to_of(a)] = cells_[from_of(a)];
    cells_[from_of(a)] = kEmpty;
    finish_turn(false);
  } else {
    finish_turn(true);
  }
}

void KopfState::finish_turn(bool passed) {
  if (passed && opponent_passed_) {
    end_ = End::blocked;
    winner_ = removed_[0] > removed_[1] ? 0 : removed_[1] > removed_[0] ? 1 : -1;
    return;
  }
  opponent_passed_ = passed;
  to_move_ = other(to_move_);
  mid_turn_ = false;
  after_penalty_.clear();
}

Outcome KopfState::outcome() const {
  switch (end_) {
    case End::none:
      return Outcome::ongoing();
    case End::score:
      return Outcome::win(winner_, "score", score());
    case End::blocked:
      return winner_ < 0 ? Outcome::draw("blocked", score()) : Outcome::win(winner_, "blocked", score());
  }
  return Outcome::ongoing();
}

std::string KopfState::score() const {
  return std::to_string(removed_[0]) + "-" + std::to_string(removed_[1]);
}

Value KopfState::view() const {
  // Arrays are built as vectors and wrapped once (pushing Values one by one trips a GCC 12 false warning).
  auto squares = [](const std::vector<int>& list) {
    Value::Array v;
    for (int sq : list) v.emplace_back(square_name(sq));
    return Value(std::move(v));
  };
  Value::Array holes, rows;
  for (int r = 0; r < kSize; ++r) {
    Value::Array hole_row;
    std::string row;
    for (int c = 0; c < kSize; ++c) {
      hole_row.emplace_back(static_cast<int>((*holes_)[square(c, r)]));
      int who = cells_[square(c, r)];
      row += who == kEmpty ? '.' : game_->side_letter(who);
    }
    holes.emplace_back(std::move(hole_row));
    rows.emplace_back(std::move(row));
  }
  bool playing = end_ == End::none;
  std::vector<int> none;
  Value::Object v;
  v.emplace_back("columns", "abcdefghij");
  v.emplace_back("rows", 10);
  v.emplace_back("board", std::move(rows));   // from row 1 up; R Red, B Blue, . empty
  v.emplace_back("holes", std::move(holes));  // from row 1 up
  v.emplace_back("to_move", std::string(1, game_->side_letter(to_move_)));
  v.emplace_back("mid_turn", mid_turn());
  v.emplace_back("removed", Value::Object{{"R", removed_[0]}, {"B", removed_[1]}});
  v.emplace_back("target", target_);
  v.emplace_back("opponent_passed", opponent_passed_);
  // What the side to move faces now, so a client can mark it without rules code.
  v.emplace_back("penalty", squares(playing && !mid_turn_ ? penalty_squares(cells_, other(to_move_)) : none));
  v.emplace_back("strike", squares(playing && !mid_turn_ ? pending_strike() : none));
  v.emplace_back("struck_after_penalty", squares(playing && mid_turn_ ? after_penalty_ : none));
  v.emplace_back("over", !playing);
  return Value(std::move(v));
}

std::string KopfState::ascii() const {
  std::string header = "     a b c d e f g h i j        a b c d e f g h i j  (holes)\n";
  std::string s = header;
  for (int r = kSize - 1; r >= 0; --r) {
    std::string label = (r + 1 < 10 ? " " : "") + std::to_string(r + 1);
    s += label + "  ";
    for (int c = 0; c < kSize; ++c) {
      int who = cells_[square(c, r)];
      s += ' ';
      s += who == kEmpty ? '.' : game_->side_letter(who);
    }
    s += "   " + label + "  ";
    for (int c = 0; c < kSize; ++c) s += " " + std::to_string((*holes_)[square(c, r)]);
    s += '\n';
  }
  s += "     a b c d e f g h i j        a b c d e f g h i j\n";
  s += "removed: Red " + std::to_string(removed_[0]) + ", Blue " + std::to_string(removed_[1]) + " (target " +
       std::to_string(target_) + ")\n";
  switch (end_) {
    case End::none:
      s += std::string(side_name(to_move_)) + " to move";
      if (mid_turn_)
        s += ", penalty taken" + (after_penalty_.empty() ? "" : ", " + strike_text(after_penalty_));
      if (opponent_passed_) s += ", " + std::string(side_name(other(to_move_))) + " passed";
      break;
    case End::score:
      s += std::string(side_name(winner_)) + " wins: target reached";
      break;
    case End::blocked:
      s += winner_ < 0 ? std::string("draw: both players passed")
                       : std::string(side_name(winner_)) + " wins: both players passed";
      break;
  }
  return s + "\n";
}

std::string KopfState::fingerprint() const {
  std::string s;
  for (int sq = 0; sq < kSquares; ++sq) s += cells_[sq] == kEmpty ? '.' : game_->side_letter(cells_[sq]);
  s += holes_ == standard_holes() ? "|std" : "|holes:";
  if (holes_ != standard_holes())
    for (auto h : *holes_) s += static_cast<char>('0' + h);
  s += "|" + std::string(1, game_->side_letter(to_move_)) + "|" + score() + "/" + std::to_string(target_);
  s += mid_turn_ ? "|mid " + strike_text(after_penalty_) : "|start";
  s += opponent_passed_ ? "|passed" : "";
  s += end_ == End::none ? "" : "|over " + std::to_string(winner_);
  return s;
}

}  // namespace cinq::kopf
