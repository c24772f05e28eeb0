// Helpers for the Kopf oder Knopf tests (docs/rules/kopf-oder-knopf.md): positions from diagrams, and
// the position's facts as short texts so that tests read as sentences.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "rules/kopf/kopf.h"

namespace cinq::kopf::test {

inline std::unique_ptr<State> position(std::string_view diagram, const Setup& setup = {},
                                       std::shared_ptr<const Holes> holes = nullptr) {
  auto s = from_ascii(diagram, setup, std::move(holes));
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  return std::move(*s);
}

inline std::unique_ptr<State> start(std::string_view options = "") {
  auto s = game().start(options);
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  return std::move(*s);
}

// The texts of the legal actions, joined by ", " ("" stands for end_turn).
inline std::string legal(const State& s) {
  std::string out;
  for (Action a : s.legal_actions())
    out += (out.empty() ? "" : ", ") + (a.is_end_turn() ? "end" : s.action_text(a));
  return out;
}

// The legal actions whose text starts with `prefix` ("- " for the penalties, "e5 " for e5's moves).
inline std::string legal_starting(const State& s, std::string_view prefix) {
  std::string out;
  for (Action a : s.legal_actions())
    if (!a.is_end_turn() && s.action_text(a).starts_with(prefix))
      out += (out.empty() ? "" : ", ") + s.action_text(a);
  return out;
}

// A list of squares in the view ("strike", "penalty", "struck_after_penalty") as "a5 j5".
inline std::string view_list(const State& s, std::string_view key) {
  Value v = s.view();
  const Value* list = v.find(key);
  REQUIRE(list != nullptr);
  std::string out;
  for (const Value& x : list->as_array()) out += (out.empty() ? "" : " ") + x.as_string();
  return out;
}

// The buttons the side to move would strike now, with no penalty.
inline std::string strike_now(const State& s) { return view_list(s, "strike"); }

// Reads and plays one item the way the record reader does; returns its error message, "" when it plays.
inline std::string play(State& s, std::string_view item, ItemContext ctx = {}) {
  auto r = s.read_item(item, ctx);
  if (!r.ok()) return r.error().message;
  if (!r->annotation) s.apply(r->action);
  return "";
}

// The error reading `item` gives, "" when it reads.
inline std::string read_error(const State& s, std::string_view item, ItemContext ctx = {}) {
  auto r = s.read_item(item, ctx);
  return r.ok() ? "" : r.error().message;
}

// Applies the legal action whose text is `text` ("end" for end_turn); fails the test if there is none.
inline void apply_text(State& s, std::string_view text) {
  for (Action a : s.legal_actions())
    if ((a.is_end_turn() ? std::string("end") : s.action_text(a)) == text) {
      s.apply(a);
      return;
    }
  FAIL("'" << text << "' is not legal; legal: " << legal(s));
}

// The record items a writer puts down for the legal action `text`, joined by "/".
inline std::string items_for(const State& s, std::string_view text) {
  for (Action a : s.legal_actions())
    if ((a.is_end_turn() ? std::string("end") : s.action_text(a)) == text) {
      std::string out;
      for (const auto& item : s.record_items(a)) out += (out.empty() ? "" : "/") + item;
      return out;
    }
  FAIL("'" << text << "' is not legal; legal: " << legal(s));
  return "";
}

inline int removed(const State& s, const char* side) {
  Value v = s.view();
  return static_cast<int>(v.find("removed")->find(side)->as_int());
}

}  // namespace cinq::kopf::test
