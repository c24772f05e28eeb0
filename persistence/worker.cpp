// The Worker: one thread, one FIFO queue. Jobs run outside the lock so that posting never waits for a job.
#include "persistence/worker.h"

#include <cstdio>
#include <exception>
#include <utility>
#include <spdlog/spdlog.h>

namespace cinq::store {
namespace {
// The worker whose thread this is, if any: lets drain() and stop() notice they were called from a job.
thread_local const Worker* current_worker = nullptr;
}  // namespace

Worker::Worker(std::string name) : name_(std::move(name)), thread_([this] { loop(); }) {}

Worker::~Worker() { stop(); }

bool Worker::post(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
  return true;
}

void Worker::drain() {
  // A job that drains its own worker would wait for itself forever; everything before it has run anyway.
  if (current_worker == this) return;
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return jobs_.empty() && !running_job_; });
}

void Worker::stop() {
  // The thread object is taken under the lock, so that of two threads stopping at once only one joins; the
  // other waits for the queue to empty, which after stopping_ is final. A job stopping its own worker
  // cannot join itself: it only refuses new jobs, and the destructor joins later.
  std::thread thread;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    if (current_worker != this) thread = std::move(thread_);
  }
  wake_.notify_all();
  if (thread.joinable()) {
    thread.join();
  } else {
    drain();
  }
}

std::size_t Worker::queued() const {
  std::lock_guard lock(mutex_);
  return jobs_.size();
}

void Worker::loop() {
  current_worker = this;
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) break;  // stopping, and every queued job has run
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    running_job_ = true;
    lock.unlock();
    // A failing job is reported and forgotten: the jobs behind it (other rooms' saves) still run.
    try {
      job();
    } catch (const std::exception& e) {
      spdlog::error("worker {}: a job failed: {}", name_, e.what());
    } catch (...) {
      spdlog::error("worker {}: a job failed with an unknown exception", name_);
    }
    job = nullptr;  // its captures die outside the lock too
    lock.lock();
    running_job_ = false;
    if (jobs_.empty()) idle_.notify_all();
  }
  idle_.notify_all();
}

}  // namespace cinq::store
