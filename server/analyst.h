// Analyses of finished games (analysis/analysis.h) for the server: threads of their own, never the network's,
// the bots' or the workers' (an analysis searches every turn of a game: seconds to minutes), taken one player at
// a time (each player's requests wait in its own line, and the threads serve the lines in turn), at most
// `per_player` waiting or running for one player, at most `max_queue` waiting in all.
//
// A request names a game and the settings; the analysis is read from the store if it was computed before
// (computed once: the store's analyses table), else computed from the game's stored record and stored.
// Everyone who asked for the same game and settings meanwhile is answered by the one computation. Answers go
// to the connections that asked, as `analysis` messages (docs/protocol.md, "Analysis"): `queued`, `running`
// with the turns done (at most twice a second), then `done` with the analysis, or an `error`.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "analysis/analysis.h"
#include "server/fair_queue.h"
#include "server/net/transport.h"

namespace cinq::store {
class Store;
}

namespace cinq::server {

struct Metrics;

struct AnalystConfig {
  int threads = 1;              // `cinq serve --analysis-threads N` (0: no analyses)
  std::size_t per_player = 2;   // `--analyses-per-player N`: waiting or running, per player
  std::size_t max_queue = 64;   // waiting in all
  int depth = analysis::kDefaultDepth;  // `--analysis-depth D`: the depth of a request that names none
};

class Analyst {
 public:
  Analyst(AnalystConfig config, store::Store& store, Metrics& metrics);
  ~Analyst();  // stop()
  Analyst(const Analyst&) = delete;
  Analyst& operator=(const Analyst&) = delete;

  // Asks for the analysis of game `game_id` with `settings` (checked) for `owner` (a player id), answered to
  // `c` with `ref`. Call it off the network threads (it may read the store). Refusals, answered at once as an
  // `error`: analysis_limit (the player's per_player reached), busy (the queue is full, or stopped).
  void request(const std::string& game_id, const analysis::Settings& settings, const std::string& owner,
               const std::shared_ptr<net::Connection>& c, const std::string& ref);
  // Cancels what runs (its waiters get nothing more), drops what waits, joins the threads. Idempotent.
  void stop();
  int default_depth() const { return config_.depth; }

 private:
  struct Waiter {
    std::weak_ptr<net::Connection> connection;
    std::string ref;
  };
  struct Task {
    std::string game_id;
    analysis::Settings settings;
    std::string owner;
    std::vector<Waiter> waiters;
  };
  void run();
  void compute(const std::shared_ptr<Task>& task);
  // Sends `message` (members of an `analysis` message, or an error's code and message) to the task's waiters.
  void tell(Task& task, const nlohmann::json& message);
  void finish(const std::shared_ptr<Task>& task);  // out of the in-flight map and the owner's count

  AnalystConfig config_;
  store::Store& store_;
  Metrics& metrics_;
  std::mutex mutex_;
  std::condition_variable wake_;
  FairQueue<std::shared_ptr<Task>> waiting_;  // by owner, taken in turn
  std::map<std::string, std::shared_ptr<Task>> in_flight_;  // by game and settings key
  std::unordered_map<std::string, std::size_t> per_owner_;   // waiting or running
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> threads_;
};

}  // namespace cinq::server
