// Tournaments on the server (docs/protocol.md, "Tournaments"; docs/architecture.md, "Tournaments"): the glue
// between the pure logic (tournament/tournament.h), the store (Store::put_tournament) and the rooms.
//
// The desk keeps every tournament it knows in memory, each with the version of its stored row. Every change
// (a command, a timer, a result) runs on a worker thread under the desk's one mutex, which is held across
// the store's write: changes are serialised, and a write naming a stale row version writes nothing.
//
// The order of writes, so that a crash loses nothing and pairs nothing twice: a change is stored first (the
// games it paired named in it, with ids of their own); then a room is made for each paired game under the
// game's id (Game::id, deterministic), both entrants seated; once the room's first save committed, the room
// is attached to its game and the tournament stored again, and the two players are told. At start-up (after
// the unfinished rooms reopened) each pending game's room is looked up in the store: finished, its result is
// recorded; missing, it is made again under the same id. A room that ends tells the desk (Services::
// tournament_room_over, after its finishing save committed); a sweep every 10 s reads the pending games'
// rooms from the store, so a result is never missed. Recording is idempotent in the logic.
//
// Several nodes (docs/scaling.md): one node runs each tournament, the one holding its lease in the store
// (store::tournament_lease, beside the rooms' leases and as long-lived as the node's heartbeat). It alone
// advances it (starts, pairings, arena pairing, forfeits, the end), makes its rooms and sweeps their results.
// Any node takes a command (join, withdraw, start, a result of a room it plays), reading the row afresh and
// storing it under the version it read; a write that lost to another node's reads the row again and is
// applied again. Each write is announced on the bus, so every node's watchers see it; a paired player is
// told on every node. Every 5 s each node takes its share of the unfinished tournaments no live node runs
// (their node died, or gave them up stopping), as it does rooms.
//
// No Boost here: the timer is the transport's (server/net/transport.h).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lobby/room.h"
#include "persistence/store.h"
#include "server/net/transport.h"
#include "server/tournament_glue.h"
#include "tournament/tournament.h"

namespace cinq::server {

struct Services;
class RoomDirectory;
class Workers;

class TournamentDesk {
 public:
  // What a command gets: an error (code, message), or the tournament (or list) as JSON.
  struct Reply {
    std::string code;  // "" : done
    std::string message;
    nlohmann::json body;
  };
  using Done = std::function<void(Reply)>;
  // Sends a text to every connection of a player (Clients): a paired player's `tournament_game`.
  using ToPlayer = std::function<void(const std::string& player_id, const std::string& text)>;

  TournamentDesk(Services& services, RoomDirectory& rooms, Workers& workers);
  ~TournamentDesk();
  TournamentDesk(const TournamentDesk&) = delete;
  TournamentDesk& operator=(const TournamentDesk&) = delete;

  void set_to_player(ToPlayer to_player) { to_player_ = std::move(to_player); }
  // At start-up, after the unfinished rooms reopened (not on a network thread): loads the unfinished
  // tournaments, records the results their rooms hold, makes missing rooms again, advances them. Returns how
  // many it loaded.
  int load();
  // Starts the tick (every second: starts, arena pairing, finishes) and the sweep (every 10 s).
  void start(net::Server& server);
  // Stops the timers; no job starts after.
  void stop();

  // The commands. Each runs on a worker and calls `done` there; false if the workers could not take it.
  bool create(const lobby::Player& by, tournament::Spec spec, Done done);
  bool join(const std::string& id, const lobby::Player& by, Done done);
  bool withdraw(const std::string& id, const lobby::Player& by, Done done);
  bool start_now(const std::string& id, const lobby::Player& by, Done done);
  bool get(const std::string& id, Done done);
  bool list(const std::string& status, Done done);

  // Watchers: `tournament` pushed on every change. Any thread.
  void watch(const std::string& id, const std::shared_ptr<net::Connection>& c);
  void unwatch(const std::string& id, std::uint64_t connection);
  void closed(std::uint64_t connection);

