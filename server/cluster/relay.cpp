// The origin side of a cluster (cluster.h): a local client's commands for rooms owned elsewhere go to their
// owner and wait for its acknowledgement; the rooms' events come back on their channels and are handed to
// the local members (a Relay per room); an owner that changed or died is found again.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>

#include "server/cluster/cluster.h"
#include "server/error_message.h"

namespace cinq::server {

using nlohmann::json;

namespace {

std::int64_t now_ms() { return cluster::steady_ms(); }

}  // namespace

std::string Cluster::known_owner(const std::string& room) {
  std::lock_guard lock(mutex_);
  auto it = relays_.find(room);
  if (it == relays_.end() || it->second->owner.empty() || it->second->rerouting) return {};
  if (!live_.empty() && live_.count(it->second->owner) == 0) return {};
  return it->second->owner;
}

void Cluster::forward(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                      const std::string& session, const std::string& room, std::string text,
                      const std::string& owner, std::string fid, bool subscribes) {
  send_to_owner(c, player, session, room, std::move(text), owner, std::move(fid), false, subscribes);
}

void Cluster::send_to_owner(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                            const std::string& session, const std::string& room, std::string text,
                            const std::string& owner, std::string fid, bool join, bool subscribes) {
  if (fid.empty()) {
    std::lock_guard lock(mutex_);
    fid = node_id_ + "/" + std::to_string(++next_id_);
  }
  bool subscribe = false, ready = false;
  {
    std::lock_guard lock(mutex_);
    auto& relay = relays_[room];
    if (!relay) {
      relay = std::make_shared<Relay>();
      subscribe = true;
    }
    relay->owner = owner;
    relay->members.try_emplace(c->id(), Relay::Member{c, player.id, false});
    auto p = std::make_shared<Pending>();
    p->connection = c;
    p->connection_id = c->id();
    p->player = player;
    p->session = session;
    p->room = room;
    p->text = std::move(text);
    p->owner = owner;
    p->first_ms = now_ms();
    p->join = join;
    p->subscribes = join || subscribes;
    pending_[fid] = p;
    sent_to_[c->id()].insert(owner);
    ready = relay->subscribed;
    if (!ready) relay->waiting.push_back(fid);
  }
  ++counters_.forwarded;
  if (ready) return send_pending(fid);
  // Subscribed first (confirmed by Redis), so that no event the owner publishes after the command is missed.
  if (subscribe)
    redis_->subscribe(room_channel(room), [this, room] {
      std::vector<std::string> waiting;
      {
        std::lock_guard lock(mutex_);
        auto it = relays_.find(room);
        if (it == relays_.end()) return;
        it->second->subscribed = true;
        waiting.swap(it->second->waiting);
      }
      for (const auto& f : waiting) send_pending(f);
    });
}

void Cluster::send_pending(const std::string& fid) {
  std::shared_ptr<Pending> p;
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(fid);
    if (it == pending_.end()) return;
    p = it->second;
    p->sent_ms = now_ms();
    p->stalled = false;
    if (p->join) {
      // A member that receives the room's events already has everything up to the relay's version.
      auto r = relays_.find(p->room);
      if (r != relays_.end()) {
        auto m = r->second->members.find(p->connection_id);
        if (m != r->second->members.end() && m->second.version > 0) p->text = m->second.join(p->room).dump();
      }
    }
  }
  spdlog::debug("cluster: {} sent to {}: {}", fid, p->owner, p->text.substr(0, 80));
  json player{{"id", p->player.id}, {"name", p->player.name}, {"username", p->player.username}};
  auto c = p->connection.lock();
  to_node(p->owner,
          json{{"k", "cmd"}, {"from", node_id_}, {"conn", p->connection_id}, {"addr", c ? c->address() : ""},
               {"player", player}, {"session", p->session}, {"fid", fid}},
          p->text);
}

