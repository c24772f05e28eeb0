// What the lobby lists: the rooms (with the seeks) and a player's own games.
#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lobby/room_pages.h"
#include "server/commands/handlers.h"
#include "server/identity.h"
#include "server/room_actor.h"
#include "server/room_bus.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server::commands {

using nlohmann::json;

namespace {

std::string my_games(CommandContext& cx, const std::string& pid) {
  Services& services = cx.services;
  note_blocking(services.metrics);
  std::vector<store::GameRow> rows = services.store->games_of_player(pid, 50);
  std::vector<json> games;
  for (const auto& row : rows) {
    json summary;
    RoomPtr actor = row.status != "finished" ? cx.rooms.find(row.id) : nullptr;
    if (actor) {
      summary = actor->listing().summary.to_json();
    } else {
      note_blocking(services.metrics);
      auto room = lobby::Room::restore(from_row(row), Services::now());
      if (!room) continue;
      summary = room->summary(Services::now()).to_json();
    }
    int seat = row.seat_ids[0] == pid ? 0 : 1;
    summary["my_seat"] = seat;
    // A correspondence game's links the player may see again: its own seat's, and a free seat's (to send).
    if (row.clock_days > 0 && row.status != "finished") {
      std::array<std::string, 2> links;
      for (int s = 0; s < 2; ++s)
        if (!row.seat_tokens[s].empty() && (s == seat || row.seat_ids[s].empty()))
          links[s] = seat_link(row.id, s, row.seat_tokens[s]);
      if (json by_seat = lobby::seat_links_json(links); !by_seat.is_null()) summary["links"] = std::move(by_seat);
    }
    summary["my_turn"] = summary.value("to_move", json()) == json(seat);
    games.push_back(std::move(summary));
  }
  std::stable_sort(games.begin(), games.end(), [](const json& x, const json& y) {
    auto rank = [](const json& g) {
      return g["status"] == "finished" ? 2 : g["my_turn"].get<bool>() ? 0 : 1;
    };
    if (rank(x) != rank(y)) return rank(x) < rank(y);
    if (rank(x) == 2) return false;  // the store's order: newest first
    auto deadline = [](const json& g) {
      return g["deadline_ms"].is_number() ? g["deadline_ms"].get<std::int64_t>() : INT64_MAX;
    };
    return deadline(x) < deadline(y);
  });
  return json{{"type", "my_games"}, {"games", games}}.dump();
}

}  // namespace

void on_rooms(CommandContext& cx, Request& rq, Rooms& cmd) {
  // Every node's rooms and the leader's seeks in a cluster; a page of the rooms (RoomPages), every seek.
  RoomBus* bus = cx.services.bus;
  std::shared_ptr<const std::string> seeks = bus ? bus->leader_seeks() : nullptr;
  const lobby::RoomPages::Page p = cx.services.room_pages.page(bus ? bus->public_list() : cx.rooms.public_list(), cmd.page);
  rq.connection->send(R"({"type":"rooms","rooms":)" + p.rooms + R"(,"seeks":)" +
                      (seeks ? *seeks : cx.seeks.list_json()) + R"(,"page":)" + std::to_string(p.page) +
                      R"(,"pages":)" + std::to_string(p.pages) + R"(,"per_page":)" +
                      std::to_string(lobby::RoomPages::kPerPage) + R"(,"total":)" + std::to_string(p.total) + "}");
}

// The player's games, read (and those not in memory replayed, for their summary) on a worker: unfinished
// ones first, those where it is the player's turn before the others, nearest deadline first; then the
// finished ones, newest first.
void on_my_games(CommandContext& cx, Request& rq, MyGames&) {
  Resume resume = cx.defer(rq);
  bool queued =
      cx.workers.submit(Workers::Kind::quick, [&cx, c = rq.connection, pid = rq.player->id, resume] {
        if (!resume->closed()) c->send(my_games(cx, pid));
        resume->finish();
      });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
}

}  // namespace cinq::server::commands
