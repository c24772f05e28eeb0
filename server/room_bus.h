// What a node's rooms, room actors, commands and HTTP API need from the other nodes of a cluster
// (docs/scaling.md), and nothing more. A single node has none (Services::bus is nullptr) and never goes
// through it; server/cluster/ is the implementation, over Redis and the store's leases.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lobby/room.h"
#include "persistence/store.h"
#include "server/net/redis.h"
#include "server/net/transport.h"

namespace cinq::server {

class RoomBus {
 public:
  virtual ~RoomBus() = default;

  // --- the rooms this node plays
  // Whose a room is, asked before loading it (it calls the store: never on a network thread): this node's
  // from now on, under `fence`; another live node's (`owner`); or not known now.
  struct Claim {
    std::optional<store::Fence> fence;
    std::string owner;
    bool busy = false;   // the store did not answer: ask again
    bool moved = false;  // this node is handing its rooms over: the room goes elsewhere
  };
  virtual Claim claim(const std::string& room) = 0;
  // The lease of a room this node makes (taken by its first save).
  virtual store::Fence new_room_fence() const = 0;
  // The room left this node (forgotten, handed over, broken): its lease goes, its members look elsewhere.
  virtual void room_gone(const std::string& room, std::int64_t lease) = 0;
  // A room's events as sent to the local members (RoomActor::send_batch), for the other nodes' members.
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
  virtual void publish(const Batch& b) = 0;

  // --- local clients' messages about rooms played elsewhere
  // The node that plays `room` as far as this node knows (a room it relays), "" if unknown.
  virtual std::string known_owner(const std::string& room) = 0;
  // Sends a client's message (its JSON text) about `room` to `owner`, once, whatever happens to either.
  // `fid` "" makes a new id; `subscribes`: a join or a sit (its answer is a state).
  virtual void forward(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                       const std::string& session, const std::string& room, std::string text,
                       const std::string& owner, std::string fid = {}, bool subscribes = false) = 0;
  // A forwarded command for a room this node no longer plays: not applied; its sender finds the room and
  // sends it again.
  virtual void refuse_moved(const std::shared_ptr<net::Connection>& c, const std::string& fid,
                            const std::string& room) = 0;
  // A forwarded command the room had applied already was acknowledged again (counted).
  virtual void applied_again() = 0;
  // A seek or unseek to the lobby's leader. False: this node leads; the caller handles it itself.
  virtual bool forward_seek(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                            const std::string& session, const std::string& text, bool unseek) = 0;
  // A local connection closed: the nodes it sent commands to forget it.
  virtual void closed(std::uint64_t connection) = 0;
  // Logging out everywhere reaches the account's connections on every node.
  virtual void log_out_everywhere(const std::string& player_id, std::uint64_t except) = 0;
  // An HTTP request about a room `owner` plays: answered by that node.
  virtual void forward_http(const std::string& owner, net::HttpRequest request,
                            std::function<void(net::HttpResponse)> respond) = 0;

  // --- tournaments (server/tournaments.h): one node runs each, under its lease (store::tournament_lease,
  // with the rooms' leases: new_room_fence().node names this node); any node takes their commands and
  // stores them under the row's version.
  // Every other node hears that a tournament was stored anew: its watchers there are sent it.
  virtual void tournament_changed(const std::string& id) = 0;
  // A message for a player's connections on every other node (a paired player's `tournament_game`).
  virtual void to_player(const std::string& player_id, const std::string& text) = 0;

  // --- moderation (server/moderation_desk.h): a ban, mute, block, role or name of the player changed in the
  // store; every other node reads its moderation state again (a missed message: ModerationDesk::poll).
  virtual void moderation_changed(const std::string& player_id) = 0;

  // --- the lobby
  // The public rooms of every node, newest first (JSON array text).
  virtual std::shared_ptr<const std::string> public_list() = 0;
  // The seeks as the leader lists them (JSON array text) when another node leads; nullptr when this one does.
  virtual std::shared_ptr<const std::string> leader_seeks() = 0;

  // --- limits the nodes share (docs/scaling.md, "Limits"): a command to the bus's Redis, answered on an I/O
  // thread (nullopt at once while Redis is away: the caller then counts alone).
  virtual void shared_command(std::vector<std::string> args, std::function<void(std::optional<net::RedisReply>)> done) = 0;

  // --- operators
  // /api/health's members for the node (name, id, bus, live nodes); false while it hands its rooms over.
  virtual bool health(nlohmann::json& body) = 0;
  // The cinq_cluster_* lines of /metrics.
  virtual std::string metrics_text() = 0;
};

}  // namespace cinq::server
