// Play mode against cinq: rooms of two players and S spectators playing random games (protocol.md).
//
// Protocol 2: a player learns that it is to move from a message that carries `legal` at its top level (a
// `state`, or an event with a `patch`): only the seat to move gets it, and a message with a patch or a
// position and no `legal` means it has nothing to play. The client never applies patches: it needs no more
// than that. Against a protocol 1 server (no `protocol` in `welcome`) the same is read from `position`
// (`status`, `to_move`, `legal`, `can_end_turn`), so older builds can be measured with the same tool.
//
// Each room lives on one loop, so its players, spectators and timers never race. Latency bookkeeping: the
// room stamps every act it sends into a ring, in sending order; the server announces accepted acts in the
// order it accepted them, which is the sending order (a player only acts on the event that gave it the
// move), and every player connection sees every play event of its room from the start. So the k-th play
// event a player receives answers the k-th act stamped, whoever sent it.
#include <array>
#include <cstdio>
#include <deque>
#include <random>

#include "bench/load/messages.h"
#include "bench/load/phase.h"
#include "bench/load/rooms.h"
#include "bench/load/scan.h"

namespace cinq::load {

namespace {

constexpr std::size_t kRing = 1024;
constexpr double kBurst = 10;  // tokens of a player's bucket; cinq allows bursts of 40
constexpr auto kRetryAfterError = std::chrono::milliseconds(200);
constexpr auto kRetryAfterRateLimit = std::chrono::seconds(1);

class Room;
using PlayWorkload = RoomWorkload<Room>;

struct Peer final : ConnListener {
  Room* room = nullptr;
  int index = 0;  // 0 and 1: players (0 creates the room); 2..: spectators
  std::shared_ptr<Conn> conn;
  bool opened = false;
  bool welcomed = false;
  bool joined = false;  // has the current room's state
  int seat = -1;
  std::int64_t plays_seen = 0;
  int protocol = 1;           // from `welcome`
  bool act_pending = false;   // an act is scheduled or awaits its answer
  bool awaiting_ack = false;  // an act is on the wire
  // What the last message about the current room said this player may do: it is to move (`my_turn`),
  // with these `legal` entries (the raw JSON array) and `can_end`. Kept until a message says otherwise,
  // so that a move given before both players have joined, or before go(), is played then.
  bool my_turn = false;
  std::string legal;
  bool can_end = false;
  std::string last_message;  // the start of the last message (for a stall report)
  double tokens = kBurst;    // client-side rate limit: stay under cinq's 20 messages/s
  Clock::time_point refilled = Clock::now();

  bool player() const { return index < 2; }
  // When the next message may go, counting it as sent.
  Clock::time_point reserve(Clock::time_point now, double rate) {
    tokens = std::min(kBurst, tokens + std::chrono::duration<double>(now - refilled).count() * rate);
    refilled = now;
    tokens -= 1;
    if (tokens >= 0) return now;
    return now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(-tokens / rate));
  }

  void on_open(Conn&) override;
  void on_message(Conn&, std::string_view text, Clock::time_point at) override;
  void on_close(Conn&, std::string_view why) override;
};

class Room : public std::enable_shared_from_this<Room> {
 public:
  Room(PlayWorkload& w, int slot, std::string game)
      : w_(w), slot_(slot), game_(std::move(game)), pacer_(w.options(), w.rng()) {
    const int n = 2 + w.options().spectators;
    for (int i = 0; i < n; ++i) {
      peers_.push_back(std::make_unique<Peer>());
      peers_.back()->room = this;
      peers_.back()->index = i;
    }
  }

  int slot() const { return slot_; }
  bool in_setup() const { return !live_; }
  bool stalled(Clock::time_point now) const {
    if (dead_ || (live_ && !w_.going())) return false;  // a live room waiting for go() is quiet on purpose
    if (now - last_activity_ <= std::chrono::duration<double>(w_.options().stall_s)) return false;
    // What each player was doing, so that a stall can be told apart: a lost answer, a refused move, or a
    // room that never got its rematch.
    std::fprintf(stderr, "cinq_load: room %s stalled:", id_.c_str());
    for (int i = 0; i < 2; ++i) {
      const Peer& p = *peers_[i];
      std::fprintf(stderr,
                   " [player %d seat %d joined %d my_turn %d legal %zu act_pending %d awaiting_ack %d "
                   "plays_seen %lld last message %.300s]",
                   i, p.seat, p.joined, p.my_turn, scan::count(p.legal), p.act_pending, p.awaiting_ack,
                   static_cast<long long>(p.plays_seen), p.last_message.c_str());
    }
    std::fprintf(stderr, "\n");
    return true;
  }

  void go() {
    last_activity_ = Clock::now();
    pacer_ = Pacer(w_.options(), w_.rng());  // the offered load starts evenly spread from now
    for (int i = 0; i < 2; ++i) consider(*peers_[i]);
  }

