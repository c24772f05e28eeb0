// Records (docs/notation.md): every line type, read and written; the first bad line named; nothing kept.
#include <doctest/doctest.h>

#include "rules/notation.h"
#include "rules/registry.h"
#include "tests/support.h"

using namespace cinq;

namespace {

// The error of a record that must be rejected, as `line N: reason`.
std::string rejection(std::string_view text) {
  auto r = Record::read(text);
  return r.ok() ? "accepted" : r.error().text();
}

Record accepted(std::string_view text) {
  auto r = Record::read(text);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().text()));
  return std::move(*r);
}

// Two complete Baltek turn lines from the seed, legal from the kickoff.
const std::string kTwoLines =
    "1   B/@  d3/f3 g3/d1 e1/      R/h3 g3/g5 f5/i3 h3/\n"
    "2   B/e1 e2/d5 e4/f5 g4/      R/f5 e4/g1 f1/i1 h2/\n";

}  // namespace

TEST_CASE("notation: every line type of a record is read") {
  auto lines = parse_lines(
      "#! BALTEK 1.1 goals=3\n"
      "B = bernard@bois.fr          R = Robert de la Rivière\n"
      "\n"
      "   > 2014-12-24   11:09:30\n"
      "# a comment\n"
      "#another comment\n"
      "01  B/@ d3/f3 g3/   R/\n"
      "2   B/d1 e1/ ...\n"
      "#= B resign 0-0\n");
  REQUIRE_MESSAGE(lines.ok(), (lines.ok() ? "" : lines.error().text()));
  const auto& e = *lines;
  REQUIRE(e.size() == 8);
  CHECK(e[0].kind == Entry::Kind::header);
  CHECK(e[0].game == "BALTEK");
  CHECK(e[0].version == "1.1");
  CHECK(e[0].options == std::vector<std::pair<std::string, std::string>>{{"goals", "3"}});
  CHECK(e[1].kind == Entry::Kind::players);
  CHECK(e[1].players == std::vector<std::pair<char, std::string>>{{'B', "bernard@bois.fr"}, {'R', "Robert de la Rivière"}});
  CHECK(e[2].kind == Entry::Kind::timestamp);
  CHECK(e[2].text == "2014-12-24 11:09:30");
  CHECK(e[2].line == 4);  // the blank line 3 is skipped but counted
  CHECK(e[3].kind == Entry::Kind::comment);
  CHECK(e[4].kind == Entry::Kind::comment);
  CHECK(e[5].kind == Entry::Kind::turns);
  CHECK(e[5].number == 1);  // a leading zero is allowed
  REQUIRE(e[5].turns.size() == 2);
  CHECK(e[5].turns[0].items == std::vector<std::string>{"@ d3", "f3 g3"});
  CHECK(e[5].turns[1].side == 'R');
  CHECK(e[5].turns[1].items.empty());  // R/ : a turn with no action
  CHECK(e[6].ellipsis);
  CHECK(e[7].kind == Entry::Kind::result);
  CHECK(e[7].result.winner == "B");
  CHECK(e[7].result.reason == "resign");
  CHECK(e[7].result.detail == "0-0");
}

TEST_CASE("notation: the #! line comes first, names a known game, and takes only the game's options") {
  CHECK(rejection("# hello\n#! BALTEK\n") == "line 2: the #! line must be the first line of the record");
  CHECK(rejection("> 2026-01-01 10:00:00\n#! BALTEK\n") == "line 2: the #! line must be the first line of the record");
  CHECK(rejection("#! CHESS\n").rfind("line 1: unknown game 'CHESS'", 0) == 0);
  CHECK(rejection("#! BALTEK speed=3\n") == "line 1: unknown option 'speed' (options: goals, turns)");
  CHECK(rejection("#! BALTEK goals=2 goals=3\n") == "line 1: option 'goals' given twice");
  CHECK(rejection("#! BALTEK goals=9\n") == "line 1: option goals=9 is not allowed (goals: 1..5)");
  CHECK(rejection("#! BALTEK Goals=2\n") == "line 1: option key 'Goals' must be lower-case letters");
  CHECK(rejection("#! BALTEK goals\n") == "line 1: option 'goals' is not of the form key=value");
  CHECK(rejection("#! BALTEK 2.0\n") == "line 1: unknown rules version 2.0 (1.0 or 1.1)");
  CHECK(accepted("#! baltek goals=3\n").options().get("goals") == "3");  // the name in any case
  CHECK(accepted("#! BALTEK 1.0\n").game().name() == "baltek");
  CHECK(accepted(kTwoLines).game().name() == "baltek");  // Baltek alone may leave the #! line out
}

