// The lobby's list in pages (room_pages.h).
#include "lobby/room_pages.h"

#include <algorithm>

namespace cinq::lobby {

using nlohmann::json;

void RoomPages::bound(std::vector<json>& rooms) {
  std::stable_sort(rooms.begin(), rooms.end(), [](const json& x, const json& y) {
    return x.value("created_ms", std::int64_t{0}) > y.value("created_ms", std::int64_t{0});
  });
  if (rooms.size() > kMaxListed) rooms.resize(kMaxListed);
}

RoomPages::Page RoomPages::page(const std::shared_ptr<const std::string>& list, int page) {
  std::lock_guard lock(mutex_);
  if (list != list_) {
    list_ = list;
    pages_.clear();
    json all = list ? json::parse(*list, nullptr, false) : json::array();
    if (!all.is_array()) all = json::array();
    total_ = static_cast<std::int64_t>(all.size());
    for (std::size_t i = 0; i < all.size(); i += kPerPage) {
      const auto end = std::min(all.size(), i + kPerPage);
      pages_.push_back(json(std::vector<json>(all.begin() + static_cast<std::ptrdiff_t>(i),
                                              all.begin() + static_cast<std::ptrdiff_t>(end)))
                           .dump());
    }
    if (pages_.empty()) pages_.push_back("[]");
  }
  Page p;
  p.pages = static_cast<int>(pages_.size());
  p.page = std::clamp(page, 1, p.pages);
  p.rooms = pages_[static_cast<std::size_t>(p.page - 1)];
  p.total = total_;
  return p;
}

}  // namespace cinq::lobby
