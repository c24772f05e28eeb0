// The server's glue of moderation (moderation/moderation.h, docs/protocol.md "Moderation"): the bans, mutes
// and blocks in force, kept in memory for the checks every hello, chat line and seek makes, loaded from the
// store at start and changed with it (the store first: a change is in memory only once committed). Roles
// are read from the store at each moderation command, so that `cinq admin grant` applies at once. No Boost.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "moderation/moderation.h"
#include "persistence/store.h"

namespace cinq::server {

class ModerationDesk {
 public:
  // Reads the sanctions and blocks; false (and `error`) if the store could not be read.
  bool load(store::Store& store, std::string& error);

  // The sanction of that kind ("ban", "mute") in force for the player at `now_ms`, if any.
  std::optional<moderation::Sanction> in_force(const std::string& player_id, const std::string& kind,
                                               std::int64_t now_ms) const;
  // Every sanction in force at `now_ms`.
  std::vector<moderation::Sanction> all_in_force(std::int64_t now_ms) const;
  // After the store committed them.
  void set(const store::SanctionRow& row);
  void lift(const std::string& player_id, const std::string& kind);
  void block(const std::string& blocker, const std::string& blocked, bool on);

  // Whether `reader` blocks `writer` (the writer's chat lines are not sent to the reader).
  bool blocks(const std::string& reader, const std::string& writer) const;
  // The players `player_id` blocks or is blocked by: never paired with it.
  std::vector<std::string> avoided(const std::string& player_id) const;
  // The players `player_id` blocks.
  std::vector<std::string> blocked_by(const std::string& player_id) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, store::SanctionRow> sanctions_;  // (player, kind)
  std::set<std::pair<std::string, std::string>> blocks_;                          // (blocker, blocked)
};

moderation::Sanction sanction_of(const store::SanctionRow& row);

}  // namespace cinq::server