TEST_CASE("notation: player lines name sides of the game, anywhere before the result") {
  Record r = accepted("#! BALTEK\nB = ann\n" + kTwoLines + "R = bob    B = carl\n#= draw agreement\n");
  CHECK(r.player('B') == "carl");
  CHECK(r.player('R') == "bob");
  CHECK(rejection("#! BALTEK\nX = ann\n") == "line 2: 'X' is not a side of BALTEK (B or R)");
  CHECK(rejection("#! BALTEK\nB =\n") == "line 2: no name after 'B ='");
  CHECK(rejection("#! BALTEK\n#= draw agreement\nB = ann\n") == "line 3: a player line after the result line");
}

TEST_CASE("notation: timestamps are YYYY-MM-DD HH:MM:SS and real dates") {
  CHECK(accepted("#! BALTEK\n> 2024-02-29 23:59:59\n").entries().size() == 1);
  CHECK(rejection("#! BALTEK\n> 2023-02-29 10:00:00\n") ==
        "line 2: malformed timestamp '2023-02-29 10:00:00' (write > YYYY-MM-DD HH:MM:SS, UTC)");
  CHECK(rejection("#! BALTEK\n> 2023-01-01 24:00:00\n").rfind("line 2: malformed timestamp", 0) == 0);
  CHECK(rejection("#! BALTEK\n> 2023-01-01\n").rfind("line 2: malformed timestamp", 0) == 0);
  CHECK(rejection("#! BALTEK\n> 2023-1-01 10:00:00\n").rfind("line 2: malformed timestamp", 0) == 0);
}

TEST_CASE("notation: turn lines are numbered from 1, first mover first, with / closing every action") {
  CHECK(accepted(kTwoLines).turn_count() == 4);
  CHECK(rejection("2   B/d5 c5/\n") == "line 1: expected turn line 1, found 2");
  CHECK(rejection("1   B/d5 c5/   R/i5 j5/\n1   B/d3 c3/\n") == "line 2: expected turn line 2, found 1");
  CHECK(rejection("1   R/i5 j5/\n") == "line 1: it is B's turn, not R's");
  CHECK(rejection("1   X/i5 j5/\n") == "line 1: 'X' is not a side of BALTEK (B or R)");
  CHECK(rejection("1   B/d5 c5\n") == "line 1: turn B/d5 c5 is not closed by '/'");
  CHECK(rejection("1   B/d5 c5 /\n") == "line 1: a space touches '/' in 'd5 c5 ' (write B/d5 c5/)");
  CHECK(rejection("1   B/d5 c5//\n") == "line 1: an empty action '//' in the turn of B");
  CHECK(rejection("1   B/d5 c5/ R/i5 j5/ B/d3 c3/\n") == "line 1: a turn line holds at most two turns");
  CHECK(rejection("1   B/d5 c5/ hello\n").rfind("line 1: 'hello' is not a turn", 0) == 0);
  CHECK(rejection("1.  B/d5 c5/\n") == "line 1: a turn line is a number, spaces, then turns like B/g3 f3/");
  CHECK(rejection("hello world\n").rfind("line 1: unrecognised line 'hello world'", 0) == 0);
}

TEST_CASE("notation: only the last turn line may stop after the first side's turn") {
  CHECK(accepted("1   B/d5 c5/\n").turn_count() == 1);
  // Said as what was written and what to write instead.
  CHECK(rejection("1   B/d5 c5/\n2   B/d3 c3/\n") ==
        "line 2: turn line 2 gives Blue's turn again: each line holds one turn of each side, Blue's then Red's, "
        "and turn line 1 still waits for Red's turn: write Red's turn after Blue's on turn line 1, or alone on a "
        "line with no number (or numbered 1)");
}

