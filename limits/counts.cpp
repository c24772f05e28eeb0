// Counts in fixed windows, merged with a cluster's totals (counts.h).
#include "limits/counts.h"

#include <algorithm>

namespace cinq::limits {

std::int64_t WindowCounts::count(const std::string& key, std::int64_t now_ms) const {
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.window != window(now_ms)) return 0;
  const Entry& e = it->second;
  return std::max(e.own, e.total + (e.own - e.in_total));
}

std::int64_t WindowCounts::add(const std::string& key, std::int64_t now_ms) {
  Entry& e = entries_[key];
  if (e.window != window(now_ms)) e = Entry{window(now_ms)};
  return ++e.own;
}

void WindowCounts::merged(const std::string& key, std::int64_t window, std::int64_t own, std::int64_t total) {
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.window != window || own > it->second.own) return;
  Entry& e = it->second;
  if (own >= e.in_total) {  // answers come in order; a late one of an earlier event says less
    e.in_total = own;
    e.total = std::max(total, own);
  }
}

void WindowCounts::observed(const std::string& key, std::int64_t window, std::int64_t total) {
  Entry& e = entries_[key];
  if (e.window != window) e = Entry{window};
  // The total read may or may not hold this node's events still on their way: taken as holding them all,
  // the count is total (never less than own), which errs on the side of the limit by those few at most.
  if (total >= e.total + (e.own - e.in_total)) {
    e.total = total;
    e.in_total = e.own;
  }
}

void WindowCounts::clear(const std::string& key) { entries_.erase(key); }

void WindowCounts::sweep(std::int64_t now_ms) {
  const std::int64_t current = window(now_ms);
  std::erase_if(entries_, [current](const auto& kv) { return kv.second.window != current; });
}

}  // namespace cinq::limits
