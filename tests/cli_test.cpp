// The `cinq` command line, run as a user runs it: the real binary, its output and exit status.
#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "rules/notation.h"
#include "rules/records_file.h"
#include "tests/support.h"
#include "tests/support/process.h"

using cinq::test::run_cinq;
using cinq::test::data_path;

TEST_CASE("cli: cinq replay accepts a good record and shows game, options, turns, result and board") {
  auto run = run_cinq("replay " + data_path("records/baltek/sample-won-2-1.txt"));
  CHECK(run.exit_code == 0);
  CHECK(run.out.find("game: baltek\n") != std::string::npos);
  CHECK(run.out.find("options: goals=2 turns=off\n") != std::string::npos);
  CHECK(run.out.find("turns: 153\n") != std::string::npos);
  CHECK(run.out.find("finished: yes\n") != std::string::npos);
  CHECK(run.out.find("result: B score 2-1\n") != std::string::npos);
  CHECK(run.out.find("  3   #   ") != std::string::npos);  // the ASCII board
}

TEST_CASE("cli: cinq replay of an unfinished record gives the side to move") {
  auto run = run_cinq("replay " + data_path("records/baltek/seed-example.txt"));
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
  auto run = run_cinq("replay --json " + data_path("records/baltek/sample-won-2-1.txt"));
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
  auto run = run_cinq("replay --canonical " + data_path("records/baltek/sample-won-2-1.txt"));
  CHECK(run.exit_code == 0);
  CHECK(run.out == cinq::test::read_text(cinq::test::data_path("baltek/sample-won-2-1.canonical.txt")));
}

namespace {

const char* const kTablut = "records/tablut/example-in-progress.txt";
const char* const kKopf = "records/kopf-oder-knopf/sample-finished.txt";
// Baltek with a bad kick on its line 4 (the record's), the file's line 11 after the 7 lines of kTablut.
const char* const kBadBaltek =
    "#! BALTEK\n"
    "1   B/@ d3/f3 g3/d1 e1/   R/h3 g3/g5 f5/i3 h3/\n"
    "2   B/e1 e2/d5 e4/f5 g4/   R/f5 e4/g1 f1/i1 h2/\n"
    "3   B/@ e4/@ g4/\n";

}  // namespace

TEST_CASE("cli: cinq replay of a file of two records replays both, each after its header line, with exit 0") {
  auto run = run_cinq("replay " + data_path("records/two-games.txt"));
  CHECK(run.exit_code == 0);
  auto tablut = run_cinq("replay " + data_path(kTablut));
  auto kopf = run_cinq("replay " + data_path(kKopf));
  CHECK(run.out == "== record 1 (line 1) ==\n" + tablut.out + "\n== record 2 (line 8) ==\n" + kopf.out);

  auto json = run_cinq("replay --json " + data_path("records/two-games.txt"));
  CHECK(json.exit_code == 0);
  CHECK(json.out.rfind("[\n  {\n", 0) == 0);  // one array of the records' objects
  CHECK(json.out.find("\"game\": \"tablut\"") < json.out.find("\"game\": \"kopf-oder-knopf\""));
  CHECK(json.out.find("\"record\": 2") != std::string::npos);
  CHECK(json.out.find("\"start_line\": 8") != std::string::npos);
  CHECK(json.out.find("\"result\": \"draw agreement 6-4\"") != std::string::npos);
}

TEST_CASE("cli: cinq replay --canonical of several records is itself a file of the same records") {
  auto run = run_cinq("replay --canonical " + data_path("records/two-games.txt"));
  CHECK(run.exit_code == 0);
  auto tablut = run_cinq("replay --canonical " + data_path(kTablut));
  auto kopf = run_cinq("replay --canonical " + data_path(kKopf));
  CHECK(run.out == tablut.out + "\n" + kopf.out);  // one blank line between two records
  // Read back: the same records, written the same.
  auto split = cinq::split_records(run.out);
  REQUIRE(split.ok());
  REQUIRE(split->size() == 2);
  auto first = cinq::Record::read((*split)[0].text);
  auto second = cinq::Record::read((*split)[1].text);
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  CHECK(first->write() == tablut.out);
  CHECK(second->write() == kopf.out);
  auto again = run_cinq("replay --canonical -", run.out);
  CHECK(again.exit_code == 0);
  CHECK(again.out == run.out);
}

