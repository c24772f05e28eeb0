// The worker pool: threads of their own for the work a network thread must never wait for — every
// store read (a player at `hello`, a room not in memory, `my_games`) and every whole-record replay (reopening
// a stored room, `POST /api/replay`, an import, a mailed log). A job answers its connection itself
// (net::Connection::send is thread-safe) or posts to a room's strand. The store's writer thread
// (persistence/worker.h, under store::Saver) only writes.
//
// Two kinds of jobs. `quick` ones are a connection's (its player, the room it joins, its games): they hold
// the connection's later messages until they are done. `bulk` ones are HTTP requests that replay a record a
// client sent, of any length (`/api/replay`, an import, a mailed log). Bulk jobs never take every thread:
// with N threads at most N-1 run bulk jobs at once, so a flood of replays leaves a thread for the quick
// jobs. Each kind waits in a bounded FIFO queue; a full queue refuses the job (the caller
// answers "busy").
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cinq::server {

struct WorkerConfig {
  int threads = 2;              // `cinq serve --worker-threads N` (1 to 64)
  std::size_t max_queue = 512;  // jobs waiting, of each kind
};

class Workers {
 public:
  enum class Kind { quick, bulk };

  explicit Workers(WorkerConfig config = {});
  ~Workers();  // stop()
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  // Queues a job; false (the job dropped at once) when its queue is full or the pool stopped.
  bool submit(Kind kind, std::function<void()> job);
  // Refuses new jobs, drops those waiting (destroyed, never run), lets the running ones end and joins the
  // threads. Idempotent.
  void stop();

  int threads() const { return static_cast<int>(threads_.size()); }
  std::int64_t busy() const { return busy_.load(); }  // jobs running now
  std::size_t queued() const;                         // jobs waiting

 private:
  void run();

  const std::size_t max_queue_;
  std::size_t bulk_limit_ = 1;  // bulk jobs running at once, at most
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> quick_;
  std::deque<std::function<void()>> bulk_;
  std::size_t bulk_running_ = 0;
  bool stopping_ = false;
  std::atomic<std::int64_t> busy_{0};
  std::vector<std::thread> threads_;
};

}  // namespace cinq::server
