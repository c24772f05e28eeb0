// The bots' ladder (docs/performance.md, "Bots"): in each game, level L against level L-1 for
// every L asked, N games a pair, seats alternating (game 0: L holds seat 0; game 1: seat 1; ...). Prints a
// line per game as it ends, then per pair the wins, draws and losses of the higher level, its score (draws
// count half) with two 95% intervals (Wilson's, a game one trial; and the same weighing the draws, which
// narrow a score's spread: bench/ladder_stats.h), the Elo difference with the first interval's bounds, and
// each level's measured think time per turn (the whole turn, every action of it) against its stated time:
// the median and 99th percentile of the wall time, and the longest CPU time (a pause of the run, or a
// wait for a core, lengthens the wall time of a turn, not its CPU time).
//
// Resumable: with --results FILE every finished game is appended to FILE as one line, and a later run with
// the same FILE, --seed and options plays only the games not in it (then reports them all). A run may be
// stopped at any time; at most the games under way are lost. Run by hand, never by ctest:
//
//   cinq_ladder [--games a,b] [--levels 1,2,3] [--games-per-pair N] [--jobs J] [--seed S]
//               [--results FILE] [--options GAME:TEXT]... [--max-turns T] [--shard K/N] [--report-only]
//               [--lower-tree]
//
// --lower-tree pairs each level with itself searching with the tree only (bots::Settings::own_search off):
// Tablut's level 5, an alpha-beta search, against the tree search it replaced.
//
// Reports read every --results FILE given (comma-separated), so shards run side by side are reported
// together.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/cli_args.h"
#include "bench/ladder_stats.h"
#include "bench/measure.h"
#include "bots/bot.h"
#include "rules/registry.h"

