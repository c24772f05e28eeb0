// The context's own operations and what several handlers share (context.h, handlers.h).
#include "server/commands/context.h"

#include <nlohmann/json.hpp>
#include <random>

#include "server/commands/handlers.h"
#include "server/services.h"

namespace cinq::server {

void CommandContext::reply_error(const Request& rq, const std::string& code, const std::string& message,
                                 const std::string& room) const {
  services.metrics.count_error(code);
  rq.connection->send(error_message(code, message, rq.ref, room));
}

namespace commands {

void reply(const Request& rq, nlohmann::json m) {
  if (!rq.ref.empty()) m["ref"] = nlohmann::json::parse(rq.ref);
  rq.connection->send(m.dump());
}

int random_seat() {
  static thread_local std::mt19937 rng{std::random_device{}()};
  return static_cast<int>(rng() & 1);
}

}  // namespace commands
}  // namespace cinq::server
