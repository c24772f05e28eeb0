#include "server/app.h"

#include "server/http_api.h"
#include "server/identity.h"
#include "server/room_actor.h"
#include "server/rooms.h"

namespace cinq::server {

App::App(store::Store& store, store::Worker& writer, Limits limits, BotConfig bots, WorkerConfig workers,
         RoomLimits room_limits)
    : bot_config_(bots) {
  services_.limits = room_limits;
  services_.store = &store;
  services_.writer = &writer;
  saver_ = std::make_unique<store::Saver>(store, writer, [this](std::size_t rows, double seconds) {
    services_.metrics.commit_latency.observe(seconds);
    ++services_.metrics.commits;
    services_.metrics.rows_committed += static_cast<std::int64_t>(rows);
  });
  services_.saver = saver_.get();
  bot_runner_ = std::make_unique<BotRunner>(bot_config_.threads, services_.metrics, bot_config_.max_queue);
  services_.bots = bot_runner_.get();
  services_.bot_config = &bot_config_;
  workers_ = std::make_unique<Workers>(workers);
  rooms_ = std::make_unique<RoomDirectory>(services_, *workers_);
  identities_ = std::make_unique<Identities>(services_, *workers_);
  protocol_ = std::make_unique<Protocol>(services_, *rooms_, *identities_, *workers_, limits);
  http_ = std::make_unique<HttpApi>(services_, *rooms_, *workers_,
                                    HttpApi::Extra{[this] { return protocol_->seeks_waiting(); }});
  services_.open_rematch = [this](const std::shared_ptr<RoomActor>& old) { rooms_->open_rematch(old); };
  services_.forget_room = [this](const std::string& id) { rooms_->forget(id); };
  services_.read_later = [this](std::function<void()> job) {
    return workers_->submit(Workers::Kind::quick, std::move(job));
  };
}

App::~App() {
  // Nothing may run on another thread while the parts go: the same steps as shutdown(), if it was not called.
  if (cluster_) cluster_->stop();
  bot_runner_->stop();
  protocol_->shutdown();
  workers_->stop();
}

void App::join_cluster(ClusterConfig config) {
  cluster_ = std::make_unique<Cluster>(services_, std::move(config));
  services_.cluster = cluster_.get();
  cluster_->attach(*protocol_, *rooms_, *workers_, *http_);
}

int App::attach(net::Server& server) {
  services_.net = &server;
  if (cluster_) cluster_->start();
  return rooms_->reopen_unfinished();
}

void App::shutdown() {
  if (cluster_) cluster_->stop();
  // First the bots: a bot still thinking would post its turn to a room that is going. Then no message is
  // handled any more, and the workers end (a job not started is dropped) before the rooms go.
  bot_runner_->stop();
  protocol_->shutdown();
  workers_->stop();
  rooms_->clear();
  if (cluster_) cluster_->release_bus();
}

void App::drop_rooms() { rooms_->clear(); }

void App::on_open(const std::shared_ptr<net::Connection>& c) { protocol_->on_open(c); }

void App::on_message(const std::shared_ptr<net::Connection>& c, std::string text) {
  protocol_->on_message(c, std::move(text));
}

void App::on_close(const std::shared_ptr<net::Connection>& c) { protocol_->on_close(c); }

void App::on_http(net::HttpRequest request, std::function<void(net::HttpResponse)> respond) {
  http_->handle(std::move(request), std::move(respond));
}

}  // namespace cinq::server
