#include "fuzz/harness.h"

#include <spdlog/spdlog.h>
#include <stdlib.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>

#include "persistence/store.h"
#include "persistence/worker.h"

namespace cinq::fuzz {

void Inbox::send(std::shared_ptr<const std::string> text) {
  std::lock_guard lock(mutex_);
  messages_.push_back(*text);
  cv_.notify_all();
}

void Inbox::close(int, std::string) {
  std::lock_guard lock(mutex_);
  closed_ = true;
  cv_.notify_all();
}

bool Inbox::wait_for(const std::string& needle, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  auto found = [&] {
    for (const auto& m : messages_)
      if (m.find(needle) != std::string::npos) return true;
    return false;
  };
  cv_.wait_for(lock, timeout, [&] { return closed_ || found(); });
  return found();
}

std::size_t Inbox::count() {
  std::lock_guard lock(mutex_);
  return messages_.size();
}

void Inbox::wait_answer(std::size_t from, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  cv_.wait_for(lock, timeout, [&] {
    for (std::size_t i = from; i < messages_.size(); ++i)
      if (messages_[i].find("\"type\":\"state\"") != std::string::npos ||
          messages_[i].find("\"type\":\"error\"") != std::string::npos)
        return true;
    return closed_;
  });
}

std::string Inbox::last_room() {
  std::lock_guard lock(mutex_);
  for (auto it = messages_.rbegin(); it != messages_.rend(); ++it) {
    if (it->find("\"type\":\"state\"") == std::string::npos) continue;
    const std::string key = "\"room\":\"";
    auto at = it->find(key);
    if (at == std::string::npos) continue;
    auto end = it->find('"', at + key.size());
    if (end != std::string::npos) return it->substr(at + key.size(), end - at - key.size());
  }
  return {};
}

Harness& Harness::get() {
  static Harness* harness = new Harness();  // never destroyed: libFuzzer ends the process
  return *harness;
}

Harness::Harness() {
  spdlog::set_level(spdlog::level::off);
  std::string base = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path().string();
  std::string pattern = base + "/cinq-fuzz-XXXXXX";
  if (!mkdtemp(pattern.data())) std::abort();
  dir_ = pattern;
  web_dir_ = CINQ_WEB_DIR;
  store::Error error;
  store_ = store::Store::open(dir_ + "/cinq.db", error);
  if (!store_) {
    std::fprintf(stderr, "fuzz harness: %s\n", error.message.c_str());
    std::abort();
  }
  writer_ = std::make_unique<store::Worker>("store-writer");
  server::RoomLimits limits;
  limits.open_rooms_per_player = 0;
  limits.imports_per_hour = 0;
  server::Limits protocol_limits;  // one address sends everything here: no rate limits
  protocol_limits.connection_rate = protocol_limits.connection_burst = 1e9;
  protocol_limits.address_rate = 0;
  server::BotConfig bots;
  bots.answer_delay = bots.pace_delay = std::chrono::milliseconds(0);
  app_ = std::make_unique<server::App>(*store_, *writer_, protocol_limits, bots, server::WorkerConfig{}, limits);
  net::ServerConfig config;
  config.address = "127.0.0.1";
  config.port = 0;
  config.web_dir = web_dir_;
  server_ = std::make_unique<net::Server>(config, *app_);
  app_->attach(*server_);
  // The server's signal handler is the process's: Ctrl-C (or SIGTERM) ends the fuzzer at once.
  io_ = std::thread([this] { server_->run([] { std::_Exit(1); }); });
  io_.detach();
}

}  // namespace cinq::fuzz
