// Moderation's commands (docs/protocol.md "Moderation"): the players' reports and blocks, and the moderators'
// actions — ban, mute, reset a name, close a room, read the reports, the audit log and the accounts that
// share an address or a browser. What may be done, and when a sanction ends, is moderation/'s; here the store
// and the connections. Each command reads what it needs (the actor's role first) and writes on a worker: the
// role is read at every command, so a role given or taken with `cinq admin` applies at once.
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "moderation/moderation.h"
#include "server/commands/handlers.h"
#include "server/identity.h"
#include "server/moderation_desk.h"
#include "server/room_actor.h"
#include "server/room_bus.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server::commands {

using nlohmann::json;
namespace mod = cinq::moderation;

namespace {

constexpr int kListed = 100;  // reports, audit entries, linked pairs a list shows

Refusal bad(std::string why) { return {"bad_message", std::move(why)}; }

// A string field; nullopt (and `why`) when present with another type.
bool text_field(const json& body, const char* key, std::string& out, std::string& why) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return true;
  if (!it->is_string()) {
    why = std::string("field '") + key + "' must be a string";
    return false;
  }
  out = it->get<std::string>();
  return true;
}

mod::Role role_of(store::Store& st, const std::string& player_id, bool& failed) {
  auto roles = st.roles();
  failed = roles.failed();
  for (const store::RoleRow& r : roles)
    if (r.player_id == player_id) return mod::parse_role(r.role).value_or(mod::Role::player);
  return mod::Role::player;
}

// A player named by id or by user name.
std::optional<store::PlayerRow> find_player(CommandContext& cx, const std::string& who, bool& failed) {
  failed = false;
  if (auto cached = cx.identities.cached(who)) return cached;
  auto by_id = cx.services.store->player(who);
  if (by_id.failed()) failed = true;
  if (by_id) return *by_id;
  auto by_name = cx.services.store->player_by_username(who);
  if (by_name.failed()) failed = true;
  if (by_name) return *by_name;
  return std::nullopt;
}

json player_json(CommandContext& cx, const std::string& id) {
  json p = {{"id", id}};
  bool failed = false;
  if (auto row = find_player(cx, id, failed)) {
    p["name"] = row->name;
    if (!row->username.empty()) p["username"] = row->username;
  }
  return p;
}

json sanction_json(const mod::Sanction& s, std::int64_t now) {
  return json{{"kind", s.kind},         {"player", s.player_id},
              {"reason", s.reason},     {"by", s.by},
              {"at_ms", s.at_ms},       {"until_ms", s.until_ms == 0 ? json(nullptr) : json(s.until_ms)},
              {"remaining_ms", mod::remaining_ms(s, now)}};
}

json audit_json(const store::AuditRow& a) {
  return json{{"seq", a.seq},           {"at_ms", a.at_ms},          {"actor", a.actor_id},
              {"actor_name", a.actor_name}, {"action", a.action},    {"target", a.target_id},
              {"target_name", a.target_name}, {"detail", a.detail}, {"text", mod::audit_line(mod::AuditEntry{
                                                                        a.at_ms, a.actor_id, a.actor_name, a.action,
                                                                        a.target_id, a.target_name, a.detail})}};
}

json report_json(CommandContext& cx, const store::ReportRow& r) {
  return json{{"id", r.id},         {"at_ms", r.at_ms},        {"reporter", player_json(cx, r.reporter_id)},
              {"player", player_json(cx, r.target_id)},        {"room", r.room},
              {"line", r.line},     {"reason", r.reason},      {"status", r.status},
              {"handled_by", r.handled_by}};
}

store::AuditRow audit_row(const mod::AuditEntry& e) {
  return store::AuditRow{0, e.at_ms, e.actor_id, e.actor_name, e.action, e.target_id, e.target_name, e.detail};
}

// Runs `job` on a worker (a quick one); the connection's later messages wait for it.
template <class Job>
void on_worker(CommandContext& cx, Request& rq, Job job) {
  Resume resume = cx.defer(rq);
  bool queued = cx.workers.submit(Workers::Kind::quick, [&cx, later = rq, job, resume]() mutable {
    note_blocking(cx.services.metrics);
    if (!resume->closed()) job(later);
    resume->finish();
  });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
}

