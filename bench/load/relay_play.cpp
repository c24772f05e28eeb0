// Play mode's relay baseline against cinq_echo --relay: the transport alone doing a turn's I/O. The same
// rooms of 2 + S connections; each connection first says which room and role it has; then the mover sends
// one frame (the size of a Tablut act) and the relay sends every connection of the room as many frames, of
// the sizes, that cinq sent it for a turn in the cinq phase (RelayShape): the mover's copy, the frames that
// give the other player the move, each spectator's copy. The other player sends the next frame once it has
// its frames: one message in flight per room, as in a game.
//
// Frames in:  {"type":"hello","room":"KEY","role":I}  (I: 0 and 1 the players, 2.. spectators)
//             {"type":"act","t":TURN,"n":[M,O,S],"b":[BM,BO,BS]}  (frames and bytes for each role)
// Frames out: {"type":"welcome"} to a hello; {"type":"relay","t":TURN,"k":LEFT,"pad":"xx..."} padded to
//             the size asked, LEFT counting down to 0 on the recipient's last frame of the turn.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>

#include "bench/load/baseline_room.h"
#include "bench/load/phase.h"
#include "bench/load/rooms.h"
#include "bench/load/scan.h"

namespace cinq::load {

namespace {

constexpr std::size_t kRing = 1024;
constexpr int kMaxFrames = 16;  // per recipient and turn, as the relay accepts

std::atomic<std::uint64_t> next_key{1};  // room keys, unique in this process

class RelayRoom;
using RelayWorkload = RoomWorkload<RelayRoom>;

struct RelayPeer final : ConnListener {
  RelayRoom* room = nullptr;
  int index = 0;
  std::shared_ptr<Conn> conn;
  bool opened = false;
  bool welcomed = false;
  std::int64_t acked = -1;  // the last turn whose first frame this connection counted
  std::int64_t seen = -1;

  void on_open(Conn&) override;
  void on_message(Conn&, std::string_view text, Clock::time_point at) override;
  void on_close(Conn&, std::string_view why) override;
};

// Reads the integer after `"key":` in a relay frame; nullopt if absent.
std::optional<std::int64_t> field(std::string_view text, std::string_view key) {
  const auto at = text.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  return scan::integer(text.substr(at + key.size()));
}

class RelayRoom final : public BaselineRoom<RelayRoom, RelayPeer> {
 public:
  RelayRoom(RelayWorkload& w, int slot, std::string)
      : BaselineRoom(w, slot), key_("r" + std::to_string(next_key.fetch_add(1))) {}

  void opened(RelayPeer& p) {
    mark_open(p);
    p.conn->send(R"({"type":"hello","room":")" + key_ + R"(","role":)" + std::to_string(p.index) + "}");
  }

  void message(RelayPeer& p, std::string_view text, Clock::time_point at) {
    last_activity_ = at;
    if (w_.window().contains(at)) w_.stats.received++;
    if (!p.welcomed) {
      p.welcomed = true;
      if (++welcomed_ == static_cast<int>(peers_.size())) become_live();
      return;
    }
    if (p.index >= 2) return;
    const auto t = field(text, R"("t":)");
    const auto left = field(text, R"("k":)");
    if (!t || !left || *t < 0) return;
    const Sent& sent = sent_[static_cast<std::size_t>(*t) % kRing];
    if (p.index == sent.mover) {
      if (p.acked >= *t) return;
      p.acked = *t;
      if (w_.window().contains(at)) {
        w_.stats.count++;
        w_.stats.ack.add(at - sent.at);
      }
      return;
    }
    if (p.seen < *t) {
      p.seen = *t;
      if (w_.window().contains(at)) w_.stats.opp.add(at - sent.at);
    }
    if (*left == 0 && *t == turn_ && awaiting_) {  // all of this turn's frames are in: its move
      awaiting_ = false;
      mover_ = p.index;
      ++turn_;
      schedule();
    }
  }

 private:
  friend class BaselineRoom<RelayRoom, RelayPeer>;

  struct Sent {
    Clock::time_point at{};
    int mover = -1;
  };

  void send() {
    // Whole frames per turn whose mean is the shape's: each role's fractions carry over to later turns.
    // Both players get at least one frame (the mover's ack, the other's move).
    const RelayShape& shape = w_.shape();
    std::array<int, 3> n{};
    std::array<int, 3> bytes{};
    for (int r = 0; r < 3; ++r) {
      carry_[r] += shape.frames[r];
      n[r] = std::clamp(static_cast<int>(std::floor(carry_[r])), r < 2 ? 1 : 0, kMaxFrames);
      carry_[r] -= n[r];
      bytes[r] = static_cast<int>(std::lround(shape.bytes[r]));
    }
    awaiting_ = true;
    sent_[static_cast<std::size_t>(turn_) % kRing] = {Clock::now(), mover_};
    char text[160];
    std::snprintf(text, sizeof text, R"({"type":"act","t":%lld,"n":[%d,%d,%d],"b":[%d,%d,%d]})",
                  static_cast<long long>(turn_), n[0], n[1], n[2], bytes[0], bytes[1], bytes[2]);
    peers_[mover_]->conn->send(text);
  }

  std::string key_;
  int welcomed_ = 0;
  int mover_ = 0;
  std::int64_t turn_ = 0;
  std::array<double, 3> carry_{};
  std::array<Sent, kRing> sent_{};
};

void RelayPeer::on_open(Conn&) { room->opened(*this); }
void RelayPeer::on_message(Conn&, std::string_view text, Clock::time_point at) {
  room->message(*this, text, at);
}
void RelayPeer::on_close(Conn&, std::string_view) { room->closed(*this); }

}  // namespace

std::unique_ptr<Workload> make_relay_workload(Loop& loop, const WorkloadEnv& env) {
  return std::make_unique<RelayWorkload>(loop, env);
}

}  // namespace cinq::load
