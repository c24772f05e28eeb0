// Committed turns per second early and late in the same games: the real store
// (persistence/store.h: SQLite, WAL, synchronous=FULL) on a real file, or the PostgreSQL store of --store,
// fed through the real Saver (group commit, persistence/saver.h) on its own Worker thread, as the
// server runs them. The server saves a room after every accepted turn and announces the turn once the save
// has committed; a save holds only what changed (lobby::Room::take_save): the turn's record entry and the
// game's progress, and the games row only when a queried column changed. So a commit should cost the same at
// ply 10 and at ply 300.
//
// G live Tablut games (clock 5+3, two players, a players and a timestamp line, as a room writes them) are
// created and stored. Then, for each ply P of --plies (ascending): every game is brought to ply P, its turns
// saved as they go (untimed), and --turns turns are timed, the games taken round-robin. Random play avoids
// actions that end the game, so the same games reach the last ply (a game that cannot go on is replaced by
// a new one brought to the same ply, and counted). The database also holds --background other games in
// progress (0 to 400 turns each, stored once, untouched after), and every game has a random id as a room
// does: as in a server's store, each game's last entries share their page with other games' entries, at
// ply 10 as at ply 300 (in a database of the G games alone, ply 10 would fit every game's entries in a few
// pages, which no server sees).
//
// Modes: `single` (one turn per commit: queued, committed, acknowledged, then the next), `batch B` (B turns of
// B different games queued while the writer is held, so that they share one commit, as under load). The saves
// are built from each game's Record as Room::take_save builds them (entries from the first that may have
// changed, the progress, the base version). Only the commits are timed (the Saver's observer: the time in
// Store::save), so turns/s is the rate one writer thread could sustain.
//
// Every run starts from an empty store and leaves nothing behind. Without --store: a new SQLite file in a new
// directory under --dir. With --store: `sqlite:PATH` (or a bare PATH) is a SQLite file that must not exist,
// made and removed by each run; `postgresql://USER:PASSWORD@HOST:PORT/DB` is a database that must exist, in
// which each run creates a new schema (cinq_bench_PID_N: the user needs CREATE on the database), opens the
// store with `options=-csearch_path=` that schema, and drops it at the end (a run killed midway leaves its
// schema: DROP SCHEMA ... CASCADE). The URI must carry no `options` of its own. Nothing else in the database
// is read or changed.
//
//   cinq_bench_store [--turns N (1000)] [--games G (256)] [--background N (1024)] [--runs K (3)]
//                    [--dir DIR (/tmp)] [--store SPEC] [--modes single,8,64,256] [--plies 10,300]
//                    [--seed S (1)] [--json FILE]
#include <libpq-fe.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench/cli_args.h"
#include "bench/measure.h"
#include "persistence/saver.h"
#include "persistence/store.h"
#include "persistence/worker.h"
#include "rules/notation.h"
#include "rules/tablut/tablut.h"

namespace {

namespace fs = std::filesystem;
using cinq::bench::quantile;
using cinq::store::Error;
using cinq::store::GameSave;

// A p99 needs some commits: a batch mode makes at least this many per ply, even if that means more than
// --turns (and more turns per game: the plies measured then run from P to P + commits).
constexpr int kMinCommits = 20;

struct Args {
  int turns = 1000;
  int games = 256;
  int background = 1024;
  int runs = 3;
  std::string dir = "/tmp";
  std::string store;  // "": a SQLite file under `dir`
  std::vector<int> modes = {0, 8, 64, 256};  // 0: single; B: B saves per commit
  std::vector<int> plies = {10, 300};
  std::uint64_t seed = 1;
  std::string json;
};

// A room id: random base62, as the server draws them.
std::string random_id(std::mt19937_64& rng) {
  static constexpr char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::string id(10, '0');
  for (char& c : id) c = kAlphabet[std::uniform_int_distribution<int>(0, 61)(rng)];
  return id;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The Saver on its Worker, with the commits it made: how many game saves each held, and how long it took.
class Writer {
 public:
  explicit Writer(cinq::store::Store& store)
      : worker_("bench-writer"), saver_(store, worker_, [this](std::size_t games, double seconds) {
          std::lock_guard lock(mutex_);
          commits_.push_back({games, seconds});
        }) {}
  ~Writer() { worker_.stop(); }  // every commit job has run before the Saver goes

  // Queues `saves` (the writer held until all are queued when `together`) and waits for every one's commit.
  bool commit(std::vector<GameSave>& saves, bool together, std::string& why) {
    std::promise<void> gate;
    if (together) worker_.post([f = gate.get_future().share()] { f.wait(); });
    std::size_t left = saves.size();
    bool ok = true;
    std::mutex m;
    std::condition_variable cv;
    for (GameSave& s : saves) {
      bool queued = saver_.save(std::move(s), [&](bool done_ok, const std::string& error) {
        std::lock_guard lock(m);
        if (!done_ok) ok = false, why = error;
        if (--left == 0) cv.notify_all();
      });
      if (!queued) return why = "the writer stopped", false;
    }
    if (together) gate.set_value();
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return left == 0; });
    return ok;
  }