bool Cluster::forward_seek(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                           const std::string& session, const std::string& text, bool unseek) {
  std::string leader;
  {
    std::lock_guard lock(mutex_);
    if (unseek)
      seeks_.erase(c->id());
    else
      seeks_[c->id()] = text;
    leader = leader_;
    if (leader.empty() || leader == node_id_) return false;
    sent_to_[c->id()].insert(leader);
  }
  json p{{"id", player.id}, {"name", player.name}, {"username", player.username}};
  // Not tracked: a seek lost with its leader is sent again to the next one (elect()).
  to_node(leader,
          json{{"k", "cmd"}, {"from", node_id_}, {"conn", c->id()}, {"addr", c->address()}, {"player", p},
               {"session", session}, {"fid", ""}},
          text);
  return true;
}

void Cluster::closed(std::uint64_t connection) {
  std::set<std::string> nodes;
  {
    std::lock_guard lock(mutex_);
    if (auto it = sent_to_.find(connection); it != sent_to_.end()) {
      nodes = std::move(it->second);
      sent_to_.erase(it);
    }
    seeks_.erase(connection);
    for (auto& [room, relay] : relays_) relay->members.erase(connection);
    for (auto it = pending_.begin(); it != pending_.end();)
      it = it->second->connection_id == connection ? pending_.erase(it) : std::next(it);
  }
  for (const auto& node : nodes) to_node(node, json{{"k", "closed"}, {"from", node_id_}, {"conn", connection}});
}

// ---------------------------------------------------------------------------------------------------------
// What the owners send back

void Cluster::on_send(const json& head, std::string body) {
  const std::uint64_t conn = head.value("conn", std::uint64_t{0});
  auto c = host_->connection_of(conn);
  if (!c) return;
  if (body.rfind(R"({"type":"paired")", 0) == 0) {  // its seek is over
    std::lock_guard lock(mutex_);
    seeks_.erase(conn);
  }
  // The room it is about, if any (states, events, errors and ratings name it at their top level).
  nlohmann::ordered_json m;
  if (body.find(R"("room")") != std::string::npos) m = nlohmann::ordered_json::parse(body, nullptr, false);
  const bool about_room = m.is_object() && m.contains("room") && m["room"].is_string();
  if (about_room && !follows(m["room"].get<std::string>(), head.value("from", ""))) return;
  if ((body.rfind(R"({"type":"events")", 0) == 0 || body.rfind(R"({"type":"state")", 0) == 0) && about_room) {
    std::optional<lobby::Since> ask_again;
    if (!up_to_date(conn, m, body, ask_again)) {
      // The member's own join, answered from an older version than it has been relayed since: it waits for
      // an answer (its ref), so it asks again from where it is, and gets one that is not behind.
      if (ask_again && m.contains("ref")) {
        auto player = host_->player_of(conn);
        if (!player) return;
        json join{{"type", "join"}, {"room", m["room"]}, {"since", ask_again->version}, {"ref", m["ref"]}};
        if (ask_again->epoch) join["epoch"] = *ask_again->epoch;
        std::string owner;
        {
          std::lock_guard lock(mutex_);
          if (auto r = relays_.find(m["room"].get<std::string>()); r != relays_.end()) owner = r->second->owner;
        }
        if (!owner.empty())
          send_to_owner(c, *player, host_->session_of(conn), m["room"].get<std::string>(), join.dump(), owner, {},
                        false, true);
      }
      return;
    }
  }
  c->send(std::make_shared<const std::string>(std::move(body)));
}

// Whether `from` is the node this node follows for `room`: the owner its relay follows, or none other than
// this node when the room is held here. A node that lost a room (paused, or cut off, past its lease) still
// believes it holds it until it next tries to save it, and that save is refused: what it says meanwhile (the
// `storage` and `left` of every member when the save fails, a second answer to a command since sent again to
// the new owner, events) would stop the members' relay or mislead them, who follow the new owner. It is
// dropped; and since it may be this node that missed the room's move instead, the relay asks the store whose
// the room is (reroute: its lease decides) and joins its members there with `since`. Messages that name no
// node (an older node's) are taken.
bool Cluster::follows(const std::string& room, const std::string& from) {
  if (room.empty() || from.empty() || from == node_id_) return true;
  bool relayed = false;
  {
    std::lock_guard lock(mutex_);
    auto it = relays_.find(room);
    if (it != relays_.end()) {
      if (it->second->owner == from) return true;
      relayed = true;
    }
  }
  if (relayed) {
    spdlog::debug("cluster: room {} is followed at another node than {}: what it says is dropped", room, from);
    reroute(room);
    return false;
  }
  if (!host_->holds(room)) return true;  // neither relayed nor held here: nothing to follow
  spdlog::debug("cluster: room {} is held here: what {} says of it is dropped", room, from);
  return false;
}

