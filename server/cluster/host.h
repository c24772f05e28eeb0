// What a cluster node needs of the server it runs in: its clients' connections and the protocol they speak,
// its rooms, a worker for calls to the store, its HTTP API. The cluster sees the server through this only;
// App implements it (server/cluster_host.cpp) over Protocol, RoomDirectory, Workers and HttpApi.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lobby/room.h"
#include "server/net/transport.h"

namespace cinq::server::cluster {

class Host {
 public:
  virtual ~Host() = default;

  // --- connections (local ones, and stand-ins for other nodes' clients)
  virtual std::shared_ptr<net::Connection> connection_of(std::uint64_t connection) = 0;
  virtual std::optional<lobby::Player> player_of(std::uint64_t connection) = 0;
  virtual std::string session_of(std::uint64_t connection) = 0;
  // A local connection's message again (its room came to this node while it was forwarded): handled after
  // its waiting messages; `fid` lets the room recognise it if it applied it already.
  virtual void feed_again(std::uint64_t connection, std::string text, std::string fid) = 0;
  // Another node's client, standing here as `c`: known as `player` already, its messages admitted there.
  virtual void open_remote(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                           const std::string& session) = 0;
  virtual void feed_remote(const std::shared_ptr<net::Connection>& c, std::string text, std::string fid) = 0;
  virtual void close_remote(const std::shared_ptr<net::Connection>& c) = 0;
  // Every local connection of the player is logged out (told `logged_out`).
  virtual void log_out(const std::string& player_id) = 0;
  // A message for each of the player's local connections (not other nodes' clients standing here).
  virtual void to_player(const std::string& player_id, const std::string& text) = 0;
  // Another node stored a tournament anew: this node's watchers of it are sent it.
  virtual void tournament_changed(const std::string& id) = 0;
  // Another node changed the player's moderation state (a ban, a mute, a block, a role, a name reset): this
  // node reads it again from the store.
  virtual void moderation_changed(const std::string& player_id) = 0;
  // The seeks of this node's book as the lobby lists them (JSON array text).
  virtual std::string seeks_json() = 0;

  // --- rooms
  struct Found {
    bool here = false;   // the room is played here (now)
    bool busy = false;   // the store could not be read: try again
    std::string owner;   // another live node plays it
    bool moved = false;  // this node is handing its rooms over
  };
  // Finds a room: here, or loaded from the store if nobody else holds it (the cluster's claim decides).
  virtual void load_room(const std::string& room, std::function<void(Found)> done) = 0;
  virtual bool holds(const std::string& room) = 0;
  // This node's public rooms (JSON array text); the same pointer while they have not changed.
  virtual std::shared_ptr<const std::string> public_list() = 0;
  // Every unfinished room saves once, under its lease (a room lost meanwhile fails and closes).
  virtual void save_each_room() = 0;
  // Every room, once settled, leaves this node (its lease goes: RoomBus::room_gone); `each` runs once per
  // room as it goes. Returns the rooms' ids.
  virtual std::vector<std::string> hand_over_rooms(std::function<void()> each) = 0;

  // --- the rest
  // Runs a short job off the network threads (a worker); false if none could take it.
  virtual bool run_quick(std::function<void()> job) = 0;
  virtual void handle_http(net::HttpRequest request, std::function<void(net::HttpResponse)> respond) = 0;
};

}  // namespace cinq::server::cluster
