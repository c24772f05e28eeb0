// The REST API's route table and its read-only routes, and /metrics (docs/protocol.md, "HTTP"). The only
// file of the application that sees Boost.URL (the one percent-decoder of the code base, with the static
// files' in server/net).
#include <algorithm>
#include <charconv>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <nlohmann/json.hpp>
#include <string_view>

#include "analysis/analysis.h"
#include "lobby/game_table.h"
#include "lobby/json_value.h"
#include "lobby/room.h"
#include "rules/notation.h"
#include "rules/registry.h"
#include "server/http_answers.h"
#include "server/analyst.h"
#include "server/http_api.h"

#include <algorithm>
#include "server/postman.h"
#include "server/room_actor.h"
#include "server/room_bus.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server {

using nlohmann::json;

namespace {

// A record's refusal: its line and English text, the rules' reason (`reason_code`, `params`) and, when the
// #! line names a known game, that game (`game`: a reader shows side letters as its words).
json record_error_json(std::string_view text, const Error& error) {
  json e = {{"code", "bad_record"}, {"line", error.line}, {"message", error.text()}};
  lobby::add_reason(lobby::rules_failure("bad_record", error), e);
  if (auto lines = parse_lines(text); lines && !lines->empty() && lines->front().kind == Entry::Kind::header)
    if (const Game* g = find_game(lines->front().game)) e["game"] = std::string(g->name());
  return e;
}

// A record checked and laid out move by move (the import page, the replay after a game): the position after
// each turn, or the first bad line and why. A whole replay: on a worker.
net::HttpResponse replay_response(const std::string& text) {
  if (blank(text)) return blank_record_response();
  auto record = Record::read(text);
  if (!record) {
    return json_response(422, {{"error", record_error_json(text, record.error())}});
  }
  const Game& game = record->game();
  Record step = Record::start(game, record->options());
  json steps = json::array();
  auto snapshot = [&](const json& turn) {
    const State& st = step.state();
    steps.push_back({{"turn", turn},
                     {"round", st.round()},
                     {"to_move", step.finished() ? json(nullptr) : json(st.seat_of(st.to_move()))},
                     {"view", to_json(st.view())}});
  };
  snapshot(nullptr);
  int in_round = 0;  // turns played in the current round: the turn line's number is in_round / 2 + 1
  int round = 1;
  for (const Entry& e : record->entries()) {
    if (e.kind != Entry::Kind::turns) continue;
    for (const TurnText& t : e.turns) {
      if (step.state().round() != round) round = step.state().round(), in_round = 0;
      int number = in_round++ / 2 + 1;
      const std::string text = turn_text(t);
      if (!step.play_turn(text)) break;  // cannot happen for a record that was read
      snapshot({{"number", number}, {"side", std::string(1, t.side)}, {"items", t.items}, {"text", text}});
    }
  }
  json result = record->finished() ? json(record->result_text()) : json(nullptr);
  auto letters = game.side_letters();
  json players = {"", ""};  // by seat: in Bi-litaire's round 2 the letters change hands
  for (int side = 0; side < 2; ++side) players[record->state().seat_of(side)] = record->player(letters[side]);
  return json_response(200, {{"game", std::string(game.name())},
                             {"options", record->options().text()},
                             {"sides", {std::string(1, letters[0]), std::string(1, letters[1])}},
                             {"players", players},
                             {"finished", record->finished()},
                             {"incomplete", record->incomplete()},
                             {"result", result},
                             {"record", record->write()},
                             {"steps", steps}});
}

// The segments of a route's pattern.
std::vector<std::string_view> split_pattern(std::string_view pattern) {
  std::vector<std::string_view> out;
  pattern.remove_prefix(1);  // the leading '/'
  while (true) {
    auto slash = pattern.find('/');
    out.push_back(pattern.substr(0, slash));
    if (slash == std::string_view::npos) return out;
    pattern.remove_prefix(slash + 1);
  }
}

// Whether decoded `path` segments match `pattern`; the {name} values go to `params`.
bool matches(std::string_view pattern, const std::vector<std::string>& path, std::vector<std::string>& params) {
  auto want = split_pattern(pattern);
  if (want.size() != path.size()) return false;
  std::vector<std::string> values;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (want[i].starts_with('{')) {
      if (path[i].empty()) return false;
      values.push_back(path[i]);
    } else if (want[i] != path[i]) {
      return false;
    }
  }
  params = std::move(values);
  return true;
}

}  // namespace

