// The HTTP API (docs/protocol.md, "HTTP") as a route table: a method and a path pattern (`/api/games/{id}`)
// to a handler. Targets are parsed and percent-decoded by Boost.URL (rest.cpp); an unknown path is a 404, a
// known path with another method a 405, both as JSON errors (http_answers.h). Live rooms answer from their
// strand once settled (so a state never shows a turn not yet stored); games not in memory are loaded on a
// worker, and every replay (`/api/replay`, an import, a mailed log) runs on a worker.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "limits/counts.h"
#include "lobby/room.h"
#include "server/caps.h"
#include "server/net/transport.h"

namespace cinq::store {
struct MailRow;
}

namespace cinq::server {

struct Services;
class RoomDirectory;
class RoomActor;
class Workers;
class TournamentDesk;
struct CommandContext;

class HttpApi {
 public:
  using Respond = std::function<void(net::HttpResponse)>;
  // What the server adds to /metrics that it alone knows (seeks waiting).
  struct Extra {
    std::function<std::size_t()> seeks;
    TournamentDesk* tournaments = nullptr;  // GET /api/tournaments[/{id}] (server/tournaments.h)
    CommandContext* commands = nullptr;     // the moderation routes run the commands' actions with it
  };

  HttpApi(Services& services, RoomDirectory& rooms, Workers& workers, Extra extra);

  // Any request whose path starts with /api/ or is /metrics. `respond` may be called later, from any thread.
  void handle(net::HttpRequest request, Respond respond);

  // One request, as a handler sees it.
  struct Call {
    net::HttpRequest request;
    std::vector<std::string> params;             // the values of the pattern's {names}, in order, decoded
    std::map<std::string, std::string> query;    // decoded; the last of a repeated name wins
    Respond respond;
  };

 private:
  struct Route {
    const char* method;   // GET routes answer HEAD too
    const char* pattern;  // "/api/games/{id}/record": literal segments, {name} for one non-empty segment
    void (HttpApi::*handler)(Call&);
    const char* usage = "";  // added to a 405's "use METHOD"
  };
  // The first pattern that matches a path is its route: literal patterns come before those with {names}.
  static const std::vector<Route>& routes();

  // --- rest.cpp
  void health(Call& call);
  void games(Call& call);
  void rooms(Call& call);
  void rooms_page(Call& call, const char* member);
  void game_table(Call& call);  // the games as the client shows them (lobby/game_table.h)
  void game(Call& call);
  void record(Call& call);
  // GET /api/games/{id}/analysis?depth=D (or ?think_ms=MS; default depth 3): the stored analysis, 204
  // (no body) if it was not computed (the WebSocket's `analyze` computes it).
  void analysis(Call& call);
  void chat(Call& call);
  void replay(Call& call);
  void metrics(Call& call);
  // --- tournament_http.cpp: tournaments (docs/protocol.md, "Tournaments")
  // GET /api/tournaments?status=: the list; GET /api/tournaments/{id}: one, whole (as the `tournament`
  // message's member).
  void tournaments(Call& call);
  void tournament(Call& call);
  // POST /api/tournaments, /api/tournaments/{id}/join|withdraw|start: the account named by the body's
  // `player` and `token` (checked as `hello` checks them, on a worker) does it.
  void tournament_create(Call& call);
  void tournament_join(Call& call);
  void tournament_withdraw(Call& call);
  void tournament_start(Call& call);
  using AsAccount = std::function<bool(const lobby::Player& by, std::function<void(net::HttpResponse)> respond)>;
  void as_account(Call& call, AsAccount then);
  // A room's view once settled: its state or its record.
  void show_room(Call& call, bool record_only);

