// The `cinq` command line: replay (check and show a record), perft (move-generation counts), selfplay, help.
#include "server/cli.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "lobby/json_value.h"
#include "rules/notation.h"
#include "rules/registry.h"
#include "server/selfplay.h"

namespace cinq {

namespace {

constexpr const char* kHelp =
    R"(cinq - a game server for Baltek, Batik, Tablut, Kopf oder Knopf and Bi-litaire

Usage:
  cinq replay [--json] [--canonical] FILE
      Checks a game record (notation.md) by replaying it; FILE '-' reads standard input.
      On a good record: exit 0 and print the game, its options, the number of turns, whether it is
      finished and its result, the side to move, and the final position as an ASCII board.
        --json       the same as one JSON object (with the client view of the position)
        --canonical  the record rewritten by the writer instead
      On a bad record: exit 1 and print 'line N: <reason>' for the first bad line; nothing is kept.
  cinq play FILE TURN
      The referee of a game played by mail: checks TURN (one turn, like 'B/g3 f3/@ c3/') for the side to move
      against the record in FILE and appends it, rewriting FILE in canonical form; prints who is to move or
      the result. A refused turn prints the reason, exits 1 and leaves FILE untouched.
  cinq perft GAME DEPTH [key=value ...]
      Prints the number of action sequences of DEPTH actions from the start position of GAME under
      the given options (a finished game is not expanded further). Timing goes to standard error.
  cinq serve [--port 8080] [--data DIR] [--web DIR] [--address A] [--threads N]
             [--per-address-connections N] [--per-address-rate N]
             [--bot-threads N] [--bot-answer-ms MS] [--bot-pace-ms MS]
      Runs the game server: the browser client (static files from --web, default web-client), the
      WebSocket endpoint /ws, the REST API under /api/ and /metrics (docs/protocol.md). Games are stored
      in DIR/cinq.db (default data/cinq.db); unfinished games are reopened at start. --port 0 picks a
      free port. The per-address limits (64 connections, 100 messages a second; 0 lifts one) are for
      load tests from one host. Computer opponents think on --bot-threads threads of their own
      (default 1); a bot's turn is shown no sooner than --bot-answer-ms (default 400) after the move it
      answers, and --bot-pace-ms (default 600) after the last turn in a computer-vs-computer room.
      Stops cleanly on SIGINT or SIGTERM.
  cinq selfplay GAME N [--level L] [--versus L2] [--out DIR] [--seed S] [--options "key=value ..."]
                [--think-ms MS] [--playouts P] [--jobs J]
      Plays N games between computer players of levels L (default 3) and L2 (default L), 0 (random) to 5,
      swapping seats from game to game; writes each record to DIR/GAME-NNN.txt (default: the current
      directory), prints one line per game and the score of each level. A game still going after 1000
      turns ends in a declared draw (`#= draw limit`; Baltek: `#= draw agreement`).
  cinq games
      Lists the games with their options.
  cinq --help
      This text.

Games are named by their #! name in lower case: baltek, batik, tablut, kopf-oder-knopf, bi-litaire.
Exit status: 0 success, 1 a bad record or a rejected action, 2 a usage error.
)";

int usage(const std::string& why) {
  std::cerr << "cinq: " << why << "\n(see 'cinq --help')\n";
  return 2;
}

bool read_input(const std::string& path, std::string& out) {
  if (path == "-") {
    out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;  // a directory reads as an empty Baltek game
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::string options_text(const Options& o) {
  std::string s;
  for (const auto& [k, v] : o.values()) s += (s.empty() ? "" : " ") + k + "=" + v;
  return s.empty() ? "(none)" : s;
}

// `cinq play FILE TURN`: the referee of a game by mail. The turn is checked against the record in FILE and
// appended; FILE is rewritten in canonical form (through a temporary file and a rename, so an interrupted
// write never leaves half a record). A refused turn changes nothing.
int cmd_play(const std::vector<std::string>& args) {
  if (args.size() != 2) return usage("play needs FILE and one TURN, like: cinq play game.txt 'B/g3 f3/'");
  const std::string& path = args[0];
  std::string text;
  if (path == "-" || !read_input(path, text)) {
    std::cerr << "cinq: cannot read '" << path << "'\n";
    return 2;
  }
  auto record = Record::read(text);
  if (!record) {
    std::cout << path << ": " << record.error().text() << "\n";
    return 1;
  }
  if (record->finished()) {
    std::cout << "the game is over (" << record->result_text() << "): no turn may follow\n";
    return 1;
  }
  auto played = record->play_turn(fold_spaces(args[1]));
  if (!played) {
    std::cout << args[1] << ": " << played.error().message << "\n";
    return 1;
  }
  const std::string tmp = path + ".cinq-tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << record->write();
    if (!out.flush()) {
      std::cerr << "cinq: cannot write '" << tmp << "'\n";
      return 2;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::cerr << "cinq: cannot replace '" << path << "'\n";
    std::remove(tmp.c_str());
    return 2;
  }
  const Record& r = *record;
  if (r.finished())
    std::cout << "played; the game is over: " << r.result_text() << "\n";
  else
    std::cout << "played; " << r.game().side_letter(r.state().to_move()) << " to move\n";
  return 0;
}

int cmd_replay(const std::vector<std::string>& args) {
  bool json = false, canonical = false;
  std::string path;
  for (const auto& a : args) {
    if (a == "--json")
      json = true;
    else if (a == "--canonical")
      canonical = true;
    else if (a.size() > 1 && a[0] == '-' && a != "-")
      return usage("replay: unknown flag '" + a + "'");
    else if (!path.empty())
      return usage("replay takes one FILE");
    else
      path = a;
  }
  if (path.empty()) return usage("replay needs a FILE (or - for standard input)");
  std::string text;
  if (!read_input(path, text)) {
    std::cerr << "cinq: cannot read '" << path << "'\n";
    return 2;
  }
  auto record = Record::read(text);
  if (!record) {
    if (json) {
      nlohmann::json j = {{"ok", false}, {"line", record.error().line}, {"error", record.error().message}};
      std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      std::cout << record.error().text() << "\n";
    }
    return 1;
  }
  const Record& r = *record;
  if (canonical) {
    std::cout << r.write();
    return 0;
  }
  const bool finished = r.finished();
  const std::string to_move = finished ? "" : std::string(1, r.game().side_letter(r.state().to_move()));
  if (json) {
    nlohmann::json options = nlohmann::json::object();
    for (const auto& [k, v] : r.options().values()) options[k] = v;
    nlohmann::json j = {{"ok", true},
                        {"game", std::string(r.game().name())},
                        {"options", options},
                        {"turns", r.turn_count()},
                        {"finished", finished},
                        {"result", finished ? nlohmann::json(r.result_text()) : nlohmann::json(nullptr)},
                        {"to_move", finished ? nlohmann::json(nullptr) : nlohmann::json(to_move)},
                        {"incomplete", r.incomplete()},
                        {"round", r.state().round()},
                        {"board", r.state().ascii()},
                        {"view", to_json(r.state().view())}};
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  std::cout << "game: " << r.game().name() << "\n"
            << "options: " << options_text(r.options()) << "\n"
            << "turns: " << r.turn_count() << "\n"
            << "finished: " << (finished ? "yes" : "no") << "\n";
  if (finished)
    std::cout << "result: " << r.result_text() << "\n";
  else
    std::cout << "to move: " << to_move << "\n";
  if (r.game().has_rounds()) std::cout << "round: " << r.state().round() << "\n";
  if (r.incomplete()) std::cout << "incomplete: yes (the record stops at '...')\n";
  std::cout << "\n" << r.state().ascii();
  return 0;
}

int cmd_perft(const std::vector<std::string>& args) {
  if (args.size() < 2) return usage("perft needs GAME and DEPTH");
  const Game* game = find_game(args[0]);
  if (!game) return usage("unknown game '" + args[0] + "' (" + game_names() + ")");
  int depth = -1;
  try {
    std::size_t used = 0;
    depth = std::stoi(args[1], &used);
    if (used != args[1].size()) depth = -1;
  } catch (...) {
  }
  if (depth < 0 || depth > 12) return usage("DEPTH must be a number from 0 to 12");
  std::string options;
  for (std::size_t i = 2; i < args.size(); ++i) options += args[i] + " ";
  auto state = game->start(options);
  if (!state) return usage(state.error().message);
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t n = game->perft(**state, depth);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << n << std::endl;  // before the timing line on stderr
  std::fprintf(stderr, "perft %s depth %d: %llu in %.3f s (%.0f per second)\n",
               std::string(game->name()).c_str(), depth, static_cast<unsigned long long>(n), secs,
               secs > 0 ? double(n) / secs : 0.0);
  return 0;
}

int cmd_games() {
  for (const Game* g : games()) {
    std::cout << g->name() << " (#! " << g->record_name() << ", sides " << g->side_letter(0) << " "
              << g->side_letter(1) << ")";
    for (const auto& spec : g->option_specs()) std::cout << " " << spec.key << "=" << spec.default_value;
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

int cli_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage("no command");
  const std::string cmd = args.front();
  args.erase(args.begin());
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::cout << kHelp;
    return 0;
  }
  if (cmd == "replay") return cmd_replay(args);
  if (cmd == "perft") return cmd_perft(args);
  if (cmd == "play") return cmd_play(args);
  if (cmd == "games") return cmd_games();
  if (cmd == "selfplay") return selfplay_main(args);
  if (cmd == "serve") return serve_main(args);
  return usage("unknown command '" + cmd + "'");
}

}  // namespace cinq
