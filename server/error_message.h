// The protocol's error message, written in one place for every part that answers a client.
#pragma once

#include <string>

namespace cinq::lobby {
struct Failure;
}

namespace cinq::server {

// {"type":"error","code":...,"message":...} with the request's `ref` and room when known.
std::string error_message(const std::string& code, const std::string& message, const std::string& ref = {},
                          const std::string& room = {});
// The same for a room's failure, with the rules' reason when they gave it (`reason_code`, `params`, `turn`).
std::string error_message(const lobby::Failure& failure, const std::string& ref = {},
                          const std::string& room = {});

}  // namespace cinq::server
