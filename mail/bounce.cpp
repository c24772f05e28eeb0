// Reading a bounce (read.h, read_bounce): the Message-IDs of ours it returns, and why the mail failed.
#include <algorithm>
#include <cctype>

#include "mail/read.h"

namespace cinq::mail {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// The value of a header line `name:` (any case), trimmed, or nullopt if the line is not one.
std::optional<std::string_view> value_of(std::string_view line, std::string_view name) {
  if (line.size() <= name.size() || line[name.size()] != ':' || lower(line.substr(0, name.size())) != name)
    return std::nullopt;
  std::string_view v = line.substr(name.size() + 1);
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r')) v.remove_suffix(1);
  return v;
}

}  // namespace

Bounce read_bounce(std::string_view raw, std::string_view domain) {
  Bounce out;
  std::string status;
  const std::string suffix = "@" + lower(domain);
  std::size_t at = 0;
  while (at < raw.size()) {
    std::size_t end = raw.find('\n', at);
    if (end == std::string_view::npos) end = raw.size();
    const std::string_view line = raw.substr(at, end - at);
    at = end + 1;
    if (auto id = value_of(line, "message-id")) {
      std::string_view v = *id;
      if (v.size() > 2 && v.front() == '<' && v.back() == '>') v = v.substr(1, v.size() - 2);
      if (v.size() > suffix.size() && v.size() <= 500 && lower(v.substr(v.size() - suffix.size())) == suffix &&
          v.find_first_of(" \t<>") == std::string_view::npos &&
          std::find(out.message_ids.begin(), out.message_ids.end(), v) == out.message_ids.end())
        out.message_ids.emplace_back(v);
    } else if (auto d = value_of(line, "diagnostic-code"); d && out.reason.empty()) {
      out.reason = std::string(d->substr(0, 300));
    } else if (auto s = value_of(line, "status"); s && status.empty()) {
      status = std::string(s->substr(0, 100));
    }
  }
  if (out.reason.empty()) out.reason = status;
  return out;
}

}  // namespace cinq::mail
