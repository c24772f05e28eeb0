// Times for mail: when to remind a player before a correspondence deadline, and dates as mails write them.
// Pure: every time is passed in (Unix milliseconds).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cinq::mail {

// When to remind the side to move before its deadline. `leads_ms`: how long before the deadline each reminder
// goes (a player's choice: 24 h, 8 h, 1 h); empty: the default, one reminder when a fifth of the time per
// move is left but never less than 12 hours before the deadline (lead = max(period / 5, 12 h), period =
// deadline - turn start). The times ascending, without duplicates, each strictly after `turn_start_ms` and
// strictly before `deadline_ms`.
std::vector<std::int64_t> reminder_times(std::int64_t turn_start_ms, std::int64_t deadline_ms,
                                         const std::vector<std::int64_t>& leads_ms);

// "24h,8h,1h", "90m", "2d", "30s" (units d, h, m, s in either case, spaces around items allowed; positive; at
// most 8 items) in milliseconds; nullopt if malformed.
std::optional<std::vector<std::int64_t>> parse_leads(std::string_view text);

// "Sat, 28 Nov 2026 23:50:26 +0000", for a Date header.
std::string rfc5322_date(std::int64_t unix_ms);
// Zones are the IANA names of the system's tzdata ("Europe/Paris"), read through Howard Hinnant's date/tz
// (GCC 12's library has no std::chrono::locate_zone, and setenv("TZ") is not thread-safe). A deadline in words,
// in a player's zone and language, is mail/words.h's human_time.
// The abbreviation of `zone` at `unix_ms` ("CET", "CEST"); "" for "" or an unknown zone.
std::string zone_abbrev(std::string_view zone, std::int64_t unix_ms);
// Whether `zone` is an IANA zone name the system knows ("" is not one).
bool valid_zone(std::string_view zone);
// The offset of `zone` from UTC at `unix_ms`, in milliseconds (0 for "" or an unknown zone).
std::int64_t zone_offset_ms(std::string_view zone, std::int64_t unix_ms);

}  // namespace cinq::mail
