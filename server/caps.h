// What one player or one address may hold or make: counted here, refused by the commands with a
// clear error, each limit a `cinq serve` option (docs/operations.md, "Limits").
//   - Claims: the rooms that count against a player: open rooms it sits in, unfinished rooms it plays
//     against a bot. Each room states its own claims (RoomActor::update_claims), so the counts follow the
//     rooms as they fill, start, finish, expire or leave memory; a command creating a room claims it first.
//     In a cluster the other nodes' counts are added (server/shared_limits.h: each node's are published).
//   - HourlyQuota: imports per address in the last hour (a sliding window of timestamps).
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cinq::server {

class Claims {
 public:
  enum Kind { open_room = 0, bot_room = 1 };
  using Set = std::vector<std::pair<Kind, std::string>>;  // (kind, player id)

  // A new holder's number (one per RoomActor).
  std::uint64_t new_holder();
  // Claims `kind` for `player` by `holder`, if the player holds fewer than `limit` (0: no limit) of that kind
  // now, with `elsewhere` more held on the other nodes of a cluster; false (and nothing claimed) otherwise.
  // Used by the commands that create a room.
  bool try_claim(std::uint64_t holder, Kind kind, const std::string& player, std::size_t limit,
                 std::size_t elsewhere = 0);
  // Replaces everything `holder` claims (a room after a change).
  void set(std::uint64_t holder, Set claims);
  void drop(std::uint64_t holder) { set(holder, {}); }
  std::size_t count(Kind kind, const std::string& player);
  // Called with a player's new count of a kind at each change, under the claims' lock (so in the order of
  // the changes): it must not call back into Claims. Empty: none.
  using Change = std::function<void(Kind kind, const std::string& player, std::size_t count)>;
  void on_change(Change change);

 private:
  void add(const Set& claims, int sign);  // under the lock
  std::mutex mutex_;
  std::uint64_t holders_ = 0;
  std::unordered_map<std::uint64_t, Set> by_holder_;
  std::unordered_map<std::string, std::array<std::size_t, 2>> counts_;
  Change change_;
};

class HourlyQuota {
 public:
  explicit HourlyQuota(std::size_t per_hour) : per_hour_(per_hour) {}
  // Counts one for `key` if it made fewer than per_hour in the last hour (0: no limit); false otherwise,
  // with `retry_after` set to the seconds until one more is allowed.
  bool take(const std::string& key, std::chrono::steady_clock::time_point now, std::int64_t& retry_after);

 private:
  std::size_t per_hour_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::deque<std::chrono::steady_clock::time_point>> taken_;
};

}  // namespace cinq::server
