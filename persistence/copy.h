// Moving an installation between stores: `cinq store copy FROM TO`, SQLite to PostgreSQL and back.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "persistence/store.h"

namespace cinq::store {

struct CopyReport {
  std::int64_t players = 0, games = 0, unfinished = 0, chat_lines = 0, ratings = 0, rating_changes = 0,
               tournaments = 0, analyses = 0, moderation = 0;
};

// Copies every player (with its login tokens), every rating and rating change, and every game (finished or
// not: its record, progress, seat tokens and whole chat), every tournament, every game's analyses and every
// moderation row (roles, sanctions, reports, blocks, the audit log with its order, sightings), from `from`
// into `to`, which must be empty (no player, no game). Ratings go before games, so that a rated game's result is not applied again. Then checks
// the copy: the counts of both stores, and every game read back from `to` the same as from `from` (record,
// status, result, seats, clocks, version). False and `error` (naming the first difference) if anything
// failed; what was written stays, and the target should be dropped. `progress` (may be empty) is told after
// each batch.
bool copy_store(Store& from, Store& to, CopyReport& report, Error& error,
                const std::function<void(const std::string&)>& progress = {});

}  // namespace cinq::store
