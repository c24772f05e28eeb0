// Tournaments (docs/protocol.md, "Tournaments"): the commands. The desk (server/tournaments.h) runs each on a
// worker; the connection's later messages wait for its answer, so that `tournament_join` then `tournament`
// shows the player in.
#include <nlohmann/json.hpp>
#include <string>

#include "server/commands/handlers.h"
#include "server/services.h"
#include "server/tournaments.h"

namespace cinq::server::commands {

using nlohmann::json;

namespace {

// Runs a desk command for the request: its answer is `{"type": TYPE, "tournament": ...}` (or `LIST_KEY`), or
// its error.
template <class Call>
void run_desk(CommandContext& cx, Request& rq, const char* type, const char* key, Call call) {
  Resume resume = cx.defer(rq);
  const bool queued = call([&cx, later = rq, type, key, resume](TournamentDesk::Reply r) {
    if (r.code.empty())
      reply(later, {{"type", type}, {key, std::move(r.body)}});
    else
      cx.reply_error(later, r.code, r.message);
    resume->finish();
  });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
}

// Tournaments are for accounts: their entrants are rated and known by name.
bool account_only(CommandContext& cx, const Request& rq, const char* what) {
  if (!rq.player->username.empty()) return true;
  cx.reply_error(rq, "account_required", std::string(what) + " is for accounts: register or log in first");
  return false;
}

}  // namespace

void on_tournament_create(CommandContext& cx, Request& rq, TournamentCreate& cmd) {
  if (!account_only(cx, rq, "making a tournament")) return;
  run_desk(cx, rq, "tournament", "tournament", [&](TournamentDesk::Done done) {
    return cx.tournaments.create(*rq.player, std::move(cmd.spec), std::move(done));
  });
}

void on_tournament_join(CommandContext& cx, Request& rq, TournamentId& cmd) {
  if (!account_only(cx, rq, "playing in a tournament")) return;
  run_desk(cx, rq, "tournament", "tournament",
           [&](TournamentDesk::Done done) { return cx.tournaments.join(cmd.id, *rq.player, std::move(done)); });
}

void on_tournament_withdraw(CommandContext& cx, Request& rq, TournamentId& cmd) {
  if (!account_only(cx, rq, "playing in a tournament")) return;
  run_desk(cx, rq, "tournament", "tournament",
           [&](TournamentDesk::Done done) { return cx.tournaments.withdraw(cmd.id, *rq.player, std::move(done)); });
}

void on_tournament_start(CommandContext& cx, Request& rq, TournamentId& cmd) {
  if (!account_only(cx, rq, "starting a tournament")) return;
  run_desk(cx, rq, "tournament", "tournament",
           [&](TournamentDesk::Done done) { return cx.tournaments.start_now(cmd.id, *rq.player, std::move(done)); });
}

void on_tournament(CommandContext& cx, Request& rq, TournamentId& cmd) {
  run_desk(cx, rq, "tournament", "tournament",
           [&](TournamentDesk::Done done) { return cx.tournaments.get(cmd.id, std::move(done)); });
}

void on_tournament_watch(CommandContext& cx, Request& rq, TournamentId& cmd) {
  // Watched before it is read, so that no change falls between the answer and the first push: the desk
  // sends the answer and every push under one lock, so a change meanwhile reaches the watcher after the
  // answer, or is in it. Not watched if it does not exist.
  cx.tournaments.watch(cmd.id, rq.connection);
  run_desk(cx, rq, "tournament", "tournament", [&](TournamentDesk::Done done) {
    return cx.tournaments.get(cmd.id, [&cx, c = rq.connection, id = cmd.id, done](TournamentDesk::Reply r) {
      if (!r.code.empty()) cx.tournaments.unwatch(id, c->id());
      done(std::move(r));
    });
  });
}

void on_tournament_unwatch(CommandContext& cx, Request& rq, TournamentId& cmd) {
  cx.tournaments.unwatch(cmd.id, rq.connection->id());
  reply(rq, {{"type", "tournament_unwatched"}, {"tournament", cmd.id}});
}

void on_tournaments(CommandContext& cx, Request& rq, TournamentList& cmd) {
  run_desk(cx, rq, "tournaments", "tournaments",
           [&](TournamentDesk::Done done) { return cx.tournaments.list(cmd.status, std::move(done)); });
}

}  // namespace cinq::server::commands
