// Committed turns per second with the server's durability settings (issue 10): the real store
// (persistence/store.h: SQLite, WAL, synchronous=FULL) on a real file, fed the rows the server writes. The
// server saves a game's whole row, its record growing each turn, once per accepted turn, and announces the
// turn only once that save has committed; so a turn costs one transaction, and its fsync, unless several
// turns share a commit (Store::save_games, the group commit of persistence/saver.h).
//
// Modes: `single` (one save_game per turn), `batch B` (B turns of B different games per save_games).
// The rows are those of G live Tablut games played at random, round-robin, written by the record writer
// (rules/notation.h) with the players and timestamp lines a room adds; a finished game is replaced by a
// new one. Each game starts some turns in (uniform in [0, 100)) and is stored before the clock starts, so
// the rows have the length mix of a server in steady state and a timed save replaces a row, as it does
// there. Only the store's calls are timed: turns/s is turns over the time spent committing, the rate one
// writer thread could sustain.
//
//   cinq_bench_store [--turns N (1000)] [--games G (256)] [--runs K (3)] [--dir DIR (/tmp)]
//                    [--modes single,1,8,64,256] [--seed S] [--json FILE]
#include "persistence/store.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "rules/notation.h"
#include "rules/tablut/tablut.h"

namespace {

namespace fs = std::filesystem;
using cinq::store::Error;
using cinq::store::GameRow;
using Clock = std::chrono::steady_clock;

// Compiles against a store with or without save_games (the group commit came with issue 10).
template <class S>
constexpr bool kHasSaveGames = requires(S& s, const std::vector<GameRow>& rows, Error& e) {
  { s.save_games(rows, e) } -> std::same_as<bool>;
};

template <class S>
bool save_batch(S& store, const std::vector<GameRow>& rows, Error& error) {
  if constexpr (kHasSaveGames<S>) {
    return store.save_games(rows, error);
  } else {
    error.message = "this build's Store has no save_games";
    return false;
  }
}

// A p99 needs some commits: a batch mode makes at least this many, even if that means more than --turns.
constexpr int kMinCommits = 50;

struct Args {
  int turns = 1000;
  int games = 256;
  int runs = 3;
  std::string dir = "/tmp";
  std::vector<int> modes = {0, 1, 8, 64, 256};  // 0: single (save_game); B: save_games of B rows
  std::uint64_t seed = 1;
  std::string json;
};

// G Tablut games in progress, each turn giving the row the server would save after it.
class Traffic {
 public:
  Traffic(int games, std::uint64_t seed) : rng_(seed), slots_(static_cast<std::size_t>(games)) {
    for (Slot& s : slots_) {
      begin(s);
      int skip = std::uniform_int_distribution<int>(0, 99)(rng_);
      for (int i = 0; i < skip; ++i) {
        if (s.record->finished()) begin(s);
        play(s);
      }
    }
  }

  // Every game's row as it stands (stored before timing starts).
  std::vector<GameRow> rows() const {
    std::vector<GameRow> out;
    for (const Slot& s : slots_) out.push_back(row(s));
    return out;
  }

  // The row after the next turn, games taken round-robin.
  GameRow next() {
    Slot& s = slots_[next_++ % slots_.size()];
    if (s.record->finished()) begin(s);
    play(s);
    GameRow r = row(s);
    record_bytes_ += r.record.size();
    return r;
  }

  std::uint64_t record_bytes() const { return record_bytes_; }

 private:
  struct Slot {
    std::string id;
    std::unique_ptr<cinq::Record> record;
    std::int64_t version = 0;
  };

  static std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  void begin(Slot& s) {
    const cinq::Game& game = cinq::tablut::game();
    s.id = "b" + std::to_string(++started_);
    s.record = std::make_unique<cinq::Record>(
        cinq::Record::start(game, *cinq::Options::parse(game.option_specs(), {})));
    auto letters = game.side_letters();
    s.record->add_players({{letters[0], "Player " + std::to_string(started_)}, {letters[1], "Opponent"}});
    s.record->add_timestamp("2025-01-01 12:00:00");
    s.version = 2;
  }

  void play(Slot& s) {
    legal_.clear();
    s.record->state().legal_actions(legal_);
    auto played =
        s.record->play(legal_[std::uniform_int_distribution<std::size_t>(0, legal_.size() - 1)(rng_)]);
    (void)played;  // a legal action: the record takes it
    ++s.version;
  }