TEST_CASE("notation: a line holding the second side's turn alone completes a line that stopped after the first") {
  // How a mailed log grows: the side that moves second appends its turn as a new line, numbered or not.
  const std::string first = "1   B/@  d3/f3 g3/d1 e1/\n";
  const std::string second = "R/h3 g3/g5 f5/i3 h3/\n";
  Record numbered = accepted(first + "1   " + second);
  Record bare = accepted(first + second);
  Record whole = accepted("1   B/@  d3/f3 g3/d1 e1/      R/h3 g3/g5 f5/i3 h3/\n");
  CHECK(numbered.turn_count() == 2);
  CHECK(numbered.write() == whole.write());  // written back as one line
  CHECK(bare.write() == whole.write());
  // A line without a number takes the next number; then the first side's turn, then its completion.
  Record longer = accepted(first + second + "B/e1 e2/d5 e4/f5 g4/\n" + "R/f5 e4/g1 f1/i1 h2/\n");
  CHECK(longer.write() == accepted(kTwoLines).write());
  // A completion holds the second side's turn alone, under the number of the line it completes.
  CHECK(rejection(first + "2   " + second) ==
        "line 2: turn line 2 holds Red's turn, which completes turn line 1: write Red's turn after Blue's on turn "
        "line 1, or alone on a line with no number (or numbered 1)");
  CHECK(rejection(first + "1   R/h3 g3/g5 f5/i3 h3/   B/e1 e2/\n")
            .rfind("line 2: a line completing turn line 1 holds Red's turn alone: ", 0) == 0);
  CHECK(rejection(first + "B/e1 e2/\n") == "line 2: it is R's turn, not B's");
  // A complete line is not continued: a line without a number after it is the next line.
  CHECK(rejection(kTwoLines + "2   R/f5 e4/\n") == "line 3: expected turn line 3, found 2");
  CHECK(accepted(kTwoLines + "B/d3 c3/\n").turn_count() == 5);
}

TEST_CASE("notation: an action that is not legal names its line and why, nothing is kept") {
  CHECK(rejection(kTwoLines + "3   B/@ e4/@ g4/\n") == "line 3: Blue kick @ g4 needs a duel of 1 (write @+ g4)");
  CHECK(rejection(kTwoLines + "3   B/@ e4/@+ g4/ R/g3 g4/i5 i4/@ i4/@ h4/\n") ==
        "line 3: R/@ h4/: the turn is already over");
}

TEST_CASE("notation: '...' stands for turns not written, only comments and timestamps may follow") {
  Record r = accepted(kTwoLines + "3   B/@ e4/ ...\n> 2026-01-01 10:00:00\n# end\n");
  CHECK(r.incomplete());
  CHECK(r.turn_count() == 5);
  CHECK(accepted(kTwoLines + "...\n").incomplete());
  CHECK(rejection(kTwoLines + "...\n...\n") == "line 4: a second '...'");
  CHECK(rejection(kTwoLines + "...\n3   B/@ e4/\n") == "line 4: no turn may follow '...'");
  CHECK(rejection(kTwoLines + "...\n#= B resign\n") == "line 4: no result may follow '...'");
  CHECK(rejection(kTwoLines + "...\nB = ann\n") == "line 4: only comments and timestamps may follow '...'");
  CHECK(rejection("1   B/d5 c5/ ... R/i5 j5/\n") == "line 1: nothing may follow '...' on a turn line");
  CHECK(rejection("1   ...\n") == "line 1: '...' may stand only in place of the second turn of a line");
  CHECK_FALSE(r.play_turn("B/d5 c5/").ok());  // an incomplete record cannot go on
}

TEST_CASE("notation: '#- N' lines are errors outside Batik and Bi-litaire") {
  CHECK(rejection("#! BALTEK\n#- 1\n") == "line 2: '#- N' lines are only for Batik games and Bi-litaire rounds");
  CHECK(rejection("#! BALTEK\n#- x\n") == "line 2: a round line is '#- N' with N a number from 1");
}

