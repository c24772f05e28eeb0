// Turns the rules' JSON-free views (cinq::Value) into JSON for clients and tools.
#pragma once

#include <nlohmann/json.hpp>

#include "rules/value.h"

namespace cinq {

inline nlohmann::json to_json(const Value& v) {
  if (v.is_bool()) return v.as_bool();
  if (v.is_int()) return v.as_int();
  if (v.is_double()) return v.as_double();
  if (v.is_string()) return v.as_string();
  if (v.is_array()) {
    nlohmann::json a = nlohmann::json::array();
    for (const Value& x : v.as_array()) a.push_back(to_json(x));
    return a;
  }
  if (v.is_object()) {
    nlohmann::json o = nlohmann::json::object();
    for (const auto& [k, x] : v.as_object()) o[k] = to_json(x);
    return o;
  }
  return nullptr;
}

}  // namespace cinq
