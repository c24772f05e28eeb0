// net::Fifo, the queue every connection holds twice (its messages waiting, its frames to send).
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "server/net/fifo.h"

namespace cinq::net {
namespace {

TEST_CASE("fifo: first in, first out, through growth, compaction and emptying") {
  Fifo<std::string> q;
  CHECK(q.empty());
  int next_in = 0, next_out = 0;
  // A queue that never empties for long: 1,000 items through it, never more than 40 at once.
  for (int round = 0; round < 100; ++round) {
    for (int i = 0; i < 30; ++i) q.push_back(std::to_string(next_in++));
    while (q.size() > 10 + round % 7) {
      REQUIRE(q.front() == std::to_string(next_out++));
      q.pop_front();
    }
  }
  while (!q.empty()) {
    REQUIRE(q.front() == std::to_string(next_out++));
    q.pop_front();
  }
  CHECK(next_out == next_in);
  CHECK(q.size() == 0);
  q.push_back("again");
  CHECK(q.front() == "again");
}

TEST_CASE("fifo: keep_front drops all but the one being written, a popped item is released at once") {
  Fifo<std::shared_ptr<int>> q;
  auto first = std::make_shared<int>(1);
  q.push_back(first);
  for (int i = 2; i <= 5; ++i) q.push_back(std::make_shared<int>(i));
  q.keep_front();
  CHECK(q.size() == 1);
  CHECK(*q.front() == 1);
  q.push_back(std::make_shared<int>(6));
  q.pop_front();
  CHECK(first.use_count() == 1);  // the queue let go of it
  CHECK(*q.front() == 6);
  q.clear();
  CHECK(q.empty());
}

}  // namespace
}  // namespace cinq::net