// The actor's role, if it may do `action`; else the sender is told (`forbidden`, or `storage`).
std::optional<mod::Role> allowed(CommandContext& cx, const Request& rq, mod::Action action) {
  bool failed = false;
  const mod::Role role = role_of(*cx.services.store, rq.player->id, failed);
  if (failed) {
    cx.reply_error(rq, "storage", kBusy);
    return std::nullopt;
  }
  if (!mod::may(role, action)) {
    cx.reply_error(rq, "forbidden", "only a moderator may do that");
    return std::nullopt;
  }
  return role;
}

// The player a command names (field `player`), or the sender told.
std::optional<store::PlayerRow> target(CommandContext& cx, const Request& rq, const ModerationCommand& cmd) {
  if (cmd.player.empty()) {
    cx.reply_error(rq, "bad_message", "field 'player' is missing");
    return std::nullopt;
  }
  bool failed = false;
  auto row = find_player(cx, cmd.player, failed);
  if (!row) cx.reply_error(rq, failed ? "storage" : "no_player", failed ? kBusy : "no player '" + cmd.player + "'");
  return row;
}

void done(const Request& rq, const std::string& action, json extra = json::object()) {
  extra["type"] = "mod_done";
  extra["action"] = action;
  reply(rq, std::move(extra));
}

// A sanction given (ban, mute) or lifted (unban, unmute).
void sanction(CommandContext& cx, Request& rq, const ModerationCommand& cmd, mod::Action action) {
  on_worker(cx, rq, [&cx, cmd, action](Request& rq) {
    auto role = allowed(cx, rq, action);
    if (!role) return;
    auto who = target(cx, rq, cmd);
    if (!who) return;
    bool failed = false;
    const mod::Role their_role = role_of(*cx.services.store, who->id, failed);
    if (!mod::may_sanction(*role, their_role, who->id == rq.player->id))
      return cx.reply_error(rq, "forbidden", "you may not sanction that player");
    const bool giving = action == mod::Action::ban || action == mod::Action::mute;
    const std::string kind = action == mod::Action::ban || action == mod::Action::unban ? "ban" : "mute";
    const std::int64_t now = Services::now().unix_ms;
    store::ModerationWrite w;
    store::SanctionRow row{who->id, kind, cmd.reason, rq.player->id, now, cmd.duration_ms ? now + cmd.duration_ms : 0};
    if (giving)
      w.sanctions.push_back(row);
    else
      w.sanctions_lifted.emplace_back(who->id, kind);
    w.audit.push_back(audit_row(mod::audit_entry(now, rq.player->id, rq.player->name, action, who->id,
                                                 who->username.empty() ? who->name : who->username,
                                                 cmd.duration, cmd.reason)));
    store::Error error;
    if (!cx.services.store->moderate(w, error)) return cx.reply_error(rq, "storage", kBusy);
    if (giving)
      cx.moderation.set(row);
    else
      cx.moderation.lift(who->id, kind);
    if (action == mod::Action::ban) {
      // No play from now on: its seeks go, and every connection of the account is logged out (told
      // `logged_out`); its games are kept as they are.
      cx.seeks.remove_player(who->id);
      cx.clients.log_out_others(who->id, 0);  // connection ids start at 1: none is spared
      if (cx.services.bus) cx.services.bus->log_out_everywhere(who->id, 0);
    }
    spdlog::info("moderation: {}", mod::audit_line(mod::AuditEntry{now, rq.player->id, rq.player->name,
                                                                   std::string(mod::action_name(action)), who->id,
                                                                   who->name, cmd.duration}));
    done(rq, std::string(mod::action_name(action)), {{"player", who->id}});
  });
}

// A player named in a block or a report: by id or user name, never oneself.
std::optional<store::PlayerRow> other_player(CommandContext& cx, const Request& rq, const ModerationCommand& cmd) {
  auto who = target(cx, rq, cmd);
  if (who && who->id == rq.player->id) {
    cx.reply_error(rq, "bad_message", "field 'player': that is you");
    return std::nullopt;
  }
  return who;
}

void send_blocks(CommandContext& cx, const Request& rq) {
  json players = json::array();
  for (const std::string& id : cx.moderation.blocked_by(rq.player->id)) players.push_back(player_json(cx, id));
  reply(rq, {{"type", "blocks"}, {"players", players}});
}