  // A room ended (its finishing save committed), on its strand: its outcome is recorded if it is a
  // tournament's game.
  void room_over(const std::string& room, const lobby::Room& state);

  // Several nodes: another node stored the tournament anew (any thread): watchers here are sent it, and the
  // copy in memory is read again at its next use.
  void changed_elsewhere(const std::string& id);
  // Several nodes: this node is stopping (it hands its rooms over): it runs no tournament from now on, and
  // gives their leases up for the other nodes to take at once.
  void hand_over();

 private:
  // The blocks between the tournament's entrants (server/moderation_desk.h): the pairing avoids them.
  tournament::Blocks blocks_among(const tournament::Tournament& t) const;
  struct Entry {
    tournament::Tournament t;
    std::int64_t row_version = 0;  // the stored row's version (its save counter)
    std::set<std::string> making;  // games whose room is being made (its first save not committed yet)
    // Several nodes: whether this node runs it (holds its lease, numbered `lease`); a copy of another
    // node's is read again at each use. `stale`: read again at its next use (another node stored it).
    bool owned = true;
    std::int64_t lease = 0;
    bool stale = false;
  };
  using Change = std::function<std::optional<tournament::Error>(tournament::Tournament&, std::int64_t now)>;

  bool submit(std::function<void()> job);
  // Applies `change` to a copy of the tournament, advances it, stores it (the lock held), then makes the
  // rooms it paired and tells the watchers. The answer is the tournament, or the error.
  Reply change(const std::string& id, const Change& change, bool show = true);
  // With mutex_ held: stores `next` as the entry's new state; false (and the entry read again) if the store
  // refused it.
  bool store_locked(Entry& e, tournament::Tournament next, std::string& why,
                    std::vector<store::MailRow> mails = {});
  // The mails telling the players of `games` (with an account address) that their game is ready.
  std::vector<store::MailRow> paired_mails(const tournament::Spec& spec, const std::vector<tournament::Game>& games,
                                           std::int64_t now);
  // With mutex_ held: makes the rooms of the pending games with no room, and of `again` (attached, but
  // missing from the store).
  void make_rooms_locked(Entry& e, const std::vector<tournament::Game>& again);
  void make_room(const Entry& e, const tournament::Game& game);
  void attach(const std::string& id, const std::string& game, bool ok);
  // With mutex_ held: the stored row `row` becomes an entry this node runs: the results its rooms hold are
  // recorded, missing rooms made again, and it is advanced. False if its state cannot be read.
  bool adopt_locked(const store::TournamentRow& row, std::int64_t lease);
  // Several nodes (in the tick, every 5 s): takes this node's share of the tournaments nobody runs, checks
  // it still holds the leases of its own, and forgets its copies of the others'.
  void claim_orphans();
  bool cluster() const;
  // Reads the pending games' rooms from the store and records what they hold (on a worker).
  void sweep();
  void tick();
  // Records a room's outcome (on a worker).
  void record(const std::string& room, const TournamentOutcome& outcome);
  // The entry of `id`, read from the store if it is not in memory (with mutex_ held); nullptr if none.
  Entry* find_locked(const std::string& id, bool* failed = nullptr);
  void tell_watchers(const Entry& e);
  void tell_paired(const Entry& e, const tournament::Game& game);
  void arm();

  Services& services_;
  RoomDirectory& rooms_;
  Workers& workers_;
  ToPlayer to_player_;

  std::mutex mutex_;
  std::map<std::string, Entry> entries_;

  std::mutex watch_mutex_;
  std::map<std::string, std::map<std::uint64_t, std::weak_ptr<net::Connection>>> watchers_;

  std::mutex timer_mutex_;
  std::shared_ptr<net::Strand> strand_;
  std::unique_ptr<net::Timer> timer_;
  int ticks_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> tick_queued_{false};
  std::atomic<bool> sweep_queued_{false};
  std::atomic<bool> handed_over_{false};
  int tick_runs_ = 0;  // tick()'s own (one tick runs at a time)
};

}  // namespace cinq::server
