// Counters and latency histograms for GET /metrics, in the Prometheus text format. Lock-free on the hot path
// (atomics); the per-code error counts take a small mutex.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace cinq::server {

// A latency histogram with fixed buckets (seconds), as Prometheus expects: cumulative on output.
class Histogram {
 public:
  static constexpr std::array<double, 12> kBounds{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                  0.05,   0.1,   0.25,   0.5,   1.0,  2.5};
  void observe(double seconds);
  std::string text(const std::string& name, const std::string& help) const;

 private:
  std::array<std::atomic<std::uint64_t>, kBounds.size() + 1> counts_{};
  std::atomic<std::uint64_t> sum_us_{0};
  std::atomic<std::uint64_t> count_{0};
};

struct Metrics {
  std::atomic<std::int64_t> turns_accepted{0};  // `act` messages applied
  std::atomic<std::int64_t> turns_rejected{0};  // `act` messages refused (illegal, out of turn, ...)
  std::atomic<std::int64_t> games_finished{0};
  std::atomic<std::int64_t> store_failures{0};
  std::atomic<std::int64_t> players_created{0};
  std::atomic<std::int64_t> rate_limited{0};
  std::atomic<std::int64_t> login_throttled{0};  // login and password attempts refused by the login throttle
  Histogram act_latency;                 // from an `act` message's arrival to its event leaving for the room
  Histogram commit_latency;              // one commit (a group of saves), on the store's thread
  std::atomic<std::int64_t> commits{0};  // transactions committed
  std::atomic<std::int64_t> rows_committed{0};  // game rows they held
  // Computer opponents (server/bot_runner.h)
  std::atomic<std::int64_t> bot_turns{0};          // turns chosen by the bot threads
  std::atomic<std::int64_t> bot_turns_dropped{0};  // chosen, but the position had changed meanwhile
  Histogram bot_think;                             // one choose_turn, on a bot thread
  std::atomic<std::int64_t> bots_busy{0};          // bot threads thinking now
  std::atomic<std::int64_t> bots_queued{0};        // bot turns waiting for a thread
  std::atomic<std::int64_t> hints{0};              // hints given (games against the computer)
  // Analyses of finished games (server/analyst.h)
  std::atomic<std::int64_t> analyses{0};         // computed and stored
  std::atomic<std::int64_t> analyses_busy{0};    // computing now
  std::atomic<std::int64_t> analyses_queued{0};  // waiting for a thread
  // Blocking work done on a network thread (note_blocking): a store read, a whole record's replay, an
  // import. Stays 0 when such work all runs on the workers (server/workers.h).
  std::atomic<std::int64_t> blocking_on_network{0};
  // Limits (services.h RoomLimits): refusals, and open rooms aborted for nobody taking them up.
  std::atomic<std::int64_t> refused_open_rooms{0};
  std::atomic<std::int64_t> refused_bot_rooms{0};
  std::atomic<std::int64_t> refused_imports{0};
  std::atomic<std::int64_t> rooms_expired{0};

  // Mail (docs/mail.md): mails queued in the outbox (by this node), sent, deferred by a temporary failure,
  // bounced (refused for good), skipped (the account's settings), and mails received by what became of them (played, duplicate, refused, ...).
  std::atomic<std::int64_t> mail_queued{0};
  std::atomic<std::int64_t> mail_sent{0};
  std::atomic<std::int64_t> mail_deferred{0};
  std::atomic<std::int64_t> mail_bounced{0};
  std::atomic<std::int64_t> mail_skipped{0};  // not sent: the account's settings do not want that kind
  void count_mail_in(const std::string& outcome);
  std::string mail_text() const;

  void count_error(const std::string& code);
  std::string errors_text() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::int64_t> errors_;
  std::map<std::string, std::int64_t> mail_in_;
};

// Called by every place in server/ that reads the store, replays a whole record (Record::read,
// lobby::Room::restore, Room::from_record, Room::play_log) or imports one, just before it does: counts it in
// `blocking_on_network` if this is a network thread (net::on_network_thread()). A room playing one turn on
// its strand is the room's own work and is not counted.
void note_blocking(Metrics& metrics);

}  // namespace cinq::server
