// Moderation as pure logic (docs/protocol.md, "Moderation"): who may do what, when a ban or a mute ends, how
// a moderator's input is checked, the form of an audit entry, and which accounts that share an address or a
// browser played rated games together. Time is passed in (Unix milliseconds); nothing here reads a clock, a
// store or a socket, so the server's glue (server/moderation_desk.*) and the tests use it alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cinq::moderation {

// A player's role. Granted on the server's machine (`cinq admin grant USER ROLE`), never over the network.
enum class Role { player, moderator, administrator };

// "moderator", "administrator", "player" (none).
std::string_view role_name(Role role);
// The role of that name; nullopt for any other text ("player" is no role to grant, but reads as none).
std::optional<Role> parse_role(std::string_view name);

// What a moderator does, each an entry of the audit log.
enum class Action {
  ban,             // no login, no play; the account's sessions are logged out; its games are kept
  unban,
  mute,            // no chat line for a time
  unmute,
  close_room,      // an unfinished room aborted, a finished one's chat closed
  reset_name,      // an offensive name replaced by a neutral one
  resolve_report,  // a report handled
  read,            // the reports, the audit log, a player's sanctions, the linked accounts
  grant,           // a role given or taken (the administrators' matter; the command line does it)
};
std::string_view action_name(Action action);
std::optional<Action> parse_action(std::string_view name);

// Whether `role` may do `action`: moderators and administrators moderate; administrators alone grant.
bool may(Role role, Action action);
// Whether `actor` may sanction `target`: only someone of a higher role (a moderator never bans a moderator or
// an administrator; an administrator may sanction a moderator), and never oneself.
bool may_sanction(Role actor, Role target, bool self);

// A ban or a mute of an account.
struct Sanction {
  std::string kind;            // "ban" or "mute"
  std::string player_id;
  std::string reason;
  std::string by;              // the moderator's player id ("" the command line)
  std::int64_t at_ms = 0;
  std::int64_t until_ms = 0;   // 0: until lifted
};
// Whether it holds at `now_ms`: from at_ms on, and before until_ms (if any).
bool active(const Sanction& sanction, std::int64_t now_ms);
// The time left at `now_ms` in ms; -1 for a sanction without an end, 0 when it has ended.
std::int64_t remaining_ms(const Sanction& sanction, std::int64_t now_ms);

// The longest mute or timed ban: a year. A ban without a duration has no end.
inline constexpr std::int64_t kMaxDurationMs = 366LL * 24 * 3600 * 1000;
inline constexpr std::size_t kMaxReason = 500;  // characters of a reason, a report's text

// A duration as a moderator writes it: "30m", "2h", "7d" (minutes, hours, days; a whole positive number),
// or "" / "forever" for none (0). nullopt for anything else, or beyond kMaxDurationMs.
std::optional<std::int64_t> parse_duration(std::string_view text);

// A moderator's or a reporter's text: "" when it may be kept as it is, else why not, naming `field`
// ("reason: too long (at most 500 characters)"). Control characters other than none are refused; empty
// is allowed only when `required` is false.
std::string check_text(std::string_view field, std::string_view text, bool required);

// One entry of the audit log: who did what to whom, when, and the details (a duration, a reason, a room).
struct AuditEntry {
  std::int64_t at_ms = 0;
  std::string actor_id;     // "" the command line
  std::string actor_name;   // as the actor was called then ("cinq admin" for the command line)
  std::string action;       // action_name(), or "grant"/"revoke"
  std::string target_id;    // a player id, a room id, a report id
  std::string target_name;  // the player's name then, or the room id
  std::string detail;       // "7d: spam in chat", "name was Xyz", "role moderator"
};
// The entry for `action` done by `actor` on `target`. `detail` joins the duration (if any) and the reason.
AuditEntry audit_entry(std::int64_t now_ms, std::string actor_id, std::string actor_name, Action action,
                       std::string target_id, std::string target_name, std::string_view duration,
                       std::string_view reason);
// One line for logs and the command line: "2026-11-29 21:00:00Z ada ban bob (p123): 7d: spam".
std::string audit_line(const AuditEntry& entry);

// A report, by a player, of a player or of one chat line of a room.
struct Report {
  std::string id;
  std::int64_t at_ms = 0;
  std::string reporter_id;
  std::string target_id;
  std::string room;    // "" a report of a player alone
  std::string line;    // the chat line reported, as it was shown ("" none)
  std::string reason;
  std::string status = "open";  // "open" or "resolved"
};
// "" when `report` may be taken (a target, a reason within bounds, not oneself), else why not.
std::string check_report(const Report& report);

// The neutral name an offensive one is replaced by: "Player" and the id's last four characters.
std::string neutral_name(std::string_view player_id);

// Two accounts seen from one address or one browser (the store's linked_accounts), with the rated games
// they played against each other.
struct Link {
  std::string a, b;          // player ids, a < b
  std::string kind;          // "address" or "device"
  std::int64_t shared = 0;   // values of that kind both were seen with
  std::int64_t rated_games = 0;
};
// One pair of accounts a moderator should look at: every kind they share, and their rated games together.
struct Suspect {
  std::string a, b;
  bool address = false, device = false;
  std::int64_t rated_games = 0;
};
// The pairs that played at least one rated game together and share a browser or an address, a browser
// first, then by rated games, most first.
std::vector<Suspect> suspects(const std::vector<Link>& links);

}  // namespace cinq::moderation
