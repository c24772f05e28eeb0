// The server as a cluster node sees it (server/cluster/host.h): its protocol, rooms, workers and HTTP API
// behind the one interface the cluster knows. Wiring only: App makes one when the node joins a cluster.
#pragma once

#include "server/cluster/host.h"

namespace cinq::server {

struct Services;
class Protocol;
class RoomDirectory;
class Workers;
class HttpApi;

class ClusterHost final : public cluster::Host {
 public:
  ClusterHost(Services& services, Protocol& protocol, RoomDirectory& rooms, Workers& workers, HttpApi& http)
      : services_(services), protocol_(protocol), rooms_(rooms), workers_(workers), http_(http) {}

  std::shared_ptr<net::Connection> connection_of(std::uint64_t connection) override;
  std::optional<lobby::Player> player_of(std::uint64_t connection) override;
  std::string session_of(std::uint64_t connection) override;
  void feed_again(std::uint64_t connection, std::string text, std::string fid) override;
  void open_remote(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                   const std::string& session) override;
  void feed_remote(const std::shared_ptr<net::Connection>& c, std::string text, std::string fid) override;
  void close_remote(const std::shared_ptr<net::Connection>& c) override;
  void log_out(const std::string& player_id) override;
  void to_player(const std::string& player_id, const std::string& text) override;
  void tournament_changed(const std::string& id) override;
  void moderation_changed(const std::string& player_id) override;
  std::string seeks_json() override;

  void load_room(const std::string& room, std::function<void(Found)> done) override;
  bool holds(const std::string& room) override;
  std::shared_ptr<const std::string> public_list() override;
  void save_each_room() override;
  std::vector<std::string> hand_over_rooms(std::function<void()> each) override;

  bool run_quick(std::function<void()> job) override;
  void handle_http(net::HttpRequest request, std::function<void(net::HttpResponse)> respond) override;

 private:
  Services& services_;
  Protocol& protocol_;
  RoomDirectory& rooms_;
  Workers& workers_;
  HttpApi& http_;
};

}  // namespace cinq::server
