// Backups of a store while the server runs (`cinq store backup`), and a check that a store or a backup
// holds games that all replay (`cinq store check`). docs/operations.md, "Backups".
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "persistence/store.h"

namespace cinq::store {

struct BackupReport {
  std::string method;       // "sqlite backup" or "pg_dump"
  std::int64_t bytes = 0;   // the backup's size
};

// Copies the store `spec` names into the new file `dest` while a server may be writing to it:
// - SQLite: the online backup API, in one step under one read transaction, so the copy is the database as it
//   was at one commit (WAL: the server's writes go on meanwhile, and a reader never blocks them). `dest` is a
//   SQLite file that `cinq serve --store sqlite:DEST` (or --data with it as cinq.db) opens as it is.
// - PostgreSQL: `pg_dump --format=custom` (one snapshot transaction), restored with pg_restore. The password
//   of the URI goes to pg_dump in its environment (PGPASSWORD), never on its command line.
// `dest` must not exist. False, with why, if anything failed (a partial file is removed).
bool backup_store(const std::string& spec, const std::string& dest, BackupReport& report, Error& error);

struct CheckReport {
  std::int64_t games = 0;       // games read
  std::int64_t unfinished = 0;  // of which unfinished
  std::int64_t players = 0;
  std::int64_t bad = 0;         // games that do not replay, or disagree with their row
};

// Reads every game of `store` and replays its record with the rules: each must read, be of the row's game, be
// finished exactly when the row says so, with the row's result. Every player row must read too. Each game at
// fault is told to `problem` (its id and why); false when there is any, or when the store cannot be read
// (`error`).
bool check_store(Store& store, CheckReport& report, Error& error,
                 const std::function<void(const std::string&)>& problem);

}  // namespace cinq::store