namespace {

using namespace cinq;
using bench::quantile;
using bench::Score;

struct Args {
  std::vector<std::string> games;  // empty: all
  std::vector<int> levels{1, 2, 3, 4, 5};
  int per_pair = 20;
  int jobs = 1;
  long long seed = 1;
  std::string results;
  std::map<std::string, std::string> options;  // per game; default: the game's defaults, Batik match=off
  int max_turns = 1000;
  bool report_only = false;
  int shard = 0, shards = 1;  // this run plays the games whose index % shards == shard
  bool lower_tree = false;     // the lower side is the higher level searching with the tree only
};

// One game of the ladder, the higher level's point of view.
struct Game1 {
  std::string game;
  std::string options;  // as on the #! line, "" for the defaults
  int high = 0;         // the higher level; the other is high - 1
  int index = 0;        // 0..N-1; even: the higher level holds seat 0
  bool tree = false;    // --lower-tree: the lower side is level `high` with the tree only, not high - 1
  // Filled once played.
  char result = '?';    // 'w', 'd', 'l' for the higher level
  std::string reason;
  int turns = 0;
  double seconds = 0;
  std::vector<double> ms[2];   // per-turn think time (wall), [0] the higher level's, [1] the lower's
  std::vector<double> cpu[2];  // the same turns' CPU time: unlike the wall, not counting a pause
};

std::uint64_t mix(std::uint64_t x) {  // splitmix64: well-spread seeds from one --seed
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t hash_of(const std::string& s) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

// Options travel in the results file as one word: spaces become commas, nothing becomes '-'.
std::string word_of(std::string text) {
  std::replace(text.begin(), text.end(), ' ', ',');
  return text.empty() ? "-" : text;
}

std::string key_of(const Game1& g) {
  return g.game + " " + word_of(g.options) + " " + std::to_string(g.high) + (g.tree ? "t " : " ") +
         std::to_string(g.index);
}

void play(Game1& g, std::uint64_t seed, int max_turns) {
  const Game& game = *find_game(g.game);
  auto start = game.start(g.options);
  std::unique_ptr<State> s = std::move(*start);
  const int high_seat = g.index % 2 == 0 ? 0 : 1;
  const std::uint64_t game_seed =
      mix(seed ^ mix(hash_of(g.game + "|" + g.options) ^ (std::uint64_t(g.high) << 40) ^ std::uint64_t(g.index)));
  const auto t0 = std::chrono::steady_clock::now();
  int turns = 0;
  for (; !s->outcome().over() && turns < max_turns; ++turns) {
    const int seat = s->seat_of(s->to_move());
    const int who = seat == high_seat ? 0 : 1;
    bots::Settings settings = bots::level_settings(who == 0 || g.tree ? g.high : g.high - 1);
    if (who == 1 && g.tree) settings.own_search = false;
    settings.seed = mix(game_seed ^ std::uint64_t(turns));
    const double cpu0 = bench::thread_cpu_ms();
    const bots::Turn turn = bots::choose_turn(*s, settings);
    g.cpu[who].push_back(bench::thread_cpu_ms() - cpu0);
    g.ms[who].push_back(turn.elapsed.count() / 1000.0);
    for (Action a : turn.actions) s->apply(a);
  }
  g.turns = turns;
  g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Outcome o = s->outcome();
  if (o.kind == Outcome::Kind::win) {
    g.result = o.winner == high_seat ? 'w' : 'l';
    g.reason = o.reason;
  } else {
    g.result = 'd';
    g.reason = o.over() ? o.reason : "limit";
  }
}

std::string line_of(const Game1& g, long long seed) {
  std::ostringstream out;
  out << "seed=" << seed << " game=" << g.game << " options=" << word_of(g.options) << " high=" << g.high
      << " index=" << g.index << (g.tree ? " low=tree" : "") << " result=" << g.result << " reason=" << (g.reason.empty() ? "-" : g.reason)
      << " turns=" << g.turns << " seconds=" << g.seconds;
  for (int list = 0; list < 4; ++list) {
    static constexpr const char* kNames[] = {" high_ms=", " low_ms=", " high_cpu=", " low_cpu="};
    const std::vector<double>& v = list < 2 ? g.ms[list] : g.cpu[list - 2];
    out << kNames[list];
    for (std::size_t i = 0; i < v.size(); ++i) {
      char t[32];
      std::snprintf(t, sizeof t, "%s%.1f", i ? "," : "", v[i]);
      out << t;
    }
  }
  return out.str();
}

// Reads the games of `seed` back from a results file; lines of another seed are kept but not counted.
std::vector<Game1> read_results(const std::string& path, long long seed) {
  std::vector<Game1> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::map<std::string, std::string> kv;
    for (std::string w; words >> w;)
      if (auto eq = w.find('='); eq != std::string::npos) kv[w.substr(0, eq)] = w.substr(eq + 1);
    if (kv["seed"] != std::to_string(seed) || kv["game"].empty()) continue;
    Game1 g;
    g.game = kv["game"];
    g.options = kv["options"] == "-" ? "" : kv["options"];
    std::replace(g.options.begin(), g.options.end(), ',', ' ');
    g.high = std::stoi(kv["high"]);
    g.index = std::stoi(kv["index"]);
    g.tree = kv["low"] == "tree";
    g.result = kv["result"].empty() ? '?' : kv["result"][0];
    g.reason = kv["reason"];
    g.turns = std::stoi(kv["turns"]);
    g.seconds = std::stod(kv["seconds"]);
    for (int list = 0; list < 4; ++list) {
      static constexpr const char* kNames[] = {"high_ms", "low_ms", "high_cpu", "low_cpu"};
      std::vector<double>& v = list < 2 ? g.ms[list] : g.cpu[list - 2];
      std::istringstream text(kv[kNames[list]]);
      for (std::string t; std::getline(text, t, ',');)
        if (!t.empty()) v.push_back(std::stod(t));
    }
    out.push_back(std::move(g));
  }
  return out;
}

std::string elo_text(double e) {
  if (std::isinf(e)) return e > 0 ? "+inf" : "-inf";
  char t[16];
  std::snprintf(t, sizeof t, "%+.0f", e);
  return t;
}

void report(const std::vector<Game1>& done, const Args& a) {
  // Per pair (game, options, high), in the order games and levels were asked.
  std::printf("\n%-15s %-5s %5s %-10s %6s %-15s %-14s %6s %-14s %-32s %s\n", "game", "pair", "games",
              "W-D-L", "score", "95% (Wilson)", "95% (draws)", "Elo", "Elo 95%",
              "think L: median/p99/max CPU (stated)", "think L-1");
  for (const Game* game : games()) {
    const std::string name(game->name());
    if (!a.games.empty() && std::find(a.games.begin(), a.games.end(), name) == a.games.end()) continue;
    for (int high : a.levels) {
      Score score;
      std::vector<double> ms[2], cpu[2];
      const std::string opts = a.options.count(name) ? a.options.at(name) : "";
      for (const Game1& g : done) {
        if (g.game != name || g.options != opts || g.high != high || g.tree != a.lower_tree) continue;
        score.wins += g.result == 'w';
        score.draws += g.result == 'd';
        score.losses += g.result == 'l';
        for (int who = 0; who < 2; ++who) {
          ms[who].insert(ms[who].end(), g.ms[who].begin(), g.ms[who].end());
          cpu[who].insert(cpu[who].end(), g.cpu[who].begin(), g.cpu[who].end());
        }
      }
      if (score.games() == 0) continue;
      const bench::Interval ci = bench::wilson(score), dci = bench::wilson_with_draws(score);
      char wdl[24], pair[24], think[2][64];
      std::snprintf(wdl, sizeof wdl, "%d-%d-%d", score.wins, score.draws, score.losses);
      std::snprintf(pair, sizeof pair, a.lower_tree ? "%d-%dt" : "%d-%d", high, a.lower_tree ? high : high - 1);
      for (int who = 0; who < 2; ++who) {
        const auto stated = bots::level_settings(a.lower_tree ? high : high - who).think;
        std::snprintf(think[who], sizeof think[who], "%.0f/%.0f/%.0f ms (%d)", quantile(ms[who], 0.5),
                      quantile(ms[who], 0.99), quantile(cpu[who], 1.0), static_cast<int>(stated.count()));
      }
      std::printf("%-15s %-5s %5d %-10s %5.1f%% [%4.1f, %5.1f]  [%4.1f, %5.1f]  %6s [%s, %s] %-32s %s\n",
                  name.c_str(), pair, score.games(), wdl, 100 * score.share(), 100 * ci.low, 100 * ci.high,
                  100 * dci.low, 100 * dci.high,
                  elo_text(bench::elo(score.share())).c_str(), elo_text(bench::elo(ci.low)).c_str(),
                  elo_text(bench::elo(ci.high)).c_str(), think[0], think[1]);
    }
  }
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; std::getline(in, w, ',');)
    if (!w.empty()) out.push_back(w);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  std::string games_text, levels_text = "1,2,3,4,5";
  std::vector<std::string> options;
  CLI::App app("The bots' ladder: level L against level L-1 in each game, seats alternating; the score "
               "with 95% intervals (Wilson's, and one weighing the draws), the Elo difference, and the think "
               "time per turn.",
               "cinq_ladder");
  app.add_option("--games", games_text, "only these games, like tablut,batik (default: all)")->type_name("a,b");
  app.add_option("--levels", levels_text, "the higher levels L of the pairs L vs L-1, 1 to 5")
      ->type_name("L,L")->capture_default_str();
  app.add_option("--games-per-pair", a.per_pair, "games of each pair, in each game")
      ->type_name("N")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--jobs", a.jobs, "games played at once (the bots think on these threads)")
      ->type_name("J")->check(CLI::Range(1, 64))->capture_default_str();
  app.add_option("--seed", a.seed, "the seed of every game's and turn's random choices")
      ->type_name("S")->check(CLI::NonNegativeNumber)->capture_default_str();
  app.add_option("--results", a.results, "append each game to FILE; games already in it (or in the other "
                                         "files listed, which are only read) are not played again")
      ->type_name("FILE[,FILE]");
  app.add_option("--options", options, "a game's options, like batik:match=on (default: the game's own, "
                                       "but batik:match=off: one game, not a match)")
      ->type_name("GAME:TEXT");
  app.add_option("--max-turns", a.max_turns, "a game still going after this many turns is a draw")
      ->type_name("T")->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_flag("--lower-tree", a.lower_tree,
               "pair each level L with itself searching with the tree only (L-Lt): a game's own search for a "
               "level (Tablut's level 5) against the tree it replaced");
  app.add_flag("--report-only", a.report_only, "play nothing: report the games in --results");
  std::string shard;
  app.add_option("--shard", shard, "play only the games whose index is K modulo N: N processes side by side "
                                   "(Batik's simulations run one at a time in a process), each its own --results")
      ->type_name("K/N");
  if (int status = bench::parse_args(app, argc, argv); status >= 0) return status;

