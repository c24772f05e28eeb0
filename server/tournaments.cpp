// Tournaments on the server: the desk (tournaments.h) and what it shows of a tournament.
#include "server/tournaments.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <utility>

#include "ratings/glicko2.h"
#include "rules/registry.h"
#include "mail/account.h"
#include "mail/compose.h"
#include "mail/words.h"
#include "server/identity.h"
#include "server/mail_sender.h"
#include "server/metrics.h"
#include "server/moderation_desk.h"
#include "server/postman.h"
#include "server/room_bus.h"
#include "server/room_actor.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/stored_rooms.h"
#include "server/workers.h"

namespace cinq::server {

using nlohmann::json;
namespace tn = tournament;

namespace {

constexpr int kListLimit = 100;
constexpr int kSweepEvery = 10;  // ticks (seconds)
constexpr int kClaimEvery = 5;   // ticks: several nodes look for tournaments nobody runs
constexpr int kOrphansAtOnce = 100;

std::int64_t now_ms() { return Services::now().unix_ms; }

// A player's rating in a game and pool, as the store has it (1500, provisional, if none). A worker's read.
lobby::SeatRating rating_of(store::Store& store, const std::string& player, const std::string& game,
                            const std::string& pool) {
  lobby::SeatRating r;
  for (const store::RatingRow& row : store.ratings(player)) {
    if (row.game != game || row.pool != pool) continue;
    r.rating = row.rating;
    r.provisional = row.deviation > ratings::kProvisionalDeviation;
  }
  return r;
}


TournamentDesk::Reply refused(std::string code, std::string message) {
  return {std::move(code), std::move(message), nullptr};
}

const std::string kBusy = "the server is busy or cannot reach its store: try again in a moment";

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// The desk

TournamentDesk::TournamentDesk(Services& services, RoomDirectory& rooms, Workers& workers)
    : services_(services), rooms_(rooms), workers_(workers) {}

TournamentDesk::~TournamentDesk() { stop(); }

bool TournamentDesk::submit(std::function<void()> job) {
  if (stopping_) return false;
  return workers_.submit(Workers::Kind::quick, std::move(job));
}

void TournamentDesk::start(net::Server& server) {
  std::lock_guard lock(timer_mutex_);
  strand_ = server.make_strand();
  timer_ = server.make_timer(strand_);
  arm();
}

// With timer_mutex_ held.
void TournamentDesk::arm() {
  if (!timer_ || stopping_) return;
  timer_->arm(std::chrono::seconds(1), [this] {
    if (stopping_) return;
    if (!tick_queued_.exchange(true) && !submit([this] {
          tick_queued_ = false;
          tick();
        }))
      tick_queued_ = false;
    if (++ticks_ % kSweepEvery == 0 && !sweep_queued_.exchange(true) && !submit([this] {
          sweep_queued_ = false;
          sweep();
        }))
      sweep_queued_ = false;
    std::lock_guard lock(timer_mutex_);
    arm();
  });
}

void TournamentDesk::stop() {
  stopping_ = true;
  std::lock_guard lock(timer_mutex_);
  if (timer_) timer_->cancel();
  timer_.reset();
  strand_.reset();
}

bool TournamentDesk::cluster() const { return services_.bus != nullptr; }

TournamentDesk::Entry* TournamentDesk::find_locked(const std::string& id, bool* failed) {
  // Another node's tournament is read at each use; one of this node's when another node stored it anew.
  auto it = entries_.find(id);
  if (it != entries_.end() && it->second.owned && !it->second.stale) return &it->second;
  note_blocking(services_.metrics);
  auto row = services_.store->tournament(id);
  if (row.failed()) {
    if (failed) *failed = true;
    return nullptr;
  }
  if (!row) return nullptr;
  std::string why;
  auto t = tn::Tournament::from_json(json::parse(row->state, nullptr, false), &why);
  if (!t) {
    spdlog::error("tournament {}: its stored state cannot be read: {}", id, why);
    if (failed) *failed = true;
    return nullptr;
  }
  const bool known = it != entries_.end();
  Entry& e = entries_[id];  // an entry known already keeps whether it is this node's, and its rooms in making
  if (!known) e.owned = !cluster();
  e.t = std::move(*t);
  e.row_version = row->version;
  e.stale = false;
  return &e;
}

// The mails of a pairing: each paired player whose account has a confirmed address (and wants your-turn
// mails) is told its game is ready, in its language; queued with the save that stores the pairing, under ids
// of the game and seat (queued once, whatever happens after).
std::vector<store::MailRow> TournamentDesk::paired_mails(const tn::Spec& spec, const std::vector<tn::Game>& games,
                                                         std::int64_t now) {
  const std::string& name = spec.name;
  const tn::Pace& pace = spec.pace;
  std::vector<store::MailRow> out;
  const Postman* postman = services_.postman;
  if (!postman) return out;
  const MailConfig& config = postman->config();
  for (const tn::Game& g : games) {
    if (!g.pending()) continue;
    for (int s = 0; s < 2; ++s) {
      note_blocking(services_.metrics);
      auto account = services_.store->account_mail(g.seats[s]);
      if (account.failed() || !account || account->address.empty()) continue;
      const mail::AccountPrefs prefs = mail::AccountPrefs::stored(account->prefs);
      if (!prefs.turn) continue;
      const std::string language = prefs.mail_language();
      const std::string round = std::to_string(g.round > 0 ? g.round : g.board);
      const std::string url = config.public_url + "/#/room/" + g.id;
      mail::Outgoing m;
      m.from = {config.from_name, config.from};
      m.to = {"", account->address};
      m.subject = mail::text(language, "tournament.ready.subject", {{"tournament", name}, {"round", round}});
      m.message_id = "tournament." + g.id + "." + std::to_string(s) + "@" + config.domain;
      m.date_ms = now;
      m.unsubscribe_url = postman->account_unsubscribe_url(*account);
      m.text = mail::text(language, "tournament.ready", {{"tournament", name}, {"round", round}, {"link", url}}) +
               (pace.correspondence()
                    ? mail::text(language, "tournament.ready.days", {{"days", std::to_string(pace.days)}})
                    : mail::text(language, "tournament.ready.live"));
      out.push_back(postman->account_row("tournament", m, now));
    }
  }
  return out;
}

bool TournamentDesk::store_locked(Entry& e, tn::Tournament next, std::string& why, std::vector<store::MailRow> mails) {
  note_blocking(services_.metrics);
  store::TournamentRow row = tournament_row(next, now_ms());
  row.version = e.row_version + 1;
  store::Error error;
  const bool mailing = !mails.empty();
  if (mailing) services_.metrics.mail_queued += static_cast<std::int64_t>(mails.size());
  if (!services_.store->put_tournament(row, e.row_version, mails, error)) {
    why = error.message;
    // Several nodes: another node stored it meanwhile (the caller applies its change again); alone: the
    // store failed. Either way it is read again at its next use: the store is right.
    if (cluster())
      spdlog::info("tournament {}: version {} not stored: {}; read again", next.id(), row.version, why);
    else
      spdlog::error("tournament {}: could not store version {}: {}; read again", next.id(), row.version, why);
    e.stale = true;
    return false;
  }
  e.t = std::move(next);
  e.row_version = row.version;
  if (mailing && services_.mail_sender) services_.mail_sender->poke();
  return true;
}

// The blocks between the tournament's entrants (the moderation desk's, in memory): its pairing avoids them.
tn::Blocks TournamentDesk::blocks_among(const tn::Tournament& t) const {
  if (!services_.moderation) return {};
  std::vector<std::string> ids;
  for (const tn::Entrant& e : t.entrants()) ids.push_back(e.id);
  return services_.moderation->blocks_among(ids);
}

TournamentDesk::Reply TournamentDesk::change(const std::string& id, const Change& fn, bool show) {
  std::lock_guard lock(mutex_);
  for (int attempt = 1;; ++attempt) {
    bool failed = false;
    Entry* e = find_locked(id, &failed);
    if (!e) return failed ? refused("storage", kBusy) : refused("no_tournament", "no tournament '" + id + "'");
    tn::Tournament next = e->t;
    const std::int64_t now = now_ms();
    if (auto error = fn(next, now)) return refused(error->code, error->message);
    // Only the node that runs it advances it (pairs, starts, ends): another node's change waits for its tick.
    tn::Step step;
    if (e->owned) step = next.advance(now, blocks_among(next));
    const bool changed = next.version() != e->t.version();
    if (changed) {
      std::string why;
      if (!store_locked(*e, std::move(next), why, paired_mails(e->t.spec(), step.paired, now))) {
        // Several nodes: another node's write came first; the change is applied again to the row as it is.
        if (cluster() && attempt < 4) continue;
        return refused("storage", kBusy);
      }
    }
    // Stored first, then the rooms (those whose making failed before are tried again here).
    if (e->owned) make_rooms_locked(*e, {});
    if (changed) {
      tell_watchers(*e);
      if (services_.bus) services_.bus->tournament_changed(id);
    }
    return {{}, {}, show ? tournament_json(e->t) : json(nullptr)};
  }
}

void TournamentDesk::make_rooms_locked(Entry& e, const std::vector<tn::Game>& again) {
  std::vector<tn::Game> games = e.t.rooms_to_create();
  for (const tn::Game& g : again) games.push_back(g);
  for (const tn::Game& g : games) {
    if (!g.pending() || e.making.count(g.id)) continue;
    // Several nodes: its room made already by the node that ran the tournament before (it died between the
    // room's first save and the attach): attached, not made twice. One node alone made every room it knows.
    if (g.room.empty() && cluster()) {
      note_blocking(services_.metrics);
      auto stored = services_.store->game(g.id);
      if (stored.failed()) continue;  // tried again at the next tick
      if (stored) {
        e.making.insert(g.id);  // attach() takes it out
        const std::string id = e.t.id(), gid = g.id;
        submit([this, id, gid] { attach(id, gid, true); });
        continue;
      }
    }
    e.making.insert(g.id);
    make_room(e, g);
  }
}

// A room for `game`, both entrants seated, under the game's id; attached once its first save committed.
void TournamentDesk::make_room(const Entry& e, const tn::Game& game) {
  const tn::Spec& spec = e.t.spec();
  const Game* rules = find_game(spec.game);
  const lobby::Now now = Services::now();
  lobby::RoomConfig config{game.id, rules, spec.options, tournament_clock(spec.pace), false, {}, spec.rated};
  if (!rules) {
    spdlog::error("tournament {}: game {}: no game '{}' on this server", e.t.id(), game.id, spec.game);
    return;  // left in `making`: not tried again until a restart
  }
  auto room = lobby::Room::create(config, now);
  if (!room) {
    spdlog::error("tournament {}: game {}: no room can be made: {}", e.t.id(), game.id, room.error().message);
    return;
  }
  for (int s = 0; s < 2; ++s) {
    const tn::Entrant* entrant = e.t.entrant(game.seats[s]);
    lobby::Player p{game.seats[s], entrant ? entrant->name : game.seats[s], entrant ? entrant->name : "", {}};
    p.rating = rating_of(*services_.store, p.id, spec.game, config.clock.kind());
    (void)room->sit(p, s, now);
  }
  auto actor = rooms_.add(std::move(*room));
  const std::string id = e.t.id(), gid = game.id;
  actor->post([this, id, gid](RoomActor& a) {
    a.save_then([this, id, gid] { submit([this, id, gid] { attach(id, gid, true); }); },
                [this, id, gid] { submit([this, id, gid] { attach(id, gid, false); }); });
  });
}

void TournamentDesk::attach(const std::string& id, const std::string& gid, bool ok) {
  std::lock_guard lock(mutex_);
  Entry* e = find_locked(id);
  if (!e) return;
  e->making.erase(gid);
  if (!ok) return;  // tried again at the next tick
  tn::Tournament next = e->t;
  if (auto error = next.attach_room(gid, gid)) {
    spdlog::error("tournament {}: room {} cannot be attached: {}", id, gid, error->message);
    return;
  }
  if (next.version() != e->t.version()) {
    std::string why;
    if (!store_locked(*e, std::move(next), why)) return;
    e = &entries_.at(id);
    tell_watchers(*e);
  }
  if (const tn::Game* g = e->t.game(gid)) tell_paired(*e, *g);
}

void TournamentDesk::tell_paired(const Entry& e, const tn::Game& g) {
  if (!to_player_ || !g.pending()) return;
  for (int s = 0; s < 2; ++s) {
    const tn::Entrant* other = e.t.entrant(g.seats[1 - s]);
    json m = {{"type", "tournament_game"},
              {"tournament", e.t.id()},
              {"name", e.t.spec().name},
              {"round", g.round},
              {"board", g.board},
              {"game", g.id},
              {"room", g.room.empty() ? g.id : g.room},
              {"side", s},
              {"opponent", {{"id", g.seats[1 - s]}, {"name", other ? other->name : ""}}}};
    to_player_(g.seats[s], m.dump());
  }
}

void TournamentDesk::tell_watchers(const Entry& e) {
  std::vector<std::shared_ptr<net::Connection>> to;
  {
    std::lock_guard lock(watch_mutex_);
    auto it = watchers_.find(e.t.id());
    if (it == watchers_.end()) return;
    for (auto w = it->second.begin(); w != it->second.end();) {
      if (auto c = w->second.lock()) {
        to.push_back(std::move(c));
        ++w;
      } else {
        w = it->second.erase(w);
      }
    }
  }
  if (to.empty()) return;
  auto text = std::make_shared<const std::string>(
      json{{"type", "tournament"}, {"tournament", tournament_json(e.t)}}.dump());
  for (auto& c : to) c->send(text);
}

void TournamentDesk::watch(const std::string& id, const std::shared_ptr<net::Connection>& c) {
  std::lock_guard lock(watch_mutex_);
  watchers_[id][c->id()] = c;
}

void TournamentDesk::unwatch(const std::string& id, std::uint64_t connection) {
  std::lock_guard lock(watch_mutex_);
  auto it = watchers_.find(id);
  if (it == watchers_.end()) return;
  it->second.erase(connection);
  if (it->second.empty()) watchers_.erase(it);
}

void TournamentDesk::closed(std::uint64_t connection) {
  std::lock_guard lock(watch_mutex_);
  for (auto it = watchers_.begin(); it != watchers_.end();) {
    it->second.erase(connection);
    it = it->second.empty() ? watchers_.erase(it) : std::next(it);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Commands

bool TournamentDesk::create(const lobby::Player& by, tn::Spec spec, Done done) {
  return submit([this, by, spec = std::move(spec), done = std::move(done)]() mutable {
    spec.creator = by.id;
    if (auto bad = tn::check_spec(spec)) return done(refused(bad->code, bad->message));
    const std::int64_t now = now_ms();
    std::lock_guard lock(mutex_);
    // A fresh id (alphanumeric: its games' ids `ID-R-B` are room ids the client's routes take).
    std::string id;
    for (int i = 0; i < 5 && id.empty(); ++i) {
      id = random_id(8);
      note_blocking(services_.metrics);
      auto taken = services_.store->tournament(id);
      if (taken.failed()) return done(refused("storage", kBusy));
      if (taken.has_value() || entries_.count(id)) id.clear();
    }
    if (id.empty()) return done(refused("storage", kBusy));
    Entry e;
    e.t = tn::Tournament(id, std::move(spec), now);
    store::TournamentRow row = tournament_row(e.t, now);
    row.version = 1;
    store::Error error;
    note_blocking(services_.metrics);
    if (!services_.store->put_tournament(row, 0, {}, error)) {
      spdlog::error("tournament {}: could not store it: {}", id, error.message);
      return done(refused("storage", kBusy));
    }
    e.row_version = 1;
    // Several nodes: the node that makes it runs it (should the lease not be had now, a node takes it within
    // seconds as a tournament nobody runs).
    if (cluster()) {
      store::Error lease_error;
      auto lease = services_.store->acquire(store::tournament_lease(id), services_.bus->new_room_fence().node, lease_error);
      e.owned = lease && lease->lease > 0 && !handed_over_;
      e.lease = lease ? lease->lease : 0;
    }
    Entry& stored = entries_[id] = std::move(e);
    spdlog::info("tournament {} ({}, {}) created by {}", id, row.format, row.game, by.username);
    done({{}, {}, tournament_json(stored.t)});
  });
}

bool TournamentDesk::join(const std::string& id, const lobby::Player& by, Done done) {
  return submit([this, id, by, done = std::move(done)] {
    // The rating first, off the lock: the game and pool come from the tournament as it is now.
    std::string game, pool;
    {
      std::lock_guard lock(mutex_);
      if (Entry* e = find_locked(id)) {
        game = e->t.spec().game;
        pool = tournament_clock(e->t.spec().pace).kind();
      }
    }
    const double rating = game.empty() ? 1500 : rating_of(*services_.store, by.id, game, pool).rating;
    done(change(id, [&](tn::Tournament& t, std::int64_t now) -> std::optional<tn::Error> {
      // A player marked absent (a forfeit) who joins again is back: paired again from the next pairing.
      if (const tn::Entrant* e = t.entrant(by.id); e && e->absent && !e->withdrawn)
        return t.set_absent(by.id, false, now);
      return t.join(by.id, by.username.empty() ? by.name : by.username, rating, now);
    }));
  });
}

bool TournamentDesk::withdraw(const std::string& id, const lobby::Player& by, Done done) {
  return submit([this, id, by, done = std::move(done)] {
    std::vector<std::string> playing;  // the rooms of its pending games
    Reply r = change(id, [&](tn::Tournament& t, std::int64_t now) -> std::optional<tn::Error> {
      playing.clear();  // applied again if another node's write came first
      const bool started = t.status() == tn::Status::running;
      auto error = t.withdraw(by.id, now);
      if (!error && started)
        for (const tn::Game& g : t.games())
          if (g.pending() && (g.seats[0] == by.id || g.seats[1] == by.id)) playing.push_back(g.room.empty() ? g.id : g.room);
      return error;
    });
    // After the start, a player who withdraws resigns its games in play: each counts as its opponent's win.
    if (r.code.empty())
      for (const std::string& room : playing)
        if (auto actor = rooms_.find(room))
          actor->post([player = by.id](RoomActor& a) {
            lobby::Effect e = a.room().resign(player, Services::now());
            if (!e.error) a.apply(std::move(e), nullptr, {});
          });
    done(std::move(r));
  });
}

bool TournamentDesk::start_now(const std::string& id, const lobby::Player& by, Done done) {
  return submit([this, id, by, done = std::move(done)] {
    done(change(id, [&](tn::Tournament& t, std::int64_t now) -> std::optional<tn::Error> {
      if (t.spec().creator != by.id) return tn::Error{"not_creator", "only the tournament's creator starts it"};
      return t.start(now);
    }));
  });
}

bool TournamentDesk::get(const std::string& id, Done done) {
  return submit([this, id, done = std::move(done)] {
    std::lock_guard lock(mutex_);
    bool failed = false;
    Entry* e = find_locked(id, &failed);
    if (!e) return done(failed ? refused("storage", kBusy) : refused("no_tournament", "no tournament '" + id + "'"));
    done({{}, {}, tournament_json(e->t)});
  });
}

bool TournamentDesk::list(const std::string& status, Done done) {
  return submit([this, status, done = std::move(done)] {
    note_blocking(services_.metrics);
    auto rows = services_.store->tournaments(status, kListLimit);
    if (rows.failed()) return done(refused("storage", kBusy));
    json out = json::array();
    for (const store::TournamentRow& row : rows) out.push_back(tournament_summary(row));
    done({{}, {}, std::move(out)});
  });
}

// ---------------------------------------------------------------------------------------------------------
// Results, the tick, the sweep, start-up

void TournamentDesk::room_over(const std::string& room, const lobby::Room& state) {
  if (room.find('-') == std::string::npos) return;  // not a tournament's game: their ids are `ID-R-B`, `ID-aN`
  auto outcome = tournament_outcome(state);
  if (!outcome) return;
  // Should the workers not take it, the sweep finds the result within 10 s.
  submit([this, room, o = *outcome] { record(room, o); });
}

void TournamentDesk::record(const std::string& room, const TournamentOutcome& o) {
  const std::string id = room.substr(0, room.find('-'));
  {
    std::lock_guard lock(mutex_);
    Entry* e = find_locked(id);
    if (!e) return;
    const tn::Game* g = e->t.game(room);
    if (!g || !g->pending()) return;
  }
  Reply r = change(id, [&](tn::Tournament& t, std::int64_t now) -> std::optional<tn::Error> {
    tn::Recorded rec = o.forfeit ? t.record_forfeit(room, o.present, now) : t.record_result(room, o.result, now);
    return rec.error;
  }, false);
  if (!r.code.empty()) spdlog::warn("tournament {}: the result of {} was refused: {}", id, room, r.message);
}

void TournamentDesk::tick() {
  if (handed_over_) return;
  if (cluster() && tick_runs_++ % kClaimEvery == 0) claim_orphans();
  std::vector<std::string> ids;
  std::vector<std::pair<std::string, std::string>> resign;  // (room, player): a withdrawn player's game here
  {
    std::lock_guard lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end();) {
      Entry& e = it->second;
      // Finished ones, and copies of other nodes' tournaments, are read from the store when asked for.
      if ((e.t.status() == tn::Status::finished || !e.owned) && e.making.empty()) {
        it = entries_.erase(it);
        continue;
      }
      if (e.owned && e.t.status() != tn::Status::finished) {
        ids.push_back(it->first);
        for (const tn::Game& g : e.t.games())
          if (g.pending() && !g.room.empty())
            for (const std::string& seat : g.seats)
              if (const tn::Entrant* who = e.t.entrant(seat); who && who->withdrawn) resign.emplace_back(g.room, seat);
      }
      ++it;
    }
  }
  // A player who withdrew on another node, whose game is played here: its game is resigned here.
  for (const auto& [room, player] : resign)
    if (auto actor = rooms_.find(room))
      actor->post([player = player](RoomActor& a) {
        if (a.room().status() == lobby::Status::finished) return;
        lobby::Effect e = a.room().resign(player, Services::now());
        if (!e.error) a.apply(std::move(e), nullptr, {});
      });
  // advance() for each (planned starts, arena pairing, finishes); rooms not made yet are tried again.
  for (const std::string& id : ids)
    change(id, [](tn::Tournament&, std::int64_t) -> std::optional<tn::Error> { return std::nullopt; }, false);
}

void TournamentDesk::claim_orphans() {
  store::Store& store = *services_.store;
  const std::string node = services_.bus->new_room_fence().node;
  // The leases of this node's tournaments: still its own? (a node paused past its heartbeat lost them)
  std::vector<std::string> mine;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, e] : entries_)
      if (e.owned && e.t.status() != tn::Status::finished) mine.push_back(id);
  }
  for (const std::string& id : mine) {
    store::Error error;
    note_blocking(services_.metrics);
    auto lease = store.acquire(store::tournament_lease(id), node, error);
    if (!lease) continue;  // the store did not answer: kept until it does
    std::lock_guard lock(mutex_);
    auto it = entries_.find(id);
    if (it == entries_.end()) continue;
    if (lease->lease > 0) {
      it->second.lease = lease->lease;
    } else {
      spdlog::warn("tournament {}: node {} runs it now", id, lease->owner);
      it->second.owned = false;
    }
  }
  // The tournaments nobody runs: shuffled, so that nodes looking at once mostly try different ones.
  auto orphans = store.tournament_orphans(kOrphansAtOnce);
  if (orphans.failed() || orphans.empty()) return;
  static thread_local std::mt19937 shuffle{std::random_device{}()};
  std::shuffle(orphans.begin(), orphans.end(), shuffle);
  for (const std::string& id : orphans) {
    if (handed_over_) return;
    store::Error error;
    note_blocking(services_.metrics);
    auto lease = store.acquire(store::tournament_lease(id), node, error);
    if (!lease || lease->lease <= 0) continue;  // another node took it first
    auto row = store.tournament(id);
    if (row.failed() || !row) continue;  // a node runs it again (its lease): taken at the next look, if not
    std::lock_guard lock(mutex_);
    if (adopt_locked(*row, lease->lease)) spdlog::info("tournament {}: taken over (lease {})", id, lease->lease);
  }
}

