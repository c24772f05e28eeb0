// What rooms and request handlers share: the store and its threads, the transport, the metrics, the clock.
// Owned by App; outlives every room.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "lobby/room.h"
#include "lobby/room_pages.h"
#include "persistence/saver.h"
#include "persistence/store.h"
#include "persistence/worker.h"
#include "server/caps.h"
#include "server/error_message.h"
#include "server/metrics.h"
#include "server/stored_rooms.h"
#include "server/net/transport.h"

namespace cinq::server {

// The protocol's version (docs/protocol.md), told in `welcome`.
constexpr int kProtocolVersion = 2;

class RoomActor;
class BotRunner;
class Analyst;
class RoomBus;
class Postman;
class MailSender;
class ModerationDesk;
class SharedLimits;
struct BotConfig;

// What one player or address may make (`cinq serve` options, docs/operations.md "Limits"). 0: none.
struct RoomLimits {
  std::size_t open_rooms_per_player = 10;  // open rooms a player sits in (`create`: too_many_rooms)
  std::size_t bot_rooms_per_player = 3;    // unfinished rooms a player plays against a bot
  std::size_t imports_per_hour = 30;       // POST /api/games/import, per IP address
  // An open room whose seats nobody connected holds for this long is aborted (a correspondence room whose
  // creator sits in it waits for its opponent however long it takes).
  std::chrono::milliseconds open_room_expiry{10 * 60 * 1000};
};

struct Services {
  store::Store* store = nullptr;
  store::Worker* writer = nullptr;  // the store's writer thread: the saver's commits only (reads: workers.h)
  store::Saver* saver = nullptr;    // every write, in order, group-committed on the writer
  net::Server* net = nullptr;
  BotRunner* bots = nullptr;              // the computer opponents' threads (nullptr: no bots)
  Analyst* analyst = nullptr;             // the analyses of finished games (server/analyst.h)
  RoomBus* bus = nullptr;                 // the other nodes (server/room_bus.h); nullptr: this node alone
  const Postman* postman = nullptr;       // correspondence by mail (server/postman.h); nullptr: no mail
  MailSender* mail_sender = nullptr;      // drains the outbox (server/mail_sender.h)
  ModerationDesk* moderation = nullptr;   // bans, mutes, blocks in force (server/moderation_desk.h)
  SharedLimits* shared_limits = nullptr;  // limits per address and player over a cluster (shared_limits.h)
  const BotConfig* bot_config = nullptr;  // their delays
  Metrics metrics;
  lobby::RoomPages room_pages;  // the lobby's list of public rooms in pages (WebSocket and REST)
  RoomLimits limits;
  Claims claims;  // the rooms each player holds against its limits
  // Called on a room's strand when both players asked for a rematch.
  std::function<void(const std::shared_ptr<RoomActor>&)> open_rematch;
  // Called on a room's strand when the room may leave memory (finished, nobody in it, or broken).
  std::function<void(const std::string& room)> forget_room;
  // Called on a room's strand once a finished room's last save committed (the game's end is stored): a
  // tournament's game (its id `T-R-B`) counts in its tournament (server/tournaments.h).
  std::function<void(const std::string& room, const lobby::Room& state)> room_over;
  // Called on a room's strand when an account may have taken a seat of a correspondence room (mail on): the
  // seat takes the account's confirmed address if it has one (HttpApi::adopt_account_mail).
  std::function<void(std::shared_ptr<RoomActor>, int seat)> adopt_account_mail;
  // Runs a store read on a worker thread (a quick job); false if the workers could not take it.
  std::function<bool(std::function<void()>)> read_later;

  static lobby::Now now();
  // A room's epoch on a single node (lobby::Room::epoch; a cluster's rooms take their lease number): the
  // wall clock in ms, and one more than the last one given when the clock has not moved past it, so that a
  // room made or loaded again, in this process or after a restart, never counts in an epoch it had.
  static std::int64_t next_epoch();
};

}  // namespace cinq::server