HttpApi::HttpApi(Services& services, RoomDirectory& rooms, Workers& workers, Extra extra)
    : services_(services),
      rooms_(rooms),
      workers_(workers),
      imports_(services.limits.imports_per_hour),
      mail_senders_(services.postman ? static_cast<std::size_t>(services.postman->config().sender_rate) : 30),
      extra_(std::move(extra)) {}

const std::vector<HttpApi::Route>& HttpApi::routes() {
  static const std::vector<Route> kRoutes = {
      {"GET", "/metrics", &HttpApi::metrics},
      {"GET", "/api/health", &HttpApi::health},
      {"GET", "/api/games", &HttpApi::games},
      {"GET", "/api/rooms", &HttpApi::rooms},
      {"GET", "/api/games/table", &HttpApi::game_table},
      {"POST", "/api/replay", &HttpApi::replay, " with a record as the body"},
      {"POST", "/api/games/import", &HttpApi::import_game, " with a record as the body"},
      {"GET", "/api/games/{id}", &HttpApi::game, " (or POST a log to /api/games/{id}/record)"},
      {"GET", "/api/games/{id}/record", &HttpApi::record},
      {"GET", "/api/games/{id}/analysis", &HttpApi::analysis},
      {"GET", "/api/players/{name}", &HttpApi::player},
      {"GET", "/api/players/{name}/games.txt", &HttpApi::player_games},
      {"GET", "/api/leaderboard/{game}", &HttpApi::leaderboard},
      {"GET", "/api/games/{id}/chat", &HttpApi::chat},
      {"POST", "/api/games/{id}/record", &HttpApi::post_record},
      {"POST", "/api/mail/in", &HttpApi::mail_in, " with a mail (RFC 5322) as the body"},
      {"GET", "/api/mail/unsubscribe", &HttpApi::unsubscribe},
      {"POST", "/api/mail/unsubscribe", &HttpApi::unsubscribe},
      {"GET", "/api/mail/confirm", &HttpApi::confirm},
      {"GET", "/api/account/confirm", &HttpApi::account_confirm},
      {"GET", "/api/account/unsubscribe", &HttpApi::account_unsubscribe},
      {"POST", "/api/account/unsubscribe", &HttpApi::account_unsubscribe},
      {"GET", "/api/games/{id}/mail", &HttpApi::seat_mail},
      {"GET", "/api/tournaments", &HttpApi::tournaments},
      {"POST", "/api/tournaments", &HttpApi::tournament_create},
      {"GET", "/api/tournaments/{id}", &HttpApi::tournament},
      {"POST", "/api/tournaments/{id}/join", &HttpApi::tournament_join},
      {"POST", "/api/tournaments/{id}/withdraw", &HttpApi::tournament_withdraw},
      {"POST", "/api/tournaments/{id}/start", &HttpApi::tournament_start},
      {"POST", "/api/games/{id}/mail", &HttpApi::seat_mail},
      // moderation_http.cpp: with Authorization: Bearer PLAYER:TOKEN
      {"GET", "/api/moderation/role", &HttpApi::mod_role},
      {"GET", "/api/moderation/reports", &HttpApi::mod_reports},
      {"GET", "/api/moderation/audit", &HttpApi::mod_audit},
      {"GET", "/api/moderation/linked", &HttpApi::mod_links},
      {"POST", "/api/moderation/ban", &HttpApi::mod_ban, " with {\"player\",\"duration\",\"reason\"}"},
      {"POST", "/api/moderation/unban", &HttpApi::mod_unban, " with {\"player\"}"},
      {"POST", "/api/moderation/mute", &HttpApi::mod_mute, " with {\"player\",\"duration\",\"reason\"}"},
      {"POST", "/api/moderation/unmute", &HttpApi::mod_unmute, " with {\"player\"}"},
      {"POST", "/api/moderation/reset-name", &HttpApi::mod_reset_name, " with {\"player\",\"reason\"}"},
      {"POST", "/api/moderation/close-room", &HttpApi::mod_close_room, " with {\"room\",\"reason\"}"},
      {"GET", "/api/moderation/players/{player}", &HttpApi::mod_player},
      {"POST", "/api/moderation/reports/{id}/resolve", &HttpApi::mod_resolve},
      {"POST", "/api/reports", &HttpApi::report, " with {\"player\",\"reason\",\"room\",\"line\"}"},
      {"GET", "/api/blocks", &HttpApi::blocks},
      {"POST", "/api/blocks/{player}", &HttpApi::block},
      {"DELETE", "/api/blocks/{player}", &HttpApi::unblock},
  };
  return kRoutes;
}

