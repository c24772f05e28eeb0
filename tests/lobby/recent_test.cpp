// lobby::Recent: the last N things, oldest first, without a deque's allocation while empty.
#include "lobby/recent.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace cinq::lobby {
namespace {

std::vector<int> items(const Recent<int>& r) { return {r.begin(), r.end()}; }

TEST_CASE("recent: keeps the last N oldest first, overwriting the oldest once full, and never grows past N") {
  Recent<int> r(3);
  CHECK(r.empty());
  for (int i = 1; i <= 2; ++i) r.push_back(i);
  CHECK(items(r) == std::vector<int>{1, 2});
  for (int i = 3; i <= 7; ++i) r.push_back(i);
  CHECK(items(r) == std::vector<int>{5, 6, 7});
  CHECK(r.size() == 3);
  CHECK(r.front() == 5);
  CHECK(r.back() == 7);
  CHECK(r[1] == 6);

  Recent<std::string> chat(100);
  for (int i = 0; i < 250; ++i) chat.push_back(std::to_string(i));
  CHECK(chat.size() == 100);
  CHECK(chat.front() == "150");
  CHECK(chat.back() == "249");

  Recent<int> none(0);  // a bound of 0 keeps nothing
  none.push_back(1);
  CHECK(none.empty());
}

TEST_CASE("recent: a copy keeps the order, a moved-from one is empty and in order again, clear empties") {
  Recent<int> r(3);
  for (int i = 1; i <= 5; ++i) r.push_back(i);  // wrapped: 3 4 5
  Recent<int> copy = r;
  CHECK(items(copy) == std::vector<int>{3, 4, 5});
  Recent<int> moved = std::move(r);
  CHECK(items(moved) == std::vector<int>{3, 4, 5});
  CHECK(r.empty());  // NOLINT(bugprone-use-after-move): what a moved-from one holds is the point
  r.push_back(8);
  r.push_back(9);
  CHECK(items(r) == std::vector<int>{8, 9});
  moved.clear();
  CHECK(moved.empty());
  moved.push_back(1);
  CHECK(items(moved) == std::vector<int>{1});
}

}  // namespace
}  // namespace cinq::lobby
