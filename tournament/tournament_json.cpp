// The saved form of a tournament (tournament.h, "Saved form"): every field, so that a restarted server has the
// same standings and pairs the same rounds.
#include <nlohmann/json.hpp>

#include "tournament/tournament.h"

namespace cinq::tournament {

namespace {

using nlohmann::json;

const char* sit_out_name(SitOut k) { return k == SitOut::bye ? "bye" : "absent"; }

}  // namespace

json Tournament::to_json() const {
  json spec = {{"name", spec_.name},
               {"format", format_name(spec_.format)},
               {"game", spec_.game},
               {"options", spec_.options},
               {"rated", spec_.rated},
               {"rounds", spec_.rounds},
               {"double_round_robin", spec_.double_round_robin},
               {"duration_ms", spec_.duration_ms},
               {"pace", {{"base_ms", spec_.pace.base_ms}, {"increment_ms", spec_.pace.increment_ms}, {"days", spec_.pace.days}}},
               {"start_ms", spec_.start_ms ? json(*spec_.start_ms) : json(nullptr)},
               {"creator", spec_.creator}};
  json entrants = json::array();
  for (const Entrant& e : entrants_)
    entrants.push_back({{"id", e.id},
                        {"name", e.name},
                        {"rating", e.rating},
                        {"joined_ms", e.joined_ms},
                        {"entry", e.entry},
                        {"first_round", e.first_round},
                        {"withdrawn", e.withdrawn},
                        {"absent", e.absent}});
  json games = json::array();
  for (const Game& g : games_)
    games.push_back({{"id", g.id},
                     {"round", g.round},
                     {"board", g.board},
                     {"seats", {g.seats[0], g.seats[1]}},
                     {"result", result_name(g.result)},
                     {"room", g.room},
                     {"paired_ms", g.paired_ms},
                     {"ended_ms", g.ended_ms}});
  json rests = json::array();
  for (const Rest& r : rests_) rests.push_back({{"round", r.round}, {"player", r.player}, {"kind", sit_out_name(r.kind)}});
  return {{"format_version", kFormatVersion},
          {"id", id_},
          {"spec", std::move(spec)},
          {"status", status_name(status_)},
          {"version", version_},
          {"created_ms", created_ms_},
          {"started_ms", started_ms_},
          {"ends_ms", ends_ms_},
          {"round", round_},
          {"total_rounds", total_rounds_},
          {"order", order_},
          {"next_number", next_number_},
          {"entrants", std::move(entrants)},
          {"games", std::move(games)},
          {"rests", std::move(rests)}};
}

std::optional<Tournament> Tournament::from_json(const json& j, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<Tournament> {
    if (error) *error = why;
    return std::nullopt;
  };
  try {
    if (j.at("format_version").get<int>() != kFormatVersion)
      return fail("unknown format_version " + j.at("format_version").dump());
    Tournament t;
    t.id_ = j.at("id").get<std::string>();
    const json& s = j.at("spec");
    const auto format = format_named(s.at("format").get<std::string>());
    if (!format) return fail("unknown format " + s.at("format").dump());
    t.spec_.format = *format;
    t.spec_.name = s.at("name").get<std::string>();
    t.spec_.game = s.at("game").get<std::string>();
    t.spec_.options = s.at("options").get<std::string>();
    t.spec_.rated = s.at("rated").get<bool>();
    t.spec_.rounds = s.at("rounds").get<int>();
    t.spec_.double_round_robin = s.at("double_round_robin").get<bool>();
    t.spec_.duration_ms = s.at("duration_ms").get<std::int64_t>();
    const json& pace = s.at("pace");
    t.spec_.pace = Pace{pace.at("base_ms").get<std::int64_t>(), pace.at("increment_ms").get<std::int64_t>(),
                        pace.at("days").get<std::int64_t>()};
    if (!s.at("start_ms").is_null()) t.spec_.start_ms = s.at("start_ms").get<std::int64_t>();
    t.spec_.creator = s.at("creator").get<std::string>();
    const std::string status = j.at("status").get<std::string>();
    bool known = false;
    for (Status st : {Status::open, Status::running, Status::finished})
      if (status == status_name(st)) {
        t.status_ = st;
        known = true;
      }
    if (!known) return fail("unknown status " + status);
    t.version_ = j.at("version").get<std::int64_t>();
    t.created_ms_ = j.at("created_ms").get<std::int64_t>();
    t.started_ms_ = j.at("started_ms").get<std::int64_t>();
    t.ends_ms_ = j.at("ends_ms").get<std::int64_t>();
    t.round_ = j.at("round").get<int>();
    t.total_rounds_ = j.at("total_rounds").get<int>();
    t.order_ = j.at("order").get<std::vector<std::string>>();
    t.next_number_ = j.at("next_number").get<int>();
    for (const json& e : j.at("entrants"))
      t.entrants_.push_back(Entrant{e.at("id").get<std::string>(), e.at("name").get<std::string>(),
                                    e.at("rating").get<double>(), e.at("joined_ms").get<std::int64_t>(),
                                    e.at("entry").get<int>(), e.at("first_round").get<int>(),
                                    e.at("withdrawn").get<bool>(), e.at("absent").get<bool>()});
    for (const json& g : j.at("games")) {
      Game game;
      game.id = g.at("id").get<std::string>();
      game.round = g.at("round").get<int>();
      game.board = g.at("board").get<int>();
      game.seats = {g.at("seats").at(0).get<std::string>(), g.at("seats").at(1).get<std::string>()};
      const auto result = result_named(g.at("result").get<std::string>());
      if (!result) return fail("unknown result " + g.at("result").dump());
      game.result = *result;
      game.room = g.at("room").get<std::string>();
      game.paired_ms = g.at("paired_ms").get<std::int64_t>();
      game.ended_ms = g.at("ended_ms").get<std::int64_t>();
      t.games_.push_back(std::move(game));
    }
    for (const json& r : j.at("rests")) {
      const std::string kind = r.at("kind").get<std::string>();
      if (kind != "bye" && kind != "absent") return fail("unknown rest " + kind);
      t.rests_.push_back(Rest{r.at("round").get<int>(), r.at("player").get<std::string>(),
                              kind == "bye" ? SitOut::bye : SitOut::absent});
    }
    return t;
  } catch (const json::exception& e) {
    return fail(std::string("bad saved tournament: ") + e.what());
  }
}

}  // namespace cinq::tournament
