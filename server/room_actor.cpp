#include "server/room_actor.h"
#include "server/moderation_desk.h"

#include "server/mail_sender.h"

#include <algorithm>
#include <cmath>

#include "ratings/glicko2.h"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>
#include <random>

#include "persistence/saver.h"
#include "server/room_bus.h"
#include "server/services.h"

namespace cinq::server {

using nlohmann::json;

RoomActor::RoomActor(Services& services, lobby::Room room, std::shared_ptr<net::Strand> strand,
                     std::optional<store::Fence> fence, const std::string& commands)
    : services_(services),
      id_(room.id()),
      room_(std::move(room)),
      strand_(std::move(strand)),
      lease_(fence),
      fence_(std::move(fence)),
      holder_(services.claims.new_holder()) {
  chain_ = std::make_shared<store::Chain>();
  // Under a lease, its number (the store gives a new one whenever the room changes hands); alone, a number
  // this process never gave before and a restart does not give again.
  room_.set_epoch(lease_ ? lease_->lease : Services::next_epoch());
  mail_mark_ = MailMark::of(room_);
  for (int s = 0; s < 2; ++s) mail_seat_ids_[s] = room_.seats()[s].id;
  for (std::size_t start = 0; start < commands.size();) {
    std::size_t end = commands.find(' ', start);
    if (end == std::string::npos) end = commands.size();
    if (end > start) commands_.push_back(commands.substr(start, end - start));
    start = end + 1;
  }
  update_listing();
}

bool RoomActor::remembers(const std::string& command) const {
  std::lock_guard lock(commands_mutex_);
  return std::find(commands_.begin(), commands_.end(), command) != commands_.end();
}

void RoomActor::remember(const std::string& command) {
  std::lock_guard lock(commands_mutex_);
  commands_.push_back(command);
}

std::string RoomActor::commands_text() const {
  std::lock_guard lock(commands_mutex_);
  std::string out;
  for (const auto& c : commands_) out += (out.empty() ? "" : " ") + c;
  return out;
}

RoomActor::~RoomActor() {
  cancel_bot();
  if (hint_cancel_) hint_cancel_->store(true);
  services_.claims.drop(holder_);
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
  {
    std::lock_guard lock(listing_mutex_);
    listing_ = std::move(l);
  }
  update_claims();
  update_expiry();
}

// What this room counts against its players' limits (server/caps.h): an open room for each person seated in
// it, an unfinished room with a bot for the person playing it.
void RoomActor::update_claims() {
  Claims::Set now;
  const auto& seats = room_.seats();
  const lobby::Status status = room_.status();
  const bool bot = bot_level(seats[0].id) || bot_level(seats[1].id);
  if (status == lobby::Status::open && !creator_.empty()) now.emplace_back(Claims::open_room, creator_);
  for (const auto& seat : seats) {
    if (seat.id.empty() || bot_level(seat.id)) continue;
    if (status == lobby::Status::open && seat.id != creator_) now.emplace_back(Claims::open_room, seat.id);
    if (status != lobby::Status::finished && bot) now.emplace_back(Claims::bot_room, seat.id);
  }
  if (now == claimed_) return;
  claimed_ = now;
  services_.claims.set(holder_, std::move(now));
}

// An open room is aborted once nobody connected has held a seat in it for RoomLimits::open_room_expiry: the
// timer runs while that is so, and stops when someone sits or comes back.
bool RoomActor::nobody_holds() const {
  if (broken_ || services_.limits.open_room_expiry.count() <= 0 || room_.status() != lobby::Status::open)
    return false;
  const auto& seats = room_.seats();
  for (int s = 0; s < 2; ++s) {
    if (seats[s].id.empty()) continue;
    // A correspondence room's creator may wait days for the friend it sent the link to.
    if (room_.config().clock.correspondence() || room_.online(s)) return false;
  }
  return true;
}

void RoomActor::shared() {
  post([](RoomActor& a) { a.update_expiry(); });
}

net::Timer& RoomActor::timer(std::unique_ptr<net::Timer>& t) {
  if (!t) t = services_.net->make_timer(strand_);
  return *t;
}

void RoomActor::update_expiry() {
  const auto expiry = services_.limits.open_room_expiry;
  if (!nobody_holds()) {
    if (expiry_armed_) timer(expiry_timer_).cancel();
    expiry_armed_ = false;
    return;
  }
  if (expiry_armed_) return;
  // In the constructor nothing shares the actor yet, so a handler could never reach it: the expiry is armed
  // once it is (shared(), from RoomDirectory::add).
  auto weak = weak_from_this();
  if (weak.expired()) return;
  expiry_armed_ = true;
  timer(expiry_timer_).arm(expiry, [weak = std::move(weak)] {
    auto self = weak.lock();
    if (!self) return;
    self->expiry_armed_ = false;
    if (!self->nobody_holds()) return self->update_expiry();
    lobby::Effect e = self->room_.expire(Services::now());
    if (e.error) return;
    spdlog::info("room {}: open with nobody in it for {} s: aborted", self->id_,
                 self->services_.limits.open_room_expiry.count() / 1000);
    ++self->services_.metrics.rooms_expired;
    self->apply(std::move(e), nullptr, {});
  });
}

// ---------------------------------------------------------------------------------------------------------
// Effects: errors at once, events after their save.

void RoomActor::apply(lobby::Effect effect, const std::shared_ptr<net::Connection>& sender,
                      const std::string& ref, std::optional<std::chrono::steady_clock::time_point> received) {
  if (effect.error && sender) {
    sender->send(error_message(*effect.error, ref, id_));
    services_.metrics.count_error(effect.error->code);
  }
  // A command forwarded by another node: remembered (and stored with this effect), so that it is never
  // applied twice should that node send it again.
  if (sender)
    if (std::string command = sender->command_id(); !command.empty()) remember(command);
  if (effect.rematch_ready && services_.open_rematch) services_.open_rematch(shared_from_this());
  if (effect.events.empty() && !effect.save) {
    arm_clock();
    return serve_bots();
  }
  if (room_.status() == lobby::Status::finished && effect.save) ++services_.metrics.games_finished;

  // The effect's events are the room's last ones, numbered one after the other.
  outbox_.push_back(Batch{std::move(effect.events), room_.version(), !effect.save, received, effect.patched,
                          effect.mover, std::move(effect.legal), 0, std::move(effect.chat)});
  if (effect.save) {
    // Only what changed since the last save: a turn's save is the size of a turn.
    const lobby::Now now = Services::now();
    // The batch is found again by its number, never by address: a failed save before it empties the
    // outbox (fail_storage), and a save's answer may come after that: an address kept would then point at a
    // batch already freed.
    const std::uint64_t number = outbox_.back().number = ++batches_;
    store::GameSave save = to_save(room_.take_save(now), now.unix_ms);
    if (services_.postman) services_.postman->on_change(room_, mail_mark_, save, now.unix_ms);
    if (services_.adopt_account_mail && room_.config().clock.correspondence())
      for (int s = 0; s < 2; ++s)
        if (const std::string& id = room_.seats()[s].id; id != mail_seat_ids_[s]) {
          mail_seat_ids_[s] = id;
          if (!id.empty() && room_.seat_mail(s).address.empty()) services_.adopt_account_mail(shared_from_this(), s);
        }
    for (auto& m : mail_pending_) save.mails.push_back(std::move(m));
    for (auto& id : received_pending_) save.received.push_back(std::move(id));
    mail_pending_.clear();
    received_pending_.clear();
    if (fence_) {
      save.fence = fence_;
      fence_->acquire = false;  // taken by this save: the next ones find it
      save.row.commands = commands_text();
    }
    const bool mails = !save.mails.empty();
    if (mails) services_.metrics.mail_queued += static_cast<std::int64_t>(save.mails.size());
    bool posted = services_.saver->save(std::move(save),
                                        [self = shared_from_this(), number, mails](bool ok, const std::string& why) {
                                          // Mail queued with this save goes out now, not at the next poll.
                                          if (ok && mails && self->services_.mail_sender)
                                            self->services_.mail_sender->poke();
                                          self->post([ok, number, why](RoomActor& a) {
                                            if (a.broken_) return;  // told already; the outbox is gone
                                            if (!ok) return a.fail_storage(why);
                                            for (Batch& b : a.outbox_)
                                              if (b.number == number) b.stored = true;
                                            a.flush();
                                          });
                                        },
                                        chain_);
    if (!posted) fail_storage("the server is shutting down");
  } else {
    flush();
  }
  arm_clock();
  serve_bots();
}

void RoomActor::flush() {
  if (broken_) return;
  bool listed = false;
  while (!outbox_.empty() && outbox_.front().stored) {
    Batch b = std::move(outbox_.front());
    outbox_.erase(outbox_.begin());  // it holds the few batches a save or two covers
    if (outbox_.empty()) std::vector<Batch>().swap(outbox_);  // a quiet room holds nothing
    // The listing first: whoever hears of these events and asks for a list (my_games) finds them in it.
    if (outbox_.empty()) {
      update_listing();
      listed = true;
    }
    send_batch(b);
    if (b.received)
      services_.metrics.act_latency.observe(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - *b.received).count());
  }
  if (!outbox_.empty()) return;
  if (!listed) update_listing();
  // The end is stored: a tournament's game counts now (once; the tournament ignores the same result again).
  if (room_.status() == lobby::Status::finished && !over_told_) {
    over_told_ = true;
    if (services_.room_over) services_.room_over(id_, room_);
  }
  fetch_ratings();
  auto ready = std::move(settled_);
  settled_.clear();
  for (auto& w : ready) w.settled();
  if (room_.status() == lobby::Status::finished && subscribers_.empty() && outbox_.empty() &&
      services_.forget_room)
    services_.forget_room(id_);
}

