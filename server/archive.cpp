// The archive, players and leaderboards over HTTP (docs/protocol.md "Players and the archive"):
// store reads on a worker, never a network thread.
#include <nlohmann/json.hpp>

#include <cmath>
#include <ctime>

#include "ratings/glicko2.h"
#include "rules/registry.h"
#include "server/http_answers.h"
#include "server/http_api.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server {

using nlohmann::json;

namespace {

constexpr int kPerPage = 20;

double rounded(double x) { return std::round(x * 10) / 10; }

json rating_json(const store::RatingRow& r) {
  return {{"game", r.game},         {"pool", r.pool},
          {"rating", rounded(r.rating)}, {"deviation", rounded(r.deviation)},
          {"provisional", r.deviation > ratings::kProvisionalDeviation},
          {"games", r.games},       {"wins", r.wins},
          {"losses", r.losses},     {"draws", r.draws}};
}

// A finished game as the archive lists it. `names` maps player ids to user names (accounts only).
json archive_json(const store::GameRow& g, const std::map<std::string, std::string>& usernames) {
  json seats = json::array();
  for (int s = 0; s < 2; ++s) {
    json seat = {{"name", g.seat_names[s]}};
    if (auto it = usernames.find(g.seat_ids[s]); it != usernames.end()) seat["username"] = it->second;
    seats.push_back(std::move(seat));
  }
  return {{"id", g.id},
          {"game", g.game},
          {"kind", g.kind},
          {"rated", g.rated},
          {"result", g.result},
          {"winner", g.winner == 0 || g.winner == 1 ? json(g.winner) : json(nullptr)},
          {"draw", g.winner == 2},
          {"seats", std::move(seats)},
          {"turns", g.turns},
          {"updated_ms", g.updated_ms}};
}

// The user names of the games' seated players (a read per distinct player).
std::map<std::string, std::string> usernames_of(store::Store& store, const std::vector<store::GameRow>& games) {
  std::map<std::string, std::string> out;
  for (const auto& g : games)
    for (const auto& id : g.seat_ids) {
      if (id.empty() || out.count(id)) continue;
      auto row = store.player(id);
      out[id] = row ? row->username : "";
    }
  std::erase_if(out, [](const auto& kv) { return kv.second.empty(); });
  return out;
}

// YYYY-MM-DD as Unix ms at 00:00 UTC; nullopt if not a date.
std::optional<std::int64_t> day_ms(const std::string& text) {
  std::tm tm{};
  int y = 0, m = 0, d = 0;
  char tail = 0;
  if (text.size() != 10 || std::sscanf(text.c_str(), "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3 || m < 1 ||
      m > 12 || d < 1 || d > 31)
    return std::nullopt;
  tm.tm_year = y - 1900;
  tm.tm_mon = m - 1;
  tm.tm_mday = d;
  return static_cast<std::int64_t>(timegm(&tm)) * 1000;
}

}  // namespace

void HttpApi::player(Call& call) {
  bool queued = workers_.submit(Workers::Kind::quick, [this, name = call.params.at(0), respond = call.respond] {
    note_blocking(services_.metrics);
    store::Store& store = *services_.store;
    auto row = store.player_by_username(name);
    if (!row) return respond(error_response(404, "not_found", "no player '" + name + "'"));
    json ratings_out = json::array();
    for (const auto& r : store.ratings(row->id)) ratings_out.push_back(rating_json(r));
    json history = json::array();
    auto changes = store.rating_history(row->id);
    for (auto it = changes.rbegin(); it != changes.rend(); ++it)  // oldest first: what a chart draws
      history.push_back({{"game", it->game},
                         {"pool", it->pool},
                         {"game_id", it->game_id},
                         {"at_ms", it->at_ms},
                         {"score", it->score},
                         {"rating", rounded(it->rating)},
                         {"deviation", rounded(it->deviation)},
                         {"change", rounded(it->rating - it->before_rating)}});
    store::ArchiveQuery q;
    q.player_id = row->id;
    q.limit = kPerPage;
    std::int64_t total = 0;
    auto games = store.search_games(q, &total);
    auto names = usernames_of(store, games);
    json list = json::array();
    for (const auto& g : games) list.push_back(archive_json(g, names));
    respond(json_response(200, {{"username", row->username},
                                {"name", row->name},
                                {"created_ms", row->created_ms},
                                {"ratings", std::move(ratings_out)},
                                {"history", std::move(history)},
                                {"games", std::move(list)},
                                {"games_total", total}}));
  });
  if (!queued) call.respond(busy_response());
}

// Every finished public game of a player as one text: the records one after another, a blank line between
// (docs/notation.md, "Several records in one file").
void HttpApi::player_games(Call& call) {
  bool queued = workers_.submit(Workers::Kind::bulk, [this, name = call.params.at(0), respond = call.respond] {
    note_blocking(services_.metrics);
    store::Store& store = *services_.store;
    auto row = store.player_by_username(name);
    if (!row) return respond(error_response(404, "not_found", "no player '" + name + "'"));
    store::ArchiveQuery q;
    q.player_id = row->id;
    q.limit = 10000;
    auto games = store.search_games(q);
    net::HttpResponse r;
    r.content_type = "text/plain; charset=utf-8";
    for (auto it = games.rbegin(); it != games.rend(); ++it) {  // oldest first, as they were played
      if (!r.body.empty()) r.body += "\n";
      r.body += it->record;
      if (!r.body.empty() && r.body.back() != '\n') r.body += "\n";
    }
    r.headers.emplace_back("Content-Disposition", "attachment; filename=\"" + row->username + "-games.txt\"");
    respond(std::move(r));
  });
  if (!queued) call.respond(busy_response());
}

void HttpApi::leaderboard(Call& call) {
  const std::string game = call.params.at(0);
  if (!find_game(game)) return call.respond(error_response(404, "not_found", "no game '" + game + "'"));
  std::string pool = call.query.count("pool") ? call.query.at("pool") : "live";
  if (pool != "live" && pool != "correspondence")
    return call.respond(error_response(400, "bad_request", "pool is 'live' or 'correspondence'"));
  bool queued = workers_.submit(Workers::Kind::quick, [this, game, pool, respond = call.respond] {
    note_blocking(services_.metrics);
    json players = json::array();
    int rank = 0;
    for (const auto& r : services_.store->leaderboard(game, pool, ratings::kProvisionalDeviation))
      players.push_back({{"rank", ++rank},
                         {"username", r.username},
                         {"rating", rounded(r.rating)},
                         {"deviation", rounded(r.deviation)},
                         {"games", r.games}});
    respond(json_response(200, {{"game", game}, {"pool", pool}, {"players", std::move(players)}}));
  });
  if (!queued) call.respond(busy_response());
}

void HttpApi::archive(Call& call) {
  auto bad = [&](const std::string& why) { call.respond(error_response(400, "bad_request", why)); };
  const auto& query = call.query;
  auto get = [&](const char* key) { return query.count(key) ? query.at(key) : std::string(); };
  store::ArchiveQuery q;
  q.game = get("game");
  if (!q.game.empty() && !find_game(q.game)) return bad("game: no game '" + q.game + "'");
  q.result = get("result");
  if (!q.result.empty() && q.result != "win" && q.result != "loss" && q.result != "draw" &&
      q.result != "decided" && q.result != "aborted")
    return bad("result: win, loss, draw, decided or aborted");
  const std::string player = get("player");
  if ((q.result == "win" || q.result == "loss") && player.empty()) return bad("result: win and loss need a player");
  const std::string rated = get("rated");
  if (!rated.empty() && rated != "true" && rated != "false") return bad("rated: true or false");
  q.rated = rated.empty() ? -1 : rated == "true" ? 1 : 0;
  for (const char* key : {"from", "to"}) {
    if (get(key).empty()) continue;
    auto ms = day_ms(get(key));
    if (!ms) return bad(std::string(key) + ": a date YYYY-MM-DD");
    (std::string(key) == "from" ? q.from_ms : q.to_ms) = std::string(key) == "to" ? *ms + 24LL * 3600 * 1000 : *ms;
  }
  int page = 1;
  if (!get("page").empty()) {
    try {
      std::size_t used = 0;
      page = std::stoi(get("page"), &used);
      if (used != get("page").size() || page < 1 || page > 100000) throw std::out_of_range("page");
    } catch (const std::exception&) {
      return bad("page: a number from 1");
    }
  }
  q.limit = kPerPage;
  q.offset = (page - 1) * kPerPage;
  bool queued = workers_.submit(Workers::Kind::quick, [this, q, player, page, respond = call.respond]() mutable {
    note_blocking(services_.metrics);
    store::Store& store = *services_.store;
    json empty = {{"games", json::array()}, {"page", page}, {"per_page", kPerPage}, {"total", 0}};
    if (!player.empty()) {
      auto row = store.player_by_username(player);
      if (!row) return respond(json_response(200, empty));
      q.player_id = row->id;
    }
    std::int64_t total = 0;
    auto games = store.search_games(q, &total);
    auto names = usernames_of(store, games);
    json list = json::array();
    for (const auto& g : games) list.push_back(archive_json(g, names));
    respond(json_response(200, {{"games", std::move(list)}, {"page", page}, {"per_page", kPerPage}, {"total", total}}));
  });
  if (!queued) call.respond(busy_response());
}

}  // namespace cinq::server