json Cluster::Relay::Member::join(const std::string& room) const {
  json j{{"type", "join"}, {"room", room}};
  if (version > 0) {
    j["since"] = version;
    j["epoch"] = epoch;
  }
  return j;
}

// An answer to a join (a state, or the `events` since a version) for a member of a relayed room: a join sent
// again to a room's next owner may be answered by both, so what the member was handed already is dropped.
// Returns false when nothing is left to send; `body` keeps what is.
bool Cluster::up_to_date(std::uint64_t conn, nlohmann::ordered_json& m, std::string& body,
                         std::optional<lobby::Since>& ask_again) {
  if (!m.contains("version")) return true;
  const std::string room = m.value("room", "");
  const std::int64_t version = m.value("version", std::int64_t{0});
  const std::int64_t epoch = m.value("epoch", std::int64_t{0});
  std::lock_guard lock(mutex_);
  auto r = relays_.find(room);
  if (r == relays_.end()) return true;
  auto member = r->second->members.find(conn);
  if (member == r->second->members.end()) return true;
  std::int64_t& had = member->second.version;
  if (m.value("type", "") == "state" || epoch != member->second.epoch) {
    // A state replaces whatever the member held; events of another epoch are not comparable with it (the
    // owner answers `events` only in the epoch the join named, so this is a join from before a move).
    had = version;
    member->second.epoch = epoch;
    return true;
  }
  if (version < had) {
    ask_again = lobby::Since{had, member->second.epoch};
    return false;
  }
  if (had > 0 && m.contains("events") && m["events"].is_array()) {
    auto& events = m["events"];
    const auto before = events.size();
    events.erase(std::remove_if(events.begin(), events.end(),
                                [&](const auto& e) { return e.value("version", std::int64_t{0}) <= had; }),
                 events.end());
    if (events.size() != before) body = m.dump();
  }
  had = version;
  return true;
}

void Cluster::on_joined(const json& head, std::string) {
  const std::uint64_t conn = head.value("conn", std::uint64_t{0});
  const std::string room = head.value("room", "");
  if (!follows(room, head.value("from", ""))) return;
  std::lock_guard lock(mutex_);
  auto it = relays_.find(room);
  if (it == relays_.end()) return;
  Relay& relay = *it->second;
  const std::int64_t epoch = head.value("epoch", std::int64_t{0});
  const std::int64_t version = head.value("version", std::int64_t{0});
  if (epoch != relay.epoch) {
    relay.epoch = epoch;  // the room counts again from the state its owner just sent
    relay.version = version;
  } else {
    relay.version = std::max(relay.version, version);
  }
  if (auto m = relay.members.find(conn); m != relay.members.end()) {
    m->second.active = true;
  } else if (auto c = host_->connection_of(conn)) {
    auto player = host_->player_of(conn);
    relay.members.emplace(conn, Relay::Member{c, player ? player->id : std::string(), true});
  }
}

void Cluster::on_left(const json& head, std::string) {
  const std::uint64_t conn = head.value("conn", std::uint64_t{0});
  const std::string room = head.value("room", "");
  // From a node that lost the room, this would stop the member's events from the new owner.
  if (!follows(room, head.value("from", ""))) return;
  std::lock_guard lock(mutex_);
  auto it = relays_.find(room);
  if (it != relays_.end()) it->second->members.erase(conn);
}

void Cluster::on_ack(const json& head, std::string) {
  const std::string fid = head.value("fid", "");
  const std::string from = head.value("from", "");
  spdlog::debug("cluster: {} acknowledged by {}", fid, from);
  std::lock_guard lock(mutex_);
  // Only the node the command was last sent to settles it: one that lost the room acknowledges what it
  // could not store.
  auto it = pending_.find(fid);
  if (it != pending_.end() && (from.empty() || it->second->owner == from)) pending_.erase(it);
}

