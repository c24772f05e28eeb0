// Moderation's commands (docs/protocol.md "Moderation"): the players' reports and blocks, and the moderators'
// actions — ban, mute, reset a name, close a room, read the reports, the audit log and the accounts that
// share an address or a browser. What may be done, and when a sanction ends, is moderation/'s; here the store
// and the connections. Each action reads what it needs (the actor's role first) and writes on a worker: the
// role is read at every command, so a role given or taken with `cinq admin` applies at once. The actions
// answer through a callback (server/commands/moderation.h), so that the WebSocket's commands (the on_*
// below) and the REST API (server/moderation_http.cpp) run the same code. A change is announced on the bus
// once committed (RoomBus::moderation_changed): every node applies it at once.
#include <spdlog/spdlog.h>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "moderation/moderation.h"
#include "server/commands/handlers.h"
#include "server/commands/moderation.h"
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

using Done = ModerationDone;

ModerationOutcome refusal(std::string code, std::string message) { return {nullptr, std::move(code), std::move(message)}; }
ModerationOutcome answer(json m) { return {std::move(m), {}, {}}; }
ModerationOutcome busy() { return refusal("storage", kBusy); }

// The actor's role, if it may do `action`; else `done` is told (`forbidden`, or `storage`).
std::optional<mod::Role> allowed(CommandContext& cx, const lobby::Player& by, mod::Action action, const Done& done) {
  bool failed = false;
  const mod::Role role = role_of(*cx.services.store, by.id, failed);
  if (failed) {
    done(busy());
    return std::nullopt;
  }
  if (!mod::may(role, action)) {
    done(refusal("forbidden", "only a moderator may do that"));
    return std::nullopt;
  }
  return role;
}

// The player a command names (field `player`), or `done` told.
std::optional<store::PlayerRow> target(CommandContext& cx, const ModerationCommand& cmd, const Done& done) {
  if (cmd.player.empty()) {
    done(refusal("bad_message", "field 'player' is missing"));
    return std::nullopt;
  }
  bool failed = false;
  auto row = find_player(cx, cmd.player, failed);
  if (!row) done(failed ? busy() : refusal("no_player", "no player '" + cmd.player + "'"));
  return row;
}

ModerationOutcome mod_done(const std::string& action, json extra = json::object()) {
  extra["type"] = "mod_done";
  extra["action"] = action;
  return answer(std::move(extra));
}

// Every other node reads the player's moderation state again.
void announce(CommandContext& cx, const std::string& player_id) {
  if (cx.services.bus) cx.services.bus->moderation_changed(player_id);
}

// A sanction given (ban, mute) or lifted (unban, unmute).
void sanction(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, mod::Action action,
              const Done& done) {
  auto role = allowed(cx, by, action, done);
  if (!role) return;
  auto who = target(cx, cmd, done);
  if (!who) return;
  bool failed = false;
  const mod::Role their_role = role_of(*cx.services.store, who->id, failed);
  if (failed) return done(busy());
  if (!mod::may_sanction(*role, their_role, who->id == by.id))
    return done(refusal("forbidden", "you may not sanction that player"));
  const bool giving = action == mod::Action::ban || action == mod::Action::mute;
  const std::string kind = action == mod::Action::ban || action == mod::Action::unban ? "ban" : "mute";
  const std::int64_t now = Services::now().unix_ms;
  store::ModerationWrite w;
  store::SanctionRow row{who->id, kind, cmd.reason, by.id, now, cmd.duration_ms ? now + cmd.duration_ms : 0};
  if (giving)
    w.sanctions.push_back(row);
  else
    w.sanctions_lifted.emplace_back(who->id, kind);
  w.audit.push_back(audit_row(mod::audit_entry(now, by.id, by.name, action, who->id,
                                               who->username.empty() ? who->name : who->username, cmd.duration,
                                               cmd.reason)));
  store::Error error;
  if (!cx.services.store->moderate(w, error)) return done(busy());
  if (giving)
    cx.moderation.set(row);
  else
    cx.moderation.lift(who->id, kind);
  announce(cx, who->id);
  if (action == mod::Action::ban) {
    // No play from now on: its seeks go, and every connection of the account is logged out (told
    // `logged_out`); its games are kept as they are.
    cx.seeks.remove_player(who->id);
    cx.clients.log_out_others(who->id, 0);  // connection ids start at 1: none is spared
    if (cx.services.bus) cx.services.bus->log_out_everywhere(who->id, 0);
  }
  spdlog::info("moderation: {}", mod::audit_line(mod::AuditEntry{now, by.id, by.name, std::string(mod::action_name(action)),
                                                                 who->id, who->name, cmd.duration}));
  done(mod_done(std::string(mod::action_name(action)), {{"player", who->id}}));
}

