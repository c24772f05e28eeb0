// Connections, admission, and the order of each connection's messages (protocol.h). The commands themselves,
// one table of typed commands, are in server/commands/.
#include "server/protocol.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>
#include <nlohmann/json.hpp>

#include "server/room_bus.h"
#include "server/request.h"
#include "server/room_actor.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/shared_limits.h"

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

Protocol::Protocol(Services& services, RoomDirectory& rooms, Identities& identities, Workers& workers,
                   Limits limits)
    : services_(services),
      rooms_(rooms),
      limits_(limits),
      tournaments_(services, rooms, workers),
      logins_(services),
      commands_{services, rooms, identities, workers, seeks_, tournaments_, moderation_, logins_, *this} {
  services.moderation = &moderation_;
  // A paired player is told on every connection it has here (and, through the bus, on the other nodes).
  tournaments_.set_to_player([this](const std::string& player_id, const std::string& text) {
    to_player(player_id, text);
    if (services_.bus) services_.bus->to_player(player_id, text);
  });
}

void Protocol::to_player(const std::string& player_id, const std::string& text) {
  std::vector<std::shared_ptr<net::Connection>> to;
  {
    std::lock_guard lock(clients_mutex_);
    for (auto& [id, client] : clients_)
      if (client.player && client.player->id == player_id)
        if (auto c = client.connection.lock(); c && !c->remote()) to.push_back(std::move(c));
  }
  auto message = std::make_shared<const std::string>(text);
  for (auto& c : to) c->send(message);
}

Protocol::~Protocol() = default;

void Protocol::shutdown() {
  stopping_ = true;
  tournaments_.stop();
  moderation_.stop();
  std::unordered_map<std::uint64_t, Client> clients;
  std::lock_guard lock(clients_mutex_);
  clients.swap(clients_);
}

std::size_t Protocol::seeks_waiting() { return seeks_.size(); }

std::string Protocol::seeks_json() { return seeks_.list_json(); }

// ---------------------------------------------------------------------------------------------------------
// Connections

void Protocol::on_open(const std::shared_ptr<net::Connection>& c) {
  std::lock_guard lock(clients_mutex_);
  Client& client = clients_[c->id()];
  client.connection = c;
  client.lane = std::make_shared<Lane>();
}

void Protocol::on_close(const std::shared_ptr<net::Connection>& c) {
  std::set<std::string> rooms;
  std::shared_ptr<Lane> lane;
  {
    std::lock_guard lock(clients_mutex_);
    auto it = clients_.find(c->id());
    if (it == clients_.end()) return;
    rooms = std::move(it->second.rooms);
    lane = std::move(it->second.lane);
    clients_.erase(it);
  }
  if (lane) {
    std::lock_guard lock(lane->mutex);
    lane->closed = true;
    lane->waiting.clear();
  }
  seeks_.remove_connection(c->id());
  tournaments_.closed(c->id());
  for (const auto& id : rooms)
    if (auto actor = rooms_.find(id)) actor->post([cid = c->id()](RoomActor& a) { a.unsubscribe(cid); });
  // Several nodes: the rooms and the lobby elsewhere forget it too.
  if (services_.bus && !c->remote()) services_.bus->closed(c->id());
}

void Protocol::on_message(const std::shared_ptr<net::Connection>& c, std::string text) {
  if (stopping_ || !admit(c)) return;
  enqueue(c, std::move(text), {}, true);
}

void Protocol::open_remote(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                           const std::string& session) {
  std::lock_guard lock(clients_mutex_);
  Client& client = clients_[c->id()];
  if (!client.lane) {
    client.connection = c;
    client.lane = std::make_shared<Lane>();
  }
  client.player = player;
  client.session = session;
}

void Protocol::feed(const std::shared_ptr<net::Connection>& c, std::string text, std::string fid) {
  if (stopping_) return;
  enqueue(c, std::move(text), std::move(fid), false);
}

void Protocol::feed_again(std::uint64_t connection, std::string text, std::string fid) {
  if (stopping_) return;
  if (auto c = connection_of(connection)) enqueue(c, std::move(text), std::move(fid), false);
}

