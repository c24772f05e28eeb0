// `cinq serve`: opens the store, reopens unfinished games, serves until SIGINT/SIGTERM, then stops
// accepting, closes the connections, lets every queued save commit, and exits 0.
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <cstdlib>

#include "persistence/store.h"
#include "persistence/worker.h"
#include "server/app.h"
#include "server/cli.h"

namespace cinq {

namespace {

struct ServeArgs {
  net::ServerConfig config;
  std::string data_dir = "data";
  std::string store;  // --store: "" is sqlite:DATA/cinq.db
  std::string bus;    // --bus redis://HOST:PORT: one node of several
  std::string node;   // --node NAME
  server::Limits limits;
  server::BotConfig bots;
  server::WorkerConfig workers;
  // Read as whole numbers, then put where the server takes them.
  int port = config.port;
  int per_address_connections = static_cast<int>(config.max_connections_per_address);
  int per_address_rate = static_cast<int>(limits.address_rate);
  int bot_answer_ms = static_cast<int>(bots.answer_delay.count());
  int bot_pace_ms = static_cast<int>(bots.pace_delay.count());
  // What one player or address may take (services.h RoomLimits, transport.h ServerConfig).
  server::RoomLimits room_limits;
  int open_rooms = static_cast<int>(room_limits.open_rooms_per_player);
  int bot_rooms = static_cast<int>(room_limits.bot_rooms_per_player);
  int imports_per_hour = static_cast<int>(room_limits.imports_per_hour);
  int open_room_expiry_s = static_cast<int>(room_limits.open_room_expiry.count() / 1000);
  int http_rate = static_cast<int>(config.http_rate);
  int http_connections = static_cast<int>(config.max_http_connections_per_address);
  int fd_reserve = static_cast<int>(config.fd_reserve);
  int max_open_files = 0;
  int commit_wait_us = 500;  // docs/performance.md, "What limits the store"
  std::string log_level = "info";
  // Mail (docs/mail.md).
  server::MailConfig mail;
  std::string smtp_login_file;
  std::string smtp_tls = "none";
  int mail_gather_ms = static_cast<int>(mail.gather.count());
  int mail_retry_ms = static_cast<int>(mail.retry.count());
  int mail_max_bytes = static_cast<int>(mail.max_message);
  int lmtp = -1;
};

// The SMTP login, never on the command line (where `ps` shows it): CINQ_SMTP_USER and CINQ_SMTP_PASSWORD, or
// a file holding "USER:PASSWORD" (or the user and the password on two lines). False, with why, if unreadable.
bool read_smtp_login(const std::string& file, server::MailConfig& mail, std::string& why) {
  if (const char* user = std::getenv("CINQ_SMTP_USER")) mail.user = user;
  if (const char* password = std::getenv("CINQ_SMTP_PASSWORD")) mail.password = password;
  if (file.empty()) return true;
  std::ifstream in(file);
  if (!in) {
    why = "cannot read the SMTP login file " + file;
    return false;
  }
  std::string first, second;
  std::getline(in, first);
  std::getline(in, second);
  if (!second.empty()) {
    mail.user = first;
    mail.password = second;
  } else if (auto colon = first.find(':'); colon != std::string::npos) {
    mail.user = first.substr(0, colon);
    mail.password = first.substr(colon + 1);
  } else {
    why = file + ": write USER:PASSWORD, or the user and the password on two lines";
    return false;
  }
  return true;
}

// Checks and completes the mail options; false, with why, if they do not go together.
bool mail_config(const ServeArgs& args, int port, server::MailConfig& mail, std::string& why) {
  mail = args.mail;
  if (mail.smtp.empty()) {
    if (args.lmtp >= 0 || !mail.domain.empty()) why = "--lmtp and --mail-domain need --smtp (where mail goes out)";
    return why.empty();
  }
  if (mail.smtp.rfind("smtp://", 0) != 0 && mail.smtp.rfind("smtps://", 0) != 0) {
    why = "--smtp takes smtp://HOST:PORT or smtps://HOST:PORT";
    return false;
  }
  if (mail.from.empty() || mail.domain.empty()) {
    why = "--smtp needs --mail-from ADDRESS and --mail-domain DOMAIN";
    return false;
  }
  if (!read_smtp_login(args.smtp_login_file, mail, why)) return false;
  mail.starttls = args.smtp_tls == "starttls";
  if (mail.public_url.empty())
    mail.public_url = (args.config.tls_cert.empty() ? "http://localhost:" : "https://localhost:") + std::to_string(port);
  while (!mail.public_url.empty() && mail.public_url.back() == '/') mail.public_url.pop_back();
  mail.gather = std::chrono::milliseconds(args.mail_gather_ms);
  mail.retry = std::chrono::milliseconds(std::max(args.mail_retry_ms, 1));
  mail.max_message = static_cast<std::size_t>(args.mail_max_bytes);
  mail.lmtp_port = args.lmtp;
  return true;
}

// Raises this process's soft limit on open files to its hard limit: every connection is a descriptor, and
// the usual soft limit (1024) would refuse connections long before the server is busy. Logs the limit in
// force (the old one, with a warning, if it cannot be raised).
// `wanted` (--max-open-files, > 0) sets the soft limit to that instead, below the hard limit.
void raise_open_files_limit(int wanted) {
  auto text = [](rlim_t n) { return n == RLIM_INFINITY ? std::string("unlimited") : std::to_string(n); };
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    spdlog::warn("cannot read the open files limit: {}", std::strerror(errno));
    return;
  }
  if (wanted > 0) {
    rlimit lowered = limit;
    lowered.rlim_cur = std::min<rlim_t>(static_cast<rlim_t>(wanted), limit.rlim_max);
    if (setrlimit(RLIMIT_NOFILE, &lowered) != 0)
      spdlog::warn("cannot set the open files limit to {}: {}", wanted, std::strerror(errno));
    else
      spdlog::info("open files limit: {} (--max-open-files)", text(lowered.rlim_cur));
    return;
  }
  rlim_t target = limit.rlim_max;
  if (target == RLIM_INFINITY) {  // Linux allows a process no more than fs.nr_open descriptors
    target = 1 << 20;
    std::ifstream("/proc/sys/fs/nr_open") >> target;
  }
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < target) {
    rlimit raised = limit;
    raised.rlim_cur = target;
    if (setrlimit(RLIMIT_NOFILE, &raised) != 0) {
      spdlog::warn("cannot raise the open files limit from {} to {}: {}", text(limit.rlim_cur), text(target),
                   std::strerror(errno));
    } else {
      spdlog::info("open files limit: {} (raised from {})", text(target), text(limit.rlim_cur));
      return;
    }
  }
  spdlog::info("open files limit: {} (hard limit {})", text(limit.rlim_cur), text(limit.rlim_max));
}

