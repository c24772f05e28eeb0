// The mails' words (words.h): the list of languages, a catalog's lookup with its parameters, and dates.
#include "mail/words.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "mail/schedule.h"

namespace cinq::mail {

// Each language's catalog (words_LANG.cpp).
extern const std::span<const Words> kEnglishWords;
extern const std::span<const Words> kFrenchWords;

namespace {

struct Language {
  std::string_view code;
  const std::span<const Words>* words;
};

// The languages of the mails: a new one is a line here and its catalog (with the same keys as English's).
const Language kLanguages[] = {
    {"en", &kEnglishWords},
    {"fr", &kFrenchWords},
};

const std::string_view* find(std::span<const Words> words, std::string_view key) {
  for (const Words& w : words)
    if (w.key == key) return &w.text;
  return nullptr;
}

template <class Range>
std::string fill(std::string_view text, const Range& params) {
  std::string out;
  out.reserve(text.size() + 64);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') {
      const std::size_t close = text.find('}', i);
      if (close != std::string_view::npos) {
        const std::string_view name = text.substr(i + 1, close - i - 1);
        auto it = std::find_if(params.begin(), params.end(), [&](const auto& p) { return p.first == name; });
        if (it != params.end()) {
          out += it->second;
          i = close;
          continue;
        }
      }
    }
    out += text[i];
  }
  return out;
}

}  // namespace

std::vector<std::string_view> languages() {
  std::vector<std::string_view> out;
  for (const Language& l : kLanguages) out.push_back(l.code);
  return out;
}

bool known_language(std::string_view language) {
  return std::any_of(std::begin(kLanguages), std::end(kLanguages), [&](const Language& l) { return l.code == language; });
}

std::span<const Words> catalog(std::string_view language) {
  for (const Language& l : kLanguages)
    if (l.code == language) return *l.words;
  return kEnglishWords;
}

std::string text(std::string_view language, std::string_view key, Params params) {
  const std::string_view* found = find(catalog(language), key);
  if (!found) found = find(kEnglishWords, key);
  return fill(found ? *found : key, params);
}

std::string rules_reason(std::string_view language, std::string_view code,
                         const std::vector<std::pair<std::string, std::string>>& params, int line, int turn,
                         const std::function<std::string(const std::string&)>& side_word) {
  // The room's own reasons for refusing a mailed log ("log.CODE", lobby/log_refusals.inc) are `refused.log.*`.
  const std::string key = (code.starts_with("log.") ? "refused." : "rules.") + std::string(code);
  if (code.empty() || !find(catalog(language), key)) return {};
  std::vector<std::pair<std::string, std::string>> said = params;
  for (auto& p : said)
    if ((p.first == "side" || p.first.ends_with("_side")) && side_word) p.second = side_word(p.second);
  std::string reason = fill(*find(catalog(language), key), said);
  if (turn > 0)
    reason = text(language, "refused.at_turn", {{"turn", std::to_string(turn)}, {"reason", reason}});
  if (line > 0)
    reason = text(language, "refused.at_line", {{"line", std::to_string(line)}, {"reason", reason}});
  return reason;
}

std::string count_text(std::string_view language, std::string_view key, std::int64_t n) {
  // French counts 0 and 1 as one ("0 partie"), English 1 alone.
  const bool one = language == "fr" ? (n == 0 || n == 1) : n == 1;
  return text(language, std::string(key) + (one ? ".one" : ".other"), {{"n", std::to_string(n)}});
}

std::string human_time(std::int64_t unix_ms, std::string_view zone, std::string_view language) {
  const std::string abbrev = zone_abbrev(zone, unix_ms);
  const auto hhmm = [](std::int64_t ms) {
    const std::time_t t = static_cast<std::time_t>(ms / 1000 - (ms % 1000 < 0 ? 1 : 0));  // rounded down, as schedule.cpp
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "%02d:%02d", tm.tm_hour, tm.tm_min);
    return std::pair{tm, std::string(buffer)};
  };
  const auto [local, time] = hhmm(unix_ms + (abbrev.empty() ? 0 : zone_offset_ms(zone, unix_ms)));
  std::string out = text(language, "date.format",
                         {{"weekday", text(language, "date.day." + std::to_string(local.tm_wday))},
                          {"day", std::to_string(local.tm_mday)},
                          {"month", text(language, "date.month." + std::to_string(local.tm_mon))},
                          {"year", std::to_string(local.tm_year + 1900)},
                          {"time", time},
                          {"zone", abbrev.empty() ? std::string("UTC") : abbrev}});
  if (!abbrev.empty()) out += " (" + hhmm(unix_ms).second + " UTC)";
  return out;
}

}  // namespace cinq::mail
