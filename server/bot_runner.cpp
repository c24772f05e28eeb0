#include "server/bot_runner.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <exception>

#include "server/metrics.h"

namespace cinq::server {

namespace {

constexpr std::string_view kBotPrefix = "bot:";

// The texts of a turn, played on the job's own state: what `act` would carry.
BotAnswer answer_of(State& state, const bots::Turn& turn) {
  BotAnswer out;
  for (Action a : turn.actions) {
    if (a.is_end_turn()) {
      out.end_turn = true;  // always the turn's last action
    } else {
      out.items.push_back(state.action_text(a));
    }
    state.apply(a);
  }
  out.playouts = turn.playouts;
  out.hit_hard_limit = turn.hit_hard_limit;
  return out;
}

}  // namespace

lobby::Player bot_player(int level, std::optional<int> seat) {
  std::string id = std::string(kBotPrefix) + std::to_string(level);
  if (seat) id += "-" + std::to_string(*seat);
  return {id, bots::bot_name(level)};
}

std::optional<int> bot_level(std::string_view player_id) {
  if (!player_id.starts_with(kBotPrefix)) return std::nullopt;
  std::string_view digits = player_id.substr(kBotPrefix.size());
  if (auto dash = digits.find('-'); dash != std::string_view::npos) {
    std::string_view seat = digits.substr(dash + 1);
    if (seat != "0" && seat != "1") return std::nullopt;
    digits = digits.substr(0, dash);
  }
  int level = -1;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), level);
  if (ec != std::errc() || end != digits.data() + digits.size() || level < 0 || level > bots::kMaxLevel)
    return std::nullopt;
  return level;
}

BotRunner::BotRunner(int threads, Metrics& metrics, std::size_t max_queue)
    : metrics_(metrics), max_queue_(max_queue) {
  threads = std::max(1, threads);
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
}

BotRunner::~BotRunner() { stop(); }

bool BotRunner::submit(Job job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || waiting_.size() >= max_queue_) return false;
    const std::string owner = job.owner;
    waiting_.push(owner, std::move(job));
    metrics_.bots_queued = static_cast<std::int64_t>(waiting_.size());
  }
  wake_.notify_one();
  return true;
}

void BotRunner::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    waiting_.each([](Job& job) { job.cancel->store(true); });
    waiting_.clear();
    metrics_.bots_queued = 0;
    for (auto& flag : running_) flag->store(true);  // choose_turn returns within a playout
  }
  wake_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  std::lock_guard lock(mutex_);
  threads_.clear();
}

void BotRunner::run() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
      if (stopping_) return;
      job = waiting_.pop();
      metrics_.bots_queued = static_cast<std::int64_t>(waiting_.size());
      running_.push_back(job.cancel);
      ++metrics_.bots_busy;
    }
    think(job);
    {
      std::lock_guard lock(mutex_);
      running_.erase(std::find(running_.begin(), running_.end(), job.cancel));
      --metrics_.bots_busy;
    }
  }
}

void BotRunner::think(Job& job) {
  if (job.cancel->load()) return;
  const auto start = std::chrono::steady_clock::now();
  BotAnswer answer;
  try {
    bots::Turn turn = bots::choose_turn(*job.state, job.settings, job.cancel.get());
    answer = answer_of(*job.state, turn);
  } catch (const std::exception& e) {
    // Never expected: the room sees an empty answer, logs it and falls back to a random turn.
    spdlog::error("bot level {}: choose_turn failed: {}", job.settings.level, e.what());
    answer = {};
  }
  answer.think =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
  if (job.cancel->load()) return;
  ++metrics_.bot_turns;
  metrics_.bot_think.observe(std::chrono::duration<double>(answer.think).count());
  job.done(std::move(answer));
}

}  // namespace cinq::server
