#include "server/moderation_desk.h"

namespace cinq::server {

moderation::Sanction sanction_of(const store::SanctionRow& r) {
  return moderation::Sanction{r.kind, r.player_id, r.reason, r.by, r.at_ms, r.until_ms};
}

bool ModerationDesk::load(store::Store& store, std::string& error) {
  auto sanctions = store.sanctions();
  if (sanctions.failed()) {
    error = sanctions.error().message;
    return false;
  }
  auto blocks = store.blocks("");
  if (blocks.failed()) {
    error = blocks.error().message;
    return false;
  }
  std::lock_guard lock(mutex_);
  sanctions_.clear();
  blocks_.clear();
  for (const store::SanctionRow& s : sanctions) sanctions_[{s.player_id, s.kind}] = s;
  for (const store::BlockRow& b : blocks) blocks_.insert({b.blocker_id, b.blocked_id});
  return true;
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
  sanctions_[{row.player_id, row.kind}] = row;
}

void ModerationDesk::lift(const std::string& player_id, const std::string& kind) {
  std::lock_guard lock(mutex_);
  sanctions_.erase({player_id, kind});
}

void ModerationDesk::block(const std::string& blocker, const std::string& blocked, bool on) {
  std::lock_guard lock(mutex_);
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

std::vector<std::string> ModerationDesk::blocked_by(const std::string& player_id) const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (auto it = blocks_.lower_bound({player_id, ""}); it != blocks_.end() && it->first == player_id; ++it)
    out.push_back(it->second);
  return out;
}

}  // namespace cinq::server
