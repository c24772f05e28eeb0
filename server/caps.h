// What one player or one address may hold or make: counted here, refused by the commands with a
// clear error, each limit a `cinq serve` option (docs/operations.md, "Limits").
//   - Claims: the rooms that count against a player: open rooms it sits in, unfinished rooms it plays
//     against a bot. Each room states its own claims (RoomActor::update_claims), so the counts follow the
//     rooms as they fill, start, finish, expire or leave memory; a command creating a room claims it first.
//   - HourlyQuota: imports per address in the last hour (a sliding window of timestamps).
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
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
  // now; false (and nothing claimed) otherwise. Used by the commands that create a room.
  bool try_claim(std::uint64_t holder, Kind kind, const std::string& player, std::size_t limit);
  // Replaces everything `holder` claims (a room after a change).
  void set(std::uint64_t holder, Set claims);
  void drop(std::uint64_t holder) { set(holder, {}); }
  std::size_t count(Kind kind, const std::string& player);

 private:
  void add(const Set& claims, int sign);  // under the lock
  std::mutex mutex_;
  std::uint64_t holders_ = 0;
  std::unordered_map<std::uint64_t, Set> by_holder_;
  std::unordered_map<std::string, std::array<std::size_t, 2>> counts_;
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
