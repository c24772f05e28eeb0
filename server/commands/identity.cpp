// The connection's identity (ping, hello, name) and the accounts (register, login, logout, password, the
// account's mail settings; docs/protocol.md "Accounts"). Every change of the player row is stored before it
// is answered; hashing a password runs on a worker (bulk).
#include "server/identity.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "mail/compose.h"
#include "server/account_mail.h"
#include "server/accounts.h"
#include "server/commands/handlers.h"
#include "server/login_guard.h"
#include "server/mail_sender.h"
#include "server/moderation_desk.h"
#include "server/postman.h"
#include "server/room_actor.h"
#include "server/room_bus.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server::commands {

using nlohmann::json;

namespace {

// A player called something else now (renamed, registered): the seats it holds in the rooms in memory show
// the new name (each on its room's strand); stored rooms are read with their players' current names.
void rename_in_rooms(CommandContext& cx, const store::PlayerRow& row) {
  for (const auto& actor : cx.rooms.all())
    actor->post([id = row.id, name = row.name, username = row.username](RoomActor& a) {
      if (a.room().seat_of(id) < 0) return;
      a.apply(a.room().rename_seat(id, name, username, Services::now()), nullptr, {});
    });
}


json ref_json(const std::string& ref) { return ref.empty() ? json() : json::parse(ref); }

using store::kMaxSessions;  // login tokens an account keeps (the oldest go first)

void refuse_identity(CommandContext& cx, const Request& rq) {
  cx.reply_error(rq, "bad_token", "unknown id or wrong token: say hello without them for a new identity");
}

void welcome(CommandContext& cx, const Request& rq, const store::PlayerRow& row, const std::string& token) {
  // A banned player is not let in: no hello, no login (docs/protocol.md "Moderation").
  if (auto ban = cx.moderation.in_force(row.id, "ban", Services::now().unix_ms)) {
    json m = json::parse(error_message("banned", "this account is banned" +
                                                     (ban->reason.empty() ? std::string() : ": " + ban->reason),
                                       rq.ref, {}));
    m["until_ms"] = ban->until_ms == 0 ? json(nullptr) : json(ban->until_ms);
    rq.connection->send(m.dump());
    return;
  }
  if (!row.username.empty()) note_sighting(cx, rq.connection, row.id);
  cx.clients.set_player(rq.connection->id(), lobby::Player{row.id, row.name, row.username});
  cx.clients.set_session(rq.connection->id(), matching_token(token, row));
  json m = {{"type", "welcome"},
            {"protocol", kProtocolVersion},
            {"player", {{"id", row.id}, {"name", row.name}}},
            {"token", token}};
  if (!row.username.empty()) {
    m["player"]["username"] = row.username;
    m["username"] = row.username;
  }
  // The role as this node knows it (a grant reaches it within ModerationDesk::kPollMs): the client shows
  // the moderators' link by it. Each moderation command still reads the role from the store.
  m["role"] = std::string(cinq::moderation::role_name(cx.moderation.role(row.id)));
  if (!rq.ref.empty()) m["ref"] = json::parse(rq.ref);
  rq.connection->send(m.dump());
}

// Finishes `resume` once answered. A token the cached row does not know may have been issued since by
// another node (a login there): the row is read again from the store before the token is refused.
void welcome_back(CommandContext& cx, const Request& rq, const Hello& h, store::PlayerRow row, Resume resume,
                  bool fresh = false) {
  if (matching_token(*h.token, row).empty()) {
    if (!fresh && cx.services.bus)
      return cx.identities.reload(row.id, [&cx, later = rq, h, resume](std::optional<store::PlayerRow> again, bool busy) {
        if (busy)
          cx.reply_error(later, "storage", kBusy);
        else if (!again)
          refuse_identity(cx, later);
        if (busy || !again) return resume->finish();
        welcome_back(cx, later, h, std::move(*again), resume, true);
      });
    refuse_identity(cx, rq);
    return resume->finish();
  }
  bool changed = false;
  if (is_legacy_hash(row.token_hash)) {  // stored as SHA-1 before: kept as SHA-256 from now on
    row.token_hash = token_hash(*h.token);
    changed = true;
  }
  bool renamed = false;
  if (h.name && *h.name != row.name) {
    row.name = *h.name;
    changed = renamed = true;
  }
  if (!changed) {
    welcome(cx, rq, row, *h.token);
    return resume->finish();
  }
  // The new name (or hash) is stored before the welcome tells it; if it cannot be, the welcome carries the
  // row as stored (the token still holds).
  std::optional<store::PlayerRow> before = cx.identities.cached(row.id);
  cx.identities.save(row, [&cx, later = rq, resume, row, token = *h.token, before, renamed](bool ok) {
    welcome(cx, later, ok || !before ? row : *before, token);
    if (ok && renamed) rename_in_rooms(cx, row);
    resume->finish();
  });
}

// The connection's player row: cached, else read on a worker; `then(row)` on a worker or this thread,
// or the connection told and `resume` finished.
template <class Then>
void with_row(CommandContext& cx, const Request& rq, Resume resume, Then then) {
  if (auto row = cx.identities.cached(rq.player->id)) return then(std::move(*row));
  cx.identities.load(rq.player->id,
                     [&cx, later = rq, resume, then](std::optional<store::PlayerRow> row, bool busy) {
                       if (busy || !row) {
                         cx.reply_error(later, "storage", busy ? kBusy : "your identity could not be read");
                         return resume->finish();
                       }
                       then(std::move(*row));
                     });
}

// Who tries to log in to `account` (login_guard.h): the connection's address and browser, and whether it
// already holds a token of that account.
limits::Attempt attempt_of(CommandContext& cx, const Request& rq, const std::string& account) {
  limits::Attempt a;
  a.account = account;
  a.address = rq.connection->address();
  a.device = rq.connection->device();
  a.holds_token = rq.player && !rq.player->username.empty() && lower_case(rq.player->username) == lower_case(account) &&
                  !cx.clients.session_of(rq.connection->id()).empty();
  return a;
}

// Counts an attempt against the limits (on a worker: the cluster's counts may be read); false (and
// `rate_limited` told) when over them.
bool admit_attempt(CommandContext& cx, const Request& rq, const limits::Attempt& a) {
  const limits::Verdict v = cx.logins.admit(a);
  if (v.admitted()) return true;
  ++cx.services.metrics.login_throttled;
  cx.reply_error(rq, "rate_limited",
                 "too many login attempts: try again in " + std::to_string((v.retry_ms + 999) / 1000) + " s",
                 {});
  return false;
}

}  // namespace

