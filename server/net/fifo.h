// A first-in first-out queue on one vector, for what every connection holds: nothing is allocated until the
// first push (an empty std::deque already holds about 600 bytes), and the slots are reused once it empties.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace cinq::net {

template <class T>
class Fifo {
 public:
  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }
  T& front() { return items_[head_]; }
  void push_back(T x) { items_.push_back(std::move(x)); }
  void pop_front() {
    items_[head_++] = T();  // its resources go now
    if (head_ == items_.size()) {
      clear();
    } else if (head_ >= kCompactAt && head_ * 2 >= items_.size()) {  // never empty: the front part goes
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  // Drops everything after the front (the one being written stays).
  void keep_front() {
    if (size() > 1) items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(head_) + 1, items_.end());
  }
  void clear() {
    items_.clear();
    head_ = 0;
    if (items_.capacity() > kKeep) std::vector<T>().swap(items_);  // after a burst: not held for ever
  }

 private:
  static constexpr std::size_t kKeep = 16, kCompactAt = 32;
  std::vector<T> items_;
  std::size_t head_ = 0;
};

}  // namespace cinq::net
