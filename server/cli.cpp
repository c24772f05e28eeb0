// The `cinq` command line: replay (check and show a record), play (referee a game by mail), perft
// (move-generation counts), games, tournament simulate (tournament/simulate.h), and the subcommands of the files that add them (serve, selfplay). CLI11
// parses every argument and writes the help.
#include "server/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "lobby/json_value.h"
#include "rules/notation.h"
#include "rules/records_file.h"
#include "lobby/game_table.h"
#include "rules/registry.h"
#include "server/selfplay.h"
#include "server/store_command.h"
#include "server/admin_command.h"
#include "tournament/simulate.h"

namespace cinq {

namespace {

// The help every command shows (`cinq --help`: all of them; `cinq COMMAND --help`: one), written from the
// CLI11 definitions, so the usage lines, options and defaults it shows are the ones parsed:
//
//   cinq replay [--json] [--canonical] FILE
//       Checks a game record ...
//       FILE                        the record (notation.md); '-' reads standard input
//       --json                      ...
constexpr std::size_t kWidth = 100;       // the column text wraps at
constexpr std::size_t kLabelWidth = 30;   // an option's names and value, before its description

// Appends `text` to `out`, whose last line is `column` characters long, breaking lines before `kWidth`
// and indenting the following ones by `indent`; an explicit '\n' in `text` starts a new line. `tail` follows
// as one word, never broken ("(default 8080)").
void wrap(std::string& out, std::size_t column, std::size_t indent, std::string_view text,
          std::string_view tail = {}) {
  std::vector<std::string_view> words;  // "\n" stands for a line break
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    std::size_t end = text[i] == '\n' ? i + 1 : std::min(text.find_first_of(" \n", i), text.size());
    words.push_back(text.substr(i, end - i));
    i = end;
  }
  if (!tail.empty()) words.push_back(tail);
  bool line_start = true;
  for (std::string_view word : words) {
    if (word == "\n" || (!line_start && column + 1 + word.size() > kWidth)) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
      line_start = true;
      if (word == "\n") continue;
    }
    if (!line_start) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    line_start = false;
  }
}

std::string command_name(const CLI::App& app) {
  return app.get_parent() ? "cinq " + app.get_name() : std::string("cinq");
}

bool is_help(const CLI::App& app, const CLI::Option* o) {
  return o == app.get_help_ptr() || o == app.get_help_all_ptr();
}

bool is_flag(const CLI::Option* o) { return !o->get_positional() && o->get_items_expected_max() == 0; }

// An option's value in help: its type name without the checks CLI11 appends to it ("N", not "N:INT in ...").
std::string value_name(const CLI::Option* o) {
  if (!o->get_option_text().empty()) return o->get_option_text();
  std::string name = o->get_type_name();
  return name.substr(0, name.find(':'));
}

// A positional's name in help: its option text if it has one ("key=value"), else its name ("FILE").
std::string positional_name(const CLI::Option* o) {
  return o->get_option_text().empty() ? o->get_name(true, false) : o->get_option_text();
}

// `cinq replay [--json] [--canonical] FILE`: the flags, the positionals, then the options with a value
// (the order the commands were always documented in), wrapped under the command's name.
std::string synopsis(const CLI::App& app, std::size_t indent) {
  std::vector<std::string> flags, positionals, valued;
  for (const CLI::Option* o : app.get_options()) {
    if (is_help(app, o) || o->get_group().empty()) continue;
    if (o->get_positional()) {
      std::string name = positional_name(o);
      if (o->get_expected_max() >= CLI::detail::expected_max_vector_size) name += " ...";
      positionals.push_back(o->get_required() ? name : "[" + name + "]");
    } else if (is_flag(o)) {
      flags.push_back("[" + o->get_name() + "]");
    } else {
      valued.push_back("[" + o->get_name() + " " + value_name(o) + "]");
    }
  }
  if (!app.get_parent()) positionals.push_back("COMMAND [ARGUMENTS]");
  std::string out = command_name(app);
  std::size_t column = indent + out.size();
  for (const auto* part : {&flags, &positionals, &valued}) {
    for (const std::string& item : *part) {
      if (column + 1 + item.size() > kWidth) {
        out += "\n" + std::string(indent + command_name(app).size() + 1, ' ');
        column = indent + command_name(app).size() + 1;
      } else {
        out += ' ';
        ++column;
      }
      out += item;
      column += item.size();
    }
  }
  return out;
}