void on_ping(CommandContext&, Request& rq, Ping&) {
  rq.connection->send(json{{"type", "pong"}, {"ref", ref_json(rq.ref)}}.dump());
}

void on_hello(CommandContext& cx, Request& rq, Hello& h) {
  if (rq.player) return cx.reply_error(rq, "bad_message", "this connection already said hello");
  if (!h.id && !h.token) {
    // Stored before it is given: a welcomed identity survives a crash.
    Resume resume = cx.defer(rq);
    cx.identities.create(
        h.name, [&cx, later = rq, resume](std::optional<store::PlayerRow> row, std::string token) {
          if (!row)
            cx.reply_error(later, "storage", "the server could not store a new identity: say hello again");
          else
            welcome(cx, later, *row, token);
          resume->finish();
        });
    return;
  }
  if (!h.id || !h.token) return refuse_identity(cx, rq);
  // The player from the cache, or (not seen since the start) read from the store on a worker.
  Resume resume = cx.defer(rq);
  if (auto row = cx.identities.cached(*h.id)) return welcome_back(cx, rq, h, std::move(*row), resume);
  cx.identities.load(*h.id, [&cx, later = rq, h, resume](std::optional<store::PlayerRow> row, bool busy) {
    if (busy)
      cx.reply_error(later, "storage", kBusy);
    else if (!row)
      refuse_identity(cx, later);
    if (busy || !row) return resume->finish();
    welcome_back(cx, later, h, std::move(*row), resume);
  });
}

