// Reminder times before a correspondence deadline, lists of leads as players type them, and dates as mails
// write them.
#include "mail/schedule.h"
#include "mail/words.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

namespace cinq::test {
namespace {

constexpr std::int64_t kMinute = 60'000;
constexpr std::int64_t kHour = 60 * kMinute;
constexpr std::int64_t kDay = 24 * kHour;
constexpr std::int64_t kStart = 1'795'909'826'000;  // Sat, 28 Nov 2026 23:50:26 UTC

using Times = std::vector<std::int64_t>;

TEST_CASE("mail schedule: by default one reminder when a fifth of the time is left, never under 12 hours") {
  CHECK(mail::reminder_times(kStart, kStart + kDay, {}) == Times{kStart + 12 * kHour});  // 1 day: 12 h before
  CHECK(mail::reminder_times(kStart, kStart + 2 * kDay, {}) == Times{kStart + 36 * kHour});
  // 3 days: a fifth is 14.4 hours.
  CHECK(mail::reminder_times(kStart, kStart + 3 * kDay, {}) == Times{kStart + 3 * kDay - 3 * kDay / 5});
  // 7 days: 1.4 days before the deadline.
  CHECK(mail::reminder_times(kStart, kStart + 7 * kDay, {}) == Times{kStart + 7 * kDay - 14 * kDay / 10});
  // A turn shorter than 12 hours (a deadline moved closer) has no room for the default reminder.
  CHECK(mail::reminder_times(kStart, kStart + 10 * kHour, {}).empty());
  CHECK(mail::reminder_times(kStart, kStart + 12 * kHour, {}).empty());  // it would be at the turn's start
  CHECK(mail::reminder_times(kStart, kStart, {}).empty());
  CHECK(mail::reminder_times(kStart, kStart - kDay, {}).empty());
}

TEST_CASE("mail schedule: a player's leads give times ascending, once each, inside the turn only") {
  CHECK(mail::reminder_times(kStart, kStart + 2 * kDay, {24 * kHour, 8 * kHour, kHour}) ==
        Times{kStart + 24 * kHour, kStart + 40 * kHour, kStart + 47 * kHour});
  // Duplicates once; a lead of the whole period or longer, zero or negative dropped.
  CHECK(mail::reminder_times(kStart, kStart + 2 * kDay,
                             {kHour, 8 * kHour, kHour, 2 * kDay, 3 * kDay, 0, -kHour, INT64_MIN,
                              INT64_MAX}) == Times{kStart + 40 * kHour, kStart + 47 * kHour});
  CHECK(mail::reminder_times(kStart, kStart + kDay, {2 * kDay}).empty());
}

TEST_CASE("mail schedule: leads are read from lists like 24h,8h,1h") {
  CHECK(mail::parse_leads("24h,8h,1h") == Times{24 * kHour, 8 * kHour, kHour});
  CHECK(mail::parse_leads("90m") == Times{90 * kMinute});
  CHECK(mail::parse_leads("2d") == Times{2 * kDay});
  CHECK(mail::parse_leads(" 2d , 12H,30s ") == Times{2 * kDay, 12 * kHour, 30'000});
  CHECK(mail::parse_leads("1h,1h,1h,1h,1h,1h,1h,1h") == Times(8, kHour));
  CHECK(mail::parse_leads("99999999d") == Times{99'999'999 * kDay});
  for (const char* bad : {"", " ", ",", "24h,", ",1h", "24", "h", "0h", "-1h", "+1h", "1.5h", "1 h", "5x",
                          "1w", "1h;2h", "1h,1h,1h,1h,1h,1h,1h,1h,1h", "999999999d", "24h 8h"})
    CHECK_FALSE_MESSAGE(mail::parse_leads(bad).has_value(), bad);
}

TEST_CASE("mail schedule: dates for a Date header and for a deadline in words, in UTC") {
  CHECK(mail::rfc5322_date(kStart) == "Sat, 28 Nov 2026 23:50:26 +0000");
  CHECK(mail::rfc5322_date(0) == "Thu, 01 Jan 1970 00:00:00 +0000");
  CHECK(mail::rfc5322_date(kStart + 999) == "Sat, 28 Nov 2026 23:50:26 +0000");
  CHECK(mail::rfc5322_date(-1) == "Wed, 31 Dec 1969 23:59:59 +0000");
  CHECK(mail::human_time(1'795'960'800'000, "", "en") == "Sunday 29 November 2026, 14:00 UTC");
  CHECK(mail::human_time(365 * kDay, "", "en") == "Friday 1 January 1971, 00:00 UTC");
}

}  // namespace
}  // namespace cinq::test

namespace cinq::test {

TEST_CASE("mail schedule: a deadline in the player's time zone with UTC beside it, and UTC alone without a zone") {
  constexpr std::int64_t kSat2350 = 1'795'909'826'000;  // Sat, 28 Nov 2026 23:50:26 UTC
  CHECK(mail::human_time(kSat2350, "Europe/Paris", "en") == "Sunday 29 November 2026, 00:50 CET (23:50 UTC)");
  CHECK(mail::human_time(kSat2350, "America/New_York", "en") == "Saturday 28 November 2026, 18:50 EST (23:50 UTC)");
  // Summer time: Paris is 2 hours ahead in July.
  constexpr std::int64_t kJuly = 1'783'000'800'000;  // Thu, 2 Jul 2026 14:00:00 UTC
  CHECK(mail::human_time(kJuly, "Europe/Paris", "en") == "Thursday 2 July 2026, 16:00 CEST (14:00 UTC)");
  CHECK(mail::human_time(kSat2350, "", "en") == "Saturday 28 November 2026, 23:50 UTC");
  CHECK(mail::human_time(kSat2350, "Mars/Olympus", "en") == "Saturday 28 November 2026, 23:50 UTC");
  CHECK(mail::human_time(kSat2350, "../../etc/passwd", "en") == "Saturday 28 November 2026, 23:50 UTC");
  CHECK(mail::valid_zone("Europe/Paris"));
  CHECK(mail::valid_zone("UTC"));
  CHECK(!mail::valid_zone(""));
  CHECK(!mail::valid_zone("Europe/Nowhere"));
  CHECK(!mail::valid_zone("Europe/Paris "));
  CHECK(mail::zone_offset_ms("Asia/Tokyo", kSat2350) == 9 * 3'600'000);
  CHECK(mail::zone_offset_ms("nope", kSat2350) == 0);
}

}  // namespace cinq::test
