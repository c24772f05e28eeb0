// The REST API and /metrics (docs/protocol.md, "HTTP"). Live rooms answer from their strand once settled
// (so a state never shows a turn not yet stored); other games come from the store.
#include <nlohmann/json.hpp>

#include "lobby/json_value.h"
#include "rules/notation.h"
#include "server/app.h"
#include "server/http_answers.h"

namespace cinq::server {

using nlohmann::json;

namespace {

// A record checked and laid out move by move (the import page, the replay after a game): the position after
// each turn, or the first bad line and why.
net::HttpResponse replay_response(const std::string& text) {
  auto record = Record::read(text);
  if (!record) {
    return json_response(
        422, {{"error",
               {{"code", "bad_record"}, {"line", record.error().line}, {"message", record.error().text()}}}});
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

}  // namespace

void App::on_http(net::HttpRequest request, std::function<void(net::HttpResponse)> respond) {
  std::string path = request.target.substr(0, request.target.find('?'));
  bool read = request.method == "GET" || request.method == "HEAD";
  if (path == "/metrics") {
    if (!read) return respond(error_response(405, "method", "use GET"));
    return respond(metrics_text());
  }
  if (path == "/api/health") {
    if (!read) return respond(error_response(405, "method", "use GET"));
    std::size_t rooms = 0;
    {
      std::lock_guard lock(rooms_mutex_);
      rooms = rooms_.size();
    }
    auto up =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_).count();
    return respond(json_response(200, {{"status", "ok"},
                                       {"uptime_s", up},
                                       {"rooms", rooms},
                                       {"connections", services_.net->stats().connections_open.load()}}));
  }
  if (path == "/api/games") {
    if (!read) return respond(error_response(405, "method", "use GET"));
    return respond(json_response(200, {{"games", room_list()}}));
  }
  if (path == "/api/replay") {
    if (request.method != "POST")
      return respond(error_response(405, "method", "use POST with a record as the body"));
    return respond(replay_response(request.body));
  }
  const std::string prefix = "/api/games/";
  if (path == "/api/games/import") {
    if (request.method != "POST")
      return respond(error_response(405, "method", "use POST with a record as the body"));
    return import_game(request, std::move(respond));
  }
  if (path.rfind(prefix, 0) == 0 && request.method == "POST" && path.ends_with("/record")) {
    std::string id = path.substr(prefix.size(), path.size() - prefix.size() - std::string("/record").size());
    if (id.find('/') != std::string::npos)
      return respond(error_response(404, "not_found", "no such resource"));
    return post_record(id, request, std::move(respond));
  }
  if (path.rfind(prefix, 0) == 0) {
    if (!read)
      return respond(error_response(405, "method", "use GET (or POST a log to /api/games/{id}/record)"));
    std::string rest = path.substr(prefix.size());
    bool record = false;
    if (auto slash = rest.find('/'); slash != std::string::npos) {
      if (rest.substr(slash) != "/record")
        return respond(error_response(404, "not_found", "no such resource"));
      record = true;
      rest = rest.substr(0, slash);
    }
    auto actor = find_room(rest);
    if (!actor) return respond(error_response(404, "not_found", "no game '" + rest + "'"));
    actor->post([record, respond](RoomActor& a) {
      a.when_settled([&a, record, respond] {
        if (record) {
          net::HttpResponse r;
          r.content_type = "text/plain; charset=utf-8";
          r.body = a.room().record().write();
          r.headers.emplace_back("Content-Disposition", "inline; filename=\"" + a.id() + ".txt\"");
          return respond(r);
        }
        json state = a.room().state_json(Services::now());
        state.erase("type");
        respond(json_response(200, state));
      });
    });
    return;
  }
  respond(error_response(404, "not_found", "no such resource: " + path));
}

net::HttpResponse App::metrics_text() {
  const net::Stats& s = services_.net->stats();
  std::size_t open = 0, live = 0, finished = 0;
  {
    std::vector<std::shared_ptr<RoomActor>> actors;
    {
      std::lock_guard lock(rooms_mutex_);
      for (const auto& [id, a] : rooms_) actors.push_back(a);
    }
    for (const auto& a : actors) {
      auto st = a->listing().status;
      ++(st == lobby::Status::open ? open : st == lobby::Status::live ? live : finished);
    }
  }
  std::size_t seeks = 0;
  {
    std::lock_guard lock(seeks_mutex_);
    seeks = seeks_.size();
  }
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
  out += "# HELP cinq_rooms Rooms in memory, by status.\n# TYPE cinq_rooms gauge\n";
  out += "cinq_rooms{status=\"open\"} " + std::to_string(open) + "\n";
  out += "cinq_rooms{status=\"live\"} " + std::to_string(live) + "\n";
  out += "cinq_rooms{status=\"finished\"} " + std::to_string(finished) + "\n";
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
  metric("cinq_store_queue", "gauge", "Saves waiting for the store's thread.",
         static_cast<std::int64_t>(services_.writer->queued()));
  metric("cinq_bot_turns_total", "counter", "Turns chosen by the computer opponents.", m.bot_turns.load());
  metric("cinq_bot_turns_dropped_total", "counter",
         "Bot turns chosen for a position that had changed meanwhile (never played).",
         m.bot_turns_dropped.load());
  metric("cinq_bots_busy", "gauge", "Bot threads thinking now.", m.bots_busy.load());
  metric("cinq_bots_queued", "gauge", "Bot turns waiting for a bot thread.", m.bots_queued.load());
  out += m.errors_text();
  out += m.act_latency.text("cinq_act_latency_seconds",
                            "From an act message's arrival to its event leaving, its save included.");
  out += m.commit_latency.text("cinq_store_commit_seconds",
                               "One commit (a group of saves), on the store's thread.");
  out += m.bot_think.text("cinq_bot_think_seconds", "One bot turn's search, on a bot thread.");
  net::HttpResponse r;
  r.content_type = "text/plain; version=0.0.4; charset=utf-8";
  r.body = std::move(out);
  return r;
}

}  // namespace cinq::server
