// Cheap reads of the server's JSON. The load generator shares two cores with the server it measures, so it
// never builds a DOM: it walks an object's top-level members, skipping nested values by counting brackets,
// and decodes only the few values it needs (the mover's `legal` list, a type, a seat).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cinq::load::scan {

// Index just past the JSON value starting at `i`, or npos if the text ends first.
std::size_t skip_value(std::string_view s, std::size_t i);

// Calls fn(key, raw_value) for each member of the object `object` (its text, from '{'); raw values are
// still JSON ("\"live\"", "1", "{...}"). Stops early when fn returns false. False if malformed.
template <class Fn>
bool members(std::string_view object, Fn&& fn) {
  std::size_t i = 0;
  while (i < object.size() && object[i] != '{') ++i;
  ++i;
  while (i < object.size()) {
    while (i < object.size() && (object[i] == ' ' || object[i] == ',' || object[i] == '\n')) ++i;
    if (i >= object.size()) return false;
    if (object[i] == '}') return true;
    if (object[i] != '"') return false;
    const std::size_t key_end = object.find('"', i + 1);  // keys are plain words: no escapes to honour
    if (key_end == std::string_view::npos) return false;
    const std::string_view key = object.substr(i + 1, key_end - i - 1);
    i = object.find(':', key_end);
    if (i == std::string_view::npos) return false;
    ++i;
    while (i < object.size() && object[i] == ' ') ++i;
    const std::size_t end = skip_value(object, i);
    if (end == std::string_view::npos) return false;
    if (!fn(key, object.substr(i, end - i))) return true;
    i = end;
  }
  return false;
}

// "abc" -> abc, without unescaping (ids, codes, kinds and statuses have nothing to escape).
std::string_view plain_string(std::string_view raw);
std::optional<std::int64_t> integer(std::string_view raw);

// The entries of a `legal` array (protocol.md, POSITION): plain texts, groups ["PREFIX","W1 W2 ..."] standing
// for "PREFIX W1", "PREFIX W2", ..., or folds {"prefix","from","to","step"} standing for a run of texts.
// count() counts entries (a group or a fold is one); pick() returns the text of entry `index`, a group's or a
// fold's member chosen with `random`.
std::size_t count(std::string_view legal_array);
std::string pick(std::string_view legal_array, std::size_t index, std::uint64_t random);

// Text for inside a JSON string literal.
std::string escape(std::string_view text);

}  // namespace cinq::load::scan
