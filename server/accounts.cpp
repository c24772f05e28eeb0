// Accounts: names, password hashes, login limits (accounts.h).
#include "server/accounts.h"

#include <sodium.h>

#include <algorithm>
#include <cctype>

namespace cinq::server {

std::optional<std::string> check_username(const std::string& username, std::string& why) {
  if (username.size() < 3 || username.size() > 20) {
    why = "a user name has 3 to 20 characters";
    return std::nullopt;
  }
  for (char c : username) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') {
      why = "a user name has only letters A-Z, digits, '_' and '-'";
      return std::nullopt;
    }
  }
  return username;
}

std::string lower_case(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool check_password(const std::string& password, std::string& why) {
  if (password.size() < 8 || password.size() > 128) {
    why = "a password has 8 to 128 bytes";
    return false;
  }
  return true;
}

bool sodium_ready() {
  static const bool ready = sodium_init() >= 0;
  return ready;
}

std::string hash_password(const std::string& password) {
  if (!sodium_ready()) return {};
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                            crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) != 0)
    return {};
  return out;
}

bool password_matches(const std::string& password, const std::string& stored) {
  if (!sodium_ready() || stored.empty() || stored.size() >= crypto_pwhash_STRBYTES) return false;
  if (stored.rfind("$argon2id$", 0) != 0) return false;
  return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

void LoginLimiter::prune(Times& times, std::int64_t now_ms) {
  while (!times.empty() && times.front() <= now_ms - kWindowMs) times.pop_front();
}

bool LoginLimiter::admit(const std::string& account, const std::string& address, std::int64_t now_ms,
                         std::int64_t& retry_ms) {
  const std::string key = lower_case(account);
  std::lock_guard lock(mutex_);
  if (now_ms - last_sweep_ms_ > kWindowMs) {  // forget the quiet ones: the maps stay the size of the window
    for (auto* map : {&accounts_, &addresses_}) {
      for (auto it = map->begin(); it != map->end();) {
        prune(it->second, now_ms);
        it = it->second.empty() ? map->erase(it) : std::next(it);
      }
    }
    last_sweep_ms_ = now_ms;
  }
  Times& by_account = accounts_[key];
  Times& by_address = addresses_[address];
  prune(by_account, now_ms);
  prune(by_address, now_ms);
  retry_ms = 0;
  if (static_cast<int>(by_account.size()) >= kPerAccount)
    retry_ms = std::max(retry_ms, by_account.front() + kWindowMs - now_ms);
  if (static_cast<int>(by_address.size()) >= kPerAddress)
    retry_ms = std::max(retry_ms, by_address.front() + kWindowMs - now_ms);
  if (retry_ms > 0) return false;
  by_address.push_back(now_ms);
  return true;
}

void LoginLimiter::failed(const std::string& account, std::int64_t now_ms) {
  const std::string key = lower_case(account);
  std::lock_guard lock(mutex_);
  accounts_[key].push_back(now_ms);
}

void LoginLimiter::succeeded(const std::string& account) {
  const std::string key = lower_case(account);
  std::lock_guard lock(mutex_);
  accounts_.erase(key);
}

}  // namespace cinq::server
