#include "server/moderation_desk.h"

#include <spdlog/spdlog.h>

#include <chrono>

namespace cinq::server {

moderation::Sanction sanction_of(const store::SanctionRow& r) {
  return moderation::Sanction{r.kind, r.player_id, r.reason, r.by, r.at_ms, r.until_ms};
}

bool ModerationDesk::load(store::Store& store, std::string& error) {
  // A change committed here while the tables are read may be missing from what was read: read again (a few
  // times; the next poll mends the rare rest).
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::uint64_t changes;
    {
      std::lock_guard lock(mutex_);
      changes = changes_;
    }
    // The audit's newest seq first: an entry written while the tables are read makes the next poll look again.
    auto newest = store.audit("", 1);
    auto sanctions = store.sanctions();
    auto blocks = store.blocks("");
    auto roles = store.roles();
    for (const store::Error* e : {newest.failed() ? &newest.error() : nullptr, sanctions.failed() ? &sanctions.error() : nullptr,
                                  blocks.failed() ? &blocks.error() : nullptr, roles.failed() ? &roles.error() : nullptr})
      if (e) {
        error = e->message;
        return false;
      }
    std::lock_guard lock(mutex_);
    if (changes != changes_ && attempt < 2) continue;
    sanctions_.clear();
    blocks_.clear();
    roles_.clear();
    for (const store::SanctionRow& s : sanctions) sanctions_[{s.player_id, s.kind}] = s;
    for (const store::BlockRow& b : blocks) blocks_.insert({b.blocker_id, b.blocked_id});
    for (const store::RoleRow& r : roles)
      if (auto role = moderation::parse_role(r.role)) roles_[r.player_id] = *role;
    // Changed here all through the reads (the last attempt): what was read may miss a change made meanwhile, so
    // the next poll reads everything again.
    audit_seq_ = changes != changes_ ? -1 : newest.empty() ? 0 : newest.front().seq;
    return true;
  }
  return true;
}

bool ModerationDesk::poll(store::Store& store, bool full, std::string& error) {
  if (!full) {
    auto newest = store.audit("", 1);
    if (newest.failed()) {
      error = newest.error().message;
      return false;
    }
    const std::int64_t seq = newest.empty() ? 0 : newest.front().seq;
    std::lock_guard lock(mutex_);
    if (seq == audit_seq_) return true;
  }
  return load(store, error);
}

void ModerationDesk::start(net::Server& server, store::Store& store, std::function<bool(std::function<void()>)> submit) {
  std::lock_guard lock(timer_mutex_);
  store_ = &store;
  submit_ = std::move(submit);
  strand_ = server.make_strand();
  timer_ = server.make_timer(strand_);
  arm();
}

void ModerationDesk::arm() {
  if (!timer_ || stopping_) return;
  timer_->arm(std::chrono::milliseconds(kPollMs), [this] {
    if (stopping_) return;
    const bool full = ++polls_ % (kFullReloadMs / kPollMs) == 0;
    if (!poll_queued_.exchange(true) && !submit_([this, full] {
          std::string error;
          if (!stopping_ && !poll(*store_, full, error))
            spdlog::warn("moderation: the bans, mutes and blocks could not be read again: {}", error);
          poll_queued_ = false;
        }))
      poll_queued_ = false;
    std::lock_guard lock(timer_mutex_);
    arm();
  });
}

void ModerationDesk::stop() {
  stopping_ = true;
  std::lock_guard lock(timer_mutex_);
  if (timer_) timer_->cancel();
  timer_.reset();
  strand_.reset();
}

moderation::Role ModerationDesk::role(const std::string& player_id) const {
  std::lock_guard lock(mutex_);
  auto it = roles_.find(player_id);
  return it == roles_.end() ? moderation::Role::player : it->second;
}

std::optional<moderation::Sanction> ModerationDesk::in_force(const std::string& player_id, const std::string& kind,
                                                             std::int64_t now_ms) const {
  std::lock_guard lock(mutex_);
  auto it = sanctions_.find({player_id, kind});
  if (it == sanctions_.end()) return std::nullopt;
  moderation::Sanction s = sanction_of(it->second);
  if (!moderation::active(s, now_ms)) return std::nullopt;
  return s;
}

std::vector<moderation::Sanction> ModerationDesk::all_in_force(std::int64_t now_ms) const {
  std::lock_guard lock(mutex_);
  std::vector<moderation::Sanction> out;
  for (const auto& [key, row] : sanctions_)
    if (moderation::Sanction s = sanction_of(row); moderation::active(s, now_ms)) out.push_back(std::move(s));
  return out;
}

void ModerationDesk::set(const store::SanctionRow& row) {
  std::lock_guard lock(mutex_);
  ++changes_;
  sanctions_[{row.player_id, row.kind}] = row;
}

void ModerationDesk::lift(const std::string& player_id, const std::string& kind) {
  std::lock_guard lock(mutex_);
  ++changes_;
  sanctions_.erase({player_id, kind});
}

void ModerationDesk::block(const std::string& blocker, const std::string& blocked, bool on) {
  std::lock_guard lock(mutex_);
  ++changes_;
  if (on)
    blocks_.insert({blocker, blocked});
  else
    blocks_.erase({blocker, blocked});
}

bool ModerationDesk::blocks(const std::string& reader, const std::string& writer) const {
  std::lock_guard lock(mutex_);
  return !blocks_.empty() && blocks_.count({reader, writer}) > 0;
}

std::vector<std::string> ModerationDesk::avoided(const std::string& player_id) const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [blocker, blocked] : blocks_) {
    if (blocker == player_id) out.push_back(blocked);
    if (blocked == player_id) out.push_back(blocker);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> ModerationDesk::blocks_among(
    const std::vector<std::string>& players) const {
  const std::set<std::string> in(players.begin(), players.end());
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& pair : blocks_)
    if (in.count(pair.first) && in.count(pair.second)) out.push_back(pair);
  return out;
}

std::vector<std::string> ModerationDesk::blocked_by(const std::string& player_id) const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (auto it = blocks_.lower_bound({player_id, ""}); it != blocks_.end() && it->first == player_id; ++it)
    out.push_back(it->second);
  return out;
}

}  // namespace cinq::server
