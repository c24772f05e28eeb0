#include "server/cluster_host.h"

#include "server/commands/moderation.h"
#include "server/http_api.h"
#include "server/metrics.h"
#include "server/protocol.h"
#include "server/room_actor.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/tournaments.h"
#include "server/workers.h"

namespace cinq::server {

std::shared_ptr<net::Connection> ClusterHost::connection_of(std::uint64_t connection) {
  return protocol_.connection_of(connection);
}

std::optional<lobby::Player> ClusterHost::player_of(std::uint64_t connection) {
  return protocol_.player_of(connection);
}

std::string ClusterHost::session_of(std::uint64_t connection) { return protocol_.session_of(connection); }

void ClusterHost::feed_again(std::uint64_t connection, std::string text, std::string fid) {
  protocol_.feed_again(connection, std::move(text), std::move(fid));
}

void ClusterHost::open_remote(const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                              const std::string& session) {
  protocol_.open_remote(c, player, session);
}

void ClusterHost::feed_remote(const std::shared_ptr<net::Connection>& c, std::string text, std::string fid) {
  protocol_.feed(c, std::move(text), std::move(fid));
}

void ClusterHost::close_remote(const std::shared_ptr<net::Connection>& c) { protocol_.on_close(c); }

void ClusterHost::log_out(const std::string& player_id) { protocol_.log_out_others(player_id, 0); }

void ClusterHost::to_player(const std::string& player_id, const std::string& text) {
  protocol_.to_player(player_id, text);
}

void ClusterHost::tournament_changed(const std::string& id) { protocol_.tournaments().changed_elsewhere(id); }

void ClusterHost::moderation_changed(const std::string& player_id) {
  // The store is read on a worker; none free: the next poll (ModerationDesk::poll) reads it.
  workers_.submit(Workers::Kind::quick, [this, player_id] {
    note_blocking(services_.metrics);
    commands::moderation_changed_elsewhere(protocol_.commands(), player_id);
  });
}

std::string ClusterHost::seeks_json() { return protocol_.seeks_json(); }

void ClusterHost::load_room(const std::string& room, std::function<void(Found)> done) {
  rooms_.load(room, [done = std::move(done)](RoomDirectory::Lookup found) {
    done(Found{found.room != nullptr, found.busy, found.owner, found.moved});
  });
}

bool ClusterHost::holds(const std::string& room) { return rooms_.find(room) != nullptr; }

std::shared_ptr<const std::string> ClusterHost::public_list() { return rooms_.public_list(); }

void ClusterHost::save_each_room() {
  for (auto& actor : rooms_.all())
    actor->post([](RoomActor& a) {
      if (a.room().status() == lobby::Status::finished)
        a.reload_if_finished();
      else
        a.save_then([] {});
    });
}

std::vector<std::string> ClusterHost::hand_over_rooms(std::function<void()> each) {
  protocol_.tournaments().hand_over();  // the tournaments first: the other nodes run them from now on
  std::vector<std::string> ids;
  for (auto& actor : rooms_.all()) {
    ids.push_back(actor->id());
    actor->post([this, each](RoomActor& a) {
      auto hand_over = [this, &a, each] {
        services_.forget_room(a.id());  // its lease goes, its relays look again (RoomBus::room_gone)
        each();
      };
      a.when_settled(hand_over, hand_over);
    });
  }
  return ids;
}

bool ClusterHost::run_quick(std::function<void()> job) {
  return workers_.submit(Workers::Kind::quick, std::move(job));
}

void ClusterHost::handle_http(net::HttpRequest request, std::function<void(net::HttpResponse)> respond) {
  http_.handle(std::move(request), std::move(respond));
}

}  // namespace cinq::server
