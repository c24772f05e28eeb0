// A small JSON-free value tree: what a game shows its clients (State::view). The server turns it into JSON;
// the rules library never sees a JSON library.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cinq {

class Value {
 public:
  using Array = std::vector<Value>;
  using Object = std::vector<std::pair<std::string, Value>>;  // keeps insertion order

  Value() = default;
  Value(std::nullptr_t) {}
  Value(bool b) : v_(b) {}
  Value(int i) : v_(static_cast<std::int64_t>(i)) {}
  Value(std::int64_t i) : v_(i) {}
  Value(double d) : v_(d) {}
  Value(const char* s) : v_(std::string(s)) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(Array a) : v_(std::move(a)) {}
  Value(Object o) : v_(std::move(o)) {}

  static Value array() { return Value(Array{}); }
  static Value object() { return Value(Object{}); }

  bool is_null() const { return v_.index() == 0; }
  bool is_bool() const { return v_.index() == 1; }
  bool is_int() const { return v_.index() == 2; }
  bool is_double() const { return v_.index() == 3; }
  bool is_string() const { return v_.index() == 4; }
  bool is_array() const { return v_.index() == 5; }
  bool is_object() const { return v_.index() == 6; }

  bool as_bool() const { return std::get<bool>(v_); }
  std::int64_t as_int() const { return std::get<std::int64_t>(v_); }
  double as_double() const { return std::get<double>(v_); }
  const std::string& as_string() const { return std::get<std::string>(v_); }
  const Array& as_array() const { return std::get<Array>(v_); }
  const Object& as_object() const { return std::get<Object>(v_); }

  // Building: `v.push(x)` on an array, `v.set("k", x)` on an object (appends; keys are the caller's care).
  Value& push(Value x) {
    std::get<Array>(v_).push_back(std::move(x));
    return *this;
  }
  Value& set(std::string key, Value x) {
    std::get<Object>(v_).emplace_back(std::move(key), std::move(x));
    return *this;
  }
  // Looks a key up in an object; nullptr when absent or not an object.
  const Value* find(std::string_view key) const {
    if (!is_object()) return nullptr;
    for (const auto& [k, x] : as_object())
      if (k == key) return &x;
    return nullptr;
  }

 private:
  std::variant<std::monostate, bool, std::int64_t, double, std::string, Array, Object> v_;
};

}  // namespace cinq
