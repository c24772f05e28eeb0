// The login throttle (login_throttle.h).
#include "limits/login_throttle.h"

#include <algorithm>
#include <cctype>

namespace cinq::limits {

namespace {
std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}
}  // namespace

const char* limit_name(Limit limit) {
  switch (limit) {
    case Limit::none: return "none";
    case Limit::address: return "address";
    case Limit::account_address: return "account_address";
    case Limit::account: return "account";
    case Limit::device: return "device";
  }
  return "none";
}

LoginThrottle::LoginThrottle(LoginPolicy policy) : policy_(policy), counts_(policy.window_ms) {}

AttemptKeys LoginThrottle::keys(const Attempt& a) const {
  const std::string account = lower(a.account);
  AttemptKeys k;
  k.address = "addr:" + a.address;
  k.account_address = "acad:" + account + ":" + a.address;
  k.account = "acct:" + account;
  k.device = "acdv:" + account + ":" + (a.holds_token ? std::string("token") : a.device);
  return k;
}

bool LoginThrottle::knows(const std::string& account, const std::string& entry, std::int64_t now_ms) const {
  if (entry.empty() || entry == "@") return false;
  auto it = known_.find(lower(account));
  if (it == known_.end()) return false;
  for (const auto& [what, seen] : it->second)
    if (what == entry) return now_ms - seen < policy_.remember_ms;
  return false;
}

bool LoginThrottle::trusted(const Attempt& a, std::int64_t now_ms) const {
  return a.holds_token || knows(a.account, a.device, now_ms);
}

void LoginThrottle::remember(const std::string& account, const std::string& entry, std::int64_t seen_ms) {
  if (entry.empty() || entry == "@") return;
  auto& list = known_[lower(account)];
  std::erase_if(list, [&entry](const auto& e) { return e.first == entry; });
  auto at = std::find_if(list.begin(), list.end(), [seen_ms](const auto& e) { return e.second > seen_ms; });
  list.insert(at, {entry, seen_ms});
  if (list.size() > policy_.known_per_account)
    list.erase(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(list.size() - policy_.known_per_account));
}

void LoginThrottle::add(const std::string& key, std::int64_t now_ms, Changes* changes) {
  const std::int64_t own = counts_.add(key, now_ms);
  if (changes) changes->added.emplace_back(key, own);
}

Verdict LoginThrottle::admit(const Attempt& a, std::int64_t now_ms, Changes* changes) {
  const AttemptKeys k = keys(a);
  const std::int64_t wait = counts_.until_next(now_ms);
  if (trusted(a, now_ms)) {
    if (counts_.count(k.device, now_ms) >= policy_.per_account_address) return {Limit::device, wait};
    return {};
  }
  if (counts_.count(k.address, now_ms) >= policy_.per_address) return {Limit::address, wait};
  if (counts_.count(k.account_address, now_ms) >= policy_.per_account_address)
    return {Limit::account_address, wait};
  if (counts_.count(k.account, now_ms) >= policy_.per_account &&
      !knows(a.account, address_entry(a.address), now_ms))
    return {Limit::account, wait};
  add(k.address, now_ms, changes);
  return {};
}

void LoginThrottle::failed(const Attempt& a, std::int64_t now_ms, Changes* changes) {
  const AttemptKeys k = keys(a);
  add(k.account, now_ms, changes);
  add(trusted(a, now_ms) ? k.device : k.account_address, now_ms, changes);
}

void LoginThrottle::succeeded(const Attempt& a, std::int64_t now_ms, Changes* changes) {
  const AttemptKeys k = keys(a);
  for (const std::string& key : {k.account_address, k.device}) {
    counts_.clear(key);
    if (changes) changes->cleared.push_back(key);
  }
  const std::string account = lower(a.account);
  for (const std::string& entry : {a.device, address_entry(a.address)}) {
    if (entry.empty() || entry == "@") continue;
    remember(account, entry, now_ms);
    if (changes) changes->known.emplace_back(account, entry);
  }
}

void LoginThrottle::sweep(std::int64_t now_ms) {
  counts_.sweep(now_ms);
  for (auto it = known_.begin(); it != known_.end();) {
    std::erase_if(it->second, [&](const auto& e) { return now_ms - e.second >= policy_.remember_ms; });
    it = it->second.empty() ? known_.erase(it) : std::next(it);
  }
}

}  // namespace cinq::limits