void Cluster::on_moved(const json& head, std::string) {
  const std::string room = head.value("room", "");
  spdlog::debug("cluster: {} answered moved (room {})", head.value("fid", ""), room);
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(head.value("fid", ""));
    if (it == pending_.end()) return;
    it->second->stalled = true;
  }
  reroute(room);
}

void Cluster::on_room_moved(const json& head, std::string) {
  const std::string room = head.value("room", "");
  {
    std::lock_guard lock(mutex_);
    if (relays_.count(room) == 0) return;
  }
  reroute(room);
}

// One batch of a room's events, to every local member that receives them: the legal actions to the seat to
// move, a spectators' chat line to spectators only.
void Cluster::on_batch(const json& head, std::string body) {
  const std::string room = head.value("room", "");
  const std::int64_t epoch = head.value("epoch", std::int64_t{0});
  const std::int64_t first = head.value("first", std::int64_t{0});
  const std::int64_t last = head.value("last", std::int64_t{0});
  if (!follows(room, head.value("from", ""))) return;
  std::vector<std::pair<std::shared_ptr<net::Connection>, std::string>> members;
  bool gap = false;
  {
    std::lock_guard lock(mutex_);
    auto it = relays_.find(room);
    if (it == relays_.end()) return;
    Relay& relay = *it->second;
    if (first > 0) {
      if (epoch != relay.epoch && relay.version > 0) {
        // The room counts in another epoch (its owner loaded it again): what the members hold is of no use
        // to its events; they join again, and the relay counts from here.
        gap = true;
      } else {
        if (last <= relay.version) return;  // seen already (a state that held it, or a duplicate)
        gap = relay.version > 0 && first != relay.version + 1;
      }
      relay.epoch = epoch;
      relay.version = last;
    }
    if (!gap)
      for (auto& [conn, m] : relay.members)
        if (m.active)
          if (auto c = m.connection.lock()) {
            members.emplace_back(std::move(c), m.player_id);
            if (first > 0) {
              m.version = m.epoch == epoch ? std::max(m.version, last) : last;
              m.epoch = epoch;
            }
          }
  }
  ++counters_.batches_in;
  if (gap) {
    // Events went missing (the bus lost them): the members ask the owner for what they missed.
    ++counters_.resyncs;
    return rejoin(room);
  }
  // The body's parts, in the head's order: events, the mover's copy, chat lines.
  std::vector<lobby::Message> events;
  std::size_t at = 0;
  auto take = [&](std::size_t n) {
    auto m = std::make_shared<const std::string>(body.substr(std::min(at, body.size()), n));
    at += n;
    return m;
  };
  for (const auto& n : head["n"]) events.push_back(take(n.get<std::size_t>()));
  lobby::Message mine;
  if (auto n = head.value("mine", std::size_t{0}); n > 0) mine = take(n);
  std::vector<std::pair<bool, lobby::Message>> chat;
  for (const auto& line : head["chat"]) chat.emplace_back(line[0].get<bool>(), take(line[1].get<std::size_t>()));
  const json& seats = head["seats"];
  const int mover = head.value("mover", -1);
  const std::int64_t patched_at = head.value("patched", std::int64_t{-1});
  const std::size_t patched = patched_at < 0 ? lobby::Effect::npos : static_cast<std::size_t>(patched_at);
  for (const auto& [c, player_id] : members) {
    int seat = -1;
    for (int s = 0; s < 2; ++s)
      if (!player_id.empty() && seats[s].is_string() && seats[s].get<std::string>() == player_id) seat = s;
    const bool is_mover = mine && seat >= 0 && seat == mover;
    for (std::size_t i = 0; i < events.size(); ++i) c->send(is_mover && i == patched ? mine : events[i]);
    for (const auto& [spectators_only, message] : chat)
      if (!spectators_only || seat < 0) c->send(message);
  }
}