  void start() {
    last_activity_ = Clock::now();
    for (auto& p : peers_)
      p->conn =
          Conn::open(w_.loop(), w_.target_for(slot_, p->index), p.get(), kConnectTimeout, w_.next_source());
  }

  void close() {
    dead_ = true;
    for (auto& p : peers_) {
      if (p->opened) w_.open.fetch_sub(1);
      p->opened = false;
      if (p->conn) p->conn->close();
    }
  }

  void opened(Peer& p) {
    w_.open.fetch_add(1);
    send(p, p.player() ? R"({"type":"hello","name":"load-player"})"
                       : R"({"type":"hello","name":"load-watcher"})");
  }

  void closed(Peer& p, std::string_view) {
    if (p.opened) w_.open.fetch_sub(1);
    const bool was_open = p.opened;
    p.opened = false;
    if (!dead_) w_.room_failed(*this, was_open ? "disconnect" : "connect");
  }

  void message(Peer& p, std::string_view text, Clock::time_point at) {
    last_activity_ = at;
    const bool in_window = w_.window().contains(at);
    if (in_window) w_.stats.received++;
    if (!p.player()) {
      if (in_window) w_.stats.spectators.add(text.size());
      return spectator_message(p, text);
    }
    const Message m = read_message(text, p.protocol, p.seat);
    const Turn& turn = m.turn;
    // What cinq sends a room per turn, for the relay: the frames that gave their player the move, and
    // the others (chiefly the mover's copy of its event).
    if (in_window) (turn.mine ? w_.stats.to_move : w_.stats.players_other).add(text.size());
    p.last_message.assign(text.substr(0, 300));
    if (m.type == "event") return event(p, m.kind, m.room, m.seat, turn, m.rematch, at);
    if (m.type == "state") return state(p, m.room, turn);
    if (m.type == "welcome") {
      p.protocol = static_cast<int>(m.protocol.value_or(1));
      return welcomed(p);
    }
    if (m.type == "error") return error(p, m.code);
  }

 private:
  void send(Peer& p, std::string text) {
    p.reserve(Clock::now(), w_.options().conn_rate);
    p.conn->send(std::move(text));
  }

  void spectator_message(Peer& p, std::string_view text) {
    if (!p.welcomed) return welcomed(p);  // the first answer is the welcome
    if (text.find(R"("type":"error")") == std::string_view::npos) return;
    std::string_view code;
    scan::members(text, [&](std::string_view key, std::string_view value) {
      if (key == "code") code = scan::plain_string(value);
      return code.empty();
    });
    w_.error(code);
  }

