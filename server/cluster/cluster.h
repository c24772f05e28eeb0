// Several nodes behind a load balancer (docs/scaling.md). Each `cinq serve --bus redis://...
// --node NAME` is one node; the nodes share one PostgreSQL (the store) and one Redis (the bus).
//
// One owner per room. A node plays a room only while it holds the room's lease in the store (store.h,
// Fence): it takes the lease when it makes the room or loads it, and every save of the room names it, so a
// node that lost it (its heartbeat stopped and another node took the room over) can store nothing more of it.
// A node's leases live as long as its heartbeat (a row of `nodes`, renewed every second, dead after
// kLeaseMs); every node looks every second for unfinished games that no live node holds (a node died, or
// gave them up stopping) and takes its share. A node that stored no heartbeat for kLeaseMs (paused, cut off)
// saves each of its rooms once when it beats again: those it lost fail that save and close.
//
// Any node serves any client, as lila-ws does for lila. A command for a room owned elsewhere is forwarded to
// the owner's inbox (a Redis channel per node) with the client's identity; the owner runs it through its own
// protocol for a stand-in connection (Cluster::Remote) whose answers come back to the client's node, and
// acknowledges it once the room settled. The owner publishes each batch of a room's events once on the room's
// channel, which the nodes that have members of the room subscribe to (a Relay each); they hand every event
// to their members in version order, the legal actions to the seat to move, the chat to who may read it. A
// gap in versions, a lost Redis connection or an owner that changed makes the relay join its members again
// with `since` (the owner answers with the missed events or the whole state). Every message about a room
// names the node that sends it, and a relay takes only those of the owner it follows: another node's (one
// that lost the room and has not noticed yet) reach no member, and make the relay find the room again.
//
// A forwarded command has an id; the owner remembers the last ids each room applied, in memory and in the
// store (GameRow::commands), so a command sent again (its owner died before acknowledging it, or answered
// `moved` while handing the room over) is applied once. Draining (SIGTERM): the node answers /api/health
// 503, stops taking rooms, lets every room settle, gives its leases up, tells the rooms' members and the other
// nodes, which take the rooms at once, then closes its connections (their clients come back through the
// balancer).
//
// The lobby: each node publishes its public rooms (on change, at most every kListEveryMs, and every second);
// every node lists the union. Seeks go to one node, the lobby leader (a Redis key held with a TTL), which
// pairs them with its own SeekBook; when the leader changes, every node sends its clients' seeks again.
//
// The server reaches the cluster through RoomBus (server/room_bus.h) only, and the cluster the server through
// cluster::Host (host.h): neither includes the other's parts. Files: node.cpp (the bus and its table of
// messages, the heartbeat, the scan, the lobby, draining), owner.cpp (other nodes' clients standing here),
// relay.cpp (this node's clients in rooms played elsewhere).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "persistence/store.h"
#include "server/cluster/host.h"
#include "server/net/redis.h"
#include "server/net/transport.h"
#include "server/room_bus.h"

namespace cinq::server {

// A bus message: a JSON head, a newline, then the body as it is.
std::string pack(const nlohmann::json& head, std::string_view body);

namespace cluster {
// The steady clock in ms (leases, retries, lists) and the wall clock (the node's start, for operators).
std::int64_t steady_ms();
std::int64_t unix_ms();
}  // namespace cluster

struct ClusterConfig {
  std::string bus;   // redis://HOST:PORT
  std::string node;  // --node NAME
  std::string address;  // where this node listens, for operators (nodes table)
};

class Cluster final : public RoomBus {
 public:
  static constexpr std::int64_t kBeatMs = 1000;   // heartbeat and scan period
  static constexpr std::int64_t kLeaseMs = 4000;  // a node whose heartbeat is older is dead
  static constexpr std::int64_t kForwardTimeoutMs = 3000;  // a forwarded command not acknowledged is sent again
  static constexpr std::int64_t kForwardGiveUpMs = 30000;  // ... until this; then the client is told `storage`
  static constexpr std::int64_t kListEveryMs = 250;

  Cluster(ClusterConfig config, store::Store& store);
  ~Cluster() override;
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  // Wiring (App): the server it runs in. Then start() once the transport exists (the bus runs on it).
  void attach(cluster::Host& host);
  void start(net::Server& net);
  // SIGTERM: hands every room over, then runs `done` (on some thread). Idempotent.
  void drain(std::function<void()> done);
  // Stops the bus and the heartbeat thread (after the transport stopped).
  void stop();
  // After stop(), once nothing runs any more and while the I/O context still exists: the bus's sockets and
  // timers go (they must not outlive the context).
  void release_bus();

