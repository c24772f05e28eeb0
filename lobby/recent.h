// The last N things of a kind, oldest first, in one vector: a room's event log, notes and chat lines. Nothing
// is allocated until the first push (an empty std::deque already holds about 600 bytes, and a thousand rooms
// hold several of them each), the vector grows only as far as N, and once full each push overwrites the oldest.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <utility>
#include <vector>

namespace cinq::lobby {

template <class T>
class Recent {
 public:
  explicit Recent(std::size_t max) : max_(max) {}
  Recent(const Recent&) = default;
  Recent& operator=(const Recent&) = default;
  // A moved-from one is empty, and in order again.
  Recent(Recent&& o) noexcept : max_(o.max_), items_(std::move(o.items_)), head_(std::exchange(o.head_, 0)) {
    o.items_.clear();
  }
  Recent& operator=(Recent&& o) noexcept {
    max_ = o.max_;
    items_ = std::move(o.items_);
    head_ = std::exchange(o.head_, 0);
    o.items_.clear();
    return *this;
  }

  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  // The i-th oldest (0: the oldest).
  const T& operator[](std::size_t i) const { return items_[(head_ + i) % items_.size()]; }
  const T& front() const { return (*this)[0]; }
  const T& back() const { return (*this)[items_.size() - 1]; }

  // Adds the newest; when N are held, the oldest goes.
  void push_back(T x) {
    if (max_ == 0) return;
    if (items_.size() < max_) {
      if (items_.size() == items_.capacity())  // doubling, but never past N
        items_.reserve(std::min(max_, std::max<std::size_t>(4, 2 * items_.size())));
      items_.push_back(std::move(x));
      return;
    }
    items_[head_] = std::move(x);
    head_ = (head_ + 1) % max_;
  }
  void clear() {
    std::vector<T>().swap(items_);
    head_ = 0;
  }

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;
    const_iterator(const Recent* r, std::size_t i) : r_(r), i_(i) {}
    const T& operator*() const { return (*r_)[i_]; }
    const T* operator->() const { return &(*r_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

   private:
    const Recent* r_;
    std::size_t i_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, items_.size()}; }

 private:
  std::size_t max_;
  std::vector<T> items_;  // before it is full: oldest first; then from head_ on, round
  std::size_t head_ = 0;
};

}  // namespace cinq::lobby
