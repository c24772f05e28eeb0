// Batik records (docs/notation.md, "Batik"): golden records read, replayed and written back; bad ones
// refused at the right line.
#include "rules/notation.h"
#include "tests/rules/batik/helpers.h"
#include "tests/support.h"

namespace cinq::batik::test {
namespace {

Record read_golden(const std::string& name) {
  std::string text = cinq::test::read_text(cinq::test::data_path("batik/" + name));
  auto r = Record::read(text);
  REQUIRE_MESSAGE(r.ok(), name, ": ", (r.ok() ? "" : r.error().text()));
  CHECK_MESSAGE(r->write() == text, name, " is written back as it is");
  return std::move(*r);
}

TEST_CASE("Batik records: a single game that ends with a stack overflowing the rim") {
  Record r = read_golden("stack-overflow.txt");
  CHECK(r.finished());
  CHECK(r.result_text() == "F overflow");
  CHECK(r.player('C') == "claire@example.org");
  CHECK(frame_of(r.state()).size() == 5);
}

TEST_CASE("Batik records: a match in its second game, the winner of the first moving first on each line") {
  Record r = read_golden("match-in-progress.txt");
  CHECK_FALSE(r.finished());
  CHECK(r.state().round() == 2);
  CHECK(r.state().round_result(1) == Outcome::win(kDark, "overflow"));
  CHECK(r.state().to_move() == kLight);
  CHECK(frame_of(r.state()).size() == 3);
  CHECK(as_batik(r.state()).lost(kLight) == 1u << piece_index("TL"));
  // Playing on appends to game 2.
  CHECK(r.play_turn("C/TM 0 4/").ok());
  CHECK(r.write().find("2   F/NR~ 90 3.5/   C/TM 0 4/\n") != std::string::npos);
}

TEST_CASE("Batik records: a whole random match, each game closed by its result, the match by exhausted") {
  Record r = read_golden("match-random.txt");
  CHECK(r.finished());
  CHECK(r.result_text() == "F exhausted");
  CHECK(r.state().round() == 5);
  for (int g = 1; g < 5; ++g) CHECK(r.state().round_result(g)->reason == "overflow");
  std::string text = r.write();
  CHECK(text.find("#= F overflow\n#- 2\n1   F/") != std::string::npos);
}

TEST_CASE("Batik records: a whole random single game (match=off)") {
  Record r = read_golden("single-random.txt");
  CHECK(r.finished());
  CHECK(r.result_text() == "C overflow");
  CHECK(r.state().round() == 1);
}

TEST_CASE("Batik records: bad records are refused at the line at fault, with the reason") {
  struct Bad {
    const char* file;
    int line;
    const char* says;
  };
  const Bad bad[] = {
      {"used-piece.txt", 3, "Light's SQ is already in the frame"},
      {"lost-piece.txt", 7, "Light lost TL in an earlier game of the match"},
      {"angle.txt", 2, "the rotation 50 is not a multiple of 15 degrees"},
      {"position.txt", 2, "the position 3.3 is not a multiple of 1/8"},
      {"outside.txt", 2, "would stick out of the right wall"},
      {"unknown-piece.txt", 2, "unknown piece 'QQ'"},
      {"wrong-side.txt", 2, "F's turn"},
      {"dark-starts.txt", 2, "C's turn"},
      {"loser-starts.txt", 7, "F's turn"},
      {"wrong-winner.txt", 5, "F overflow"},
      {"overflow-not-on-board.txt", 4, "overflow"},
      {"match-not-over.txt", 5, "F overflow"},
      {"after-the-end.txt", 4, "over"},
      {"bad-option.txt", 1, "match"},
  };
  for (const Bad& b : bad) {
    CAPTURE(b.file);
    auto r = Record::read(cinq::test::read_text(cinq::test::data_path(std::string("batik/bad/") + b.file)));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().line == b.line);
    CHECK_MESSAGE(r.error().message.find(b.says) != std::string::npos, r.error().message);
  }
}

TEST_CASE("Batik records: cinq replay checks a Batik record") {
  auto good = cinq::test::run_cinq("replay " + cinq::test::data_path("batik/stack-overflow.txt"));
  CHECK(good.exit_code == 0);
  CHECK(good.out.find("F overflow") != std::string::npos);
  auto bad = cinq::test::run_cinq("replay " + cinq::test::data_path("batik/bad/lost-piece.txt"));
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.find("line 7:") != std::string::npos);
}

}  // namespace
}  // namespace cinq::batik::test
