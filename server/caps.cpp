#include "server/caps.h"

#include <algorithm>

namespace cinq::server {

std::uint64_t Claims::new_holder() {
  std::lock_guard lock(mutex_);
  return ++holders_;
}

void Claims::add(const Set& claims, int sign) {
  for (const auto& [kind, player] : claims) {
    if (sign > 0) {
      const std::size_t n = ++counts_[player][kind];
      if (change_) change_(kind, player, n);
      continue;
    }
    auto it = counts_.find(player);
    if (it == counts_.end()) continue;
    if (it->second[kind] > 0) --it->second[kind];
    const std::size_t n = it->second[kind];
    if (it->second[0] == 0 && it->second[1] == 0) counts_.erase(it);
    if (change_) change_(kind, player, n);
  }
}

void Claims::on_change(Change change) {
  std::lock_guard lock(mutex_);
  change_ = std::move(change);
}

bool Claims::try_claim(std::uint64_t holder, Kind kind, const std::string& player, std::size_t limit,
                       std::size_t elsewhere) {
  std::lock_guard lock(mutex_);
  auto it = counts_.find(player);
  const std::size_t here = it == counts_.end() ? 0 : it->second[kind];
  if (limit > 0 && here + elsewhere >= limit) return false;
  Set& mine = by_holder_[holder];
  if (std::find(mine.begin(), mine.end(), std::pair{kind, player}) != mine.end()) return true;
  mine.emplace_back(kind, player);
  add({{kind, player}}, +1);
  return true;
}

void Claims::set(std::uint64_t holder, Set claims) {
  std::lock_guard lock(mutex_);
  auto it = by_holder_.find(holder);
  if (it != by_holder_.end()) {
    add(it->second, -1);
    by_holder_.erase(it);
  }
  if (claims.empty()) return;
  add(claims, +1);
  by_holder_.emplace(holder, std::move(claims));
}

std::size_t Claims::count(Kind kind, const std::string& player) {
  std::lock_guard lock(mutex_);
  auto it = counts_.find(player);
  return it == counts_.end() ? 0 : it->second[kind];
}

bool HourlyQuota::take(const std::string& key, std::chrono::steady_clock::time_point now, std::int64_t& retry_after) {
  if (per_hour_ == 0) return true;
  constexpr auto kHour = std::chrono::hours(1);
  std::lock_guard lock(mutex_);
  if (taken_.size() > 4096)  // forget the addresses with nothing in the last hour
    std::erase_if(taken_, [&](const auto& entry) { return entry.second.empty() || now - entry.second.back() >= kHour; });
  auto& times = taken_[key];
  while (!times.empty() && now - times.front() >= kHour) times.pop_front();
  if (times.size() >= per_hour_) {
    retry_after = std::chrono::duration_cast<std::chrono::seconds>(times.front() + kHour - now).count() + 1;
    return false;
  }
  times.push_back(now);
  return true;
}

}  // namespace cinq::server
