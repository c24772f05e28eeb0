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
            << " tournaments, " << report.analyses << " analyses, " << report.moderation << " moderation rows; every count and every game checked\n";
  return 0;
}

}  // namespace

Command add_store_command(CLI::App& cinq) {
  // One command, three actions: a positional that must be one of their names, then their own arguments (one
  // or two), so that the help reads as they are typed.
  CLI::App* cmd = cinq.add_subcommand(
      "store",
      "The store's tools (docs/operations.md). copy: copies an installation from the store FROM into TO, "
      "which must be empty (sqlite:PATH, created, or postgresql://USER:PASSWORD@HOST:PORT/DB): every player and "
      "login, rating and game, games in progress included, then checks the counts and every game read back; "
      "stop the server first. backup: backs up the server's store (--data or --store, as given to cinq serve) "
      "into the new file DEST while the server runs: SQLite's online backup (a SQLite file a server opens as it "
      "is), or pg_dump's custom format for PostgreSQL (restored with pg_restore); the copy is the store as it "
      "was at one commit. check: reads every player and game of STORE (a store or a SQLite backup) and replays "
      "every record with the rules, printing each game at fault. Exit 1 if anything failed or is at fault, "
      "naming it.");
  auto action = std::make_shared<std::string>();
  auto rest = std::make_shared<std::vector<std::string>>();
  auto backup_args = std::make_shared<BackupArgs>();
  cmd->add_option("ACTION", *action, "copy, backup or check, with its arguments")
      ->required()
      ->option_text("copy FROM TO | backup DEST | check STORE")
      ->check(CLI::IsMember({"copy", "backup", "check"}).description(""));
  cmd->add_option("ARGUMENTS", *rest, "the action's")->required()->expected(1, 2)->group("");
  cmd->add_option("--data", backup_args->data_dir,
                  "backup: the server's --data, whose cinq.db is backed up (the default store)")
      ->type_name("DIR")
      ->capture_default_str();
  cmd->add_option("--store", backup_args->store, "backup: the server's --store, sqlite:PATH or postgresql://...")
      ->type_name("URI");
  return [cmd, action, rest, backup_args] {
    const std::size_t want = *action == "copy" ? 2 : 1;
    if (rest->size() != want) {
      const char* form = *action == "copy" ? "copy FROM TO" : *action == "backup" ? "backup DEST" : "check STORE";
      return usage_error(*cmd, std::string("cinq store ") + form + ": " + std::to_string(rest->size()) +
                                   " argument" + (rest->size() == 1 ? "" : "s") + " given, " +
                                   std::to_string(want) + " wanted");
    }
    if (*action == "copy") return copy(CopyArgs{(*rest)[0], (*rest)[1]});
    if (*action == "backup") {
      BackupArgs args = *backup_args;
      args.dest = (*rest)[0];
      return backup(args);
    }
    return check((*rest)[0]);
  };
}

}  // namespace cinq
