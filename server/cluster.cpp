// The node of a cluster (cluster.h): the bus, the heartbeat and the scan for orphaned games, the lobby's
// lists and leader, and draining. The owner side is in cluster_owner.cpp, the relays in cluster_relay.cpp.
#include "server/cluster.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>

#include "server/identity.h"
#include "server/protocol.h"
#include "server/room_actor.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server {

using nlohmann::json;

namespace {

std::int64_t now_ms() { return Services::now().steady_ms; }

constexpr const char* kClusterChannel = "cinq:cluster";
constexpr const char* kLobbyChannel = "cinq:lobby";
constexpr const char* kLeaderKey = "cinq:lobby:leader";
constexpr std::int64_t kLeaderTtlMs = 3000;
// Holds the leadership if it is free or ours, and says who holds it.
constexpr const char* kElect =
    "local v = redis.call('GET', KEYS[1]) "
    "if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return ARGV[1] end "
    "if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end "
    "return v";

}  // namespace

// A bus message: a JSON head, a newline, then the body as it is (a client's message, a room's events).
std::string pack(const json& head, std::string_view body) {
  std::string out = head.dump();
  out.reserve(out.size() + 1 + body.size());
  out += '\n';
  out.append(body);
  return out;
}

Cluster::Cluster(Services& services, ClusterConfig config)
    : services_(services), config_(std::move(config)) {
  node_id_ = config_.node + ":" + random_id(6);
  started_ms_ = Services::now().unix_ms;
}

Cluster::~Cluster() { stop(); }

void Cluster::attach(Protocol& protocol, RoomDirectory& rooms, Workers& workers, HttpApi& http) {
  protocol_ = &protocol;
  rooms_ = &rooms;
  workers_ = &workers;
  http_ = &http;
}

void Cluster::start() {
  std::string error;
  auto redis_config = net::RedisConfig::parse(config_.bus, error);
  if (!redis_config) throw std::runtime_error("--bus: " + error);
  redis_ = std::make_unique<net::Redis>(
      *services_.net, *redis_config,
      [this](const std::string& channel, std::string payload) { on_message(channel, std::move(payload)); },
      [this](bool up) { on_bus_state(up); });
  redis_->subscribe(inbox(node_id_));
  redis_->subscribe(kClusterChannel);
  redis_->subscribe(kLobbyChannel);
  redis_->start();
  beat();  // alive before anyone looks for this node's rooms
  spdlog::info("cluster: node {} ({}) on bus {}", config_.node, node_id_, config_.bus);
  thread_ = std::thread([this] { heartbeat_loop(); });
}

void Cluster::stop() {
  if (stopping_.exchange(true)) return;
  {
    std::lock_guard lock(wake_mutex_);
    scan_now_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (redis_) redis_->stop();
}

void Cluster::release_bus() {
  stop();
  redis_.reset();
}

bool Cluster::bus_up() const { return redis_ && redis_->up(); }

std::optional<store::Fence> Cluster::new_room_fence() const { return store::Fence{node_id_, 1, true}; }

// ---------------------------------------------------------------------------------------------------------
// The bus

void Cluster::to_node(const std::string& node, const json& head, std::string_view body) {
  if (redis_) redis_->publish(inbox(node), pack(head, body));
}

void Cluster::on_message(const std::string& channel, std::string payload) {
  const auto newline = payload.find('\n');
  if (newline == std::string::npos) return;
  json head = json::parse(std::string_view(payload).substr(0, newline), nullptr, false);
  if (!head.is_object()) return;
  std::string body = payload.substr(newline + 1);
  const std::string kind = head.value("k", "");
  try {
    if (kind == "batch") return on_batch(head, std::move(body));
    if (kind == "send") return on_send(head, std::move(body));
    if (kind == "cmd") return on_command(head, std::move(body));
    if (kind == "ack") return on_ack(head);
    if (kind == "joined") return on_joined(head);
    if (kind == "left") return on_left(head);
    if (kind == "moved") return on_moved(head);
    if (kind == "room_moved") return on_room_moved(head.value("room", ""));
    if (kind == "closed") return on_remote_closed(head.value("from", ""), head.value("conn", std::uint64_t{0}));
    if (kind == "close") {
      if (auto c = protocol_->connection_of(head.value("conn", std::uint64_t{0})))
        c->close(head.value("code", 1000), head.value("reason", ""));
      return;
    }
    if (kind == "http") return on_http(head, std::move(body));
    if (kind == "http_reply") return on_http_reply(head, std::move(body));
    if (kind == "list") return on_lobby(head, std::move(body));
    if (kind == "scan") {
      {
        std::lock_guard lock(wake_mutex_);
        scan_now_ = true;
      }
      wake_.notify_all();
      return;
    }
    if (kind == "logout") {
      if (head.value("node", "") != node_id_) protocol_->log_out_others(head.value("player", ""), 0);
      return;
    }
  } catch (const std::exception& e) {
    spdlog::error("cluster: a '{}' message on {} failed: {}", kind, channel, e.what());
  }
}

void Cluster::on_bus_state(bool up) {
  if (!up) {
    spdlog::warn("cluster: the bus is down: commands for other nodes wait");
    return;
  }
  spdlog::info("cluster: the bus is up: resynchronising the relayed rooms");
  // What was published while the bus was down is lost: every relay joins its members again (they get what
  // they missed), and commands not acknowledged are sent again (the owner recognises those it applied).
  std::vector<std::string> rooms;
  std::vector<std::string> fids;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [room, relay] : relays_) rooms.push_back(room);
    for (const auto& [fid, p] : pending_) fids.push_back(fid);
  }
  for (const auto& room : rooms) rejoin(room);
  for (const auto& fid : fids) send_pending(fid);
  ++counters_.resyncs;
  publish_lobby(true);
  std::lock_guard lock(mutex_);
  leader_.clear();  // the next election sends the seeks again, wherever they belong (a restarted Redis)
}