// A player named in a block or a report: by id or user name, never oneself.
std::optional<store::PlayerRow> other_player(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd,
                                             const Done& done) {
  auto who = target(cx, cmd, done);
  if (who && who->id == by.id) {
    done(refusal("bad_message", "field 'player': that is you"));
    return std::nullopt;
  }
  return who;
}

ModerationOutcome blocks_answer(CommandContext& cx, const lobby::Player& by) {
  json players = json::array();
  for (const std::string& id : cx.moderation.blocked_by(by.id)) players.push_back(player_json(cx, id));
  return answer({{"type", "blocks"}, {"players", players}});
}

// A player called something else now: the seats it holds in the rooms in memory show it.
void rename_in_rooms(CommandContext& cx, const store::PlayerRow& row) {
  for (const auto& actor : cx.rooms.all())
    actor->post([id = row.id, name = row.name, username = row.username](RoomActor& a) {
      if (a.room().seat_of(id) < 0) return;
      a.apply(a.room().rename_seat(id, name, username, Services::now()), nullptr, {});
    });
}

// --- the actions, each (cx, by, cmd, done)

void act_report(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, const Done& done) {
  if (cmd.reason.empty()) return done(refusal("bad_message", "field 'reason' is missing"));
  auto who = other_player(cx, by, cmd, done);
  if (!who) return;
  mod::Report report{random_id(12), Services::now().unix_ms, by.id, who->id, cmd.room, cmd.line, cmd.reason};
  if (std::string why = mod::check_report(report); !why.empty()) return done(refusal("bad_message", why));
  store::ModerationWrite w;
  w.reports.push_back(store::ReportRow{report.id, report.at_ms, report.reporter_id, report.target_id, report.room,
                                       report.line, report.reason, "open", "", 0});
  store::Error error;
  if (!cx.services.store->moderate(w, error)) return done(busy());
  done(answer({{"type", "reported"}, {"report", report.id}}));
}

void act_block(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, const Done& done) {
  auto who = other_player(cx, by, cmd, done);
  if (!who) return;
  store::ModerationWrite w;
  w.blocks.push_back(store::BlockRow{by.id, who->id, Services::now().unix_ms});
  store::Error error;
  if (!cx.services.store->moderate(w, error)) return done(busy());
  cx.moderation.block(by.id, who->id, true);
  announce(cx, by.id);
  done(blocks_answer(cx, by));
}

void act_unblock(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, const Done& done) {
  auto who = target(cx, cmd, done);
  if (!who) return;
  store::ModerationWrite w;
  w.blocks_removed.emplace_back(by.id, who->id);
  store::Error error;
  if (!cx.services.store->moderate(w, error)) return done(busy());
  cx.moderation.block(by.id, who->id, false);
  announce(cx, by.id);
  done(blocks_answer(cx, by));
}

void act_blocks(CommandContext& cx, const lobby::Player& by, const ModerationCommand&, const Done& done) {
  done(blocks_answer(cx, by));
}

void act_role(CommandContext& cx, const lobby::Player& by, const ModerationCommand&, const Done& done) {
  bool failed = false;
  const mod::Role role = role_of(*cx.services.store, by.id, failed);
  if (failed) return done(busy());
  done(answer({{"type", "mod_role"}, {"role", std::string(mod::role_name(role))}}));
}

void act_ban(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, const Done& done) {
  sanction(cx, by, cmd, mod::Action::ban, done);
}
void act_unban(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, const Done& done) {
  sanction(cx, by, cmd, mod::Action::unban, done);
}
void act_mute(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, const Done& done) {
  if (cmd.duration_ms == 0) return done(refusal("bad_message", "field 'duration' is missing: a mute is for a time"));
  sanction(cx, by, cmd, mod::Action::mute, done);
}
void act_unmute(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, const Done& done) {
  sanction(cx, by, cmd, mod::Action::unmute, done);
}

