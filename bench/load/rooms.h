// A loop's share of the rooms, for both play phases (cinq and the echo baseline): setting them up a few at
// a time, counting them ready, replacing a room that failed or stalled.
#pragma once

#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/load/phase.h"

namespace cinq::load {

inline constexpr auto kConnectTimeout = std::chrono::seconds(10);

// R: a room type with R(RoomWorkload<R>&, int slot, std::string game), start(), close(), go(), slot(),
// in_setup() and stalled(now). A room set up after go() (a replacement) plays at once.
template <class R>
class RoomWorkload final : public Workload {
 public:
  static constexpr int kRoomsInSetup = 16;  // rooms connecting at once per loop: do not flood accept()
  static constexpr auto kReplaceDelay = std::chrono::milliseconds(500);

  RoomWorkload(Loop& loop, const WorkloadEnv& env)
      : loop_(loop), env_(env), rng_(env.options.seed * 7919 + static_cast<std::uint64_t>(env.loop_index)) {}

  void start() override {
    const int n = env_.share(env_.options.rooms);
    rooms_.resize(n);
    counted_.assign(n, false);
    for (int s = 0; s < n; ++s) {
      const int global = env_.loop_index + s * env_.loops;
      games_.push_back(env_.options.games[static_cast<std::size_t>(global) % env_.options.games.size()]);
      waiting_.push_back(s);
    }
    pump();
  }

  void tick(Clock::time_point now) override {
    for (auto& room : rooms_)
      if (room && room->stalled(now)) room_failed(*room, "stalled");
  }

  void go() override {
    going_ = true;
    for (auto& room : rooms_)
      if (room) room->go();
  }
  bool going() const { return going_; }

  void shutdown() override {
    stopped_ = true;
    for (auto& room : rooms_)
      if (room) room->close();
  }

  // A room is set up (its game started, or its connections open): the next one may connect.
  void room_live(R& room) {
    --in_setup_;
    if (!counted_[room.slot()]) {
      counted_[room.slot()] = true;
      ready.fetch_add(1);
    }
    pump();
  }

  // Counts `code`, drops the room and sets up a new one in its slot a little later.
  void room_failed(R& room, const std::string& code) {
    error(code);
    if (room.in_setup()) --in_setup_;
    const int slot = room.slot();
    auto keep = rooms_[slot];  // `room` may be on the stack above us: keep it alive until the timer
    room.close();
    loop_.after(kReplaceDelay, [this, slot, keep] {
      if (stopped_) return;
      waiting_.push_back(slot);
      pump();
    });
  }

  void error(std::string_view code) { stats.errors[std::string(code)]++; }

  Loop& loop() { return loop_; }
  const Options& options() const { return env_.options; }
  const Window& window() const { return env_.window; }
  const Target& target() const { return env_.target; }
  std::mt19937_64& rng() { return rng_; }
  const RelayShape& shape() const { return env_.shape; }
  // Where connection `peer` (0 and 1: the players, then the spectators) of the room in `slot` connects:
  // with --urls, by --placement (rooms round-robin over the URLs, their players on the same URL or on two
  // that follow each other, or each connection on one drawn at random); else the one target.
  const Target& target_for(int slot, int peer) {
    const auto& all = env_.targets;
    if (all.size() < 2) return env_.target;
    const auto room = static_cast<std::size_t>(env_.loop_index + slot * env_.loops);
    const std::uint64_t draw = env_.options.placement == Placement::any ? rng_() : 0;
    return all[place(env_.options.placement, all.size(), room, peer, draw)];
  }
  // The source address for this loop's next connection (round-robin over all loops' connections).
  const std::string& next_source() { return env_.source(env_.loop_index + (connections_++) * env_.loops); }

 private:
  void pump() {
    while (!stopped_ && in_setup_ < kRoomsInSetup && !waiting_.empty()) {
      const int slot = waiting_.front();
      waiting_.pop_front();
      ++in_setup_;
      rooms_[slot] = std::make_shared<R>(*this, slot, games_[slot]);
      rooms_[slot]->start();
    }
  }

  Loop& loop_;
  WorkloadEnv env_;
  std::mt19937_64 rng_;
  std::vector<std::shared_ptr<R>> rooms_;  // by slot
  std::vector<std::string> games_;         // by slot
  std::vector<bool> counted_;              // slot already counted in `ready`
  std::deque<int> waiting_;
  int in_setup_ = 0;
  std::int64_t connections_ = 0;  // opened so far
  bool stopped_ = false;
  bool going_ = false;
};

// Offered-load pacing shared by both play phases: with --turn-rate X over R rooms, each room sends at
// most one message every R/X seconds.
class Pacer {
 public:
  Pacer(const Options& o, std::mt19937_64& rng) {
    if (o.turn_rate <= 0) return;
    interval_ =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.rooms / o.turn_rate));
    // Rooms start at random points of one interval, so the offered load is even from the start.
    next_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                               interval_ * std::uniform_real_distribution<double>(0, 1)(rng));
  }
  // The earliest time the room's next message may go (at least `now`); books that slot.
  Clock::time_point book(Clock::time_point now) {
    if (interval_.count() == 0) return now;
    const auto at = std::max(now, next_);
    next_ = at + interval_;
    return at;
  }

 private:
  Clock::duration interval_{0};
  Clock::time_point next_{};
};

}  // namespace cinq::load
