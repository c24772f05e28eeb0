// Our Tablut bots against an outside engine (docs/performance.md, "Bots"): cinq_otep runs an
// engine that speaks the OpenTafl Engine Protocol (OTEP) on its standard input and output, as OpenTafl's
// own AI does with `--engine`, and hosts games between it and a level of ours, seats alternating (game 0:
// our bot attacks). This file is only our side of the protocol, the host's; it builds nothing of the
// engine's, which is given by its command line and working directory.
//
// OTEP, as the host speaks it here: the engine says `hello`; we send `rules RULES` (OpenTafl's rules
// record, --rules: by default this project's Tablut, docs/rules/tablut.md); for the engine's turn we send
// `opponent-move MOVE POSITION` (our last move, if any) then `play attackers|defenders`, and it answers
// `move a4-a1` (other lines, `status ...`, are ignored); at the end `finish 1|2|3` and `goodbye`. A fresh
// engine process plays each game. The game's rules are ours: the engine's move is read against our legal
// moves, and a move we do not accept, or no move within --move-timeout seconds, ends the game as a loss
// for the engine, said so on its line.
//
//   cinq_otep --engine "CMD" [--engine-dir DIR] [--levels 1,3] [--games N] [--seed S] [--rules TEXT]
//             [--move-timeout S] [--engine-pause-ms MS] [--max-turns T] [--think-ms MS] [--log FILE]
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/cli_args.h"
#include "bench/ladder_stats.h"
#include "bots/bot.h"
#include "rules/registry.h"
#include "rules/tablut/state.h"

extern char** environ;

