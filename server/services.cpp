#include "server/services.h"

#include <nlohmann/json.hpp>

namespace cinq::server {

lobby::Now Services::now() {
  using namespace std::chrono;
  return {duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count(),
          duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count()};
}

std::string error_message(const std::string& code, const std::string& message, const std::string& ref,
                          const std::string& room) {
  nlohmann::json j = {{"type", "error"}, {"code", code}, {"message", message}};
  if (!ref.empty()) j["ref"] = nlohmann::json::parse(ref, nullptr, false);
  if (!room.empty()) j["room"] = room;
  return j.dump();
}

}  // namespace cinq::server
