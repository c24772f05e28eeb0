#include "persistence/saver.h"

#include <chrono>
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
  }
  add();
  return true;
}

bool Saver::save(GameRow row, Done done) {
  return queue([&] { pending_.push_back({std::move(row), std::move(done)}); });
}

bool Saver::save(PlayerRow row, Done done) {
  return queue([&] {
    players_.push_back(std::move(row));
    player_done_.push_back(std::move(done));
  });
}

void Saver::commit() {
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
  // The last row of each game wins: rows are whole snapshots, queued in the order the room took them.
  std::unordered_map<std::string, std::size_t> last;
  for (std::size_t i = 0; i < batch.size(); ++i) last[batch[i].row.id] = i;
  std::vector<GameRow> rows;
  rows.reserve(last.size());
  for (std::size_t i = 0; i < batch.size(); ++i)
    if (last[batch[i].row.id] == i) rows.push_back(std::move(batch[i].row));
  auto t0 = std::chrono::steady_clock::now();
  Error error;
  bool ok = store_.save_all(players, rows, error);
  if (observe_)
    observe_(rows.size(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  for (auto& done : player_done)
    if (done) done(ok, error.message);
  for (auto& p : batch)
    if (p.done) p.done(ok, error.message);
}

}  // namespace cinq::store
