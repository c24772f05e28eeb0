// Tournaments on the server: the desk (tournaments.h) and what it shows of a tournament.
#include "server/tournaments.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "ratings/glicko2.h"
#include "rules/registry.h"
#include "mail/account.h"
#include "mail/compose.h"
#include "server/identity.h"
#include "server/mail_sender.h"
#include "server/postman.h"
#include "server/metrics.h"
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

TournamentDesk::Entry* TournamentDesk::find_locked(const std::string& id, bool* failed) {
  if (auto it = entries_.find(id); it != entries_.end()) return &it->second;
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
  Entry& e = entries_[id];
  e.t = std::move(*t);
  e.row_version = row->version;
  return &e;
}

// The mails of a pairing: each paired player whose account has a confirmed address (and wants your-turn
// mails) is told its game is ready, in its language; queued with the save that stores the pairing, under ids
// of the game and seat (queued once, whatever happens after).
std::vector<store::MailRow> TournamentDesk::paired_mails(const std::string& name, const std::vector<tn::Game>& games,
                                                         std::int64_t now) {
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
      const bool fr = prefs.mail_language() == "fr";
      const std::string round = std::to_string(g.round > 0 ? g.round : g.board);
      const std::string url = config.public_url + "/#/room/" + g.id;
      mail::Outgoing m;
      m.from = {config.from_name, config.from};
      m.to = {"", account->address};
      m.subject = fr ? name + " : votre partie de la ronde " + round + " est prête"
                     : name + ": your round " + round + " game is ready";
      m.message_id = "tournament." + g.id + "." + std::to_string(s) + "@" + config.domain;
      m.date_ms = now;
      m.unsubscribe_url = postman->account_unsubscribe_url(*account);
      m.text = (fr ? "Votre partie de la ronde " + round + " du tournoi " + name + " vous attend :\n" + url +
                         "\n\nEn direct, chaque camp a 30 secondes pour jouer son premier coup.\n"
                   : "Your round " + round + " game of the tournament " + name + " is waiting for you:\n" + url +
                         "\n\nLive, each side has 30 seconds to make its first move.\n");
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
    spdlog::error("tournament {}: could not store version {}: {}; read again", next.id(), row.version, why);
    const std::string id = next.id();
    auto making = std::move(e.making);
    entries_.erase(id);  // read again at its next use: the store is right
    if (Entry* again = find_locked(id)) again->making = std::move(making);
    return false;
  }
  e.t = std::move(next);
  e.row_version = row.version;
  if (mailing && services_.mail_sender) services_.mail_sender->poke();
  return true;
}

TournamentDesk::Reply TournamentDesk::change(const std::string& id, const Change& fn, bool show) {
  std::lock_guard lock(mutex_);
  bool failed = false;
  Entry* e = find_locked(id, &failed);
  if (!e) return failed ? refused("storage", kBusy) : refused("no_tournament", "no tournament '" + id + "'");
  tn::Tournament next = e->t;
  const std::int64_t now = now_ms();
  if (auto error = fn(next, now)) return refused(error->code, error->message);
  tn::Step step = next.advance(now);
  const bool changed = next.version() != e->t.version();
  if (changed) {
    std::string why;
    if (!store_locked(*e, std::move(next), why, paired_mails(e->t.spec().name, step.paired, now))) return refused("storage", kBusy);
    e = &entries_.at(id);
  }
  // Stored first, then the rooms (those whose making failed before are tried again here).
  make_rooms_locked(*e, {});
  if (changed) tell_watchers(*e);
  return {{}, {}, show ? tournament_json(e->t) : json(nullptr)};
}

void TournamentDesk::make_rooms_locked(Entry& e, const std::vector<tn::Game>& again) {
  std::vector<tn::Game> games = e.t.rooms_to_create();
  for (const tn::Game& g : again) games.push_back(g);
  for (const tn::Game& g : games) {
    if (!g.pending() || !e.making.insert(g.id).second) continue;
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
  std::vector<std::string> ids;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, e] : entries_)
      if (e.t.status() != tn::Status::finished) ids.push_back(id);
  }
  // advance() for each (planned starts, arena pairing, finishes); rooms not made yet are tried again.
  for (const std::string& id : ids)
    change(id, [](tn::Tournament&, std::int64_t) -> std::optional<tn::Error> { return std::nullopt; }, false);
}

void TournamentDesk::sweep() {
  std::vector<std::string> rooms;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, e] : entries_)
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

int TournamentDesk::load() {
  std::vector<store::TournamentRow> rows;
  for (const char* status : {"open", "running"}) {
    auto some = services_.store->tournaments(status, 1 << 20);
    if (some.failed()) spdlog::error("tournaments: cannot read the {} ones: {}", status, some.error().message);
    for (auto& row : some) rows.push_back(std::move(row));
  }
  int loaded = 0;
  std::lock_guard lock(mutex_);
  for (const store::TournamentRow& row : rows) {
    std::string why;
    auto t = tn::Tournament::from_json(json::parse(row.state, nullptr, false), &why);
    if (!t) {
      spdlog::error("tournament {}: its stored state cannot be read: {}", row.id, why);
      continue;
    }
    Entry& e = entries_[row.id];
    e.t = std::move(*t);
    e.row_version = row.version;
    ++loaded;
    // Each pending game: its room finished (the result recorded), in the store (attached), or missing (made
    // again under the same id).
    tn::Tournament next = e.t;
    const std::int64_t now = now_ms();
    std::vector<tn::Game> again;
    for (const tn::Game& g : e.t.games()) {
      if (!g.pending()) continue;
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
    tn::Step step = next.advance(now);
    if (next.version() != e.t.version() &&
        !store_locked(e, std::move(next), why, paired_mails(e.t.spec().name, step.paired, now)))
      continue;
    Entry& now_e = entries_.at(row.id);
    make_rooms_locked(now_e, again);
    spdlog::info("tournament {}: loaded ({}, round {})", row.id, tn::status_name(now_e.t.status()), now_e.t.round());
  }
  return loaded;
}

}  // namespace cinq::server