void on_name(CommandContext& cx, Request& rq, Name& n) {
  // Stored, then told: the connection's later messages wait for the commit.
  auto rename = [&cx](const Request& rq, store::PlayerRow row, const std::string& name, Resume resume) {
    row.name = name;
    cx.identities.save(row, [&cx, rq, row, resume](bool ok) {
      if (!ok) {
        cx.reply_error(rq, "storage", "the server could not store your new name: it is unchanged");
      } else {
        cx.clients.set_player(rq.connection->id(), lobby::Player{row.id, row.name, row.username});
        json m = {{"type", "welcome"},
                  {"protocol", kProtocolVersion},
                  {"player", {{"id", row.id}, {"name", row.name}}}};
        if (!row.username.empty()) m["username"] = row.username;
        if (!rq.ref.empty()) m["ref"] = json::parse(rq.ref);
        rq.connection->send(m.dump());
        rename_in_rooms(cx, row);
      }
      resume->finish();
    });
  };
  Resume resume = cx.defer(rq);
  with_row(cx, rq, resume, [later = rq, name = n.name, rename, resume](store::PlayerRow row) {
    rename(later, std::move(row), name, resume);
  });
}

// --- accounts (docs/protocol.md "Accounts")

// A guest becomes an account: same id, games and seats; its name becomes the user name. The store's unique
// index on user names decides between two registrations of one name (on one node or two): the loser is told
// `username_taken`, in a transaction of its own, so that nobody else's saves share its failure.
void on_register(CommandContext& cx, Request& rq, Register& cmd) {
  if (!rq.player->username.empty())
    return cx.reply_error(rq, "already_registered", "you are logged in as " + rq.player->username);
  Resume resume = cx.defer(rq);
  bool queued = cx.workers.submit(Workers::Kind::bulk, [&cx, later = rq, cmd, resume] {
    note_blocking(cx.services.metrics);
    auto taken = [&] { cx.reply_error(later, "username_taken", "the user name '" + cmd.username + "' is taken"); };
    auto holder = cx.services.store->player_by_username(cmd.username);
    if (holder.failed() || holder) {
      if (holder.failed())
        cx.reply_error(later, "storage", kBusy);
      else
        taken();
      return resume->finish();
    }
    std::string hash = hash_password(cmd.password);
    if (hash.empty()) {
      cx.reply_error(later, "storage", "the server could not hash your password: try again");
      return resume->finish();
    }
    store::Error error;
    switch (cx.services.store->claim_username(later.player->id, cmd.username, hash, error)) {
      case store::UsernameClaim::taken:
        taken();
        return resume->finish();
      case store::UsernameClaim::not_guest:
        cx.reply_error(later, "already_registered", "this identity has a user name already: log in");
        return resume->finish();
      case store::UsernameClaim::failed:
        ++cx.services.metrics.store_failures;
        cx.reply_error(later, "storage", "the server could not store your account: you are still a guest");
        return resume->finish();
      case store::UsernameClaim::claimed:
        break;
    }
    // The row as stored now: read again (its sessions and name as the store has them), else the cached
    // one with the account's fields.
    auto row = cx.services.store->player(later.player->id);
    store::PlayerRow account;
    if (row && !row.failed()) {
      account = *row;
    } else if (auto cached = cx.identities.cached(later.player->id)) {
      account = *cached;
      account.username = account.name = cmd.username;
      account.password_hash = hash;
    } else {
      account.id = later.player->id;
      account.username = account.name = cmd.username;
    }
    if (!account.token_hash.empty()) cx.identities.adopt(account);
    cx.clients.set_player(later.connection->id(), lobby::Player{account.id, account.name, account.username});
    reply(later, {{"type", "registered"}, {"username", account.username}, {"name", account.name}});
    note_sighting(cx, later.connection, account.id);
    rename_in_rooms(cx, account);
    resume->finish();
  });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
}

