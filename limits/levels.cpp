// Levels a cluster's nodes each hold a part of (levels.h).
#include "limits/levels.h"

#include <algorithm>

namespace cinq::limits {

void Levels::set_own(const std::string& key, std::int64_t count) {
  Entry& e = entries_[key];
  count = std::max<std::int64_t>(0, count);
  if (e.own == count) return;
  e.own = count;
  if (listed_.insert(key).second) changed_.push_back(key);
}

void Levels::add_own(const std::string& key, std::int64_t delta) { set_own(key, own(key) + delta); }

std::int64_t Levels::own(const std::string& key) const {
  auto it = entries_.find(key);
  return it == entries_.end() ? 0 : it->second.own;
}

void Levels::heard(const std::string& key, std::int64_t others, std::int64_t now_ms) {
  Entry& e = entries_[key];
  e.others = std::max<std::int64_t>(0, others);
  e.heard_ms = now_ms;
}

std::int64_t Levels::others(const std::string& key, std::int64_t now_ms) const {
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.heard_ms < 0 || now_ms - it->second.heard_ms > max_age_ms_) return 0;
  return it->second.others;
}

std::vector<std::pair<std::string, std::int64_t>> Levels::changed() {
  std::vector<std::pair<std::string, std::int64_t>> out;
  out.reserve(changed_.size());
  for (const std::string& key : changed_) out.emplace_back(key, own(key));
  changed_.clear();
  listed_.clear();
  return out;
}

std::vector<std::pair<std::string, std::int64_t>> Levels::held() const {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const auto& [key, e] : entries_)
    if (e.own > 0) out.emplace_back(key, e.own);
  return out;
}

void Levels::sweep(std::int64_t now_ms) {
  std::erase_if(entries_, [&](const auto& kv) {
    const Entry& e = kv.second;
    return e.own == 0 && !listed_.count(kv.first) && (e.heard_ms < 0 || now_ms - e.heard_ms > max_age_ms_);
  });
}

}  // namespace cinq::limits