  struct Commit {
    std::size_t games = 0;
    double seconds = 0;
  };
  std::vector<Commit> take_commits() {
    std::lock_guard lock(mutex_);
    return std::exchange(commits_, {});
  }

 private:
  cinq::store::Worker worker_;
  cinq::store::Saver saver_;
  std::mutex mutex_;
  std::vector<Commit> commits_;
};

// G Tablut games in progress, each turn giving the save a room would hand out after it.
class Traffic {
 public:
  Traffic(int games, std::uint64_t seed) : rng_(seed), slots_(static_cast<std::size_t>(games)) {
    for (Slot& s : slots_) begin(s);
  }

  std::size_t games() const { return slots_.size(); }
  int ply(std::size_t i) const { return slots_[i].record->turn_count(); }
  int replaced() const { return replaced_; }
  std::uint64_t entry_bytes() const { return entry_bytes_; }

  // Every game's first save (a new room's: whole).
  std::vector<GameSave> first_saves() {
    std::vector<GameSave> out;
    for (Slot& s : slots_) out.push_back(save(s));
    return out;
  }

  // Game `i` plays one turn; its save.
  GameSave turn(std::size_t i) {
    Slot& s = slots_[i];
    if (!play(s)) {
      // Every action would end it: a new game, brought to the same ply, stored whole.
      const int ply = s.record->turn_count();
      begin(s);
      while (s.record->turn_count() < ply)
        if (!play(s)) break;
      ++replaced_;
      return save(s);
    }
    GameSave g = save(s);
    for (const auto& e : g.entries) entry_bytes_ += e.size();
    return g;
  }

 private:
  struct Slot {
    std::string id;
    std::unique_ptr<cinq::Record> record;
    std::int64_t version = 0;
    bool handed = false;  // a save was handed out (what Room::take_save remembers)
    std::int64_t handed_version = 0;
    std::size_t stable = 0;
    std::int64_t created_ms = 0;
  };

  void begin(Slot& s) {
    const cinq::Game& game = cinq::tablut::game();
    s = Slot{};
    s.id = random_id(rng_);
    ++started_;
    s.record = std::make_unique<cinq::Record>(
        cinq::Record::start(game, *cinq::Options::parse(game.option_specs(), {})));
    auto letters = game.side_letters();
    s.record->add_players({{letters[0], "Player " + std::to_string(started_)}, {letters[1], "Opponent"}});
    s.record->add_timestamp("2026-01-01 12:00:00");
    s.version = 3;  // two seated events and `started`
    s.created_ms = now_ms();
  }

  // A random legal action that does not end the game; false if there is none (nothing played).
  bool play(Slot& s) {
    const cinq::State& st = s.record->state();
    legal_.clear();
    st.legal_actions(legal_);
    std::shuffle(legal_.begin(), legal_.end(), rng_);
    for (cinq::Action a : legal_) {
      auto trial = st.clone();
      trial->apply(a);
      if (trial->outcome().over()) continue;
      auto played = s.record->play(a);
      (void)played;  // a legal action: the record takes it
      ++s.version;
      return true;
    }
    return false;
  }

