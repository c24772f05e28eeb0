// Token buckets per key (messages or HTTP requests a second from one address) that a cluster's nodes share.
// Each node keeps a bucket per key and takes a token for each of its own events; its events are counted in
// fixed windows and shared in batches (the glue sends each batch as an INCRBY, whose answer is the cluster's
// total of the window), and the other nodes' events a total reveals are taken from the bucket too, so that
// every node's bucket empties at the cluster's pace: the key gets about one bucket's worth over the whole
// cluster, not one per node. A bucket may go into debt (down to -burst) for the events of others it learns
// of late, so that what the nodes let through before hearing of each other is paid back; the floor forgets a
// past flood within burst / rate seconds. Without any total (a single node, or Redis away) each bucket is
// the node's own. Pure logic: no clock, no lock (the caller holds one), no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace cinq::limits {

class SharedRates {
 public:
  // `rate` tokens a second, at most `burst`; rate 0: no limit. Events are shared by windows of `window_ms`.
  SharedRates(double rate, double burst, std::int64_t window_ms = 10'000)
      : rate_(rate), burst_(burst), window_ms_(window_ms) {}

  double rate() const { return rate_; }
  std::int64_t window(std::int64_t now_ms) const { return now_ms / window_ms_; }
  std::int64_t window_ms() const { return window_ms_; }

  // One event of `key` now: true (a token taken, the event counted for sharing) or false (refused).
  bool take(const std::string& key, std::int64_t now_ms);

  // This node's events not shared yet, per key, in the current window: `delta` new ones, and `own`, this
  // node's total in the window once the cluster's count holds them (for merged()).
  struct Batch {
    std::string key;
    std::int64_t window = 0;
    std::int64_t own = 0;
    std::int64_t delta = 0;
  };
  // Marks them shared. Events of a window that has passed are dropped (their key's count has moved on).
  std::vector<Batch> unshared(std::int64_t now_ms);
  // The cluster's total of `key` in `window` once it held this node's first `own` events of it (the INCRBY's
  // answer to the batch that brought `own`): the events of the other nodes it holds and the bucket has not
  // paid for yet are taken from it now.
  void merged(const std::string& key, std::int64_t window, std::int64_t own, std::int64_t total,
              std::int64_t now_ms);

  // Tokens of `key` now (full for a key not seen): for the tests and the metrics.
  double tokens(const std::string& key, std::int64_t now_ms) const;
  // Forgets the keys of past windows whose bucket is full again: they are as new.
  void sweep(std::int64_t now_ms);
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    double tokens = 0;
    std::int64_t last_ms = 0;
    std::int64_t window = 0;
    std::int64_t own = 0;     // this node's events in the window
    std::int64_t shared = 0;  // how many of them were handed to unshared()
    std::int64_t others = 0;  // the other nodes' events in the window the bucket has paid for
    bool listed = false;      // in pending_
  };
  void refill(Entry& e, std::int64_t now_ms) const;
  double rate_, burst_;
  std::int64_t window_ms_;
  std::unordered_map<std::string, Entry> entries_;
  std::vector<std::string> pending_;  // keys with events not shared yet
};

}  // namespace cinq::limits