void Protocol::enqueue(const std::shared_ptr<net::Connection>& c, std::string text, std::string fid,
                       bool check_size) {
  std::shared_ptr<Lane> lane;
  {
    std::lock_guard lock(clients_mutex_);
    if (auto it = clients_.find(c->id()); it != clients_.end()) lane = it->second.lane;
  }
  if (!lane) return;
  Lane::Waiting w;
  w.received = std::chrono::steady_clock::now();
  w.fid = std::move(fid);
  if (check_size && text.size() > limits_.max_message)
    w.too_big = text.size();  // answered in its turn; its text is not kept
  else
    w.text = std::move(text);
  bool overflow = false;
  {
    std::lock_guard lock(lane->mutex);
    if (lane->closed) return;
    if (lane->waiting.size() >= limits_.max_waiting && w.fid.empty()) {
      overflow = true;
    } else {
      lane->waiting.push_back(std::move(w));
      if (lane->busy) return;  // a message before it is being handled, or in flight: it waits its turn
      lane->busy = true;
    }
  }
  if (overflow) {
    ++services_.metrics.rate_limited;
    return reply_error(c, "rate_limited", "too many messages waiting for an earlier one: this one was ignored");
  }
  pump(c, lane);
}

void Protocol::pump(const std::shared_ptr<net::Connection>& c, const std::shared_ptr<Lane>& lane) {
  for (;;) {
    Lane::Waiting w;
    {
      std::lock_guard lock(lane->mutex);
      if (lane->waiting.empty() || lane->closed || stopping_) {
        lane->busy = false;
        return;
      }
      w = std::move(lane->waiting.front());
      lane->waiting.pop_front();
    }
    const std::string fid = w.fid;
    if (handle(c, lane, std::move(w.text), w.too_big, w.received, std::move(w.fid)))
      return;  // in flight: it resumes us
    c->completed(fid);
  }
}

bool Protocol::handle(const std::shared_ptr<net::Connection>& c, const std::shared_ptr<Lane>& lane,
                      std::string text, std::optional<std::size_t> too_big,
                      std::chrono::steady_clock::time_point received, std::string fid) {
  if (too_big) {
    reply_error(c, "too_big",
                "message of " + std::to_string(*too_big) + " bytes: the limit is " +
                    std::to_string(limits_.max_message));
    return false;
  }
  Request rq;
  rq.connection = c;
  rq.received = received;
  rq.lane = lane;
  rq.fid = std::move(fid);
  json body = json::parse(text, nullptr, false);
  if (body.is_discarded()) {
    reply_error(c, "bad_json", "the message is not valid JSON");
    return false;
  }
  if (!body.is_object()) {
    reply_error(c, "bad_json", "a message is one JSON object");
    return false;
  }
  if (auto ref = body.find("ref"); ref != body.end() && (ref->is_string() || ref->is_number_integer()))
    rq.ref = ref->dump();
  auto type = body.find("type");
  if (type == body.end() || !type->is_string()) {
    commands_.reply_error(rq, "bad_message", "field 'type' must be a string");
    return false;
  }
  rq.player = player_of(c->id());
  rq.text = std::move(text);
  try {
    run_command(commands_, rq, type->get<std::string>(), body);
  } catch (const std::exception& e) {
    // Never expected. The connection ends rather than its lane staying held for ever.
    spdlog::error("connection {}: a '{}' message failed: {}", c->id(), type->get<std::string>(), e.what());
    c->close(1011, "internal error");
  }
  // Still under way off this thread: the lane passes to the command, which resumes it when done.
  return rq.flight && rq.flight->park();
}

