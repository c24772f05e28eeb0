// What the two baseline rooms share (echo_play.cpp, relay_play.cpp): 2 + S peers with one connection each,
// one message in flight per room, paced by the same Pacer; setting up, becoming live, stall detection,
// closing, and the schedule of the next send.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "bench/load/phase.h"
#include "bench/load/rooms.h"

namespace cinq::load {

// Derived: the room type of RoomWorkload<Derived>, with a send() this base may call (befriend it). Peer: its
// ConnListener, with the members `room` (Derived*), `index`, `conn` and `opened`.
template <class Derived, class Peer>
class BaselineRoom : public std::enable_shared_from_this<Derived> {
 public:
  using Workload = RoomWorkload<Derived>;

  int slot() const { return slot_; }
  bool in_setup() const { return !live_; }
  bool stalled(Clock::time_point now) const {
    if (dead_ || (live_ && !w_.going())) return false;  // a live room waiting for go() is quiet on purpose
    return now - last_activity_ > std::chrono::duration<double>(w_.options().stall_s);
  }

  void go() {
    last_activity_ = Clock::now();
    pacer_ = Pacer(w_.options(), w_.rng());  // the offered load starts evenly spread from now
    if (live_ && !awaiting_) schedule();
  }

  void start() {
    last_activity_ = Clock::now();
    for (auto& p : peers_)
      p->conn = Conn::open(w_.loop(), w_.target(), p.get(), kConnectTimeout, w_.next_source());
  }

  void close() {
    dead_ = true;
    for (auto& p : peers_) {
      if (p->opened) w_.open.fetch_sub(1);
      p->opened = false;
      if (p->conn) p->conn->close();
    }
  }

  void closed(Peer& p) {
    const bool was_open = p.opened;
    if (p.opened) w_.open.fetch_sub(1);
    p.opened = false;
    if (!dead_) w_.room_failed(self(), was_open ? "disconnect" : "connect");
  }

 protected:
  BaselineRoom(Workload& w, int slot) : w_(w), slot_(slot), pacer_(w.options(), w.rng()) {
    const int n = 2 + w.options().spectators;
    for (int i = 0; i < n; ++i) {
      peers_.push_back(std::make_unique<Peer>());
      peers_.back()->room = static_cast<Derived*>(this);
      peers_.back()->index = i;
    }
  }

  void mark_open(Peer& p) {
    p.opened = true;
    w_.open.fetch_add(1);
    last_activity_ = Clock::now();
  }

  // Every connection is ready: the room counts as set up, and plays once the phase goes.
  void become_live() {
    live_ = true;
    w_.room_live(self());
    if (w_.going()) schedule();
  }

  // The next send, at the pace asked (at once when unpaced).
  void schedule() {
    const auto now = Clock::now();
    const auto at = pacer_.book(now);
    if (at <= now) return self().send();
    w_.loop().after(at - now, [weak = this->weak_from_this()] {
      auto room = weak.lock();
      if (room && !room->dead_) room->send();
    });
  }

  Derived& self() { return static_cast<Derived&>(*this); }

  Workload& w_;
  int slot_;
  Pacer pacer_;
  std::vector<std::unique_ptr<Peer>> peers_;
  bool awaiting_ = false;
  bool live_ = false;
  bool dead_ = false;
  Clock::time_point last_activity_{};
};

}  // namespace cinq::load
