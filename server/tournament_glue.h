// What the server shows and makes of a tournament, as pure functions (no network, no store I/O): a finished
// room's outcome in its tournament, the tournament as JSON, its store row, its games' clock. A library of its
// own (cinq_tournament_glue, no Boost) so that the tests check it without a server.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "lobby/room.h"
#include "persistence/store.h"
#include "tournament/tournament.h"

namespace cinq::server {

// How a finished room counts in its tournament: a result over the board, or a game not played (a forfeit:
// who was there).
struct TournamentOutcome {
  tournament::Result result = tournament::Result::pending;  // when !forfeit
  bool forfeit = false;
  std::array<bool, 2> present{false, false};  // when forfeit: the seats that were there
  friend bool operator==(const TournamentOutcome&, const TournamentOutcome&) = default;
};

// A finished room's outcome, or nothing while it is not finished. A winner (a seat) or a draw is a result;
// a live game aborted because a side made no first move in time (lobby::Room::kNoFirstMove) is a forfeit
// won by the other side (the side to move at the abort did not come); any other abort (a player's `abort`
// before both moved, an open room expired) is a double forfeit: nobody gets a point.
std::optional<TournamentOutcome> tournament_outcome(const lobby::Room& room);
// The same from a stored row (its record is replayed to find the side to move: a worker's job).
std::optional<TournamentOutcome> tournament_outcome(const store::GameRow& row);

// The tournament as the protocol shows it (the `tournament` member of a `tournament` message, and GET
// /api/tournaments/{id}): spec, status, entrants, standings with tie-breaks, rounds with their games and
// rooms, crosstable.
nlohmann::json tournament_json(const tournament::Tournament& t);
// One line of a list (`tournaments`, GET /api/tournaments): id, name, game, format, status, entrants...
nlohmann::json tournament_summary(const store::TournamentRow& row);
// The store's row of a tournament.
store::TournamentRow tournament_row(const tournament::Tournament& t, std::int64_t now_ms);
// A room's clock for a tournament's pace.
lobby::ClockSpec tournament_clock(const tournament::Pace& pace);

}  // namespace cinq::server