void RoomActor::when_settled(std::function<void()> fn, std::function<void()> failed) {
  if (broken_) {
    if (failed) failed();
  } else if (outbox_.empty()) {
    fn();
  } else {
    settled_.push_back({std::move(fn), std::move(failed)});
  }
}

void RoomActor::save_then(std::function<void()> then, std::function<void()> failed) {
  lobby::Effect e;
  e.save = true;
  apply(std::move(e), nullptr, {});
  when_settled(std::move(then), std::move(failed));
}

void RoomActor::fail_storage(const std::string& why) {
  spdlog::error("room {}: save failed: {}; closing the room until it is reloaded", id_, why);
  ++services_.metrics.store_failures;
  close_for_reload(
      "the server could not store the last action; nothing was lost that you were told of: rejoin the room");
}

void RoomActor::reload_if_finished() {
  if (room_.status() != lobby::Status::finished || broken_) return;
  spdlog::info("room {}: finished, and this node was paused: read again wherever it is now", id_);
  close_for_reload("this room is being read again from the store: rejoin it");
}

void RoomActor::close_for_reload(const std::string& message) {
  broken_ = true;
  if (timer_) timer_->cancel();
  cancel_bot();
  auto m = std::make_shared<const std::string>(error_message("storage", message, {}, id_));
  for (auto& [id, sub] : subscribers_)
    if (auto c = sub.connection.lock()) {
      c->send(m);
      c->left(id_);
    }
  subscribers_.clear();
  // The commands not yet stored are dropped: their events are never sent, and the saves queued behind the
  // failed one are dropped unwritten by the store's writer (store::Chain). Whoever waited is told.
  outbox_.clear();
  auto waiting = std::move(settled_);
  settled_.clear();
  for (auto& w : waiting)
    if (w.failed) w.failed();
  if (services_.forget_room) services_.forget_room(id_);
}