  a.games = split(games_text);
  for (const std::string& g : a.games)
    if (!find_game(g)) return std::fprintf(stderr, "cinq_ladder: unknown game '%s'\n", g.c_str()), 2;
  a.levels.clear();
  for (const std::string& l : split(levels_text)) {
    const int level = std::atoi(l.c_str());
    if (level < 1 || level > bots::kMaxLevel)
      return std::fprintf(stderr, "cinq_ladder: --levels: '%s' is not 1 to %d\n", l.c_str(), bots::kMaxLevel), 2;
    a.levels.push_back(level);
  }
  if (!shard.empty() && (std::sscanf(shard.c_str(), "%d/%d", &a.shard, &a.shards) != 2 || a.shards < 1 ||
                         a.shard < 0 || a.shard >= a.shards))
    return std::fprintf(stderr, "cinq_ladder: --shard '%s' is not K/N with 0 <= K < N\n", shard.c_str()), 2;
  a.options["batik"] = "match=off";
  for (const std::string& o : options) {
    const auto colon = o.find(':');
    const Game* g = colon == std::string::npos ? nullptr : find_game(o.substr(0, colon));
    if (!g || !g->start(o.substr(colon + 1)))
      return std::fprintf(stderr, "cinq_ladder: --options '%s': not GAME:OPTIONS of a game\n", o.c_str()), 2;
    a.options[o.substr(0, colon)] = o.substr(colon + 1);
  }

