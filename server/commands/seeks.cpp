// Quick pairing (docs/protocol.md, "Lobby"): seek and unseek, and this node's book of seeks (SeekDesk).
// With several nodes there is one book, the lobby leader's: another node forwards its clients' seeks there.
#include <cmath>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "ratings/glicko2.h"
#include "server/commands/handlers.h"
#include "server/moderation_desk.h"
#include "server/room_actor.h"
#include "server/room_bus.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server {

using nlohmann::json;

std::optional<lobby::Seek> SeekDesk::add(lobby::Seek seek) {
  std::lock_guard lock(mutex_);
  return book_.add(std::move(seek));
}

int SeekDesk::remove_player(const std::string& player_id) {
  std::lock_guard lock(mutex_);
  return book_.remove_player(player_id);
}

void SeekDesk::remove_connection(std::uint64_t connection) {
  std::lock_guard lock(mutex_);
  book_.remove_connection(connection);
}

std::size_t SeekDesk::size() {
  std::lock_guard lock(mutex_);
  return book_.size();
}

std::string SeekDesk::list_json() {
  json seeks = json::array();
  {
    std::lock_guard lock(mutex_);
    for (const auto& s : book_.seeks())
      seeks.push_back({{"game", s.game},
                       {"options", s.options},
                       {"clock", lobby::clock_json(s.clock)},
                       {"name", s.player.name},
                       {"username", s.player.username.empty() ? json(nullptr) : json(s.player.username)},
                       {"rated", s.rated},
                       {"rating", s.player.username.empty() ? json(nullptr)
                                                            : json{{"rating", std::round(s.rating)},
                                                                   {"provisional", s.provisional}}},
                       {"rating_range", s.range ? json{(*s.range)[0], (*s.range)[1]} : json(nullptr)}});
  }
  return seeks.dump();
}

namespace commands {

namespace {

void place_seek(CommandContext& cx, const Request& rq, const Seek& cmd, lobby::Seek seek) {
  const GameRequest& g = cmd.game;
  std::optional<lobby::Seek> other = cx.seeks.add(seek);
  json game_json = {{"game", seek.game},
                    {"options", seek.options},
                    {"clock", lobby::clock_json(g.clock)},
                    {"rated", seek.rated}};
  if (!other) {
    json m = game_json;
    m["type"] = "seeking";
    return rq.connection->send(m.dump());
  }
  // Paired: a room with both seated (sides drawn at random); each player is told, and joins.
  std::shared_ptr<net::Connection> other_connection = cx.clients.connection_of(other->connection);
  lobby::Now now = Services::now();
  lobby::RoomConfig config{cx.rooms.new_room_id(), g.game, g.options, g.clock, false, {}, seek.rated};
  auto room = lobby::Room::create(config, now);
  if (!room) return cx.reply_error(rq, "bad_options", room.error().message);
  int first = random_seat();
  auto rated_player = [](const lobby::Seek& s) {
    lobby::Player player = s.player;
    if (!player.username.empty()) player.rating = lobby::SeatRating{s.rating, s.provisional};
    return player;
  };
  (void)room->sit(rated_player(*other), first, now);
  (void)room->sit(rated_player(seek), 1 - first, now);
  auto actor = cx.rooms.add(std::move(*room));
  json m = game_json;
  m["type"] = "paired";
  m["room"] = actor->id();
  auto message = std::make_shared<const std::string>(m.dump());
  actor->post([c = rq.connection, other_connection, message](RoomActor& a) {
    a.save_then(
        [c, other_connection, message] {
          c->send(message);
          if (other_connection) other_connection->send(message);
        },
        [c, other_connection] {
          // Nothing was stored: neither player has a room; both may seek again.
          auto m = error_message("storage", "the server could not store your new game: seek again", {}, {});
          c->send(m);
          if (other_connection) other_connection->send(m);
        });
  });
}

}  // namespace

void on_seek(CommandContext& cx, Request& rq, Seek& cmd) {
  const GameRequest& g = cmd.game;
  if (cmd.rated && rq.player->username.empty())
    return cx.reply_error(rq, "account_required", "a rated game is for accounts: register or log in first");
  // Several nodes: one book, the lobby leader's.
  if (cx.services.bus && !rq.connection->remote() &&
      cx.services.bus->forward_seek(rq.connection, *rq.player, cx.clients.session_of(rq.connection->id()),
                                    rq.text, false))
    return;
  lobby::Seek seek{*rq.player, rq.connection->id(),    std::string(g.game->name()), g.options,
                   g.clock,    Services::now().unix_ms};
  seek.rated = cmd.rated;
  if (cmd.range) seek.range = *cmd.range;
  seek.avoid = cx.moderation.avoided(seek.player.id);  // blocked either way: never paired
  if (rq.player->username.empty()) return place_seek(cx, rq, cmd, std::move(seek));
  // An account's seek shows its rating in this game and pool: read on a worker first.
  Resume resume = cx.defer(rq);
  bool queued = cx.workers.submit(Workers::Kind::quick, [&cx, later = rq, cmd, seek, resume]() mutable {
    note_blocking(cx.services.metrics);
    const std::string pool = cmd.game.clock.kind();
    for (const store::RatingRow& r : cx.services.store->ratings(seek.player.id)) {
      if (r.game != seek.game || r.pool != pool) continue;
      seek.rating = r.rating;
      seek.provisional = r.deviation > ratings::kProvisionalDeviation;
    }
    place_seek(cx, later, cmd, std::move(seek));
    resume->finish();
  });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
}

void on_unseek(CommandContext& cx, Request& rq, Unseek&) {
  if (cx.services.bus && !rq.connection->remote() &&
      cx.services.bus->forward_seek(rq.connection, *rq.player, cx.clients.session_of(rq.connection->id()),
                                    rq.text, true))
    return;
  int n = cx.seeks.remove_player(rq.player->id);
  rq.connection->send(json{{"type", "unseeked"}, {"count", n}}.dump());
}

}  // namespace commands
}  // namespace cinq::server
