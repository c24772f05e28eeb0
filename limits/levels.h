// Levels a cluster's nodes each hold a part of: how many connections an address has open, how many open
// rooms or games against the computer a player has. Not rates in a window but counts now, so each node
// publishes its own (the glue: a hash per node in Redis, expiring unless the node's heartbeat renews it, so
// that a dead node's part goes with it) and learns the sum of the others'. A key's level is this node's own
// count plus the others' as last heard, if heard within `max_age_ms`; older news is dropped (Redis away),
// and the level is then the node's own count (at most N times a limit over N nodes). Pure logic: no clock,
// no lock (the caller holds one), no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace cinq::limits {

class Levels {
 public:
  explicit Levels(std::int64_t max_age_ms) : max_age_ms_(max_age_ms) {}

  // This node's own count of `key` (set, or moved by `delta`); a change is listed for publishing.
  void set_own(const std::string& key, std::int64_t count);
  void add_own(const std::string& key, std::int64_t delta);
  std::int64_t own(const std::string& key) const;
  // The other nodes' sum for `key`, as heard now.
  void heard(const std::string& key, std::int64_t others, std::int64_t now_ms);
  // The others' sum as last heard (0 if not within max_age_ms).
  std::int64_t others(const std::string& key, std::int64_t now_ms) const;
  std::int64_t level(const std::string& key, std::int64_t now_ms) const { return own(key) + others(key, now_ms); }
  // Whether one more fits under `limit` (0: no limit).
  bool fits(const std::string& key, std::int64_t limit, std::int64_t now_ms) const {
    return limit <= 0 || level(key, now_ms) < limit;
  }

  // The own counts changed since the last call (key, count; 0: none left), in the order of their changes.
  std::vector<std::pair<std::string, std::int64_t>> changed();
  // Every key this node holds some of (own > 0), with its count: what its heartbeat publishes again.
  std::vector<std::pair<std::string, std::int64_t>> held() const;
  // Forgets the keys this node holds none of and has heard nothing fresh of.
  void sweep(std::int64_t now_ms);
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::int64_t own = 0;
    std::int64_t others = 0;
    std::int64_t heard_ms = -1;  // -1: never
  };
  std::int64_t max_age_ms_;
  std::unordered_map<std::string, Entry> entries_;
  std::vector<std::string> changed_;
  std::unordered_set<std::string> listed_;
};

}  // namespace cinq::limits