void Cluster::publish(const Batch& b) {
  json n = json::array();
  std::string body;
  for (const auto& e : b.events) {
    n.push_back(e->size());
    body += *e;
  }
  json chat = json::array();
  body += b.mine;
  for (const auto& [spectators_only, message] : b.chat) {
    chat.push_back({spectators_only, message->size()});
    body += *message;
  }
  json head{{"k", "batch"}, {"room", b.room}, {"from", node_id_}, {"epoch", b.epoch}, {"first", b.first_version},
            {"last", b.last_version},
            {"seats", {b.seats[0], b.seats[1]}}, {"mover", b.mover},
            {"patched", b.patched == lobby::Effect::npos ? -1 : static_cast<std::int64_t>(b.patched)},
            {"n", n}, {"mine", b.mine.size()}, {"chat", chat}};
  ++counters_.batches_out;
  if (redis_) redis_->publish(room_channel(b.room), pack(head, body));
}

// ---------------------------------------------------------------------------------------------------------
// Finding a room again

void Cluster::rejoin(const std::string& room) {
  std::vector<std::pair<std::shared_ptr<net::Connection>, json>> members;  // and the join each sends
  std::string owner;
  {
    std::lock_guard lock(mutex_);
    auto it = relays_.find(room);
    if (it == relays_.end()) return;
    owner = it->second->owner;
    std::set<std::uint64_t> joining;  // a join already under way for them: not twice
    for (const auto& [fid, p] : pending_)
      if (p->room == room && p->subscribes) joining.insert(p->connection_id);
    for (auto& [conn, m] : it->second->members) {
      if (joining.count(conn)) continue;
      m.active = false;  // until the owner says it joined them again
      if (auto c = m.connection.lock()) members.emplace_back(std::move(c), m.join(room));
    }
  }
  if (owner.empty()) return;
  spdlog::debug("cluster: room {}: {} members join again at {}", room, members.size(), owner);
  for (auto& [c, join] : members) {
    auto player = host_->player_of(c->id());
    if (!player) continue;
    send_to_owner(c, *player, host_->session_of(c->id()), room, join.dump(), owner, {}, true, false);
  }
}

void Cluster::reroute(const std::string& room) {
  {
    std::lock_guard lock(mutex_);
    auto it = relays_.find(room);
    if (it == relays_.end() || it->second->rerouting) {
      spdlog::debug("cluster: room {}: reroute skipped ({})", room, it == relays_.end() ? "no relay" : "under way");
      return;
    }
    it->second->rerouting = true;
  }
  spdlog::debug("cluster: room {}: finding its owner", room);
  // The room's lease decides: another live node holds it (the relay follows it there), or nobody does and
  // this node takes it (its members and their commands come here).
  host_->load_room(room, [this, room](cluster::Host::Found found) {
    std::shared_ptr<Relay> relay;
    std::vector<std::pair<std::string, std::shared_ptr<Pending>>> pending;
    {
      std::lock_guard lock(mutex_);
      auto it = relays_.find(room);
      if (it == relays_.end()) return;
      relay = it->second;
      relay->rerouting = false;
      spdlog::debug("cluster: room {}: found room {} owner '{}' busy {} moved {}", room, found.here,
                    found.owner, found.busy, found.moved);
      relay->lost = found.busy || found.moved;
      if (relay->lost) return;  // the next heartbeat tries again
      if (!found.owner.empty()) {
        relay->owner = found.owner;
      } else {
        relays_.erase(it);  // here now, or gone
      }
      for (auto pit = pending_.begin(); pit != pending_.end();) {
        if (pit->second->room != room) {
          ++pit;
          continue;
        }
        pending.emplace_back(pit->first, pit->second);
        if (found.owner.empty()) {
          pit = pending_.erase(pit);
        } else {
          pit->second->owner = found.owner;
          ++pit;
        }
      }
    }
    if (!found.owner.empty()) {
      spdlog::info("cluster: room {} is on {} now", room, found.owner);
      rejoin(room);
      for (auto& [fid, p] : pending) {
        ++counters_.retried;
        send_pending(fid);
      }
      return;
    }
    redis_->unsubscribe(room_channel(room));
    if (!found.here) return;  // no such room any more
    spdlog::info("cluster: room {} is on this node now", room);
    // Its members join it here, where they were, then their commands go again (the room recognises those
    // it applied).
    // A member whose join is under way gets that join's answer only (never an `events` before its state).
    std::set<std::uint64_t> joining;
    for (const auto& [fid, p] : pending)
      if (p->subscribes) joining.insert(p->connection_id);
    for (auto& [conn, m] : relay->members) {
      if (joining.count(conn)) continue;
      host_->feed_again(conn, m.join(room).dump(), {});
    }
    for (auto& [fid, p] : pending) {
      if (p->join) {  // sent by rejoin(): from what the member has by now
        auto m = relay->members.find(p->connection_id);
        p->text = m != relay->members.end() ? m->second.join(room).dump() : json{{"type", "join"}, {"room", room}}.dump();
      }
      ++counters_.retried;
      spdlog::debug("cluster: {} run here: {}", fid, p->text);
      host_->feed_again(p->connection_id, p->text, fid);
    }
  });
}

