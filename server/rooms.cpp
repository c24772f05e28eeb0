#include "server/rooms.h"

#include "lobby/room_pages.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "server/room_bus.h"
#include "server/identity.h"
#include "server/room_actor.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server {

using nlohmann::json;

RoomDirectory::RoomDirectory(Services& services, Workers& workers) : services_(services), workers_(workers) {}

RoomDirectory::~RoomDirectory() = default;

int RoomDirectory::reopen_unfinished() {
  refill_ids();
  // Several nodes: no node reopens everything; each takes its share of the games no live node holds
  // (Cluster::scan, every second).
  if (services_.bus) return 0;
  int reopened = 0;
  lobby::Now now = Services::now();
  note_blocking(services_.metrics);
  for (const auto& row : services_.store->unfinished_games()) {
    note_blocking(services_.metrics);
    auto room = lobby::Room::restore(from_row(row), now);
    if (!room) {
      spdlog::error("cannot reopen {}: {}", row.id, room.error().message);
      continue;
    }
    auto actor = add(std::move(*room));
    // Arms the clock; a correspondence deadline that passed while the server was down ends the game now.
    actor->post([](RoomActor& a) { a.apply(a.room().tick(Services::now()), nullptr, {}); });
    ++reopened;
  }
  return reopened;
}

void RoomDirectory::clear() {
  std::unordered_map<std::string, std::shared_ptr<RoomActor>> rooms;
  std::unordered_map<std::string, std::vector<std::function<void(Lookup)>>> loading;
  {
    std::lock_guard lock(mutex_);
    rooms.swap(rooms_);
    loading.swap(loading_);
    bot_rooms_of_.clear();
  }
  std::lock_guard lock(list_mutex_);
  list_.reset();
}

// ---------------------------------------------------------------------------------------------------------
// Rooms in memory, and loading them

std::shared_ptr<RoomActor> RoomDirectory::find(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(id);
  return it == rooms_.end() ? nullptr : it->second;
}

void RoomDirectory::load(const std::string& id, std::function<void(Lookup)> done) {
  if (id.empty() || id.size() > 64) return done({});
  std::shared_ptr<RoomActor> in_memory;
  {
    std::lock_guard lock(mutex_);
    if (auto it = rooms_.find(id); it != rooms_.end()) {
      in_memory = it->second;
    } else {
      auto [waiting, first] = loading_.try_emplace(id);
      waiting->second.push_back(std::move(done));
      if (!first) return;  // a read of this room is under way: its answer is for us too
    }
  }
  if (in_memory) return done({std::move(in_memory), false});  // outside the lock: `done` may come back here
  auto finish = [this, id](Lookup found) {
    std::vector<std::function<void(Lookup)>> waiting;
    {
      std::lock_guard lock(mutex_);
      if (auto it = loading_.find(id); it != loading_.end()) {
        waiting = std::move(it->second);
        loading_.erase(it);
      }
    }
    for (auto& fn : waiting) fn(found);
  };
  bool queued = workers_.submit(Workers::Kind::quick, [this, id, finish] {
    note_blocking(services_.metrics);
    // Several nodes: the room is this node's only if it takes the lease (nobody else alive holds it).
    std::optional<store::Fence> fence;
    if (RoomBus* bus = services_.bus) {
      RoomBus::Claim claim = bus->claim(id);
      if (!claim.fence) {
        Lookup elsewhere;
        elsewhere.busy = claim.busy;
        elsewhere.owner = claim.owner;
        elsewhere.moved = claim.moved;
        return finish(elsewhere);
      }
      fence = claim.fence;
    }
    auto give_back = [&] {
      store::Error ignored;
      if (fence) services_.store->release(id, fence->node, fence->lease, ignored);
    };
    auto row = services_.store->game(id);
    if (!row) {
      const bool failed = row.failed();
      give_back();
      return finish({nullptr, failed});  // unreachable store: try again, not "none"
    }
    note_blocking(services_.metrics);
    auto room = lobby::Room::restore(from_row(*row), Services::now());
    if (!room) {
      spdlog::error("cannot load room {}: {}", id, room.error().message);
      give_back();
      return finish({});
    }
    auto actor = add(std::move(*room), fence, row->commands);
    actor->post([](RoomActor& a) { a.apply(a.room().tick(Services::now()), nullptr, {}); });
    finish({std::move(actor), false});
  });
  if (!queued) finish({nullptr, true});
}

std::shared_ptr<RoomActor> RoomDirectory::add(lobby::Room room) {
  std::optional<store::Fence> fence;
  if (services_.bus) fence = services_.bus->new_room_fence();
  return add(std::move(room), std::move(fence), {});
}

std::shared_ptr<RoomActor> RoomDirectory::add(lobby::Room room, std::optional<store::Fence> fence,
                                              const std::string& commands) {
  std::string id = room.id();
  auto actor = std::make_shared<RoomActor>(services_, std::move(room), services_.net->make_strand(),
                                           std::move(fence), commands);
  actor->shared();
  std::lock_guard lock(mutex_);
  auto [it, fresh] = rooms_.emplace(id, actor);
  if (fresh) ++generation_;
  return it->second;
}

