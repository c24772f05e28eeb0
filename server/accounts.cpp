// Accounts: names and password hashes (accounts.h).
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

}  // namespace cinq::server