TEST_CASE("notation: a result decided outside the board names a winner or a draw, nothing may follow it") {
  CHECK(accepted(kTwoLines + "#= R resign\n").result_text() == "R resign 0-0");
  CHECK(accepted(kTwoLines + "#= B time 0-0\n").result_text() == "B time 0-0");
  CHECK(accepted(kTwoLines + "#= B abandon\n").result_text() == "B abandon 0-0");
  CHECK(accepted(kTwoLines + "#= draw agreement\n").result_text() == "draw agreement 0-0");
  CHECK(accepted("#= aborted\n").result_text() == "aborted");
  CHECK(rejection(kTwoLines + "#= B agreement\n") == "line 3: 'agreement' is a draw: write #= draw agreement");
  CHECK(rejection(kTwoLines + "#= draw resign\n") == "line 3: 'resign' names a winner, not a draw");
  CHECK(rejection(kTwoLines + "#= Q resign\n") == "line 3: unknown winner 'Q' (B, R or draw)");
  CHECK(rejection(kTwoLines + "#= B teatime\n") == "line 3: unknown result reason 'teatime'");
  CHECK(rejection(kTwoLines + "#= B resign 1-0\n") == "line 3: the score is 0-0, not 1-0");
  CHECK(rejection(kTwoLines + "#= B score\n") == "line 3: the board does not give 'score' here: the game is not over");
  // In Baltek the turn limit is the board's: it cannot be declared before the limit is reached.
  CHECK(rejection(kTwoLines + "#= draw limit\n") == "line 3: the board does not give 'limit' here: the game is not over");
  CHECK(rejection(kTwoLines + "#= R resign\n3   B/d5 c5/\n") == "line 4: the game is over: no turn may follow the result line");
  CHECK(rejection(kTwoLines + "#= R resign\n#= R resign\n") == "line 4: a second result line");
  CHECK(rejection("#= aborted now\n") == "line 1: nothing may follow '#= aborted'");
  CHECK(rejection("#= B\n") == "line 1: the result 'B' gives no reason");
}

TEST_CASE("notation: a result that follows from the board must agree with the replay") {
  std::string game = test::read_text(test::data_path("records/baltek/sample-won-2-1.txt"));
  std::string moves = game.substr(0, game.find("#="));
  CHECK(accepted(moves).result_text() == "B score 2-1");  // the result line may be left out
  CHECK(accepted(moves + "#= B score\n").result_text() == "B score 2-1");
  CHECK(rejection(moves + "#= R score 1-2\n") == "line 82: the result is 'B score 2-1', not 'R score'");
  CHECK(rejection(moves + "#= B score 2-0\n") == "line 82: the score is 2-1, not 2-0");
  CHECK(rejection(moves + "#= R resign\n") == "line 82: the moves end the game: the result is 'B score 2-1'");
  CHECK(rejection(moves + "78  R/i5 j5/\n") == "line 82: the game is over (B score 2-1): no turn may follow");
}

TEST_CASE("notation: the turns option draws the game by limit after N turns") {
  Record r = accepted("#! BALTEK turns=4\n" + kTwoLines);
  CHECK(r.result_text() == "draw limit 0-0");
  CHECK(accepted("#! BALTEK turns=4\n" + kTwoLines + "#= draw limit 0-0\n").finished());
  CHECK(rejection("#! BALTEK turns=3\n" + kTwoLines) == "line 3: the game is over (draw limit 0-0): no turn may follow");
}

TEST_CASE("notation: the writer's record reads back to the same game, and writing is stable") {
  for (const char* path : {"records/baltek/sample-won-2-1.txt", "records/baltek/seed-example.txt"}) {
    Record r = accepted(test::read_text(test::data_path(path)));
    std::string text = r.write();
    Record back = accepted(text);
    CHECK(back.state().fingerprint() == r.state().fingerprint());
    CHECK(back.write() == text);
    CHECK(back.turn_count() == r.turn_count());
    CHECK(back.result_text() == r.result_text());
  }
}

TEST_CASE("notation: canonical records are golden files") {
  for (std::string name : {"sample-won-2-1", "seed-example"}) {
    Record r = accepted(test::read_text(test::data_path("records/baltek/" + name + ".txt")));
    CHECK(r.write() == test::read_text(test::data_path("baltek/" + name + ".canonical.txt")));
  }
}

TEST_CASE("notation: playing a turn appends it whole, or changes nothing and says why") {
  Record r = accepted(kTwoLines);
  auto bad = r.play_turn("B/@ e4/@ g4/");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "Blue kick @ g4 needs a duel of 1 (write @+ g4)");
  CHECK(r.turn_count() == 4);
  CHECK(r.write() == accepted(kTwoLines).write());
  CHECK(r.play_turn("B/@ e4/@+ g4/").ok());
  CHECK(r.turn_count() == 5);
  CHECK(r.state().to_move() == 1);
  CHECK(r.play_turn("B/d5 c5/").error().message == "it is R's turn, not B's");
  CHECK(r.play_turn("R/").ok());  // an empty turn ends at once
  CHECK_FALSE(r.play_turn("B/d5 c5/ R/i5 j5/").ok());
  r.add_timestamp("2026-11-21 10:00:00");
  CHECK(r.declare(Outcome::win(1, "resign")).ok());
  CHECK(r.result_text() == "R resign 0-0");
  CHECK(r.play_turn("B/d5 c5/").error().message == "the game is over (R resign 0-0): no turn may follow");
  CHECK_FALSE(r.declare(Outcome::draw("agreement")).ok());
  Record back = accepted(r.write());
  CHECK(back.result_text() == "R resign 0-0");
  CHECK(back.turn_count() == 6);
}

