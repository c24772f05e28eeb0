// The `cinq` command line, run as a user runs it: the real binary, its output and exit status.
#include <doctest/doctest.h>

#include <fstream>

#include "tests/support.h"
#include "tests/support/process.h"

using cinq::test::run_cinq;
using cinq::test::shared_path;

TEST_CASE("cli: cinq replay accepts a good record and shows game, options, turns, result and board") {
  auto run = run_cinq("replay " + shared_path("records/baltek/sample-won-2-1.txt"));
  CHECK(run.exit_code == 0);
  CHECK(run.out.find("game: baltek\n") != std::string::npos);
  CHECK(run.out.find("options: goals=2 turns=off\n") != std::string::npos);
  CHECK(run.out.find("turns: 153\n") != std::string::npos);
  CHECK(run.out.find("finished: yes\n") != std::string::npos);
  CHECK(run.out.find("result: B score 2-1\n") != std::string::npos);
  CHECK(run.out.find("  3   #   ") != std::string::npos);  // the ASCII board
}

TEST_CASE("cli: cinq replay of an unfinished record gives the side to move") {
  auto run = run_cinq("replay " + shared_path("records/baltek/seed-example.txt"));
  CHECK(run.exit_code == 0);
  CHECK(run.out.find("finished: no\n") != std::string::npos);
  CHECK(run.out.find("to move: B\n") != std::string::npos);
  CHECK(run.out.find("incomplete: yes") != std::string::npos);
}

TEST_CASE("cli: cinq replay rejects a bad record with exit 1 and 'line N: reason'") {
  auto run = run_cinq("replay -", "#! BALTEK\n1   B/@ d3/f3 g3/d1 e1/   R/h3 g3/g5 f5/i3 h3/\n2   B/e1 e2/d5 e4/f5 g4/   R/f5 e4/g1 f1/i1 h2/\n3   B/@ e4/@ g4/\n");
  CHECK(run.exit_code == 1);
  CHECK(run.out == "line 4: Blue kick @ g4 needs a duel of 1 (write @+ g4)\n");
}

TEST_CASE("cli: cinq replay --json gives the same as JSON, and errors as JSON") {
  auto run = run_cinq("replay --json " + shared_path("records/baltek/sample-won-2-1.txt"));
  CHECK(run.exit_code == 0);
  CHECK(run.out.find("\"result\": \"B score 2-1\"") != std::string::npos);
  CHECK(run.out.find("\"finished\": true") != std::string::npos);
  CHECK(run.out.find("\"turns\": 153") != std::string::npos);
  CHECK(run.out.find("\"view\"") != std::string::npos);
  auto bad = run_cinq("replay --json -", "#! BALTEK\n1 R/\n");
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.find("\"line\": 2") != std::string::npos);
}

TEST_CASE("cli: cinq replay --canonical prints the record rewritten by the writer") {
  auto run = run_cinq("replay --canonical " + shared_path("records/baltek/sample-won-2-1.txt"));
  CHECK(run.exit_code == 0);
  CHECK(run.out == cinq::test::read_text(cinq::test::data_path("baltek/sample-won-2-1.canonical.txt")));
}

TEST_CASE("cli: usage errors exit 2; --help documents the commands") {
  auto help = run_cinq("--help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("cinq replay [--json] [--canonical] FILE") != std::string::npos);
  CHECK(help.out.find("cinq perft GAME DEPTH") != std::string::npos);
  CHECK(run_cinq("").exit_code == 2);
  CHECK(run_cinq("frobnicate").exit_code == 2);
  CHECK(run_cinq("replay").exit_code == 2);
  CHECK(run_cinq("replay /nonexistent/file.txt").exit_code == 2);
  CHECK(run_cinq("replay --color x").exit_code == 2);
  CHECK(run_cinq("perft chess 1").exit_code == 2);
  CHECK(run_cinq("perft baltek x").exit_code == 2);
  CHECK(run_cinq("perft baltek 1 goals=9").exit_code == 2);
}

TEST_CASE("cli: cinq perft counts action sequences (Baltek depth 1 from the kickoff: 36 runs, 82 sprints, 16 kicks, end)") {
  auto run = run_cinq("perft baltek 1");
  CHECK(run.exit_code == 0);
  CHECK(run.out.rfind("135\n", 0) == 0);
}

TEST_CASE("cli: cinq play appends a legal turn to the record file, and refuses a bad one leaving the file as it was") {
  cinq::test::TempDir dir;
  const std::string path = dir.path() + "/game.txt";
  const std::string start = cinq::test::read_text(shared_path("records/tablut/example-in-progress.txt"));
  {
    std::ofstream(path) << start;
  }
  auto refused = run_cinq("play " + path + " 'D/e4 e3/'");  // e4 is empty: the defender left it on turn 2
  CHECK(refused.exit_code == 1);
  CHECK(refused.out == "D/e4 e3/: e4 e3: there is no piece on e4\n");
  CHECK(cinq::test::read_text(path) == start);
  auto wrong_side = run_cinq("play " + path + " 'A/a6 b6/'");
  CHECK(wrong_side.exit_code == 1);
  CHECK(wrong_side.out == "A/a6 b6/: it is D's turn, not A's\n");

  auto played = run_cinq("play " + path + " 'D/e3 e4/'");
  CHECK(played.exit_code == 0);
  CHECK(played.out == "played; A to move\n");
  const std::string after = cinq::test::read_text(path);
  CHECK(after.find("3   A/d9 d7/        D/e3 e4/\n") != std::string::npos);
  auto replay = run_cinq("replay " + path);
  CHECK(replay.exit_code == 0);
  CHECK(replay.out.find("turns: 6\n") != std::string::npos);

  auto usage = run_cinq("play " + path);
  CHECK(usage.exit_code == 2);
  auto directory = run_cinq("play " + dir.path() + " 'B/g3 f3/'");  // not a record: nothing read, nothing written
  CHECK(directory.exit_code == 2);
  CHECK(directory.out.find("cannot read") != std::string::npos);
}