// A player called something else now: the seats it holds in the rooms in memory show it.
void rename_in_rooms(CommandContext& cx, const store::PlayerRow& row) {
  for (const auto& actor : cx.rooms.all())
    actor->post([id = row.id, name = row.name, username = row.username](RoomActor& a) {
      if (a.room().seat_of(id) < 0) return;
      a.apply(a.room().rename_seat(id, name, username, Services::now()), nullptr, {});
    });
}

}  // namespace

Parsed<ModerationCommand> ModerationCommand::parse(const json& body) {
  ModerationCommand c;
  std::string why;
  const std::pair<const char*, std::string*> fields[] = {
      {"player", &c.player}, {"room", &c.room},     {"reason", &c.reason},    {"line", &c.line},
      {"report", &c.report}, {"status", &c.status}, {"duration", &c.duration}};
  for (const auto& [key, out] : fields)
    if (!text_field(body, key, *out, why)) return bad(why);
  if (auto d = mod::parse_duration(c.duration))
    c.duration_ms = *d;
  else
    return bad("field 'duration' must be like 30m, 2h or 7d (at most 366d), or \"forever\"");
  if (c.duration == "forever") c.duration.clear();
  if (std::string why_reason = mod::check_text("reason", c.reason, false); !why_reason.empty())
    return bad("field '" + why_reason.replace(why_reason.find(':'), 1, "':"));
  if (c.status != "" && c.status != "open" && c.status != "resolved")
    return bad("field 'status' must be \"open\" or \"resolved\"");
  if (c.line.size() > 2000) return bad("field 'line' is too long");
  return c;
}

// --- players

void on_report(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  if (cmd.reason.empty()) return cx.reply_error(rq, "bad_message", "field 'reason' is missing");
  on_worker(cx, rq, [&cx, cmd](Request& rq) {
    auto who = other_player(cx, rq, cmd);
    if (!who) return;
    mod::Report report{random_id(12), Services::now().unix_ms, rq.player->id, who->id, cmd.room, cmd.line, cmd.reason};
    if (std::string why = mod::check_report(report); !why.empty()) return cx.reply_error(rq, "bad_message", why);
    store::ModerationWrite w;
    w.reports.push_back(store::ReportRow{report.id, report.at_ms, report.reporter_id, report.target_id, report.room,
                                         report.line, report.reason, "open", "", 0});
    store::Error error;
    if (!cx.services.store->moderate(w, error)) return cx.reply_error(rq, "storage", kBusy);
    reply(rq, {{"type", "reported"}, {"report", report.id}});
  });
}

void on_block(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  on_worker(cx, rq, [&cx, cmd](Request& rq) {
    auto who = other_player(cx, rq, cmd);
    if (!who) return;
    store::ModerationWrite w;
    w.blocks.push_back(store::BlockRow{rq.player->id, who->id, Services::now().unix_ms});
    store::Error error;
    if (!cx.services.store->moderate(w, error)) return cx.reply_error(rq, "storage", kBusy);
    cx.moderation.block(rq.player->id, who->id, true);
    send_blocks(cx, rq);
  });
}

void on_unblock(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  on_worker(cx, rq, [&cx, cmd](Request& rq) {
    auto who = target(cx, rq, cmd);
    if (!who) return;
    store::ModerationWrite w;
    w.blocks_removed.emplace_back(rq.player->id, who->id);
    store::Error error;
    if (!cx.services.store->moderate(w, error)) return cx.reply_error(rq, "storage", kBusy);
    cx.moderation.block(rq.player->id, who->id, false);
    send_blocks(cx, rq);
  });
}

void on_blocks(CommandContext& cx, Request& rq, ModerationCommand&) {
  on_worker(cx, rq, [&cx](Request& rq) { send_blocks(cx, rq); });
}

// --- moderators

void on_mod_role(CommandContext& cx, Request& rq, ModerationCommand&) {
  on_worker(cx, rq, [&cx](Request& rq) {
    bool failed = false;
    const mod::Role role = role_of(*cx.services.store, rq.player->id, failed);
    if (failed) return cx.reply_error(rq, "storage", kBusy);
    reply(rq, {{"type", "mod_role"}, {"role", std::string(mod::role_name(role))}});
  });
}