void TournamentDesk::changed_elsewhere(const std::string& id) {
  submit([this, id] {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(id); it != entries_.end()) it->second.stale = true;
    {
      std::lock_guard watch_lock(watch_mutex_);
      if (!watchers_.count(id)) return;
    }
    if (Entry* e = find_locked(id)) tell_watchers(*e);
  });
}

void TournamentDesk::hand_over() {
  if (!cluster() || handed_over_.exchange(true)) return;
  const std::string node = services_.bus->new_room_fence().node;
  std::vector<std::pair<std::string, std::int64_t>> leases;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, e] : entries_) {
      if (e.owned && e.lease > 0) leases.emplace_back(id, e.lease);
      e.owned = false;
    }
  }
  for (const auto& [id, lease] : leases) {
    store::Error error;
    if (!services_.store->release(store::tournament_lease(id), node, lease, error))
      spdlog::warn("tournament {}: its lease could not be given up ({}); it goes with the node's", id, error.message);
  }
  if (!leases.empty()) spdlog::info("tournaments: {} given up to the other nodes", leases.size());
}

void TournamentDesk::sweep() {
  if (handed_over_) return;
  std::vector<std::string> rooms;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, e] : entries_)
      if (e.owned)
        for (const tn::Game& g : e.t.games())
          if (g.pending() && !g.room.empty()) rooms.push_back(g.room);
  }
  for (const std::string& room : rooms) {
    note_blocking(services_.metrics);
    auto row = services_.store->game(room);
    if (row.failed() || !row) continue;
    if (auto outcome = tournament_outcome(*row)) record(room, *outcome);
  }
}

