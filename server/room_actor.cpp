#include "server/room_actor.h"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "server/services.h"

namespace cinq::server {

using nlohmann::json;

RoomActor::RoomActor(Services& services, lobby::Room room, std::shared_ptr<net::Strand> strand)
    : services_(services),
      id_(room.id()),
      room_(std::move(room)),
      strand_(std::move(strand)),
      timer_(services.net->make_timer(strand_)) {
  update_listing();
}

void RoomActor::post(std::function<void(RoomActor&)> fn) {
  strand_->post([self = shared_from_this(), fn = std::move(fn)] { fn(*self); });
}

RoomActor::Listing RoomActor::listing() const {
  std::lock_guard lock(listing_mutex_);
  return listing_;
}

void RoomActor::update_listing() {
  Listing l{room_.summary(Services::now()), room_.config().is_private, room_.status(),
            static_cast<int>(subscribers_.size())};
  std::lock_guard lock(listing_mutex_);
  listing_ = std::move(l);
}

// ---------------------------------------------------------------------------------------------------------
// Effects: errors at once, events after their save.

void RoomActor::apply(lobby::Effect effect, const std::shared_ptr<net::Connection>& sender,
                      const std::string& ref, std::optional<std::chrono::steady_clock::time_point> received) {
  if (effect.error && sender) {
    sender->send(error_message(effect.error->code, effect.error->message, ref, id_));
    services_.metrics.count_error(effect.error->code);
  }
  if (effect.rematch_ready && services_.open_rematch) services_.open_rematch(shared_from_this());
  if (effect.events.empty() && !effect.save) return arm_clock();
  if (room_.status() == lobby::Status::finished && effect.save) ++services_.metrics.games_finished;

  outbox_.push_back(Batch{std::move(effect.events), !effect.save, received});
  if (effect.save) {
    lobby::Saved saved = room_.saved(Services::now());
    Batch* batch = &outbox_.back();  // deque: pointers to elements stay valid under push_back/pop_front
    bool posted = services_.saver->save(to_row(saved, Services::now().unix_ms),
                                        [self = shared_from_this(), batch](bool ok, const std::string& why) {
                                          self->post([ok, batch, why](RoomActor& a) {
                                            if (!ok) return a.fail_storage(why);
                                            batch->stored = true;
                                            a.flush();
                                          });
                                        });
    if (!posted) fail_storage("the server is shutting down");
  } else {
    flush();
  }
  arm_clock();
}

void RoomActor::flush() {
  if (broken_) return;
  while (!outbox_.empty() && outbox_.front().stored) {
    Batch b = std::move(outbox_.front());
    outbox_.pop_front();
    // The listing first: whoever hears of these events and asks for a list (my_games) finds them in it.
    if (outbox_.empty()) update_listing();
    for (const auto& m : b.events) broadcast(m);
    if (b.received)
      services_.metrics.act_latency.observe(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - *b.received).count());
  }
  if (!outbox_.empty()) return;
  update_listing();
  auto ready = std::move(settled_);
  settled_.clear();
  for (auto& fn : ready) fn();
  if (room_.status() == lobby::Status::finished && subscribers_.empty() && outbox_.empty() &&
      services_.forget_room)
    services_.forget_room(id_);
}

void RoomActor::when_settled(std::function<void()> fn) {
  if (outbox_.empty() && !broken_)
    fn();
  else if (!broken_)
    settled_.push_back(std::move(fn));
}

void RoomActor::save_then(std::function<void()> then) {
  lobby::Effect e;
  e.save = true;
  apply(std::move(e), nullptr, {});
  when_settled(std::move(then));
}

void RoomActor::fail_storage(const std::string& why) {
  spdlog::error("room {}: save failed: {}; closing the room until it is reloaded", id_, why);
  ++services_.metrics.store_failures;
  broken_ = true;
  timer_->cancel();
  auto m = std::make_shared<const std::string>(
      error_message("storage",
                    "the server could not store the last action; nothing was lost that you were "
                    "told of: rejoin the room",
                    {}, id_));
  for (auto& [id, sub] : subscribers_)
    if (auto c = sub.connection.lock()) c->send(m);
  subscribers_.clear();
  outbox_.clear();
  settled_.clear();
  if (services_.forget_room) services_.forget_room(id_);
}

