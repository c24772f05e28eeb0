#include "server/services.h"

#include <algorithm>
#include <atomic>
#include <nlohmann/json.hpp>

#include "lobby/room.h"

namespace cinq::server {

lobby::Now Services::now() {
  using namespace std::chrono;
  return {duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count(),
          duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count()};
}

std::int64_t Services::next_epoch() {
  static std::atomic<std::int64_t> last{0};
  const std::int64_t now = Services::now().unix_ms;
  std::int64_t was = last.load();
  std::int64_t next = 0;
  do next = std::max(now, was + 1);
  while (!last.compare_exchange_weak(was, next));
  return next;
}

std::string error_message(const std::string& code, const std::string& message, const std::string& ref,
                          const std::string& room) {
  nlohmann::json j = {{"type", "error"}, {"code", code}, {"message", message}};
  if (!ref.empty()) j["ref"] = nlohmann::json::parse(ref, nullptr, false);
  if (!room.empty()) j["room"] = room;
  return j.dump();
}

std::string error_message(const lobby::Failure& failure, const std::string& ref, const std::string& room) {
  nlohmann::json j = {{"type", "error"}, {"code", failure.code}, {"message", failure.message}};
  lobby::add_reason(failure, j);
  if (!ref.empty()) j["ref"] = nlohmann::json::parse(ref, nullptr, false);
  if (!room.empty()) j["room"] = room;
  return j.dump();
}

}  // namespace cinq::server
