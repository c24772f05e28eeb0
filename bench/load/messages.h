// What the load client reads in cinq's messages (docs/protocol.md), without a JSON DOM: the top-level
// members it acts on, and whether a message tells its player that it is to move.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cinq::load {

// Whether a message tells its player that it is to move, and with what.
struct Turn {
  bool says = false;       // the message settles the question (it has a position or a patch, or `legal`)
  bool mine = false;       // the player is to move
  std::string_view legal;  // the raw `legal` array (when mine)
  bool can_end = false;
};

struct Message {
  std::string_view type, kind, room, code, rematch;
  std::optional<std::int64_t> seat;      // an event's `seat`
  std::optional<std::int64_t> protocol;  // `welcome`'s
  Turn turn;
};

// Reads a message sent to the player in `seat` by a server of `protocol`:
//  2: the move is given by `legal` (and `can_end_turn`) at the top level of a `state`, an event with a
//     `patch` or an `events` answer, to the seat to move only; a message with a patch or a position and
//     no `legal` means nothing to play; other messages leave it as it was.
//  1: the move is read from `position` (`status` live, `to_move` the seat, `legal`, `can_end_turn`).
Message read_message(std::string_view text, int protocol, int seat);

}  // namespace cinq::load
