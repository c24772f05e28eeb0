// Play mode's baseline against cinq_echo: the same rooms of 2 + S connections, one message in flight per
// room, the two players taking turns as in a game; the echo server answers the sender only. What this
// measures is the transport alone (Beast, sockets, the loopback) at the same number of connections and
// messages in flight, without rules, storage or fan-out.
#include "bench/load/baseline_room.h"
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

class EchoRoom final : public BaselineRoom<EchoRoom, EchoPeer> {
 public:
  EchoRoom(EchoWorkload& w, int slot, std::string) : BaselineRoom(w, slot) {}

  void opened(EchoPeer& p) {
    mark_open(p);
    if (++open_count_ == static_cast<int>(peers_.size())) become_live();
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

 private:
  friend class BaselineRoom<EchoRoom, EchoPeer>;

  void send() {
    awaiting_ = true;
    sent_at_ = Clock::now();
    peers_[sender_]->conn->send(std::string(kMessage));
  }

  int open_count_ = 0;
  int sender_ = 0;
  Clock::time_point sent_at_{};
};

void EchoPeer::on_open(Conn&) { room->opened(*this); }
void EchoPeer::on_message(Conn&, std::string_view, Clock::time_point at) { room->message(*this, at); }
void EchoPeer::on_close(Conn&, std::string_view) { room->closed(*this); }

}  // namespace

std::unique_ptr<Workload> make_echo_workload(Loop& loop, const WorkloadEnv& env) {
  return std::make_unique<EchoWorkload>(loop, env);
}

}  // namespace cinq::load