void act_rename(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, const Done& done) {
  auto role = allowed(cx, by, mod::Action::reset_name, done);
  if (!role) return;
  auto who = target(cx, cmd, done);
  if (!who) return;
  const std::string was = who->name;
  store::PlayerRow row = *who;
  row.name = mod::neutral_name(row.id);
  const std::int64_t now = Services::now().unix_ms;
  store::ModerationWrite w;
  w.audit.push_back(audit_row(mod::audit_entry(now, by.id, by.name, mod::Action::reset_name, row.id, was, "",
                                               cmd.reason.empty() ? "name was " + was
                                                                  : "name was " + was + "; " + cmd.reason)));
  store::Error error;
  if (!cx.services.store->moderate(w, error)) return done(busy());
  cx.identities.save(row, [&cx, row, done](bool ok) {
    if (!ok) return done(refusal("storage", "the new name could not be stored: try again"));
    rename_in_rooms(cx, row);
    announce(cx, row.id);
    done(mod_done("reset_name", {{"player", row.id}, {"name", row.name}}));
  });
}

void act_player(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, const Done& done) {
  if (!allowed(cx, by, mod::Action::read, done)) return;
  auto who = target(cx, cmd, done);
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
  done(answer({{"type", "mod_player"}, {"player", player}, {"sanctions", sanctions}, {"audit", audit},
               {"reports", reports}}));
}

void act_reports(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, const Done& done) {
  if (!allowed(cx, by, mod::Action::read, done)) return;
  auto rows = cx.services.store->reports(cmd.status, kListed);
  if (rows.failed()) return done(busy());
  json out = json::array();
  for (const store::ReportRow& r : rows) out.push_back(report_json(cx, r));
  done(answer({{"type", "mod_reports"}, {"reports", out}}));
}

void act_resolve(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, const Done& done) {
  if (cmd.report.empty()) return done(refusal("bad_message", "field 'report' is missing"));
  if (!allowed(cx, by, mod::Action::resolve_report, done)) return;
  auto found = cx.services.store->report(cmd.report);
  if (found.failed()) return done(busy());
  if (!found) return done(refusal("no_report", "no report '" + cmd.report + "'"));
  store::ReportRow r = *found;
  const std::int64_t now = Services::now().unix_ms;
  r.status = "resolved";
  r.handled_by = by.id;
  r.handled_ms = now;
  store::ModerationWrite w;
  w.reports.push_back(r);
  w.audit.push_back(audit_row(mod::audit_entry(now, by.id, by.name, mod::Action::resolve_report, r.id, r.id, "",
                                               cmd.reason)));
  store::Error error;
  if (!cx.services.store->moderate(w, error)) return done(busy());
  done(mod_done("resolve_report", {{"report", r.id}}));
}

void act_audit(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd, const Done& done) {
  if (!allowed(cx, by, mod::Action::read, done)) return;
  std::string target_id;
  if (!cmd.player.empty()) {
    auto who = target(cx, cmd, done);
    if (!who) return;
    target_id = who->id;
  }
  auto rows = cx.services.store->audit(target_id, kListed);
  if (rows.failed()) return done(busy());
  json out = json::array();
  for (const store::AuditRow& a : rows) out.push_back(audit_json(a));
  done(answer({{"type", "mod_audit"}, {"entries", out}}));
}

void act_links(CommandContext& cx, const lobby::Player& by, const ModerationCommand&, const Done& done) {
  if (!allowed(cx, by, mod::Action::read, done)) return;
  auto rows = cx.services.store->linked_accounts(kListed * 4);
  if (rows.failed()) return done(busy());
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
  done(answer({{"type", "mod_links"}, {"pairs", out}}));
}

using Act = void (*)(CommandContext&, const lobby::Player&, const ModerationCommand&, const Done&);
const std::map<std::string, Act, std::less<>>& actions() {
  static const std::map<std::string, Act, std::less<>> kActions = {
      {"report", &act_report},         {"block", &act_block},         {"unblock", &act_unblock},
      {"blocks", &act_blocks},         {"mod_role", &act_role},       {"mod_ban", &act_ban},
      {"mod_unban", &act_unban},       {"mod_mute", &act_mute},       {"mod_unmute", &act_unmute},
      {"mod_rename", &act_rename},     {"mod_player", &act_player},   {"mod_reports", &act_reports},
      {"mod_resolve", &act_resolve},   {"mod_audit", &act_audit},     {"mod_links", &act_links},
  };
  return kActions;
}

