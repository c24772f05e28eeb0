// A throwaway Redis for tests: Debian's redis-server on a free port of 127.0.0.1, in a temporary
// directory, with no persistence (--save '' --appendonly no): what the cluster's bus needs is messages in
// flight, never data kept across a restart. Root is fine for Redis.
#pragma once

#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/daemon.h"
#include "tests/support/process.h"

namespace cinq::test {

class RedisServer {
 public:
  // Starts it and waits (up to 10 s) until it answers PING. Throws std::runtime_error (with its log) if
  // it does not.
  RedisServer();
  // Stops it and removes its directory.
  ~RedisServer();
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  // Redis going away ("Redis restarted mid-game"): SIGTERM (it exits at once: nothing to save), or SIGKILL
  // for a crash. Every connection to it is closed; what it held is gone.
  void stop(int signal = SIGTERM);
  // Back on the same port, empty, answering PING when this returns (throws as the constructor).
  void start();
  bool running();

  int port() const { return port_; }
  std::string uri() const { return "redis://127.0.0.1:" + std::to_string(port_); }

  // Runs one command on a new connection and returns its reply as text, for assertions: a status or a bulk
  // string as it is, an integer in decimal, a nil as "(nil)", an error as "error: MESSAGE", an array as its
  // elements' texts each followed by '\n'. The words go as a RESP array, so any bytes may be in them:
  //   redis.command("PUBLISH", "room:1", "{\"type\":\"act\"}") == "0"
  // Throws std::runtime_error if Redis cannot be reached or does not answer within 5 s.
  template <class... Words>
  std::string command(const Words&... words) {
    return run({std::string(words)...});
  }
  std::string run(const std::vector<std::string>& words);

  std::string log() const;

 private:
  std::unique_ptr<TempDir> dir_;
  int port_ = 0;
  Daemon process_;
};

}  // namespace cinq::test
