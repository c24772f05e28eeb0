#include "persistence/saver.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <unordered_map>
#include <utility>

namespace cinq::store {

Saver::Saver(Store& store, Worker& writer, Observe observe)
    : store_(store), writer_(writer), observe_(std::move(observe)) {}

bool Saver::queue(std::function<void()> add) {
  std::lock_guard lock(mutex_);
  // One commit job waits at a time: rows queued while it waits ride along with it.
  if (!commit_posted_) {
    if (!writer_.post([this] { commit(); })) return false;
    commit_posted_ = true;
    first_queued_ = std::chrono::steady_clock::now();
  }
  add();
  return true;
}

bool Saver::save(GameSave game, Done done, std::shared_ptr<Chain> chain) {
  return queue([&] { pending_.push_back({std::move(game), std::move(done), std::move(chain)}); });
}

bool Saver::save(PlayerRow row, Done done) {
  return queue([&] {
    players_.push_back(std::move(row));
    player_done_.push_back(std::move(done));
  });
}

void Saver::commit() {
  if (const auto wait = std::chrono::microseconds(wait_us_.load()); wait.count() > 0) {
    std::chrono::steady_clock::time_point first;
    {
      std::lock_guard lock(mutex_);
      first = first_queued_;
    }
    std::this_thread::sleep_until(first + wait);  // at once when it is past
  }
  std::vector<Pending> batch;
  std::vector<PlayerRow> players;
  std::vector<Done> player_done;
  {
    std::lock_guard lock(mutex_);
    batch.swap(pending_);
    players.swap(players_);
    player_done.swap(player_done_);
    commit_posted_ = false;
  }
  if (batch.empty() && players.empty()) return;
  // A save whose chain broke in an earlier commit is dropped: never written, told it failed.
  std::vector<Pending> dropped;
  std::erase_if(batch, [&](Pending& p) {
    if (!p.chain || !p.chain->broken) return false;
    dropped.push_back(std::move(p));
    return true;
  });
  for (auto& p : dropped)
    if (p.done) p.done(false, "saving game " + p.save.row.id + ": a save of this room before it failed");
  if (batch.empty() && players.empty()) return;
  // One save per game where they merge (the usual case: a room's saves follow one another), in the order
  // the games were first queued; a save that does not merge is written after the one before it.
  std::vector<GameSave> saves;
  saves.reserve(batch.size());
  std::unordered_map<std::string, std::size_t> last;  // a game's last save in `saves`
  for (Pending& p : batch) {
    auto it = last.find(p.save.row.id);
    if (it != last.end() && merge(saves[it->second], std::move(p.save))) continue;
    last[p.save.row.id] = saves.size();
    saves.push_back(std::move(p.save));
  }
  auto t0 = std::chrono::steady_clock::now();
  Error error;
  bool ok = store_.save(players, saves, error);
  if (observe_)
    observe_(saves.size(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  if (!ok)
    for (auto& p : batch)
      if (p.chain) p.chain->broken = true;
  for (auto& done : player_done)
    if (done) done(ok, error.message);
  for (auto& p : batch)
    if (p.done) p.done(ok, error.message);
}

namespace {

// The mail of `later` after `into`'s: its cancels drop the mails of `into` they cancel (and stand, for mails
// stored before), its mails and received ids follow.
void merge_mail(GameSave& into, GameSave& later) {
  for (const MailCancel& c : later.mail_cancels) {
    std::erase_if(into.mails, [&](const MailRow& m) {
      return m.game_id == c.game_id && m.seat == c.seat &&
             std::find(c.kinds.begin(), c.kinds.end(), m.kind) != c.kinds.end();
    });
    into.mail_cancels.push_back(c);
  }
  for (auto& m : later.mails) into.mails.push_back(std::move(m));
  for (auto& id : later.received) into.received.push_back(std::move(id));
}

}  // namespace

bool merge(GameSave& into, GameSave&& later) {
  if (into.row.id != later.row.id) return false;
  if (!later.base_version) {  // it stands alone (a new game, a finished one): it replaces everything
    // but the chat lines, which are appended, each save's in turn.
    std::vector<ChatRow> chat = std::move(into.chat);
    for (auto& line : later.chat) chat.push_back(std::move(line));
    GameSave mail;
    mail.mail_cancels = std::move(into.mail_cancels);
    mail.mails = std::move(into.mails);
    mail.received = std::move(into.received);
    merge_mail(mail, later);
    // A lease taken by the earlier save is taken by the merged one.
    const bool acquire = into.fence && into.fence->acquire;
    into = std::move(later);
    into.chat = std::move(chat);
    into.mail_cancels = std::move(mail.mail_cancels);
    into.mails = std::move(mail.mails);
    into.received = std::move(mail.received);
    if (acquire && into.fence) into.fence->acquire = true;
    return true;
  }
  // A change must start from what `into` leaves: its version, its entries without a gap.
  if (*later.base_version != into.row.version || into.row.status == "finished") return false;
  const auto stored = static_cast<std::size_t>(into.from) + into.entries.size();
  if (later.from < 0 || static_cast<std::size_t>(later.from) > stored) return false;
  if (later.from <= into.from) {
    // Stored entries below `into`'s may go (later.replaces says); from into.from on, `into` said.
    if (later.from < into.from) into.replaces = later.replaces;
    into.from = later.from;
    into.entries = std::move(later.entries);
  } else {
    into.entries.resize(static_cast<std::size_t>(later.from - into.from));
    for (auto& e : later.entries) into.entries.push_back(std::move(e));
  }
  into.write_row = into.write_row || later.write_row;
  into.row = std::move(later.row);
  if (later.fence) {
    const bool acquire = into.fence && into.fence->acquire;
    into.fence = std::move(later.fence);
    into.fence->acquire = into.fence->acquire || acquire;
  }
  for (auto& line : later.chat) into.chat.push_back(std::move(line));
  merge_mail(into, later);
  // into.base_version stays: the merged save changes what `into` changed.
  return true;
}

}  // namespace cinq::store
