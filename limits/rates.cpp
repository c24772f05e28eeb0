// Token buckets a cluster's nodes share (rates.h).
#include "limits/rates.h"

#include <algorithm>

namespace cinq::limits {

void SharedRates::refill(Entry& e, std::int64_t now_ms) const {
  const std::int64_t elapsed = std::max<std::int64_t>(0, now_ms - e.last_ms);  // a clock set back adds nothing
  e.tokens = std::min(burst_, e.tokens + static_cast<double>(elapsed) * rate_ / 1000.0);
  e.last_ms = std::max(e.last_ms, now_ms);
}

bool SharedRates::take(const std::string& key, std::int64_t now_ms) {
  if (rate_ <= 0) return true;
  auto [it, fresh] = entries_.try_emplace(key);
  Entry& e = it->second;
  if (fresh) {
    e.tokens = burst_;
    e.last_ms = now_ms;
    e.window = window(now_ms);
  }
  refill(e, now_ms);
  if (e.window != window(now_ms)) {  // a new window: its count starts from nothing, here and in the cluster
    e.window = window(now_ms);
    e.own = e.shared = e.others = 0;
  }
  if (e.tokens < 1) return false;
  e.tokens -= 1;
  ++e.own;
  if (!e.listed) {
    e.listed = true;
    pending_.push_back(key);
  }
  return true;
}

std::vector<SharedRates::Batch> SharedRates::unshared(std::int64_t now_ms) {
  std::vector<Batch> out;
  const std::int64_t current = window(now_ms);
  for (const std::string& key : pending_) {
    auto it = entries_.find(key);
    if (it == entries_.end()) continue;
    Entry& e = it->second;
    e.listed = false;
    if (e.window != current || e.own == e.shared) continue;
    out.push_back(Batch{key, e.window, e.own, e.own - e.shared});
    e.shared = e.own;
  }
  pending_.clear();
  return out;
}

void SharedRates::merged(const std::string& key, std::int64_t window, std::int64_t own, std::int64_t total,
                         std::int64_t now_ms) {
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.window != window || own > it->second.own) return;
  Entry& e = it->second;
  const std::int64_t others = total - own;  // the total holds exactly our first `own` events
  if (others <= e.others) return;  // nothing new (or an earlier answer, come late)
  refill(e, now_ms);
  e.tokens = std::max(-burst_, e.tokens - static_cast<double>(others - e.others));
  e.others = others;
}

double SharedRates::tokens(const std::string& key, std::int64_t now_ms) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) return burst_;
  Entry e = it->second;
  refill(e, now_ms);
  return e.tokens;
}

void SharedRates::sweep(std::int64_t now_ms) {
  const std::int64_t current = window(now_ms);
  std::erase_if(entries_, [&](const auto& kv) {
    Entry e = kv.second;
    // A key of the current window stays: its count here must go on matching the cluster's.
    if (e.listed || e.window == current) return false;
    refill(e, now_ms);
    return e.tokens >= burst_;
  });
}

}  // namespace cinq::limits
