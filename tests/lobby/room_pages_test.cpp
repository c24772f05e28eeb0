// The lobby's list in pages (lobby/room_pages.h): bounded to the newest kMaxListed, cut once per list.
#include <doctest/doctest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lobby/room_pages.h"

namespace cinq::lobby {
namespace {

using nlohmann::json;

std::shared_ptr<const std::string> list_of(int n) {
  std::vector<json> rooms;
  for (int i = 0; i < n; ++i) rooms.push_back({{"room", "r" + std::to_string(i)}, {"created_ms", 1000 + i}});
  RoomPages::bound(rooms);
  return std::make_shared<const std::string>(json(rooms).dump());
}

TEST_CASE("lobby pages: the newest rooms first, 50 a page, at most 1000 in all") {
  RoomPages pages;
  auto list = list_of(120);
  RoomPages::Page p = pages.page(list, 1);
  CHECK(p.pages == 3);
  CHECK(p.total == 120);
  json first = json::parse(p.rooms);
  REQUIRE(first.size() == 50);
  CHECK(first[0]["room"] == "r119");  // newest first
  p = pages.page(list, 3);
  CHECK(json::parse(p.rooms).size() == 20);
  CHECK(json::parse(p.rooms).back()["room"] == "r0");
  p = pages.page(list, 9);  // past the last: the last
  CHECK(p.page == 3);
  p = pages.page(list, 0);
  CHECK(p.page == 1);
  // An empty list is one empty page.
  p = pages.page(std::make_shared<const std::string>("[]"), 2);
  CHECK(p.page == 1);
  CHECK(p.pages == 1);
  CHECK(p.rooms == "[]");
  // Bounded: the newest kMaxListed of a longer list.
  auto big = list_of(1500);
  p = pages.page(big, 1);
  CHECK(p.total == static_cast<std::int64_t>(RoomPages::kMaxListed));
  CHECK(json::parse(p.rooms)[0]["room"] == "r1499");
  p = pages.page(big, 20);
  CHECK(json::parse(p.rooms).back()["room"] == "r500");
}

}  // namespace
}  // namespace cinq::lobby