  GameRow row(const Slot& s) const {
    GameRow r;
    r.id = s.id;
    r.game = "tablut";
    r.clock_base_ms = 300000;
    r.clock_increment_ms = 3000;
    r.status = s.record->finished() ? "finished" : "live";
    r.result = s.record->result_text();
    r.record = s.record->write();
    r.seat_ids = {"p" + s.id + "x", "p" + s.id + "y"};
    r.seat_names = {"Player", "Opponent"};
    r.clock_ms = {250000, 260000};
    r.version = s.version;
    r.turns = s.record->turn_count();
    r.created_ms = r.updated_ms = now_ms();
    return r;
  }

  std::mt19937_64 rng_;
  std::vector<Slot> slots_;
  std::vector<cinq::Action> legal_;
  std::size_t next_ = 0;
  int started_ = 0;
  std::uint64_t record_bytes_ = 0;
};

struct Figures {
  double turns_per_s = 0;
  double commits_per_s = 0;
  double p50_ms = 0;  // one commit (one save_game, or one save_games of B rows)
  double p99_ms = 0;
  double db_bytes = 0;   // the database file at the end
  double wal_bytes = 0;  // its -wal file (WAL mode checkpoints into the database every 1000 pages)
  double mean_record_bytes = 0;
  double turns = 0;
};

const std::vector<std::pair<const char*, double Figures::*>> kColumns = {
    {"turns_per_s", &Figures::turns_per_s},
    {"commits_per_s", &Figures::commits_per_s},
    {"p50_ms", &Figures::p50_ms},
    {"p99_ms", &Figures::p99_ms},
    {"db_bytes", &Figures::db_bytes},
    {"wal_bytes", &Figures::wal_bytes},
    {"mean_record_bytes", &Figures::mean_record_bytes},
    {"turns", &Figures::turns},
};

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

double bytes_of(const fs::path& p) {
  std::error_code ec;
  auto n = fs::file_size(p, ec);
  return ec ? 0 : static_cast<double>(n);
}

// One run of one mode on a fresh database in a fresh directory under `dir` (removed afterwards).
bool run(const Args& args, int batch, std::uint64_t seed, Figures& f, std::string& why) {
  std::string pattern = (fs::path(args.dir) / "cinq-bench-store-XXXXXX").string();
  if (!mkdtemp(pattern.data())) {
    why = "cannot make a directory under " + args.dir;
    return false;
  }
  fs::path dir = pattern;
  fs::path db = dir / "cinq.db";
  Error error;
  bool ok = [&] {
    auto store = cinq::store::Store::open(db.string(), error);
    if (!store) return false;
    Traffic traffic(args.games, seed);
    std::vector<GameRow> initial = traffic.rows();
    if constexpr (kHasSaveGames<cinq::store::Store>) {
      if (!save_batch(*store, initial, error)) return false;
    } else {
      for (const GameRow& r : initial)
        if (!store->save_game(r, error)) return false;
    }
    std::uint64_t bytes_before = traffic.record_bytes();
    int per_commit = std::max(batch, 1);
    int commits = std::max((args.turns + per_commit - 1) / per_commit, kMinCommits);
    std::vector<double> latencies;
    std::vector<GameRow> rows;
    double total = 0;
    for (int c = 0; c < commits; ++c) {
      rows.clear();
      for (int i = 0; i < per_commit; ++i) rows.push_back(traffic.next());
      auto t0 = Clock::now();
      bool saved = batch == 0 ? store->save_game(rows[0], error) : save_batch(*store, rows, error);
      double s = std::chrono::duration<double>(Clock::now() - t0).count();
      if (!saved) return false;
      total += s;
      latencies.push_back(s * 1e3);
    }
    double turns = static_cast<double>(commits) * per_commit;
    f.turns = turns;
    f.turns_per_s = turns / total;
    f.commits_per_s = commits / total;
    f.p50_ms = quantile(latencies, 0.50);
    f.p99_ms = quantile(latencies, 0.99);
    f.mean_record_bytes = static_cast<double>(traffic.record_bytes() - bytes_before) / turns;
    store.reset();  // closing the last connection checkpoints the WAL into the database
    f.db_bytes = bytes_of(db);
    f.wal_bytes = bytes_of(dir.string() + "/cinq.db-wal");
    return true;
  }();
  why = error.message;
  std::error_code ec;
  fs::remove_all(dir, ec);
  return ok;
}

Figures median(const std::vector<Figures>& runs) {
  Figures m;
  for (const auto& [name, field] : kColumns) {
    std::vector<double> v;
    for (const Figures& f : runs) v.push_back(f.*field);
    m.*field = quantile(v, 0.5);
  }
  return m;
}

nlohmann::json to_json(const Figures& f) {
  nlohmann::json j;
  for (const auto& [name, field] : kColumns) j[name] = f.*field;
  return j;
}

int usage(const std::string& why) {
  std::fprintf(
      stderr,
      "cinq_bench_store: %s\n"
      "usage: cinq_bench_store [--turns N (1000)] [--games G (256)] [--runs K (3)] [--dir DIR (/tmp)]\n"
      "                        [--modes single,1,8,64,256] [--seed S (1)] [--json FILE]\n",
      why.c_str());
  return 2;
}

bool parse_args(int argc, char** argv, Args& args, std::string& why) {
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc) return why = "missing value after " + flag, false;
    std::string value = argv[++i];
    if (flag == "--turns") {
      args.turns = std::max(1, std::stoi(value));
    } else if (flag == "--games") {
      args.games = std::max(1, std::stoi(value));
    } else if (flag == "--runs") {
      args.runs = std::max(1, std::stoi(value));
    } else if (flag == "--dir") {
      args.dir = value;
    } else if (flag == "--seed") {
      args.seed = std::stoull(value);
    } else if (flag == "--json") {
      args.json = value;
    } else if (flag == "--modes") {
      args.modes.clear();
      std::size_t start = 0;
      while (start < value.size()) {
        std::size_t end = std::min(value.find(',', start), value.size());
        std::string m = value.substr(start, end - start);
        args.modes.push_back(m == "single" ? 0 : std::max(1, std::stoi(m)));
        start = end + 1;
      }
    } else {
      return why = "unknown option " + flag, false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  std::string why;
  try {
    if (!parse_args(argc, argv, args, why)) return usage(why);
  } catch (const std::exception&) {
    return usage("a number was expected");
  }
  std::printf("store: %d turns per run, %d Tablut games round-robin, median of %d runs, under %s\n",
              args.turns, args.games, args.runs, args.dir.c_str());
  std::printf("%-8s %10s %10s %9s %9s %12s %10s %9s\n", "mode", "turns/s", "commits/s", "p50 ms", "p99 ms",
              "db bytes", "wal bytes", "record B");
  nlohmann::json out = {{"bench", "store"},  {"turns", args.turns}, {"games", args.games},
                        {"runs", args.runs}, {"dir", args.dir},     {"modes", nlohmann::json::array()}};
  for (int batch : args.modes) {
    std::string name = batch == 0 ? "single" : "batch " + std::to_string(batch);
    if (batch > 0 && !kHasSaveGames<cinq::store::Store>) {
      std::printf("%-8s skipped: this build's Store has no save_games\n", name.c_str());
      continue;
    }
    if (batch > args.games) {
      // The group commit writes a game once per commit: B turns in one commit need B different games.
      std::printf("%-8s skipped: needs --games %d or more\n", name.c_str(), batch);
      continue;
    }
    std::vector<Figures> runs;
    for (int r = 0; r < args.runs; ++r) {
      Figures f;
      if (!run(args, batch, args.seed + static_cast<std::uint64_t>(r), f, why)) {
        std::fprintf(stderr, "cinq_bench_store: %s: %s\n", name.c_str(), why.c_str());
        return 1;
      }
      runs.push_back(f);
    }
    Figures m = median(runs);
    std::printf("%-8s %10.0f %10.1f %9.2f %9.2f %12.0f %10.0f %9.0f\n", name.c_str(), m.turns_per_s,
                m.commits_per_s, m.p50_ms, m.p99_ms, m.db_bytes, m.wal_bytes, m.mean_record_bytes);
    std::fflush(stdout);
    nlohmann::json j = {{"mode", batch == 0 ? "single" : "batch"},
                        {"batch", std::max(batch, 1)},
                        {"median", to_json(m)},
                        {"runs", nlohmann::json::array()}};
    for (const Figures& f : runs) j["runs"].push_back(to_json(f));
    out["modes"].push_back(j);
  }
  if (!args.json.empty()) {
    std::ofstream file(args.json);
    file << out.dump(2) << "\n";
    if (!file) return usage("cannot write " + args.json);
  }
  return 0;
}
