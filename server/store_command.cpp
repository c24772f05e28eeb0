#include "server/store_command.h"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "persistence/copy.h"
#include "persistence/store.h"

namespace cinq {
namespace {

struct CopyArgs {
  std::string from, to;
};

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
            << " tournaments, " << report.moderation << " moderation rows; every count and every game checked\n";
  return 0;
}

}  // namespace

Command add_store_command(CLI::App& cinq) {
  auto args = std::make_shared<CopyArgs>();
  // One action so far, `copy`: a positional that must be that word (so the help reads `cinq store copy FROM
  // TO`, as the command is typed).
  CLI::App* cmd = cinq.add_subcommand(
      "store",
      "Copies an installation from one store to another (cinq store copy FROM TO), e.g. sqlite:data/cinq.db "
      "to postgresql://USER:PASSWORD@HOST:PORT/DB or back: every player and login, rating and game, games in "
      "progress included, then checks the counts and every game read back. TO must be empty. Stop the server "
      "first. Exit 1 if anything failed, naming it.");
  auto action = std::make_shared<std::string>();
  cmd->add_option("copy", *action, "the action")->required()->check(CLI::IsMember({"copy"}).description(""));
  cmd->add_option("FROM", args->from, "the store to copy: sqlite:PATH or postgresql://...")->required();
  cmd->add_option("TO", args->to, "an empty store: sqlite:PATH (created) or postgresql://...")->required();
  return [args, action] { return copy(*args); };
}

}  // namespace cinq
