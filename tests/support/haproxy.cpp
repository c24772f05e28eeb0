// Haproxy: haproxy -db (in the foreground, so that it is our child and its log our file) as a Daemon.
#include "tests/support/haproxy.h"

#include <csignal>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace cinq::test {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kStartTimeout = std::chrono::seconds(10);
constexpr auto kStopGrace = std::chrono::seconds(5);

}  // namespace

std::string with_servers(const std::string& base, const std::vector<std::string>& backends) {
  std::istringstream in(base);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first != "server") out += line + "\n";
  }
  for (std::size_t i = 0; i < backends.size(); ++i)
    out += "  server n" + std::to_string(i + 1) + " " + backends[i] + "\n";
  return out;
}

Haproxy::Haproxy(const std::vector<std::string>& backends, const std::string& config)
    : dir_(std::make_unique<TempDir>()), port_(free_local_port()) {
  const std::string base = file_text(config);
  if (base.empty()) throw std::runtime_error("haproxy: cannot read " + config);
  config_ = with_servers(base, backends);
  const std::string path = dir_->path() + "/haproxy.cfg";
  std::ofstream(path) << config_;
  process_.start({find_program("haproxy", "haproxy"), "-db", "-f", path}, dir_->path() + "/haproxy.log",
                 {"CINQ_HAPROXY_BIND=127.0.0.1:" + std::to_string(port_)});
  const auto deadline = Clock::now() + kStartTimeout;
  while (!accepts_connections(port_)) {
    if (!process_.running())
      throw std::runtime_error("haproxy did not start: it " + process_.how_it_ended() +
                               "\n--- its log ---\n" + log() + "--- its configuration ---\n" + config_);
    if (Clock::now() >= deadline) {
      process_.stop(SIGKILL, kStopGrace);
      throw std::runtime_error("haproxy did not accept connections within 10 s\n--- its log ---\n" + log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// SIGUSR1 is HAProxy's soft stop: it stops listening and ends once its connections are closed, which a
// WebSocket tunnel may never be; SIGTERM ends it at once.
Haproxy::~Haproxy() { process_.stop(SIGTERM, kStopGrace); }

bool Haproxy::wait_for_log(const std::string& text, std::chrono::milliseconds timeout) const {
  const auto deadline = Clock::now() + timeout;
  while (log().find(text) == std::string::npos) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

std::string Haproxy::log() const { return file_text(dir_->path() + "/haproxy.log"); }

}  // namespace cinq::test