std::shared_ptr<RoomActor> RoomDirectory::add_bot_room(const std::string& player, lobby::Room room) {
  {
    std::lock_guard lock(mutex_);
    auto& mine = bot_rooms_of_[player];
    std::erase_if(mine, [](const std::weak_ptr<RoomActor>& w) {
      auto a = w.lock();
      return !a || a->listing().status == lobby::Status::finished;
    });
    if (mine.size() >= kMaxWatchedBotRooms) return nullptr;
  }
  auto actor = add(std::move(room));
  std::lock_guard lock(mutex_);
  bot_rooms_of_[player].push_back(actor);
  return actor;
}

void RoomDirectory::forget(const std::string& id) {
  std::shared_ptr<RoomActor> gone;  // dies outside the lock
  {
    std::lock_guard lock(mutex_);
    if (auto it = rooms_.find(id); it != rooms_.end()) {
      gone = std::move(it->second);
      rooms_.erase(it);
      ++generation_;
    }
  }
  // Several nodes: its lease goes with it, and the nodes relaying it look for it again.
  if (gone && services_.bus && gone->fence()) services_.bus->room_gone(id, gone->fence()->lease);
}

std::vector<std::shared_ptr<RoomActor>> RoomDirectory::all() {
  std::vector<std::shared_ptr<RoomActor>> out;
  std::lock_guard lock(mutex_);
  out.reserve(rooms_.size());
  for (const auto& [id, a] : rooms_) out.push_back(a);
  return out;
}

std::size_t RoomDirectory::size() {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

RoomDirectory::Counts RoomDirectory::counts() {
  std::vector<std::shared_ptr<RoomActor>> actors;
  {
    std::lock_guard lock(mutex_);
    actors.reserve(rooms_.size());
    for (const auto& [id, a] : rooms_) actors.push_back(a);
  }
  Counts c;
  for (const auto& a : actors) {
    auto st = a->listing().status;
    ++(st == lobby::Status::open ? c.open : st == lobby::Status::live ? c.live : c.finished);
  }
  return c;
}

// ---------------------------------------------------------------------------------------------------------
// Room ids

std::string RoomDirectory::new_room_id() {
  std::string id;
  bool low = false;
  {
    std::lock_guard lock(ids_mutex_);
    if (!id_stock_.empty()) {
      id = std::move(id_stock_.back());
      id_stock_.pop_back();
    }
    low = id_stock_.size() < kIdStock / 2;
  }
  if (low) refill_ids();
  for (;;) {
    if (!id.empty() && !find(id)) return id;
    id = random_id(10);
  }
}

std::string RoomDirectory::new_room_id_checked() {
  for (;;) {
    std::string id = random_id(10);
    if (find(id)) continue;
    note_blocking(services_.metrics);
    if (!services_.store->game(id)) return id;
  }
}

void RoomDirectory::refill_ids() {
  {
    std::lock_guard lock(ids_mutex_);
    if (refilling_ || id_stock_.size() >= kIdStock / 2) return;
    refilling_ = true;
  }
  bool queued = workers_.submit(Workers::Kind::quick, [this] {
    std::vector<std::string> fresh;
    std::size_t want = 0;
    {
      std::lock_guard lock(ids_mutex_);
      want = kIdStock > id_stock_.size() ? kIdStock - id_stock_.size() : 0;
    }
    for (std::size_t i = 0; i < want; ++i) fresh.push_back(new_room_id_checked());
    std::lock_guard lock(ids_mutex_);
    for (auto& id : fresh) id_stock_.push_back(std::move(id));
    refilling_ = false;
  });
  if (!queued) {
    std::lock_guard lock(ids_mutex_);
    refilling_ = false;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The public list, rematches

std::shared_ptr<const std::string> RoomDirectory::public_list() {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard list_lock(list_mutex_);
  std::vector<std::shared_ptr<RoomActor>> actors;
  {
    std::lock_guard lock(mutex_);
    if (list_ && generation_ == list_generation_ && now - list_built_ < kListEvery) return list_;
    list_generation_ = generation_;
    actors.reserve(rooms_.size());
    for (const auto& [id, a] : rooms_) actors.push_back(a);
  }
  std::vector<json> rooms;
  for (const auto& a : actors) {
    auto l = a->listing();
    if (l.is_private || l.status == lobby::Status::finished) continue;
    rooms.push_back(l.summary.to_json());
  }
  lobby::RoomPages::bound(rooms);  // the newest kMaxListed, newest first
  list_ = std::make_shared<const std::string>(json(std::move(rooms)).dump());
  list_built_ = now;
  return list_;
}

void RoomDirectory::open_rematch(const std::shared_ptr<RoomActor>& old) {
  // On the old room's strand: both players asked. The new room swaps the seats and keeps the settings.
  lobby::Room& was = old->room();
  lobby::RoomConfig config = was.config();
  config.id = new_room_id();
  config.rematch_of = was.id();
  lobby::Now now = Services::now();
  auto room = lobby::Room::create(config, now);
  if (!room) {
    spdlog::error("rematch of {}: {}", was.id(), room.error().message);
    return;
  }
  (void)room->sit(was.seats()[1], 0, now);
  (void)room->sit(was.seats()[0], 1, now);
  auto actor = add(std::move(*room));
  std::string new_id = actor->id();
  actor->post([old, new_id](RoomActor& a) {
    a.save_then([old, new_id] {
      old->post(
          [new_id](RoomActor& o) { o.apply(o.room().rematch_opened(new_id, Services::now()), nullptr, {}); });
    });
  });
}

}  // namespace cinq::server
