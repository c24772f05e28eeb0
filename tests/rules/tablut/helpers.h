// Shared by the Tablut tests: positions from diagrams, moves by their text.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rules/game.h"
#include "rules/tablut/tablut.h"

namespace cinq::tablut::test {

constexpr Side kA = 0;
constexpr Side kD = 1;

inline std::unique_ptr<State> board(std::string_view diagram, Side to_move, std::string_view options = {}) {
  auto s = position(diagram, to_move, options);
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  return std::move(*s);
}

inline std::unique_ptr<State> start(std::string_view options = {}) {
  auto s = game().start(options);
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  return std::move(*s);
}

// Reads `text` as a record item and plays it; fails the test if it is refused.
inline void play(State& s, std::string_view text) {
  auto item = s.read_item(text, {});
  REQUIRE_MESSAGE(item.ok(), (std::string(text) + ": " + (item.ok() ? "" : item.error().message)));
  s.apply(item->action);
}

// The error `text` gets from read_item ("" if it is accepted).
inline std::string refusal(const State& s, std::string_view text) {
  auto item = s.read_item(text, {});
  return item.ok() ? std::string() : item.error().message;
}

// The canonical text of the move `from to` (with its captures), or "illegal".
inline std::string text_of(const State& s, std::string_view from, std::string_view to) {
  Action a = move(from, to);
  return s.is_legal(a) ? s.action_text(a) : "illegal";
}

// Where the piece on `from` may go, as a sorted, space-separated list of squares.
inline std::string destinations(const State& s, std::string_view from) {
  std::vector<std::string> out;
  for (Action a : s.legal_actions()) {
    std::string t = s.action_text(a);
    if (t.substr(0, 2) == from) out.push_back(t.substr(3, 2));
  }
  std::sort(out.begin(), out.end());
  std::string joined;
  for (const auto& d : out) joined += (joined.empty() ? "" : " ") + d;
  return joined;
}

// "A escape", "draw repetition", "ongoing".
inline std::string result(const State& s) {
  Outcome o = s.outcome();
  if (!o.over()) return "ongoing";
  return (o.kind == Outcome::Kind::win ? std::string(1, s.game().side_letter(o.winner))
                                       : std::string("draw")) +
         " " + o.reason;
}

}  // namespace cinq::tablut::test