int serve(const ServeArgs& args) {
  net::ServerConfig config = args.config;
  config.port = static_cast<std::uint16_t>(args.port);
  config.max_connections_per_address = static_cast<std::size_t>(args.per_address_connections);
  config.max_http_connections_per_address = static_cast<std::size_t>(args.http_connections);
  config.http_rate = args.http_rate;
  config.http_burst = 10.0 * args.http_rate;
  config.fd_reserve = static_cast<std::size_t>(args.fd_reserve);
  server::RoomLimits room_limits = args.room_limits;
  room_limits.open_rooms_per_player = static_cast<std::size_t>(args.open_rooms);
  room_limits.bot_rooms_per_player = static_cast<std::size_t>(args.bot_rooms);
  room_limits.imports_per_hour = static_cast<std::size_t>(args.imports_per_hour);
  room_limits.open_room_expiry = std::chrono::milliseconds(std::int64_t{args.open_room_expiry_s} * 1000);
  server::Limits limits = args.limits;
  // The per-address limits stop one host from taking the server; a load test from one host lifts them.
  limits.address_rate = args.per_address_rate;
  limits.address_burst = 2.0 * args.per_address_rate;
  server::BotConfig bots = args.bots;
  // The pauses before a bot's turn is shown (bot_runner.h), shortened by tests that play whole games.
  bots.answer_delay = std::chrono::milliseconds(args.bot_answer_ms);
  bots.pace_delay = std::chrono::milliseconds(args.bot_pace_ms);
  const std::string& data_dir = args.data_dir;

  spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");
  spdlog::set_level(spdlog::level::from_str(args.log_level));  // one of the names --log-level accepts
  raise_open_files_limit(args.max_open_files);

  // --store names the store; without it, the SQLite file DIR/cinq.db of --data (the embedded default).
  const std::string spec =
      args.store.empty() ? "sqlite:" + (std::filesystem::path(data_dir) / "cinq.db").string() : args.store;
  const std::string shown = store::Store::describe(spec);
  store::Error error;
  auto store = store::Store::open(spec, error);
  if (!store) {
    spdlog::error("cannot open the store {}: {}", shown, error.message);
    return 1;
  }
  if (!config.web_dir.empty() && !std::filesystem::is_directory(config.web_dir))
    spdlog::warn("web directory '{}' not found: only the API is served", config.web_dir);

  if (!args.bus.empty() && std::string(store->backend()) != "postgresql") {
    spdlog::error("--bus needs a PostgreSQL store (--store postgresql://...): the nodes share it");
    return 1;
  }
  server::MailConfig mail;
  if (std::string why; !mail_config(args, config.port, mail, why)) {
    spdlog::error("{}", why);
    return 1;
  }
  {
    store::Worker writer("store-writer");
    server::App app(*store, writer, limits, bots, args.workers, room_limits, mail);
    app.set_transport_limits(config);
    app.set_commit_wait(std::chrono::microseconds(args.commit_wait_us));
    if (!args.bus.empty()) {
      std::string node = args.node;
      if (node.empty()) {
        char host[256] = {};
        gethostname(host, sizeof host - 1);
        node = host;
      }
      app.join_cluster({args.bus, node, config.address + ":" + std::to_string(config.port)});
    }
    std::unique_ptr<net::Server> server;
    try {
      server = std::make_unique<net::Server>(config, app);
    } catch (const std::exception& e) {
      spdlog::error("cannot start: {}", e.what());
      return 1;
    }
    int reopened = 0;
    try {
      reopened = app.attach(*server);
    } catch (const std::exception& e) {
      spdlog::error("cannot start: {}", e.what());
      return 1;
    }
    if (app.cluster())
      spdlog::info("store {} (several nodes: unfinished games are taken as no live node holds them)", shown);
    else
      spdlog::info("store {} ({} unfinished games reopened)", shown, reopened);
    if (mail.enabled())
      spdlog::info("mail: out through {}, seat addresses {}+...@{}", mail.smtp, mail.prefix, mail.domain);
    if (server->tls()) spdlog::info("tls: certificate {} (reloaded on SIGHUP)", config.tls_cert);
    std::cout << "cinq: listening on " << (server->tls() ? "https://" : "http://") << config.address << ":" << server->port() << std::endl;
    if (app.lmtp_port() > 0) std::cout << "cinq: LMTP on " << mail.lmtp_address << ":" << app.lmtp_port() << std::endl;
    net::Server* s = server.get();
    server::Cluster* cluster = app.cluster();
    server::App* a = &app;
    server->run([s, cluster, a] {
      if (!cluster) {
        spdlog::info("signal received: shutting down");
        a->stop_lmtp();
        return s->stop();
      }
      // One node of several: its rooms go to the others first (health answers 503 meanwhile), then it stops.
      spdlog::info("signal received: handing the rooms over, then shutting down");
      cluster->drain([s, a] {
        a->stop_lmtp();
        s->stop();
      });
    });
    writer.stop();   // every save already queued is committed before the process ends
    app.shutdown();  // rooms (and their timers) go while the I/O context they use still exists
    spdlog::info("stopped");
  }
  return 0;
}

}  // namespace

