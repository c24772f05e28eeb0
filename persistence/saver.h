// Group commit for game saves. The server saves a room after every accepted turn and announces the turn only
// once that save has committed (docs/design.md, "Storage"). One transaction per turn costs one fsync per
// turn, which caps a disk at a few hundred turns a second; here every save queued while the previous commit
// ran goes into the next one, so a busy server pays one fsync for many turns while a quiet one still commits
// each turn at once (no waiting for a batch to fill), unless it is told to wait (set_wait): then a commit
// starts no sooner than that wait after the first save it holds was queued, so that at a moderate pace (a few
// thousand turns a second, when a commit would hold 1–3 turns) more turns share each fsync. Latency traded
// for CPU; when the commit before took longer than the wait, nothing more is waited.
//
// A save is sized to the change (store.h, GameSave): the row's columns, the record's entries from the first
// changed one on, the progress. Saves of the same game queued together are merged into one before the commit
// (merge(): the later one's columns and progress win, entries are merged by index, the later ones win), and
// every one's `done` runs after that commit.
//
// Every write of the server goes through here (players too), so writes are committed in the order they
// were queued: a player row queued before a game save is committed no later than it. Commits run on the
// store's Worker (persistence/worker.h), whose other jobs are reads.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "persistence/store.h"
#include "persistence/worker.h"

namespace cinq::store {

// Folds `later`, a save of the same game queued after `into`, into `into`, so that writing the result is
// writing both in order. False (nothing changed) when they cannot be one save: another game, a later save
// that does not start from `into`'s version, or a gap between their entries; then both are written, in order.
bool merge(GameSave& into, GameSave&& later);

// The saves of one room as it is in memory. Once one of them fails, every save of the chain still queued
// fails too, without being written: a failed command is dropped everywhere (docs/protocol.md, "When a save
// fails"), and a later save holding it (a finished game's whole record holds every turn) must never commit it
// behind the room's back. The room is then reloaded from the store, with a new chain.
struct Chain {
  bool broken = false;  // read and written on the writer thread only
};

class Saver {
 public:
  // Called on the writer thread once the save has committed (ok) or failed (the error's message).
  using Done = std::function<void(bool ok, const std::string& error)>;
  // Observes each commit: how many game saves it wrote (after merging) and how long it took (seconds). May
  // be empty.
  using Observe = std::function<void(std::size_t games, double seconds)>;

  Saver(Store& store, Worker& writer, Observe observe = {});
  Saver(const Saver&) = delete;
  Saver& operator=(const Saver&) = delete;

  // Queues a save; `done` runs after the commit that holds it. False if the writer has stopped (then `done`
  // never runs).
  bool save(GameSave game, Done done, std::shared_ptr<Chain> chain = nullptr);
  bool save(PlayerRow row, Done done);
  // The wait above (0, the default: a commit starts as soon as the writer is free). Any thread.
  void set_wait(std::chrono::microseconds wait) { wait_us_ = wait.count(); }

 private:
  void commit();  // on the writer: takes every queued save and commits them in one transaction

  bool queue(std::function<void()> add);  // runs `add` under the lock, posting a commit job if none waits
  std::vector<PlayerRow> players_;
  std::vector<Done> player_done_;
  Store& store_;
  Worker& writer_;
  Observe observe_;
  std::mutex mutex_;
  struct Pending {
    GameSave save;
    Done done;
    std::shared_ptr<Chain> chain;
  };
  std::vector<Pending> pending_;
  bool commit_posted_ = false;
  std::chrono::steady_clock::time_point first_queued_;  // of the saves the posted commit will take
  std::atomic<std::int64_t> wait_us_{0};
};

}  // namespace cinq::store
