#include "server/admin_command.h"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "moderation/moderation.h"
#include "persistence/store.h"

namespace cinq {
namespace {

struct AdminArgs {
  std::string action;  // grant, revoke, list
  std::string user;
  std::string role;
  std::string data_dir = "data";
  std::string store;
};

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int run(const AdminArgs& args) {
  spdlog::set_level(spdlog::level::warn);
  const std::string spec =
      args.store.empty() ? "sqlite:" + (std::filesystem::path(args.data_dir) / "cinq.db").string() : args.store;
  const std::string shown = store::Store::describe(spec);
  // A SQLite path that is not there would be created empty: there is no account to grant anything to.
  if (shown.rfind("sqlite:", 0) == 0 && !std::filesystem::is_regular_file(shown.substr(7))) {
    std::cerr << "cinq admin: --store " << shown << ": no such file\n";
    return 1;
  }
  store::Error error;
  auto st = store::Store::open(spec, error);
  if (!st) {
    std::cerr << "cinq admin: --store " << shown << ": " << error.message << "\n";
    return 1;
  }
  if (args.action == "list") {
    auto roles = st->roles();
    if (roles.failed()) {
      std::cerr << "cinq admin: " << roles.error().message << "\n";
      return 1;
    }
    for (const store::RoleRow& r : roles) {
      auto player = st->player(r.player_id);
      std::cout << (player ? player->username : r.player_id) << " " << r.role << "\n";
    }
    return 0;
  }
  if (args.user.empty()) {
    std::cerr << "cinq admin " << args.action << ": USER: required\n";
    return 2;
  }
  auto player = st->player_by_username(args.user);
  if (player.failed()) {
    std::cerr << "cinq admin: " << player.error().message << "\n";
    return 1;
  }
  if (!player) {
    std::cerr << "cinq admin " << args.action << ": USER: no account named " << args.user << "\n";
    return 1;
  }
  const store::PlayerRow& p = *player;
  store::ModerationWrite write;
  const std::int64_t now = now_ms();
  if (args.action == "grant") {
    const auto role = moderation::parse_role(args.role);
    if (!role || *role == moderation::Role::player) {
      std::cerr << "cinq admin grant: ROLE: moderator or administrator, not '" << args.role << "'\n";
      return 2;
    }
    write.roles.push_back(store::RoleRow{p.id, args.role, "", now});
  } else {
    write.roles_removed.push_back(p.id);
  }
  write.audit.push_back(store::AuditRow{0, now, "", "cinq admin", args.action, p.id, p.username,
                                        args.action == "grant" ? "role " + args.role : ""});
  if (!st->moderate(write, error)) {
    std::cerr << "cinq admin: " << error.message << "\n";
    return 1;
  }
  if (args.action == "grant")
    std::cout << p.username << " is now " << args.role << "\n";
  else
    std::cout << p.username << " has no role now\n";
  return 0;
}

}  // namespace

Command add_admin_command(CLI::App& cinq) {
  auto args = std::make_shared<AdminArgs>();
  CLI::App* cmd = cinq.add_subcommand(
      "admin",
      "Moderation roles, on the server's machine: `cinq admin grant USER ROLE` makes the account USER a "
      "moderator or an administrator, `cinq admin revoke USER` takes its role away, `cinq admin list` lists "
      "who has one. It opens the store (--data or --store, as `cinq serve` does); a running server sees the "
      "change at the account's next moderation command. Each change is written to the audit log.");
  cmd->add_option("ACTION", args->action, "grant, revoke or list")
      ->required()
      ->check(CLI::IsMember({"grant", "revoke", "list"}).description(""));
  cmd->add_option("USER", args->user, "an account's user name");
  cmd->add_option("ROLE", args->role, "moderator or administrator (grant)");
  cmd->add_option("--data", args->data_dir, "without --store, the store is DIR/cinq.db")
      ->type_name("DIR")
      ->capture_default_str();
  cmd->add_option("--store", args->store, "the store: sqlite:PATH or postgresql://...")->type_name("URI");
  return [args] { return run(*args); };
}

}  // namespace cinq