  GameSave save(Slot& s) {
    GameSave g;
    g.row.id = s.id;
    g.row.game = "tablut";
    g.row.clock_base_ms = 300000;
    g.row.clock_increment_ms = 3000;
    g.row.status = "live";
    g.row.seat_ids = {"p" + s.id + "x", "p" + s.id + "y"};
    g.row.seat_names = {"Player", "Opponent"};
    g.row.clock_ms = {250000 - s.record->turn_count(), 260000 - s.record->turn_count()};
    g.row.version = s.version;
    g.row.turns = s.record->turn_count();
    g.row.created_ms = s.created_ms;
    g.row.updated_ms = now_ms();
    g.row.record = s.record->header_line();
    // As Room::take_save: the columns did not change (a turn of a live clock game), the entries from the
    // first that may have changed, the version the store holds.
    g.write_row = !s.handed;
    g.from = s.handed ? static_cast<std::int64_t>(s.stable) : 0;
    g.entries = s.record->entry_texts(static_cast<std::size_t>(g.from));
    if (s.handed) g.base_version = s.handed_version;
    s.handed = true;
    s.handed_version = s.version;
    s.stable = s.record->entries().size();  // Tablut turns are one action: never open
    return g;
  }

  std::mt19937_64 rng_;
  std::vector<Slot> slots_;
  std::vector<cinq::Action> legal_;
  int started_ = 0;
  int replaced_ = 0;
  std::uint64_t entry_bytes_ = 0;
};

struct Figures {
  double turns_per_s = 0;
  double commits_per_s = 0;
  double p50_ms = 0;  // one commit
  double p99_ms = 0;
  double mean_ply = 0;  // of the turns timed
  double entry_bytes = 0;  // record entry text per timed turn
  double turns = 0;
};

const std::vector<std::pair<const char*, double Figures::*>> kColumns = {
    {"turns_per_s", &Figures::turns_per_s}, {"commits_per_s", &Figures::commits_per_s},
    {"p50_ms", &Figures::p50_ms},           {"p99_ms", &Figures::p99_ms},
    {"mean_ply", &Figures::mean_ply},       {"entry_bytes", &Figures::entry_bytes},
    {"turns", &Figures::turns},
};

struct Run {
  std::vector<Figures> at;  // one per --plies
  double db_bytes = 0;
  double replaced = 0;
};

double bytes_of(const fs::path& p) {
  std::error_code ec;
  auto n = fs::file_size(p, ec);
  return ec ? 0 : static_cast<double>(n);
}

bool is_postgres(const std::string& spec) {
  std::string scheme = spec.substr(0, spec.find("://") == std::string::npos ? 0 : spec.find("://") + 3);
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return scheme == "postgresql://" || scheme == "postgres://";
}

// The SQLite path of a --store spec that is not PostgreSQL.
std::string sqlite_path(const std::string& spec) { return spec.rfind("sqlite:", 0) == 0 ? spec.substr(7) : spec; }

// SQL on the PostgreSQL database `uri`, through a connection of the bench's own (not the store's): false and
// `why` if it fails; the first column of the first row in `value` (if any).
bool pg_exec(const std::string& uri, const std::string& sql, std::string& why, std::string* value = nullptr) {
  PGconn* conn = PQconnectdb(uri.c_str());
  bool ok = PQstatus(conn) == CONNECTION_OK;
  if (!ok) {
    why = "connecting to " + cinq::store::Store::describe(uri) + ": " + PQerrorMessage(conn);
  } else {
    PQsetNoticeProcessor(conn, [](void*, const char*) {}, nullptr);
    PGresult* r = PQexec(conn, sql.c_str());
    ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok) why = sql + ": " + PQresultErrorMessage(r);
    if (ok && value != nullptr && PQntuples(r) > 0 && !PQgetisnull(r, 0, 0)) *value = PQgetvalue(r, 0, 0);
    PQclear(r);
  }
  PQfinish(conn);
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
  return ok;
}

// Where one run stores, empty at its start and removed at its end (the header comment): a new directory under
// --dir, the SQLite file of --store, or a new schema of --store's PostgreSQL database.
class Place {
 public:
  explicit Place(const Args& args) : args_(args) {}
  ~Place() { remove(); }
  Place(const Place&) = delete;
  Place& operator=(const Place&) = delete;

