// The room directory: the rooms in memory (one RoomActor each), a room loaded from the store on a worker when
// someone asks for one that is not in memory, the public list the lobby shows, new room ids, the quota of
// computer-vs-computer rooms and rematches. Thread-safe; nothing here waits for the store on the caller's
// thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "lobby/room.h"
#include "persistence/store.h"

namespace cinq::server {

struct Services;
class RoomActor;
class Workers;

class RoomDirectory {
 public:
  RoomDirectory(Services& services, Workers& workers);
  ~RoomDirectory();

  // Reopens every unfinished game of the store (at start, before the network runs); returns how many.
  int reopen_unfinished();
  // Drops every room (shutdown, once the workers and bots are stopped).
  void clear();

  // The room `id` if it is in memory now, else nullptr.
  std::shared_ptr<RoomActor> find(const std::string& id);
  // The room `id`, loaded from the store (read and replayed on a worker) when it is not in memory. `done`
  // runs once: at once on this thread when the room is in memory, else on a worker thread. Several loads of
  // one room at once read it once.
  struct Lookup {
    std::shared_ptr<RoomActor> room;  // nullptr: no such room (or it could not be read)
    bool busy = false;  // the workers could not take the read, or the store could not be read: try again
    std::string owner;  // several nodes: the live node that owns the room (not this one)
    bool moved = false;  // several nodes: this node is handing its rooms over (draining): ask elsewhere
  };
  void load(const std::string& id, std::function<void(Lookup)> done);

  // Puts a new room in memory (a room loaded twice at once: the first one wins). With several nodes, a new
  // room takes its lease with its first save; a room read from the store comes with the lease it was read
  // under and the forwarded commands it applied last (GameRow::commands).
  std::shared_ptr<RoomActor> add(lobby::Room room);
  std::shared_ptr<RoomActor> add(lobby::Room room, std::optional<store::Fence> fence, const std::string& commands);
  // Every room in memory (a node handing its rooms over).
  std::vector<std::shared_ptr<RoomActor>> all();
  // A computer-vs-computer room for `player`, unless the player already has kMaxWatchedBotRooms of them going:
  // then nullptr, and nothing is added.
  std::shared_ptr<RoomActor> add_bot_room(const std::string& player, lobby::Room room);
  static constexpr std::size_t kMaxWatchedBotRooms = 2;
  void forget(const std::string& id);  // the room may leave memory (Services::forget_room)

  // A fresh room id, never waiting: taken from a stock checked against the store ahead of time on a worker.
  // Should a burst empty the stock, the id is checked against the rooms in memory only (a clash with a
  // stored game is a 1-in-10^11 chance with a million stored games).
  std::string new_room_id();
  // The same, checked against the store now: for a worker thread (an import).
  std::string new_room_id_checked();

  // Both players asked for a rematch of `old` (on its strand): the new room, seats swapped.
  void open_rematch(const std::shared_ptr<RoomActor>& old);

  // The public rooms open or live, newest first, as a JSON array (text). Rebuilt when asked, at most every
  // kListEvery, or at once after a room was added or forgotten; otherwise the last one.
  std::shared_ptr<const std::string> public_list();
  static constexpr std::chrono::milliseconds kListEvery{250};

  struct Counts {
    std::size_t open = 0, live = 0, finished = 0;
  };
  Counts counts();
  std::size_t size();

 private:
  void refill_ids();

  Services& services_;
  Workers& workers_;

  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<RoomActor>> rooms_;
  std::unordered_map<std::string, std::vector<std::function<void(Lookup)>>> loading_;
  // The computer-vs-computer rooms each player opened: their bots think whether anyone watches or not.
  std::unordered_map<std::string, std::vector<std::weak_ptr<RoomActor>>> bot_rooms_of_;
  std::uint64_t generation_ = 0;  // bumped when a room is added or forgotten

  std::mutex ids_mutex_;
  std::vector<std::string> id_stock_;
  bool refilling_ = false;
  static constexpr std::size_t kIdStock = 64;

  std::mutex list_mutex_;
  std::shared_ptr<const std::string> list_;
  std::uint64_t list_generation_ = 0;
  std::chrono::steady_clock::time_point list_built_;
};

}  // namespace cinq::server
