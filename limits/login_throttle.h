// The login throttle (docs/operations.md, "Limits"; the OWASP authentication guidance, as Lichess does it):
// guessing is slowed by address and by account, and nobody can keep an account's owner out.
//
// In a window of `window_ms`:
// - an address makes at most `per_address` attempts (of any outcome);
// - one account gets at most `per_account_address` wrong passwords from one address;
// - one account gets at most `per_account` wrong passwords from everywhere: past it, only a browser or an
//   address that has logged in to it before may try (guessing from many addresses is slowed to a trickle);
// - a browser that has logged in to the account before (its `cinq_device` cookie) or a connection that
//   already holds the account's token is trusted: it is held to `per_account_address` wrong passwords of its
//   own, and to nothing else, so that neither a flood from its address nor from elsewhere refuses it.
// A good password clears that address's (or that browser's) wrong ones for the account, and makes the
// browser and the address known to the account for `remember_ms`; the account's own count stays (an attack
// from elsewhere is not forgiven by the owner's login).
//
// Pure logic, time passed in, no lock: the caller holds one. Counts are WindowCounts, so that a cluster's
// totals can be merged in (each change returned names the keys the caller adds to or clears in the cluster).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "limits/counts.h"

namespace cinq::limits {

struct LoginPolicy {
  int per_address = 20;
  int per_account_address = 5;
  int per_account = 20;
  std::int64_t window_ms = 5 * 60 * 1000;
  std::int64_t remember_ms = 400LL * 24 * 3600 * 1000;  // a browser's cookie lives about as long
  std::size_t known_per_account = 32;                     // browsers and addresses: the oldest go first
};

struct Attempt {
  std::string account;        // the user name as typed (compared in lower case)
  std::string address;        // the client's address
  std::string device;         // its browser's `cinq_device` id, "" without one
  bool holds_token = false;   // the connection already holds a token of this account
};

enum class Limit { none, address, account_address, account, device };
const char* limit_name(Limit limit);

struct Verdict {
  Limit limit = Limit::none;
  std::int64_t retry_ms = 0;  // how long until the window that refused it ends
  bool admitted() const { return limit == Limit::none; }
};

// What a call changed, for the cluster: keys counted once more (with this node's own count, for
// WindowCounts::merged), keys cleared, and what became known to an account (`known` entries: account, then a
// browser's id or "@" and an address).
struct Changes {
  std::vector<std::pair<std::string, std::int64_t>> added;
  std::vector<std::string> cleared;
  std::vector<std::pair<std::string, std::string>> known;
};

// The count keys of an attempt: the glue reads these from the cluster before admit().
struct AttemptKeys {
  std::string address, account_address, account, device;
};

class LoginThrottle {
 public:
  explicit LoginThrottle(LoginPolicy policy = {});

  const LoginPolicy& policy() const { return policy_; }
  WindowCounts& counts() { return counts_; }
  AttemptKeys keys(const Attempt& a) const;
  // The entry an address is known by among an account's browsers ("@" and the address).
  static std::string address_entry(const std::string& address) { return "@" + address; }

  // Whether the attempt comes from a browser that logged in to the account before, or holds its token.
  bool trusted(const Attempt& a, std::int64_t now_ms) const;
  // Whether the account knows `entry` (a browser's id, or address_entry()) as of now.
  bool knows(const std::string& account, const std::string& entry, std::int64_t now_ms) const;
  // `entry` became known to `account` at `seen_ms` (a login here or on another node).
  void remember(const std::string& account, const std::string& entry, std::int64_t seen_ms);

  // Whether the attempt may go on; when it may, it is counted against its address (`changes`).
  Verdict admit(const Attempt& a, std::int64_t now_ms, Changes* changes = nullptr);
  void failed(const Attempt& a, std::int64_t now_ms, Changes* changes = nullptr);
  void succeeded(const Attempt& a, std::int64_t now_ms, Changes* changes = nullptr);

  // Forgets past windows and entries not seen for `remember_ms`.
  void sweep(std::int64_t now_ms);

 private:
  void add(const std::string& key, std::int64_t now_ms, Changes* changes);
  LoginPolicy policy_;
  WindowCounts counts_;
  // lower-case account -> (browser id or "@address", last login ms), oldest first
  std::unordered_map<std::string, std::vector<std::pair<std::string, std::int64_t>>> known_;
};

}  // namespace cinq::limits