Command add_serve_command(CLI::App& cinq) {
  auto args = std::make_shared<ServeArgs>();
  args->config.web_dir = "web-client";
  CLI::App* cmd = cinq.add_subcommand(
      "serve",
      "Runs the game server: the browser client (static files from --web), the WebSocket endpoint /ws, the "
      "REST API under /api/ and /metrics (docs/protocol.md). Games are stored in DIR/cinq.db (SQLite), or in "
      "the store --store names (PostgreSQL); unfinished games are reopened at start. Logs go to standard "
      "output. Stops cleanly on SIGINT or SIGTERM.");
  auto range = [](int min, int max) { return CLI::Range(min, max).description(""); };
  cmd->add_option("--port", args->port, "the port to listen on; 0 picks a free port")
      ->type_name("N")->check(range(0, 65535))->capture_default_str();
  cmd->add_option("--data", args->data_dir, "where the games are kept without --store: DIR/cinq.db")
      ->type_name("DIR")->capture_default_str();
  cmd->add_option("--store", args->store,
                  "the store: sqlite:PATH (the default is DIR/cinq.db of --data), or "
                  "postgresql://USER:PASSWORD@HOST:PORT/DB, or postgresql:///DB?host=/run/postgresql")
      ->type_name("URI");
  cmd->add_option("--bus", args->bus,
                  "redis://HOST:PORT: run as one node of several sharing this Redis and the PostgreSQL store "
                  "(docs/scaling.md); needs --store postgresql://...")
      ->type_name("URI");
  cmd->add_option("--node", args->node, "this node's name in a cluster (default: the host name)")
      ->type_name("NAME");
  cmd->add_option("--trusted-proxy", args->config.trusted_proxies,
                  "a load balancer's address, or an IPv4 network ADDR/BITS (repeatable): its connections are not "
                  "capped per address, and its requests' client is the last address of X-Forwarded-For")
      ->type_name("ADDR");
  cmd->add_option("--tls-cert", args->config.tls_cert,
                  "serve HTTPS and WSS with this certificate (PEM, its chain after it: certbot's fullchain.pem); "
                  "read again on SIGHUP");
  cmd->add_option("--tls-key", args->config.tls_key, "the certificate's private key (PEM: certbot's privkey.pem)");
  cmd->add_option("--web", args->config.web_dir, "the browser client's files")
      ->type_name("DIR")->capture_default_str();
  cmd->add_option("--address", args->config.address, "the IP address to listen on")
      ->type_name("A")->capture_default_str();
  cmd->add_option("--threads", args->config.threads, "network threads, 1 to 64")
      ->type_name("N")->check(range(1, 64))->capture_default_str();
  cmd->add_option("--per-address-connections", args->per_address_connections,
                  "connections from one IP address; 0: no limit, for load tests from one host")
      ->type_name("N")->check(range(0, std::numeric_limits<int>::max()))->capture_default_str();
  cmd->add_option("--per-address-rate", args->per_address_rate,
                  "messages a second from one IP address, all its connections together; 0: no limit")
      ->type_name("N")->check(range(0, std::numeric_limits<int>::max()))->capture_default_str();
  cmd->add_option("--worker-threads", args->workers.threads,
                  "threads for store reads, record replays, imports and game lists (never the network's), 1 to 64")
      ->type_name("N")->check(range(1, 64))->capture_default_str();
  cmd->add_option("--commit-wait-us", args->commit_wait_us,
                  "a commit waits up to this long after its first save for more to share its fsync (latency "
                  "traded for CPU under load), 0 to 100000")
      ->type_name("US")->check(range(0, 100000))->capture_default_str();
  cmd->add_option("--bot-threads", args->bots.threads, "threads the computer opponents think on, 1 to 64")
      ->type_name("N")->check(range(1, 64))->capture_default_str();
  cmd->add_option("--analysis-threads", args->bots.analysis.threads,
                  "threads that analyse finished games with the strongest bot, 0 (none) to 64")
      ->type_name("N")->check(range(0, 64))->capture_default_str();
  cmd->add_option("--analysis-depth", args->bots.analysis.depth,
                  "the depth of an analysis that names none (the client's), 1 to 5: bot level D's search")
      ->type_name("D")->check(range(1, 5))->capture_default_str();
  cmd->add_option("--analyses-per-player", args->bots.analysis.per_player,
                  "analyses one player may have waiting or running; 0: no limit")
      ->type_name("N")->check(range(0, 1000))->capture_default_str();
  cmd->add_option("--bot-answer-ms", args->bot_answer_ms,
                  "a bot's turn is shown no sooner than this after the move it answers, 0 to 60000")
      ->type_name("MS")->check(range(0, 60000))->capture_default_str();
  cmd->add_option("--bot-pace-ms", args->bot_pace_ms,
                  "and no sooner than this after the last turn in a computer-vs-computer room, 0 to 60000")
      ->type_name("MS")->check(range(0, 60000))->capture_default_str();
  // What one player or one address may make or hold, so that none can starve the others
  // (docs/operations.md, "Limits").
  const auto whole = range(0, std::numeric_limits<int>::max());
  cmd->add_option("--open-rooms-per-player", args->open_rooms,
                  "open rooms one player may have waiting for an opponent; 0: no limit")
      ->type_name("N")->check(whole)->capture_default_str();
  cmd->add_option("--bot-rooms-per-player", args->bot_rooms,
                  "unfinished games one player may play against the computer at once; 0: no limit")
      ->type_name("N")->check(whole)->capture_default_str();
  cmd->add_option("--imports-per-hour", args->imports_per_hour,
                  "games one IP address may import (POST /api/games/import) in an hour; 0: no limit")
      ->type_name("N")->check(whole)->capture_default_str();
  cmd->add_option("--open-room-expiry", args->open_room_expiry_s,
                  "an open room whose seats nobody connected holds for this long is aborted; 0: never")
      ->type_name("SECONDS")->check(whole)->capture_default_str();
  cmd->add_option("--http-rate", args->http_rate,
                  "HTTP requests a second from one IP address (bursts of 10 seconds' worth), then 429; 0: no limit")
      ->type_name("N")->check(whole)->capture_default_str();
  cmd->add_option("--http-connections-per-address", args->http_connections,
                  "HTTP connections (not WebSocket) open at once from one IP address; 0: no limit")
      ->type_name("N")->check(whole)->capture_default_str();
  cmd->add_option("--fd-reserve", args->fd_reserve,
                  "descriptors kept from WebSocket connections (a quarter of them from every connection) "
                  "for the store, the listener and health checks")
      ->type_name("N")->check(range(16, 1 << 20))->capture_default_str();
  cmd->add_option("--max-open-files", args->max_open_files,
                  "the open files limit to run with (below the hard limit); 0: as high as allowed")
      ->type_name("N")->check(whole)->capture_default_str();
  // Correspondence by e-mail (docs/mail.md).
  cmd->add_option("--smtp", args->mail.smtp,
                  "smtp://HOST:PORT or smtps://HOST:PORT: send the games' mails through this server (the login "
                  "from CINQ_SMTP_USER and CINQ_SMTP_PASSWORD, or --smtp-login-file); without it, no mail")
      ->type_name("URL");
  cmd->add_option("--smtp-tls", args->smtp_tls,
                  "on smtp://: none, or starttls (required: no mail goes out in clear); smtps:// is TLS at once")
      ->type_name("MODE")->check(CLI::IsMember({"none", "starttls"}).description(""))->capture_default_str();
  cmd->add_option("--smtp-login-file", args->smtp_login_file, "a file holding the SMTP login, USER:PASSWORD")
      ->type_name("FILE");
  cmd->add_option("--smtp-ca-file", args->mail.ca_file, "trust this CA certificate for the SMTP server's TLS")
      ->type_name("FILE");
  cmd->add_option("--mail-from", args->mail.from, "the address mails are sent from (bounces come back there)")
      ->type_name("ADDRESS");
  cmd->add_option("--mail-domain", args->mail.domain,
                  "the domain of the seats' reply addresses, play+ROOM.SEAT.TAG@DOMAIN, whose mail reaches "
                  "cinq mail-in or --lmtp")
      ->type_name("DOMAIN");
  cmd->add_option("--public-url", args->mail.public_url,
                  "the site's address for links in mails (default http://localhost:PORT, https:// with --tls-cert; behind a proxy that terminates TLS, give the public https:// address)")
      ->type_name("URL");
  cmd->add_option("--lmtp", args->lmtp, "take mail for --mail-domain over LMTP on 127.0.0.1:PORT (0: any port)")
      ->type_name("PORT")->check(range(0, 65535));
  cmd->add_option("--lmtp-address", args->mail.lmtp_address, "the address the LMTP listener binds")
      ->type_name("A")->capture_default_str();
  cmd->add_option("--mail-gather-ms", args->mail_gather_ms,
                  "a your-turn mail waits this long, so that turns in quick succession make one mail")
      ->type_name("MS")->check(whole)->capture_default_str();
  cmd->add_option("--mail-retry-ms", args->mail_retry_ms,
                  "the first retry after a temporary failure (then doubling, at most an hour)")
      ->type_name("MS")->check(range(1, std::numeric_limits<int>::max()))->capture_default_str();
  cmd->add_option("--mail-max-bytes", args->mail_max_bytes, "mails in larger than this are refused (552)")
      ->type_name("N")->check(range(1024, 64 << 20))->capture_default_str();
  cmd->add_option("--mail-sender-rate", args->mail.sender_rate,
                  "mails in an hour from one sender address, then 450; 0: no limit")
      ->type_name("N")->check(whole)->capture_default_str();
  cmd->add_option("--log-level", args->log_level, "what is logged: trace, debug, info, warn or error")
      ->type_name("LEVEL")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}).description(""))
      ->capture_default_str();
  return [args] { return serve(*args); };
}

}  // namespace cinq
