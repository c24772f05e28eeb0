// The login throttle and its counts (limits/): windows, a cluster's totals merged in, and who is let
// through — above all, that strangers guessing a password never keep its owner out.
#include <doctest/doctest.h>

#include <string>

#include "limits/counts.h"
#include "limits/login_throttle.h"

namespace cinq::limits {
namespace {

constexpr std::int64_t kT0 = 1'700'000'100'000;  // a window starts here (a multiple of 5 minutes)
constexpr std::int64_t kWindow = 5 * 60 * 1000;

Attempt from(const std::string& address, const std::string& device = {}, const std::string& account = "annie") {
  return Attempt{account, address, device, false};
}

// `n` wrong passwords, each admitted first; returns how many were admitted.
int guess(LoginThrottle& t, const Attempt& a, int n, std::int64_t now) {
  int admitted = 0;
  for (int i = 0; i < n; ++i) {
    if (!t.admit(a, now).admitted()) continue;
    ++admitted;
    t.failed(a, now);
  }
  return admitted;
}

TEST_CASE("limits: counts in fixed windows, with the cluster's totals merged in") {
  REQUIRE(kT0 % kWindow == 0);
  WindowCounts c(kWindow);
  CHECK(c.count("k", kT0) == 0);
  CHECK(c.add("k", kT0) == 1);
  CHECK(c.add("k", kT0 + 10) == 2);
  CHECK(c.count("k", kT0 + 20) == 2);
  CHECK(c.until_next(kT0 + 20) == kWindow - 20);
  // The cluster's INCR answered 7 for this node's first event: 5 others, then our second one on its way.
  c.merged("k", c.window(kT0), 1, 7);
  CHECK(c.count("k", kT0) == 8);
  c.merged("k", c.window(kT0), 2, 9);  // the second answered: 9 in all
  CHECK(c.count("k", kT0) == 9);
  c.merged("k", c.window(kT0), 1, 3);  // a late, smaller answer changes nothing
  CHECK(c.count("k", kT0) == 9);
  // A read of a key this node never counted.
  c.observed("other", c.window(kT0), 12);
  CHECK(c.count("other", kT0) == 12);
  c.observed("other", c.window(kT0), 4);  // never less than known
  CHECK(c.count("other", kT0) == 12);
  // The next window starts from nothing; a total of a past window is ignored.
  CHECK(c.count("k", kT0 + kWindow) == 0);
  c.merged("k", c.window(kT0) - 1, 1, 50);
  CHECK(c.add("k", kT0 + kWindow) == 1);
  CHECK(c.count("k", kT0 + kWindow) == 1);
  c.sweep(kT0 + kWindow);
  CHECK(c.size() == 1);
  c.clear("k");
  CHECK(c.count("k", kT0 + kWindow) == 0);
}

TEST_CASE("limits: guesses from one address are refused, the owner from another is not") {
  LoginThrottle t;
  // 100 wrong passwords from 127.0.0.1: five are tried, the rest refused (that account from that address).
  CHECK(guess(t, from("127.0.0.1"), 100, kT0) == 5);
  Verdict v = t.admit(from("127.0.0.1"), kT0 + 1000);
  CHECK(v.limit == Limit::account_address);
  CHECK(v.retry_ms == kWindow - 1000);
  // The owner, from another address and a browser never seen: let through, and it logs in.
  const Attempt owner = from("127.0.0.2");
  REQUIRE(t.admit(owner, kT0 + 2000).admitted());
  t.succeeded(owner, kT0 + 2000);
  // Other accounts from the guessing address go on until the address's own limit.
  int others = 0;
  for (int i = 0; i < 30; ++i) others += guess(t, from("127.0.0.1", "", "user" + std::to_string(i)), 1, kT0 + 3000);
  CHECK(others == 20 - 5);
  CHECK(t.admit(from("127.0.0.1", "", "bob"), kT0 + 3000).limit == Limit::address);
  // The next window forgives.
  CHECK(t.admit(from("127.0.0.1"), kT0 + kWindow).admitted());
}

TEST_CASE("limits: guessing from many addresses is slowed, never the owner's known browser or address") {
  LoginThrottle t;
  // The owner logged in once from home, with its browser.
  const Attempt home = from("10.0.0.7", "browser-of-annie");
  REQUIRE(t.admit(home, kT0).admitted());
  t.succeeded(home, kT0);
  CHECK(t.trusted(home, kT0 + 1));
  CHECK(t.knows("ANNIE", LoginThrottle::address_entry("10.0.0.7"), kT0 + 1));
  // Five guesses from each of ten addresses: the account's limit (20) stops the rest.
  int admitted = 0;
  for (int i = 0; i < 10; ++i) admitted += guess(t, from("192.0.2." + std::to_string(i)), 5, kT0 + kWindow);
  CHECK(admitted == 20);
  const std::int64_t later = kT0 + kWindow + 1000;
  CHECK(t.admit(from("192.0.2.99"), later).limit == Limit::account);
  CHECK(t.admit(from("192.0.2.99", "a-stranger's-browser"), later).limit == Limit::account);
  // The owner's browser, from a new address, and the owner's known address, with a new browser: let through.
  CHECK(t.admit(from("198.51.100.1", "browser-of-annie"), later).admitted());
  CHECK(t.admit(from("10.0.0.7", "new-browser"), later).admitted());
  // A connection that holds the account's token, from anywhere.
  Attempt token = from("198.51.100.2");
  token.holds_token = true;
  CHECK(t.admit(token, later).admitted());
  // The owner's browser is not refused for its address's flood either.
  for (int i = 0; i < 50; ++i) guess(t, from("198.51.100.1", "", "x" + std::to_string(i)), 1, later);
  CHECK(t.admit(from("198.51.100.1", "bob's-browser", "bob"), later).limit == Limit::address);
  CHECK(t.admit(from("198.51.100.1", "browser-of-annie"), later).admitted());
  // But a known browser is held to its own five wrong passwords (a stolen cookie guesses no more).
  CHECK(guess(t, from("198.51.100.1", "browser-of-annie"), 9, later) == 5);
  CHECK(t.admit(from("198.51.100.1", "browser-of-annie"), later).limit == Limit::device);
  // A good password from it clears its count; the account's count stays.
  t.succeeded(from("198.51.100.1", "browser-of-annie"), later);
  CHECK(t.admit(from("198.51.100.1", "browser-of-annie"), later).admitted());
  CHECK(t.admit(from("192.0.2.98"), later).limit == Limit::account);
}

TEST_CASE("limits: the changes a cluster shares, and forgetting") {
  LoginPolicy p;
  p.remember_ms = 10 * kWindow;
  p.known_per_account = 2;
  LoginThrottle t(p);
  Changes ch;
  const Attempt a = from("127.0.0.1", "dev1");
  REQUIRE(t.admit(a, kT0, &ch).admitted());
  t.failed(a, kT0, &ch);
  REQUIRE(ch.added.size() == 3);
  CHECK(ch.added[0] == std::pair<std::string, std::int64_t>{"addr:127.0.0.1", 1});
  CHECK(ch.added[1].first == "acct:annie");
  CHECK(ch.added[2].first == "acad:annie:127.0.0.1");
  t.succeeded(a, kT0, &ch);
  CHECK(ch.cleared.size() == 2);
  REQUIRE(ch.known.size() == 2);
  CHECK(ch.known[0] == std::pair<std::string, std::string>{"annie", "dev1"});
  CHECK(ch.known[1] == std::pair<std::string, std::string>{"annie", "@127.0.0.1"});
  // Known from another node's login; at most two entries, the oldest going first.
  t.remember("Annie", "dev2", kT0 + 5);
  CHECK(t.knows("annie", "dev2", kT0 + 6));
  CHECK(!t.knows("annie", "dev1", kT0 + 6));
  CHECK(t.knows("annie", "@127.0.0.1", kT0 + 6));
  // Unseen for remember_ms: forgotten.
  CHECK(!t.knows("annie", "dev2", kT0 + 5 + 10 * kWindow));
  t.sweep(kT0 + 20 * kWindow);
  CHECK(t.counts().size() == 0);
  CHECK(!t.knows("annie", "@127.0.0.1", kT0 + 20 * kWindow));
  CHECK(std::string(limit_name(Limit::account_address)) == "account_address");
}

}  // namespace
}  // namespace cinq::limits