void HttpApi::handle(net::HttpRequest request, Respond respond) {
  auto target = boost::urls::parse_origin_form(request.target);
  if (!target) return respond(error_response(400, "bad_request", "the request target is not a valid URL path"));
  std::vector<std::string> path;
  for (const std::string& segment : target->segments()) path.push_back(segment);
  const std::string method = request.method;

  const Route* found = nullptr;  // the route of this path and method
  std::string allowed, usage;    // the path's methods, when the method is not one of them
  std::string pattern;
  std::vector<std::string> params;
  for (const Route& route : routes()) {
    if (!pattern.empty() ? route.pattern != pattern : !matches(route.pattern, path, params)) continue;
    pattern = route.pattern;
    if (method == route.method || (method == "HEAD" && std::string_view(route.method) == "GET")) {
      found = &route;
      break;
    }
    allowed += (allowed.empty() ? "" : ", ") + std::string(route.method);
    if (usage.empty()) usage = route.usage;
  }
  if (!found) {
    if (pattern.empty())
      return respond(error_response(404, "not_found", "no such resource: " + std::string(target->path())));
    net::HttpResponse r = error_response(405, "method", "use " + allowed + usage);
    r.headers.emplace_back("Allow", allowed.find("GET") != std::string::npos ? allowed + ", HEAD" : allowed);
    return respond(r);
  }
  std::map<std::string, std::string> query;
  for (const auto& param : target->params()) query[param.key] = param.value;
  // `target` views request.target: everything is taken from it before the request moves.
  auto handler = found->handler;
  Call call{std::move(request), std::move(params), std::move(query), std::move(respond)};
  (this->*handler)(call);
}

// ---------------------------------------------------------------------------------------------------------

void HttpApi::health(Call& call) {
  auto up =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_).count();
  json body = {{"status", "ok"},
               {"uptime_s", up},
               {"rooms", rooms_.size()},
               {"connections", services_.net->stats().connections_open.load()}};
  int status = 200;
  // A node that is handing its rooms over (SIGTERM) takes no new clients: the balancer sees it (503).
  if (services_.bus && !services_.bus->health(body)) {
    body["status"] = "draining";
    status = 503;
  }
  call.respond(json_response(status, body));
}

void HttpApi::game_table(Call& call) {
  net::HttpResponse r = json_response(200, json::object());
  r.body = lobby::game_table_text();
  call.respond(std::move(r));
}

void HttpApi::games(Call& call) {
  for (const char* key : {"player", "game", "result", "rated", "from", "to", "page"})
    if (call.query.count(key)) return archive(call);
  rooms_page(call, "games");
}

void HttpApi::rooms(Call& call) { rooms_page(call, "rooms"); }

