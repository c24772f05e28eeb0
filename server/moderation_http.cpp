// Moderation over HTTP (docs/protocol.md, "Moderation over HTTP"): every moderation command of the WebSocket
// as a route, for a player proving itself with `Authorization: Bearer PLAYER:TOKEN` (the id and token `hello`
// takes). Thin glue: the body (or the path and query) becomes the command's fields, parsed by the WebSocket's
// parser, and the same action (server/commands/moderation.h) runs on a worker; its answer is the body, its
// refusal an error with the WebSocket's code and an HTTP status.
#include <nlohmann/json.hpp>
#include <string>

#include "server/commands/context.h"
#include "server/commands/moderation.h"
#include "server/http_answers.h"
#include "server/http_api.h"
#include "server/identity.h"
#include "server/metrics.h"
#include "server/moderation_desk.h"
#include "server/room_bus.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server {

using nlohmann::json;

namespace {

// A refusal's HTTP status: who may not (403), what is not there (404), what the state refuses (409), what was
// malformed (400), the store (503).
net::HttpResponse from_outcome(const commands::ModerationOutcome& o, int ok) {
  if (o.code.empty()) return json_response(ok, o.answer);
  int status = 400;
  if (o.code == "forbidden") status = 403;
  else if (o.code == "no_player" || o.code == "no_report" || o.code == "no_room") status = 404;
  else if (o.code == "storage") status = 503;
  else if (o.code == "game_over") status = 409;
  net::HttpResponse r = error_response(status, o.code, o.message);
  if (status == 503) r.headers.emplace_back("Retry-After", "1");
  return r;
}

// `Bearer PLAYER:TOKEN` split; false when the header is absent or of another form.
bool bearer(const std::string& header, std::string& player, std::string& token) {
  static const std::string kPrefix = "Bearer ";
  if (header.size() <= kPrefix.size() || header.compare(0, kPrefix.size(), kPrefix) != 0) return false;
  const std::string credential = header.substr(kPrefix.size());
  const auto colon = credential.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == credential.size()) return false;
  player = credential.substr(0, colon);
  token = credential.substr(colon + 1);
  return player.size() <= 64 && token.size() <= 256;
}

net::HttpResponse unauthorized(const std::string& message) {
  net::HttpResponse r = error_response(401, "bad_token", message);
  r.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"cinq\"");
  return r;
}

}  // namespace

// The route's fields: the body's JSON object (a POST's; none: {}), the path's {name} as `field_from_path`,
// and the query's `status` and `player`.
void HttpApi::moderation_call(Call& call, const char* type, const char* field_from_path, int ok) {
  if (!extra_.commands) return call.respond(error_response(404, "not_found", "no moderation here"));
  std::string player, token;
  if (!bearer(call.request.authorization, player, token))
    return call.respond(unauthorized("send your player id and token: Authorization: Bearer PLAYER:TOKEN"));
  json body = json::object();
  if (call.request.method == "POST" && !blank(call.request.body)) {
    body = json::parse(call.request.body, nullptr, false);
    if (!body.is_object())
      return call.respond(error_response(400, "bad_message", "the body is not a JSON object"));
  }
  // `user` is taken for `player` (the name a script may reach for first).
  if (body.contains("user") && !body.contains("player")) body["player"] = body["user"];
  body.erase("user");
  for (const char* key : {"status", "player"})
    if (auto it = call.query.find(key); it != call.query.end() && !body.contains(key)) body[key] = it->second;
  if (field_from_path) body[field_from_path] = call.params.at(0);
  auto parsed = commands::ModerationCommand::parse(body);
  if (auto* r = std::get_if<Refusal>(&parsed)) return call.respond(error_response(400, r->code, r->message));
  const bool queued = workers_.submit(
      Workers::Kind::quick, [this, type, ok, player, token, cmd = std::get<commands::ModerationCommand>(parsed),
                             request = call.request, respond = call.respond]() mutable {
        note_blocking(services_.metrics);
        auto row = services_.store->player(player);
        if (row.failed()) return respond(busy_response());
        if (!row || matching_token(token, *row).empty())
          return respond(unauthorized("the player id and token do not match"));
        // A banned account's token stays in its store row, but it may do nothing here (as it may not log in).
        if (extra_.commands->moderation.in_force(row->id, "ban", Services::now().unix_ms))
          return respond(error_response(403, "banned", "this account is banned"));
        const lobby::Player by{row->id, row->name, row->username, {}};
        auto answer = [respond, ok](commands::ModerationOutcome o) { respond(from_outcome(o, ok)); };
        if (std::string_view(type) != "mod_close_room")
          return commands::moderate(*extra_.commands, type, by, cmd, answer);
        // Closed where the room is played: here, or its owner node answers the same request.
        rooms_.load(cmd.room, [this, by, cmd, answer, request = std::move(request), respond](
                                  RoomDirectory::Lookup found) mutable {
          if (!found.owner.empty()) return services_.bus->forward_http(found.owner, std::move(request), respond);
          if (found.busy || found.moved) return respond(busy_response());
          if (!found.room) return respond(error_response(404, "no_room", "no room '" + cmd.room + "'"));
          const bool later = workers_.submit(Workers::Kind::quick, [this, by, cmd, answer, room = found.room] {
            commands::close_room(*extra_.commands, by, cmd, room, answer);
          });
          if (!later) respond(busy_response());
        });
      });
  if (!queued) call.respond(busy_response());
}

void HttpApi::mod_role(Call& call) { moderation_call(call, "mod_role"); }
void HttpApi::mod_reports(Call& call) { moderation_call(call, "mod_reports"); }
void HttpApi::mod_resolve(Call& call) { moderation_call(call, "mod_resolve", "report"); }
void HttpApi::mod_audit(Call& call) { moderation_call(call, "mod_audit"); }
void HttpApi::mod_links(Call& call) { moderation_call(call, "mod_links"); }
void HttpApi::mod_player(Call& call) { moderation_call(call, "mod_player", "player"); }
void HttpApi::mod_ban(Call& call) { moderation_call(call, "mod_ban"); }
void HttpApi::mod_unban(Call& call) { moderation_call(call, "mod_unban"); }
void HttpApi::mod_mute(Call& call) { moderation_call(call, "mod_mute"); }
void HttpApi::mod_unmute(Call& call) { moderation_call(call, "mod_unmute"); }
void HttpApi::mod_reset_name(Call& call) { moderation_call(call, "mod_rename"); }
void HttpApi::mod_close_room(Call& call) { moderation_call(call, "mod_close_room"); }
void HttpApi::report(Call& call) { moderation_call(call, "report", nullptr, 201); }
void HttpApi::blocks(Call& call) { moderation_call(call, "blocks"); }
void HttpApi::block(Call& call) { moderation_call(call, "block", "player"); }
void HttpApi::unblock(Call& call) { moderation_call(call, "unblock", "player"); }

}  // namespace cinq::server