TEST_CASE("cli: an error in the second record of a file names record 2 and the line in the file, exit 1") {
  const std::string file = cinq::test::read_text(data_path(kTablut)) + "\n" + kBadBaltek;
  const std::string error = "record 2: line 11: Blue kick @ g4 needs a duel of 1 (write @+ g4)\n";
  auto run = run_cinq("replay -", file);
  CHECK(run.exit_code == 1);
  auto tablut = run_cinq("replay " + data_path(kTablut));
  CHECK(run.out == "== record 1 (line 1) ==\n" + tablut.out + "\n== record 2 (line 8) ==\n" + error);

  const std::string bad_first = std::string(kBadBaltek) + "\n" + cinq::test::read_text(data_path(kTablut));
  auto first_bad = run_cinq("replay -", bad_first);
  CHECK(first_bad.exit_code == 1);  // a bad record does not stop the next
  CHECK(first_bad.out.find("record 1: line 4: Blue kick @ g4") != std::string::npos);
  CHECK(first_bad.out.find("== record 2 (line 6) ==\ngame: tablut\n") != std::string::npos);

  auto canonical = run_cinq("replay --canonical -", file);
  CHECK(canonical.exit_code == 1);
  CHECK(canonical.out == error);  // the errors alone, no record

  auto json = run_cinq("replay --json -", file);
  CHECK(json.exit_code == 1);
  CHECK(json.out.find("\"ok\": true") < json.out.find("\"ok\": false"));
  CHECK(json.out.find("\"line\": 11,") != std::string::npos);
  CHECK(json.out.find("\"record\": 2,") != std::string::npos);
}

TEST_CASE("cli: text before the first #! line of a file of several records is refused with its line") {
  const std::string tablut = cinq::test::read_text(data_path(kTablut));
  auto run = run_cinq("replay -", "\n# my games\n" + tablut + tablut);
  CHECK(run.exit_code == 1);
  CHECK(run.out ==
        "line 2: text before the first #! line (each record of a file of several starts with its own)\n");
  auto json = run_cinq("replay --json -", "\n# my games\n" + tablut + tablut);
  CHECK(json.exit_code == 1);
  CHECK(json.out.rfind("{\n", 0) == 0);
  CHECK(json.out.find("\"line\": 2") != std::string::npos);
  auto canonical = run_cinq("replay --canonical -", "\n# my games\n" + tablut + tablut);
  CHECK(canonical.exit_code == 1);
  CHECK(canonical.out == run.out);
}

TEST_CASE("cli: a file of one record replays as it always did, whatever precedes its #! line") {
  const std::string tablut = cinq::test::read_text(data_path(kTablut));
  auto run = run_cinq("replay -", tablut);
  CHECK(run.exit_code == 0);
  CHECK(run.out.rfind("game: tablut\noptions: first=attackers king=armed throne=special\nturns: 5\n", 0) ==
        0);
  CHECK(run.out.find("== record") == std::string::npos);
  CHECK(run_cinq("replay -", "\n\n" + tablut + "\n\n").out == run.out);
  auto json = run_cinq("replay --json -", tablut);
  CHECK(json.out.rfind("{\n", 0) == 0);  // one object, not an array
  CHECK(json.out.find("\"record\"") == std::string::npos);
  auto canonical = run_cinq("replay --canonical -", tablut);
  CHECK(canonical.exit_code == 0);
  CHECK(canonical.out == run_cinq("replay --canonical " + data_path(kTablut)).out);
  CHECK(canonical.out.rfind("#! TABLUT king=armed\n", 0) == 0);
  // A line before a lone #! line is the record's own error, named on the #! line as before.
  auto comment = run_cinq("replay -", "# hello\n" + tablut);
  CHECK(comment.exit_code == 1);
  CHECK(comment.out == "line 2: the #! line must be the first line of the record\n");
  // A Baltek record without a #! line is still one record.
  auto seed = run_cinq("replay " + data_path("records/baltek/seed-example.txt"));
  CHECK(seed.exit_code == 0);
  CHECK(seed.out.rfind("game: baltek\n", 0) == 0);
}

