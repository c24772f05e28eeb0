// The login throttle (limits/login_throttle.h) in the server: who tries (the connection's address, its
// browser's `cinq_device` cookie, whether it holds the account's token), the clock, a lock, and in a cluster
// the counts and the known browsers shared through Redis (docs/scaling.md, "Limits"), this node's own
// counts standing in while Redis is away.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include "limits/login_throttle.h"

namespace cinq::server {

struct Services;

class LoginGuard {
 public:
  // How long admit() waits for the cluster's counts before deciding on this node's own.
  static constexpr std::int64_t kBusWaitMs = 300;

  explicit LoginGuard(Services& services, limits::LoginPolicy policy = {});

  // Whether the attempt may go on (counted when it may). It may wait for Redis: call it on a worker.
  limits::Verdict admit(const limits::Attempt& a);
  void failed(const limits::Attempt& a);
  void succeeded(const limits::Attempt& a);

 private:
  void share(const limits::Changes& changes, std::int64_t window);
  Services& services_;
  std::mutex mutex_;
  limits::LoginThrottle throttle_;
  std::int64_t last_sweep_ms_ = 0;
};

}  // namespace cinq::server
