// Accounts (docs/protocol.md "Accounts"): user names, passwords hashed with Argon2id through
// libsodium, and the limits on login attempts. The commands that use them are in commands/identity.cpp.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace cinq::server {

// A user name: 3 to 20 characters of A-Z a-z 0-9 _ -; unique whatever the case. nullopt and `why` if not.
std::optional<std::string> check_username(const std::string& username, std::string& why);
// ASCII letters in lower case: the form user names are compared in.
std::string lower_case(std::string text);
// A password: 8 to 128 bytes. False and `why` if not.
bool check_password(const std::string& password, std::string& why);

// libsodium's crypto_pwhash_str: Argon2id with its interactive costs (2 passes, 64 MiB), a random salt; the
// result holds the algorithm, the costs and the salt. Slow on purpose (about 0.1 s): run it on a worker.
// "" if libsodium could not (out of memory).
std::string hash_password(const std::string& password);
// Whether `password` is the one `stored` was made from (crypto_pwhash_str_verify: constant time). A stored
// hash of another form never matches.
bool password_matches(const std::string& password, const std::string& stored);
// Runs libsodium's initialisation once (thread-safe); false if it failed.
bool sodium_ready();

// Login attempts (docs/protocol.md): per account, kPerAccount failed attempts in a window of kWindowMs; per
// address, kPerAddress attempts of any outcome in that window. Past either, `rate_limited` until the oldest
// attempt leaves the window: a stranger can keep the owner out for at most kWindowMs after they stop.
class LoginLimiter {
 public:
  static constexpr int kPerAccount = 5;
  static constexpr int kPerAddress = 20;
  static constexpr std::int64_t kWindowMs = 5 * 60 * 1000;

  // Whether an attempt may go on (counted against the address when it may); `retry_ms` is how long to wait
  // when it may not.
  bool admit(const std::string& account, const std::string& address, std::int64_t now_ms, std::int64_t& retry_ms);
  // A failed attempt counts against the account; a good one clears the account's count.
  void failed(const std::string& account, std::int64_t now_ms);
  void succeeded(const std::string& account);

 private:
  using Times = std::deque<std::int64_t>;
  static void prune(Times& times, std::int64_t now_ms);
  std::mutex mutex_;
  std::unordered_map<std::string, Times> accounts_;   // lower-case user name -> failures
  std::unordered_map<std::string, Times> addresses_;  // address -> attempts
  std::int64_t last_sweep_ms_ = 0;
};

}  // namespace cinq::server
