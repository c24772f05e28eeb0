// Play mode against cinq: rooms of two players and S spectators playing random games (protocol.md).
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
  bool act_pending = false;    // an act is scheduled or awaits its answer
  bool awaiting_ack = false;   // an act is on the wire
  std::string state_position;  // from this room's `state`, played once both players have joined
  std::string decided_on;      // the position the pending act was chosen from (to choose again)
  std::string held_position;   // the move it would have made before go()
  double tokens = kBurst;      // client-side rate limit: stay under cinq's 20 messages/s
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
      std::fprintf(stderr, " [player %d seat %d joined %d act_pending %d awaiting_ack %d plays_seen %lld]", i,
                   p.seat, p.joined, p.act_pending, p.awaiting_ack, static_cast<long long>(p.plays_seen));
    }
    std::fprintf(stderr, " last position %.300s\n", last_position_.c_str());
    return true;
  }

  void go() {
    last_activity_ = Clock::now();
    pacer_ = Pacer(w_.options(), w_.rng());  // the offered load starts evenly spread from now
    for (int i = 0; i < 2; ++i) {
      Peer& p = *peers_[i];
      const std::string pos = std::move(p.held_position);
      p.held_position.clear();
      consider(p, pos);
    }
  }

  void start() {
    last_activity_ = Clock::now();
    for (auto& p : peers_) p->conn = Conn::open(w_.loop(), w_.target(), p.get(), kConnectTimeout);
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
    if (w_.window().contains(at)) w_.stats.received++;
    if (!p.player()) return spectator_message(p, text);
    std::string_view type, kind, room, position, code, rematch;
    std::optional<std::int64_t> seat;
    scan::members(text, [&](std::string_view key, std::string_view value) {
      if (key == "type")
        type = scan::plain_string(value);
      else if (key == "kind")
        kind = scan::plain_string(value);
      else if (key == "room")
        room = scan::plain_string(value);
      else if (key == "position")
        position = value;
      else if (key == "code")
        code = scan::plain_string(value);
      else if (key == "rematch")
        rematch = scan::plain_string(value);
      else if (key == "seat")
        seat = scan::integer(value);
      return true;
    });
    if (type == "event") return event(p, kind, room, seat, position, rematch, at);
    if (type == "state") return state(p, room, position);
    if (type == "welcome") return welcomed(p);
    if (type == "error") return error(p, code);
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

  void state(Peer& p, std::string_view room, std::string_view position) {
    if (id_.empty() && p.index == 0) {
      id_ = std::string(room);
      for (auto& other : peers_)
        if (other->index != 0 && other->welcomed) join(*other);
    }
    if (room != id_ || p.joined) return;
    p.joined = true;
    p.state_position = std::string(position);
    if (!both_joined()) return;
    for (int i = 0; i < 2; ++i) {
      Peer& player = *peers_[i];
      const std::string pos = std::move(player.state_position);
      player.state_position.clear();
      consider(player, pos);
    }
  }

  void event(Peer& p, std::string_view kind, std::string_view room, std::optional<std::int64_t> seat,
             std::string_view position, std::string_view rematch, Clock::time_point at) {
    if (kind == "rematch") return switch_to(rematch);
    if (room != id_) return;  // late news from a finished room
    if (kind == "play") {
      const Clock::time_point sent = sent_at_[static_cast<std::size_t>(p.plays_seen++) % kRing];
      if (seat && *seat == p.seat) {
        p.awaiting_ack = false;
        p.act_pending = false;
        if (w_.window().contains(at)) {
          w_.stats.count++;
          w_.stats.ack.add(at - sent);
        }
      } else if (w_.window().contains(at)) {
        w_.stats.opp.add(at - sent);
      }
      return consider(p, position);
    }
    if (kind == "started") {
      if (!live_) {
        live_ = true;
        w_.room_live(*this);
      }
      return consider(p, position);
    }
    if (kind == "finished") {
      if (p.index == 0 && w_.window().contains(at)) w_.stats.games++;
      send(p, R"({"type":"rematch","room":")" + id_ + R"(","ref":"rematch"})");
    }
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
      Peer& peer = *room->peers_[index];
      const std::string pos = peer.decided_on;
      room->consider(peer, pos);
    });
  }

  bool both_joined() const { return peers_[0]->joined && peers_[1]->joined; }

  // Acts if `position` gives `p` the move.
  void consider(Peer& p, std::string_view position) {
    if (!position.empty()) last_position_.assign(position.substr(0, 300));
    // A position that reaches a player before the other has joined (the `started` event can overtake the
    // other player's `state` in this client) replaces the one kept from its `state`: it is played once
    // both have joined. Dropping it stalled about one room in 10,000.
    if (!both_joined() && p.joined && !position.empty()) p.state_position.assign(position);
    if (position.empty() || p.act_pending || !both_joined() || dead_) return;
    std::string_view status, legal;
    std::optional<std::int64_t> to_move;
    bool can_end = false;
    scan::members(position, [&](std::string_view key, std::string_view value) {
      if (key == "status")
        status = scan::plain_string(value);
      else if (key == "to_move")
        to_move = scan::integer(value);
      else if (key == "can_end_turn")
        can_end = value == "true";
      else if (key == "legal")
        legal = value;
      return true;
    });
    if (status != "live" || !to_move || *to_move != p.seat) return;
    if (!w_.going()) {
      p.held_position.assign(position);
      return;
    }
    const std::size_t n = scan::count(legal);
    const std::size_t choices = n + (can_end ? 1 : 0);
    if (choices == 0) return w_.error("no_legal_action");
    const std::size_t k = w_.rng()() % choices;
    std::string text = R"({"type":"act","room":")" + id_ + "\",";
    if (k == n) {
      text += R"("end_turn":true})";
    } else {
      text += R"("actions":[")" + scan::escape(scan::pick(legal, k, w_.rng()())) + "\"]}";
    }
    p.decided_on.assign(position);
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
        p->state_position.clear();
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
  std::string last_position_;  // the start of the last position seen (for a stall report)
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