TEST_CASE("cli: usage errors exit 2, --help documents the commands") {
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
  const std::string start = cinq::test::read_text(data_path("records/tablut/example-in-progress.txt"));
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

  auto directory = run_cinq("play " + dir.path() + " 'B/g3 f3/'");  // not a record: nothing read, nothing written
  CHECK(directory.exit_code == 2);
  CHECK(directory.out.find("cannot read") != std::string::npos);
}

TEST_CASE("cli: cinq play takes a mailed turn as the line a player appends, numbered or not, for either side") {
  cinq::test::TempDir dir;
  const std::string path = dir.path() + "/game.txt";
  const std::string start = cinq::test::read_text(data_path("records/tablut/example-in-progress.txt"));
  const std::string line3 = "3   A/d9 d7/        D/e3 e4/\n";
  {
    std::ofstream(path) << start;
  }
  // The second side's turn as a line of its own, numbered as the line it completes: TURN or appended.
  auto numbered = run_cinq("play " + path + " '3   D/e3 e4/'");
  CHECK(numbered.exit_code == 0);
  CHECK(numbered.out == "played; A to move\n");
  CHECK(cinq::test::read_text(path).find(line3) != std::string::npos);
  {
    std::ofstream(path) << start << "D/e3 e4/\n";  // appended without its number
  }
  auto appended = run_cinq("play " + path);
  CHECK(appended.exit_code == 0);
  CHECK(appended.out == "checked; A to move\n");
  const std::string canonical = cinq::test::read_text(path);
  CHECK(canonical.find(line3) != std::string::npos);
  // The first side opens the next line, with its number or without.
  auto opens = run_cinq("play " + path + " '4   A/d7 d6/'");
  CHECK(opens.exit_code == 0);
  CHECK(opens.out == "played; D to move\n");
  CHECK(cinq::test::read_text(path) == canonical + "4   A/d7 d6/\n");

  // Refused, the file unchanged: a wrong number, an illegal move, two turns in one line.
  const std::string before = cinq::test::read_text(path);
  auto wrong_number = run_cinq("play " + path + " '7   D/e4 f4/'");
  CHECK(wrong_number.exit_code == 1);
  CHECK(wrong_number.out.rfind("7   D/e4 f4/: turn line 7 holds the Defenders' turn, which completes turn line 4",
                               0) == 0);
  auto illegal = run_cinq("play " + path + " '4   D/e4 e9/'");
  CHECK(illegal.exit_code == 1);
  auto two = run_cinq("play " + path + " '4   D/e4 f4/   A/d6 c6/'");
  CHECK(two.exit_code == 1);
  CHECK(cinq::test::read_text(path) == before);
  {
    std::ofstream(path) << before << "D/e4 e9/\n";
  }
  auto bad_appended = run_cinq("play " + path);
  CHECK(bad_appended.exit_code == 1);
  CHECK(bad_appended.out.find("line 8: ") != std::string::npos);
}

namespace {

// `cinq ARGS` with its standard output and standard error apart (run_cinq puts them together).
struct SplitRun {
  int exit_code = -1;
  std::string out, err;
};

SplitRun run_split(const std::string& args) {
  cinq::test::TempDir dir;
  const std::string err_path = dir.path() + "/stderr";
  SplitRun run;
  FILE* p = popen((std::string(CINQ_BINARY) + " " + args + " </dev/null 2>" + err_path).c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) run.out.append(buf, n);
  int status = pclose(p);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = cinq::test::read_text(err_path);
  return run;
}

}  // namespace

