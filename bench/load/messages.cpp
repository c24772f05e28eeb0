#include "bench/load/messages.h"

#include "bench/load/scan.h"

namespace cinq::load {

namespace {

Turn v1_turn(std::string_view position, int seat) {
  Turn turn;
  turn.says = true;
  std::string_view status;
  std::optional<std::int64_t> to_move;
  scan::members(position, [&](std::string_view key, std::string_view value) {
    if (key == "status")
      status = scan::plain_string(value);
    else if (key == "to_move")
      to_move = scan::integer(value);
    else if (key == "can_end_turn")
      turn.can_end = value == "true";
    else if (key == "legal")
      turn.legal = value;
    return true;
  });
  turn.mine = status == "live" && to_move && *to_move == seat;
  if (!turn.mine) turn.legal = {}, turn.can_end = false;
  return turn;
}

}  // namespace

Message read_message(std::string_view text, int protocol, int seat) {
  Message m;
  std::string_view position, patch, legal;
  bool has_legal = false, can_end = false;
  scan::members(text, [&](std::string_view key, std::string_view value) {
    if (key == "type")
      m.type = scan::plain_string(value);
    else if (key == "kind")
      m.kind = scan::plain_string(value);
    else if (key == "room")
      m.room = scan::plain_string(value);
    else if (key == "position")
      position = value;
    else if (key == "patch")
      patch = value;
    else if (key == "legal")
      legal = value, has_legal = true;
    else if (key == "can_end_turn")
      can_end = value == "true";
    else if (key == "code")
      m.code = scan::plain_string(value);
    else if (key == "rematch")
      m.rematch = scan::plain_string(value);
    else if (key == "seat")
      m.seat = scan::integer(value);
    else if (key == "protocol")
      m.protocol = scan::integer(value);
    return true;
  });
  if (protocol >= 2) {
    m.turn.says = !position.empty() || !patch.empty() || has_legal;
    m.turn.mine = has_legal;
    m.turn.legal = legal;
    m.turn.can_end = has_legal && can_end;
  } else if (!position.empty()) {
    m.turn = v1_turn(position, seat);
  }
  return m;
}

}  // namespace cinq::load