// ---------------------------------------------------------------------------------------------------------
// The heartbeat

void Cluster::heartbeat_loop() {
  std::int64_t last_beat = now_ms();
  while (!stopping_) {
    bool scan_asked = false;
    {
      std::unique_lock lock(wake_mutex_);
      wake_.wait_for(lock, std::chrono::milliseconds(kListEveryMs), [this] { return scan_now_ || stopping_.load(); });
      scan_asked = scan_now_;
      scan_now_ = false;
    }
    if (stopping_) break;
    const std::int64_t now = now_ms();
    publish_lobby(false);
    if (now - last_beat >= kBeatMs || scan_asked) {
      if (now - last_beat >= kBeatMs) {
        last_beat = now;
        beat();
        elect();
        check_pending(now);
      }
      scan();
    }
  }
}

void Cluster::beat() {
  store::NodeRow row{node_id_, config_.node, config_.address, started_ms_, 0};
  store::Error error;
  const std::int64_t started = now_ms();
  if (!draining_ && !services_.store->beat(row, kLeaseMs, error)) {
    spdlog::warn("cluster: heartbeat failed: {}", error.message);
  } else if (!draining_) {
    // No heartbeat stored for kLeaseMs (this node was paused, or cut off from the store): the other nodes may
    // have taken it for dead and its rooms over, and it would go on serving them to its own clients from
    // memory, a room that no longer changes. Each room saves once, under its lease: a room lost meanwhile
    // fails that save and closes as any failed save does (its members are told `storage`, and rejoin it
    // where it is now).
    if (last_beat_ms_ > 0 && now_ms() - last_beat_ms_ >= kLeaseMs) {
      auto rooms = rooms_ ? rooms_->all() : std::vector<std::shared_ptr<RoomActor>>{};
      spdlog::warn("cluster: no heartbeat stored for {} ms: checking the lease of each of its {} rooms",
                   now_ms() - last_beat_ms_, rooms.size());
      for (auto& actor : rooms)
        actor->post([](RoomActor& a) {
          if (a.room().status() != lobby::Status::finished) a.save_then([] {});
        });
    }
    last_beat_ms_ = started;
  }
  auto nodes = services_.store->live_nodes();
  if (store::last_read_failed()) return;  // keep what we knew
  std::set<std::string> live;
  for (const auto& n : nodes) live.insert(n.id);
  std::vector<std::string> orphaned;  // relayed rooms whose owner died
  {
    std::lock_guard lock(mutex_);
    live_ = live;
    for (const auto& [room, relay] : relays_)
      if (!relay->owner.empty() && live.count(relay->owner) == 0) orphaned.push_back(room);
  }
  drop_remotes_of_dead_nodes(live);
  for (const auto& room : orphaned) {
    spdlog::info("cluster: the owner of room {} is gone: finding it again", room);
    reroute(room);
  }
}

// Unfinished games that no live node holds: this node takes its share (they are shuffled, so that nodes
// scanning at once mostly try different ones; the lease decides).
void Cluster::scan() {
  if (draining_ || stopping_) return;
  auto orphans = services_.store->orphans(500);
  if (orphans.empty()) return;
  std::size_t nodes = 1;
  {
    std::lock_guard lock(mutex_);
    nodes = std::max<std::size_t>(1, live_.size());
  }
  static thread_local std::mt19937 shuffle{std::random_device{}()};
  std::shuffle(orphans.begin(), orphans.end(), shuffle);
  const std::size_t share = (orphans.size() + nodes - 1) / nodes;
  for (std::size_t i = 0; i < share && i < orphans.size(); ++i) {
    const std::string id = orphans[i];
    rooms_->load(id, [this, id](RoomDirectory::Lookup found) {
      if (!found.room) return;
      ++counters_.rooms_taken;
      spdlog::info("cluster: took over room {}", id);
    });
  }
}

