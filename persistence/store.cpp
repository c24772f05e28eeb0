// What both backends of the store share (store.h): opening by spec, whole saves, and the rating change of a
// rated game's end.
#include "persistence/store.h"

#include <string_view>

#include "ratings/glicko2.h"
#include "rules/notation.h"

namespace cinq::store {
namespace {

bool starts_with_scheme(std::string_view spec, std::string_view scheme) {
  return spec.size() >= scheme.size() && spec.substr(0, scheme.size()) == scheme;
}

bool is_postgres(std::string_view spec) {
  return starts_with_scheme(spec, "postgresql://") || starts_with_scheme(spec, "postgres://");
}

}  // namespace

std::unique_ptr<Store> Store::open(const std::string& spec, Error& error) {
  if (is_postgres(spec)) return open_postgres(spec, error);
  if (starts_with_scheme(spec, "sqlite:")) {
    std::string path = spec.substr(7);
    if (path.empty()) {
      error.message = "store " + spec + ": sqlite: names no file (sqlite:PATH)";
      return nullptr;
    }
    return open_sqlite(path, error);
  }
  const auto colon = spec.find("://");
  if (colon != std::string::npos) {
    error.message = "store " + spec.substr(0, colon + 3) + "...: unknown scheme (sqlite:PATH or postgresql://...)";
    return nullptr;
  }
  if (spec.empty()) {
    error.message = "store: empty (sqlite:PATH or postgresql://...)";
    return nullptr;
  }
  return open_sqlite(spec, error);
}

std::string Store::describe(const std::string& spec) {
  if (!is_postgres(spec)) return starts_with_scheme(spec, "sqlite:") ? spec : "sqlite:" + spec;
  // postgresql://USER:PASSWORD@HOST...: the password goes.
  const auto start = spec.find("://") + 3;
  const auto at = spec.find('@', start);
  const auto slash = spec.find('/', start);
  if (at == std::string::npos || (slash != std::string::npos && slash < at)) return spec;
  const auto colon = spec.find(':', start);
  if (colon == std::string::npos || colon > at) return spec;
  return spec.substr(0, colon) + ":***" + spec.substr(at);
}

Store::~Store() = default;

std::optional<GameSave> whole_save(const GameRow& row, Error& error) {
  GameSave save;
  save.row = row;
  if (row.status == "finished") return save;
  auto parts = split_record(row.record);
  if (!parts) {
    error.message = "saving game " + row.id + ": its record does not read: " + parts.error().text();
    return std::nullopt;
  }
  save.row.record = std::move(parts->header);
  save.entries = std::move(parts->entries);
  return save;
}

bool Store::save_game(const GameRow& game, Error& error) { return save_all({}, {game}, error); }

bool Store::save_games(const std::vector<GameRow>& games, Error& error) { return save_all({}, games, error); }

bool Store::save_all(const std::vector<PlayerRow>& players, const std::vector<GameRow>& games, Error& error) {
  std::vector<GameSave> saves;
  saves.reserve(games.size());
  for (const GameRow& game : games) {
    auto save = whole_save(game, error);
    if (!save) return false;
    saves.push_back(std::move(*save));
  }
  return save(players, saves, error);
}

bool changes_ratings(const GameRow& g) {
  return g.rated && g.status == "finished" && g.winner >= 0 && g.winner <= 2 && !g.seat_ids[0].empty() &&
         !g.seat_ids[1].empty();
}

// Each seat is one Glicko-2 rating period against the other's rating before the game, after the idle periods
// since the player's last rated game.
RatedGame rate_game(const GameRow& g, const std::array<RatingRow, 2>& before) {
  RatedGame out;
  std::array<ratings::Rating, 2> now;
  for (int s = 0; s < 2; ++s)
    now[s] = ratings::idle({before[s].rating, before[s].deviation, before[s].volatility},
                           ratings::idle_periods(before[s].last_ms, g.updated_ms));
  for (int s = 0; s < 2; ++s) {
    const double score = g.winner == 2 ? 0.5 : g.winner == s ? 1.0 : 0.0;
    const ratings::Rating after = ratings::update(now[s], {{now[1 - s], score}});
    RatingRow& r = out.after[s];
    r = before[s];
    r.player_id = g.seat_ids[s];
    r.game = g.game;
    r.pool = g.kind;
    r.rating = after.rating;
    r.deviation = after.deviation;
    r.volatility = after.volatility;
    r.games += 1;
    (score == 1.0 ? r.wins : score == 0.0 ? r.losses : r.draws) += 1;
    r.last_ms = g.updated_ms;
    RatingChange& c = out.changes[s];
    c.player_id = g.seat_ids[s];
    c.game_id = g.id;
    c.game = g.game;
    c.pool = g.kind;
    c.at_ms = g.updated_ms;
    c.score = score;
    c.before_rating = now[s].rating;
    c.before_deviation = now[s].deviation;
    c.rating = after.rating;
    c.deviation = after.deviation;
    c.volatility = after.volatility;
  }
  return out;
}

}  // namespace cinq::store