// One command: its usage line (after `prefix`), what it does, then its positionals and options with their
// defaults.
std::string command_help(const CLI::App& app, std::size_t indent, const std::string& prefix = "") {
  std::string out = std::string(indent, ' ') + prefix + synopsis(app, indent + prefix.size()) + "\n";
  const std::size_t body = indent + 4;
  if (!app.get_description().empty()) {
    out += std::string(body, ' ');
    wrap(out, body, body, app.get_description());
    out += "\n";
  }
  std::vector<const CLI::Option*> options = app.get_options();
  std::stable_partition(options.begin(), options.end(), [](const CLI::Option* o) { return o->get_positional(); });
  for (const CLI::Option* o : options) {
    if (is_help(app, o) || o->get_group().empty()) continue;
    std::string label = o->get_positional() ? positional_name(o) : o->get_name(false, true);
    if (!o->get_positional() && !is_flag(o)) label += " " + value_name(o);
    std::string line = std::string(body, ' ') + label;
    std::size_t column = line.size();
    if (column + 2 > body + kLabelWidth) {
      line += "\n";
      column = 0;
    }
    line += std::string(body + kLabelWidth - column, ' ');
    std::string default_value;
    if (!o->get_positional() && !is_flag(o) && !o->get_default_str().empty())
      default_value = "(default " + o->get_default_str() + ")";
    wrap(line, body + kLabelWidth, body + kLabelWidth, o->get_description(), default_value);
    out += line + "\n";
  }
  return out;
}

class Help : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string, CLI::AppFormatMode) const override {
    const CLI::App* root = app;
    while (root->get_parent()) root = root->get_parent();
    std::string out;
    if (app == root) {
      out += app->get_description() + "\n\nUsage: " + synopsis(*app, 7) +
             "\n       cinq COMMAND --help shows one command.\n\nCommands:\n";
      for (const CLI::App* sub : app->get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
        out += "\n" + command_help(*sub, 2);
    } else {
      out += command_help(*app, 0, "Usage: ");
    }
    out += "\n";
    wrap(out, 0, 0, root->get_footer());
    return out + "\n";
  }
};

// The help's last lines, naming the games of the registry.
std::string footer() {
  return "Games are named by their #! name in lower case: " + game_names() +
         ".\nExit status: 0 success, 1 a bad record or a rejected action, 2 a usage error.";
}

