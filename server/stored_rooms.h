// A room as the store keeps it, and back: the one place where lobby::Saved and lobby::RoomSave meet
// store::GameRow and store::GameSave. No Boost: the store's tests use it too.
#pragma once

#include <cstdint>

#include "lobby/room.h"
#include "persistence/store.h"

namespace cinq::server {

// The stored row of a room, and back (from_row marks it `stored`: the room's saves are changes to it).
store::GameRow to_row(const lobby::Saved& s, std::int64_t updated_ms);
lobby::Saved from_row(const store::GameRow& row);
// A room's save (lobby::Room::take_save) as the store takes it.
store::GameSave to_save(lobby::RoomSave s, std::int64_t updated_ms);

}  // namespace cinq::server
