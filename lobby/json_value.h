// Turns the rules' JSON-free views (cinq::Value) into JSON for clients and tools.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// The same JSON as to_json(v).dump(), written straight to text: a position is built for every turn, and going
// through nlohmann's tree cost more than the rest of the turn (docs/performance.md). Doubles are written by
// std::to_chars, the shortest text that reads back as the same double (nlohmann's may have a digit more).
inline void write_json_string(std::string_view text, std::string& out) {
  out += '"';
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

inline void write_json(const Value& v, std::string& out) {
  if (v.is_bool()) {
    out += v.as_bool() ? "true" : "false";
  } else if (v.is_int()) {
    out += std::to_string(v.as_int());
  } else if (v.is_double()) {
    double d = v.as_double();
    if (!std::isfinite(d)) {
      out += "null";
      return;
    }
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
    std::string_view text(buf, static_cast<std::size_t>(end - buf));
    out += text;
    // A whole double keeps a fraction, as nlohmann writes it ("2.0"): readers may tell the two kinds apart.
    if (text.find_first_of(".eE") == std::string_view::npos) out += ".0";
  } else if (v.is_string()) {
    write_json_string(v.as_string(), out);
  } else if (v.is_array()) {
    out += '[';
    bool first = true;
    for (const Value& x : v.as_array()) {
      if (!first) out += ',';
      first = false;
      write_json(x, out);
    }
    out += ']';
  } else if (v.is_object()) {
    // nlohmann's objects are sorted by key; so are these, so both texts are the same.
    std::vector<const std::pair<std::string, Value>*> members;
    for (const auto& m : v.as_object()) members.push_back(&m);
    std::sort(members.begin(), members.end(), [](auto* a, auto* b) { return a->first < b->first; });
    out += '{';
    bool first = true;
    for (const auto* m : members) {
      if (!first) out += ',';
      first = false;
      write_json_string(m->first, out);
      out += ':';
      write_json(m->second, out);
    }
    out += '}';
  } else {
    out += "null";
  }
}

}  // namespace cinq
