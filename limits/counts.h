// Counts of events per key in fixed windows of time (window number = now_ms / window_ms), for limits that a
// cluster's nodes share. Each node counts its own events; the cluster's total for a key (Redis, as its INCR
// or GET answered) is merged in when it is known, and a key's count is then that total plus this node's
// events the total did not hold yet. Without any total (a single node, or Redis away) the count is the
// node's own. Pure logic: no clock, no lock (the caller holds one), no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

namespace cinq::limits {

class WindowCounts {
 public:
  explicit WindowCounts(std::int64_t window_ms) : window_ms_(window_ms) {}

  std::int64_t window_ms() const { return window_ms_; }
  // The number of the window `now_ms` is in, and how long until it ends.
  std::int64_t window(std::int64_t now_ms) const { return now_ms / window_ms_; }
  std::int64_t until_next(std::int64_t now_ms) const { return window_ms_ - now_ms % window_ms_; }

  // The events of `key` in the current window, as best known.
  std::int64_t count(const std::string& key, std::int64_t now_ms) const;
  // One more event of `key` now; returns this node's own count of it in the window (its sequence number, for
  // merged()).
  std::int64_t add(const std::string& key, std::int64_t now_ms);
  // The cluster's total for `key` in window `window`, once it held this node's first `own` events of it (an
  // INCR's answer to the event add() numbered `own`). Ignored if the window has passed or the key was cleared.
  void merged(const std::string& key, std::int64_t window, std::int64_t own, std::int64_t total);
  // The cluster's total for `key` in window `window` as read (a GET): it holds at most this node's events so
  // far, so the count is never less than it.
  void observed(const std::string& key, std::int64_t window, std::int64_t total);
  // The key starts again from nothing (here; the caller clears the cluster's).
  void clear(const std::string& key);
  // Forgets the keys of past windows: the table stays the size of one window's keys.
  void sweep(std::int64_t now_ms);
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::int64_t window = 0;
    std::int64_t own = 0;     // this node's events in the window
    std::int64_t total = 0;   // the cluster's total, as last known
    std::int64_t in_total = 0;  // how many of `own` that total held
  };
  std::int64_t window_ms_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace cinq::limits