void RoomActor::broadcast(const lobby::Message& m) {
  for (auto it = subscribers_.begin(); it != subscribers_.end();) {
    if (auto c = it->second.connection.lock()) {
      c->send(m);
      ++it;
    } else {
      it = subscribers_.erase(it);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Who is in the room

void RoomActor::subscribe(const std::shared_ptr<net::Connection>& c, const std::string& player_id,
                          std::optional<std::int64_t> since, std::shared_ptr<const json> extra) {
  if (broken_) {
    c->send(error_message("storage", "this room is being reloaded: try again", {}, id_));
    return;
  }
  // Added once settled: a newcomer's first message is the state or the missed events, never an event that
  // the state already holds.
  when_settled(
      [this, self = shared_from_this(), weak = std::weak_ptr<net::Connection>(c), player_id, since, extra] {
        auto conn = weak.lock();
        if (!conn) return;
        subscribers_[conn->id()] = Subscriber{conn, player_id};
        lobby::Now now = Services::now();
        std::optional<std::vector<lobby::Message>> missed;
        if (since) missed = room_.events_since(*since);
        if (missed) {
          // The logged events are JSON texts already: joined as they are, never parsed again.
          std::string out = R"({"type":"events","room":)" + json(id_).dump() + R"(,"version":)" +
                            std::to_string(room_.version()) + R"(,"events":[)";
          for (std::size_t i = 0; i < missed->size(); ++i) out += (i ? "," : "") + *(*missed)[i];
          conn->send(out + "]}");
        } else if (extra) {
          json state = room_.state_json(now);
          for (const auto& [k, v] : extra->items()) state[k] = v;
          conn->send(state.dump());
        } else {
          conn->send(room_.state_message(now));
        }
        refresh_presence();
      });
}

void RoomActor::unsubscribe(std::uint64_t connection_id) {
  if (subscribers_.erase(connection_id) == 0) return;
  refresh_presence();
  if (room_.status() == lobby::Status::finished && subscribers_.empty() && outbox_.empty() &&
      services_.forget_room)
    services_.forget_room(id_);
}

void RoomActor::refresh_presence() {
  std::array<bool, 2> online{false, false};
  int spectators = 0;
  for (const auto& [id, sub] : subscribers_) {
    int seat = room_.seat_of(sub.player_id);
    if (seat >= 0)
      online[seat] = true;
    else
      ++spectators;
  }
  lobby::Now now = Services::now();
  for (int s = 0; s < 2; ++s) apply(room_.set_online(s, online[s], now), nullptr, {});
  apply(room_.set_spectators(spectators, now), nullptr, {});
  update_listing();
}

// ---------------------------------------------------------------------------------------------------------
// The clock: the timer is re-armed after every effect to the running side's flag-fall time: the live clock's
// (steady time) or the correspondence deadline's (wall time, turned into a wait from now). If the wall clock
// jumps, the timer may fire early: tick() then does nothing and the timer is armed again.

void RoomActor::arm_clock() {
  lobby::Now now = Services::now();
  std::optional<std::int64_t> wait_ms;
  if (auto d = room_.deadline()) wait_ms = *d - now.steady_ms;
  if (auto w = room_.wall_deadline())
    wait_ms = std::min(wait_ms.value_or(*w - now.unix_ms), *w - now.unix_ms);
  if (!wait_ms || broken_) {
    timer_->cancel();
    return;
  }
  auto wait = std::chrono::milliseconds(std::max<std::int64_t>(0, *wait_ms) + 1);
  timer_->arm(wait, [weak = weak_from_this()] {
    auto self = weak.lock();
    if (!self) return;
    self->apply(self->room_.tick(Services::now()), nullptr, {});
  });
}

}  // namespace cinq::server