void on_mod_ban(CommandContext& cx, Request& rq, ModerationCommand& cmd) { sanction(cx, rq, cmd, mod::Action::ban); }
void on_mod_unban(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  sanction(cx, rq, cmd, mod::Action::unban);
}
void on_mod_mute(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  if (cmd.duration_ms == 0) return cx.reply_error(rq, "bad_message", "field 'duration' is missing: a mute is for a time");
  sanction(cx, rq, cmd, mod::Action::mute);
}
void on_mod_unmute(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  sanction(cx, rq, cmd, mod::Action::unmute);
}

void on_mod_rename(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  on_worker(cx, rq, [&cx, cmd](Request& rq) {
    auto role = allowed(cx, rq, mod::Action::reset_name);
    if (!role) return;
    auto who = target(cx, rq, cmd);
    if (!who) return;
    const std::string was = who->name;
    store::PlayerRow row = *who;
    row.name = mod::neutral_name(row.id);
    const std::int64_t now = Services::now().unix_ms;
    store::ModerationWrite w;
    w.audit.push_back(audit_row(mod::audit_entry(now, rq.player->id, rq.player->name, mod::Action::reset_name,
                                                 row.id, was, "", cmd.reason.empty() ? "name was " + was
                                                                                     : "name was " + was + "; " + cmd.reason)));
    store::Error error;
    if (!cx.services.store->moderate(w, error)) return cx.reply_error(rq, "storage", kBusy);
    cx.identities.save(row, [&cx, later = rq, row](bool ok) {
      if (!ok) return cx.reply_error(later, "storage", "the new name could not be stored: try again");
      rename_in_rooms(cx, row);
      done(later, "reset_name", {{"player", row.id}, {"name", row.name}});
    });
  });
}

void on_mod_close_room(CommandContext& cx, Request& rq, ModerationCommand& cmd, const RoomPtr& actor) {
  on_worker(cx, rq, [&cx, cmd, actor](Request& rq) {
    if (!allowed(cx, rq, mod::Action::close_room)) return;
    // Closed on the room's strand; the audit entry written after, on a worker, only if it was closed.
    actor->post([&cx, cmd, later = rq](RoomActor& a) {
      lobby::Effect e = a.room().close(Services::now());
      const bool closed = !e.error;
      a.apply(std::move(e), later.connection, later.ref);
      if (!closed) return;
      cx.workers.submit(Workers::Kind::quick, [&cx, cmd, later] {
        note_blocking(cx.services.metrics);
        const std::int64_t now = Services::now().unix_ms;
        store::ModerationWrite w;
        w.audit.push_back(audit_row(mod::audit_entry(now, later.player->id, later.player->name,
                                                     mod::Action::close_room, cmd.room, cmd.room, "", cmd.reason)));
        store::Error error;
        if (!cx.services.store->moderate(w, error))
          spdlog::error("moderation: closing room {} was not written to the audit log: {}", cmd.room, error.message);
        done(later, "close_room", {{"room", cmd.room}});
      });
    });
  });
}

void on_mod_player(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  on_worker(cx, rq, [&cx, cmd](Request& rq) {
    if (!allowed(cx, rq, mod::Action::read)) return;
    auto who = target(cx, rq, cmd);
    if (!who) return;
    bool failed = false;
    const mod::Role role = role_of(*cx.services.store, who->id, failed);
    const std::int64_t now = Services::now().unix_ms;
    json sanctions = json::array();
    for (const char* kind : {"ban", "mute"})
      if (auto s = cx.moderation.in_force(who->id, kind, now)) sanctions.push_back(sanction_json(*s, now));
    json audit = json::array();
    for (const store::AuditRow& a : cx.services.store->audit(who->id, kListed)) audit.push_back(audit_json(a));
    json reports = json::array();
    for (const store::ReportRow& r : cx.services.store->reports("", 1000))
      if (r.target_id == who->id && reports.size() < kListed) reports.push_back(report_json(cx, r));
    json player = {{"id", who->id}, {"name", who->name}, {"role", std::string(mod::role_name(role))},
                   {"created_ms", who->created_ms}};
    if (!who->username.empty()) player["username"] = who->username;
    reply(rq, {{"type", "mod_player"}, {"player", player}, {"sanctions", sanctions}, {"audit", audit},
               {"reports", reports}});
  });
}

