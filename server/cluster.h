// Several nodes behind a load balancer (issue 21; docs/scaling.md). Each `cinq serve --bus redis://...
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
// protocol for a stand-in connection (RemoteConnection) whose answers come back to the client's node, and
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
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <string_view>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "lobby/room.h"
#include "persistence/store.h"
#include "server/net/redis.h"
#include "server/net/transport.h"

namespace cinq::server {

struct Services;
class RoomDirectory;
class RoomActor;
class Protocol;
class Workers;
class HttpApi;

// A bus message: a JSON head, a newline, then the body as it is.
std::string pack(const nlohmann::json& head, std::string_view body);

struct ClusterConfig {
  std::string bus;   // redis://HOST:PORT
  std::string node;  // --node NAME
  std::string address;  // where this node listens, for operators (nodes table)
};

class Cluster {
 public:
  static constexpr std::int64_t kBeatMs = 1000;   // heartbeat and scan period
  static constexpr std::int64_t kLeaseMs = 4000;  // a node whose heartbeat is older is dead
  static constexpr std::int64_t kForwardTimeoutMs = 3000;  // a forwarded command not acknowledged is sent again
  static constexpr std::int64_t kForwardGiveUpMs = 30000;  // ... until this; then the client is told `storage`
  static constexpr std::int64_t kListEveryMs = 250;

  Cluster(Services& services, ClusterConfig config);
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  // Wiring (App): the parts it talks to. Then start() once the transport exists.
  void attach(Protocol& protocol, RoomDirectory& rooms, Workers& workers, HttpApi& http);
  void start();
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

  // --- the origin side: a local client's message for a room owned elsewhere
  // The node that owns `room` as far as this node knows (a room it relays), "" if unknown.
  std::string known_owner(const std::string& room);
  // Forwards a client's message (its JSON text) about `room` to `owner`. `fid` "" makes a new id.
  void forward(const std::shared_ptr<net::Connection>& c, const lobby::Player& player, const std::string& session,
               const std::string& room, std::string text, const std::string& owner, std::string fid = {},
               bool join = false, bool subscribes = false);
  // A seek or unseek of a local client: to the lobby leader (perhaps this node). False: this node leads, the
  // caller handles it itself.
  bool forward_seek(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                    const std::string& session, const std::string& text, bool unseek);
  // A local connection closed: the nodes it sent commands to forget it.
  void closed(std::uint64_t connection);
  // The owner side: a forwarded command for a room this node does not own (any more): not applied; the
  // sending node finds the room and sends it again.
  void refuse_moved(const std::shared_ptr<net::Connection>& c, const std::string& fid, const std::string& room);
  // An HTTP request about a room owned by `owner`: answered by that node.
  void forward_http(const std::string& owner, net::HttpRequest request, std::function<void(net::HttpResponse)> respond);
  // logout_all reaches the account's connections on every node.
  void log_out_everywhere(const std::string& player_id, std::uint64_t except);

  // --- the owner side
  // A room's events as sent (RoomActor::send_batch), for the other nodes' members, published once.
  struct Batch {
    std::string room;
    std::int64_t epoch = 0;                             // the room's (lobby::Room::epoch)
    std::int64_t first_version = 0, last_version = 0;  // of the events (0, 0: none)
    std::array<std::string, 2> seats;
    int mover = -1;
    std::size_t patched = lobby::Effect::npos;
    std::vector<lobby::Message> events;
    std::string mine;  // events[patched] with the legal actions, for the mover's connections
    std::vector<std::pair<bool, lobby::Message>> chat;  // (spectators only, message)
  };
  void publish_batch(const Batch& b);
  // The room leaves this node (forgotten, handed over, broken): its lease goes, its members look for it
  // elsewhere.
  void room_gone(const std::string& room, std::int64_t lease, bool broken);
  // The lease for a room this node makes or loads (store.h, Fence); nullopt: single node.
  std::optional<store::Fence> new_room_fence() const;

  // --- the lobby
  // The public rooms of every node, newest first (JSON array text).
  std::shared_ptr<const std::string> public_list();
  // The seeks as the leader lists them (JSON array text), when another node leads; nullptr when this one does.
  std::shared_ptr<const std::string> leader_seeks();
  bool leads_lobby();

  struct Counters {
    std::atomic<std::int64_t> forwarded{0}, forwarded_in{0}, retried{0}, moved{0}, duplicates{0}, batches_out{0},
        batches_in{0}, resyncs{0}, rooms_taken{0}, rooms_handed{0}, http_forwarded{0};
  };
  Counters& counters() { return counters_; }
  std::size_t relays();
  std::size_t live_nodes();
  std::string metrics_text();

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
  class Remote;
  friend class Remote;

  // The bus
  void on_message(const std::string& channel, std::string payload);
  void on_bus_state(bool up);
  void to_node(const std::string& node, const nlohmann::json& head, std::string_view body = {});
  static std::string inbox(const std::string& node) { return "cinq:node:" + node; }
  static std::string room_channel(const std::string& room) { return "cinq:room:" + room; }

  // The owner side (cluster_owner.cpp)
  void on_command(const nlohmann::json& head, std::string body);
  void on_remote_closed(const std::string& node, std::uint64_t connection);
  void on_http(const nlohmann::json& head, std::string body);
  std::shared_ptr<Remote> remote_for(const std::string& node, std::uint64_t connection, const std::string& address,
                                     bool create);
  void drop_remotes_of_dead_nodes(const std::set<std::string>& live);

  // The origin side (cluster_relay.cpp)
  void on_send(const nlohmann::json& head, std::string body);
  bool follows(const std::string& room, const std::string& from);
  bool up_to_date(std::uint64_t conn, nlohmann::ordered_json& m, std::string& body);
  void on_joined(const nlohmann::json& head);
  void on_left(const nlohmann::json& head);
  void on_ack(const nlohmann::json& head);
  void on_moved(const nlohmann::json& head);
  void on_batch(const nlohmann::json& head, std::string body);
  void on_room_moved(const std::string& room);
  void on_http_reply(const nlohmann::json& head, std::string body);
  void send_pending(const std::string& fid);
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
  void elect();

  Services& services_;
  ClusterConfig config_;
  std::string node_id_;
  std::int64_t started_ms_ = 0;
  std::int64_t last_beat_ms_ = 0;  // when the last stored heartbeat was sent (steady; the heartbeat's thread)
  Protocol* protocol_ = nullptr;
  RoomDirectory* rooms_ = nullptr;
  Workers* workers_ = nullptr;
  HttpApi* http_ = nullptr;
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
