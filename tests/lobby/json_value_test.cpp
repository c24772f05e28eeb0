// The views the server sends are written straight to text (lobby/json_value.h, write_json) rather than
// through nlohmann's tree: the text must read back as exactly the same JSON (every number the same double)
// for every game's view along random games, and for the awkward values (escapes, whole and non-finite
// doubles). The texts themselves may differ in a double's last digit: std::to_chars writes the shortest text
// that reads back the same, nlohmann's Grisu2 sometimes one digit more.
#include "lobby/json_value.h"

#include <doctest/doctest.h>

#include <limits>
#include <random>

#include "rules/registry.h"

namespace cinq {
namespace {

std::string direct(const Value& v) {
  std::string out;
  write_json(v, out);
  return out;
}

// Where two texts first differ, with a little context: a view's text runs to kilobytes.
std::string first_difference(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  if (i == a.size() && i == b.size()) return "";
  std::size_t from = i < 40 ? 0 : i - 40;
  return "at " + std::to_string(i) + ": '" + a.substr(from, 80) + "' vs '" + b.substr(from, 80) + "'";
}

TEST_CASE("json text: every game's view, along random games, is written as nlohmann writes it") {
  std::mt19937_64 rng(7);
  for (const Game* game : games()) {
    CAPTURE(game->name());
    auto options = Options::parse_text(game->option_specs(), game->bounded_options());
    REQUIRE(options);
    auto state = game->start(*options);
    for (int step = 0; step < 60 && !state->outcome().over(); ++step) {
      Value view = state->view();
      std::string text = direct(view);
      INFO(first_difference(text, to_json(view).dump()));
      REQUIRE(nlohmann::json::parse(text) == to_json(view));
      auto legal = state->legal_actions();
      state->apply(legal[rng() % legal.size()]);
    }
  }
}

TEST_CASE("json text: escapes, numbers and nesting") {
  Value v = Value::object();
  v.set("quote \" back \\ newline \n tab \t bell \x07", Value(std::string("é ü ✓ \x1f")));
  v.set("whole", Value(2.0));
  v.set("fraction", Value(0.1));
  v.set("big", Value(1e21));
  v.set("negative", Value(-3.25));
  v.set("infinite", Value(std::numeric_limits<double>::infinity()));
  v.set("int", Value(std::int64_t{-42}));
  v.set("flag", Value(true));
  Value list = Value::array();
  list.push(Value());
  list.push(Value(std::string("b")));
  v.set("list", list);
  v.set("a first key sorts first", Value(false));
  CHECK(first_difference(direct(v), to_json(v).dump()) == "");  // no double here needs 17 digits
}

}  // namespace
}  // namespace cinq
