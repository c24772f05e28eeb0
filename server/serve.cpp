// `cinq serve`: opens the store, reopens unfinished games, serves until SIGINT/SIGTERM, then stops
// accepting, closes the connections, lets every queued save commit, and exits 0.
#include <spdlog/spdlog.h>

#include <charconv>
#include <filesystem>
#include <iostream>

#include "persistence/store.h"
#include "persistence/worker.h"
#include "server/app.h"
#include "server/cli.h"

namespace cinq {

namespace {

int serve_usage(const std::string& why) {
  std::cerr << "cinq serve: " << why << "\n(see 'cinq --help')\n";
  return 2;
}

}  // namespace

int serve_main(const std::vector<std::string>& args) {
  net::ServerConfig config;
  config.web_dir = "web-client";
  std::string data_dir = "data";
  server::Limits limits;
  server::BotConfig bots;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    std::string v;
    if (a == "--per-address-connections" || a == "--per-address-rate") {
      // The per-address limits stop one host from taking the server; a load test from one host lifts them.
      if (!value(v)) return serve_usage(a + " needs a value");
      int n = -1;
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec != std::errc() || end != v.data() + v.size() || n < 0)
        return serve_usage(a + ": bad value '" + v + "' (a number, 0 for no limit)");
      if (a == "--per-address-connections") {
        config.max_connections_per_address = static_cast<std::size_t>(n);
      } else {
        limits.address_rate = n;
        limits.address_burst = 2.0 * n;
      }
    } else if (a == "--port" || a == "--threads") {
      if (!value(v)) return serve_usage(a + " needs a value");
      int n = -1;
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec != std::errc() || end != v.data() + v.size() || n < 0 || (a == "--port" && n > 65535) ||
          (a == "--threads" && (n < 1 || n > 64)))
        return serve_usage(a + ": bad value '" + v + "'");
      if (a == "--port")
        config.port = static_cast<std::uint16_t>(n);
      else
        config.threads = n;
    } else if (a == "--bot-threads" || a == "--bot-answer-ms" || a == "--bot-pace-ms") {
      // Bot threads think for the computer opponents, off the network threads; the two delays are the
      // pauses before a bot's turn is shown (bot_runner.h), shortened by tests that play whole games.
      if (!value(v)) return serve_usage(a + " needs a value");
      int n = -1;
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec != std::errc() || end != v.data() + v.size() || n < 0 ||
          (a == "--bot-threads" && (n < 1 || n > 64)) || n > 60000)
        return serve_usage(a + ": bad value '" + v + "'");
      if (a == "--bot-threads")
        bots.threads = n;
      else
        (a == "--bot-answer-ms" ? bots.answer_delay : bots.pace_delay) = std::chrono::milliseconds(n);
    } else if (a == "--data") {
      if (!value(data_dir)) return serve_usage("--data needs a directory");
    } else if (a == "--web") {
      if (!value(config.web_dir)) return serve_usage("--web needs a directory");
    } else if (a == "--address") {
      if (!value(config.address)) return serve_usage("--address needs an IP address");
    } else {
      return serve_usage("unknown argument '" + a + "'");
    }
  }
  spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");

  std::string db_path = (std::filesystem::path(data_dir) / "cinq.db").string();
  store::Error error;
  auto store = store::Store::open(db_path, error);
  if (!store) {
    std::cerr << "cinq serve: cannot open " << db_path << ": " << error.message << "\n";
    return 1;
  }
  if (!config.web_dir.empty() && !std::filesystem::is_directory(config.web_dir))
    spdlog::warn("web directory '{}' not found: only the API is served", config.web_dir);

  {
    store::Worker writer("store-writer");
    server::App app(*store, writer, limits, bots);
    std::unique_ptr<net::Server> server;
    try {
      server = std::make_unique<net::Server>(config, app);
    } catch (const std::exception& e) {
      std::cerr << "cinq serve: " << e.what() << "\n";
      return 1;
    }
    int reopened = app.attach(*server);
    spdlog::info("store {} ({} unfinished games reopened)", db_path, reopened);
    std::cout << "cinq: listening on http://" << config.address << ":" << server->port() << std::endl;
    net::Server* s = server.get();
    server->run([s] {
      spdlog::info("signal received: shutting down");
      s->stop();
    });
    writer.stop();   // every save already queued is committed before the process ends
    app.shutdown();  // rooms (and their timers) go while the I/O context they use still exists
    spdlog::info("stopped");
  }
  return 0;
}

}  // namespace cinq