// Every event to every connection in the room, the same shared text; the connections of the seat to move get
// the last event that changed the position with their legal actions added (built once for them all).
void RoomActor::send_batch(const Batch& b) {
  lobby::Message mine;
  if (b.mover >= 0 && b.patched < b.events.size())
    mine = std::make_shared<const std::string>(lobby::with_members(*b.events[b.patched], b.legal));
  bool remote = false;  // members on other nodes: the batch is published once for them all
  for (auto it = subscribers_.begin(); it != subscribers_.end();) {
    auto c = it->second.connection.lock();
    if (!c) {
      it = subscribers_.erase(it);
      continue;
    }
    if (c->remote()) {
      remote = true;
      ++it;
      continue;
    }
    const int seat = room_.seat_of(it->second.player_id);
    const bool mover = mine && seat == b.mover;
    for (std::size_t i = 0; i < b.events.size(); ++i) c->send(mover && i == b.patched ? mine : b.events[i]);
    for (const auto& [line, message] : b.chat)
      if (room_.may_read(line, seat) &&
          !(services_.moderation && services_.moderation->blocks(it->second.player_id, line.player_id)))
        c->send(message);  // a line of a player the reader blocks is not sent to it
    ++it;
  }
  if (remote && services_.bus) {
    RoomBus::Batch out;
    out.room = id_;
    out.epoch = room_.epoch();
    if (!b.events.empty()) {
      out.first_version = b.last_version - static_cast<std::int64_t>(b.events.size()) + 1;
      out.last_version = b.last_version;
    }
    for (int s = 0; s < 2; ++s) out.seats[s] = room_.seats()[s].id;
    out.mover = b.mover;
    out.patched = b.patched;
    out.events = b.events;
    if (mine) out.mine = *mine;
    for (const auto& [line, message] : b.chat)
      out.chat.emplace_back(!room_.may_read(line, 0), message);  // a seat may not read it: spectators only
    services_.bus->publish(out);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Who is in the room

void RoomActor::subscribe(const std::shared_ptr<net::Connection>& c, const std::string& player_id,
                          std::optional<lobby::Since> since, std::shared_ptr<const json> extra) {
  // Added once settled: a newcomer's first message is the state or the missed events, never an event that
  // the state already holds. If a save fails first, it is told, like those already in the room.
  when_settled(
      [this, self = shared_from_this(), weak = std::weak_ptr<net::Connection>(c), player_id, since, extra] {
        auto conn = weak.lock();
        if (!conn) return;
        subscribers_[conn->id()] = Subscriber{conn, player_id};
        lobby::Now now = Services::now();
        const int seat = room_.seat_of(player_id);
        std::optional<std::vector<lobby::Message>> missed;
        if (since) missed = room_.events_since(*since);
        if (missed) {
          // The logged events are JSON texts already: joined as they are, never parsed again.
          std::string out = R"({"type":"events","room":)" + json(id_).dump() + R"(,"version":)" +
                            std::to_string(room_.version()) + R"(,"epoch":)" + std::to_string(room_.epoch()) +
                            R"(,"events":[)";
          for (std::size_t i = 0; i < missed->size(); ++i) out += (i ? "," : "") + *(*missed)[i];
          out += ']';
          if (seat >= 0 && seat == room_.seat_to_move()) out += "," + room_.legal_members();
          conn->send(out + "}");
        } else {
          json members = extra ? *extra : json::object();
          if (!ratings_.is_null()) members["ratings"] = ratings_;
          conn->send(room_.state_message(now, seat, members));
        }
        conn->joined(id_, room_.epoch(), room_.version());  // a client of another node: its node relays from here on
        fetch_ratings();
        refresh_presence();
      },
      [this, weak = std::weak_ptr<net::Connection>(c)] {
        if (auto conn = weak.lock())
          conn->send(error_message("storage", "this room is being reloaded from the store: join it again", {}, id_));
      });
}

void RoomActor::fetch_ratings() {
  if (ratings_asked_ || !room_.config().rated || room_.status() != lobby::Status::finished || broken_ ||
      !services_.read_later || !outbox_.empty())
    return;
  ratings_asked_ = true;
  std::array<std::string, 2> seat_ids = {room_.seats()[0].id, room_.seats()[1].id};
  services_.read_later([this, self = shared_from_this(), seat_ids] {
    note_blocking(services_.metrics);
    auto changes = services_.store->game_ratings(id_);
    json seats = json::array({nullptr, nullptr});
    bool any = false;
    for (const store::RatingChange& c : changes) {
      for (int s = 0; s < 2; ++s) {
        if (c.player_id != seat_ids[s]) continue;
        auto round1 = [](double x) { return std::round(x * 10) / 10; };
        seats[s] = {{"before", round1(c.before_rating)},
                    {"after", round1(c.rating)},
                    {"change", round1(c.rating - c.before_rating)},
                    {"deviation", round1(c.deviation)},
                    {"provisional", c.deviation > ratings::kProvisionalDeviation}};
        any = true;
      }
    }
    if (!any) return;
    post([seats](RoomActor& a) {
      a.ratings_ = seats;
      const std::string message = json{{"type", "ratings"}, {"room", a.id_}, {"seats", seats}}.dump();
      for (auto& [id, sub] : a.subscribers_)
        if (auto c = sub.connection.lock()) c->send(message);
    });
  });
}

void RoomActor::unsubscribe(std::uint64_t connection_id) {
  auto it = subscribers_.find(connection_id);
  if (it == subscribers_.end()) return;
  if (auto c = it->second.connection.lock()) c->left(id_);
  subscribers_.erase(it);
  refresh_presence();
  if (room_.status() == lobby::Status::finished && subscribers_.empty() && outbox_.empty() &&
      services_.forget_room)
    services_.forget_room(id_);
}

void RoomActor::refresh_presence() {
  update_listing();
  // A seated player coming or going is told at once (the opponent waits on it); the spectator count is what
  // bursts of joins and leaves move, and is coalesced.
  std::array<bool, 2> seated_online{false, false};
  for (const auto& [id, sub] : subscribers_)
    if (int seat = room_.seat_of(sub.player_id); seat >= 0) seated_online[seat] = true;
  for (int s = 0; s < 2; ++s) {
    if (bot_level(room_.seats()[s].id)) continue;
    if (seated_online[s] != room_.online(s)) apply(room_.set_online(s, seated_online[s], Services::now()), nullptr, {});
  }
  const std::int64_t now = Services::now().steady_ms;
  if (now - presence_told_ms_ >= kPresenceEveryMs) return announce_presence();
  if (presence_pending_) return;
  presence_pending_ = true;
  timer(presence_timer_).arm(std::chrono::milliseconds(presence_told_ms_ + kPresenceEveryMs - now),
                       [weak = weak_from_this()] {
                         if (auto self = weak.lock()) self->announce_presence();
                       });
}

void RoomActor::announce_presence() {
  presence_pending_ = false;
  presence_told_ms_ = Services::now().steady_ms;
  // A bot seat is always online: its player is the server itself.
  std::array<bool, 2> online{bot_level(room_.seats()[0].id).has_value(),
                             bot_level(room_.seats()[1].id).has_value()};
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
    if (timer_) timer_->cancel();
    return;
  }
  auto wait = std::chrono::milliseconds(std::max<std::int64_t>(0, *wait_ms) + 1);
  timer(timer_).arm(wait, [weak = weak_from_this()] {
    auto self = weak.lock();
    if (!self) return;
    self->apply(self->room_.tick(Services::now()), nullptr, {});
  });
}

// ---------------------------------------------------------------------------------------------------------
// Computer opponents: a bot seat's turn is chosen on the bot threads from a clone of the state, comes back
// here, waits out its delay, and is played through act_seat and apply() like a person's whole turn.

void RoomActor::serve_bots() {
  if (broken_ || !services_.bots) return;
  // A bot seat shows online from the moment it is taken (or the room is reopened): refresh_presence() counts
  // it online, and applies the change, which calls serve_bots() again.
  for (int s = 0; s < 2; ++s) {
    if (bot_shown_online_[s] || !bot_level(room_.seats()[s].id)) continue;
    bot_shown_online_[s] = true;
    // Not coalesced like people's presence: the bot is the server itself, online from the start.
    return apply(room_.set_online(s, true, Services::now()), nullptr, {});
  }
  if (room_.status() == lobby::Status::finished) {
    cancel_bot();
    return answer_rematch();
  }
  if (room_.status() != lobby::Status::live) return;
  const auto& seats = room_.seats();
  lobby::Now now = Services::now();
  for (int s = 0; s < 2; ++s) {
    if (!bot_level(seats[s].id)) continue;
    // A bot declines every draw offer (speculatively: the room answers no_draw_offer when there is none).
    lobby::Effect e = room_.decline_draw(seats[s].id, now);
    if (!e.error) return apply(std::move(e), nullptr, {});  // apply() calls serve_bots() again
  }
  int seat = room_.seat_to_move();
  if (seat < 0) return;
  auto level = bot_level(seats[seat].id);
  if (!level) return;
  if (bot_job_ && bot_job_->key == room_.record().turn_count()) return;  // already asked for this turn
  schedule_bot(seat, *level);
}

void RoomActor::schedule_bot(int seat, int level) {
  cancel_bot();
  lobby::Now now = Services::now();
  bots::Settings settings = bots::level_settings(bot_fallback_ ? 0 : level);
  const lobby::ClockSpec& clock = room_.config().clock;
  if (clock.enabled()) settings = bots::for_clock(settings, room_.clock_left(now)[seat], clock.increment_ms);
  static thread_local std::mt19937_64 seeds{std::random_device{}()};
  settings.seed = seeds();

  // In a room with a person, the answer waits until the move it answers has been seen; between two bots,
  // until a spectator has had time to follow the last move. On a clock, never longer than the bot may think.
  const auto& seats = room_.seats();
  const bool person = !bot_level(seats[0].id) || !bot_level(seats[1].id);
  const BotConfig* config = services_.bot_config;
  std::chrono::milliseconds delay = person ? (config ? config->answer_delay : kBotAnswerDelay)
                                           : (config ? config->pace_delay : kBotPaceDelay);
  // On a clock the delay is the bot's own time, and shortened only when that runs short (under 20 times
  // the delay left): the answer is never sooner than promised to someone with time (a level-1 bot thinks for
  // 0.1 s, and would otherwise answer sooner than the 0.4 s promised).
  if (clock.enabled()) delay = std::min(delay, std::chrono::milliseconds(room_.clock_left(now)[seat] / 20));

  auto cancel = std::make_shared<std::atomic<bool>>(false);
  const std::int64_t key = room_.record().turn_count();
  bot_job_ = BotJob{cancel, key, std::chrono::steady_clock::now() + delay};
  // The person the bot plays ("" between two bots): the bot threads share their time between owners.
  std::string owner;
  for (const auto& s : seats)
    if (!s.id.empty() && !bot_level(s.id)) owner = s.id;
  BotRunner::Job job{room_.record().state().clone(), settings, cancel,
                     [weak = weak_from_this(), key](BotAnswer answer) {
                       if (auto self = weak.lock())
                         self->post([key, answer = std::move(answer)](RoomActor& a) mutable {
                           a.on_bot_turn(key, std::move(answer));
                         });
                     },
                     owner};
  if (services_.bots->submit(std::move(job))) return;
  // The bot queue is full (or the server is stopping): ask again in a second.
  spdlog::warn("room {}: the bot queue is full; the bot's turn waits", id_);
  bot_job_.reset();
  timer(bot_timer_).arm(std::chrono::seconds(1), [weak = weak_from_this()] {
    if (auto self = weak.lock()) self->serve_bots();
  });
}

void RoomActor::ask_hint(const std::shared_ptr<net::Connection>& c, const std::string& player_id,
                         const std::string& ref) {
  if (auto refused = room_.may_hint(player_id)) {
    lobby::Effect e;
    e.error = std::move(*refused);
    return apply(std::move(e), c, ref);
  }
  if (!services_.bots) return c->send(error_message("no_hints", "this server plays no bots", ref, id_));
  if (hint_cancel_) return c->send(error_message("hint_pending", "a hint is being searched", ref, id_));
  const int seat = room_.seat_of(player_id);
  const int level = std::max(1, bot_level(room_.seats()[1 - seat].id).value_or(1));
  bots::Settings settings = bots::level_settings(level);
  static thread_local std::mt19937_64 seeds{std::random_device{}()};
  settings.seed = seeds();
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  hint_cancel_ = cancel;
  const std::int64_t key = room_.record().turn_count();
  const char letter = room_.game().side_letter(room_.record().state().to_move());
  BotRunner::Job job{room_.record().state().clone(), settings, cancel,
                     [weak = weak_from_this(), c, player_id, ref, key, letter](BotAnswer answer) {
                       auto self = weak.lock();
                       if (!self) return;
                       std::string turn = std::string(1, letter) + "/";
                       for (const std::string& item : answer.items) turn += item + "/";
                       self->post([c, player_id, ref, key, turn](RoomActor& a) {
                         a.hint_cancel_.reset();
                         ++a.services_.metrics.hints;
                         a.apply(a.room_.hint(player_id, key, turn, Services::now()), c, ref);
                       });
                     },
                     player_id};
  if (services_.bots->submit(std::move(job))) return;
  hint_cancel_.reset();
  c->send(error_message("busy", "the computer is busy: ask again in a moment", ref, id_));
}

void RoomActor::on_bot_turn(std::int64_t key, BotAnswer answer) {
  if (!bot_job_ || bot_job_->key != key || bot_job_->cancel->load()) {
    ++services_.metrics.bot_turns_dropped;
    return;
  }
  const auto wait = bot_job_->ready - std::chrono::steady_clock::now();
  if (wait <= std::chrono::steady_clock::duration::zero()) return play_bot_turn(key, std::move(answer));
  timer(bot_timer_).arm(wait, [weak = weak_from_this(), key, answer = std::move(answer)]() mutable {
    if (auto self = weak.lock()) self->play_bot_turn(key, std::move(answer));
  });
}

void RoomActor::play_bot_turn(std::int64_t key, BotAnswer answer) {
  if (!bot_job_ || bot_job_->key != key || bot_job_->cancel->load()) {
    ++services_.metrics.bot_turns_dropped;
    return;
  }
  // Once the move it answers has gone out (stored and announced): a bot answering at once must not keep
  // the outbox from ever emptying, which would hold back everyone waiting to join the room.
  if (!outbox_.empty())
    return when_settled([this, self = shared_from_this(), key, answer = std::move(answer)]() mutable {
      play_bot_turn(key, std::move(answer));
    });
  bot_job_.reset();
  int seat = room_.seat_to_move();
  if (broken_ || seat < 0 || !bot_level(room_.seats()[seat].id) || room_.record().turn_count() != key) {
    ++services_.metrics.bot_turns_dropped;
    return serve_bots();
  }
  // The whole turn in one act_seat, exactly as a person's `act` with every action and end_turn: applied
  // whole or not at all, stored, then announced.
  lobby::Effect effect;
  if (answer.items.empty() && !answer.end_turn)
    effect.error = lobby::Failure{"illegal", "the bot found no turn"};
  else
    effect = room_.act_seat(seat, answer.items, answer.end_turn, Services::now());
  if (effect.error) {
    // Never expected: the bot plays the rules' own legal actions. The room must not stall, so the next
    // attempt is random play (level 0); a second failure leaves the bot's clock (if any) to end the game.
    std::string turn;
    for (const auto& item : answer.items) turn += item + "/";
    spdlog::error("room {}: the bot's turn '{}'{} was refused ({}: {}){}", id_, turn,
                  answer.end_turn ? " with end of turn" : "", effect.error->code, effect.error->message,
                  bot_fallback_ ? "; giving up" : "; trying random play");
    if (bot_fallback_) return;
    bot_fallback_ = true;
    return serve_bots();
  }
  bot_fallback_ = false;
  apply(std::move(effect), nullptr, {});
}

void RoomActor::cancel_bot() {
  if (bot_job_) bot_job_->cancel->store(true);
  bot_job_.reset();
  if (bot_timer_) bot_timer_->cancel();
}

// A bot agrees at once to a rematch its human opponent asked for (never asks first: two bots would rematch
// for ever).
void RoomActor::answer_rematch() {
  const auto& seats = room_.seats();
  std::array<bool, 2> bot{bot_level(seats[0].id).has_value(), bot_level(seats[1].id).has_value()};
  if (bot[0] == bot[1]) return;  // no bot, or no person
  const int b = bot[0] ? 0 : 1;
  const auto& asked = room_.rematch_asked();
  if (!asked[1 - b] || asked[b]) return;
  lobby::Effect e = room_.ask_rematch(seats[b].id, Services::now());
  if (!e.error) apply(std::move(e), nullptr, {});
}

}  // namespace cinq::server
