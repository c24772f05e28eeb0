// The application behind the transport, as wiring only: it builds the parts and hands the transport's
// callbacks (net::Handler) to them.
//   - the worker pool (workers.h): store reads and whole-record replays, never on a network thread;
//   - the room directory (rooms.h): rooms in memory, loaded from the store, the public list, new ids;
//   - identities (identity.h): guest players and their tokens;
//   - the WebSocket protocol (protocol.h, commands/): admission, order per connection, the commands;
//   - the HTTP API (http_api.h): the route table of /api/* and /metrics.
// Rooms themselves live in RoomActor, one strand each.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "server/bot_runner.h"
#include "server/cluster/cluster.h"
#include "server/cluster_host.h"
#include "server/postman.h"
#include "server/protocol.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::net {
class LmtpServer;
}

namespace cinq::server {

class RoomDirectory;
class Identities;
class HttpApi;
class MailSender;
class SharedLimits;

class App : public net::Handler {
 public:
  // `mail`: correspondence by e-mail (docs/mail.md), off unless it names an SMTP server.
  App(store::Store& store, store::Worker& writer, Limits limits = {}, BotConfig bots = {},
      WorkerConfig workers = {}, RoomLimits room_limits = {}, MailConfig mail = {});
  // Several nodes (server/cluster/cluster.h): this node joins the cluster named by `cluster` (call before attach()).
  void join_cluster(ClusterConfig cluster);
  Cluster* cluster() { return cluster_.get(); }
  ~App() override;

  // Binds the app to its transport, then reopens every unfinished game from the store; returns how many.
  // With mail, also starts the outbox's sender and, with MailConfig::lmtp_port, the LMTP listener.
  int attach(net::Server& server);
  // The LMTP listener's port (0: none).
  int lmtp_port() const;
  // Takes no more mail over LMTP: called when a signal stops the server, before the transport stops.
  void stop_lmtp();
  Services& services() { return services_; }
  // Stops the bot threads (a bot thinking is cancelled) and the workers (jobs not started are dropped), then
  // drops every room and connection record: call after the transport stopped, before it is destroyed.
  void shutdown();
  // Drops every room from memory (the store keeps them): the fuzz harness (fuzz/harness.h) between inputs.
  void drop_rooms();

  void on_open(const std::shared_ptr<net::Connection>& c) override;
  void on_message(const std::shared_ptr<net::Connection>& c, std::string text) override;
  void on_close(const std::shared_ptr<net::Connection>& c) override;
  void on_http(net::HttpRequest request, std::function<void(net::HttpResponse)> respond) override;
  // A node handing its rooms over takes no new WebSocket connection (the balancer tries another node).
  bool accepting() const override { return !cluster_ || !cluster_->draining(); }
  // The per-address limits a cluster's nodes count together (shared_limits.h): the transport's figures
  // (call before attach()), and its questions.
  void set_transport_limits(const net::ServerConfig& config);
  // How long a commit waits for more saves to share it (store::Saver::set_wait; `--commit-wait-us`).
  void set_commit_wait(std::chrono::microseconds wait);
  bool admit_request(const std::string& address) override;
  bool admit_connection(const std::string& address) override;

 private:
  Services services_;
  std::unique_ptr<store::Saver> saver_;
  BotConfig bot_config_;
  std::unique_ptr<BotRunner> bot_runner_;  // after services_: its threads are joined before the metrics go
  std::unique_ptr<Analyst> analyst_;
  std::unique_ptr<Workers> workers_;
  std::unique_ptr<SharedLimits> shared_limits_;  // before the rooms: their claims tell it of changes
  std::unique_ptr<RoomDirectory> rooms_;
  std::unique_ptr<Identities> identities_;
  std::unique_ptr<Protocol> protocol_;
  std::unique_ptr<HttpApi> http_;
  std::unique_ptr<ClusterHost> cluster_host_;
  std::unique_ptr<Cluster> cluster_;
  void start_mail(net::Server& server);
  std::unique_ptr<Postman> postman_;
  std::unique_ptr<MailSender> mail_sender_;
  std::unique_ptr<net::LmtpServer> lmtp_;
};

}  // namespace cinq::server
