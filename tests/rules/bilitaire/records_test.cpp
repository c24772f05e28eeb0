// Bi-litaire records (docs/notation.md, docs/rules/bilitaire.md "Notation"): golden records under
// tests/data/bilitaire, accepted whole or rejected at the right line with the right reason.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>

#include "rules/bilitaire/bilitaire.h"
#include "rules/notation.h"
#include "tests/support.h"

using namespace cinq;

namespace {

std::string record_file(std::string_view name) {
  return test::read_text(test::data_path("bilitaire/" + std::string(name)));
}
std::string sample() {
  return test::read_text(test::data_path("records/bi-litaire/sample-two-rounds.txt"));
}

// Every record in bad/ and the error it must give.
const std::map<std::string, std::string> kBad = {
    {"announcement-before-tray-action.txt", "line 2: '!2': the tray player announces after its tray action"},
    {"announcement-impossible.txt", "line 5: '!3': no marble can make 3 jumps in a row here (at most 2)"},
    {"announcement-of-one.txt", "line 2: '!1': an announcement is at least 2 (a single jump needs none)"},
    {"chain-longer-than-announced.txt",
     "line 21: 'c7 a7 a5 a3': the tray player announced !2: the chain must make exactly 2 jumps, not 3"},
    {"chain-shorter-than-announced.txt",
     "line 5: 'e3 e5': the tray player announced !2: the chain must make exactly 2 jumps, not 1"},
    {"chain-without-announcement.txt",
     "line 6: 'e3 e5 c5': without an announcement the marble player makes exactly one jump, not 2"},
    {"empty-tray-turn.txt", "line 2: T/: this turn cannot be empty"},
    {"first-move-not-a-removal.txt",
     "line 2: 'e5 c5': the marble player starts the round by removing one marble (x d4)"},
    {"jump-diagonal.txt", "line 3: 'd4 c5': a jump goes straight over one hole (across, up or down)"},
    {"jump-onto-gap.txt", "line 4: 'c4 c2': c2 is in a gap (no tray on B1)"},
    {"jump-over-empty-hole.txt", "line 3: 'c6 c4': there is no marble on c5 to jump over"},
    {"jump-over-gap.txt", "line 4: 'b2 d2': there is no hole on c2 to jump over (no tray on B1)"},
    {"push-blocked-by-frame.txt", "line 3: 'A2 ^2': the push is blocked by the frame"},
    {"push-blocked-by-tray.txt", "line 4: 'C1 <2': the push is blocked by the tray on A1"},
    {"push-group-of-four.txt", "line 3: 'A2 >1': a group of four trays (A2 B2 C2 D2) cannot be pushed"},
    {"push-no-tray.txt", "line 2: 'A1 >1': there is no tray on A1"},
    {"push-three-trays-too-far.txt", "line 6: 'A1 >2': a group of three trays (A1 B1 C1) moves only 1 slot"},
    {"push-two-trays-too-far.txt", "line 3: 'A2 ^3': a group of two trays (A2 A3) moves at most 2 slots"},
    {"remove-full-tray.txt", "line 2: 'x B1': the tray on B1 still holds 4 marbles"},
    {"remove-marble-in-gap.txt", "line 2: 'x a1': a1 is in a gap (no tray on A1)"},
    {"round2-fresh-board.txt", "line 30: 'x a1': a1 is in a gap (no tray on A1)"},
    {"second-removal.txt",
     "line 3: 'x d4': a marble is removed only at the start of a round; now a marble jumps (d2 d4)"},
    {"two-tray-actions.txt",
     "line 2: 'A4 >1': the tray action is made; announce a chain (!2) or end the turn"},
    {"wrong-score-detail.txt", "line 60: the score is 13-12, not 13-11"},
    {"wrong-winner.txt", "line 60: the result is '2 score 13-12', not '1 score'"},
};

}  // namespace

TEST_CASE("Bi-litaire records: the sample record reads, both rounds, player 2 winning 13-12") {
  auto r = Record::read(sample());
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().text()));
  CHECK(r->finished());
  CHECK(r->result_text() == "2 score 13-12");
  CHECK(r->state().round() == 2);
  CHECK(r->state().score() == "13-12");
  CHECK(r->player('M') == "bob@example.org");  // the player lines after `#- 2` swap the roles
  CHECK(r->player('T') == "alice@example.org");
  // What the writer gives reads back to the same game, `#- 2` and result included.
  std::string written = r->write();
  CHECK(written.find("#- 2") != std::string::npos);
  CHECK(written.find("#= 2 score 13-12") != std::string::npos);
  auto back = Record::read(written);
  REQUIRE(back.ok());
  CHECK(back->state().fingerprint() == r->state().fingerprint());
}

TEST_CASE("Bi-litaire records: every bad golden record is rejected at its line, with its reason") {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::data_path("bilitaire/bad"))) {
    std::string name = entry.path().filename().string();
    INFO(name);
    ++files;
    auto expected = kBad.find(name);
    REQUIRE_MESSAGE(expected != kBad.end(), "every bad record has its expected error");
    auto r = Record::read(record_file("bad/" + name));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().text() == expected->second);
  }
  CHECK(files == kBad.size());
}

TEST_CASE("Bi-litaire records: good golden records read, with their results") {
  struct Good {
    const char* file;
    const char* result;  // "" while the game goes on
    int round;
    char to_move;
  };
  const Good kGood[] = {
      {"draw-14-14.txt", "draw score 14-14", 2, 0},
      {"player1-wins-9-10.txt", "1 score 9-10", 2, 0},
      {"in-progress.txt", "", 1, 'T'},
      {"round-two-begun.txt", "", 2, 'T'},
  };
  for (const Good& g : kGood) {
    INFO(std::string(g.file));
    auto r = Record::read(record_file(std::string("good/") + g.file));
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().text()));
    CHECK(r->result_text() == g.result);
    CHECK(r->state().round() == g.round);
    if (g.to_move) CHECK(r->state().game().side_letter(r->state().to_move()) == g.to_move);
    auto back = Record::read(r->write());
    REQUIRE(back.ok());
    CHECK(back->state().fingerprint() == r->state().fingerprint());
  }
}

TEST_CASE("Bi-litaire records: a turn is played onto a record as the tray player writes it") {
  auto r = Record::read("#! BI-LITAIRE\n1 M/x c5/\n");
  REQUIRE(r.ok());
  CHECK(r->play_turn("T/A2 ^1/!2/").ok() == false);  // no chain of two yet
  REQUIRE(r->play_turn("T/A2 ^1/").ok());
  REQUIRE(r->play_turn("M/e5 c5/").ok());
  auto bad = r->play_turn("T/A4 >1/!3/");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("no marble can make 3 jumps in a row here") != std::string::npos);
  REQUIRE(r->play_turn("T/A4 >1/").ok());
  CHECK(r->write().find("M/e5 c5/") != std::string::npos);
  CHECK(r->write().find("T/A4 >1/") != std::string::npos);
}

TEST_CASE("Bi-litaire records: cinq replay accepts the sample and names the bad line of a wrong record") {
  auto ok = test::run_cinq("replay " + test::data_path("records/bi-litaire/sample-two-rounds.txt"));
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("2 score 13-12") != std::string::npos);
  auto bad = test::run_cinq("replay " + test::data_path("bilitaire/bad/push-blocked-by-tray.txt"));
  CHECK(bad.exit_code != 0);
  CHECK(bad.out.find("line 4: 'C1 <2': the push is blocked by the tray on A1") != std::string::npos);
}
