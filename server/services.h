// What rooms and request handlers share: the store and its threads, the transport, the metrics, the clock.
// Owned by App; outlives every room.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "lobby/room.h"
#include "persistence/saver.h"
#include "persistence/store.h"
#include "persistence/worker.h"
#include "server/metrics.h"
#include "server/stored_rooms.h"
#include "server/net/transport.h"

namespace cinq::server {

// The protocol's version (docs/protocol.md), told in `welcome`.
constexpr int kProtocolVersion = 2;

class RoomActor;
class BotRunner;
struct BotConfig;

struct Services {
  store::Store* store = nullptr;
  store::Worker* writer = nullptr;  // the store's writer thread: the saver's commits only (reads: workers.h)
  store::Saver* saver = nullptr;    // every write, in order, group-committed on the writer
  net::Server* net = nullptr;
  BotRunner* bots = nullptr;              // the computer opponents' threads (nullptr: no bots)
  const BotConfig* bot_config = nullptr;  // their delays
  Metrics metrics;
  // Called on a room's strand when both players asked for a rematch.
  std::function<void(const std::shared_ptr<RoomActor>&)> open_rematch;
  // Called on a room's strand when the room may leave memory (finished, nobody in it, or broken).
  std::function<void(const std::string& room)> forget_room;

  static lobby::Now now();
};

// {"type":"error","code":...,"message":...} with the request's `ref` and room when known.
std::string error_message(const std::string& code, const std::string& message, const std::string& ref = {},
                          const std::string& room = {});

}  // namespace cinq::server