TEST_CASE("cli: cinq --help lists every command with its options and their defaults") {
  for (const char* args : {"--help", "-h", "help"}) {
    INFO(args);
    auto help = run_split(args);
    CHECK(help.exit_code == 0);
    CHECK(help.err.empty());
    for (const char* text :
         {"Usage: cinq COMMAND [ARGUMENTS]", "  cinq replay [--json] [--canonical] FILE\n",
          "  cinq play FILE [TURN]\n", "  cinq perft GAME DEPTH [key=value ...]\n", "  cinq serve [--port N] ",
          "  cinq selfplay GAME N [--level L] [--versus L2] [--out DIR] ", "  cinq games [--json]\n", "  cinq store copy FROM TO | backup DEST | check STORE",
          "  cinq tournament [--double] [--json] simulate [--format F] [--game GAME] [--players N]", "--json ",
          "--port N ", "(default 8080)", "--log-level LEVEL ", "(default info)", "--level L ", "(default 3)",
          "--jobs J ", "Exit status: 0 success, 1 a bad record or a rejected action, 2 a usage error."})
      CHECK_MESSAGE(help.out.find(text) != std::string::npos, text);
  }
}

TEST_CASE("cli: cinq COMMAND --help shows the command, its arguments and their defaults, and exits 0") {
  const std::pair<const char*, std::vector<std::string>> commands[] = {
      {"replay", {"Usage: cinq replay [--json] [--canonical] FILE\n", "FILE ", "--canonical "}},
      {"play", {"Usage: cinq play FILE [TURN]\n", "TURN "}},
      {"perft", {"Usage: cinq perft GAME DEPTH [key=value ...]\n", "DEPTH "}},
      {"serve",
       {"Usage: cinq serve [--port N] [--data DIR] [--store URI] [--bus URI] [--node NAME]",
        "--bus URI ", "--node NAME ", "--trusted-proxy ADDR ", "--port N ", "(default 8080)", "--data DIR ", "(default data)", "--web DIR ", "(default web-client)",
        "--address A ", "(default 0.0.0.0)", "--threads N ", "(default 2)", "--per-address-connections N ",
        "(default 64)", "--per-address-rate N ", "(default 100)", "--bot-threads N ", "(default 1)",
        "--bot-answer-ms MS ", "(default 400)", "--bot-pace-ms MS ", "(default 600)", "--log-level LEVEL ",
        "trace, debug, info, warn or error", "(default info)"}},
      {"selfplay",
       {"Usage: cinq selfplay GAME N [--level L] [--versus L2] [--out DIR] [--seed S]", "--options ",
        "--think-ms MS ", "--playouts P ", "--jobs J ", "(default 1)", "--out DIR ", "(default .)"}},
      {"games", {"Usage: cinq games [--json]\n", "--json "}},
      {"store", {"Usage: cinq store copy FROM TO | backup DEST | check STORE", "--data DIR ", "(default data)",
                  "--store URI ", "postgresql://", "pg_dump", "replays"}},
      {"tournament",
       {"Usage: cinq tournament [--double] [--json] simulate [--format F]", "--players N ", "(default 8)",
        "--rounds R ", "(default 5)", "--format F ", "(default swiss)", "--minutes M ", "(default 60)",
        "--level L ", "(default 0)"}},
  };
  for (const auto& entry : commands) {
    const auto& command = entry.first;  // not a structured binding: doctest's INFO captures it (clang 14)
    const auto& texts = entry.second;
    INFO(command);
    auto help = run_split(std::string(command) + " --help");
    CHECK(help.exit_code == 0);
    CHECK(help.err.empty());
    for (const std::string& text : texts) CHECK_MESSAGE(help.out.find(text) != std::string::npos, text);
    CHECK(help.out.find("Exit status:") != std::string::npos);
  }
}