  const std::string& node_id() const { return node_id_; }
  const std::string& node_name() const { return config_.node; }
  bool draining() const { return draining_; }
  bool bus_up() const;

  // --- RoomBus
  Claim claim(const std::string& room) override;
  store::Fence new_room_fence() const override;
  void room_gone(const std::string& room, std::int64_t lease) override;
  void publish(const Batch& b) override;
  std::string known_owner(const std::string& room) override;
  void forward(const std::shared_ptr<net::Connection>& c, const lobby::Player& player, const std::string& session,
               const std::string& room, std::string text, const std::string& owner, std::string fid = {},
               bool subscribes = false) override;
  void refuse_moved(const std::shared_ptr<net::Connection>& c, const std::string& fid,
                    const std::string& room) override;
  void applied_again() override { ++counters_.duplicates; }
  bool forward_seek(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                    const std::string& session, const std::string& text, bool unseek) override;
  void closed(std::uint64_t connection) override;
  void log_out_everywhere(const std::string& player_id, std::uint64_t except) override;
  void tournament_changed(const std::string& id) override;
  void to_player(const std::string& player_id, const std::string& text) override;
  void moderation_changed(const std::string& player_id) override;
  void forward_http(const std::string& owner, net::HttpRequest request,
                    std::function<void(net::HttpResponse)> respond) override;
  std::shared_ptr<const std::string> public_list() override;
  std::shared_ptr<const std::string> leader_seeks() override;
  void shared_command(std::vector<std::string> args,
                      std::function<void(std::optional<net::RedisReply>)> done) override;
  bool health(nlohmann::json& body) override;
  std::string metrics_text() override;

  bool leads_lobby();
  struct Counters {
    std::atomic<std::int64_t> forwarded{0}, forwarded_in{0}, retried{0}, moved{0}, duplicates{0}, batches_out{0},
        batches_in{0}, resyncs{0}, rooms_taken{0}, rooms_handed{0}, http_forwarded{0};
  };
  Counters& counters() { return counters_; }
  std::size_t relays();
  std::size_t live_nodes();

 private:
  // A room owned elsewhere with members here: its owner as known, the last version relayed, the members
  // (local connections) and whether they receive its events yet (after their state: `joined`).
  struct Relay {
    std::string owner;
    std::int64_t epoch = 0, version = 0;  // the newest event relayed, and the epoch it counts in
    struct Member {
      std::weak_ptr<net::Connection> connection;
      std::string player_id;
      bool active = false;
      // The newest version handed to it (a state, `events`, a batch), in its epoch.
      std::int64_t epoch = 0, version = 0;
      // What it asks for when it joins again: the events since, or the state if the room counts in
      // another epoch now.
      nlohmann::json join(const std::string& room) const;
    };
    std::map<std::uint64_t, Member> members;
    bool subscribed = false;               // the room's channel is confirmed
    std::vector<std::string> waiting;      // forwarded commands waiting for that
    bool rerouting = false;
    bool lost = false;  // its owner could not be found (the store busy): looked for again every heartbeat
  };
  // A forwarded command until its owner acknowledges it.
  struct Pending {
    std::weak_ptr<net::Connection> connection;
    std::uint64_t connection_id = 0;
    lobby::Player player;
    std::string session;
    std::string room;
    std::string text;
    std::string owner;
    std::int64_t first_ms = 0, sent_ms = 0;
    bool join = false;  // a join sent by rejoin(): sent again, it asks from what the member has by then
    bool subscribes = false;  // a join or a sit: its answer is a state (rejoin() sends no second one)
    bool stalled = false;  // answered `moved`, or its owner died: sent again once the room is found
  };
  class Remote;  // a nested class: it sees the cluster's members as they are

  // The bus: each kind of message ("k" in its head) has its handler (node.cpp, kMessages).
  using Handler = void (Cluster::*)(const nlohmann::json& head, std::string body);
  static const std::unordered_map<std::string_view, Handler>& handlers();
  void on_message(const std::string& channel, std::string payload);
  void on_bus_state(bool up);
  void to_node(const std::string& node, const nlohmann::json& head, std::string_view body = {});
  static std::string inbox(const std::string& node) { return "cinq:node:" + node; }
  static std::string room_channel(const std::string& room) { return "cinq:room:" + room; }

