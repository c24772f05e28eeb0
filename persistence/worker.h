// One thread that runs jobs in the order they were posted: how the server keeps SQLite off its network
// threads while keeping every room's saves in order.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace cinq::store {

class Worker {
 public:
  explicit Worker(std::string name);
  // Runs every job already posted, then joins the thread.
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Queues a job; jobs run one at a time, in posting order. After stop(), jobs are refused (false).
  bool post(std::function<void()> job);
  // Waits until every job posted so far has run.
  void drain();
  // Refuses new jobs, runs those queued, joins the thread. Idempotent.
  void stop();
  std::size_t queued() const;

 private:
  void loop();

  std::string name_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<std::function<void()>> jobs_;
  bool running_job_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace cinq::store