namespace {

using namespace cinq;

// docs/rules/tablut.md in OpenTafl's rules record: corner escape, no win by surrounding, attackers first,
// threefold repetition a draw, armed king captured on four sides only (never on the edge), the throne
// hostile to attackers always and to defenders when empty, only the king on throne and corners.
constexpr const char* kOurRules =
    "dim:9 name:Tablut esc:c surf:n atkf:y tfr:d ka:y ks:s kj:n cenh:tcnkm cenhe:tcnkmTCNKM cens:K cors:K "
    "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

// One engine process, its standard input and output as pipes.
class Engine {
 public:
  Engine(const std::string& command, const std::string& dir, std::ofstream* log) : log_(log) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, out[1], 2);
    posix_spawn_file_actions_addclose(&actions, in[1]);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    const std::string line = (dir.empty() ? "" : "cd '" + dir + "' && ") + "exec " + command;
    const char* argv[] = {"/bin/sh", "-c", line.c_str(), nullptr};
    if (posix_spawn(&pid_, "/bin/sh", &actions, nullptr, const_cast<char**>(argv), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~Engine() {
    if (to_ >= 0) close(to_);
    if (from_ >= 0) close(from_);
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  bool started() const { return pid_ > 0; }

  void send(const std::string& line) {
    if (log_) *log_ << "> " << line << "\n";
    const std::string text = line + "\n";
    (void)!write(to_, text.data(), text.size());
  }

  // The next line starting with `word`, other lines skipped; "" after `seconds` or at the end of output.
  std::string expect(const std::string& word, double seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
      for (std::size_t nl; (nl = buffer_.find('\n')) != std::string::npos;) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (log_) *log_ << "< " << line << "\n";
        if (line.rfind(word, 0) == 0) return line;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return {};
      pollfd p{from_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char chunk[4096];
      const ssize_t n = read(from_, chunk, sizeof chunk);
      if (n <= 0) return {};
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string buffer_;
  std::ofstream* log_;
};

std::string square_text(int sq) {
  return std::string(1, static_cast<char>('a' + tablut::column(sq))) + std::to_string(tablut::row(sq) + 1);
}

std::string move_text(Action a) {
  const tablut::Move m = tablut::decode(a);
  return square_text(m.from) + "-" + square_text(m.to);
}

// OpenTafl's position record: ranks from 1 up, runs of empty squares as numbers, attackers `t`,
// defenders `T`, the king `K`.
std::string position_text(const tablut::Board& b) {
  std::string out = "/";
  for (int r = 0; r < tablut::kSize; ++r) {
    int empty = 0;
    for (int c = 0; c < tablut::kSize; ++c) {
      const int p = b.at(r * tablut::kSize + c);
      if (p == tablut::kEmpty) {
        ++empty;
        continue;
      }
      if (empty > 0) out += std::to_string(empty);
      empty = 0;
      out += p == tablut::kAttacker ? 't' : p == tablut::kDefender ? 'T' : 'K';
    }
    if (empty > 0) out += std::to_string(empty);
    out += "/";
  }
  return out;
}

struct Args {
  std::string engine, dir, rules = kOurRules, log;
  std::vector<int> levels{1, 2, 3};
  int games = 10;
  long long seed = 1;
  double move_timeout = 120;
  int pause_ms = 500;
  int max_turns = 1000;
  int think_ms = 0;
};

// One game: 'w', 'd' or 'l' for our bot, and why.
std::pair<char, std::string> play(const Args& a, int level, int index, std::ofstream* log) {
  Engine engine(a.engine, a.dir, log);
  if (!engine.started() || engine.expect("hello", 60).empty()) return {'?', "the engine did not say hello"};
  engine.send("rules " + a.rules);
  auto start = find_game("tablut")->start("");
  std::unique_ptr<State> s = std::move(*start);
  const int ours = index % 2;  // the side our bot holds: 0 attackers
  std::string our_last;
  int turns = 0;
  for (; !s->outcome().over() && turns < a.max_turns; ++turns) {
    const auto& t = static_cast<const tablut::TablutState&>(*s);
    if (s->to_move() == ours) {
      bots::Settings settings = bots::level_settings(level);
      if (a.think_ms > 0) {  // the engine's think time: ours bounded by the same clock, not by a cap
        settings.think = std::chrono::milliseconds(a.think_ms);
        settings.playouts = 0;
        settings.hard_limit = settings.think * 2 + std::chrono::milliseconds(1000);
      }
      settings.seed = static_cast<std::uint64_t>(a.seed) * 1000003 + static_cast<std::uint64_t>(index * 1000 + turns);
      const Action move = bots::choose_turn(*s, settings).actions.front();
      our_last = move_text(move);
      s->apply(move);
      continue;
    }
    if (!our_last.empty()) engine.send("opponent-move " + our_last + " " + position_text(t.board()));
    engine.send(std::string("play ") + (s->to_move() == 0 ? "attackers" : "defenders"));
    const std::string line = engine.expect("move ", a.move_timeout);
    if (line.empty()) return {'w', "the engine gave no move"};
    const std::string text = line.substr(5, line.find_first_of(" x", 5) - 5);
    Action found{};
    bool legal = false;
    for (Action m : s->legal_actions())
      if (move_text(m) == text) found = m, legal = true;
    if (!legal) return {'w', "the engine played " + text + ", not legal here"};
    s->apply(found);
    // OpenTafl's engine goes on with its bookkeeping after it sent its move; a new command at once races
    // with it (and its AI thread dies on a null search tree): give it a moment.
    std::this_thread::sleep_for(std::chrono::milliseconds(a.pause_ms));
  }
  const Outcome o = s->outcome();
  const char code = o.kind == Outcome::Kind::win ? (o.winner == 0 ? '2' : '3') : '1';
  engine.send(std::string("finish ") + code);
  engine.send("goodbye");
  if (o.kind != Outcome::Kind::win) return {'d', o.over() ? o.reason : "turn limit"};
  return {o.winner == ours ? 'w' : 'l', o.reason + " after " + std::to_string(turns) + " turns"};
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  std::string levels = "1,2,3";
  CLI::App app("Our Tablut bots against an engine speaking the OpenTafl Engine Protocol, seats alternating.",
               "cinq_otep");
  app.add_option("--engine", a.engine, "the engine's command line (run by /bin/sh)")->required()->type_name("CMD");
  app.add_option("--engine-dir", a.dir, "the directory the engine runs in")->type_name("DIR");
  app.add_option("--levels", levels, "our levels, each playing --games games")->type_name("L,L")->capture_default_str();
  app.add_option("--games", a.games, "games per level")->type_name("N")->check(CLI::Range(1, 10000))->capture_default_str();
  app.add_option("--seed", a.seed, "our bots' seed")->type_name("S")->check(CLI::NonNegativeNumber)->capture_default_str();
  app.add_option("--rules", a.rules, "the rules record sent to the engine (default: ours in OpenTafl's terms)")
      ->type_name("TEXT");
  app.add_option("--move-timeout", a.move_timeout, "seconds the engine has for a move")
      ->type_name("S")->check(CLI::Range(1.0, 3600.0))->capture_default_str();
  app.add_option("--engine-pause-ms", a.pause_ms, "how long to wait after the engine's move before the next command")
      ->type_name("MS")->check(CLI::Range(0, 60000))->capture_default_str();
  app.add_option("--max-turns", a.max_turns, "a game still going after this many turns is a draw")
      ->type_name("T")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--think-ms", a.think_ms,
                 "our bots' think time a move, instead of their levels' (and no playout cap): the engine's, for a "
                 "match at equal time")
      ->type_name("MS")->check(CLI::Range(0, 60000))->capture_default_str();
  app.add_option("--log", a.log, "write the protocol, both ways, to FILE")->type_name("FILE");
  if (int status = bench::parse_args(app, argc, argv); status >= 0) return status;
  a.levels.clear();
  std::istringstream list(levels);
  for (std::string l; std::getline(list, l, ',');)
    if (!l.empty()) a.levels.push_back(std::stoi(l));
  signal(SIGPIPE, SIG_IGN);
  std::ofstream log;
  if (!a.log.empty()) log.open(a.log);

  std::printf("cinq_otep: rules %s\n", a.rules.c_str());
  std::vector<std::pair<int, bench::Score>> scores;
  for (int level : a.levels) {
    bench::Score score;
    for (int i = 0; i < a.games; ++i) {
      const auto [result, why] = play(a, level, i, log.is_open() ? &log : nullptr);
      std::printf("level %d #%d as %s: %s (%s)\n", level, i, i % 2 == 0 ? "attackers" : "defenders",
                  result == 'w' ? "win" : result == 'l' ? "loss" : result == 'd' ? "draw" : "no game", why.c_str());
      std::fflush(stdout);
      score.wins += result == 'w';
      score.draws += result == 'd';
      score.losses += result == 'l';
    }
    scores.push_back({level, score});
  }
  std::printf("\n%-6s %5s %-9s %7s %-16s %-15s %s\n", "level", "games", "W-D-L", "score", "95% (Wilson)",
              "95% (draws)", "Elo");
  for (const auto& [level, s] : scores) {
    const bench::Interval ci = bench::wilson(s), dci = bench::wilson_with_draws(s);
    std::printf("%-6d %5d %d-%d-%-5d %6.1f%% [%4.1f, %5.1f]  [%4.1f, %5.1f]  %+.0f\n", level, s.games(),
                s.wins, s.draws, s.losses, 100 * s.share(), 100 * ci.low, 100 * ci.high, 100 * dci.low,
                100 * dci.high, bench::elo(s.share()));
  }
  return 0;
}
