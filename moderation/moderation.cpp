#include "moderation/moderation.h"

#include <algorithm>
#include <array>
#include <ctime>
#include <map>
#include <utility>

namespace cinq::moderation {
namespace {

constexpr std::array<std::pair<Action, std::string_view>, 9> kActions{{
    {Action::ban, "ban"},
    {Action::unban, "unban"},
    {Action::mute, "mute"},
    {Action::unmute, "unmute"},
    {Action::close_room, "close_room"},
    {Action::reset_name, "reset_name"},
    {Action::resolve_report, "resolve_report"},
    {Action::read, "read"},
    {Action::grant, "grant"},
}};

int rank(Role role) {
  switch (role) {
    case Role::player: return 0;
    case Role::moderator: return 1;
    case Role::administrator: return 2;
  }
  return 0;
}

// The number of code points of UTF-8 text (continuation bytes not counted).
std::size_t code_points(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

std::string_view role_name(Role role) {
  switch (role) {
    case Role::player: return "player";
    case Role::moderator: return "moderator";
    case Role::administrator: return "administrator";
  }
  return "player";
}

std::optional<Role> parse_role(std::string_view name) {
  for (Role r : {Role::player, Role::moderator, Role::administrator})
    if (role_name(r) == name) return r;
  return std::nullopt;
}

std::string_view action_name(Action action) {
  for (const auto& [a, name] : kActions)
    if (a == action) return name;
  return "";
}

std::optional<Action> parse_action(std::string_view name) {
  for (const auto& [a, n] : kActions)
    if (n == name) return a;
  return std::nullopt;
}

bool may(Role role, Action action) {
  if (action == Action::grant) return role == Role::administrator;
  return rank(role) >= rank(Role::moderator);
}

bool may_sanction(Role actor, Role target, bool self) {
  return !self && may(actor, Action::ban) && rank(actor) > rank(target);
}

bool active(const Sanction& s, std::int64_t now_ms) {
  return now_ms >= s.at_ms && (s.until_ms == 0 || now_ms < s.until_ms);
}

std::int64_t remaining_ms(const Sanction& s, std::int64_t now_ms) {
  if (s.until_ms == 0) return -1;
  return std::max<std::int64_t>(0, s.until_ms - now_ms);
}

std::optional<std::int64_t> parse_duration(std::string_view text) {
  if (text.empty() || text == "forever") return 0;
  if (text.size() < 2) return std::nullopt;
  std::int64_t unit = 0;
  switch (text.back()) {
    case 'm': unit = 60LL * 1000; break;
    case 'h': unit = 3600LL * 1000; break;
    case 'd': unit = 24LL * 3600 * 1000; break;
    default: return std::nullopt;
  }
  std::int64_t n = 0;
  for (char c : text.substr(0, text.size() - 1)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
    if (n > kMaxDurationMs) return std::nullopt;
  }
  if (n == 0 || n * unit > kMaxDurationMs) return std::nullopt;
  return n * unit;
}

std::string check_text(std::string_view field, std::string_view text, bool required) {
  const std::string f(field);
  if (required && text.find_first_not_of(" \t") == std::string_view::npos) return f + ": required";
  if (code_points(text) > kMaxReason) return f + ": too long (at most " + std::to_string(kMaxReason) + " characters)";
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return f + ": control characters are not allowed";
  return "";
}

AuditEntry audit_entry(std::int64_t now_ms, std::string actor_id, std::string actor_name, Action action,
                       std::string target_id, std::string target_name, std::string_view duration,
                       std::string_view reason) {
  std::string detail(duration);
  if (!reason.empty()) detail += (detail.empty() ? "" : ": ") + std::string(reason);
  return AuditEntry{now_ms,
                    std::move(actor_id),
                    std::move(actor_name),
                    std::string(action_name(action)),
                    std::move(target_id),
                    std::move(target_name),
                    std::move(detail)};
}

std::string audit_line(const AuditEntry& e) {
  const std::time_t t = static_cast<std::time_t>(e.at_ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%SZ", &tm);
  std::string out = std::string(stamp) + " " + (e.actor_name.empty() ? e.actor_id : e.actor_name) + " " +
                    e.action + " " + e.target_name;
  if (!e.target_id.empty() && e.target_id != e.target_name) out += " (" + e.target_id + ")";
  if (!e.detail.empty()) out += ": " + e.detail;
  return out;
}

std::string check_report(const Report& r) {
  if (r.target_id.empty()) return "player: required";
  if (r.target_id == r.reporter_id) return "player: you cannot report yourself";
  if (std::string why = check_text("reason", r.reason, true); !why.empty()) return why;
  if (r.line.size() > 2000) return "line: too long";
  return "";
}

std::string neutral_name(std::string_view player_id) {
  const std::string_view tail = player_id.size() > 4 ? player_id.substr(player_id.size() - 4) : player_id;
  return "Player " + std::string(tail);
}

std::vector<Suspect> suspects(const std::vector<Link>& links) {
  std::map<std::pair<std::string, std::string>, Suspect> by_pair;
  for (const Link& l : links) {
    if (l.rated_games <= 0 || l.shared <= 0) continue;
    const auto key = l.a < l.b ? std::pair{l.a, l.b} : std::pair{l.b, l.a};
    Suspect& s = by_pair[key];
    s.a = key.first;
    s.b = key.second;
    if (l.kind == "device") s.device = true;
    if (l.kind == "address") s.address = true;
    s.rated_games = std::max(s.rated_games, l.rated_games);
  }
  std::vector<Suspect> out;
  for (auto& [key, s] : by_pair)
    if (s.device || s.address) out.push_back(std::move(s));
  std::stable_sort(out.begin(), out.end(), [](const Suspect& x, const Suspect& y) {
    if (x.device != y.device) return x.device;
    return x.rated_games > y.rated_games;
  });
  return out;
}

}  // namespace cinq::moderation