  // The first --results file is appended to; every one is read. A game found twice (shards whose runs
  // overlapped played it twice) counts once, as first found.
  const std::vector<std::string> files = split(a.results);
  std::vector<Game1> done;
  std::set<std::string> have;
  for (const std::string& f : files)
    for (const Game1& g : read_results(f, a.seed))
      if (have.insert(key_of(g)).second) done.push_back(g);
  std::vector<Game1> todo;
  for (const Game* game : games()) {
    const std::string name(game->name());
    if (!a.games.empty() && std::find(a.games.begin(), a.games.end(), name) == a.games.end()) continue;
    for (int high : a.levels)
      for (int i = 0; i < a.per_pair; ++i) {
        if (i % a.shards != a.shard) continue;
        Game1 g;
        g.game = name;
        g.options = a.options.count(name) ? a.options[name] : "";
        g.high = high;
        g.index = i;
        g.tree = a.lower_tree;
        if (!have.count(key_of(g)) && !a.report_only) todo.push_back(g);
      }
  }
  std::printf("cinq_ladder: seed %lld, %zu games already in the results, %zu to play on %d thread(s)\n", a.seed,
              done.size(), todo.size(), a.jobs);
  std::fflush(stdout);

  std::mutex lock;
  std::ofstream results;
  if (!files.empty()) results.open(files.front(), std::ios::app);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < todo.size();) {
      Game1 g = todo[i];
      play(g, static_cast<std::uint64_t>(a.seed), a.max_turns);
      std::lock_guard guard(lock);
      std::printf("%-15s L%d vs L%d%s #%-3d L%d in seat %d: %-4s (%s) %4d turns %7.1f s\n", g.game.c_str(), g.high,
                  g.tree ? g.high : g.high - 1, g.tree ? "t" : " ", g.index, g.high, g.index % 2, g.result == 'w' ? "win" : g.result == 'l' ? "loss" : "draw",
                  g.reason.c_str(), g.turns, g.seconds);
      std::fflush(stdout);
      if (results.is_open()) results << line_of(g, a.seed) << std::endl;
      done.push_back(std::move(g));
    }
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < std::min<int>(a.jobs, static_cast<int>(todo.size())); ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  report(done, a);
  return 0;
}
