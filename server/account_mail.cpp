// An account's own mail (account_mail.h): its settings over the protocol, its confirmation and unsubscribe
// links over HTTP (no login: the link's secret is the proof), and a seat taking its account's confirmed
// address, on the room's strand.
#include "server/account_mail.h"

#include <spdlog/spdlog.h>

#include "mail/account.h"
#include "mail/address.h"
#include "mail/compose.h"
#include "mail/schedule.h"
#include "mail/words.h"
#include "server/room_bus.h"
#include "server/http_answers.h"
#include "server/http_api.h"
#include "server/identity.h"
#include "server/mail_sender.h"
#include "server/postman.h"
#include "server/room_actor.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server {

using nlohmann::json;

std::optional<AccountMailChange> AccountMailChange::parse(const json& body, std::string& why) {
  AccountMailChange c;
  if (auto it = body.find("address"); it != body.end()) {
    if (!it->is_string() || it->get<std::string>().size() > 254) {
      why = "field 'address' must be an e-mail address, or \"\" to remove it";
      return std::nullopt;
    }
    c.address = it->get<std::string>();
    if (!c.address->empty() && !mail::valid_address(*c.address)) {
      why = "field 'address': '" + *c.address + "' is not an e-mail address";
      return std::nullopt;
    }
  }
  for (auto [key, field] : {std::pair{"turn", &c.turn}, {"reminder", &c.reminder}, {"end", &c.end}}) {
    auto it = body.find(key);
    if (it == body.end()) continue;
    if (!it->is_boolean()) {
      why = std::string("field '") + key + "' must be true or false";
      return std::nullopt;
    }
    *field = it->get<bool>();
  }
  if (auto it = body.find("zone"); it != body.end()) {
    if (!it->is_string() || (!it->get<std::string>().empty() && !mail::valid_zone(it->get<std::string>()))) {
      why = "field 'zone' must be a time zone such as Europe/Paris, or \"\" for UTC";
      return std::nullopt;
    }
    c.zone = it->get<std::string>();
  }
  if (auto it = body.find("language"); it != body.end()) {
    if (!it->is_string() || !mail::known_language(it->get<std::string>())) {
      std::string known;
      for (std::string_view l : mail::languages()) known += (known.empty() ? "" : ", ") + std::string(l);
      why = "field 'language' must be one of " + known;
      return std::nullopt;
    }
    c.language = it->get<std::string>();
  }
  if (auto it = body.find("digest_hour"); it != body.end()) {
    if (it->is_null()) {
      c.digest_hour = -1;
    } else if (!it->is_number_integer() || it->get<int>() < 0 || it->get<int>() > 23) {
      why = "field 'digest_hour' must be an hour from 0 to 23, or null for no digest";
      return std::nullopt;
    } else {
      c.digest_hour = it->get<int>();
    }
  }
  return c;
}

json account_mail_json(const std::optional<store::AccountMail>& row, bool available) {
  const mail::AccountPrefs prefs = row ? mail::AccountPrefs::stored(row->prefs) : mail::AccountPrefs{};
  return {{"type", "mail_settings"},
          {"available", available},
          {"address", row ? row->address : ""},
          {"pending", row ? row->pending : ""},
          {"turn", prefs.turn},
          {"reminder", prefs.reminder},
          {"end", prefs.end},
          {"digest_hour", prefs.digest_hour >= 0 ? json(prefs.digest_hour) : json(nullptr)},
          {"zone", prefs.zone},
          {"language", prefs.language}};
}

json change_account_mail(store::Store& store, const Postman* postman, const std::string& player_id,
                         const std::string& name, const AccountMailChange& change, std::int64_t now_ms) {
  if (!postman && change.mail()) return {{"code", "no_mail"}, {"message", "this server sends no mail"}};
  auto read = store.account_mail(player_id);
  if (read.failed())
    return {{"code", "storage"}, {"message", "your mail settings could not be read: try again"}};
  store::AccountMail row = read.value_or(store::AccountMail{player_id});
  if (row.unsubscribe_key.empty()) row.unsubscribe_key = random_id(24);
  mail::AccountPrefs prefs = mail::AccountPrefs::stored(row.prefs);
  if (change.turn) prefs.turn = *change.turn;
  if (change.reminder) prefs.reminder = *change.reminder;
  if (change.end) prefs.end = *change.end;
  if (change.digest_hour) prefs.digest_hour = *change.digest_hour;
  if (change.zone) prefs.zone = *change.zone;
  if (change.language) prefs.language = *change.language;
  row.prefs = prefs.text();
  std::vector<store::MailRow> mails;
  if (change.address) {
    const std::string& a = *change.address;
    if (a.empty()) {
      row.address.clear();
      row.pending.clear();
      row.code_hash.clear();
    } else if (mail::same_address(a, row.address)) {
      row.pending.clear();  // back to the confirmed address: the pending one is dropped
      row.code_hash.clear();
    } else if (!mail::same_address(a, row.pending)) {  // the pending address again: its link stands
      // Kept only once confirmed: until then the old address (if any) stays, and the new one gets this
      // one mail.
      const std::string code = random_id(24);
      row.pending = a;
      row.code_hash = token_hash(code);
      mail::Outgoing out =
          mail::confirm_account(postman->account_view(row, name), a, postman->account_confirm_url(player_id, code), now_ms);
      mails.push_back(postman->account_row("confirm", out, now_ms));
    }
  }
  row.updated_ms = now_ms;
  store::Error error;
  if (!store.put_account_mail(row, mails, error)) {
    spdlog::error("mail: storing the settings of {}: {}", player_id, error.message);
    return {{"code", "storage"}, {"message", "your mail settings could not be stored: they are unchanged"}};
  }
  return account_mail_json(row, postman != nullptr);
}

