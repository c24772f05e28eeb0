// Jobs waiting by owner, taken in turn: the next owner's oldest job, then the owner goes to the back of the
// line if it has more, so that one player's many jobs never keep another's waiting behind them. The bots'
// turns (bot_runner.h) and the analyses (analyst.h) wait in one each. Not thread-safe: its user holds its own
// lock around every call.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <unordered_map>
#include <utility>

namespace cinq::server {

template <class T>
class FairQueue {
 public:
  void push(const std::string& owner, T job) {
    auto& mine = queues_[owner];
    if (mine.empty()) owners_.push_back(owner);
    mine.push_back(std::move(job));
    ++size_;
  }
  // The next job (the queue must not be empty).
  T pop() {
    std::string owner = std::move(owners_.front());
    owners_.pop_front();
    auto it = queues_.find(owner);
    T job = std::move(it->second.front());
    it->second.pop_front();
    if (it->second.empty())
      queues_.erase(it);
    else
      owners_.push_back(std::move(owner));
    --size_;
    return job;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Every job waiting, in no particular order (to cancel them before clear()).
  template <class F>
  void each(F&& f) {
    for (auto& [owner, jobs] : queues_)
      for (auto& job : jobs) f(job);
  }
  void clear() {
    queues_.clear();
    owners_.clear();
    size_ = 0;
  }

 private:
  std::unordered_map<std::string, std::deque<T>> queues_;  // by owner
  std::deque<std::string> owners_;                         // those with jobs waiting, in turn
  std::size_t size_ = 0;
};

}  // namespace cinq::server