void on_login(CommandContext& cx, Request& rq, Credentials& cmd) {
  Resume resume = cx.defer(rq);
  bool queued = cx.workers.submit(Workers::Kind::bulk, [&cx, later = rq, cmd, resume, who = attempt_of(cx, rq, cmd.username)] {
    note_blocking(cx.services.metrics);
    if (!admit_attempt(cx, later, who)) return resume->finish();
    auto row = cx.services.store->player_by_username(cmd.username);
    if (row.failed()) {
      cx.reply_error(later, "storage", kBusy);
      return resume->finish();
    }
    if (row)
      if (auto cached = cx.identities.cached(row->id)) row = std::move(cached);  // the newest stored
    // A missing account costs one verification too, against a hash made once: the answer's time does not
    // tell which names exist.
    static const std::string kNobody = hash_password(random_id(16));
    const bool good = row ? password_matches(cmd.password, row->password_hash)
                          : (password_matches(cmd.password, kNobody), false);
    if (!good) {
      cx.logins.failed(who);
      cx.reply_error(later, "bad_login", "unknown user name or wrong password");
      return resume->finish();
    }
    cx.logins.succeeded(who);
    std::string token = random_id(32);
    row->sessions.push_back(token_hash(token));
    row->sessions_added = {row->sessions.back()};  // written as a change: another node's login keeps its own
    while (row->sessions.size() > kMaxSessions) row->sessions.erase(row->sessions.begin());
    cx.identities.save(*row, [&cx, later, row = *row, token, resume](bool ok) {
      if (!ok)
        cx.reply_error(later, "storage", "the server could not store your login: try again");
      else
        welcome(cx, later, row, token);
      resume->finish();
    });
  });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
}

// This connection's token stops working (an account's only: a guest has nothing to log back in with).
void on_logout(CommandContext& cx, Request& rq, Logout&) {
  if (rq.player->username.empty())
    return cx.reply_error(rq, "no_account", "a guest cannot log out: register first, or keep this browser");
  const std::string session = cx.clients.session_of(rq.connection->id());
  Resume resume = cx.defer(rq);
  with_row(cx, rq, resume, [&cx, later = rq, session, resume](store::PlayerRow row) {
    if (session == row.token_hash)
      row.token_hash = token_hash(random_id(32));  // nobody knows that token: the guest one is gone
    else {
      std::erase(row.sessions, session);
      row.sessions_ended = {session};
    }
    cx.identities.save(row, [&cx, later, resume](bool ok) {
      if (!ok) {
        cx.reply_error(later, "storage", "the server could not log you out: try again");
      } else {
        cx.clients.clear_player(later.connection->id());
        reply(later, {{"type", "logged_out"}});
      }
      resume->finish();
    });
  });
}

// Every token of the account stops working; its other connections are told and become guests-to-be.
void on_logout_all(CommandContext& cx, Request& rq, Logout&) {
  if (rq.player->username.empty())
    return cx.reply_error(rq, "no_account", "a guest cannot log out: register first");
  Resume resume = cx.defer(rq);
  with_row(cx, rq, resume, [&cx, later = rq, resume](store::PlayerRow row) {
    row.token_hash = token_hash(random_id(32));
    row.sessions.clear();
    row.sessions_all_ended = true;
    cx.identities.save(row, [&cx, later, row, resume](bool ok) {
      if (!ok) {
        cx.reply_error(later, "storage", "the server could not log you out: try again");
      } else {
        cx.clients.log_out_others(row.id, later.connection->id());
        if (cx.services.bus) cx.services.bus->log_out_everywhere(row.id, later.connection->id());
        cx.clients.clear_player(later.connection->id());
        reply(later, {{"type", "logged_out"}});
      }
      resume->finish();
    });
  });
}

