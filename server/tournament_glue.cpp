// What the server shows and makes of a tournament (tournament_glue.h).
#include "server/tournament_glue.h"

#include <cmath>
#include <map>

#include "rules/notation.h"

namespace cinq::server {

using nlohmann::json;
namespace tn = tournament;

namespace {

// The outcome from what a finished game holds: its winner (a seat, 2 a draw, -1 none), whether it was
// aborted, whether for a missing first move, and then the seat that was to move.
std::optional<TournamentOutcome> outcome_of(int winner, bool aborted, bool no_first_move, int to_move) {
  TournamentOutcome o;
  if (winner == 0 || winner == 1) {
    o.result = winner == 0 ? tn::Result::first_wins : tn::Result::second_wins;
    return o;
  }
  if (winner == 2) {
    o.result = tn::Result::draw;
    return o;
  }
  if (!aborted) return std::nullopt;  // finished with no winner, not aborted: not a result we know
  o.forfeit = true;
  if (no_first_move && (to_move == 0 || to_move == 1)) o.present[1 - to_move] = true;
  return o;
}

bool mentions_no_first_move(const std::string& record) {
  return record.find(lobby::Room::kNoFirstMove) != std::string::npos;
}

}  // namespace

std::optional<TournamentOutcome> tournament_outcome(const lobby::Room& room) {
  if (room.status() != lobby::Status::finished) return std::nullopt;
  auto r = room.record().result();
  if (!r) return std::nullopt;
  const int winner = r->kind == Outcome::Kind::win ? r->winner : r->kind == Outcome::Kind::draw ? 2 : -1;
  const bool aborted = r->kind == Outcome::Kind::aborted;
  const State& st = room.record().state();
  const int to_move = st.seat_of(st.to_move());
  return outcome_of(winner, aborted, aborted && mentions_no_first_move(room.record().write()), to_move);
}

std::optional<TournamentOutcome> tournament_outcome(const store::GameRow& row) {
  if (row.status != "finished") return std::nullopt;
  const bool aborted = row.winner < 0 && row.result.find("abort") != std::string::npos;
  int to_move = -1;
  const bool no_first_move = aborted && mentions_no_first_move(row.record);
  if (no_first_move) {
    auto record = Record::read(row.record);
    if (record) to_move = record->state().seat_of(record->state().to_move());
  }
  return outcome_of(row.winner, aborted, no_first_move, to_move);
}

lobby::ClockSpec tournament_clock(const tn::Pace& pace) {
  lobby::ClockSpec c;
  if (pace.correspondence()) {
    c.days = pace.days;
  } else {
    c.base_ms = pace.base_ms;
    c.increment_ms = pace.increment_ms;
  }
  return c;
}

store::TournamentRow tournament_row(const tn::Tournament& t, std::int64_t now) {
  store::TournamentRow row;
  row.id = t.id();
  row.game = t.spec().game;
  row.format = tn::format_name(t.spec().format);
  row.name = t.spec().name;
  row.status = tn::status_name(t.status());
  row.created_by = t.spec().creator;
  row.starts_ms = t.spec().start_ms.value_or(0);
  row.created_ms = t.created_ms();
  row.updated_ms = now;
  row.state = t.to_json().dump();
  return row;
}

json tournament_json(const tn::Tournament& t) {
  const json saved = t.to_json();
  std::map<std::string, std::string> names;
  json entrants = json::array();
  for (const tn::Entrant& e : t.entrants()) {
    names[e.id] = e.name;
    entrants.push_back({{"id", e.id},
                        {"name", e.name},
                        {"rating", std::round(e.rating)},
                        {"entry", e.entry},
                        {"first_round", e.first_round},
                        {"withdrawn", e.withdrawn},
                        {"absent", e.absent}});
  }
  auto player = [&](const std::string& id) { return json{{"id", id}, {"name", names[id]}}; };
  json standings = json::array();
  for (const tn::Standing& s : t.standings())
    standings.push_back({{"rank", s.rank},
                         {"player", s.player},
                         {"name", s.name},
                         {"points", s.points},
                         {"buchholz", s.buchholz},
                         {"sonneborn_berger", s.sonneborn_berger},
                         {"direct", s.direct},
                         {"wins", s.wins},
                         {"games", s.games},
                         {"withdrawn", s.withdrawn},
                         {"on_streak", s.on_streak}});
  // Rounds in order (an arena's games are round 0, in the order paired), with their games and sit-outs.
  std::map<int, json> rounds;
  for (const tn::Game& g : t.games()) {
    json& r = rounds[g.round];
    if (r.is_null()) r = {{"round", g.round}, {"games", json::array()}, {"rests", json::array()}};
    r["games"].push_back({{"id", g.id},
                          {"board", g.board},
                          {"seats", {player(g.seats[0]), player(g.seats[1])}},
                          {"result", tn::result_name(g.result)},
                          {"room", g.room.empty() ? json(nullptr) : json(g.room)},
                          {"paired_ms", g.paired_ms},
                          {"ended_ms", g.ended_ms}});
  }
  for (const tn::Rest& rest : t.rests()) {
    json& r = rounds[rest.round];
    if (r.is_null()) r = {{"round", rest.round}, {"games", json::array()}, {"rests", json::array()}};
    r["rests"].push_back({{"player", player(rest.player)}, {"kind", rest.kind == tn::SitOut::bye ? "bye" : "absent"}});
  }
  json round_list = json::array();
  for (auto& [number, r] : rounds) round_list.push_back(std::move(r));
  json crosstable = json::array();
  for (const tn::CrossRow& row : t.crosstable()) {
    json cells = json::array();
    for (const tn::Cell& c : row.cells) {
      static constexpr const char* kKinds[] = {"game", "bye", "absent", "none"};
      cells.push_back({{"kind", kKinds[static_cast<int>(c.kind)]},
                       {"opponent", c.opponent.empty() ? json(nullptr) : json(c.opponent)},
                       {"opponent_rank", c.opponent_rank},
                       {"seat", c.seat},
                       {"result", tn::result_name(c.result)},
                       {"points", c.points},
                       {"text", c.text()}});
    }
    crosstable.push_back({{"rank", row.standing.rank},
                          {"player", row.standing.player},
                          {"name", row.standing.name},
                          {"points", row.standing.points},
                          {"cells", std::move(cells)}});
  }
  return {{"id", t.id()},
          {"name", t.spec().name},
          {"status", tn::status_name(t.status())},
          {"version", t.version()},
          {"spec", saved["spec"]},
          {"created_ms", t.created_ms()},
          {"started_ms", t.started_ms()},
          {"ends_ms", t.ends_ms()},
          {"round", t.round()},
          {"total_rounds", t.total_rounds()},
          {"entrants", std::move(entrants)},
          {"standings", std::move(standings)},
          {"rounds", std::move(round_list)},
          {"crosstable", std::move(crosstable)}};
}

json tournament_summary(const store::TournamentRow& row) {
  json out = {{"id", row.id},
              {"name", row.name},
              {"game", row.game},
              {"format", row.format},
              {"status", row.status},
              {"created_by", row.created_by},
              {"starts_ms", row.starts_ms ? json(row.starts_ms) : json(nullptr)},
              {"created_ms", row.created_ms}};
  json state = json::parse(row.state, nullptr, false);
  if (state.is_object()) {
    out["rated"] = state["spec"].value("rated", false);
    out["pace"] = state["spec"].value("pace", json::object());
    out["round"] = state.value("round", 0);
    out["total_rounds"] = state.value("total_rounds", 0);
    int n = 0;
    for (const json& e : state.value("entrants", json::array()))
      if (!e.value("withdrawn", false)) ++n;
    out["entrants"] = n;
  }
  return out;
}

}  // namespace cinq::server