// A page of the public rooms (lobby::RoomPages), as `/api/rooms?page=N` ("rooms") and `/api/games` ("games").
void HttpApi::rooms_page(Call& call, const char* member) {
  int page = 1;
  if (auto it = call.query.find("page"); it != call.query.end()) {
    const std::string& text = it->second;
    const bool digits = !text.empty() && text.size() <= 6 &&
                        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    page = digits ? std::stoi(text) : 0;
    if (page < 1) return call.respond(error_response(400, "bad_request", "page: a number from 1"));
  }
  const lobby::RoomPages::Page p =
      services_.room_pages.page(services_.bus ? services_.bus->public_list() : rooms_.public_list(), page);
  net::HttpResponse r = json_response(200, json::object());
  r.body = std::string(R"({")") + member + R"(":)" + p.rooms + R"(,"page":)" + std::to_string(p.page) +
           R"(,"pages":)" + std::to_string(p.pages) + R"(,"per_page":)" + std::to_string(lobby::RoomPages::kPerPage) +
           R"(,"total":)" + std::to_string(p.total) + "}";
  call.respond(std::move(r));
}

void HttpApi::game(Call& call) { show_room(call, false); }

void HttpApi::record(Call& call) { show_room(call, true); }

void HttpApi::show_room(Call& call, bool record_only) {
  const std::string id = call.params.at(0);
  rooms_.load(id, [this, id, record_only, request = call.request, respond = call.respond](
                     RoomDirectory::Lookup found) mutable {
    if (!found.owner.empty()) return services_.bus->forward_http(found.owner, std::move(request), respond);
    if (found.busy || found.moved) return respond(busy_response());
    if (!found.room) return respond(error_response(404, "not_found", "no game '" + id + "'"));
    found.room->post([record_only, respond](RoomActor& a) {
      a.when_settled([&a, record_only, respond] {
        if (record_only) {
          net::HttpResponse r;
          r.content_type = "text/plain; charset=utf-8";
          r.body = a.room().record().write();
          r.headers.emplace_back("Content-Disposition", "inline; filename=\"" + a.id() + ".txt\"");
          return respond(r);
        }
        json state = a.room().state_json(Services::now());
        state.erase("type");
        respond(json_response(200, state));
      }, [respond] { respond(storage_response()); });
    });
  });
}

// A game's chat as stored: the players' lines, and the spectators' once the game is over (during
// it, the players do not read those). Read from the store once everything said so far is stored.
void HttpApi::analysis(Call& call) {
  const std::string id = call.params.at(0);
  analysis::Settings settings;
  settings.depth = services_.analyst ? services_.analyst->default_depth() : analysis::kDefaultDepth;
  for (const char* key : {"depth", "think_ms"}) {
    if (!call.query.count(key)) continue;
    const std::string& text = call.query[key];
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size())
      return call.respond(error_response(400, "bad_request", std::string(key) + ": '" + text + "' is not an integer"));
    if (std::string_view(key) == "depth")
      settings.depth = static_cast<int>(std::clamp<std::int64_t>(n, -1, 1000));
    else
      settings.think_ms = n == 0 ? -1 : std::clamp<std::int64_t>(n, -1, 1000000);
  }
  if (auto bad = analysis::check(settings)) return call.respond(error_response(400, "bad_request", *bad));
  bool queued = workers_.submit(Workers::Kind::quick, [this, id, settings, respond = call.respond] {
    note_blocking(services_.metrics);
    auto row = services_.store->analysis(id, settings.key());
    if (row.failed()) return respond(storage_response());
    // Not computed yet: nothing to show, which is no error (a finished game's page asks at every opening).
    if (!row) {
      net::HttpResponse none;
      none.status = 204;
      return respond(none);
    }
    net::HttpResponse r;
    r.content_type = "application/json";
    r.body = row->analysis;
    respond(r);
  });
  if (!queued) call.respond(busy_response());
}