// "cinq - a game server for Tablut, Baltek, ... and Bi-litaire": the registry's games by title.
std::string description() {
  std::string titles;
  const auto& list = games();
  for (std::size_t i = 0; i < list.size(); ++i)
    titles += (i == 0 ? "" : i + 1 == list.size() ? " and " : ", ") + std::string(list[i]->words().title);
  return "cinq - a game server for " + titles;
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

// `cinq play FILE [TURN]`: the referee of a game by mail. TURN, one turn of the side to move, is checked
// against the record in FILE and appended. TURN may also be written as the line a player appends to a mailed
// log, with its number (`4   D/e3 e4/`: the line it opens, or the one it completes for the side that moves
// second; docs/notation.md). Without TURN the turn is already in FILE, appended as its last line, and the
// whole of FILE is checked. Either way FILE is rewritten in canonical form (through a temporary file and a
// rename, so an interrupted write never leaves half a record). A refused turn changes nothing.
struct PlayArgs {
  std::string path;
  std::string turn;
};

// A turn written as a record line: a line number, then the turn.
bool numbered(std::string_view turn) {
  std::size_t digits = 0;
  while (digits < turn.size() && std::isdigit(static_cast<unsigned char>(turn[digits]))) ++digits;
  return digits > 0 && digits < turn.size() && (turn[digits] == ' ' || turn[digits] == '\t');
}

// `record` (read from `text`) with `line` appended as the record's next line, which must hold exactly one
// turn. An error on that line is the turn's: its message without the line number.
Result<Record> append_line(std::string text, const Record& record, const std::string& line) {
  if (!text.empty() && text.back() != '\n') text += '\n';
  const int line_number = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  auto after = Record::read(text + line + "\n");
  if (!after) {
    Error error = after.error();
    if (error.line == line_number) error.line = 0;
    return error;
  }
  if (after->turn_count() != record.turn_count() + 1) return make_error("one turn is expected");
  return after;
}

int cmd_play(const PlayArgs& args) {
  const std::string& path = args.path;
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
  if (args.turn.empty()) {
    // The turn was appended to FILE: it has been read and checked with the rest.
  } else if (record->finished()) {
    std::cout << "the game is over (" << record->result_text() << "): no turn may follow\n";
    return 1;
  } else if (numbered(args.turn)) {
    auto after = append_line(text, *record, args.turn);
    if (!after) {
      std::cout << args.turn << ": " << after.error().text() << "\n";
      return 1;
    }
    record = std::move(after);
  } else if (auto played = record->play_turn(fold_spaces(args.turn)); !played) {
    std::cout << args.turn << ": " << played.error().message << "\n";
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
  const char* done = args.turn.empty() ? "checked" : "played";
  if (r.finished())
    std::cout << done << "; the game is over: " << r.result_text() << "\n";
  else
    std::cout << done << "; " << r.game().side_letter(r.state().to_move()) << " to move\n";
  return 0;
}

struct ReplayArgs {
  std::string path;
  bool json = false;
  bool canonical = false;
};

// One record of FILE read, its error's line made the file's.
Result<Record> read_record(const RecordText& rec) {
  auto record = Record::read(rec.text);
  if (!record && record.error().line > 0)
    return make_error(record.error().message, record.error().line + rec.line - 1);
  return record;
}

std::string dump(const nlohmann::json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// What `cinq replay --json` says of one record, good or bad: the one function for files of one and several.
nlohmann::json replay_json(const Result<Record>& record) {
  if (!record) return {{"ok", false}, {"line", record.error().line}, {"error", record.error().message}};
  const Record& r = *record;
  const bool finished = r.finished();
  const std::string to_move = finished ? "" : std::string(1, r.game().side_letter(r.state().to_move()));
  nlohmann::json options = nlohmann::json::object();
  for (const auto& [k, v] : r.options().values()) options[k] = v;
  return {{"ok", true},
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
}

// What `cinq replay` says of one record: its summary and board, or `line N: reason` after `error_prefix`.
std::string replay_text(const Result<Record>& record, const std::string& error_prefix) {
  if (!record) return error_prefix + record.error().text() + "\n";
  const Record& r = *record;
  std::ostringstream out;
  out << "game: " << r.game().name() << "\n"
      << "options: " << options_text(r.options()) << "\n"
      << "turns: " << r.turn_count() << "\n"
      << "finished: " << (r.finished() ? "yes" : "no") << "\n";
  if (r.finished())
    out << "result: " << r.result_text() << "\n";
  else
    out << "to move: " << r.game().side_letter(r.state().to_move()) << "\n";
  if (r.game().has_rounds()) out << "round: " << r.state().round() << "\n";
  if (r.incomplete()) out << "incomplete: yes (the record stops at '...')\n";
  out << "\n" << r.state().ascii();
  return out.str();
}

// A file of one record prints as it always did. Of several (notation.md, "Several records in one file"):
// every record is replayed, each shown after `== record N (line L) ==` (a blank line between two), or as a
// JSON array of the objects of one, each with "record" (its number) and "start_line"; --canonical prints
// the records rewritten, one blank line between two, so the output is a file of several records again, or,
// when any is bad, only the errors. An error names the record and the file's line.
struct AnalyzeArgs {
  std::string path;
  int depth = analysis::kDefaultDepth;
  std::int64_t think_ms = 0;
  bool json = false;
};

// `cinq analyze`: one record (a file of one, or the first of several is refused: one game at a time), each
// turn evaluated (analysis/analysis.h); a line per turn, or the analysis as the protocol gives it.
int cmd_analyze(const AnalyzeArgs& args) {
  std::string text;
  if (!read_input(args.path, text)) {
    std::cerr << "cinq: cannot read '" << args.path << "'\n";
    return 2;
  }
  auto split = split_records(text);
  if (!split) {
    std::cout << split.error().text() << "\n";
    return 1;
  }
  if (split->size() != 1) {
    std::cout << "FILE: " << split->size() << " records; analyze one game at a time\n";
    return 1;
  }
  auto record = read_record(split->front());
  if (!record) {
    std::cout << record.error().text() << "\n";
    return 1;
  }
  analysis::Settings settings;
  settings.depth = args.depth;
  settings.think_ms = args.think_ms;
  auto result = analysis::analyze(*record, settings);
  if (!result) {
    std::cout << result.error().message << "\n";
    return 1;
  }
  std::cout << (args.json ? dump(analysis::to_json(*result)) : analysis::text_lines(*result));
  return 0;
}

int cmd_replay(const ReplayArgs& args) {
  const std::string& path = args.path;
  const bool json = args.json, canonical = args.canonical;
  std::string text;
  if (!read_input(path, text)) {
    std::cerr << "cinq: cannot read '" << path << "'\n";
    return 2;
  }
  auto split = split_records(text);
  if (!split) {
    std::cout << (json ? dump(replay_json(split.error())) : split.error().text() + "\n");
    return 1;
  }
  if (split->size() == 1) {
    auto record = read_record(split->front());
    if (record && canonical)
      std::cout << record->write();
    else
      std::cout << (json ? dump(replay_json(record)) : replay_text(record, ""));
    return record ? 0 : 1;
  }
  bool all_good = true;
  std::string written;                             // --canonical: the records rewritten, while all are good
  nlohmann::json array = nlohmann::json::array();  // --json: the records' objects
  for (std::size_t k = 0; k < split->size(); ++k) {
    const RecordText& rec = (*split)[k];
    const std::string name = "record " + std::to_string(k + 1);
    auto record = read_record(rec);
    all_good = all_good && record.ok();
    if (canonical && record) {
      if (all_good) written += (k > 0 ? "\n" : "") + record->write();
      continue;
    }
    if (json) {
      nlohmann::json j = replay_json(record);
      j["record"] = k + 1;
      j["start_line"] = rec.line;
      array.push_back(std::move(j));
    } else if (canonical) {
      std::cout << name << ": " << record.error().text() << "\n";
    } else {
      std::cout << (k > 0 ? "\n" : "") << "== " << name << " (line " << rec.line << ") ==\n"
                << replay_text(record, name + ": ");
    }
  }
  if (canonical && all_good)
    std::cout << written;
  else if (json)
    std::cout << dump(array);
  return all_good ? 0 : 1;
}

struct PerftArgs {
  std::string game;
  int depth = 0;
  std::vector<std::string> options;  // key=value
};

int cmd_perft(const CLI::App& command, const PerftArgs& args) {
  const Game* game = find_game(args.game);  // checked by known_game()
  const int depth = args.depth;
  std::string options;
  for (const std::string& o : args.options) options += o + " ";
  auto state = game->start(options);
  if (!state) return usage_error(command, state.error().message);
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t n = game->perft(**state, depth);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << n << std::endl;  // before the timing line on stderr
  std::fprintf(stderr, "perft %s depth %d: %llu in %.3f s (%.0f per second)\n",
               std::string(game->name()).c_str(), depth, static_cast<unsigned long long>(n), secs,
               secs > 0 ? double(n) / secs : 0.0);
  return 0;
}

int cmd_games(bool as_json) {
  if (as_json) {  // the game table, as GET /api/games/table serves it
    std::cout << lobby::game_table_text() << "\n";
    return 0;
  }
  for (const Game* g : games()) {
    std::cout << g->name() << " (#! " << g->record_name() << ", sides " << g->side_letter(0) << " "
              << g->side_letter(1) << ")";
    for (const auto& spec : g->option_specs()) std::cout << " " << spec.key << "=" << spec.default_value;
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

int usage_error(const CLI::App& command, const std::string& why) {
  std::cerr << command_name(command) << ": " << why << "\n";
  if (command.get_parent()) std::cerr << "usage: " << synopsis(command, 7) << "\n";
  std::cerr << "(see '" << command_name(command) << " --help')\n";
  return 2;
}

CLI::Validator known_game() {
  return CLI::Validator(
      [](std::string& name) {
        return find_game(name) ? std::string() : "unknown game '" + name + "' (" + game_names() + ")";
      },
      "", "game");
}

int cli_main(int argc, char** argv) {
  CLI::App app(description(), "cinq");
  app.formatter(std::make_shared<Help>());  // before the subcommands, which take their parent's
  app.footer(footer());
  app.require_subcommand(0, 1);  // none is a usage error below, after an unknown option is named
  std::map<const CLI::App*, Command> commands;

  ReplayArgs replay_args;
  CLI::App* replay = app.add_subcommand(
      "replay",
      "Checks a game record (notation.md) by replaying it. On a good record: exit 0 and print the game, its "
      "options, the number of turns, whether it is finished and its result, the side to move, and the final "
      "position as an ASCII board. On a bad record: exit 1 and print 'line N: <reason>' for the first bad "
      "line; nothing is kept. A FILE of several records, each from its #! line, is replayed record by record: "
      "each is shown after a line '== record N (line L) ==' (L: its #! line in FILE), an error as "
      "'record N: line L: <reason>' with L the line in FILE; exit 0 only when every record is good.");
  replay->add_option("FILE", replay_args.path, "the record or records; '-' reads standard input")->required();
  replay->add_flag("--json", replay_args.json,
                   "the same as one JSON object (with the client view of the position); for several records, a "
                   "JSON array of them, each with its \"record\" number and \"start_line\"");
  replay->add_flag("--canonical", replay_args.canonical,
                   "the record rewritten by the writer instead; several records one blank line apart, or only the "
                   "errors when one is bad");
  commands[replay] = [&] { return cmd_replay(replay_args); };

  PlayArgs play_args;
  CLI::App* play = app.add_subcommand(
      "play",
      "The referee of a game played by mail: checks TURN for the side to move against the record in FILE and "
      "appends it, rewriting FILE in canonical form; prints who is to move or the result. Without TURN, the "
      "turn is the line appended to FILE (notation.md), and FILE is checked and rewritten. A refused turn "
      "prints the reason, exits 1 and leaves FILE untouched.");
  play->add_option("FILE", play_args.path, "the record of the game so far")->required();
  play->add_option("TURN", play_args.turn,
                   "one turn, like 'B/g3 f3/@ c3/', or the line that appends it, like '4 B/g3 f3/@ c3/'");
  commands[play] = [&] { return cmd_play(play_args); };

  AnalyzeArgs analyze_args;
  CLI::App* analyze = app.add_subcommand(
      "analyze",
      "Evaluates every turn of the record in FILE with the strongest bot and prints one line per turn: its "
      "number, side, the turn played, the mover's win chance before it (0 to 1), the best turn found where it "
      "differs (else -) and a mark, mistake (a drop of win chance of 0.10 or more) or blunder (0.20 or more). "
      "The same depth gives the same analysis.");
  analyze->add_option("FILE", analyze_args.path, "one record; '-' reads standard input")->required();
  analyze->add_option("--depth", analyze_args.depth, "the search of bot level D's playouts, 1 to 5")
      ->type_name("D")->check(CLI::Range(analysis::kMinDepth, analysis::kMaxDepth).description(""))
      ->capture_default_str();
  analyze->add_option("--think-ms", analyze_args.think_ms, "a search of MS per turn instead of a depth, 50 to 10000")
      ->type_name("MS")->check(CLI::Range(analysis::kMinThinkMs, analysis::kMaxThinkMs).description(""));
  analyze->add_flag("--json", analyze_args.json, "the analysis as JSON (docs/protocol.md, \"Analysis\")");
  commands[analyze] = [&] { return cmd_analyze(analyze_args); };

  PerftArgs perft_args;
  CLI::App* perft = app.add_subcommand(
      "perft",
      "Prints the number of action sequences of DEPTH actions from the start position of GAME under the "
      "given options (a finished game is not expanded further). Timing goes to standard error.");
  perft->add_option("GAME", perft_args.game, "the game")->required()->check(known_game());
  perft->add_option("DEPTH", perft_args.depth, "0 to 12")->required()->check(CLI::Range(0, 12).description(""));
  perft->add_option("OPTIONS", perft_args.options, "the game's options (see cinq games)")->option_text("key=value");
  commands[perft] = [&] { return cmd_perft(*perft, perft_args); };

  Command serve = add_serve_command(app);  // serve.cpp
  commands[app.get_subcommand("serve")] = std::move(serve);
  Command selfplay = add_selfplay_command(app);  // selfplay.cpp
  commands[app.get_subcommand("selfplay")] = std::move(selfplay);
  Command store = add_store_command(app);  // store_command.cpp
  commands[app.get_subcommand("store")] = std::move(store);
  Command admin = add_admin_command(app);  // admin_command.cpp
  commands[app.get_subcommand("admin")] = std::move(admin);
  Command mail_in = add_mail_in_command(app);  // mail_in_command.cpp
  commands[app.get_subcommand("mail-in")] = std::move(mail_in);

  // `cinq tournament simulate`: the tournament and its games are tournament/simulate.h's; here only the flags.
  tournament::SimulateConfig simulate;
  std::string simulate_action, simulate_format = "swiss";
  long long simulate_seed = 1;
  CLI::App* tour = app.add_subcommand(
      "tournament",
      "simulate: plays a tournament of N bots of level L offline, every game through the rules, and prints each "
      "round's pairings and results (an arena's games as they end, in simulated time), then the standings with "
      "their tie-breaks (Buchholz, Sonneborn-Berger, direct encounter, wins) and the crosstable. The same seed "
      "gives the same tournament.");
  auto range = [](long long min, long long max) { return CLI::Range(min, max).description(""); };
  tour->add_option("simulate", simulate_action, "the action")->required()->check(CLI::IsMember({"simulate"}).description(""));
  tour->add_option("--format", simulate_format, "swiss, roundrobin or arena")
      ->type_name("F")->check(CLI::IsMember({"swiss", "roundrobin", "arena"}).description(""))->capture_default_str();
  tour->add_option("--game", simulate.game, "the game")->type_name("GAME")->required()->check(known_game());
  tour->add_option("--players", simulate.players, "the number of bots, 2 to 1000")
      ->type_name("N")->check(range(2, 1000))->capture_default_str();
  tour->add_option("--rounds", simulate.rounds, "a Swiss's rounds, 1 to 100")
      ->type_name("R")->check(range(1, 100))->capture_default_str();
  tour->add_flag("--double", simulate.double_round_robin, "a round robin of two cycles, sides swapped");
  tour->add_option("--minutes", simulate.minutes, "an arena's length in simulated minutes, 1 to 1440")
      ->type_name("M")->check(range(1, 1440))->capture_default_str();
  tour->add_option("--level", simulate.level, "the bots' level, 0 (random) to 5")
      ->type_name("L")->check(range(0, 5))->capture_default_str();
  tour->add_option("--seed", simulate_seed, "the seed of every game's turns")
      ->type_name("S")->check(range(0, std::numeric_limits<long long>::max()))->capture_default_str();
  tour->add_option("--options", simulate.options, "the game's options, like \"king=armed\"")->type_name("\"key=value ...\"");
  tour->add_flag("--json", simulate.json, "the final state and standings as JSON instead");
  commands[tour] = [&] {
    simulate.format = *tournament::format_named(simulate_format);
    simulate.seed = static_cast<std::uint64_t>(simulate_seed);
    std::string why;
    return tournament::simulate(simulate, std::cout, why) ? 0 : usage_error(*tour, why);
  };

  CLI::App* games = app.add_subcommand("games", "Lists the games with their options and their defaults.");
  bool games_json = false;
  games->add_flag("--json", games_json, "the game table as the server sends it (GET /api/games/table)");
  commands[games] = [&games_json] { return cmd_games(games_json); };

  // `cinq help`: the same as `cinq --help` (not listed).
  CLI::App* help = app.add_subcommand("help", "")->group("");
  commands[help] = [&app] {
    std::cout << app.get_formatter()->make_help(&app, "cinq", CLI::AppFormatMode::Normal);
    return 0;
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, on standard output
    // Every other parse error is a usage error, named after the command being parsed when it was found.
    const CLI::App* in = &app;
    for (const CLI::App* sub : app.get_subcommands()) in = sub;
    return usage_error(*in, e.what());
  }
  for (const auto& [command, run] : commands)
    if (command->parsed()) return run();
  return usage_error(app, "a command is needed: replay, play, analyze, perft, serve, mail-in, selfplay, store, tournament or games");
}

}  // namespace cinq