// --- HTTP: the links in an account's mails, and a seat taking its account's address

namespace {

// A link from an account's mail (?player=ID&SECRET=...): the account's row, read on a worker, given to `then`
// with the link's secret; `then` checks the secret and answers.
void account_link(HttpApi::Call& call, Services& services, Workers& workers, const std::string& secret,
                  std::function<net::HttpResponse(store::AccountMail&, const std::string&)> then) {
  if (!services.postman) return call.respond(text_response(404, "This server sends no mail."));
  const std::string player = call.query["player"], value = call.query[secret];
  if (player.empty() || value.empty())
    return call.respond(text_response(400, "This link is incomplete: it needs its player and " + secret + "."));
  bool queued = workers.submit(Workers::Kind::quick, [&services, player, value, then, respond = call.respond] {
    note_blocking(services.metrics);
    auto row = services.store->account_mail(player);
    if (row.failed()) return respond(storage_response());
    if (!row) return respond(text_response(403, "This link is not valid."));
    respond(then(*row, value));
  });
  if (!queued) call.respond(busy_response());
}

}  // namespace

void HttpApi::account_confirm(Call& call) {
  account_link(call, services_, workers_, "code", [this](store::AccountMail& row, const std::string& code) {
    if (row.pending.empty() || !token_matches(code, row.code_hash))
      return text_response(403, !row.address.empty() && row.pending.empty()
                                    ? "This link was used already: your address is " + row.address + "."
                                    : "This link is not valid (a newer one may have replaced it).");
    const std::string previous = row.address;
    row.address = row.pending;
    row.pending.clear();
    row.code_hash.clear();
    row.updated_ms = Services::now().unix_ms;
    store::Error error;
    if (!services_.store->put_account_mail(row, {}, error)) return storage_response();
    // The account's unfinished correspondence games whose seat has no address of its own (or had the
    // previous one) take this one.
    for (const store::GameRow& g : services_.store->games_of_player(row.player_id, 200)) {
      if (g.status == "finished" || g.clock_days <= 0) continue;
      const int seat = g.seat_ids[0] == row.player_id ? 0 : 1;
      const std::string& now = g.seat_mail[seat].address;
      if (g.seat_tokens[seat].empty() || g.seat_mail[seat].by_mail || (!now.empty() && now != previous)) continue;
      net::HttpRequest adopt;
      adopt.method = "POST";
      adopt.target = "/api/games/" + g.id + "/mail?seat=" + std::to_string(seat) + "&token=" + g.seat_tokens[seat];
      adopt.body = R"({"use_account":true})";
      handle(std::move(adopt), [id = g.id](net::HttpResponse r) {
        if (r.status != 200) spdlog::warn("mail: game {} did not take its account's address: {}", id, r.body);
      });
    }
    return text_response(200, "Confirmed: your games' mails go to " + row.address + ".");
  });
}

void HttpApi::account_unsubscribe(Call& call) {
  account_link(call, services_, workers_, "key", [this](store::AccountMail& row, const std::string& key) {
    if (row.unsubscribe_key.empty() || !mail::tags_equal(row.unsubscribe_key, key))
      return text_response(403, "This link is not valid.");
    // Every game mail off, the digest too; the zone stays (answers to the player's own mails still use it).
    mail::AccountPrefs prefs = mail::AccountPrefs::stored(row.prefs);
    prefs.turn = prefs.reminder = prefs.end = false;
    prefs.digest_hour = -1;
    row.prefs = prefs.text();
    row.updated_ms = Services::now().unix_ms;
    store::Error error;
    if (!services_.store->put_account_mail(row, {}, error)) return storage_response();
    return text_response(200, "Done: your games send no more mail to " + row.address +
                                  " (answers to mails you send still come). Your settings on the site can turn "
                                  "them on again.");
  });
}

void HttpApi::adopt_account_mail(std::shared_ptr<RoomActor> actor, int seat, std::function<void(bool)> done) {
  actor->post([this, actor, seat, done](RoomActor& a) {
    const std::string player = a.room().seats()[seat].id;
    if (player.empty() || player.rfind("mail:", 0) == 0) return done(false);
    bool queued = workers_.submit(Workers::Kind::quick, [this, actor, seat, player, done] {
      note_blocking(services_.metrics);
      auto account = services_.store->account_mail(player);
      if (!account || account->address.empty()) return done(false);
      const mail::AccountPrefs prefs = mail::AccountPrefs::stored(account->prefs);
      // The account's language ("" none chosen, "en", "fr"...); the seat keeps English as "".
      const std::string zone = prefs.zone, language = prefs.language;
      actor->post([seat, player, address = account->address, zone, language, done](RoomActor& a) {
        lobby::Room& room = a.room();
        const lobby::SeatMail& now = room.seat_mail(seat);
        if (room.seats()[seat].id != player || now.by_mail) return done(false);
        // An account that chose no language leaves the seat's own (set from its page) as it is.
        const std::string kept = language.empty() ? now.language : language == "en" ? "" : language;
        if (now.address == address && now.confirmed && (!now.zone.empty() || zone.empty()) && now.language == kept)
          return done(true);
        room.set_seat_mail(seat, {address, false, true, now.reminders, now.zone.empty() ? zone : now.zone, kept});
        lobby::Effect save;
        save.save = true;
        a.apply(std::move(save), nullptr, {});
        a.when_settled([done] { done(true); }, [done] { done(false); });
      });
    });
    if (!queued) done(false);
  });
}

}  // namespace cinq::server