  void welcomed(Peer& p) {
    p.welcomed = true;
    if (p.index == 0 && id_.empty()) {
      send(p, R"({"type":"create","game":")" + scan::escape(game_) +
                  R"(","options":"","clock":null,"private":false,"seat":0,"ref":"create"})");
      p.seat = 0;
    } else if (!id_.empty()) {
      join(p);
    }
  }

  void join(Peer& p) {
    send(p, R"({"type":"join","room":")" + id_ + R"(","ref":"join"})");
    if (p.index == 1 && p.seat < 0) {
      send(p, R"({"type":"sit","room":")" + id_ + R"(","seat":1,"ref":"sit"})");
      p.seat = 1;
    }
  }

  void state(Peer& p, std::string_view room, const Turn& turn) {
    if (id_.empty() && p.index == 0) {
      id_ = std::string(room);
      for (auto& other : peers_)
        if (other->index != 0 && other->welcomed) join(*other);
    }
    if (room != id_ || p.joined) return;
    p.joined = true;
    learn(p, turn);
    // Neither player acts before both have joined: every player connection must see every play event of
    // the room from the start (the latency bookkeeping above).
    if (both_joined())
      for (int i = 0; i < 2; ++i) consider(*peers_[i]);
  }

  void event(Peer& p, std::string_view kind, std::string_view room, std::optional<std::int64_t> seat,
             const Turn& turn, std::string_view rematch, Clock::time_point at) {
    if (kind == "rematch") return switch_to(rematch);
    if (room != id_) return;  // late news from a finished room
    // A move can reach a player before the other has joined (the `started` event can overtake the other
    // player's `state` in this client): it is kept and played once both have joined. Dropping it stalled
    // about one room in 10,000.
    learn(p, turn);
    if (kind == "play") {
      const Clock::time_point sent = sent_at_[static_cast<std::size_t>(p.plays_seen++) % kRing];
      if (seat && *seat == p.seat) {
        p.awaiting_ack = false;
        p.act_pending = false;
        if (w_.window().contains(at)) {
          w_.stats.count++;
          w_.stats.ack.add(at - sent);
          w_.interval_count++;
          w_.interval_ack.add(at - sent);
        }
      } else if (w_.window().contains(at)) {
        w_.stats.opp.add(at - sent);
      }
    } else if (kind == "started") {
      if (!live_) {
        live_ = true;
        w_.room_live(*this);
      }
    } else if (kind == "finished") {
      if (p.index == 0 && w_.window().contains(at)) w_.stats.games++;
      send(p, R"({"type":"rematch","room":")" + id_ + R"(","ref":"rematch"})");
    }
    consider(p);
  }

  void error(Peer& p, std::string_view code) {
    w_.error(code);
    if (!p.awaiting_ack) return;
    // Our act was refused (or dropped): nothing changed on the server; choose again a little later.
    p.awaiting_ack = false;
    p.act_pending = false;
    --acts_sent_;
    const auto delay = code == "rate_limited" ? Clock::duration(kRetryAfterRateLimit) : kRetryAfterError;
    w_.loop().after(delay, [self = weak_from_this(), index = p.index, generation = generation_] {
      auto room = self.lock();
      if (!room || room->dead_ || room->generation_ != generation) return;
      room->consider(*room->peers_[index]);
    });
  }

  static void learn(Peer& p, const Turn& turn) {
    if (!turn.says) return;  // presence, seated, ...: what the player may do is unchanged
    p.my_turn = turn.mine;
    p.legal.assign(turn.legal);
    p.can_end = turn.can_end;
  }

  bool both_joined() const { return peers_[0]->joined && peers_[1]->joined; }

  // Acts if `p` is to move, both players have joined and the room plays.
  void consider(Peer& p) {
    if (!p.my_turn || p.act_pending || !both_joined() || dead_ || !w_.going()) return;
    const std::size_t n = scan::count(p.legal);
    const std::size_t choices = n + (p.can_end ? 1 : 0);
    if (choices == 0) return w_.error("no_legal_action");
    const std::size_t k = w_.rng()() % choices;
    std::string text = R"({"type":"act","room":")" + id_ + "\",";
    if (k == n) {
      text += R"("end_turn":true})";
    } else {
      text += R"("actions":[")" + scan::escape(scan::pick(p.legal, k, w_.rng()())) + "\"]}";
    }
    schedule(p, std::move(text));
  }

  void schedule(Peer& p, std::string text) {
    p.act_pending = true;
    const auto now = Clock::now();
    const auto at = std::max(pacer_.book(now), p.reserve(now, w_.options().conn_rate));
    if (at <= now) return send_act(p, std::move(text));
    w_.loop().after(at - now, [self = weak_from_this(), index = p.index, generation = generation_,
                               text = std::move(text)]() mutable {
      auto room = self.lock();
      if (!room || room->dead_ || room->generation_ != generation) return;
      room->send_act(*room->peers_[index], std::move(text));
    });
  }

  void send_act(Peer& p, std::string text) {
    sent_at_[static_cast<std::size_t>(acts_sent_++) % kRing] = Clock::now();
    p.awaiting_ack = true;
    p.conn->send(std::move(text));  // its token was taken when it was scheduled
  }

  // The rematch room is open, both players already seated in it, sides swapped.
  void switch_to(std::string_view new_id) {
    if (new_id.empty() || new_id == id_) return;
    const std::string old = id_;
    id_ = std::string(new_id);
    ++generation_;
    acts_sent_ = 0;
    for (auto& p : peers_) {
      if (p->player()) {
        p->seat = 1 - p->seat;
        p->plays_seen = 0;
        p->act_pending = p->awaiting_ack = false;
        p->joined = false;
        p->my_turn = false;
        p->legal.clear();
      }
      send(*p, R"({"type":"leave","room":")" + old + R"(","ref":"leave"})");
      send(*p, R"({"type":"join","room":")" + id_ + R"(","ref":"join"})");
    }
  }

  PlayWorkload& w_;
  int slot_;
  std::string game_;
  std::vector<std::unique_ptr<Peer>> peers_;
  std::string id_;
  bool live_ = false;
  bool dead_ = false;
  int generation_ = 0;
  Clock::time_point last_activity_;
  std::int64_t acts_sent_ = 0;
  std::array<Clock::time_point, kRing> sent_at_{};
  Pacer pacer_;
};

void Peer::on_open(Conn&) {
  opened = true;
  room->opened(*this);
}
void Peer::on_message(Conn&, std::string_view text, Clock::time_point at) { room->message(*this, text, at); }
void Peer::on_close(Conn&, std::string_view why) { room->closed(*this, why); }

}  // namespace

std::unique_ptr<Workload> make_play_workload(Loop& loop, const WorkloadEnv& env) {
  return std::make_unique<PlayWorkload>(loop, env);
}

}  // namespace cinq::load
