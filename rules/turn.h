// One turn's items played on a state: the logic shared by the record reader (Record::read, play_turn) and
// the rooms (lobby::Room::act_seat, a turn sent whole or action by action), so that what a record accepts
// and what a room accepts cannot drift apart.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rules/game.h"

namespace cinq {

struct TurnRequest {
  std::vector<std::string> items;  // the texts between the `/` of a record turn, in order
  // A record's turn always ends: by itself, or by `end_turn` where the game allows it (else the turn is
  // "not complete"). A room's turn may stop in the middle (Baltek action by action) and ends only when the
  // turn ends by itself or `end_turn` is asked.
  bool whole = true;
  bool end_turn = false;  // (rooms) end the turn after the items
  // Who reads the turn: the errors speak to a record's reader ("B/x/: the turn is already over") or to a
  // player in a room ("'x': your turn is already over").
  bool from_record = true;
};

struct TurnPlayed {
  std::vector<Action> actions;     // in order, end_turn included when the turn was ended
  std::vector<std::string> texts;  // the canonical texts of the actions played (end_turn excluded)
  bool ended = false;              // end_turn was played
};

// Reads `request` for the side to move of `state` (the caller checked it is that side's turn) and plays each
// action through `play`, which must advance `state` (the reader plays on its record, Record::play; a room on
// a copy of its state). On error the state is left part-way: play on a copy when the turn must be all or
// nothing.
Result<TurnPlayed> play_items(const State& state, const TurnRequest& request,
                              const std::function<Result<bool>(Action)>& play);

}  // namespace cinq