TEST_CASE("cli: an unknown option is a usage error of its command: exit 2, the option named on stderr") {
  for (const char* args : {"--frobnicate", "replay --frobnicate x.txt", "play --frobnicate a b",
                           "perft --frobnicate baltek 1", "serve --frobnicate", "serve --port 0 --frobnicate 3",
                           "selfplay tablut 2 --frobnicate 1", "games --frobnicate"}) {
    INFO(args);
    auto run = run_split(args);
    CHECK(run.exit_code == 2);
    CHECK(run.out.empty());
    CHECK(run.err.find("--frobnicate") != std::string::npos);
    CHECK(run.err.find("--help") != std::string::npos);
  }
  auto serve = run_split("serve --frobnicate");
  CHECK(serve.err.rfind("cinq serve: ", 0) == 0);
  CHECK(serve.err.find("usage: cinq serve [--port N]") != std::string::npos);
  // Bad values are usage errors too, before anything starts.
  for (const char* args : {"serve --port 70000", "serve --port", "serve --threads 0", "serve --log-level loud",
                           "serve --per-address-rate -1", "serve --bot-answer-ms 60001", "serve extra"}) {
    INFO(args);
    auto run = run_split(args);
    CHECK(run.exit_code == 2);
    CHECK(run.out.empty());
    CHECK(run.err.rfind("cinq serve: ", 0) == 0);
  }
}

TEST_CASE("cli: cinq serve raises its open files limit to the hard limit and logs it, --log-level filters the log") {
  // Started with a soft limit below its hard limit (inherited from this process, lowered for the while).
  rlimit mine{};
  REQUIRE(getrlimit(RLIMIT_NOFILE, &mine) == 0);
  rlimit lowered = mine;
  lowered.rlim_cur = std::min<rlim_t>(mine.rlim_cur, 256);
  REQUIRE(setrlimit(RLIMIT_NOFILE, &lowered) == 0);
  cinq::test::TempDir data;
  std::optional<cinq::test::ServerProcess> server;
  try {
    server.emplace(data.path(), CINQ_WEB_DIR);
  } catch (...) {
    setrlimit(RLIMIT_NOFILE, &mine);
    throw;
  }
  REQUIRE(setrlimit(RLIMIT_NOFILE, &mine) == 0);
  const std::string log = server->log();
  const std::string marker = "open files limit: ";
  const auto at = log.find(marker);
  REQUIRE_MESSAGE(at != std::string::npos, log);
  const std::string logged = log.substr(at + marker.size(), log.find(' ', at + marker.size()) - at - marker.size());
  if (mine.rlim_max > lowered.rlim_cur)
    CHECK(log.find("(raised from " + std::to_string(lowered.rlim_cur) + ")") != std::string::npos);
  // /proc/PID/limits: "Max open files            SOFT                 HARD                 files"
  std::ifstream limits("/proc/" + std::to_string(server->pid()) + "/limits");
  std::string line, soft, hard;
  while (std::getline(limits, line))
    if (line.rfind("Max open files", 0) == 0) std::istringstream(line.substr(14)) >> soft >> hard;
  REQUIRE(!soft.empty());
  if (hard != "unlimited") CHECK(soft == hard);  // an unlimited hard limit: raised to fs.nr_open
  CHECK(logged == soft);

  cinq::test::TempDir quiet_data;
  cinq::test::ServerProcess quiet(quiet_data.path(), CINQ_WEB_DIR, {"--log-level", "warn"});
  CHECK(quiet.log().find("listening on http://") != std::string::npos);  // the command's own output stays
  CHECK(quiet.log().find(marker) == std::string::npos);                   // an info line does not
}

namespace {

// The lines of a `cinq tournament simulate` report that pair two bots: "  3  Bot 4 - Bot 12   1-0".
struct Board {
  int round = 0;
  std::string first, second, result;
};

std::vector<Board> boards_of(const std::string& out) {
  std::vector<Board> list;
  std::istringstream in(out);
  int round = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Round ", 0) == 0) round = std::stoi(line.substr(6));
    const auto dash = line.find(" - ");
    if (dash == std::string::npos || line.find("Bot ") == std::string::npos) continue;
    Board b;
    b.round = round;
    const auto start = line.find("Bot ");
    b.first = line.substr(start, dash - start);
    const auto end = line.find("  ", dash + 3);
    b.second = line.substr(dash + 3, end - dash - 3);
    b.result = line.substr(line.find_last_of(' ') + 1);
    list.push_back(b);
  }
  return list;
}

}  // namespace