void on_mod_reports(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  on_worker(cx, rq, [&cx, cmd](Request& rq) {
    if (!allowed(cx, rq, mod::Action::read)) return;
    auto rows = cx.services.store->reports(cmd.status, kListed);
    if (rows.failed()) return cx.reply_error(rq, "storage", kBusy);
    json out = json::array();
    for (const store::ReportRow& r : rows) out.push_back(report_json(cx, r));
    reply(rq, {{"type", "mod_reports"}, {"reports", out}});
  });
}

void on_mod_resolve(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  if (cmd.report.empty()) return cx.reply_error(rq, "bad_message", "field 'report' is missing");
  on_worker(cx, rq, [&cx, cmd](Request& rq) {
    if (!allowed(cx, rq, mod::Action::resolve_report)) return;
    auto found = cx.services.store->report(cmd.report);
    if (found.failed()) return cx.reply_error(rq, "storage", kBusy);
    if (!found) return cx.reply_error(rq, "no_report", "no report '" + cmd.report + "'");
    store::ReportRow r = *found;
    const std::int64_t now = Services::now().unix_ms;
    r.status = "resolved";
    r.handled_by = rq.player->id;
    r.handled_ms = now;
    store::ModerationWrite w;
    w.reports.push_back(r);
    w.audit.push_back(audit_row(mod::audit_entry(now, rq.player->id, rq.player->name, mod::Action::resolve_report,
                                                 r.id, r.id, "", cmd.reason)));
    store::Error error;
    if (!cx.services.store->moderate(w, error)) return cx.reply_error(rq, "storage", kBusy);
    done(rq, "resolve_report", {{"report", r.id}});
  });
}

void on_mod_audit(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  on_worker(cx, rq, [&cx, cmd](Request& rq) {
    if (!allowed(cx, rq, mod::Action::read)) return;
    std::string target_id;
    if (!cmd.player.empty()) {
      auto who = target(cx, rq, cmd);
      if (!who) return;
      target_id = who->id;
    }
    auto rows = cx.services.store->audit(target_id, kListed);
    if (rows.failed()) return cx.reply_error(rq, "storage", kBusy);
    json out = json::array();
    for (const store::AuditRow& a : rows) out.push_back(audit_json(a));
    reply(rq, {{"type", "mod_audit"}, {"entries", out}});
  });
}

void on_mod_links(CommandContext& cx, Request& rq, ModerationCommand&) {
  on_worker(cx, rq, [&cx](Request& rq) {
    if (!allowed(cx, rq, mod::Action::read)) return;
    auto rows = cx.services.store->linked_accounts(kListed * 4);
    if (rows.failed()) return cx.reply_error(rq, "storage", kBusy);
    std::vector<mod::Link> links;
    for (const store::LinkRow& l : rows) links.push_back(mod::Link{l.a, l.b, l.kind, l.shared, l.rated_games});
    json out = json::array();
    for (const mod::Suspect& s : mod::suspects(links)) {
      if (out.size() >= kListed) break;
      out.push_back({{"a", player_json(cx, s.a)},
                     {"b", player_json(cx, s.b)},
                     {"address", s.address},
                     {"device", s.device},
                     {"rated_games", s.rated_games}});
    }
    reply(rq, {{"type", "mod_links"}, {"pairs", out}});
  });
}

// An account seen from this connection's address and browser (hashed), for the linked accounts.
void note_sighting(CommandContext& cx, const std::shared_ptr<net::Connection>& c, const std::string& player_id) {
  const std::int64_t now = Services::now().unix_ms;
  store::ModerationWrite w;
  if (!c->address().empty())
    w.sightings.push_back(store::SightingRow{player_id, "address", token_hash("address:" + c->address()), now, now, 1});
  if (const std::string device = c->device(); !device.empty())
    w.sightings.push_back(store::SightingRow{player_id, "device", token_hash("device:" + device), now, now, 1});
  if (w.empty()) return;
  cx.workers.submit(Workers::Kind::quick, [&cx, w] {
    note_blocking(cx.services.metrics);
    store::Error error;
    if (!cx.services.store->moderate(w, error)) spdlog::warn("moderation: a sighting was not stored: {}", error.message);
  });
}

}  // namespace cinq::server::commands