bool Protocol::admit(const std::shared_ptr<net::Connection>& c) {
  std::int64_t now = Services::now().steady_ms;
  bool allowed = true;
  bool close = false;
  bool tell = false;
  {
    std::lock_guard lock(clients_mutex_);
    auto it = clients_.find(c->id());
    if (it == clients_.end()) return false;
    Client& client = it->second;
    // The address's bucket is shared by the nodes of a cluster (shared_limits.h).
    allowed = client.bucket.take(now, limits_.connection_rate, limits_.connection_burst) &&
              (limits_.address_rate <= 0 || services_.shared_limits->take_message(c->address()));
    if (allowed) {
      client.strikes = 0;
    } else {
      close = ++client.strikes > limits_.strikes_before_close;
      tell = now - client.last_limit_error_ms >= 1000;  // one error a second is enough
      if (tell) client.last_limit_error_ms = now;
    }
  }
  if (allowed) return true;
  ++services_.metrics.rate_limited;
  if (close) {
    c->close(1008, "rate limit exceeded");
  } else if (tell) {
    reply_error(c, "rate_limited", "too many messages: slow down (this message was ignored)");
  }
  return false;
}

void Protocol::reply_error(const std::shared_ptr<net::Connection>& c, const std::string& code,
                           const std::string& message, const std::string& ref) {
  services_.metrics.count_error(code);
  c->send(error_message(code, message, ref));
}

// ---------------------------------------------------------------------------------------------------------
// Clients: for the commands

void Protocol::resume(const std::shared_ptr<net::Connection>& c, const std::shared_ptr<Lane>& lane) {
  pump(c, lane);
}

std::optional<lobby::Player> Protocol::player_of(std::uint64_t connection) {
  std::lock_guard lock(clients_mutex_);
  auto it = clients_.find(connection);
  if (it == clients_.end()) return std::nullopt;
  return it->second.player;
}

void Protocol::set_player(std::uint64_t connection, const lobby::Player& player) {
  std::lock_guard lock(clients_mutex_);
  if (auto it = clients_.find(connection); it != clients_.end()) it->second.player = player;
}

void Protocol::set_session(std::uint64_t connection, const std::string& token_hash) {
  std::lock_guard lock(clients_mutex_);
  if (auto it = clients_.find(connection); it != clients_.end()) it->second.session = token_hash;
}

std::string Protocol::session_of(std::uint64_t connection) {
  std::lock_guard lock(clients_mutex_);
  auto it = clients_.find(connection);
  return it == clients_.end() ? std::string() : it->second.session;
}

void Protocol::clear_player(std::uint64_t connection) {
  {
    std::lock_guard lock(clients_mutex_);
    if (auto it = clients_.find(connection); it != clients_.end()) {
      it->second.player.reset();
      it->second.session.clear();
    }
  }
  seeks_.remove_connection(connection);
}

void Protocol::log_out_others(const std::string& player_id, std::uint64_t except) {
  std::vector<std::shared_ptr<net::Connection>> told;
  {
    std::lock_guard lock(clients_mutex_);
    for (auto& [id, client] : clients_) {
      if (id == except || !client.player || client.player->id != player_id) continue;
      // A client of another node: logged out there, by its own node.
      if (auto c = client.connection.lock(); c && c->remote()) continue;
      client.player.reset();
      client.session.clear();
      if (auto c = client.connection.lock()) told.push_back(std::move(c));
    }
  }
  const std::string message = R"({"type":"logged_out"})";
  for (const auto& c : told) {
    seeks_.remove_connection(c->id());
    c->send(message);
  }
}

std::shared_ptr<net::Connection> Protocol::connection_of(std::uint64_t connection) {
  std::lock_guard lock(clients_mutex_);
  auto it = clients_.find(connection);
  return it == clients_.end() ? nullptr : it->second.connection.lock();
}

bool Protocol::enter_room(std::uint64_t connection, const std::string& room, const std::function<void()>& then) {
  std::lock_guard lock(clients_mutex_);
  auto it = clients_.find(connection);
  if (it == clients_.end()) return false;
  it->second.rooms.insert(room);
  then();
  return true;
}

void Protocol::leave_room(std::uint64_t connection, const std::string& room) {
  std::lock_guard lock(clients_mutex_);
  if (auto it = clients_.find(connection); it != clients_.end()) it->second.rooms.erase(room);
}

}  // namespace cinq::server
