// A throwaway HAProxy for tests: Debian's haproxy on a free port of 127.0.0.1, in a temporary
// directory, in front of the given backends, with the cluster's own configuration (docker/haproxy.cfg, its
// `server` lines replaced by these): HTTP mode, WebSocket tunnels kept for an hour, a health check of
// GET /api/health every 500 ms (two failures take a backend out, two successes bring it back), leastconn,
// and the header X-Cinq-Node naming the backend that answered. Its log (stdout and stderr) is a file in its
// directory. HAProxy runs as root as well as any user (a `user` line is needed only to drop privileges).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/daemon.h"
#include "tests/support/process.h"

namespace cinq::test {

class Haproxy {
 public:
  // Backends as "HOST:PORT", named n1, n2, ... in this order (X-Cinq-Node says which answered). Starts
  // HAProxy and waits (up to 10 s) until it accepts connections; throws std::runtime_error with its log if
  // it does not. `config`: the configuration to start from (default: the repository's docker/haproxy.cfg).
  explicit Haproxy(const std::vector<std::string>& backends, const std::string& config = CINQ_HAPROXY_CONFIG);
  ~Haproxy();
  Haproxy(const Haproxy&) = delete;
  Haproxy& operator=(const Haproxy&) = delete;

  int port() const { return port_; }
  std::string log() const;
  // Waits up to `timeout` until its log holds `text` (such as "nodes/n2 is DOWN" or "nodes/n2 is UP": the
  // health checks' verdicts); whether it does.
  bool wait_for_log(const std::string& text, std::chrono::milliseconds timeout) const;
  const std::string& config() const { return config_; }  // the text it runs

 private:
  std::unique_ptr<TempDir> dir_;
  int port_ = 0;
  std::string config_;
  Daemon process_;
};

// The configuration `base` with its `server` lines replaced by one for each of `backends` (n1, n2, ...):
// the cluster's file keeps its servers last, in the last section.
std::string with_servers(const std::string& base, const std::vector<std::string>& backends);

}  // namespace cinq::test