TEST_CASE("notation: declaring a board result or an unknown reason is refused") {
  Record r = accepted(kTwoLines);
  CHECK(r.declare(Outcome::win(0, "score")).error().message == "the board does not give 'score' here: the game is not over");
  CHECK(r.declare(Outcome::draw("resign")).error().message == "'resign' names a winner, not a draw");
  CHECK(r.abort().ok());
  CHECK(r.result_text() == "aborted");
}

TEST_CASE("notation: a record is UTF-8 text, an error quotes whole characters") {
  CHECK(rejection("#! BALTEK\n# caf\xff\n") == "line 2: the line is not UTF-8 text");
  CHECK(rejection("#! BALTEK\nB = \xc3\x28\n") == "line 2: the line is not UTF-8 text");
  CHECK(accepted("#! BALTEK\n# Le bonus des « Rouges » a été bien joué.\nB = Hélène\n").player('B') == "Hélène");
  // 39 ASCII bytes then 'é' (2 bytes): the 40-byte excerpt must not cut it in half.
  std::string err = rejection("#! BALTEK\nPartie amicale au club, arbitrée par Hélène\n");
  CHECK(err == "line 2: unrecognised line 'Partie amicale au club, arbitrée par H...' (expected a turn line, a "
               "player line 'X = name', '> date time', '#...' or '...')");
}

TEST_CASE("notation: '...' cannot stand for turns after the moves have ended the game") {
  std::string game = test::read_text(test::data_path("records/baltek/sample-won-2-1.txt"));
  std::string moves = game.substr(0, game.find("#="));
  CHECK(rejection(moves + "...\n") == "line 82: the game is over (B score 2-1): '...' cannot stand for more turns");
  CHECK(rejection("#! BALTEK turns=2\n1   B/   R/\n...\n") ==
        "line 3: the game is over (draw limit 0-0): '...' cannot stand for more turns");
  CHECK(rejection("#! BALTEK turns=1\n1   B/ ...\n") ==
        "line 2: the game is over (draw limit 0-0): '...' cannot stand for more turns");
}

TEST_CASE("notation: integer options go up to the largest int and may have leading zeros") {
  CHECK(accepted("#! BALTEK turns=2147483647\n").options().get("turns") == "2147483647");
  CHECK(rejection("#! BALTEK turns=2147483648\n").rfind("line 1: option turns=2147483648 is not allowed", 0) == 0);
  Record r = accepted("#! BALTEK goals=02\n");
  CHECK(r.options().get("goals") == "2");
  CHECK(r.write() == "#! BALTEK goals=2\n");
}

TEST_CASE("notation: lines starting '#-' or '#=' that are not round or result lines are comments") {
  Record r = accepted("#! BALTEK\n#-- mi-temps --\n#==========\n" + kTwoLines);
  CHECK(r.turn_count() == 4);
  CHECK(r.write().find("#-- mi-temps --\n#==========\n") != std::string::npos);
  CHECK(rejection("#! BALTEK\n#- 2\n") == "line 2: '#- N' lines are only for Batik games and Bi-litaire rounds");
  CHECK(accepted(kTwoLines + "#=R resign\n").result_text() == "R resign 0-0");  // a result without the space
}

TEST_CASE("notation: player lines may leave out the spaces around '=', turn numbers may have many leading zeros") {
  Record r = accepted("#! BALTEK\nB=ann    R =bob\n0000001   B/d5 c5/\n");
  CHECK(r.player('B') == "ann");
  CHECK(r.player('R') == "bob");
  CHECK(r.turn_count() == 1);
  CHECK(rejection("#! BALTEK\n12345678   B/\n") == "line 2: turn number too large");
  // Found by fuzz_record: `B =h = x` was read as B named "h = x", written `B = h = x`, which did not read back.
  CHECK(rejection("#! BALTEK\nB =h = x\n") == "line 2: no name after 'B ='");
  CHECK(rejection("#! BALTEK\nB = h = x\n") == "line 2: no name after 'B ='");
  CHECK(accepted("#! BALTEK\nB =ab=c@d.fr\n").player('B') == "ab=c@d.fr");
}