  // The owner side (cluster_owner.cpp)
  void on_command(const nlohmann::json& head, std::string body);
  void on_remote_closed(const nlohmann::json& head, std::string body);
  void on_close(const nlohmann::json& head, std::string body);
  void on_http(const nlohmann::json& head, std::string body);
  std::shared_ptr<Remote> remote_for(const std::string& node, std::uint64_t connection, const std::string& address,
                                     bool create);
  void drop_remotes_of_dead_nodes(const std::set<std::string>& live);

  // The origin side (cluster_relay.cpp)
  void on_send(const nlohmann::json& head, std::string body);
  bool follows(const std::string& room, const std::string& from);
  // Whether an answer to a join (a state, `events`) is to be handed to the member, its events trimmed to those
  // it has not been handed; false if it is behind what the member has, with `ask_again` set to where the
  // member is.
  bool up_to_date(std::uint64_t conn, nlohmann::ordered_json& m, std::string& body,
                  std::optional<lobby::Since>& ask_again);
  void on_joined(const nlohmann::json& head, std::string body);
  void on_left(const nlohmann::json& head, std::string body);
  void on_ack(const nlohmann::json& head, std::string body);
  void on_moved(const nlohmann::json& head, std::string body);
  void on_batch(const nlohmann::json& head, std::string body);
  void on_room_moved(const nlohmann::json& head, std::string body);
  void on_http_reply(const nlohmann::json& head, std::string body);
  void send_pending(const std::string& fid);
  // forward(), and for rejoin() a `join` sent again from what the member has by then.
  void send_to_owner(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                     const std::string& session, const std::string& room, std::string text, const std::string& owner,
                     std::string fid, bool join, bool subscribes);
  // The room's owner changed or died: find it again (take it if nobody holds it) and bring the relay's
  // members and pending commands there.
  void reroute(const std::string& room);
  void rejoin(const std::string& room);  // every member again, with since
  void check_pending(std::int64_t now_ms);

  // The node (cluster.cpp)
  void heartbeat_loop();
  void beat();
  void scan();
  void publish_lobby(bool force);
  void on_lobby(const nlohmann::json& head, std::string body);
  void on_scan(const nlohmann::json& head, std::string body);
  void on_logout(const nlohmann::json& head, std::string body);
  void on_tournament(const nlohmann::json& head, std::string body);
  void on_to_player(const nlohmann::json& head, std::string body);
  void on_moderation(const nlohmann::json& head, std::string body);
  void elect();

  ClusterConfig config_;
  store::Store& store_;
  cluster::Host* host_ = nullptr;
  std::string node_id_;
  std::int64_t started_ms_ = 0;
  std::int64_t last_beat_ms_ = 0;  // when the last stored heartbeat was sent (steady; the heartbeat's thread)
  // Until then (steady ms) the store's word on which nodes live is not taken: this node could not store its
  // heartbeat for a lease (the store was stopped or paused, or this node was), so neither could the others,
  // and they all look dead until each has beaten again. Meanwhile no node is judged dead: none of its
  // clients dropped, none of its rooms taken (claim() answers busy).
  std::atomic<std::int64_t> judge_from_ms_{0};
  bool judging() const { return cluster::steady_ms() >= judge_from_ms_.load(); }
  std::unique_ptr<net::Redis> redis_;

  std::mutex mutex_;
  std::set<std::string> live_;  // live node ids, as of the last heartbeat
  std::unordered_map<std::string, std::shared_ptr<Relay>> relays_;  // by room
  std::unordered_map<std::string, std::shared_ptr<Pending>> pending_;  // by fid
  std::unordered_map<std::uint64_t, std::set<std::string>> sent_to_;  // local connection -> nodes
  std::unordered_map<std::uint64_t, std::string> seeks_;  // local connection -> its seek message
  std::unordered_map<std::string, std::shared_ptr<Remote>> remotes_;  // "node/connection" -> stand-in
  struct HttpWaiting {
    std::function<void(net::HttpResponse)> respond;
    std::int64_t since_ms = 0;
  };
  std::unordered_map<std::string, HttpWaiting> http_waiting_;
  std::uint64_t next_id_ = 0;

  // The lobby
  struct NodeList {
    std::int64_t at_ms = 0;
    std::vector<nlohmann::json> rooms;
    std::shared_ptr<const std::string> seeks;
  };
  std::map<std::string, NodeList> lists_;  // by node id (not this one)
  std::shared_ptr<const std::string> merged_;
  std::int64_t merged_at_ms_ = 0;
  std::shared_ptr<const std::string> published_;
  std::int64_t published_at_ms_ = 0;
  std::string leader_;

  std::atomic<bool> draining_{false};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool scan_now_ = false;
  Counters counters_;
};

}  // namespace cinq::server