void HttpApi::chat(Call& call) {
  const std::string id = call.params.at(0);
  rooms_.load(id, [this, id, request = call.request, respond = call.respond](RoomDirectory::Lookup found) mutable {
    if (!found.owner.empty()) return services_.bus->forward_http(found.owner, std::move(request), respond);
    if (found.busy || found.moved) return respond(busy_response());
    if (!found.room) return respond(error_response(404, "not_found", "no game '" + id + "'"));
    found.room->post([this, id, respond](RoomActor& a) {
      a.when_settled([this, &a, id, respond] {
        const bool finished = a.room().status() == lobby::Status::finished;
        bool queued = workers_.submit(Workers::Kind::quick, [this, id, finished, respond] {
          note_blocking(services_.metrics);
          json lines = json::array();
          for (const store::ChatRow& c : services_.store->chat(id)) {
            if (c.channel == "spectators" && !finished) continue;
            lines.push_back(lobby::chat_json({c.at_ms, c.channel == "spectators", c.seat, c.player_id, c.name, c.text}));
          }
          respond(json_response(200, {{"room", id}, {"chat", std::move(lines)}}));
        });
        if (!queued) respond(busy_response());
      }, [respond] { respond(storage_response()); });
    });
  });
}

void HttpApi::replay(Call& call) {
  bool queued = workers_.submit(Workers::Kind::bulk,
                                [this, body = std::move(call.request.body), respond = call.respond] {
                                  note_blocking(services_.metrics);
                                  respond(replay_response(body));
                                });
  if (!queued) call.respond(busy_response());
}

