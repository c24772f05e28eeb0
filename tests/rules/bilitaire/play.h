// Test helpers for Bi-litaire: positions from diagrams, and turns played the way the record reader plays
// them.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rules/bilitaire/bilitaire.h"

namespace cinq::bilitaire::test {

// A position from a diagram; fails the test if the diagram is wrong.
inline std::unique_ptr<State> board(std::string_view diagram, const Setup& setup = {}) {
  auto s = position(diagram, setup);
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  return std::move(*s);
}

// Plays one turn written as in a record (`T/B1 >2/!3/`) as notation.md's reader does: the side letter must
// be the side to move at the start of a turn; each item is read and applied; an open turn is ended. Returns
// "" on success, else the first error; the state is changed only on success.
inline std::string play(std::unique_ptr<State>& state, std::string_view turn) {
  auto s = state->clone();
  if (turn.size() < 2 || turn[1] != '/' || turn.back() != '/') return "malformed turn";
  if (s->outcome().over()) return "the game is over";
  if (turn[0] != s->game().side_letter(s->to_move()) || s->mid_turn()) return "not this side's turn";
  std::vector<std::string> items;
  std::string_view rest = turn.substr(2, turn.size() - 2);
  while (!rest.empty()) {
    auto slash = rest.find('/');
    items.emplace_back(rest.substr(0, slash));
    rest = rest.substr(slash + 1);
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0 && (!s->mid_turn() || s->outcome().over())) return "'" + items[i] + "': the turn is over";
    auto item = s->read_item(items[i], ItemContext{static_cast<int>(i), false});
    if (!item) return item.error().message;
    if (!s->is_legal(item->action)) return "read_item gave an illegal action for '" + items[i] + "'";
    s->apply(item->action);
  }
  if (s->mid_turn() || items.empty()) {
    if (!s->is_legal(Action::end_turn())) return "the turn cannot end here";
    s->apply(Action::end_turn());
  }
  state = std::move(s);
  return {};
}

// Plays several turns, stopping at the first error (returned with the turn at fault).
inline std::string play_all(std::unique_ptr<State>& state, const std::vector<std::string_view>& turns) {
  for (auto t : turns) {
    std::string e = play(state, t);
    if (!e.empty()) return std::string(t) + ": " + e;
  }
  return {};
}

// The error a single item gives in this position ("" if it reads).
inline std::string item_error(const State& s, std::string_view item) {
  auto r = s.read_item(item, ItemContext{});
  return r.ok() ? std::string() : r.error().message;
}

// Reads and applies one item, without ending the turn: "" on success, else the error.
inline std::string act(std::unique_ptr<State>& state, std::string_view item) {
  auto r = state->read_item(item, ItemContext{});
  if (!r) return r.error().message;
  state->apply(r->action);
  return {};
}

// The texts of the legal actions, in order ("" for the end of the turn).
inline std::vector<std::string> legal_texts(const State& s) {
  std::vector<std::string> out;
  for (Action a : s.legal_actions()) out.push_back(s.action_text(a));
  return out;
}

// The diagram of the holes alone (the eight rows and the column letters), from ascii().
inline std::string holes_of(const State& s) {
  std::string a = s.ascii(), out;
  std::size_t start = 0;
  for (int i = 0; i < 9; ++i) {
    std::size_t end = a.find('\n', start);
    std::string line = a.substr(start, end - start);
    out += line.substr(0, std::min<std::size_t>(line.size(), 19)) + "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace cinq::bilitaire::test
