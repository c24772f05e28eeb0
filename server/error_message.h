// The protocol's error message, written in one place for every part that answers a client.
#pragma once

#include <string>

namespace cinq::server {

// {"type":"error","code":...,"message":...} with the request's `ref` and room when known.
std::string error_message(const std::string& code, const std::string& message, const std::string& ref = {},
                          const std::string& room = {});

}  // namespace cinq::server
