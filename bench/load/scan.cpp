#include "bench/load/scan.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace cinq::load::scan {

namespace {

// Index just past the string literal opening at `i`.
std::size_t skip_string(std::string_view s, std::size_t i) {
  ++i;
  while (i < s.size()) {
    const void* hit = std::memchr(s.data() + i, '"', s.size() - i);
    if (!hit) return std::string_view::npos;
    std::size_t q = static_cast<const char*>(hit) - s.data();
    std::size_t slashes = 0;
    while (q - slashes > i && s[q - slashes - 1] == '\\') ++slashes;
    if (slashes % 2 == 0) return q + 1;
    i = q + 1;
  }
  return std::string_view::npos;
}

std::string unescape(std::string_view raw) {
  std::string_view body = plain_string(raw);
  std::string out;
  out.reserve(body.size());
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 == body.size()) {
      out += body[i];
      continue;
    }
    const char c = body[++i];
    switch (c) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'u':  // action texts are ASCII; anything else is passed through as '?'
        out += '?';
        i += 4;
        break;
      default:
        out += c;
    }
  }
  return out;
}

double number(std::string_view raw) {
  double v = 0;
  std::from_chars(raw.data(), raw.data() + raw.size(), v);
  return v;
}

// A fold's member count and one member's text.
struct Fold {
  std::string prefix;
  double from = 0, to = 0, step = 1;

  explicit Fold(std::string_view raw) {
    members(raw, [&](std::string_view key, std::string_view value) {
      if (key == "prefix") prefix = unescape(value);
      if (key == "from") from = number(value);
      if (key == "to") to = number(value);
      if (key == "step") step = number(value);
      return true;
    });
  }
  std::uint64_t size() const {
    if (step <= 0 || to < from) return 1;
    return static_cast<std::uint64_t>(std::floor((to - from) / step + 1e-9)) + 1;
  }
  std::string text(std::uint64_t k) const {
    char buffer[64];
    // "Numbers written without trailing zeros" (protocol.md): %g's shortest form, rounded so that
    // 0.1 * 3 prints 0.3.
    std::snprintf(buffer, sizeof buffer, "%.10g", from + static_cast<double>(k) * step);
    return prefix + " " + buffer;
  }
};

}  // namespace

std::size_t skip_value(std::string_view s, std::size_t i) {
  if (i >= s.size()) return std::string_view::npos;
  const char c = s[i];
  if (c == '"') return skip_string(s, i);
  if (c == '{' || c == '[') {
    int depth = 0;
    while (i < s.size()) {
      const char d = s[i];
      if (d == '"') {
        i = skip_string(s, i);
        if (i == std::string_view::npos) return i;
        continue;
      }
      if (d == '{' || d == '[') ++depth;
      if (d == '}' || d == ']') {
        if (--depth == 0) return i + 1;
      }
      ++i;
    }
    return std::string_view::npos;
  }
  while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']') ++i;
  return i;
}

std::string_view plain_string(std::string_view raw) {
  if (raw.size() >= 2 && raw.front() == '"' && raw.back() == '"') return raw.substr(1, raw.size() - 2);
  return {};
}

std::optional<std::int64_t> integer(std::string_view raw) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), v);
  if (ec != std::errc() || end == raw.data()) return std::nullopt;
  return v;
}

namespace {

// Calls fn(raw_entry) for each entry of a JSON array; stops when fn returns false.
template <class Fn>
void entries(std::string_view array, Fn&& fn) {
  std::size_t i = array.find('[');
  if (i == std::string_view::npos) return;
  ++i;
  while (i < array.size()) {
    while (i < array.size() && (array[i] == ',' || array[i] == ' ')) ++i;
    if (i >= array.size() || array[i] == ']') return;
    const std::size_t end = skip_value(array, i);
    if (end == std::string_view::npos) return;
    if (!fn(array.substr(i, end - i))) return;
    i = end;
  }
}

}  // namespace

std::size_t count(std::string_view legal_array) {
  std::size_t n = 0;
  entries(legal_array, [&](std::string_view) { return ++n, true; });
  return n;
}

std::string pick(std::string_view legal_array, std::size_t index, std::uint64_t random) {
  std::string out;
  std::size_t n = 0;
  entries(legal_array, [&](std::string_view raw) {
    if (n++ != index) return true;
    if (raw.front() == '{') {
      Fold fold(raw);
      out = fold.text(random % fold.size());
    } else if (raw.front() == '[') {  // a group ["PREFIX","W1 W2 ..."]: "PREFIX Wk"
      std::vector<std::string> parts;
      entries(raw, [&](std::string_view part) { return parts.push_back(unescape(part)), true; });
      if (parts.size() != 2) return false;
      std::vector<std::string_view> words;
      std::string_view rest = parts[1];
      for (std::size_t at = 0; at <= rest.size();) {
        std::size_t end = std::min(rest.find(' ', at), rest.size());
        words.push_back(rest.substr(at, end - at));
        at = end + 1;
      }
      out = parts[0] + " " + std::string(words[random % words.size()]);
    } else {
      out = unescape(raw);
    }
    return false;
  });
  return out;
}

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace cinq::load::scan
