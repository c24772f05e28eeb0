#include "server/analyst.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "persistence/store.h"
#include "server/error_message.h"
#include "server/metrics.h"

namespace cinq::server {

using nlohmann::json;

namespace {

std::string key_of(const std::string& game_id, const analysis::Settings& s) { return game_id + "|" + s.key(); }

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Analyst::Analyst(AnalystConfig config, store::Store& store, Metrics& metrics)
    : config_(config), store_(store), metrics_(metrics) {
  for (int i = 0; i < config_.threads; ++i) threads_.emplace_back([this] { run(); });
}

Analyst::~Analyst() { stop(); }

void Analyst::request(const std::string& game_id, const analysis::Settings& settings, const std::string& owner,
                      const std::shared_ptr<net::Connection>& c, const std::string& ref) {
  const json base = {{"type", "analysis"}, {"room", game_id}, {"settings", settings.key()}};
  // Computed before: read back at once.
  auto stored = store_.analysis(game_id, settings.key());
  if (stored.failed()) return c->send(error_message("storage", "the store cannot be read: try again", ref, game_id));
  if (stored) {
    json m = base;
    m["status"] = "done";
    m["ref"] = ref;
    m["analysis"] = json::parse(stored->analysis, nullptr, false);
    return c->send(m.dump());
  }
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || threads_.empty())
      return c->send(error_message("busy", "the server does not analyse games now", ref, game_id));
    const std::string key = key_of(game_id, settings);
    if (auto it = in_flight_.find(key); it != in_flight_.end()) {
      it->second->waiters.push_back({c, ref});
    } else {
      if (config_.per_player > 0 && per_owner_[owner] >= config_.per_player)
        return c->send(error_message("analysis_limit",
                                     "you have " + std::to_string(per_owner_[owner]) +
                                         " analyses waiting or running: wait for one to end",
                                     ref, game_id));
      if (waiting_.size() >= config_.max_queue)
        return c->send(error_message("busy", "too many analyses are waiting: try again later", ref, game_id));
      auto task = std::make_shared<Task>(Task{game_id, settings, owner, {{c, ref}}});
      in_flight_[key] = task;
      ++per_owner_[owner];
      waiting_.push(owner, task);
      metrics_.analyses_queued = static_cast<std::int64_t>(waiting_.size());
    }
  }
  json m = base;
  m["status"] = "queued";
  m["ref"] = ref;
  c->send(m.dump());
  wake_.notify_one();
}

void Analyst::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    waiting_.clear();
  }
  wake_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  std::lock_guard lock(mutex_);
  threads_.clear();
}

void Analyst::run() {
  for (;;) {
    std::shared_ptr<Task> task;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
      if (stopping_) return;
      task = waiting_.pop();
      metrics_.analyses_queued = static_cast<std::int64_t>(waiting_.size());
      ++metrics_.analyses_busy;
    }
    try {
      compute(task);
    } catch (const std::exception& e) {
      spdlog::error("analysis of {}: {}", task->game_id, e.what());
      std::lock_guard lock(mutex_);
      tell(*task, {{"code", "internal"}, {"message", "the analysis failed"}});
    }
    finish(task);
    --metrics_.analyses_busy;
  }
}

void Analyst::tell(Task& task, const json& message) {
  for (const Waiter& w : task.waiters) {
    auto c = w.connection.lock();
    if (!c) continue;
    if (message.contains("code")) {
      c->send(error_message(message["code"].get<std::string>(), message["message"].get<std::string>(), w.ref,
                            task.game_id));
      continue;
    }
    json m = message;
    m["type"] = "analysis";
    m["room"] = task.game_id;
    m["settings"] = task.settings.key();
    m["ref"] = w.ref;
    c->send(m.dump());
  }
}

void Analyst::compute(const std::shared_ptr<Task>& task) {
  auto fail = [&](const std::string& code, const std::string& message) {
    std::lock_guard lock(mutex_);
    tell(*task, {{"code", code}, {"message", message}});
  };
  auto row = store_.game(task->game_id);
  if (row.failed()) return fail("storage", "the store cannot be read: try again");
  if (!row) return fail("not_found", "no game '" + task->game_id + "'");
  if (row->status != "finished") return fail("not_finished", "only a finished game is analysed");
  auto record = Record::read(row->record);
  if (!record) return fail("bad_record", "the stored record does not read: " + record.error().text());
  auto last = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  const auto started = std::chrono::steady_clock::now();
  auto result = analysis::analyze(*record, task->settings, &stopping_, [&](int done, int total) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last < std::chrono::milliseconds(500)) return;
    last = now;
    std::lock_guard lock(mutex_);
    tell(*task, {{"status", "running"}, {"done", done}, {"total", total}});
  });
  if (!result) {
    if (!stopping_) fail("internal", result.error().message);
    return;
  }
  const json j = analysis::to_json(*result);
  store::Error error;
  if (!store_.put_analysis({task->game_id, task->settings.key(), j.dump(), unix_ms()}, error))
    spdlog::warn("analysis of {}: not stored: {}", task->game_id, error.message);
  ++metrics_.analyses;
  spdlog::info("analysis of {} ({}): {} turns in {} ms", task->game_id, task->settings.key(), result->turns.size(),
               std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count());
  std::lock_guard lock(mutex_);
  tell(*task, {{"status", "done"}, {"analysis", j}});
}

void Analyst::finish(const std::shared_ptr<Task>& task) {
  std::lock_guard lock(mutex_);
  in_flight_.erase(key_of(task->game_id, task->settings));
  if (auto it = per_owner_.find(task->owner); it != per_owner_.end() && --it->second == 0) per_owner_.erase(it);
}

}  // namespace cinq::server
