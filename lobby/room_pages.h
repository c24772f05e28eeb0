// The lobby's list of public rooms, bounded and cut into pages (docs/protocol.md, "Lobby"). A node lists at
// most kMaxListed rooms, and a cluster's merged list keeps the kMaxListed newest of all its nodes'; clients
// get it kPerPage rooms at a time. Pure logic over the list's JSON.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cinq::lobby {

class RoomPages {
 public:
  static constexpr int kPerPage = 50;
  static constexpr std::size_t kMaxListed = 1000;

  struct Page {
    std::string rooms;  // the page's summaries, a JSON array's text
    int page = 1;       // from 1
    int pages = 1;      // how many there are (1 when the list is empty)
    std::int64_t total = 0;
  };
  // Page `page` (from 1; past the last: the last) of `list` (a JSON array of room summaries, newest
  // first). The list is cut once and kept while the same list is asked for (thread-safe).
  Page page(const std::shared_ptr<const std::string>& list, int page);

  // The newest kMaxListed of `rooms` (each with `created_ms`), newest first.
  static void bound(std::vector<nlohmann::json>& rooms);

 private:
  std::mutex mutex_;
  std::shared_ptr<const std::string> list_;  // the one cut into pages_
  std::vector<std::string> pages_;
  std::int64_t total_ = 0;
};

}  // namespace cinq::lobby
