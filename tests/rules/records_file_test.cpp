// Files of several records (docs/notation.md, "Several records in one file"): where each record starts.
#include <doctest/doctest.h>

#include "rules/notation.h"
#include "rules/records_file.h"
#include "tests/support.h"

using namespace cinq;

namespace {

std::vector<RecordText> split_ok(std::string_view text) {
  auto records = split_records(text);
  REQUIRE_MESSAGE(records.ok(), (records.ok() ? "" : records.error().text()));
  return *records;
}

std::string rejection(std::string_view text) {
  auto records = split_records(text);
  return records.ok() ? "accepted" : records.error().text();
}

}  // namespace

TEST_CASE("records file: a text with one #! line or none is one record, the whole text from line 1") {
  for (std::string_view text : {std::string_view(""), std::string_view("\n\n"),
                                std::string_view("B = bernard@bois.fr\n1   B/@ d3/f3 g3/d1 e1/\n"),
                                std::string_view("\n\n#! TABLUT\n1   A/e2 c2/\n"),
                                std::string_view("# a comment\n#! TABLUT\n")}) {
    INFO(text);
    auto records = split_ok(text);
    REQUIRE(records.size() == 1);
    CHECK(records[0].text.data() == text.data());  // the text itself, not a copy
    CHECK(records[0].text.size() == text.size());
    CHECK(records[0].line == 1);
  }
  // A line before a lone #! line is the record's own error, as it always was.
  auto lone = split_ok("# a comment\n#! TABLUT\n");
  CHECK(Record::read(lone[0].text).error().text() ==
        "line 2: the #! line must be the first line of the record");
}

TEST_CASE("records file: several records start at their #! lines, blank lines between them allowed") {
  const std::string text =
      "\n"
      "#! TABLUT\n"
      "1   A/e2 c2/\n"
      "\n"
      "\n"
      "  #! KOPF-ODER-KNOPF\n"  // spaces before it, as on any line
      "# a comment\n"
      "#! BALTEK\n"
      "1   B/@ d3/f3 g3/d1 e1/";  // no newline at the end
  auto records = split_ok(text);
  REQUIRE(records.size() == 3);
  CHECK(records[0].line == 2);
  CHECK(records[0].text == "#! TABLUT\n1   A/e2 c2/\n\n\n");
  CHECK(records[1].line == 6);
  CHECK(records[1].text == "  #! KOPF-ODER-KNOPF\n# a comment\n");
  CHECK(records[2].line == 8);
  CHECK(records[2].text == "#! BALTEK\n1   B/@ d3/f3 g3/d1 e1/");
  for (const RecordText& r : records) {  // views into the text
    CHECK(r.text.data() >= text.data());
    CHECK(r.text.data() + r.text.size() <= text.data() + text.size());
  }
}

TEST_CASE("records file: carriage returns, tabs and a byte-order mark are read as in a record") {
  auto records = split_ok("\xEF\xBB\xBF#! TABLUT\r\n1   A/e2 c2/\r\n\r\n\t#! TABLUT\r\n");
  REQUIRE(records.size() == 2);
  CHECK(records[0].line == 1);
  CHECK(records[0].text == "#! TABLUT\r\n1   A/e2 c2/\r\n\r\n");
  CHECK(records[1].line == 4);
  CHECK(records[1].text == "\t#! TABLUT\r\n");
  CHECK(Record::read(records[1].text).ok());
}

TEST_CASE("records file: text before the first #! line of several is refused with its line") {
  const std::string why =
      "text before the first #! line (each record of a file of several starts with its own)";
  CHECK(rejection("# archive\n#! TABLUT\n#! TABLUT\n") == "line 1: " + why);
  CHECK(rejection("\n \t\n\r\n> 2026-01-01 10:00:00\n# more\n#! TABLUT\n\n#! BALTEK\n") == "line 4: " + why);
  // A headerless Baltek record cannot open a file of several: its first line is the error.
  CHECK(rejection("1   B/@ d3/f3 g3/d1 e1/\n#! TABLUT\n#! TABLUT\n") == "line 1: " + why);
}

TEST_CASE("records file: a record's line N is the file's line N plus its start, minus one") {
  const std::string text = test::read_text(test::data_path("records/two-games.txt"));
  auto records = split_ok(text);
  REQUIRE(records.size() == 2);
  CHECK(records[0].line == 1);
  CHECK(records[1].line == 8);
  // No structured bindings: INFO captures `path` in a lambda, which clang 14 refuses for a binding.
  for (const auto& entry : {std::pair{records[0], "records/tablut/example-in-progress.txt"},
                            std::pair{records[1], "records/kopf-oder-knopf/sample-finished.txt"}}) {
    const auto& record = entry.first;
    const char* path = entry.second;
    INFO(path);
    auto alone = Record::read(test::read_text(test::data_path(path)));
    auto here = Record::read(record.text);
    REQUIRE(alone.ok());
    REQUIRE(here.ok());
    CHECK(here->write() == alone->write());
  }
  // `#= draw agreement` is line 11 of the second record and line 18 of the file.
  std::string broken = text;
  broken.replace(broken.find("#= draw agreement"), 17, "#= draw agremeent");
  auto bad = split_ok(broken);
  auto error = Record::read(bad[1].text);
  REQUIRE(!error.ok());
  CHECK(error.error().line + bad[1].line - 1 == 18);
}
