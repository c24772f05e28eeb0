// Connections, limits, and the rooms directory. Message handling is in protocol.cpp, identities in
// identity.cpp, HTTP in rest.cpp.
#include "server/app.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "rules/registry.h"

namespace cinq::server {

using nlohmann::json;

bool Bucket::take(std::int64_t now_ms, double rate, double burst) {
  if (tokens < 0) tokens = burst;
  tokens = std::min(burst, tokens + static_cast<double>(now_ms - last_ms) * rate / 1000.0);
  last_ms = now_ms;
  if (tokens < 1) return false;
  tokens -= 1;
  return true;
}

App::App(store::Store& store, store::Worker& writer, Limits limits, BotConfig bots)
    : bot_config_(bots), limits_(limits) {
  services_.store = &store;
  services_.writer = &writer;
  saver_ = std::make_unique<store::Saver>(store, writer, [this](std::size_t rows, double seconds) {
    services_.metrics.commit_latency.observe(seconds);
    ++services_.metrics.commits;
    services_.metrics.rows_committed += static_cast<std::int64_t>(rows);
  });
  services_.saver = saver_.get();
  bot_runner_ = std::make_unique<BotRunner>(bot_config_.threads, services_.metrics, bot_config_.max_queue);
  services_.bots = bot_runner_.get();
  services_.bot_config = &bot_config_;
  services_.open_rematch = [this](const std::shared_ptr<RoomActor>& old) { open_rematch(old); };
  services_.forget_room = [this](const std::string& id) { forget_room(id); };
}

App::~App() = default;

int App::attach(net::Server& server) {
  services_.net = &server;
  int reopened = 0;
  lobby::Now now = Services::now();
  for (const auto& row : services_.store->unfinished_games()) {
    auto room = lobby::Room::restore(from_row(row), now);
    if (!room) {
      spdlog::error("cannot reopen {}: {}", row.id, room.error().message);
      continue;
    }
    auto actor = add_room(std::move(*room));
    // Arms the clock; a correspondence deadline that passed while the server was down ends the game now.
    actor->post([](RoomActor& a) { a.apply(a.room().tick(Services::now()), nullptr, {}); });
    ++reopened;
  }
  return reopened;
}

void App::shutdown() {
  // First the bots: a bot still thinking would post its turn to a room that is going.
  bot_runner_->stop();
  std::unordered_map<std::string, std::shared_ptr<RoomActor>> rooms;
  {
    std::lock_guard lock(rooms_mutex_);
    rooms.swap(rooms_);
  }
  std::lock_guard lock(clients_mutex_);
  clients_.clear();
}

// ---------------------------------------------------------------------------------------------------------
// Connections

void App::on_open(const std::shared_ptr<net::Connection>& c) {
  std::lock_guard lock(clients_mutex_);
  clients_[c->id()].connection = c;
}

void App::on_close(const std::shared_ptr<net::Connection>& c) {
  std::set<std::string> rooms;
  {
    std::lock_guard lock(clients_mutex_);
    auto it = clients_.find(c->id());
    if (it == clients_.end()) return;
    rooms = std::move(it->second.rooms);
    clients_.erase(it);
  }
  {
    std::lock_guard lock(seeks_mutex_);
    seeks_.remove_connection(c->id());
  }
  std::lock_guard lock(rooms_mutex_);
  for (const auto& id : rooms) {
    auto it = rooms_.find(id);
    if (it != rooms_.end()) it->second->post([cid = c->id()](RoomActor& a) { a.unsubscribe(cid); });
  }
}

bool App::admit(const std::shared_ptr<net::Connection>& c, std::size_t size) {
  std::int64_t now = Services::now().steady_ms;
  bool allowed = true;
  bool close = false;
  bool tell = false;
  {
    std::lock_guard lock(clients_mutex_);
    Client& client = clients_[c->id()];
    Bucket& address = address_buckets_[c->address()];
    allowed = client.bucket.take(now, limits_.connection_rate, limits_.connection_burst) &&
              (limits_.address_rate <= 0 || address.take(now, limits_.address_rate, limits_.address_burst));
    if (address_buckets_.size() > 100000) address_buckets_.clear();  // a flood of addresses: start over
    if (allowed) {
      client.strikes = 0;
    } else {
      close = ++client.strikes > limits_.strikes_before_close;
      tell = now - client.last_limit_error_ms >= 1000;  // one error a second is enough
      if (tell) client.last_limit_error_ms = now;
    }
  }
  if (!allowed) {
    ++services_.metrics.rate_limited;
    if (close) {
      c->close(1008, "rate limit exceeded");
    } else if (tell) {
      reply_error(c, "rate_limited", "too many messages: slow down (this message was ignored)");
    }
    return false;
  }
  if (size > limits_.max_message) {
    reply_error(
        c, "too_big",
        "message of " + std::to_string(size) + " bytes: the limit is " + std::to_string(limits_.max_message));
    return false;
  }
  return true;
}

void App::reply_error(const std::shared_ptr<net::Connection>& c, const std::string& code,
                      const std::string& message, const std::string& ref, const std::string& room) {
  services_.metrics.count_error(code);
  c->send(error_message(code, message, ref, room));
}

std::optional<lobby::Player> App::player_of(std::uint64_t connection) {
  std::lock_guard lock(clients_mutex_);
  auto it = clients_.find(connection);
  if (it == clients_.end()) return std::nullopt;
  return it->second.player;
}

void App::remember_room(std::uint64_t connection, const std::string& room) {
  std::lock_guard lock(clients_mutex_);
  auto it = clients_.find(connection);
  if (it != clients_.end()) it->second.rooms.insert(room);
}

// ---------------------------------------------------------------------------------------------------------
// The rooms directory

std::string App::new_room_id() {
  for (;;) {
    std::string id = random_id(10);
    {
      std::lock_guard lock(rooms_mutex_);
      if (rooms_.count(id)) continue;
    }
    if (!services_.store->game(id)) return id;
  }
}

std::shared_ptr<RoomActor> App::add_room(lobby::Room room) {
  std::string id = room.id();
  auto actor = std::make_shared<RoomActor>(services_, std::move(room), services_.net->make_strand());
  std::lock_guard lock(rooms_mutex_);
  auto [it, fresh] = rooms_.emplace(id, actor);
  return it->second;  // a room loaded twice at once: the first one wins
}

std::shared_ptr<RoomActor> App::find_room(const std::string& id) {
  {
    std::lock_guard lock(rooms_mutex_);
    auto it = rooms_.find(id);
    if (it != rooms_.end()) return it->second;
  }
  if (id.empty() || id.size() > 64) return nullptr;
  auto row = services_.store->game(id);
  if (!row) return nullptr;
  auto room = lobby::Room::restore(from_row(*row), Services::now());
  if (!room) {
    spdlog::error("cannot load room {}: {}", id, room.error().message);
    return nullptr;
  }
  auto actor = add_room(std::move(*room));
  actor->post([](RoomActor& a) { a.apply(a.room().tick(Services::now()), nullptr, {}); });
  return actor;
}

void App::forget_room(const std::string& id) {
  std::lock_guard lock(rooms_mutex_);
  rooms_.erase(id);
}

json App::room_list() {
  std::vector<std::shared_ptr<RoomActor>> actors;
  {
    std::lock_guard lock(rooms_mutex_);
    for (const auto& [id, a] : rooms_) actors.push_back(a);
  }
  std::vector<json> rooms;
  for (const auto& a : actors) {
    auto l = a->listing();
    if (l.is_private || l.status == lobby::Status::finished) continue;
    rooms.push_back(std::move(l.summary));
  }
  std::sort(rooms.begin(), rooms.end(), [](const json& x, const json& y) {
    return x["created_ms"].get<std::int64_t>() > y["created_ms"].get<std::int64_t>();
  });
  return rooms;
}

void App::open_rematch(const std::shared_ptr<RoomActor>& old) {
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
  auto actor = add_room(std::move(*room));
  std::string new_id = actor->id();
  actor->post([old, new_id](RoomActor& a) {
    a.save_then([old, new_id] {
      old->post(
          [new_id](RoomActor& o) { o.apply(o.room().rematch_opened(new_id, Services::now()), nullptr, {}); });
    });
  });
}

}  // namespace cinq::server
