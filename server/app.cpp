#include "server/app.h"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "server/http_api.h"
#include "server/mail_sender.h"
#include "server/net/lmtp.h"
#include "server/identity.h"
#include "server/room_actor.h"
#include "server/rooms.h"
#include "server/metrics.h"
#include "server/shared_limits.h"
#include "server/workers.h"
#include "mail/address.h"
#include "mail/compose.h"

namespace cinq::server {

App::App(store::Store& store, store::Worker& writer, Limits limits, BotConfig bots, WorkerConfig workers,
         RoomLimits room_limits, MailConfig mail)
    : bot_config_(bots) {
  if (mail.enabled()) {
    postman_ = std::make_unique<Postman>(std::move(mail));
    services_.postman = postman_.get();
  }
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
  analyst_ = std::make_unique<Analyst>(bot_config_.analysis, store, services_.metrics);
  services_.analyst = analyst_.get();
  workers_ = std::make_unique<Workers>(workers);
  shared_limits_ = std::make_unique<SharedLimits>(
      services_, SharedLimits::Config{limits.address_rate, limits.address_burst, 0, 0, 0});
  services_.shared_limits = shared_limits_.get();
  rooms_ = std::make_unique<RoomDirectory>(services_, *workers_);
  identities_ = std::make_unique<Identities>(services_, *workers_);
  protocol_ = std::make_unique<Protocol>(services_, *rooms_, *identities_, *workers_, limits);
  http_ = std::make_unique<HttpApi>(services_, *rooms_, *workers_,
                                    HttpApi::Extra{[this] { return protocol_->seeks_waiting(); },
                                                   &protocol_->tournaments(), &protocol_->commands()});
  services_.open_rematch = [this](const std::shared_ptr<RoomActor>& old) { rooms_->open_rematch(old); };
  services_.forget_room = [this](const std::string& id) { rooms_->forget(id); };
  services_.room_over = [this](const std::string& id, const lobby::Room& room) {
    protocol_->tournaments().room_over(id, room);
  };
  if (postman_)
    services_.adopt_account_mail = [this](std::shared_ptr<RoomActor> actor, int seat) {
      http_->adopt_account_mail(std::move(actor), seat, [](bool) {});
    };
  services_.read_later = [this](std::function<void()> job) {
    return workers_->submit(Workers::Kind::quick, std::move(job));
  };
}

App::~App() {
  // Nothing may run on another thread while the parts go: the same steps as shutdown(), if it was not called.
  lmtp_.reset();
  services_.mail_sender = nullptr;
  mail_sender_.reset();
  shared_limits_->stop();
  if (cluster_) cluster_->stop();
  bot_runner_->stop();
  analyst_->stop();
  protocol_->shutdown();
  workers_->stop();
}

void App::join_cluster(ClusterConfig config) {
  cluster_host_ = std::make_unique<ClusterHost>(services_, *protocol_, *rooms_, *workers_, *http_);
  cluster_ = std::make_unique<Cluster>(std::move(config), *services_.store);
  cluster_->attach(*cluster_host_);
  services_.bus = cluster_.get();
}

int App::attach(net::Server& server) {
  services_.net = &server;
  if (cluster_) {
    cluster_->start(server);
    // Before any room is loaded: every room's claims are shared.
    shared_limits_->start(server, *cluster_, cluster_->node_id());
  }
  if (postman_) start_mail(server);
  if (std::string error; !protocol_->moderation().load(*services_.store, error))
    spdlog::error("moderation: the bans, mutes and blocks could not be read: {}", error);
  // Read again when the audit log grows (another node's change whose message was lost, `cinq admin`).
  protocol_->moderation().start(server, *services_.store, [this](std::function<void()> job) {
    return workers_->submit(Workers::Kind::quick, [this, job = std::move(job)] {
      note_blocking(services_.metrics);
      job();
    });
  });
  const int reopened = rooms_->reopen_unfinished();
  // Tournaments after their rooms: a pending game whose room reopened is attached, one whose room is gone is
  // made again, a finished one counts.
  if (const int n = protocol_->tournaments().load()) spdlog::info("tournaments: {} unfinished loaded", n);
  protocol_->tournaments().start(server);
  return reopened;
}

int App::lmtp_port() const { return lmtp_ ? lmtp_->port() : 0; }

void App::stop_lmtp() {
  if (lmtp_) lmtp_->stop();
}

namespace {

// An MTA's status line ("550 5.1.1 no such seat") as an LMTP reply.
net::LmtpReply lmtp_reply(const std::string& smtp) {
  net::LmtpReply r;
  r.code = std::atoi(smtp.c_str());
  if (r.code < 200 || r.code > 599) r.code = 451;
  r.text = smtp.size() > 4 ? smtp.substr(4) : "4.3.0 try again later";
  return r;
}

}  // namespace

void App::start_mail(net::Server& server) {
  const MailConfig& config = postman_->config();
  mail_sender_ = std::make_unique<MailSender>(*services_.store, config, services_.metrics,
                                              cluster_ ? cluster_->node_id() : "cinq");
  services_.mail_sender = mail_sender_.get();
  if (config.lmtp_port < 0) return;
  net::LmtpConfig lmtp;
  lmtp.address = config.lmtp_address;
  lmtp.port = static_cast<std::uint16_t>(config.lmtp_port);
  lmtp.max_message = config.max_message;
  // Each message goes through the HTTP API's own route (POST /api/mail/in), so that it is played where its
  // room is, whichever node the MTA reached.
  auto check = [postman = postman_.get()](const std::string& rcpt) {
    const MailConfig& c = postman->config();
    if (mail::parse_seat_address(rcpt, c.prefix, c.domain)) return net::LmtpReply{250, "2.1.5 ok"};
    if (mail::same_address(rcpt, c.from)) return net::LmtpReply{250, "2.1.5 ok (bounces)"};
    return net::LmtpReply{550, "5.1.1 no game seat has this address"};
  };
  auto deliver = [this](net::LmtpMessage message, std::function<void(std::vector<net::LmtpReply>)> done) {
    auto replies = std::make_shared<std::vector<net::LmtpReply>>(message.recipients.size());
    auto left = std::make_shared<std::atomic<std::size_t>>(message.recipients.size());
    auto body = std::make_shared<const std::string>(std::move(message.data));
    for (std::size_t i = 0; i < message.recipients.size(); ++i) {
      net::HttpRequest request;
      request.method = "POST";
      request.target = "/api/mail/in?recipient=" + message.recipients[i];
      request.body = *body;
      request.content_type = "message/rfc822";
      request.address = message.peer;
      http_->handle(std::move(request), [replies, left, done, i](net::HttpResponse r) {
        std::string smtp = "451 4.3.0 try again later";
        auto answer = nlohmann::json::parse(r.body, nullptr, false);
        if (answer.is_object() && answer.contains("smtp") && answer["smtp"].is_string()) smtp = answer["smtp"];
        (*replies)[i] = lmtp_reply(smtp);
        if (--*left == 0) done(std::move(*replies));
      });
    }
  };
  lmtp_ = std::make_unique<net::LmtpServer>(server, lmtp, check, deliver);
  spdlog::info("mail: LMTP on {}:{}", config.lmtp_address, lmtp_->port());
}

void App::shutdown() {
  lmtp_.reset();  // before the transport it runs on
  services_.mail_sender = nullptr;
  mail_sender_.reset();
  shared_limits_->stop();
  if (cluster_) cluster_->stop();
  // First the bots: a bot still thinking would post its turn to a room that is going. Then no message is
  // handled any more, and the workers end (a job not started is dropped) before the rooms go.
  bot_runner_->stop();
  analyst_->stop();
  protocol_->shutdown();
  workers_->stop();
  rooms_->clear();
  if (cluster_) cluster_->release_bus();
}

void App::drop_rooms() { rooms_->clear(); }

void App::on_open(const std::shared_ptr<net::Connection>& c) {
  shared_limits_->connection_opened(c->address());
  protocol_->on_open(c);
}

void App::on_message(const std::shared_ptr<net::Connection>& c, std::string text) {
  protocol_->on_message(c, std::move(text));
}

void App::on_close(const std::shared_ptr<net::Connection>& c) {
  shared_limits_->connection_closed(c->address());
  protocol_->on_close(c);
}

void App::set_commit_wait(std::chrono::microseconds wait) { saver_->set_wait(wait); }

void App::set_transport_limits(const net::ServerConfig& config) {
  shared_limits_->set_transport_limits(config.http_rate, config.http_burst, config.max_connections_per_address);
}

bool App::admit_request(const std::string& address) { return shared_limits_->take_request(address); }

bool App::admit_connection(const std::string& address) { return shared_limits_->admit_connection(address); }

void App::on_http(net::HttpRequest request, std::function<void(net::HttpResponse)> respond) {
  http_->handle(std::move(request), std::move(respond));
}

}  // namespace cinq::server
