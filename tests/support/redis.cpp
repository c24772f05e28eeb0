// RedisServer: redis-server as a Daemon, and a RESP client of a few lines for command().
#include "tests/support/redis.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>

namespace cinq::test {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kStartTimeout = std::chrono::seconds(10);
constexpr auto kStopGrace = std::chrono::seconds(5);
constexpr int kIoTimeoutSeconds = 5;

// One blocking connection to 127.0.0.1:PORT, reading RESP replies.
class RespConnection {
 public:
  explicit RespConnection(int port) : fd_(connect_loopback(port, kIoTimeoutSeconds)) {
    if (fd_ < 0) throw std::runtime_error("redis: cannot connect to 127.0.0.1:" + std::to_string(port));
  }
  ~RespConnection() { ::close(fd_); }
  RespConnection(const RespConnection&) = delete;
  RespConnection& operator=(const RespConnection&) = delete;

  void send(const std::vector<std::string>& words) {
    std::string out = "*" + std::to_string(words.size()) + "\r\n";
    for (const auto& w : words) out += "$" + std::to_string(w.size()) + "\r\n" + w + "\r\n";
    for (std::size_t sent = 0; sent < out.size();) {
      const ssize_t n = ::send(fd_, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) throw std::runtime_error("redis: cannot send the command");
      sent += static_cast<std::size_t>(n);
    }
  }

  std::string reply() {
    const std::string line = read_line();
    const std::string rest = line.substr(1);
    switch (line.at(0)) {
      case '+':
      case ':':
        return rest;
      case '-':
        return "error: " + rest;
      case '$': {
        const long n = std::stol(rest);
        if (n < 0) return "(nil)";
        std::string data = read_bytes(static_cast<std::size_t>(n) + 2);
        data.resize(static_cast<std::size_t>(n));
        return data;
      }
      case '*': {
        const long n = std::stol(rest);
        if (n < 0) return "(nil)";
        std::string out;
        for (long i = 0; i < n; ++i) out += reply() + "\n";
        return out;
      }
    }
    throw std::runtime_error("redis: unexpected reply: " + line);
  }

 private:
  void fill() {
    char chunk[4096];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) throw std::runtime_error("redis: no reply (connection closed or 5 s timeout)");
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
  std::string read_line() {
    std::size_t end;
    while ((end = buffer_.find("\r\n")) == std::string::npos) fill();
    std::string line = buffer_.substr(0, end);
    buffer_.erase(0, end + 2);
    if (line.empty()) throw std::runtime_error("redis: empty reply line");
    return line;
  }
  std::string read_bytes(std::size_t n) {
    while (buffer_.size() < n) fill();
    std::string out = buffer_.substr(0, n);
    buffer_.erase(0, n);
    return out;
  }

  int fd_;
  std::string buffer_;
};

}  // namespace

RedisServer::RedisServer() : dir_(std::make_unique<TempDir>()), port_(free_local_port()) { start(); }

RedisServer::~RedisServer() { process_.stop(SIGTERM, kStopGrace); }

void RedisServer::start() {
  if (process_.running()) return;
  const std::string binary = find_program("redis-server", "redis-server");
  // --logfile "": the log goes to standard output, which is redis.log.
  process_.start({binary, "--port", std::to_string(port_), "--bind", "127.0.0.1", "--save", "",
                  "--appendonly", "no", "--dir", dir_->path(), "--daemonize", "no", "--logfile", ""},
                 dir_->path() + "/redis.log");
  const auto deadline = Clock::now() + kStartTimeout;
  for (;;) {
    try {
      if (command("PING") == "PONG") return;
    } catch (const std::runtime_error&) {
      // not listening yet
    }
    if (!process_.running())
      throw std::runtime_error("redis-server did not start: it " + process_.how_it_ended() +
                               "\n--- its log ---\n" + log());
    if (Clock::now() >= deadline) {
      process_.stop(SIGKILL, kStopGrace);
      throw std::runtime_error("redis-server did not answer PING within 10 s\n--- its log ---\n" + log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

void RedisServer::stop(int signal) { process_.stop(signal, kStopGrace); }

bool RedisServer::running() { return process_.running(); }

std::string RedisServer::run(const std::vector<std::string>& words) {
  RespConnection connection(port_);
  connection.send(words);
  return connection.reply();
}

std::string RedisServer::log() const { return file_text(dir_->path() + "/redis.log"); }

}  // namespace cinq::test
