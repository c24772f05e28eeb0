// Reminder times and dates (schedule.h).
#include "mail/schedule.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace cinq::mail {

namespace {
constexpr std::int64_t kHourMs = 3'600'000;
const char* const kDays[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
const char* const kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                               "July",    "August",   "September", "October", "November", "December"};

std::tm utc(std::int64_t unix_ms) {
  const std::time_t t = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return tm;
}
}  // namespace

std::vector<std::int64_t> reminder_times(std::int64_t turn_start_ms, std::int64_t deadline_ms,
                                         const std::vector<std::int64_t>& leads_ms) {
  std::vector<std::int64_t> leads = leads_ms;
  if (leads.empty()) leads.push_back(std::max((deadline_ms - turn_start_ms) / 5, 12 * kHourMs));
  std::vector<std::int64_t> out;
  for (std::int64_t lead : leads) {
    const std::int64_t at = deadline_ms - lead;
    if (lead > 0 && at > turn_start_ms && at < deadline_ms) out.push_back(at);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<std::vector<std::int64_t>> parse_leads(std::string_view text) {
  std::vector<std::int64_t> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t comma = text.find(',', at);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(at, comma - at);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.size() < 2 || item.size() > 9) return std::nullopt;
    std::int64_t n = 0;
    for (char c : item.substr(0, item.size() - 1)) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + (c - '0');
    }
    const char unit = item.back();
    const std::int64_t scale = unit == 'd' ? 24 * kHourMs : unit == 'h' ? kHourMs : unit == 'm' ? 60'000 : unit == 's' ? 1000 : 0;
    if (scale == 0 || n <= 0) return std::nullopt;
    out.push_back(n * scale);
    if (out.size() > 8) return std::nullopt;
    at = comma + 1;
  }
  if (out.empty()) return std::nullopt;
  return out;
}

std::string rfc5322_date(std::int64_t unix_ms) {
  const std::tm tm = utc(unix_ms);
  char buffer[64];
  static const char* days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  std::snprintf(buffer, sizeof buffer, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday], tm.tm_mday,
                months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buffer;
}

std::string human_time_utc(std::int64_t unix_ms) {
  const std::tm tm = utc(unix_ms);
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%s %d %s %04d, %02d:%02d UTC", kDays[tm.tm_wday], tm.tm_mday,
                kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min);
  return buffer;
}

}  // namespace cinq::mail
