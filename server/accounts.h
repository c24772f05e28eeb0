// Accounts (docs/protocol.md "Accounts"): user names, passwords hashed with Argon2id through
// libsodium (the limits on login attempts: login_guard.h). The commands that use them are in commands/identity.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

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

}  // namespace cinq::server