void on_change_password(CommandContext& cx, Request& rq, ChangePassword& cmd) {
  if (rq.player->username.empty())
    return cx.reply_error(rq, "no_account", "a guest has no password: register first");
  Resume resume = cx.defer(rq);
  bool queued = cx.workers.submit(Workers::Kind::bulk, [&cx, later = rq, cmd, resume, who = attempt_of(cx, rq, rq.player->username)] {
    note_blocking(cx.services.metrics);
    if (!admit_attempt(cx, later, who)) return resume->finish();
    with_row(cx, later, resume, [&cx, later, cmd, resume, who](store::PlayerRow row) {
      if (!password_matches(cmd.old_password, row.password_hash)) {
        cx.logins.failed(who);
        cx.reply_error(later, "bad_login", "the current password is wrong");
        return resume->finish();
      }
      row.password_hash = hash_password(cmd.new_password);
      if (row.password_hash.empty()) {
        cx.reply_error(later, "storage", "the server could not hash your password: it is unchanged");
        return resume->finish();
      }
      cx.identities.save(row, [&cx, later, resume](bool ok) {
        if (!ok)
          cx.reply_error(later, "storage", "the server could not store your password: it is unchanged");
        else
          reply(later, {{"type", "password_changed"}});
        resume->finish();
      });
    });
  });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
}

// --- an account's own mail (docs/mail.md, "Accounts"; server/account_mail.h), read and written on a worker

void on_mail_settings(CommandContext& cx, Request& rq, MailSettings&) {
  if (rq.player->username.empty())
    return cx.reply_error(rq, "no_account", "mail settings are for accounts: register or log in first");
  // Read without mail too: the account's language is the site's.
  Resume resume = cx.defer(rq);
  bool queued = cx.workers.submit(Workers::Kind::quick, [&cx, later = rq, resume] {
    note_blocking(cx.services.metrics);
    auto row = cx.services.store->account_mail(later.player->id);
    if (row.failed())
      cx.reply_error(later, "storage", "your mail settings could not be read: try again");
    else
      reply(later, account_mail_json(row, cx.services.postman != nullptr));
    resume->finish();
  });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
}

void on_set_mail(CommandContext& cx, Request& rq, SetMail& cmd) {
  if (rq.player->username.empty())
    return cx.reply_error(rq, "no_account", "mail settings are for accounts: register or log in first");
  if (!cx.services.postman && cmd.change.mail()) return cx.reply_error(rq, "no_mail", "this server sends no mail");
  Resume resume = cx.defer(rq);
  bool queued = cx.workers.submit(Workers::Kind::quick, [&cx, later = rq, cmd, resume] {
    note_blocking(cx.services.metrics);
    json answer = change_account_mail(*cx.services.store, cx.services.postman, later.player->id,
                                      later.player->username, cmd.change, Services::now().unix_ms);
    if (answer.contains("code")) {
      cx.reply_error(later, answer["code"].get<std::string>(), answer["message"].get<std::string>());
    } else {
      if (cmd.change.address && !cmd.change.address->empty() && cx.services.mail_sender) {
        ++cx.services.metrics.mail_queued;
        cx.services.mail_sender->poke();
      }
      // A new language reaches the account's unfinished correspondence games whose seat has its address: each
      // takes it again, with the language (HttpApi::adopt_account_mail, on the room's strand).
      const std::string address = answer.value("address", "");
      if (cmd.change.language && !address.empty() && cx.services.adopt_account_mail)
        for (const store::GameRow& g : cx.services.store->games_of_player(later.player->id, 200)) {
          if (g.status == "finished" || g.clock_days <= 0) continue;
          const int seat = g.seat_ids[0] == later.player->id ? 0 : 1;
          const store::SeatMail& m = g.seat_mail[static_cast<std::size_t>(seat)];
          if (m.by_mail || !mail::same_address(m.address, address)) continue;
          cx.rooms.load(g.id, [&cx, seat](RoomDirectory::Lookup found) {
            if (found.room) cx.services.adopt_account_mail(found.room, seat);
          });
        }
      reply(later, std::move(answer));
    }
    resume->finish();
  });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
}

}  // namespace cinq::server::commands