void Cluster::check_pending(std::int64_t now) {
  std::vector<std::string> resend;
  std::vector<std::string> reroutes;
  std::vector<std::shared_ptr<net::Connection>> given_up;
  std::vector<std::pair<std::function<void(net::HttpResponse)>, int>> http_given_up;
  {
    std::lock_guard lock(mutex_);
    for (auto it = pending_.begin(); it != pending_.end();) {
      Pending& p = *it->second;
      if (now - p.first_ms > kForwardGiveUpMs) {
        if (auto c = p.connection.lock()) given_up.push_back(std::move(c));
        it = pending_.erase(it);
        continue;
      }
      if (p.sent_ms > 0 && now - p.sent_ms > kForwardTimeoutMs) {
        if (!live_.empty() && live_.count(p.owner) == 0)
          reroutes.push_back(p.room);
        else
          resend.push_back(it->first);
      }
      ++it;
    }
    for (auto it = http_waiting_.begin(); it != http_waiting_.end();) {
      if (now - it->second.since_ms > 10000) {
        http_given_up.emplace_back(std::move(it->second.respond), 503);
        it = http_waiting_.erase(it);
      } else {
        ++it;
      }
    }
    // Relays nobody is in any more, with nothing under way, are dropped.
    std::set<std::string> waited_for;
    for (const auto& [fid, p] : pending_) waited_for.insert(p->room);
    for (auto it = relays_.begin(); it != relays_.end();) {
      const bool busy = !it->second->members.empty() || !it->second->waiting.empty() || it->second->rerouting ||
                        waited_for.count(it->first) > 0;
      if (!busy) {
        if (redis_) redis_->unsubscribe(room_channel(it->first));
        it = relays_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& fid : resend) {
    ++counters_.retried;
    send_pending(fid);
  }
  for (const auto& room : reroutes) reroute(room);
  for (const auto& c : given_up)
    c->send(error_message("storage",
                          "the node playing this room did not answer: rejoin the room and send it again", {}, {}));
  for (auto& [respond, status] : http_given_up) {
    net::HttpResponse r;
    r.status = status;
    r.body = R"({"error":{"code":"busy","message":"the node playing this game did not answer: try again"}})";
    r.headers.emplace_back("Retry-After", "1");
    respond(r);
  }
}

void Cluster::forward_http(const std::string& owner, net::HttpRequest request,
                           std::function<void(net::HttpResponse)> respond) {
  std::string id;
  {
    std::lock_guard lock(mutex_);
    id = node_id_ + "/h" + std::to_string(++next_id_);
    http_waiting_[id] = HttpWaiting{std::move(respond), now_ms()};
  }
  ++counters_.http_forwarded;
  to_node(owner,
          json{{"k", "http"}, {"from", node_id_}, {"id", id}, {"method", request.method}, {"target", request.target},
               {"ctype", request.content_type}, {"addr", request.address},
               {"auth", request.authorization}},
          request.body);
}

void Cluster::on_http_reply(const json& head, std::string body) {
  std::function<void(net::HttpResponse)> respond;
  {
    std::lock_guard lock(mutex_);
    auto it = http_waiting_.find(head.value("id", ""));
    if (it == http_waiting_.end()) return;
    respond = std::move(it->second.respond);
    http_waiting_.erase(it);
  }
  net::HttpResponse r;
  r.status = head.value("status", 200);
  r.content_type = head.value("ctype", "application/json");
  r.body = std::move(body);
  for (const auto& h : head["headers"]) r.headers.emplace_back(h[0].get<std::string>(), h[1].get<std::string>());
  respond(std::move(r));
}

}  // namespace cinq::server
