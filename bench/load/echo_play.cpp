// Play mode's baseline against cinq_echo: the same rooms of 2 + S connections, one message in flight per
// room, the two players taking turns as in a game; the echo server answers the sender only. What this
// measures is the transport alone (Beast, sockets, the loopback) at the same number of connections and
// messages in flight, without rules, storage or fan-out.
#include "bench/load/phase.h"
#include "bench/load/rooms.h"

namespace cinq::load {

namespace {

// The size and shape of a Tablut act (room ids are 10 characters).
constexpr std::string_view kMessage = R"({"type":"act","room":"Ab3dE5fG7h","actions":["e3 c3"]})";

class EchoRoom;
using EchoWorkload = RoomWorkload<EchoRoom>;

struct EchoPeer final : ConnListener {
  EchoRoom* room = nullptr;
  int index = 0;  // 0 and 1 take turns sending; the others only hold a connection
  std::shared_ptr<Conn> conn;
  bool opened = false;

  void on_open(Conn&) override;
  void on_message(Conn&, std::string_view text, Clock::time_point at) override;
  void on_close(Conn&, std::string_view why) override;
};

class EchoRoom : public std::enable_shared_from_this<EchoRoom> {
 public:
  EchoRoom(EchoWorkload& w, int slot, std::string) : w_(w), slot_(slot), pacer_(w.options(), w.rng()) {
    const int n = 2 + w.options().spectators;
    for (int i = 0; i < n; ++i) {
      peers_.push_back(std::make_unique<EchoPeer>());
      peers_.back()->room = this;
      peers_.back()->index = i;
    }
  }

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

  void opened(EchoPeer& p) {
    p.opened = true;
    w_.open.fetch_add(1);
    last_activity_ = Clock::now();
    if (++open_count_ < static_cast<int>(peers_.size())) return;
    live_ = true;
    w_.room_live(*this);
    if (w_.going()) schedule();
  }

  void message(EchoPeer& p, Clock::time_point at) {
    last_activity_ = at;
    if (w_.window().contains(at)) w_.stats.received++;
    if (p.index != sender_ || !awaiting_) return;
    awaiting_ = false;
    if (w_.window().contains(at)) {
      w_.stats.count++;
      w_.stats.ack.add(at - sent_at_);
    }
    sender_ = 1 - sender_;
    schedule();
  }

  void closed(EchoPeer& p) {
    const bool was_open = p.opened;
    if (p.opened) w_.open.fetch_sub(1);
    p.opened = false;
    if (!dead_) w_.room_failed(*this, was_open ? "disconnect" : "connect");
  }

 private:
  void schedule() {
    const auto now = Clock::now();
    const auto at = pacer_.book(now);
    if (at <= now) return send();
    w_.loop().after(at - now, [self = weak_from_this()] {
      auto room = self.lock();
      if (room && !room->dead_) room->send();
    });
  }

  void send() {
    awaiting_ = true;
    sent_at_ = Clock::now();
    peers_[sender_]->conn->send(std::string(kMessage));
  }

  EchoWorkload& w_;
  int slot_;
  Pacer pacer_;
  std::vector<std::unique_ptr<EchoPeer>> peers_;
  int open_count_ = 0;
  int sender_ = 0;
  bool awaiting_ = false;
  bool live_ = false;
  bool dead_ = false;
  Clock::time_point sent_at_{};
  Clock::time_point last_activity_{};
};

void EchoPeer::on_open(Conn&) { room->opened(*this); }
void EchoPeer::on_message(Conn&, std::string_view, Clock::time_point at) { room->message(*this, at); }
void EchoPeer::on_close(Conn&, std::string_view) { room->closed(*this); }

}  // namespace

std::unique_ptr<Workload> make_echo_workload(Loop& loop, const WorkloadEnv& env) {
  return std::make_unique<EchoWorkload>(loop, env);
}

}  // namespace cinq::load