void Cluster::elect() {
  if (!redis_ || draining_) return;
  redis_->command({"EVAL", kElect, "1", kLeaderKey, node_id_, std::to_string(kLeaderTtlMs)},
                  [this](std::optional<net::RedisReply> reply) {
                    if (!reply || reply->kind != net::RedisReply::Kind::string) return;
                    std::string was;
                    std::vector<std::pair<std::uint64_t, std::string>> seeks;
                    {
                      std::lock_guard lock(mutex_);
                      if (leader_ == reply->text) return;
                      was = leader_;
                      leader_ = reply->text;
                      for (const auto& [conn, text] : seeks_) seeks.emplace_back(conn, text);
                    }
                    spdlog::info("cluster: the lobby's leader is {}", reply->text);
                    // Seeks live in the leader's book: a new leader gets every client's seek again.
                    for (auto& [conn, text] : seeks) protocol_->feed_again(conn, text, {});
                  });
}

// ---------------------------------------------------------------------------------------------------------
// The lobby

bool Cluster::leads_lobby() {
  std::lock_guard lock(mutex_);
  return !leader_.empty() && leader_ == node_id_;
}

void Cluster::publish_lobby(bool force) {
  if (!redis_ || !rooms_) return;
  auto list = rooms_->public_list();
  const std::int64_t now = now_ms();
  const bool leads = leads_lobby();
  {
    std::lock_guard lock(mutex_);
    // On a change, and every second; the leader every kListEveryMs (its seeks change without its rooms).
    if (!force && list == published_ && now - published_at_ms_ < (leads ? kListEveryMs : kBeatMs)) return;
    published_ = list;
    published_at_ms_ = now;
  }
  std::string body = R"({"rooms":)" + *list + R"(,"seeks":)" + (leads ? protocol_->seeks_json() : "null") + "}";
  redis_->publish(kLobbyChannel, pack(json{{"k", "list"}, {"node", node_id_}}, body));
}

void Cluster::on_lobby(const json& head, std::string body) {
  const std::string node = head.value("node", "");
  if (node.empty() || node == node_id_) return;
  json list = json::parse(body, nullptr, false);
  if (!list.is_object()) return;
  NodeList entry;
  entry.at_ms = now_ms();
  if (list["rooms"].is_array())
    for (auto& r : list["rooms"]) entry.rooms.push_back(std::move(r));
  if (list["seeks"].is_array()) entry.seeks = std::make_shared<const std::string>(list["seeks"].dump());
  std::lock_guard lock(mutex_);
  lists_[node] = std::move(entry);
  merged_.reset();
}

std::shared_ptr<const std::string> Cluster::public_list() {
  auto local = rooms_->public_list();
  const std::int64_t now = now_ms();
  std::lock_guard lock(mutex_);
  if (merged_ && now - merged_at_ms_ < kListEveryMs) return merged_;
  std::vector<json> rooms;
  json mine = json::parse(*local, nullptr, false);
  if (mine.is_array())
    for (auto& r : mine) rooms.push_back(std::move(r));
  for (auto it = lists_.begin(); it != lists_.end();) {
    // A node not heard of for 3 s (dead, or cut from the bus) is left out.
    if (now - it->second.at_ms > 3 * kBeatMs) {
      it = lists_.erase(it);
      continue;
    }
    for (const auto& r : it->second.rooms) rooms.push_back(r);
    ++it;
  }
  std::stable_sort(rooms.begin(), rooms.end(), [](const json& x, const json& y) {
    return x.value("created_ms", std::int64_t{0}) > y.value("created_ms", std::int64_t{0});
  });
  merged_ = std::make_shared<const std::string>(json(std::move(rooms)).dump());
  merged_at_ms_ = now;
  return merged_;
}

std::shared_ptr<const std::string> Cluster::leader_seeks() {
  std::lock_guard lock(mutex_);
  if (leader_.empty() || leader_ == node_id_) return nullptr;
  auto it = lists_.find(leader_);
  if (it == lists_.end() || !it->second.seeks) return std::make_shared<const std::string>("[]");
  return it->second.seeks;
}

void Cluster::log_out_everywhere(const std::string& player_id, std::uint64_t) {
  if (redis_) redis_->publish(kClusterChannel, pack(json{{"k", "logout"}, {"player", player_id}, {"node", node_id_}}, {}));
}

