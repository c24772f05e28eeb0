// The node of a cluster (cluster.h): the bus and its table of messages, the heartbeat and the scan for
// orphaned games, the lobby's lists and leader, and draining. The owner side is in owner.cpp, the relays in
// relay.cpp.
#include "server/cluster/cluster.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>

#include "lobby/room_pages.h"
#include "server/identity.h"

namespace cinq::server {

using nlohmann::json;

namespace {

std::int64_t now_ms() { return cluster::steady_ms(); }

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

std::int64_t cluster::steady_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

std::int64_t cluster::unix_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// A bus message: a JSON head, a newline, then the body as it is (a client's message, a room's events).
std::string pack(const json& head, std::string_view body) {
  std::string out = head.dump();
  out.reserve(out.size() + 1 + body.size());
  out += '\n';
  out.append(body);
  return out;
}

Cluster::Cluster(ClusterConfig config, store::Store& store) : config_(std::move(config)), store_(store) {
  node_id_ = config_.node + ":" + random_id(6);
  started_ms_ = cluster::unix_ms();
}

Cluster::~Cluster() { stop(); }

void Cluster::attach(cluster::Host& host) { host_ = &host; }

void Cluster::start(net::Server& net) {
  std::string error;
  auto redis_config = net::RedisConfig::parse(config_.bus, error);
  if (!redis_config) throw std::runtime_error("--bus: " + error);
  redis_ = std::make_unique<net::Redis>(
      net, *redis_config,
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

void Cluster::shared_command(std::vector<std::string> args,
                             std::function<void(std::optional<net::RedisReply>)> done) {
  if (!redis_) return done(std::nullopt);
  redis_->command(std::move(args), std::move(done));
}

store::Fence Cluster::new_room_fence() const { return store::Fence{node_id_, 1, true}; }

RoomBus::Claim Cluster::claim(const std::string& room) {
  Claim out;
  if (draining_) {
    out.moved = true;
    return out;
  }
  if (!judging()) {  // the store may take a live node for dead now: ask again in a moment
    out.busy = true;
    return out;
  }
  store::Error error;
  auto lease = store_.acquire(room, node_id_, error);
  if (!lease || (lease->lease == 0 && lease->owner.empty())) {
    out.busy = true;
  } else if (lease->lease == 0) {
    out.owner = lease->owner;
  } else {
    out.fence = store::Fence{node_id_, lease->lease, false};
  }
  return out;
}

bool Cluster::health(json& body) {
  body["node"] = node_name();
  body["node_id"] = node_id();
  body["bus"] = bus_up();
  body["nodes"] = live_nodes();
  return !draining();
}

// ---------------------------------------------------------------------------------------------------------
// The bus

void Cluster::to_node(const std::string& node, const json& head, std::string_view body) {
  if (redis_) redis_->publish(inbox(node), pack(head, body));
}

const std::unordered_map<std::string_view, Cluster::Handler>& Cluster::handlers() {
  static const std::unordered_map<std::string_view, Handler> table = {
      // about a room, from its owner
      {"batch", &Cluster::on_batch},
      {"send", &Cluster::on_send},
      {"joined", &Cluster::on_joined},
      {"left", &Cluster::on_left},
      {"ack", &Cluster::on_ack},
      {"moved", &Cluster::on_moved},
      {"room_moved", &Cluster::on_room_moved},
      {"close", &Cluster::on_close},
      {"http_reply", &Cluster::on_http_reply},
      // to an owner, from a client's node
      {"cmd", &Cluster::on_command},
      {"closed", &Cluster::on_remote_closed},
      {"http", &Cluster::on_http},
      // to every node
      {"list", &Cluster::on_lobby},
      {"scan", &Cluster::on_scan},
      {"logout", &Cluster::on_logout},
      {"tournament", &Cluster::on_tournament},
      {"to_player", &Cluster::on_to_player},
      {"moderation", &Cluster::on_moderation},
  };
  return table;
}

void Cluster::on_message(const std::string& channel, std::string payload) {
  const auto newline = payload.find('\n');
  if (newline == std::string::npos) return;
  json head = json::parse(std::string_view(payload).substr(0, newline), nullptr, false);
  if (!head.is_object()) return;
  std::string body = payload.substr(newline + 1);
  const std::string kind = head.value("k", "");
  auto handler = handlers().find(kind);
  if (handler == handlers().end()) {
    spdlog::debug("cluster: a message of an unknown kind '{}' on {}", kind, channel);
    return;
  }
  try {
    (this->*(handler->second))(head, std::move(body));
  } catch (const std::exception& e) {
    spdlog::error("cluster: a '{}' message on {} failed: {}", kind, channel, e.what());
  }
}

void Cluster::on_scan(const json&, std::string) {
  {
    std::lock_guard lock(wake_mutex_);
    scan_now_ = true;
  }
  wake_.notify_all();
}

void Cluster::on_logout(const json& head, std::string) {
  if (head.value("node", "") != node_id_) host_->log_out(head.value("player", ""));
}

void Cluster::on_tournament(const json& head, std::string) {
  if (head.value("node", "") != node_id_) host_->tournament_changed(head.value("id", ""));
}

void Cluster::on_to_player(const json& head, std::string body) {
  if (head.value("node", "") != node_id_) host_->to_player(head.value("player", ""), body);
}

void Cluster::on_moderation(const json& head, std::string) {
  if (head.value("node", "") != node_id_) host_->moderation_changed(head.value("player", ""));
}

void Cluster::on_close(const json& head, std::string) {
  if (auto c = host_->connection_of(head.value("conn", std::uint64_t{0})))
    c->close(head.value("code", 1000), head.value("reason", ""));
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
  if (!draining_ && !store_.beat(row, kLeaseMs, error)) {
    spdlog::warn("cluster: heartbeat failed: {}", error.message);
    judge_from_ms_ = now_ms() + kLeaseMs + kBeatMs;
  } else if (!draining_) {
    // No heartbeat stored for kLeaseMs (this node was paused, or cut off from the store): the other nodes may
    // have taken it for dead and its rooms over, and it would go on serving them to its own clients from
    // memory, a room that no longer changes. Each room saves once, under its lease: a room lost meanwhile
    // fails that save and closes as any failed save does (its members are told `storage`, and rejoin it
    // where it is now).
    if (last_beat_ms_ > 0 && now_ms() - last_beat_ms_ >= kLeaseMs) {
      spdlog::warn("cluster: no heartbeat stored for {} ms: checking the lease of each of its rooms",
                   now_ms() - last_beat_ms_);
      if (host_) host_->save_each_room();
      judge_from_ms_ = now_ms() + kLeaseMs + kBeatMs;
      // And the other nodes may have taken this one for dead and dropped its clients from their rooms: the
      // members of every room relayed here join again, from what each has.
      std::vector<std::string> relayed;
      {
        std::lock_guard lock(mutex_);
        for (const auto& [room, relay] : relays_) relayed.push_back(room);
      }
      for (const auto& room : relayed) rejoin(room);
      if (!relayed.empty()) ++counters_.resyncs;
    }
    last_beat_ms_ = started;
  }
  auto nodes = store_.live_nodes();
  if (nodes.failed()) return;  // keep what we knew
  if (!judging()) {
    spdlog::debug("cluster: after a gap in the heartbeats, nobody is judged dead yet");
    return;
  }
  std::set<std::string> live;
  for (const auto& n : nodes) live.insert(n.id);
  std::vector<std::string> orphaned;  // relayed rooms whose owner died
  {
    std::lock_guard lock(mutex_);
    live_ = live;
    for (const auto& [room, relay] : relays_)
      if (relay->lost || (!relay->owner.empty() && live.count(relay->owner) == 0)) orphaned.push_back(room);
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
  if (draining_ || stopping_ || !judging()) return;
  auto orphans = store_.orphans(500);
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
    host_->load_room(id, [this, id](cluster::Host::Found found) {
      if (!found.here) return;
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
                    for (auto& [conn, text] : seeks) host_->feed_again(conn, text, {});
                  });
}

// ---------------------------------------------------------------------------------------------------------
// The lobby

bool Cluster::leads_lobby() {
  std::lock_guard lock(mutex_);
  return !leader_.empty() && leader_ == node_id_;
}

void Cluster::publish_lobby(bool force) {
  if (!redis_ || !host_) return;
  auto list = host_->public_list();
  const std::int64_t now = now_ms();
  const bool leads = leads_lobby();
  {
    std::lock_guard lock(mutex_);
    // On a change, and every second; the leader every kListEveryMs (its seeks change without its rooms).
    if (!force && list == published_ && now - published_at_ms_ < (leads ? kListEveryMs : kBeatMs)) return;
    published_ = list;
    published_at_ms_ = now;
  }
  std::string body = R"({"rooms":)" + *list + R"(,"seeks":)" + (leads ? host_->seeks_json() : "null") + "}";
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
  auto local = host_->public_list();
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
  lobby::RoomPages::bound(rooms);  // the newest kMaxListed of every node's, newest first
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

void Cluster::tournament_changed(const std::string& id) {
  if (redis_) redis_->publish(kClusterChannel, pack(json{{"k", "tournament"}, {"id", id}, {"node", node_id_}}, {}));
}

void Cluster::to_player(const std::string& player_id, const std::string& text) {
  if (redis_)
    redis_->publish(kClusterChannel, pack(json{{"k", "to_player"}, {"player", player_id}, {"node", node_id_}}, text));
}

void Cluster::moderation_changed(const std::string& player_id) {
  if (redis_)
    redis_->publish(kClusterChannel, pack(json{{"k", "moderation"}, {"player", player_id}, {"node", node_id_}}, {}));
}

// ---------------------------------------------------------------------------------------------------------
// Draining: every room handed over once settled, the leases given up, the other nodes told to look.

void Cluster::drain(std::function<void()> done) {
  if (draining_.exchange(true)) return;
  spdlog::info("cluster: draining: handing every room over");
  auto left = std::make_shared<std::atomic<std::int64_t>>(0);
  // A room that never settles (its store gone) holds the node 5 s at most.
  std::vector<std::string> ids = host_->hand_over_rooms([this, left] {
    ++counters_.rooms_handed;
    left->fetch_sub(1);
  });
  left->fetch_add(static_cast<std::int64_t>(ids.size()));
  // Off the network threads: the store is called.
  std::thread([this, left, ids = std::move(ids), done = std::move(done)] {
    for (int i = 0; i < 50 && left->load() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    // Every lease given up at once; then the rooms' members and the other nodes are told.
    store::Error error;
    if (!store_.leave(node_id_, error)) spdlog::warn("cluster: leaving: {}", error.message);
    if (redis_) {
      for (const auto& id : ids) redis_->publish(room_channel(id), pack(json{{"k", "room_moved"}, {"room", id}}, {}));
      redis_->publish(kClusterChannel, pack(json{{"k", "scan"}}, {}));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));  // written before the transport stops
    }
    spdlog::info("cluster: every room handed over");
    done();
  }).detach();
}

void Cluster::room_gone(const std::string& room, std::int64_t lease) {
  // Off this thread (a room's strand): the lease is given up in the store, then the relays are told, so
  // that the node that takes it finds it free.
  auto job = [this, room, lease] {
    store::Error error;
    if (!store_.release(room, node_id_, lease, error))
      spdlog::warn("cluster: giving up room {}: {}", room, error.message);
    if (redis_) redis_->publish(room_channel(room), pack(json{{"k", "room_moved"}, {"room", room}}, {}));
  };
  if (!host_ || !host_->run_quick(job)) job();
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
