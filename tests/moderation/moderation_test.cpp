// Moderation's pure logic (moderation/moderation.h): roles and what each may do, the expiry of bans and mutes
// with time passed in, durations and texts as a moderator types them, the audit entry's form, reports, and
// the pairs of accounts that share an address or a browser.
#include "moderation/moderation.h"

#include <doctest/doctest.h>

namespace cinq::moderation {
namespace {

constexpr std::int64_t kHour = 3600LL * 1000;
constexpr std::int64_t kDay = 24 * kHour;

TEST_CASE("moderation roles: names read back, and anything else is no role") {
  for (Role r : {Role::player, Role::moderator, Role::administrator}) CHECK(parse_role(role_name(r)) == r);
  CHECK(!parse_role("admin"));
  CHECK(!parse_role("Moderator"));
  CHECK(!parse_role(""));
  for (const char* name : {"ban", "unban", "mute", "unmute", "close_room", "reset_name", "resolve_report", "read",
                           "grant"})
    CHECK(action_name(*parse_action(name)) == name);
  CHECK(!parse_action("delete"));
}

TEST_CASE("moderation roles: a player may do nothing, a moderator moderates, an administrator also grants") {
  for (Action a : {Action::ban, Action::unban, Action::mute, Action::unmute, Action::close_room, Action::reset_name,
                   Action::resolve_report, Action::read, Action::grant}) {
    CHECK(!may(Role::player, a));
    CHECK(may(Role::administrator, a));
    CHECK(may(Role::moderator, a) == (a != Action::grant));
  }
}

TEST_CASE("moderation roles: only a higher role sanctions, and never oneself") {
  CHECK(may_sanction(Role::moderator, Role::player, false));
  CHECK(!may_sanction(Role::moderator, Role::moderator, false));
  CHECK(!may_sanction(Role::moderator, Role::administrator, false));
  CHECK(may_sanction(Role::administrator, Role::moderator, false));
  CHECK(!may_sanction(Role::administrator, Role::administrator, false));
  CHECK(!may_sanction(Role::administrator, Role::player, true));
  CHECK(!may_sanction(Role::player, Role::player, false));
}

TEST_CASE("moderation sanctions: a timed one holds from its start until its end, one without an end holds on") {
  const Sanction mute{"mute", "p1", "spam", "m1", 1000, 1000 + kHour};
  CHECK(!active(mute, 999));
  CHECK(active(mute, 1000));
  CHECK(active(mute, 1000 + kHour - 1));
  CHECK(!active(mute, 1000 + kHour));
  CHECK(remaining_ms(mute, 1000) == kHour);
  CHECK(remaining_ms(mute, 1000 + 2 * kHour) == 0);
  const Sanction ban{"ban", "p1", "cheating", "m1", 1000, 0};
  CHECK(active(ban, 1000 + 1000 * kDay));
  CHECK(remaining_ms(ban, 5000) == -1);
}

TEST_CASE("moderation durations: minutes, hours and days, at most a year, and none is forever") {
  CHECK(parse_duration("30m") == 30 * 60 * 1000);
  CHECK(parse_duration("2h") == 2 * kHour);
  CHECK(parse_duration("7d") == 7 * kDay);
  CHECK(parse_duration("366d") == 366 * kDay);
  CHECK(parse_duration("") == 0);
  CHECK(parse_duration("forever") == 0);
  for (const char* bad : {"0m", "367d", "d", "5", "5s", "-5m", "1.5h", "99999999999999999999d", " 5m"})
    CHECK_MESSAGE(!parse_duration(bad), bad);
}

TEST_CASE("moderation texts: the field at fault is named, control characters and length are refused") {
  CHECK(check_text("reason", "spam in chat", true) == "");
  CHECK(check_text("reason", "", false) == "");
  CHECK(check_text("reason", "  ", true) == "reason: required");
  CHECK(check_text("reason", "a\nb", false) == "reason: control characters are not allowed");
  CHECK(check_text("reason", std::string(kMaxReason, 'x'), true) == "");
  CHECK(check_text("reason", std::string(kMaxReason + 1, 'x'), true) == "reason: too long (at most 500 characters)");
  std::string accents;
  for (std::size_t i = 0; i < kMaxReason; ++i) accents += "é";  // two bytes, one character
  CHECK(check_text("reason", accents, true) == "");
}

TEST_CASE("moderation audit: an entry names the actor, the action, the target and the details") {
  AuditEntry e = audit_entry(1795255200000, "m1", "Mia", Action::mute, "p2", "Bob", "2h", "insults");
  CHECK(e.action == "mute");
  CHECK(e.detail == "2h: insults");
  CHECK(audit_line(e) == "2026-11-21 10:00:00Z Mia mute Bob (p2): 2h: insults");
  AuditEntry room = audit_entry(1795255200000, "m1", "Mia", Action::close_room, "AB12", "AB12", "", "");
  CHECK(room.detail.empty());
  CHECK(audit_line(room) == "2026-11-21 10:00:00Z Mia close_room AB12");
  AuditEntry cli = audit_entry(0, "", "", Action::ban, "p2", "Bob", "", "spam");
  CHECK(audit_line(cli) == "1970-01-01 00:00:00Z  ban Bob (p2): spam");
}

TEST_CASE("moderation reports: a target and a reason, never oneself") {
  Report r{"r1", 0, "p1", "p2", "AB12", "you are ...", "insults"};
  CHECK(check_report(r) == "");
  r.reason = "";
  CHECK(check_report(r) == "reason: required");
  r.reason = "insults";
  r.target_id = "p1";
  CHECK(check_report(r) == "player: you cannot report yourself");
  r.target_id = "";
  CHECK(check_report(r) == "player: required");
}

TEST_CASE("moderation names: an offensive name becomes a neutral one from the id") {
  CHECK(neutral_name("pAbCdEfGh") == "Player EfGh");
  CHECK(neutral_name("p1") == "Player p1");
}

TEST_CASE("moderation links: pairs with rated games together, a shared browser first") {
  std::vector<Link> links{
      {"a", "b", "address", 3, 4},
      {"c", "d", "address", 1, 9},
      {"c", "d", "device", 1, 9},
      {"e", "f", "address", 5, 0},  // no rated game together: nothing to see
      {"g", "h", "device", 1, 1},
  };
  auto s = suspects(links);
  REQUIRE(s.size() == 3);
  CHECK(s[0].a == "c");
  CHECK(s[0].device);
  CHECK(s[0].address);
  CHECK(s[0].rated_games == 9);
  CHECK(s[1].a == "g");
  CHECK(s[2].a == "a");
  CHECK(!s[2].device);
  CHECK(suspects({}).empty());
}

}  // namespace
}  // namespace cinq::moderation
