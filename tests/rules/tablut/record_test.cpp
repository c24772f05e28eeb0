// Tablut records (notation.md): the samples in tests/data/records, golden records in tests/data/tablut,
// capture lists and results as the reader checks them, and `cinq replay`.
#include "rules/notation.h"
#include "tests/rules/tablut/helpers.h"
#include "tests/support.h"

namespace cinq::tablut::test {
namespace {

using cinq::test::data_path;
using cinq::test::read_text;

Record read_ok(std::string_view text) {
  auto r = Record::read(text);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().text()));
  return std::move(*r);
}

// The error a record gets, as `line N: reason`; "" if it is accepted.
std::string read_error(std::string_view text) {
  auto r = Record::read(text);
  return r.ok() ? std::string() : r.error().text();
}

constexpr std::string_view kOpening =
    "#! TABLUT\n"
    "1   A/e2 c2/        D/e3 c3/\n";

TEST_CASE("Tablut records: the sample records replay") {
  Record escape = read_ok(read_text(data_path("records/tablut/sample-escape.txt")));
  CHECK(escape.game().name() == "tablut");
  CHECK(escape.result_text() == "D escape");
  CHECK(escape.turn_count() == 42);
  Record open = read_ok(read_text(data_path("records/tablut/example-in-progress.txt")));
  CHECK_FALSE(open.finished());
  CHECK(open.turn_count() == 5);
  CHECK(open.state().to_move() == kD);
  CHECK(open.options().get("king") == "armed");
}

TEST_CASE("Tablut records: golden records read back to themselves, with their results") {
  const std::pair<const char*, const char*> files[] = {
      {"escape.txt", "D escape"},   {"capture.txt", "A capture"},
      {"blocked.txt", "A blocked"}, {"repetition.txt", "draw repetition"},
      {"options.txt", ""},
  };
  for (const auto& entry : files) {
    const auto& [file, result] = entry;
    CAPTURE(entry.first);  // not the binding: clang 14 cannot capture one (the sanitizer build)
    std::string text = read_text(data_path(std::string("tablut/") + file));
    Record r = read_ok(text);
    CHECK(r.result_text() == result);
    CHECK(r.write() == text);
  }
}

TEST_CASE("Tablut records: the options come from the #! line") {
  Record r = read_ok(read_text(data_path("tablut/options.txt")));
  CHECK(r.options().get("first") == "defenders");
  CHECK(r.options().get("king") == "unarmed");
  CHECK(r.options().get("throne") == "plain");
  // The soldier on the plain throne, and d4 still there beside the unarmed king.
  CHECK(r.state().ascii().find("  5   A A . . D D D A A") != std::string::npos);
  CHECK(r.state().ascii().find("  4   A . D A K . . D A") != std::string::npos);
  // The same moves under the default options: D may not start.
  std::string text = read_text(data_path("tablut/options.txt"));
  text.replace(0, text.find('\n'), "#! TABLUT");
  CHECK(read_error(text) == "line 5: it is A's turn, not D's");
  CHECK(read_error("#! TABLUT king=strong\n").find("line 1: ") == 0);
  CHECK(read_error("#! TABLUT first=defenders first=attackers\n").find("line 1: ") == 0);
}

TEST_CASE("Tablut records: a capture list may be left out or given in any order, the writer sorts it") {
  Record r = read_ok(std::string(kOpening) + "2   A/a4 c4/   D/e4 e3/\n3   A/c2 c3/\n");
  CHECK(r.write().find("2   A/a4 c4 x c3/   D/e4 e3/") != std::string::npos);
  CHECK(read_ok(std::string(kOpening) + "2   A/a4 c4 x c3/\n").state().fingerprint() ==
        read_ok(std::string(kOpening) + "2   A/a4 c4/\n").state().fingerprint());
}

TEST_CASE("Tablut records: a capture list that differs from the captures made is an error on its line") {
  std::string head = std::string(kOpening) + "2   A/";
  CHECK(read_error(head + "a4 c4 x c4/\n") ==
        "line 3: 'a4 c4 x c4': the move captures c3 (write a4 c4 x c3)");
  CHECK(read_error(head + "a4 c4 x c3 c2/\n") ==
        "line 3: 'a4 c4 x c3 c2': the move captures c3 (write a4 c4 x c3)");
  CHECK(read_error(head + "a4 c4 x c3 c3/\n") == "line 3: 'a4 c4 x c3 c3': c3 is listed twice");
  CHECK(read_error(head + "a4 c4 x/\n") ==
        "line 3: 'a4 c4 x': a bare x; list the captured squares after it, or leave it out");
  CHECK(read_error(head + "a4 b4 x c3/\n") ==
        "line 3: 'a4 b4 x c3': the move captures nothing (write a4 b4)");
  CHECK(read_error(head + "a4 a1/\n") == "line 3: a4 a1: only the king may stop on a corner");
  CHECK(read_error(head + "e1 e2/   D/e4 e2/\n") == "line 3: e4 e2: e2 is occupied");
}

TEST_CASE("Tablut records: one move per turn") {
  CHECK(read_error("#! TABLUT\n1   A/e2 c2/c2 c3/\n").find("line 2: ") == 0);
  CHECK(read_error("#! TABLUT\n1   A/\n").find("line 2: ") == 0);
}

TEST_CASE("Tablut records: the result must be the board's") {
  std::string escape = read_text(data_path("tablut/escape.txt"));
  auto with_result = [&](const std::string& r) {
    std::string t = escape;
    t.replace(t.find("#= D escape"), 11, r);
    return t;
  };
  CHECK(read_error(with_result("#= D escape")) == "");
  CHECK(read_error(with_result("#= A escape")).find("line 9: ") == 0);
  CHECK(read_error(with_result("#= D blocked")).find("line 9: ") == 0);
  CHECK(read_error(with_result("#= D resign")).find("line 9: ") == 0);
  CHECK(read_error(with_result("#= D escape 1-0")).find("line 9: ") == 0);
  CHECK(read_error(with_result("6   A/d2 d3/")).find("line 9: ") == 0);
  // Left out, it follows from the moves.
  CHECK(read_ok(with_result("")).result_text() == "D escape");
  // Not over: the board's reasons may not be declared; the outside ones may.
  std::string open = std::string(kOpening);
  for (const char* r : {"#= D escape", "#= A capture", "#= A blocked", "#= draw repetition"})
    CHECK(read_error(open + r + "\n").find("line 3: ") == 0);
  CHECK(read_ok(open + "#= A resign\n").result_text() == "A resign");
  CHECK(read_ok(open + "#= draw agreement\n").result_text() == "draw agreement");
}

TEST_CASE("Tablut records: cinq replay checks a record and names the bad line") {
  auto good = cinq::test::run_cinq("replay " + data_path("tablut/capture.txt"));
  CHECK(good.exit_code == 0);
  CHECK(good.out.find("A capture") != std::string::npos);
  auto bad = cinq::test::run_cinq("replay -", std::string(kOpening) + "2   A/a4 c4 x c4/\n");
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.find("line 3: 'a4 c4 x c4': the move captures c3") != std::string::npos);
  auto perft = cinq::test::run_cinq("perft tablut 2");
  CHECK(perft.exit_code == 0);
  CHECK(perft.out.find("3944") != std::string::npos);
}

}  // namespace
}  // namespace cinq::tablut::test