// The WebSocket's glue: the action on a worker (the connection's later messages wait for it), its outcome
// sent to the connection with the message's ref.
void on_worker(CommandContext& cx, Request& rq, const char* type, const ModerationCommand& cmd) {
  Resume resume = cx.defer(rq);
  bool queued = cx.workers.submit(Workers::Kind::quick, [&cx, later = rq, type, cmd, resume]() mutable {
    note_blocking(cx.services.metrics);
    if (!resume->closed())
      moderate(cx, type, *later.player, cmd, [&cx, later](ModerationOutcome o) {
        if (o.code.empty())
          reply(later, std::move(o.answer));
        else
          cx.reply_error(later, o.code, o.message);
      });
    resume->finish();
  });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
}

}  // namespace

void moderate(CommandContext& cx, const std::string& type, const lobby::Player& by, const ModerationCommand& cmd,
              ModerationDone done) {
  auto it = actions().find(type);
  if (it == actions().end()) return done(refusal("unknown_type", "no moderation action '" + type + "'"));
  it->second(cx, by, cmd, done);
}

void close_room(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd,
                const std::shared_ptr<RoomActor>& actor, ModerationDone done) {
  if (!allowed(cx, by, mod::Action::close_room, done)) return;
  // Closed on the room's strand; the audit entry written after, on a worker, only if it was closed.
  actor->post([&cx, cmd, by, done](RoomActor& a) {
    lobby::Effect e = a.room().close(Services::now());
    std::optional<lobby::Failure> error = e.error;
    a.apply(std::move(e), nullptr, {});
    if (error) return done(refusal(error->code, error->message));
    const bool queued = cx.workers.submit(Workers::Kind::quick, [&cx, cmd, by, done] {
      note_blocking(cx.services.metrics);
      const std::int64_t now = Services::now().unix_ms;
      store::ModerationWrite w;
      w.audit.push_back(audit_row(mod::audit_entry(now, by.id, by.name, mod::Action::close_room, cmd.room, cmd.room,
                                                   "", cmd.reason)));
      store::Error error;
      if (!cx.services.store->moderate(w, error))
        spdlog::error("moderation: closing room {} was not written to the audit log: {}", cmd.room, error.message);
      done(mod_done("close_room", {{"room", cmd.room}}));
    });
    if (!queued) done(mod_done("close_room", {{"room", cmd.room}}));
  });
}

void moderation_changed_elsewhere(CommandContext& cx, const std::string& player_id) {
  std::string error;
  if (!cx.moderation.reload(*cx.services.store, error))
    spdlog::warn("moderation: a change made on another node was not read ({}): the next poll reads it", error);
  // A name reset there: the name here too (the cache, and the seats of the rooms played here).
  auto cached = cx.identities.cached(player_id);
  if (!cached) return;
  auto row = cx.services.store->player(player_id);
  if (row.failed() || !row || row->name == cached->name) return;
  cx.identities.adopt(*row);
  rename_in_rooms(cx, *row);
}

// --- the WebSocket's commands

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


void on_report(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "report", cmd); }
void on_block(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "block", cmd); }
void on_unblock(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "unblock", cmd); }
void on_blocks(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "blocks", cmd); }
void on_mod_role(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "mod_role", cmd); }
void on_mod_ban(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "mod_ban", cmd); }
void on_mod_unban(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "mod_unban", cmd); }
void on_mod_mute(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "mod_mute", cmd); }
void on_mod_unmute(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "mod_unmute", cmd); }
void on_mod_rename(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "mod_rename", cmd); }
void on_mod_player(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "mod_player", cmd); }
void on_mod_reports(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  on_worker(cx, rq, "mod_reports", cmd);
}
void on_mod_resolve(CommandContext& cx, Request& rq, ModerationCommand& cmd) {
  on_worker(cx, rq, "mod_resolve", cmd);
}
void on_mod_audit(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "mod_audit", cmd); }
void on_mod_links(CommandContext& cx, Request& rq, ModerationCommand& cmd) { on_worker(cx, rq, "mod_links", cmd); }

// The room's answer (an error such as game_over, or its events) goes to the connection as any room command's;
// the mod_done after the audit entry.
void on_mod_close_room(CommandContext& cx, Request& rq, ModerationCommand& cmd, const RoomPtr& actor) {
  Resume resume = cx.defer(rq);
  bool queued = cx.workers.submit(Workers::Kind::quick, [&cx, later = rq, cmd, actor, resume]() mutable {
    note_blocking(cx.services.metrics);
    if (!resume->closed())
      close_room(cx, *later.player, cmd, actor, [&cx, later, room = cmd.room](ModerationOutcome o) {
        if (o.code.empty())
          reply(later, std::move(o.answer));
        else
          cx.reply_error(later, o.code, o.message, room);
      });
    resume->finish();
  });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
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