bool TournamentDesk::adopt_locked(const store::TournamentRow& row, std::int64_t lease) {
  std::string why;
  auto t = tn::Tournament::from_json(json::parse(row.state, nullptr, false), &why);
  if (!t) {
    spdlog::error("tournament {}: its stored state cannot be read: {}", row.id, why);
    return false;
  }
  Entry& e = entries_[row.id];
  e.t = std::move(*t);
  e.row_version = row.version;
  e.owned = true;
  e.lease = lease;
  e.stale = false;
  // Each pending game: its room finished (the result recorded), in the store (attached), or missing (made
  // again under the same id).
  tn::Tournament next = e.t;
  const std::int64_t now = now_ms();
  std::vector<tn::Game> again;
  for (const tn::Game& g : e.t.games()) {
    if (!g.pending()) continue;
    note_blocking(services_.metrics);
    auto stored = services_.store->game(g.id);
    if (stored.failed()) continue;  // the sweep tries again
    if (!stored) {
      if (!g.room.empty()) {
        spdlog::warn("tournament {}: the room of {} is missing from the store: made again", row.id, g.id);
        again.push_back(g);
      }
      continue;
    }
    if (g.room.empty()) (void)next.attach_room(g.id, g.id);
    if (auto o = tournament_outcome(*stored)) {
      tn::Recorded rec = o->forfeit ? next.record_forfeit(g.id, o->present, now) : next.record_result(g.id, o->result, now);
      if (rec.error) spdlog::warn("tournament {}: the result of {} was refused: {}", row.id, g.id, rec.error->message);
    }
  }
  tn::Step step = next.advance(now, blocks_among(next));
  if (next.version() != e.t.version()) {
    if (!store_locked(e, std::move(next), why, paired_mails(e.t.spec(), step.paired, now))) return true;
    tell_watchers(e);
    if (services_.bus) services_.bus->tournament_changed(row.id);
  }
  make_rooms_locked(e, again);
  spdlog::info("tournament {}: loaded ({}, round {})", row.id, tn::status_name(e.t.status()), e.t.round());
  return true;
}

int TournamentDesk::load() {
  // Several nodes: each takes its share of the tournaments nobody runs, at its first tick and every 5 s.
  if (cluster()) return 0;
  std::vector<store::TournamentRow> rows;
  for (const char* status : {"open", "running"}) {
    auto some = services_.store->tournaments(status, 1 << 20);
    if (some.failed()) spdlog::error("tournaments: cannot read the {} ones: {}", status, some.error().message);
    for (auto& row : some) rows.push_back(std::move(row));
  }
  int loaded = 0;
  std::lock_guard lock(mutex_);
  for (const store::TournamentRow& row : rows)
    if (adopt_locked(row, 0)) ++loaded;
  return loaded;
}

}  // namespace cinq::server
