// Reminder times and dates (schedule.h).
#include "mail/schedule.h"

#include <date/tz.h>
#include <cstring>
#include <cctype>

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace cinq::mail {

namespace {

constexpr std::int64_t kMinuteMs = 60'000;
constexpr std::int64_t kHourMs = 60 * kMinuteMs;
constexpr std::int64_t kDayMs = 24 * kHourMs;
constexpr std::int64_t kDefaultMinLeadMs = 12 * kHourMs;
constexpr std::size_t kMaxLeads = 8;

std::tm utc(std::int64_t unix_ms) {
  // Whole seconds, rounded down (a time before 1970 too).
  const auto t = static_cast<std::time_t>(unix_ms / 1000 - (unix_ms % 1000 < 0 ? 1 : 0));
  std::tm tm{};
  gmtime_r(&t, &tm);
  return tm;
}

std::string_view strip_spaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// "24h", "90m", "2d", "30s" in milliseconds; 0 if malformed.
std::int64_t lead(std::string_view item) {
  if (item.size() < 2 || item.size() > 9) return 0;  // at most 8 digits: no overflow
  std::int64_t n = 0;
  for (char c : item.substr(0, item.size() - 1)) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + (c - '0');
  }
  switch (item.back()) {
    case 'd':
    case 'D':
      return n * kDayMs;
    case 'h':
    case 'H':
      return n * kHourMs;
    case 'm':
    case 'M':
      return n * kMinuteMs;
    case 's':
    case 'S':
      return n * 1000;  // docs/mail.md and the web client offer seconds too
    default:
      return 0;
  }
}

}  // namespace

std::vector<std::int64_t> reminder_times(std::int64_t turn_start_ms, std::int64_t deadline_ms,
                                         const std::vector<std::int64_t>& leads_ms) {
  std::vector<std::int64_t> leads = leads_ms;
  if (leads.empty() && deadline_ms > turn_start_ms)
    leads.push_back(std::max((deadline_ms - turn_start_ms) / 5, kDefaultMinLeadMs));
  std::vector<std::int64_t> out;
  for (std::int64_t lead : leads) {
    // lead > 0 first: deadline - lead cannot overflow then (deadline is a time, lead a duration).
    if (lead > 0 && lead < deadline_ms - turn_start_ms) out.push_back(deadline_ms - lead);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<std::vector<std::int64_t>> parse_leads(std::string_view text) {
  std::vector<std::int64_t> out;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::int64_t ms = lead(strip_spaces(text.substr(at, comma - at)));
    if (ms <= 0 || out.size() == kMaxLeads) return std::nullopt;
    out.push_back(ms);
    at = comma + 1;
  }
  return out;
}

std::string rfc5322_date(std::int64_t unix_ms) {
  static const char* const kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::tm tm = utc(unix_ms);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%s, %02d %s %04d %02d:%02d:%02d +0000", kDays[tm.tm_wday], tm.tm_mday,
                kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buffer;
}

namespace {

// The zone named `zone`, or nullptr ("" , a name of other characters, or one the database lacks).
const date::time_zone* find_zone(std::string_view zone) {
  if (zone.empty() || zone.size() > 64 ||
      !std::all_of(zone.begin(), zone.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/_+-", c); }))
    return nullptr;
  try {
    return date::locate_zone(std::string(zone));
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace

bool valid_zone(std::string_view zone) { return find_zone(zone) != nullptr; }

std::int64_t zone_offset_ms(std::string_view zone, std::int64_t unix_ms) {
  const date::time_zone* z = find_zone(zone);
  if (!z) return 0;
  const auto info = z->get_info(date::sys_seconds{std::chrono::seconds{unix_ms / 1000}});
  return std::chrono::duration_cast<std::chrono::milliseconds>(info.offset).count();
}

std::string zone_abbrev(std::string_view zone, std::int64_t unix_ms) {
  const date::time_zone* z = find_zone(zone);
  if (!z) return {};
  return z->get_info(date::sys_seconds{std::chrono::seconds{unix_ms / 1000}}).abbrev;
}

}  // namespace cinq::mail