void HttpApi::metrics(Call& call) {
  const net::Stats& s = services_.net->stats();
  const RoomDirectory::Counts rooms = rooms_.counts();
  const std::size_t seeks = extra_.seeks ? extra_.seeks() : 0;
  std::string out;
  auto metric = [&out](const char* name, const char* type, const char* help, std::int64_t value,
                       const std::string& labels = {}) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n" + name +
           labels + " " + std::to_string(value) + "\n";
  };
  metric("cinq_connections", "gauge", "WebSocket connections open.", s.connections_open.load());
  metric("cinq_connections_total", "counter", "WebSocket connections accepted.", s.connections_total.load());
  metric("cinq_connections_refused_total", "counter",
         "Upgrades refused: too many connections from one address.", s.connections_refused.load());
  metric("cinq_http_requests_total", "counter", "HTTP requests.", s.http_requests_total.load());
  metric("cinq_messages_in_total", "counter", "WebSocket messages received.", s.messages_in_total.load());
  metric("cinq_messages_out_total", "counter", "WebSocket messages sent.", s.messages_out_total.load());
  metric("cinq_send_queue_drops_total", "counter", "Connections closed because their send queue was full.",
         s.send_queue_drops_total.load());
  metric("cinq_oversize_closes_total", "counter", "Connections closed for a frame over the hard cap.",
         s.oversize_closes_total.load());
  metric("cinq_http_connections", "gauge", "HTTP connections open (not upgraded to WebSocket).",
         s.http_open.load());
  metric("cinq_http_connections_refused_total", "counter",
         "HTTP connections closed at once: too many open from one address.", s.http_refused_total.load());
  metric("cinq_http_rate_limited_total", "counter", "HTTP requests answered 429: too many a second from one address.",
         s.http_rate_limited_total.load());
  metric("cinq_connections_shed_total", "counter",
         "Connections refused to keep descriptors in reserve (--fd-reserve).", s.connections_shed_total.load());
  out += "# HELP cinq_rooms Rooms in memory, by status.\n# TYPE cinq_rooms gauge\n";
  out += "cinq_rooms{status=\"open\"} " + std::to_string(rooms.open) + "\n";
  out += "cinq_rooms{status=\"live\"} " + std::to_string(rooms.live) + "\n";
  out += "cinq_rooms{status=\"finished\"} " + std::to_string(rooms.finished) + "\n";
  metric("cinq_seeks", "gauge", "Seeks waiting for a partner.", static_cast<std::int64_t>(seeks));
  const Metrics& m = services_.metrics;
  metric("cinq_turns_accepted_total", "counter", "Act messages applied.", m.turns_accepted.load());
  metric("cinq_turns_rejected_total", "counter", "Act messages refused.", m.turns_rejected.load());
  metric("cinq_games_finished_total", "counter", "Games finished.", m.games_finished.load());
  metric("cinq_store_failures_total", "counter", "Saves that failed.", m.store_failures.load());
  metric("cinq_store_commits_total", "counter", "Transactions committed (each may hold several saves).",
         m.commits.load());
  metric("cinq_store_rows_committed_total", "counter", "Game rows written by those transactions.",
         m.rows_committed.load());
  metric("cinq_players_created_total", "counter", "Guest identities created.", m.players_created.load());
  metric("cinq_rate_limited_total", "counter", "Messages dropped by the rate limits.", m.rate_limited.load());
  metric("cinq_login_throttled_total", "counter", "Login and password attempts refused by the login throttle.",
         m.login_throttled.load());
  metric("cinq_store_queue", "gauge", "Saves waiting for the store's thread.",
         static_cast<std::int64_t>(services_.writer->queued()));
  metric("cinq_workers_busy", "gauge", "Worker threads running a job (store reads, record replays).",
         workers_.busy());
  metric("cinq_workers_queued", "gauge", "Jobs waiting for a worker thread.",
         static_cast<std::int64_t>(workers_.queued()));
  metric("cinq_blocking_on_network_total", "counter",
         "Store reads and whole-record replays done on a network thread (0 when all run on the workers).",
         m.blocking_on_network.load());
  metric("cinq_bot_turns_total", "counter", "Turns chosen by the computer opponents.", m.bot_turns.load());
  metric("cinq_bot_turns_dropped_total", "counter",
         "Bot turns chosen for a position that had changed meanwhile (never played).",
         m.bot_turns_dropped.load());
  metric("cinq_bots_busy", "gauge", "Bot threads thinking now.", m.bots_busy.load());
  metric("cinq_bots_queued", "gauge", "Bot turns waiting for a bot thread.", m.bots_queued.load());
  metric("cinq_hints_total", "counter", "Hints given in games against the computer.", m.hints.load());
  metric("cinq_analyses_total", "counter", "Analyses of finished games computed.", m.analyses.load());
  metric("cinq_analyses_busy", "gauge", "Analyses being computed.", m.analyses_busy.load());
  metric("cinq_analyses_queued", "gauge", "Analyses waiting for an analysis thread.", m.analyses_queued.load());
  out += "# HELP cinq_limit_refusals_total Requests refused by a per-player or per-address limit.\n"
         "# TYPE cinq_limit_refusals_total counter\n";
  out += "cinq_limit_refusals_total{limit=\"open_rooms\"} " + std::to_string(m.refused_open_rooms.load()) + "\n";
  out += "cinq_limit_refusals_total{limit=\"bot_rooms\"} " + std::to_string(m.refused_bot_rooms.load()) + "\n";
  out += "cinq_limit_refusals_total{limit=\"imports\"} " + std::to_string(m.refused_imports.load()) + "\n";
  metric("cinq_rooms_expired_total", "counter", "Open rooms aborted: nobody held a seat in them (--open-room-expiry).",
         m.rooms_expired.load());
  out += m.errors_text();
  out += m.mail_text();
  out += m.act_latency.text("cinq_act_latency_seconds",
                            "From an act message's arrival to its event leaving, its save included.");
  out += m.commit_latency.text("cinq_store_commit_seconds",
                               "One commit (a group of saves), on the store's thread.");
  out += m.bot_think.text("cinq_bot_think_seconds", "One bot turn's search, on a bot thread.");
  if (services_.bus) out += services_.bus->metrics_text();
  net::HttpResponse r;
  r.content_type = "text/plain; version=0.0.4; charset=utf-8";
  r.body = std::move(out);
  call.respond(std::move(r));
}

}  // namespace cinq::server
