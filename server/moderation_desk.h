// The server's glue of moderation (moderation/moderation.h, docs/protocol.md "Moderation"): the bans, mutes,
// blocks and roles in force, kept in memory for the checks every hello, chat line and seek makes (and the
// role `welcome` tells), loaded from the store at start and changed with it (the store first: a change is in
// memory only once committed). A moderation command still reads the actor's role from the store, so that
// `cinq admin grant` applies at once. Several nodes (docs/scaling.md, "Moderation"): a change made on one
// node is announced on the bus and every other node reloads (reload()); poll(), every few seconds, reloads
// when the audit log grew (a message lost while Redis was away, `cinq admin`) and every 30 s whatever happened,
// so that every node converges within that time. No Boost.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "moderation/moderation.h"
#include "persistence/store.h"
#include "server/net/transport.h"

namespace cinq::server {

class ModerationDesk {
 public:
  // Reads the sanctions and blocks; false (and `error`) if the store could not be read.
  bool load(store::Store& store, std::string& error);
  // Another node (or the command line) changed something: everything read again, as load() does.
  bool reload(store::Store& store, std::string& error) { return load(store, error); }
  // Every few seconds: reloads when the audit log's newest entry is not the one seen at the last load, or
  // when `full` (blocks leave no audit entry). False (and `error`) if the store could not be read.
  bool poll(store::Store& store, bool full, std::string& error);

  // Polls every kPollMs (a full reload every kFullReloadMs) with `submit` (a worker: false if none took it),
  // until stop(). The transport's timer, on a strand of its own.
  static constexpr int kPollMs = 2000, kFullReloadMs = 30000;
  void start(net::Server& server, store::Store& store, std::function<bool(std::function<void()>)> submit);
  void stop();

  // The account's role as loaded (moderation::Role::player when it has none).
  moderation::Role role(const std::string& player_id) const;

  // The sanction of that kind ("ban", "mute") in force for the player at `now_ms`, if any.
  std::optional<moderation::Sanction> in_force(const std::string& player_id, const std::string& kind,
                                               std::int64_t now_ms) const;
  // Every sanction in force at `now_ms`.
  std::vector<moderation::Sanction> all_in_force(std::int64_t now_ms) const;
  // After the store committed them.
  void set(const store::SanctionRow& row);
  void lift(const std::string& player_id, const std::string& kind);
  void block(const std::string& blocker, const std::string& blocked, bool on);
  // The pairs (blocker, blocked) among `players` (either way): a tournament's pairing avoids them.
  std::vector<std::pair<std::string, std::string>> blocks_among(const std::vector<std::string>& players) const;

  // Whether `reader` blocks `writer` (the writer's chat lines are not sent to the reader).
  bool blocks(const std::string& reader, const std::string& writer) const;
  // The players `player_id` blocks or is blocked by: never paired with it.
  std::vector<std::string> avoided(const std::string& player_id) const;
  // The players `player_id` blocks.
  std::vector<std::string> blocked_by(const std::string& player_id) const;

 private:
  mutable std::mutex mutex_;
  std::uint64_t changes_ = 0;    // set(), lift(), block() so far: a load that read before one reads again
  std::int64_t audit_seq_ = -1;  // the audit log's newest seq at the last load (-1: none read yet)
  std::map<std::string, moderation::Role> roles_;

  void arm();  // with timer_mutex_ held
  std::mutex timer_mutex_;
  std::shared_ptr<net::Strand> strand_;
  std::unique_ptr<net::Timer> timer_;
  store::Store* store_ = nullptr;
  std::function<bool(std::function<void()>)> submit_;
  std::atomic<bool> stopping_{false}, poll_queued_{false};
  int polls_ = 0;  // on the timer's strand
  std::map<std::pair<std::string, std::string>, store::SanctionRow> sanctions_;  // (player, kind)
  std::set<std::pair<std::string, std::string>> blocks_;                          // (blocker, blocked)
};

moderation::Sanction sanction_of(const store::SanctionRow& row);

}  // namespace cinq::server
