// A room as the store keeps it, and back (server/stored_rooms.h).
#include "server/stored_rooms.h"

#include <utility>

namespace cinq::server {

store::GameRow to_row(const lobby::Saved& s, std::int64_t updated_ms) {
  store::GameRow r;
  r.id = s.id;
  r.game = s.game;
  r.options = s.options;
  r.clock_base_ms = s.clock.base_ms;
  r.clock_increment_ms = s.clock.increment_ms;
  r.is_private = s.is_private;
  r.kind = s.clock.kind();
  r.clock_days = s.clock.days;
  r.deadline_ms = s.deadline_ms;
  r.seat_token_hashes = s.seat_token_hashes;
  r.seat_tokens = s.seat_tokens;
  for (int k = 0; k < 2; ++k) {
    const lobby::SeatMail& m = s.seat_mail[k];
    r.seat_mail[k] = {m.address, m.by_mail, m.confirmed, m.reminders, m.zone, m.language};
  }
  r.status = lobby::status_name(s.status);
  r.result = s.result;
  r.record = s.record;
  r.open_turn = s.open_turn;
  for (int i = 0; i < 2; ++i) {
    r.seat_ids[i] = s.seats[i].id;
    r.seat_names[i] = s.seats[i].name;
  }
  r.clock_ms = s.clock_ms;
  r.version = s.version;
  r.turns = s.turns;
  r.rematch_of = s.rematch_of;
  r.created_ms = s.created_ms;
  r.updated_ms = updated_ms;
  r.rated = s.rated;
  r.winner = s.winner;
  return r;
}

lobby::Saved from_row(const store::GameRow& r) {
  lobby::Saved s;
  s.id = r.id;
  s.game = r.game;
  s.options = r.options;
  s.clock = {r.clock_base_ms, r.clock_increment_ms, r.clock_days};
  s.deadline_ms = r.deadline_ms;
  s.seat_token_hashes = r.seat_token_hashes;
  s.seat_tokens = r.seat_tokens;
  for (int k = 0; k < 2; ++k) {
    const store::SeatMail& m = r.seat_mail[k];
    s.seat_mail[k] = {m.address, m.by_mail, m.confirmed, m.reminders, m.zone, m.language};
  }
  for (const store::ChatRow& c : r.chat)
    s.chat.push_back({c.at_ms, c.channel == "spectators", c.seat, c.player_id, c.name, c.text});
  s.is_private = r.is_private;
  s.status = r.status == "finished" ? lobby::Status::finished
             : r.status == "live"   ? lobby::Status::live
                                    : lobby::Status::open;
  s.result = r.result;
  s.record = r.record;
  s.open_turn = r.open_turn;
  s.stored = true;
  for (int i = 0; i < 2; ++i) s.seats[i] = {r.seat_ids[i], r.seat_names[i]};
  s.clock_ms = r.clock_ms;
  s.version = r.version;
  s.turns = r.turns;
  s.rematch_of = r.rematch_of;
  s.created_ms = r.created_ms;
  s.rated = r.rated;
  s.winner = r.winner;
  return s;
}

store::GameSave to_save(lobby::RoomSave s, std::int64_t updated_ms) {
  store::GameSave save;
  save.row = to_row(s.saved, updated_ms);
  save.write_row = s.row_changed;
  save.from = static_cast<std::int64_t>(s.from);
  save.entries = std::move(s.entries);
  save.replaces = s.replaces;
  save.base_version = s.base_version;
  for (auto& c : s.chat)
    save.chat.push_back({c.at_ms, c.spectators ? "spectators" : "players", c.seat, std::move(c.player_id),
                         std::move(c.name), std::move(c.text)});
  return save;
}

}  // namespace cinq::server
