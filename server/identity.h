// Guest identities (docs/protocol.md, "Identity"): a random id, a secret token, a display name. The token is
// the only proof of identity; the store keeps its hash. Also the secret tokens of correspondence seats, which
// are hashed and checked the same way.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "lobby/room.h"
#include "persistence/store.h"

namespace cinq::lobby {
class Room;
}

namespace cinq::server {

struct Services;
class Workers;

class Identities {
 public:
  Identities(Services& services, Workers& workers);

  // A player seen since the start (the cache), without touching the store.
  std::optional<store::PlayerRow> cached(const std::string& id);
  // The player `id`: from the cache, else read from the store on a worker. `done` runs once, with the row
  // (nullopt: no such player) — at once on this thread when cached, else on a worker thread; `busy`: the
  // workers could not take the read (the row is then nullopt).
  using Loaded = std::function<void(std::optional<store::PlayerRow> row, bool busy)>;
  void load(const std::string& id, Loaded done);
  // A new guest named `name` (or Guest-XXXX) with its secret token, stored before anyone hears of it:
  // `done` runs once the row has committed (`row` set) or failed to (nullopt), on a strand of its own (never
  // the store's writer), and the row is in the cache only once stored.
  using Created = std::function<void(std::optional<store::PlayerRow> row, std::string token)>;
  void create(const std::optional<std::string>& name, Created done);
  // Stores a changed row (a new name, a new token hash, login tokens added or ended: sessions_added and
  // the like, always written as changes); once committed, the cache holds it and `done(true)` runs; if the save fails, the cache keeps the row as it was and `done(false)` runs. On a strand, as above.
  void save(const store::PlayerRow& row, std::function<void(bool ok)> done);
  // A row as committed outside save() (a registration: store::Store::claim_username) goes into the cache.
  void adopt(const store::PlayerRow& row);
  // The player `id` read from the store again, whatever the cache holds (a token issued by another node
  // since), and cached; `done` as load()'s, always on a worker.
  void reload(const std::string& id, Loaded done);

 private:
  Services& services_;
  Workers& workers_;
  std::mutex mutex_;
  std::unordered_map<std::string, store::PlayerRow> players_;  // players seen since start
};

// A name a record can hold: 1 to 32 characters after trimming, no control characters, none of `= # / >`.
std::optional<std::string> clean_name(const std::string& name, std::string& why);
// Random identifiers: `length` characters of [0-9A-Za-z] from the system's random source.
std::string random_id(std::size_t length);

// The stored form of a token: its SHA-256 in hex, 64 characters (tokens are 128-bit random: no salt or
// stretching needed). Computed with OpenSSL's libcrypto.
std::string token_hash(std::string_view token);
// The hash `token` matches among a player's: its guest token or one of its login tokens (constant time each);
// "" if none.
std::string matching_token(std::string_view token, const store::PlayerRow& row);
// Whether `token` is the one `stored` is the hash of, compared in constant time. `stored` is a SHA-256 hash
// (64 hex characters) or, for tokens issued by older versions, a SHA-1 hash (40), so that those identities
// keep working; anything else never matches.
bool token_matches(std::string_view token, std::string_view stored);
// Whether a stored hash is of the old form (SHA-1), to be replaced by token_hash() once the token is known.
bool is_legacy_hash(std::string_view stored);

// A seat's private link, relative to the site: `/#/room/ID?seat=S&token=T` (the rooms show it too).
using lobby::seat_link;
// Gives each seat of a new correspondence room a secret token (its hash checks it; the room keeps the token
// itself while the game is unfinished, to show the links again); returns the seats' private links.
std::array<std::string, 2> issue_seat_tokens(lobby::Room& room);

}  // namespace cinq::server
