// The login throttle's glue (login_guard.h).
#include "server/login_guard.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <optional>
#include <vector>

#include "server/accounts.h"
#include "server/room_bus.h"
#include "server/services.h"

namespace cinq::server {

namespace {
// Redis keys: a count of one window, and the browsers and addresses an account knows (a hash: entry -> ms).
std::string count_key(const std::string& key, std::int64_t window) {
  return "cinq:login:" + key + ":" + std::to_string(window);
}
std::string known_key(const std::string& account) { return "cinq:known:" + lower_case(account); }

std::int64_t integer_of(const net::RedisReply& r) {
  if (r.kind == net::RedisReply::Kind::integer) return r.integer;
  if (r.kind != net::RedisReply::Kind::string || r.text.empty() || r.text.size() > 18) return 0;
  std::int64_t n = 0;
  for (char c : r.text) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + (c - '0');
  }
  return n;
}

// Replies to wait for, a little while.
struct Pending {
  std::mutex mutex;
  std::condition_variable done;
  std::vector<std::optional<net::RedisReply>> replies;
  int left = 0;
};
}  // namespace

LoginGuard::LoginGuard(Services& services, limits::LoginPolicy policy) : services_(services), throttle_(policy) {}

limits::Verdict LoginGuard::admit(const limits::Attempt& a) {
  const std::int64_t now = Services::now().unix_ms;
  const std::int64_t window = throttle_.counts().window(now);
  RoomBus* bus = services_.bus;
  if (bus) {
    // The cluster's counts of this attempt's keys and what the account knows, read before deciding.
    const limits::AttemptKeys k = throttle_.keys(a);
    const std::vector<std::string> keys{k.address, k.account_address, k.account, k.device};
    const std::string address_entry = limits::LoginThrottle::address_entry(a.address);
    auto pending = std::make_shared<Pending>();
    pending->replies.resize(2);
    pending->left = 2;
    std::vector<std::string> mget{"MGET"};
    for (const auto& key : keys) mget.push_back(count_key(key, window));
    std::vector<std::string> hmget{"HMGET", known_key(a.account), a.device.empty() ? "-" : a.device, address_entry};
    int i = 0;
    for (auto* args : {&mget, &hmget}) {
      bus->shared_command(std::move(*args), [pending, i](std::optional<net::RedisReply> r) {
        std::lock_guard lock(pending->mutex);
        pending->replies[static_cast<std::size_t>(i)] = std::move(r);
        if (--pending->left == 0) pending->done.notify_all();
      });
      ++i;
    }
    std::unique_lock wait(pending->mutex);
    pending->done.wait_for(wait, std::chrono::milliseconds(kBusWaitMs), [&] { return pending->left == 0; });
    const auto counts = pending->replies[0];
    const auto known = pending->replies[1];
    wait.unlock();
    std::lock_guard lock(mutex_);
    if (counts && counts->kind == net::RedisReply::Kind::array && counts->items.size() == keys.size())
      for (std::size_t j = 0; j < keys.size(); ++j)
        throttle_.counts().observed(keys[j], window, integer_of(counts->items[j]));
    if (known && known->kind == net::RedisReply::Kind::array && known->items.size() == 2) {
      const std::string entries[2] = {a.device, address_entry};
      for (std::size_t j = 0; j < 2; ++j)
        if (const std::int64_t seen = integer_of(known->items[j]); seen > 0 && !entries[j].empty())
          throttle_.remember(a.account, entries[j], seen);
    }
  }
  limits::Changes changes;
  limits::Verdict verdict;
  {
    std::lock_guard lock(mutex_);
    if (now - last_sweep_ms_ > throttle_.policy().window_ms) {  // the tables stay the size of a window
      throttle_.sweep(now);
      last_sweep_ms_ = now;
    }
    verdict = throttle_.admit(a, now, &changes);
  }
  share(changes, window);
  return verdict;
}

void LoginGuard::failed(const limits::Attempt& a) {
  const std::int64_t now = Services::now().unix_ms;
  limits::Changes changes;
  {
    std::lock_guard lock(mutex_);
    throttle_.failed(a, now, &changes);
  }
  share(changes, throttle_.counts().window(now));
}

void LoginGuard::succeeded(const limits::Attempt& a) {
  const std::int64_t now = Services::now().unix_ms;
  limits::Changes changes;
  {
    std::lock_guard lock(mutex_);
    throttle_.succeeded(a, now, &changes);
  }
  share(changes, throttle_.counts().window(now));
}

// The changes go to Redis without waiting: each count's INCR answers with the cluster's total, merged in.
void LoginGuard::share(const limits::Changes& changes, std::int64_t window) {
  RoomBus* bus = services_.bus;
  if (!bus) return;
  const limits::LoginPolicy& policy = throttle_.policy();
  const std::string ttl = std::to_string(2 * policy.window_ms);
  for (const auto& [key, own] : changes.added) {
    const std::string rkey = count_key(key, window);
    bus->shared_command({"INCR", rkey}, [this, key = key, own = own, window](std::optional<net::RedisReply> r) {
      if (!r || r->kind != net::RedisReply::Kind::integer) return;
      std::lock_guard lock(mutex_);
      throttle_.counts().merged(key, window, own, r->integer);
    });
    bus->shared_command({"PEXPIRE", rkey, ttl}, {});
  }
  for (const auto& key : changes.cleared) bus->shared_command({"DEL", count_key(key, window)}, {});
  const std::string now = std::to_string(Services::now().unix_ms);
  for (const auto& [account, entry] : changes.known) {
    bus->shared_command({"HSET", known_key(account), entry, now}, {});
    bus->shared_command({"PEXPIRE", known_key(account), std::to_string(policy.remember_ms)}, {});
  }
}

}  // namespace cinq::server
