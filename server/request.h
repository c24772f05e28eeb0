// One parsed client message, as the protocol handlers (protocol.cpp, identity.cpp) see it.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "server/app.h"

namespace cinq::server {

using nlohmann::json;

struct App::Request {
  std::shared_ptr<net::Connection> connection;
  json body;
  std::string type;
  std::string ref;  // the request's `ref` as JSON text, echoed in errors
  std::chrono::steady_clock::time_point received;
  std::optional<lobby::Player> player;

  // Field readers: each gives an error message (for `bad_message`) when the field has the wrong shape.
  std::optional<std::string> string_field(const char* key, std::string& why, bool required = true) const {
    auto it = body.find(key);
    if (it == body.end() || it->is_null()) {
      if (required) why = std::string("field '") + key + "' is missing";
      return std::nullopt;
    }
    if (!it->is_string()) {
      why = std::string("field '") + key + "' must be a string";
      return std::nullopt;
    }
    return it->get<std::string>();
  }
};

}  // namespace cinq::server
