#include "server/store_command.h"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "persistence/backup.h"
#include "persistence/copy.h"
#include "persistence/store.h"

namespace cinq {
namespace {

struct CopyArgs {
  std::string from, to;
};

struct BackupArgs {
  std::string data_dir = "data";
  std::string store;  // "" is sqlite:DATA/cinq.db, as cinq serve
  std::string dest;
};

std::string store_spec(const BackupArgs& args) {
  return args.store.empty() ? "sqlite:" + (std::filesystem::path(args.data_dir) / "cinq.db").string() : args.store;
}

int backup(const BackupArgs& args) {
  spdlog::set_level(spdlog::level::warn);
  const std::string spec = store_spec(args);
  store::BackupReport report;
  store::Error error;
  if (!store::backup_store(spec, args.dest, report, error)) {
    std::cerr << "cinq store backup: " << error.message << "\n";
    return 1;
  }
  std::cout << "backed up " << store::Store::describe(spec) << " to " << args.dest << " (" << report.method << ", "
            << report.bytes << " bytes)\n";
  return 0;
}

int check(const std::string& spec) {
  spdlog::set_level(spdlog::level::warn);
  const std::string shown = store::Store::describe(spec);
  // A SQLite path that is not there would be created empty, and "checked".
  if (shown.rfind("sqlite:", 0) == 0 && !std::filesystem::is_regular_file(shown.substr(7))) {
    std::cerr << "cinq store check: STORE " << shown << ": no such file\n";
    return 1;
  }
  store::Error error;
  auto store = store::Store::open(spec, error);
  if (!store) {
    std::cerr << "cinq store check: STORE " << shown << ": " << error.message << "\n";
    return 1;
  }
  store::CheckReport report;
  const bool ok = store::check_store(*store, report, error,
                                     [](const std::string& what) { std::cout << "bad: " << what << "\n"; });
  if (!error.message.empty()) {
    std::cerr << "cinq store check: " << error.message << "\n";
    return 1;
  }
  std::cout << shown << ": " << report.players << " players, " << report.games << " games (" << report.unfinished
            << " unfinished); ";
  if (ok) {
    std::cout << "every game replays\n";
    return 0;
  }
  std::cout << report.bad << (report.bad == 1 ? " is" : " are") << " at fault (above)\n";
  return 1;
}

int copy(const CopyArgs& args) {
  spdlog::set_level(spdlog::level::warn);
  // The source must be there: opening a SQLite path that is not would create an empty file.
  const std::string from_shown = store::Store::describe(args.from);
  if (from_shown.rfind("sqlite:", 0) == 0 && !std::filesystem::is_regular_file(from_shown.substr(7))) {
    std::cerr << "cinq store copy: FROM " << from_shown << ": no such file\n";
    return 1;
  }
  store::Error error;
  auto from = store::Store::open(args.from, error);
  if (!from) {
    std::cerr << "cinq store copy: FROM " << store::Store::describe(args.from) << ": " << error.message << "\n";
    return 1;
  }
  auto to = store::Store::open(args.to, error);
  if (!to) {
    std::cerr << "cinq store copy: TO " << store::Store::describe(args.to) << ": " << error.message << "\n";
    return 1;
  }
  store::CopyReport report;
  const bool ok = store::copy_store(*from, *to, report, error,
                                    [](const std::string& what) { std::cerr << "cinq store copy: " << what << "\n"; });
  if (!ok) {
    std::cerr << "cinq store copy: " << error.message << "\n";
    return 1;
  }
  std::cout << "copied " << store::Store::describe(args.from) << " to " << store::Store::describe(args.to) << ": "
            << report.players << " players, " << report.games << " games (" << report.unfinished
            << " unfinished), " << report.chat_lines << " chat lines, " << report.ratings << " ratings, "
            << report.rating_changes << " rating changes, " << report.tournaments
            << " tournaments; every count and every game checked\n";
  return 0;
}

}  // namespace

Command add_store_command(CLI::App& cinq) {
  CLI::App* cmd = cinq.add_subcommand(
      "store",
      "The store's tools (docs/operations.md): copy an installation between stores, back one up while the "
      "server runs, check a store or a backup.");
  cmd->require_subcommand(1);

  auto args = std::make_shared<CopyArgs>();
  CLI::App* copy_cmd = cmd->add_subcommand(
      "copy",
      "Copies an installation from one store to another, e.g. sqlite:data/cinq.db to "
      "postgresql://USER:PASSWORD@HOST:PORT/DB or back: every player and login, rating and game, games in "
      "progress included, then checks the counts and every game read back. TO must be empty. Stop the server "
      "first. Exit 1 if anything failed, naming it.");
  copy_cmd->add_option("FROM", args->from, "the store to copy: sqlite:PATH or postgresql://...")->required();
  copy_cmd->add_option("TO", args->to, "an empty store: sqlite:PATH (created) or postgresql://...")->required();

  auto backup_args = std::make_shared<BackupArgs>();
  CLI::App* backup_cmd = cmd->add_subcommand(
      "backup",
      "Backs the store up into the new file DEST while the server runs: SQLite's online backup (a SQLite file "
      "a server opens as it is), or pg_dump's custom format for PostgreSQL (restored with pg_restore). The "
      "copy is the store as it was at one commit. Exit 1 if it failed, naming why.");
  backup_cmd->add_option("DEST", backup_args->dest, "the backup file to create (must not exist)")->required();
  backup_cmd->add_option("--data", backup_args->data_dir, "the server's --data: backs up DIR/cinq.db")
      ->type_name("DIR");
  backup_cmd->add_option("--store", backup_args->store, "the server's --store: sqlite:PATH or postgresql://...")
      ->type_name("URI");

  auto check_spec = std::make_shared<std::string>();
  CLI::App* check_cmd = cmd->add_subcommand(
      "check",
      "Checks a store or a SQLite backup: every player row reads, every game's record replays with the rules, "
      "of its row's game, finished exactly when its row says so. Prints each game at fault and exits 1 if "
      "there is any.");
  check_cmd->add_option("STORE", *check_spec, "sqlite:PATH (a backup file), a path, or postgresql://...")
      ->required();

  return [=] {
    if (copy_cmd->parsed()) return copy(*args);
    if (backup_cmd->parsed()) return backup(*backup_args);
    return check(*check_spec);
  };
}

}  // namespace cinq