  // Makes it; the store's spec in `spec`.
  bool make(std::string& spec, std::string& why) {
    if (args_.store.empty()) {
      std::string pattern = (fs::path(args_.dir) / "cinq-bench-store-XXXXXX").string();
      if (!mkdtemp(pattern.data())) return why = "cannot make a directory under " + args_.dir, false;
      dir_ = pattern;
      spec = (dir_ / "cinq.db").string();
      return true;
    }
    if (!is_postgres(args_.store)) {
      const fs::path file = sqlite_path(args_.store);
      std::error_code ec;
      if (fs::exists(file, ec)) return why = file.string() + " exists: --store needs a file that does not", false;
      file_ = file;
      spec = args_.store;
      return true;
    }
    static int serial = 0;
    const std::string name = "cinq_bench_" + std::to_string(::getpid()) + "_" + std::to_string(++serial);
    if (!pg_exec(args_.store, "CREATE SCHEMA " + name, why)) return false;
    schema_ = name;
    // libpq's URI: options=-csearch_path=SCHEMA, percent-encoded.
    spec = args_.store + (args_.store.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + name;
    return true;
  }

  // The store's size once it is closed: the SQLite file, or the schema's tables with their indexes.
  double bytes() const {
    if (!schema_.empty()) {
      std::string why, value;
      pg_exec(args_.store,
              "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n"
              " ON n.oid = c.relnamespace WHERE n.nspname = '" + schema_ + "' AND c.relkind = 'r'",
              why, &value);
      return std::atof(value.c_str());
    }
    return bytes_of(!file_.empty() ? file_ : dir_ / "cinq.db");
  }

 private:
  void remove() {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
    if (!file_.empty())
      for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(file_.string() + suffix, ec);
    if (!schema_.empty()) {
      std::string why;
      if (!pg_exec(args_.store, "DROP SCHEMA " + schema_ + " CASCADE", why))
        std::fprintf(stderr, "cinq_bench_store: %s\n", why.c_str());
    }
  }

  const Args& args_;
  fs::path dir_, file_;
  std::string schema_;
};

// One run of one mode on a fresh store (removed afterwards).
bool run(const Args& args, int batch, std::uint64_t seed, Run& out, std::string& why) {
  Place place(args);
  std::string spec;
  if (!place.make(spec, why)) return false;
  return [&] {
    Error error;
    auto store = cinq::store::Store::open(spec, error);
    if (!store) return why = error.message, false;
    Traffic traffic(args.games, seed);
    std::vector<GameSave> saves;
    {
      Writer writer(*store);
      // The other games in progress: entries of a Tablut turn's length, stored whole, 256 games a commit.
      std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
      for (int g = 0; g < args.background; ++g) {
        GameSave b;
        b.row.id = random_id(rng);
        b.row.game = "tablut";
        b.row.status = "live";
        b.row.record = "#! TABLUT";
        b.row.seat_ids = {"p" + b.row.id + "x", "p" + b.row.id + "y"};
        b.entries = {"A = Someone    D = Someone else", "> 2026-01-01 12:00:00"};
        const int turns = std::uniform_int_distribution<int>(0, 400)(rng);
        for (int t = 0; t < turns; ++t)
          b.entries.push_back(std::string(t % 2 ? "D/" : "A/") + static_cast<char>('a' + t % 9) + "5 " +
                              static_cast<char>('a' + (t / 9) % 9) + "7/");
        b.row.turns = turns;
        saves.push_back(std::move(b));
        if (saves.size() == 256 || g + 1 == args.background) {
          if (!writer.commit(saves, true, why)) return false;
          saves.clear();
        }
      }
      saves = traffic.first_saves();
      if (!writer.commit(saves, false, why)) return false;
      const int per_commit = std::max(batch, 1);
      const int commits = std::max((args.turns + per_commit - 1) / per_commit, kMinCommits);
      std::size_t next = 0;
      for (int ply : args.plies) {
        // Every game to `ply`, one turn of each per commit (untimed).
        for (;;) {
          saves.clear();
          for (std::size_t i = 0; i < traffic.games(); ++i)
            if (traffic.ply(i) < ply) saves.push_back(traffic.turn(i));
          if (saves.empty()) break;
          if (!writer.commit(saves, true, why)) return false;
        }
        writer.take_commits();
        // The timed turns.
        const std::uint64_t bytes_before = traffic.entry_bytes();
        double plies = 0;
        for (int c = 0; c < commits; ++c) {
          saves.clear();
          for (int i = 0; i < per_commit; ++i) {
            const std::size_t g = next++ % traffic.games();
            plies += traffic.ply(g);
            saves.push_back(traffic.turn(g));
          }
          if (!writer.commit(saves, batch > 0, why)) return false;
        }
        std::vector<Writer::Commit> made = writer.take_commits();
        Figures f;
        double total = 0;
        std::vector<double> latencies;
        for (const auto& m : made) {
          if (m.games != static_cast<std::size_t>(per_commit)) {
            why = "a commit held " + std::to_string(m.games) + " saves instead of " + std::to_string(per_commit);
            return false;
          }
          total += m.seconds;
          latencies.push_back(m.seconds * 1e3);
        }
        f.turns = static_cast<double>(commits) * per_commit;
        f.turns_per_s = f.turns / total;
        f.commits_per_s = commits / total;
        f.p50_ms = quantile(latencies, 0.50);
        f.p99_ms = quantile(latencies, 0.99);
        f.mean_ply = plies / f.turns;
        f.entry_bytes = static_cast<double>(traffic.entry_bytes() - bytes_before) / f.turns;
        out.at.push_back(f);
      }
    }  // the writer drains and stops
    out.replaced = traffic.replaced();
    store.reset();  // closing the last connection checkpoints the WAL into the database
    out.db_bytes = place.bytes();
    return true;
  }();
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
  std::fprintf(stderr, "cinq_bench_store: %s\n(see 'cinq_bench_store --help')\n", why.c_str());
  return 2;
}

std::vector<std::string> split_list(const std::string& value) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < value.size()) {
    std::size_t end = std::min(value.find(',', start), value.size());
    out.push_back(value.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// A whole number, or nothing.
std::optional<int> to_int(const std::string& text) {
  int n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

// -1 once `args` are read; otherwise the status to exit with (0 after --help, 2 after a usage error).
int parse_args(int argc, char** argv, Args& args) {
  std::string modes, plies;  // the defaults: those of Args
  for (int m : args.modes) modes += (modes.empty() ? "" : ",") + (m == 0 ? "single" : std::to_string(m));
  for (int p : args.plies) plies += (plies.empty() ? "" : ",") + std::to_string(p);
  CLI::App app("Committed turns per second through the real store and Saver, early and late in the same "
               "games (at each ply of --plies), one turn a commit (single) or B turns of B games a commit "
               "(batch B); the median of K runs.",
               "cinq_bench_store");
  app.add_option("--turns", args.turns, "timed turns per ply and run")->type_name("N")->capture_default_str();
  app.add_option("--games", args.games, "Tablut games played round-robin")->type_name("G")->capture_default_str();
  app.add_option("--background", args.background, "other games in progress in the database")
      ->type_name("N")->capture_default_str();
  app.add_option("--runs", args.runs, "runs per mode")->type_name("K")->capture_default_str();
  app.add_option("--dir", args.dir, "where the database file is made")->type_name("DIR")->capture_default_str();
  app.add_option("--store", args.store,
                 "the store instead: sqlite:PATH (a file that must not exist; each run makes and removes it) or "
                 "postgresql://USER:PASSWORD@HOST:PORT/DB (an existing database; each run makes and drops a "
                 "schema cinq_bench_PID_N in it; no options= in the URI)")
      ->type_name("SPEC")
      ->check(CLI::Validator(
          [](std::string& v) {
            if (v.empty() || v == "sqlite:") return std::string("expected sqlite:PATH or postgresql://...");
            if (is_postgres(v) && v.find("options=") != std::string::npos)
              return std::string("the bench sets the search_path (options=) itself: give a URI without it");
            return std::string();
          },
          ""));
  app.add_option("--modes", modes, "single and batch sizes")
      ->type_name("LIST")
      ->check(CLI::Validator(
          [](std::string& v) {
            for (const auto& m : split_list(v))
              if (m != "single" && !to_int(m)) return std::string("expected single or batch sizes, like single,8");
            return std::string();
          },
          ""))
      ->capture_default_str();
  app.add_option("--plies", plies, "the plies the turns are timed at")
      ->type_name("LIST")
      ->check(CLI::Validator(
          [](std::string& v) {
            auto list = split_list(v);
            for (const auto& p : list)
              if (!to_int(p)) return std::string("expected plies, like 10,300");
            return list.empty() ? std::string("--plies needs at least one ply") : std::string();
          },
          ""))
      ->capture_default_str();
  app.add_option("--seed", args.seed, "the seed of the first run (the next runs: +1, +2, ...)")
      ->type_name("S")->capture_default_str();
  app.add_option("--json", args.json, "also write the figures to FILE as JSON")->type_name("FILE");
  if (int status = cinq::bench::parse_args(app, argc, argv); status >= 0) return status;
  args.turns = std::max(1, args.turns);
  args.games = std::max(1, args.games);
  args.background = std::max(0, args.background);
  args.runs = std::max(1, args.runs);
  args.modes.clear();
  for (const auto& m : split_list(modes)) args.modes.push_back(m == "single" ? 0 : std::max(1, *to_int(m)));
  args.plies.clear();
  for (const auto& p : split_list(plies)) args.plies.push_back(std::max(0, *to_int(p)));
  std::sort(args.plies.begin(), args.plies.end());
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  std::string why;
  if (int status = parse_args(argc, argv, args); status >= 0) return status;
  std::string plies;
  for (int p : args.plies) plies += (plies.empty() ? "" : ", ") + std::to_string(p);
  const std::string where = args.store.empty() ? "under " + args.dir
                            : is_postgres(args.store)
                                ? "in " + cinq::store::Store::describe(args.store) + " (a new schema each run)"
                                : "in " + cinq::store::Store::describe(args.store);
  std::printf(
      "store: %d turns per ply and run, %d Tablut games round-robin (and %d others in the database), at plies "
      "%s; median of %d runs, %s\n",
      args.turns, args.games, args.background, plies.c_str(), args.runs, where.c_str());
  std::printf("%-9s %5s %9s %10s %10s %8s %8s %8s\n", "mode", "ply", "mean ply", "turns/s", "commits/s",
              "p50 ms", "p99 ms", "entry B");
  nlohmann::json out = {{"bench", "store"}, {"turns", args.turns}, {"games", args.games},
                        {"background", args.background}, {"runs", args.runs}, {"dir", args.dir},
                        {"plies", args.plies}, {"modes", nlohmann::json::array()}};
  if (!args.store.empty()) out["store"] = cinq::store::Store::describe(args.store);
  for (int batch : args.modes) {
    std::string name = batch == 0 ? "single" : "batch " + std::to_string(batch);
    if (batch > args.games) {
      // A commit holds one save per game: B turns in one commit need B different games.
      std::printf("%-9s skipped: needs --games %d or more\n", name.c_str(), batch);
      continue;
    }
    std::vector<Run> runs;
    for (int r = 0; r < args.runs; ++r) {
      Run one;
      if (!run(args, batch, args.seed + static_cast<std::uint64_t>(r), one, why)) {
        std::fprintf(stderr, "cinq_bench_store: %s: %s\n", name.c_str(), why.c_str());
        return 1;
      }
      runs.push_back(std::move(one));
    }
    nlohmann::json j = {{"mode", batch == 0 ? "single" : "batch"},
                        {"batch", std::max(batch, 1)},
                        {"plies", nlohmann::json::array()}};
    std::vector<Figures> medians;
    for (std::size_t p = 0; p < args.plies.size(); ++p) {
      std::vector<Figures> at;
      for (const Run& r : runs) at.push_back(r.at[p]);
      Figures m = median(at);
      medians.push_back(m);
      std::printf("%-9s %5d %9.1f %10.0f %10.1f %8.2f %8.2f %8.1f\n", name.c_str(), args.plies[p], m.mean_ply,
                  m.turns_per_s, m.commits_per_s, m.p50_ms, m.p99_ms, m.entry_bytes);
      nlohmann::json runs_json = nlohmann::json::array();
      for (const Figures& f : at) runs_json.push_back(to_json(f));
      j["plies"].push_back({{"ply", args.plies[p]}, {"median", to_json(m)}, {"runs", runs_json}});
    }
    // Late over early: 1.0 when a commit costs the same whatever the game's length (the medians' ratio; and
    // that of the median commit times, which one slow fsync does not move).
    const double ratio = medians.back().turns_per_s / medians.front().turns_per_s;
    const double p50_ratio = medians.front().p50_ms / medians.back().p50_ms;
    std::vector<double> db, replaced;
    for (const Run& r : runs) db.push_back(r.db_bytes), replaced.push_back(r.replaced);
    std::printf("%-9s ply %d / ply %d: %.3f (turns/s), %.3f (p50); database %.0f bytes, %.0f games replaced\n",
                name.c_str(), args.plies.back(), args.plies.front(), ratio, p50_ratio, quantile(db, 0.5),
                quantile(replaced, 0.5));
    std::fflush(stdout);
    j["ratio"] = ratio;
    j["p50_ratio"] = p50_ratio;
    j["db_bytes"] = quantile(db, 0.5);
    out["modes"].push_back(j);
  }
  if (!args.json.empty()) {
    std::ofstream file(args.json);
    file << out.dump(2) << "\n";
    if (!file) return usage("cannot write " + args.json);
  }
  return 0;
}
