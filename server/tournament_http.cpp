// Tournaments over HTTP (docs/protocol.md, "Tournaments"): the list and one tournament to read, and the
// commands that change one for an account proving itself with its player id and token in the JSON body (the
// pair `hello` takes): the same desk (server/tournaments.h) as the WebSocket's commands.
#include <nlohmann/json.hpp>
#include <string>

#include "server/commands/messages.h"
#include "server/http_answers.h"
#include "server/http_api.h"
#include "server/identity.h"
#include "server/metrics.h"
#include "server/services.h"
#include "server/tournaments.h"
#include "server/workers.h"

namespace cinq::server {

using nlohmann::json;

namespace {

// A desk's answer as HTTP: 200 (201 for a new tournament) and the body, or the error's status.
net::HttpResponse from_reply(const TournamentDesk::Reply& r, int ok = 200) {
  if (r.code.empty()) return json_response(ok, r.body);
  int status = 409;  // the tournament's state refuses it (already_in, closed, finished, too_few, ...)
  if (r.code == "no_tournament") status = 404;
  else if (r.code == "storage") status = 503;
  else if (r.code == "bad_token") status = 401;
  else if (r.code == "account_required" || r.code == "not_creator") status = 403;
  else if (r.code.starts_with("bad_") || r.code == "unknown_game") status = 400;
  return error_response(status, r.code, r.message);
}

TournamentDesk::Done answer(HttpApi::Respond respond, int ok = 200) {
  return [respond = std::move(respond), ok](TournamentDesk::Reply r) { respond(from_reply(r, ok)); };
}

}  // namespace

void HttpApi::tournaments(Call& call) {
  if (!extra_.tournaments) return call.respond(error_response(404, "not_found", "no tournaments here"));
  const std::string status = call.query.count("status") ? call.query["status"] : "";
  if (!status.empty() && status != "open" && status != "running" && status != "finished")
    return call.respond(error_response(400, "bad_request", "status is open, running or finished (none: any)"));
  if (!extra_.tournaments->list(status, answer(call.respond))) call.respond(busy_response());
}

void HttpApi::tournament(Call& call) {
  if (!extra_.tournaments) return call.respond(error_response(404, "not_found", "no tournaments here"));
  if (!extra_.tournaments->get(call.params[0], answer(call.respond))) call.respond(busy_response());
}

// The body's `player` and `token` checked against the store on a worker (as `hello` does), then `then` with
// the account; a guest is refused `account_required`, a wrong pair `bad_token`.
void HttpApi::as_account(Call& call, AsAccount then) {
  if (!extra_.tournaments) return call.respond(error_response(404, "not_found", "no tournaments here"));
  const json body = json::parse(call.request.body, nullptr, false);
  if (!body.is_object() || !body.contains("player") || !body["player"].is_string() || !body.contains("token") ||
      !body["token"].is_string())
    return call.respond(error_response(401, "bad_token",
                                       "send a JSON object with your player id and token: {\"player\":ID,\"token\":T}"));
  const bool queued = workers_.submit(
      Workers::Kind::quick, [this, id = body["player"].get<std::string>(), token = body["token"].get<std::string>(),
                             respond = call.respond, then = std::move(then)] {
        note_blocking(services_.metrics);
        auto row = services_.store->player(id);
        if (row.failed()) return respond(busy_response());
        if (!row || matching_token(token, *row).empty())
          return respond(error_response(401, "bad_token", "the player id and token do not match"));
        if (row->username.empty())
          return respond(error_response(403, "account_required", "tournaments are for accounts: register first"));
        if (!then(lobby::Player{row->id, row->name, row->username, {}}, respond)) respond(busy_response());
      });
  if (!queued) call.respond(busy_response());
}

void HttpApi::tournament_create(Call& call) {
  const json body = json::parse(call.request.body, nullptr, false);
  if (!body.is_object()) return call.respond(error_response(400, "bad_request", "the body is a JSON object"));
  auto parsed = commands::TournamentCreate::parse(body);
  if (auto* r = std::get_if<Refusal>(&parsed)) return call.respond(from_reply({r->code, r->message, nullptr}));
  as_account(call, [this, cmd = std::get<commands::TournamentCreate>(parsed)](const lobby::Player& by, Respond respond) {
    return extra_.tournaments->create(by, cmd.spec, answer(std::move(respond), 201));
  });
}

void HttpApi::tournament_join(Call& call) {
  as_account(call, [this, id = call.params[0]](const lobby::Player& by, Respond respond) {
    return extra_.tournaments->join(id, by, answer(std::move(respond)));
  });
}

void HttpApi::tournament_withdraw(Call& call) {
  as_account(call, [this, id = call.params[0]](const lobby::Player& by, Respond respond) {
    return extra_.tournaments->withdraw(id, by, answer(std::move(respond)));
  });
}

void HttpApi::tournament_start(Call& call) {
  as_account(call, [this, id = call.params[0]](const lobby::Player& by, Respond respond) {
    return extra_.tournaments->start_now(id, by, answer(std::move(respond)));
  });
}

}  // namespace cinq::server
