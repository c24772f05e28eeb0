// The rules' errors carry a code and named parameters (rules/game.h, Error; rules/errors.inc): every error a
// bad record or a bad item gets is one of error_codes() with that code's parameters, and its English message
// is the one it always was.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rules/notation.h"
#include "rules/registry.h"

namespace cinq::test {
namespace {

// Whether `e` has a code of the registry, given with that code's parameter names in order.
bool well_formed(const Error& e) {
  for (const ErrorCodeInfo& info : error_codes()) {
    if (info.code != e.code) continue;
    std::string names;
    for (const auto& p : e.params) names += (names.empty() ? "" : " ") + p.first;
    return names == info.params;
  }
  return false;
}

TEST_CASE(
    "error codes: the registry has unique codes, each of lower-case words and digits, its parameters named "
    "alike") {
  std::vector<std::string_view> seen;
  for (const ErrorCodeInfo& info : error_codes()) {
    CHECK_MESSAGE(std::find(seen.begin(), seen.end(), info.code) == seen.end(), info.code);
    seen.push_back(info.code);
    for (char c : info.code)
      CHECK_MESSAGE(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'), info.code);
    for (char c : info.params) CHECK_MESSAGE(((c >= 'a' && c <= 'z') || c == '_' || c == ' '), info.code);
  }
  CHECK(error_code_info(ErrorCode::unknown_cell).code == "unknown_cell");
  CHECK(error_code_info(ErrorCode::unknown_cell).params == "square cell");
}

TEST_CASE("error codes: a bad record's error has its code, its parameters and its English message") {
  struct Case {
    std::string record;
    std::string code;
    int line;
  };
  const std::vector<Case> cases = {
      {"#!\n", "header_no_game", 1},
      {"#! NOSUCHGAME\n", "unknown_game", 1},
      {"1 B/g3 f3/\n#! BALTEK\n", "header_not_first", 2},
      {"#! BALTEK\n1 B/g3 f3/ R/e3 f3/ B/a1 a2/\n", "too_many_turns", 2},
      {"#! BALTEK\n> 2026-13-01 10:00:00\n", "bad_timestamp", 2},
      {"#! BALTEK\nhello there\n", "unrecognised_line", 2},
      {"#! BALTEK\n#=\n", "result_empty", 2},
      {"#! BALTEK\n1 R/e3 f3/\n", "wrong_side", 2},
      {"#! BALTEK\n1 Q/e3 f3/\n", "not_a_side", 2},
      {"#! BALTEK\n#- 1\n", "no_rounds", 2},
      {"#! BALTEK\n...\n...\n", "second_ellipsis", 3},
      {"#! BALTEK nosuch=1\n", "unknown_option", 1},
  };
  for (const Case& c : cases) {
    auto r = Record::read(c.record);
    REQUIRE_MESSAGE(!r.ok(), c.record);
    CHECK_MESSAGE(r.error().code == c.code, c.record << " -> " << r.error().text());
    CHECK_MESSAGE(r.error().line == c.line, c.record);
    CHECK_MESSAGE(well_formed(r.error()), c.record << " -> " << r.error().code);
  }
  auto r = Record::read("#! BALTEK\n1 R/e3 f3/\n");
  REQUIRE(!r.ok());
  CHECK(r.error().text() == "line 2: it is B's turn, not R's");
  CHECK(r.error().param("side") == "B");
  CHECK(r.error().param("written_side") == "R");
}

TEST_CASE("error codes: every game's refusal of an item is coded, with its parameters") {
  for (const Game* g : games()) {
    const std::string head = "#! " + std::string(g->record_name()) + "\n";
    const std::string side(1, g->side_letter(0));
    // Items no game reads, and one each game reads as a square that is off its board.
    for (std::string item :
         {"zz", "zz zz", "@", "x", "- z9", "a1 z9", "!1", "TL 7 0", "x d4 d4", "e2 a2 x"}) {
      for (const std::string& first : {side, std::string(1, g->side_letter(1))}) {
        auto r = Record::read(head + "1 " + first + "/" + item + "/\n");
        if (r.ok()) continue;
        CHECK_MESSAGE(!r.error().code.empty(), g->name() << " " << item << ": " << r.error().text());
        CHECK_MESSAGE(well_formed(r.error()), g->name() << " " << item << ": " << r.error().code);
      }
    }
    // The room's way: an item sent alone.
    Record start = Record::start(*g, *Options::parse(g->option_specs(), {}));
    auto played = start.play_turn(side + "/zz/");
    REQUIRE(!played.ok());
    CHECK_MESSAGE(well_formed(played.error()), g->name() << ": " << played.error().code);
  }
}

}  // namespace
}  // namespace cinq::test