TEST_CASE("cli: cinq tournament simulate plays a Swiss of bots: each round's pairings, the standings, the same for a seed") {
  const std::string args = "tournament simulate --format swiss --game kopf-oder-knopf --players 16 --rounds 5 --seed 3";
  auto run = run_cinq(args);
  REQUIRE(run.exit_code == 0);
  CHECK(run_cinq(args).out == run.out);  // deterministic
  CHECK(run.out.rfind("swiss tournament of kopf-oder-knopf, 16 bots of level 0, seed 3\n", 0) == 0);
  CHECK(run.out.find("Standings (finished)") != std::string::npos);
  CHECK(run.out.find("Buchholz") != std::string::npos);
  const std::vector<Board> boards = boards_of(run.out);
  CHECK(boards.size() == 40);  // 5 rounds of 8 boards
  std::set<std::set<std::string>> pairs;
  for (const Board& b : boards) {
    pairs.insert({b.first, b.second});
    CHECK((b.result == "1-0" || b.result == "0-1" || b.result == "1/2"));
  }
  CHECK(pairs.size() == 40);  // no pair met twice
  for (int rank = 1; rank <= 16; ++rank)
    CHECK(run.out.find("\n" + std::string(rank < 10 ? "   " : "  ") + std::to_string(rank) + "  Bot ") != std::string::npos);
  CHECK(run_cinq(args.substr(0, args.size() - 1) + "4").out != run.out);  // another seed, another tournament
}

TEST_CASE("cli: cinq tournament simulate plays a round robin by Berger tables and an arena in simulated time") {
  auto rr = run_cinq("tournament simulate --format roundrobin --game kopf-oder-knopf --players 5 --seed 2");
  REQUIRE(rr.exit_code == 0);
  const std::vector<Board> boards = boards_of(rr.out);
  CHECK(boards.size() == 10);  // 5 rounds of 2 boards, everyone meeting everyone once
  std::set<std::set<std::string>> pairs;
  for (const Board& b : boards) pairs.insert({b.first, b.second});
  CHECK(pairs.size() == 10);
  CHECK(rr.out.find("Round 5\n") != std::string::npos);
  CHECK(rr.out.find(": bye\n") != std::string::npos);

  auto arena = run_cinq("tournament simulate --format arena --game kopf-oder-knopf --players 6 --minutes 20 --seed 2");
  REQUIRE(arena.exit_code == 0);
  CHECK(arena.out.find("game   1  ") != std::string::npos);
  CHECK(arena.out.find("Standings (finished)") != std::string::npos);
  CHECK(arena.out.find("Games in order") != std::string::npos);

  auto json = run_cinq("tournament simulate --format swiss --game tablut --players 4 --rounds 2 --json");
  REQUIRE(json.exit_code == 0);
  const auto parsed = nlohmann::json::parse(json.out);
  CHECK(parsed["tournament"]["format_version"] == 1);
  CHECK(parsed["tournament"]["status"] == "finished");
  CHECK(parsed["standings"].size() == 4);
}

TEST_CASE("cli: cinq tournament simulate refuses an unknown game, bad options and a bad format with exit 2") {
  CHECK(run_cinq("tournament simulate --game chess").exit_code == 2);
  auto bad = run_cinq("tournament simulate --game tablut --options 'speed=fast'");
  CHECK(bad.exit_code == 2);
  CHECK(bad.out.find("--options: ") != std::string::npos);
  CHECK(run_cinq("tournament simulate --game tablut --format knockout").exit_code == 2);
  CHECK(run_cinq("tournament play --game tablut").exit_code == 2);
}