  // --- moderation_http.cpp: moderation (docs/protocol.md, "Moderation over HTTP"), as the WebSocket's
  // command `type` for the player of the `Authorization: Bearer PLAYER:TOKEN` header: 401 without it, the
  // action's refusals as statuses (403 forbidden, 404, 400 bad_message, 409, 503). `field_from_path`: the
  // command's field the path's {name} fills; `ok` the status of a done action.
  void moderation_call(Call& call, const char* type, const char* field_from_path = nullptr, int ok = 200);
  void mod_role(Call& call);
  void mod_reports(Call& call);
  void mod_resolve(Call& call);
  void mod_audit(Call& call);
  void mod_links(Call& call);
  void mod_player(Call& call);
  void mod_ban(Call& call);
  void mod_unban(Call& call);
  void mod_mute(Call& call);
  void mod_unmute(Call& call);
  void mod_reset_name(Call& call);
  void mod_close_room(Call& call);
  void report(Call& call);
  void blocks(Call& call);
  void block(Call& call);
  void unblock(Call& call);

  // --- archive.cpp: players, ratings and finished games
  void player(Call& call);
  void player_games(Call& call);
  void leaderboard(Call& call);
  // GET /api/games with archive parameters (player, game, result, rated, from, to, page).
  void archive(Call& call);

  // --- mail.cpp: correspondence over HTTP (docs/protocol.md, "Correspondence")
  void post_record(Call& call);
  void import_game(Call& call);
  // The log checked and played on a copy of the room on a worker, then kept by the room if nothing happened
  // to it meanwhile (else tried again; after a few tries, played on the room's strand).
  // `received`: the Message-ID of the mail that sent it, stored with its turns ("" : not mailed).
  void play_log(std::shared_ptr<RoomActor> actor, int seat, std::string token,
                std::shared_ptr<const std::string> body, Respond respond, int attempt, std::string received);

  // --- mail_in.cpp: correspondence by e-mail (docs/mail.md)
  // POST /api/mail/in?recipient=ADDR: one mail (RFC 5322) for a seat address, from `cinq mail-in` or the
  // LMTP listener; answers {"outcome", "smtp"} with the status the MTA should give.
  void mail_in(Call& call);
  // GET/POST /api/games/{id}/mail?seat=S&token=T: a seat's mail settings, an invitation by mail.
  void seat_mail(Call& call);
  // GET/POST /api/mail/unsubscribe and GET /api/mail/confirm ?room=&seat=&tag=: one click, no login.
  void unsubscribe(Call& call);
  void confirm(Call& call);
  // --- account_mail.cpp: an account's own mail (docs/mail.md, "Accounts")
  // GET /api/account/confirm?player=&code=: the account's pending address becomes its address, and its
  // unfinished correspondence games without an address of their own take it.
  void account_confirm(Call& call);
  // GET/POST /api/account/unsubscribe?player=&key=: one click, no login: no more game mail to the account.
  void account_unsubscribe(Call& call);
 public:
  // The seat of `actor` takes the confirmed address of the account holding it (if it has one, and the seat
  // does not play by mail alone); `done(true)` once stored. Called when an account takes a seat of a
  // correspondence room, and by use_account.
  void adopt_account_mail(std::shared_ptr<RoomActor> actor, int seat, std::function<void(bool)> done);

 private:
  // The mail in, once read, on the room's strand.
  struct MailIn;
  void play_mail(std::shared_ptr<RoomActor> actor, std::shared_ptr<const MailIn> in, Respond respond);
  // Queues an answer by mail (and the Message-ID it answers) on a worker; `done(ok)` after.
  void store_answer(store::MailRow row, std::string received, std::function<void(bool)> done);

  Services& services_;
  RoomDirectory& rooms_;
  Workers& workers_;
  HourlyQuota imports_;  // POST /api/games/import per address (RoomLimits::imports_per_hour)
  // In a cluster, the same limit over every node: each import counted in Redis by the hour (INCR), the totals
  // it answers merged into this node's counts (docs/scaling.md, "Limits").
  std::mutex shared_imports_mutex_;
  limits::WindowCounts shared_imports_{3600 * 1000};
  HourlyQuota mail_senders_;  // mails in per sender address (MailConfig::sender_rate)
  Extra extra_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace cinq::server