// ---------------------------------------------------------------------------------------------------------
// Draining: every room handed over once settled, the leases given up, the other nodes told to look.

void Cluster::drain(std::function<void()> done) {
  if (draining_.exchange(true)) return;
  spdlog::info("cluster: draining: handing every room over");
  auto rooms = rooms_->all();
  auto left = std::make_shared<std::atomic<std::size_t>>(rooms.size());
  for (auto& actor : rooms) {
    actor->post([this, left](RoomActor& a) {
      auto hand_over = [this, &a, left] {
        ++counters_.rooms_handed;
        services_.forget_room(a.id());  // its lease goes, its relays look again (room_gone)
        left->fetch_sub(1);
      };
      a.when_settled(hand_over, hand_over);
    });
  }
  // Off the network threads: the store is called. A room that never settles (its store gone) holds the node
  // 5 s at most.
  std::vector<std::string> ids;
  for (const auto& actor : rooms) ids.push_back(actor->id());
  std::thread([this, left, ids = std::move(ids), done = std::move(done)] {
    for (int i = 0; i < 50 && left->load() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    // Every lease given up at once; then the rooms' members and the other nodes are told.
    store::Error error;
    if (!services_.store->leave(node_id_, error)) spdlog::warn("cluster: leaving: {}", error.message);
    if (redis_) {
      for (const auto& id : ids) redis_->publish(room_channel(id), pack(json{{"k", "room_moved"}, {"room", id}}, {}));
      redis_->publish(kClusterChannel, pack(json{{"k", "scan"}}, {}));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));  // written before the transport stops
    }
    spdlog::info("cluster: every room handed over");
    done();
  }).detach();
}

void Cluster::room_gone(const std::string& room, std::int64_t lease, bool) {
  // Off this thread (a room's strand): the lease is given up in the store, then the relays are told, so
  // that the node that takes it finds it free.
  auto job = [this, room, lease] {
    store::Error error;
    if (!services_.store->release(room, node_id_, lease, error))
      spdlog::warn("cluster: giving up room {}: {}", room, error.message);
    if (redis_) redis_->publish(room_channel(room), pack(json{{"k", "room_moved"}, {"room", room}}, {}));
  };
  if (!workers_ || !workers_->submit(Workers::Kind::quick, job)) job();
}

std::size_t Cluster::relays() {
  std::lock_guard lock(mutex_);
  return relays_.size();
}

std::size_t Cluster::live_nodes() {
  std::lock_guard lock(mutex_);
  return live_.size();
}

std::string Cluster::metrics_text() {
  std::string out;
  auto line = [&](const char* name, const char* help, std::int64_t value) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " counter\n" + name + " " +
           std::to_string(value) + "\n";
  };
  line("cinq_cluster_forwarded_total", "commands forwarded to the node owning their room", counters_.forwarded);
  line("cinq_cluster_forwarded_in_total", "commands forwarded here by other nodes", counters_.forwarded_in);
  line("cinq_cluster_retried_total", "forwarded commands sent again (not acknowledged in time, or moved)",
       counters_.retried);
  line("cinq_cluster_moved_total", "forwarded commands answered 'moved' (the room changed owner)", counters_.moved);
  line("cinq_cluster_duplicates_total", "commands received again and recognised as applied", counters_.duplicates);
  line("cinq_cluster_batches_out_total", "event batches published for other nodes", counters_.batches_out);
  line("cinq_cluster_batches_in_total", "event batches received for local members", counters_.batches_in);
  line("cinq_cluster_resyncs_total", "relayed rooms joined again after a gap or a lost bus", counters_.resyncs);
  line("cinq_cluster_rooms_taken_total", "rooms taken over from dead or stopping nodes", counters_.rooms_taken);
  line("cinq_cluster_rooms_handed_total", "rooms handed over while draining", counters_.rooms_handed);
  line("cinq_cluster_http_forwarded_total", "HTTP requests answered by the owning node", counters_.http_forwarded);
  out += "# HELP cinq_cluster_nodes live nodes\n# TYPE cinq_cluster_nodes gauge\ncinq_cluster_nodes " +
         std::to_string(live_nodes()) + "\n";
  out += "# HELP cinq_cluster_relays rooms relayed from other nodes\n# TYPE cinq_cluster_relays gauge\n"
         "cinq_cluster_relays " + std::to_string(relays()) + "\n";
  out += "# HELP cinq_cluster_bus_up the bus is connected\n# TYPE cinq_cluster_bus_up gauge\ncinq_cluster_bus_up " +
         std::string(bus_up() ? "1" : "0") + "\n";
  return out;
}

}  // namespace cinq::server
