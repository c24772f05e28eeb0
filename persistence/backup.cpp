#include "persistence/backup.h"

#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "rules/notation.h"

extern char** environ;

namespace cinq::store {
namespace {

namespace fs = std::filesystem;

bool is_postgres(const std::string& spec) {
  return spec.rfind("postgresql://", 0) == 0 || spec.rfind("postgres://", 0) == 0;
}

bool sqlite_backup(const std::string& source, const std::string& dest, Error& error) {
  if (!fs::is_regular_file(source)) {
    error.message = "sqlite:" + source + ": no such file";
    return false;
  }
  sqlite3* from = nullptr;
  sqlite3* to = nullptr;
  auto done = [&](bool ok) {
    if (from) sqlite3_close(from);
    if (to) sqlite3_close(to);
    if (!ok) {
      std::error_code ignored;
      fs::remove(dest, ignored);
    }
    return ok;
  };
  // Read-only: the backup never writes to the server's file (the WAL's shared memory is used as a reader).
  if (sqlite3_open_v2(source.c_str(), &from, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    error.message = "sqlite:" + source + ": " + (from ? sqlite3_errmsg(from) : "cannot open");
    return done(false);
  }
  sqlite3_busy_timeout(from, 5000);
  if (sqlite3_open_v2(dest.c_str(), &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    error.message = dest + ": " + (to ? sqlite3_errmsg(to) : "cannot create");
    return done(false);
  }
  sqlite3_backup* backup = sqlite3_backup_init(to, "main", from, "main");
  if (!backup) {
    error.message = dest + ": " + sqlite3_errmsg(to);
    return done(false);
  }
  // Every page in one step: one read transaction on the source, so the copy is one commit's database. A
  // step in several parts would start again whenever the server (another connection) commits meanwhile.
  int rc = SQLITE_OK;
  for (int tries = 0; tries < 50; ++tries) {
    rc = sqlite3_backup_step(backup, -1);
    if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED) break;
    sqlite3_sleep(100);
  }
  sqlite3_backup_finish(backup);
  if (rc != SQLITE_DONE) {
    error.message = "backing up sqlite:" + source + ": " + sqlite3_errstr(rc);
    return done(false);
  }
  // The copy as a server writes its files: WAL, so that a server started on it works as on the original.
  char* text = nullptr;
  if (sqlite3_exec(to, "PRAGMA journal_mode=WAL", nullptr, nullptr, &text) != SQLITE_OK) {
    error.message = dest + ": " + (text ? text : "cannot set WAL");
    sqlite3_free(text);
    return done(false);
  }
  return done(true);
}

bool pg_dump(const std::string& uri, const std::string& dest, Error& error) {
  // postgresql://USER:PASSWORD@HOST...: the password goes in PGPASSWORD, the URI without it on the line.
  std::string shown = uri, password;
  const auto start = uri.find("://") + 3;
  const auto at = uri.find('@', start);
  const auto slash = uri.find('/', start);
  if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
    const auto colon = uri.find(':', start);
    if (colon != std::string::npos && colon < at) {
      password = uri.substr(colon + 1, at - colon - 1);
      shown = uri.substr(0, colon) + uri.substr(at);
    }
  }
  std::vector<std::string> args = {"pg_dump", "--format=custom", "--no-owner", "--file=" + dest, "--dbname=" + shown};
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "PGPASSWORD=", 11) != 0) env.emplace_back(*e);
  if (!password.empty()) env.push_back("PGPASSWORD=" + password);
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  if (const int rc = posix_spawnp(&pid, "pg_dump", nullptr, nullptr, argv.data(), envp.data()); rc != 0) {
    error.message = std::string("cannot run pg_dump (PostgreSQL's client, package postgresql-client): ") +
                    std::strerror(rc);
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    error.message = "pg_dump failed (its message is above)";
    std::error_code ignored;
    fs::remove(dest, ignored);
    return false;
  }
  return true;
}

}  // namespace

bool backup_store(const std::string& spec, const std::string& dest, BackupReport& report, Error& error) {
  if (dest.empty()) {
    error.message = "DEST: empty";
    return false;
  }
  std::error_code ec;
  if (fs::exists(dest, ec)) {
    error.message = "DEST " + dest + ": already exists (a backup goes into a new file)";
    return false;
  }
  if (const fs::path parent = fs::path(dest).parent_path(); !parent.empty() && !fs::is_directory(parent, ec)) {
    error.message = "DEST " + dest + ": no such directory " + parent.string();
    return false;
  }
  bool ok = false;
  if (is_postgres(spec)) {
    report.method = "pg_dump";
    ok = pg_dump(spec, dest, error);
  } else {
    report.method = "sqlite backup";
    const std::string shown = Store::describe(spec);  // sqlite:PATH
    ok = sqlite_backup(shown.substr(7), dest, error);
  }
  if (ok) report.bytes = static_cast<std::int64_t>(fs::file_size(dest, ec));
  return ok;
}

bool check_store(Store& store, CheckReport& report, Error& error,
                 const std::function<void(const std::string&)>& problem) {
  const auto players = store.player_ids();
  if (players.failed()) {
    error.message = "reading the players failed: " + players.error().message;
    return false;
  }
  auto bad = [&](const std::string& what) {
    ++report.bad;
    if (problem) problem(what);
  };
  for (const std::string& id : players) {
    ++report.players;
    auto row = store.player(id);
    if (row.failed()) {
      error.message = "reading player " + id + " failed: " + row.error().message;
      return false;
    }
    if (!row) bad("player " + id + ": listed, and its row does not read");
  }
  const auto ids = store.game_ids();
  if (ids.failed()) {
    error.message = "reading the games failed: " + ids.error().message;
    return false;
  }
  for (const std::string& id : ids) {
    auto row = store.game(id);
    if (row.failed()) {
      error.message = "reading game " + id + " failed: " + row.error().message;
      return false;
    }
    ++report.games;
    if (!row) {
      bad("game " + id + ": listed, and its row does not read");
      continue;
    }
    const GameRow& g = *row;
    if (g.status != "finished") ++report.unfinished;
    auto record = Record::read(g.record);
    if (!record) {
      const auto& e = record.error();
      bad("game " + id + " (" + g.game + ", " + g.status + "): its record does not replay: " + e.text());
      continue;
    }
    if (record->game().name() != g.game) {
      bad("game " + id + ": the row says " + g.game + ", its record is of " + std::string(record->game().name()));
      continue;
    }
    if (record->finished() != (g.status == "finished")) {
      bad("game " + id + ": the row says " + g.status + ", its record is " +
          (record->finished() ? "finished (" + record->result_text() + ")" : std::string("unfinished")));
    }
  }
  return report.bad == 0;
}

}  // namespace cinq::store
