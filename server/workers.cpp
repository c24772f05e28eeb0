#include "server/workers.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>

namespace cinq::server {

Workers::Workers(WorkerConfig config) : max_queue_(std::max<std::size_t>(1, config.max_queue)) {
  const int n = std::clamp(config.threads, 1, 64);
  bulk_limit_ = n > 1 ? static_cast<std::size_t>(n - 1) : 1;
  for (int i = 0; i < n; ++i) threads_.emplace_back([this] { run(); });
}

Workers::~Workers() { stop(); }

bool Workers::submit(Kind kind, std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    auto& queue = kind == Kind::quick ? quick_ : bulk_;
    if (stopping_ || queue.size() >= max_queue_) return false;
    queue.push_back(std::move(job));
  }
  wake_.notify_one();
  return true;
}

void Workers::stop() {
  std::deque<std::function<void()>> dropped_quick, dropped_bulk;
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    dropped_quick.swap(quick_);
    dropped_bulk.swap(bulk_);
    threads.swap(threads_);
  }
  wake_.notify_all();
  // The dropped jobs die here, outside the lock: what they hold (a connection, a room) lets go.
  dropped_quick.clear();
  dropped_bulk.clear();
  for (auto& t : threads)
    if (t.joinable()) t.join();
}

std::size_t Workers::queued() const {
  std::lock_guard lock(mutex_);
  return quick_.size() + bulk_.size();
}

void Workers::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] {
      return stopping_ || !quick_.empty() || (!bulk_.empty() && bulk_running_ < bulk_limit_);
    });
    if (stopping_) return;
    const bool bulk = quick_.empty();
    std::function<void()> job = std::move(bulk ? bulk_.front() : quick_.front());
    (bulk ? bulk_ : quick_).pop_front();
    if (bulk) ++bulk_running_;
    ++busy_;
    lock.unlock();
    // A failing job is reported and forgotten: the jobs behind it still run.
    try {
      job();
    } catch (const std::exception& e) {
      spdlog::error("worker: a job failed: {}", e.what());
    } catch (...) {
      spdlog::error("worker: a job failed with an unknown exception");
    }
    job = nullptr;  // its captures die outside the lock too
    --busy_;
    lock.lock();
    if (bulk) {
      --bulk_running_;
      if (!bulk_.empty()) wake_.notify_one();  // a bulk job may have waited for this slot
    }
  }
}

}  // namespace cinq::server
