// Limits a cluster's nodes share (limits/rates.h, limits/levels.h): token buckets that pay for the other
// nodes' events as their totals come in, and levels summed over the nodes, each node's own count standing in
// while nothing is heard.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "limits/levels.h"
#include "limits/rates.h"

namespace cinq::limits {
namespace {

constexpr std::int64_t kT0 = 1'700'000'000'000;  // a window of 10 s starts here

// Events of `key` taken at `now` until one is refused (at most `most`); returns how many were taken.
int drain(SharedRates& r, const std::string& key, std::int64_t now, int most = 10'000) {
  int taken = 0;
  while (taken < most && r.take(key, now)) ++taken;
  return taken;
}

TEST_CASE("limits: a shared token bucket alone is a token bucket") {
  REQUIRE(kT0 % 10'000 == 0);
  SharedRates r(10, 20);
  CHECK(drain(r, "a", kT0) == 20);  // the burst
  CHECK_FALSE(r.take("a", kT0 + 50));
  CHECK(drain(r, "a", kT0 + 1000) == 10);  // a second's worth
  CHECK(drain(r, "b", kT0 + 1000) == 20);  // another key has its own
  SharedRates open(0, 0);                  // rate 0: no limit
  CHECK(drain(open, "a", kT0) == 10'000);
}

TEST_CASE("limits: a shared bucket hands its events over in batches and pays for the others' events") {
  SharedRates r(10, 20);
  const std::int64_t w = r.window(kT0);
  CHECK(drain(r, "a", kT0, 5) == 5);
  auto batches = r.unshared(kT0 + 10);
  REQUIRE(batches.size() == 1);
  CHECK(batches[0].key == "a");
  CHECK(batches[0].window == w);
  CHECK(batches[0].own == 5);
  CHECK(batches[0].delta == 5);
  CHECK(r.unshared(kT0 + 20).empty());  // nothing new
  CHECK(drain(r, "a", kT0 + 20, 2) == 2);
  batches = r.unshared(kT0 + 30);
  REQUIRE(batches.size() == 1);
  CHECK(batches[0].own == 7);
  CHECK(batches[0].delta == 2);
  // The first batch's INCRBY answered 9: four events of other nodes came before ours.
  r.merged("a", w, 5, 9, kT0 + 30);
  CHECK(r.tokens("a", kT0 + 30) == doctest::Approx(20 - 7 - 4 + 0.3));
  // The second's answered 14: three more of the others'. An earlier answer coming late changes nothing.
  r.merged("a", w, 7, 14, kT0 + 30);
  CHECK(r.tokens("a", kT0 + 30) == doctest::Approx(20 - 7 - 7 + 0.3));
  r.merged("a", w, 5, 9, kT0 + 30);
  CHECK(r.tokens("a", kT0 + 30) == doctest::Approx(6.3));
  CHECK(drain(r, "a", kT0 + 30) == 6);
  // An answer of another window, or of events this node has not had, is ignored.
  r.merged("a", w - 1, 5, 100, kT0 + 30);
  r.merged("a", w, 50, 100, kT0 + 30);
  CHECK(r.tokens("a", kT0 + 30) == doctest::Approx(0.3));
}

TEST_CASE("limits: a shared bucket goes into debt for late news, at most a burst of it") {
  SharedRates r(10, 20);
  const std::int64_t w = r.window(kT0);
  CHECK(drain(r, "a", kT0) == 20);
  r.unshared(kT0);
  r.merged("a", w, 20, 30, kT0);  // ten others' events let through meanwhile: paid back
  CHECK(r.tokens("a", kT0) == doctest::Approx(-10));
  CHECK_FALSE(r.take("a", kT0 + 1000));  // a second refills the debt only
  CHECK(drain(r, "a", kT0 + 1100) == 1);
  r.unshared(kT0 + 1100);
  r.merged("a", w, 21, 1000, kT0 + 1100);  // a flood elsewhere: the debt stops at a burst
  CHECK(r.tokens("a", kT0 + 1100) == doctest::Approx(-20));
  CHECK(drain(r, "a", kT0 + 1100 + 2100) == 1);  // forgotten within burst / rate seconds
}

TEST_CASE("limits: three nodes sharing one bucket let through about one bucket's worth, not three") {
  // Each node takes a steady 10 events a second of one key for 9 s (rate 5, burst 10), hands its batches over
  // every 100 ms and hears the total at once (one Redis, INCRBY answered in order).
  SharedRates nodes[3] = {SharedRates(5, 10), SharedRates(5, 10), SharedRates(5, 10)};
  std::int64_t total = 0;  // the cluster's count in Redis (one window)
  int taken = 0;
  for (std::int64_t t = 0; t < 9000; t += 10) {
    for (auto& n : nodes) {
      if (t % 100 == 0 && n.take("a", kT0 + t)) ++taken;
      if (t % 100 == 50)
        for (const auto& b : n.unshared(kT0 + t)) {
          total += b.delta;
          n.merged(b.key, b.window, b.own, total, kT0 + t);
        }
    }
  }
  // One node alone takes 10 + 5 * 9 = 55; three unshared buckets would take 3 * 55 = 165.
  CHECK(taken >= 45);
  CHECK(taken <= 80);
}

TEST_CASE("limits: levels are the node's own count plus the others' as last heard") {
  Levels l(3000);
  CHECK(l.level("c:a", kT0) == 0);
  l.add_own("c:a", 1);
  l.add_own("c:a", 1);
  CHECK(l.own("c:a") == 2);
  CHECK(l.level("c:a", kT0) == 2);
  l.heard("c:a", 5, kT0);
  CHECK(l.level("c:a", kT0 + 3000) == 7);
  CHECK(l.fits("c:a", 8, kT0));
  CHECK_FALSE(l.fits("c:a", 7, kT0));
  CHECK(l.fits("c:a", 0, kT0));  // 0: no limit
  // Nothing heard for longer than the news lasts (Redis away): the node's own count alone.
  CHECK(l.level("c:a", kT0 + 3001) == 2);
  CHECK(l.fits("c:a", 3, kT0 + 3001));
  l.add_own("c:a", -5);  // never below nothing
  CHECK(l.own("c:a") == 0);
}

TEST_CASE("limits: levels list their changes for publishing, and what the node holds for its heartbeat") {
  Levels l(3000);
  l.set_own("o:ann", 1);
  l.set_own("c:x", 2);
  l.set_own("o:ann", 2);
  l.set_own("c:y", 0);  // no change: not listed
  auto changed = l.changed();
  REQUIRE(changed.size() == 2);
  CHECK(changed[0] == std::pair<std::string, std::int64_t>{"o:ann", 2});
  CHECK(changed[1] == std::pair<std::string, std::int64_t>{"c:x", 2});
  CHECK(l.changed().empty());
  l.set_own("c:x", 0);
  changed = l.changed();
  REQUIRE(changed.size() == 1);
  CHECK(changed[0].second == 0);  // to be deleted from the node's hash
  auto held = l.held();
  REQUIRE(held.size() == 1);
  CHECK(held[0].first == "o:ann");
  // The sweep forgets what the node holds none of and heard nothing fresh of.
  l.heard("c:z", 4, kT0);
  l.sweep(kT0 + 1000);
  CHECK(l.size() == 2);  // o:ann, and c:z heard lately
  l.sweep(kT0 + 5000);
  CHECK(l.size() == 1);
}

}  // namespace
}  // namespace cinq::limits
