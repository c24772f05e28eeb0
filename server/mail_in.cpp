// Correspondence by e-mail (docs/mail.md): a mail to a seat's address plays that seat's turn, as a log posted
// to /api/games/ID/record does (the same checks, stored before announced), and is answered by mail with the
// canonical log or with the reason it played nothing. Also a seat's mail settings, an invitation by mail, and
// the one-click unsubscribe and confirmation links. The mail is read on a worker; the room plays it on its
// strand.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_set>
#include <spdlog/spdlog.h>

#include "mail/address.h"
#include "mail/compose.h"
#include "mail/read.h"
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

// A mail in, read: who sent it, for which seat, and the lines that may be its turn.
struct HttpApi::MailIn {
  mail::SeatAddress seat;
  std::string from;
  std::string from_name;
  std::string message_id;
  std::string lines;  // the record lines of what the sender wrote (quotes, signature and prose left out)
};

namespace {

// The answer to the MTA: what became of the mail, and the SMTP status to give for it.
net::HttpResponse outcome(int status, const std::string& what, const std::string& smtp) {
  return json_response(status, {{"outcome", what}, {"smtp", smtp}});
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The Message-IDs seen lately by this node: a mail delivered twice at once is played once even before the
// first one's id is stored.
class RecentIds {
 public:
  bool seen(const std::string& id) {
    std::lock_guard lock(mutex_);
    if (set_.count(id)) return true;
    set_.insert(id);
    order_.push_back(id);
    if (order_.size() > 4096) {
      set_.erase(order_.front());
      order_.pop_front();
    }
    return false;
  }
  void forget(const std::string& id) {
    std::lock_guard lock(mutex_);
    set_.erase(id);
  }

 private:
  std::mutex mutex_;
  std::unordered_set<std::string> set_;
  std::deque<std::string> order_;
};

RecentIds& recent_ids() {
  static RecentIds ids;
  return ids;
}

// The seat a query names with its tag (?room=&seat=&tag=), checked on the room's strand.
bool tag_ok(const lobby::Room& room, int seat, const std::string& tag) {
  return !room.seat_token_hash(seat).empty() && mail::tags_equal(Postman::tag(room, seat), tag);
}

// The address the other seat was invited at, if it was (an address its player gave is theirs alone).
std::string invited(const lobby::Room& room, int seat) {
  const lobby::SeatMail& m = room.seat_mail(seat);
  return m.by_mail && room.seats()[seat].id.rfind("mail:", 0) == 0 ? m.address : std::string();
}

int seat_param(const std::string& text) { return text == "0" ? 0 : text == "1" ? 1 : -1; }


}  // namespace

void HttpApi::mail_in(Call& call) {
  const Postman* postman = services_.postman;
  if (!postman) return call.respond(outcome(404, "no_mail", "550 5.3.0 this server takes no mail"));
  if (call.request.body.size() > postman->config().max_message) {
    services_.metrics.count_mail_in("too_large");
    return call.respond(outcome(413, "too_large", "552 5.3.4 a mail to play a turn holds at most " +
                                                      std::to_string(postman->config().max_message) + " bytes"));
  }
  net::HttpRequest forwarded = call.request;  // for the node that owns the room, if another does
  auto job = [this, postman, forwarded = std::move(forwarded), recipient = call.query["recipient"],
              respond = call.respond]() mutable {
    const MailConfig& config = postman->config();
    // A bounce of a mail this server sent (to --mail-from): the mail is marked failed, so that its seat sees
    // it on the site, and the bounce is never answered.
    if (mail::same_address(recipient, config.from)) {
      const mail::Bounce bounce = mail::read_bounce(forwarded.body, config.domain);
      note_blocking(services_.metrics);
      for (const std::string& id : bounce.message_ids) {
        store::Error error;
        if (!services_.store->finish_mail(id, "failed", Services::now().unix_ms, 0,
                                          "bounced: " + (bounce.reason.empty() ? "no reason given" : bounce.reason), error))
          return respond(outcome(503, "storage", "451 4.3.0 the server could not store this: try again later"));
      }
      services_.metrics.count_mail_in("bounce");
      return respond(outcome(200, "bounce", "250 2.0.0 bounce noted"));
    }
    std::string why;
    auto read = mail::read_message(forwarded.body, why);
    if (!read) {
      services_.metrics.count_mail_in("unreadable");
      return respond(outcome(400, "unreadable", "550 5.6.0 unreadable mail: " + why));
    }
    std::optional<mail::SeatAddress> seat;
    std::vector<std::string> candidates;
    if (!recipient.empty()) candidates.push_back(recipient);
    for (const auto& r : read->recipients) candidates.push_back(r);
    for (const auto& r : candidates)
      if ((seat = mail::parse_seat_address(r, config.prefix, config.domain))) break;
    if (!seat) {
      services_.metrics.count_mail_in("unknown_address");
      return respond(outcome(404, "unknown_address", "550 5.1.1 no game seat has this address"));
    }
    // A robot's mail (an auto-reply, a bounce) is never answered: two robots would answer each other forever.
    if (!read->auto_submitted.empty() && lower(read->auto_submitted) != "no") {
      services_.metrics.count_mail_in("automatic");
      return respond(outcome(200, "automatic", "250 2.0.0 automatic mail: ignored"));
    }
    std::int64_t retry_after = 0;
    if (!mail_senders_.take(lower(read->from_address), std::chrono::steady_clock::now(), retry_after)) {
      services_.metrics.count_mail_in("rate");
      return respond(outcome(429, "rate", "450 4.7.1 too many mails from this sender: try again in " +
                                              std::to_string(retry_after) + " s"));
    }
    note_blocking(services_.metrics);
    if (!read->message_id.empty() && services_.store->mail_received(read->message_id)) {
      services_.metrics.count_mail_in("duplicate");
      return respond(outcome(200, "duplicate", "250 2.0.0 this mail was played already"));
    }
    auto in = std::make_shared<MailIn>();
    in->seat = *seat;
    in->from = read->from_address;
    in->from_name = read->from_name;
    in->message_id = read->message_id;
    in->lines = mail::record_lines(mail::fresh_text(read->text));
    rooms_.load(seat->room, [this, in, forwarded = std::move(forwarded), respond](RoomDirectory::Lookup found) mutable {
      if (!found.owner.empty()) return services_.bus->forward_http(found.owner, std::move(forwarded), respond);
      if (found.busy || found.moved) return respond(outcome(503, "busy", "451 4.3.0 busy: try again later"));
      if (!found.room) {
        services_.metrics.count_mail_in("unknown_address");
        return respond(outcome(404, "unknown_address", "550 5.1.1 no game " + in->seat.room));
      }
      play_mail(found.room, in, respond);
    });
  };
  if (!workers_.submit(Workers::Kind::bulk, std::move(job)))
    call.respond(outcome(503, "busy", "451 4.3.0 busy: try again later"));
}

void HttpApi::store_answer(store::MailRow row, std::string received, std::function<void(bool)> done) {
  auto job = [this, row = std::move(row), received, done] {
    note_blocking(services_.metrics);
    store::Error error;
    std::vector<std::string> ids;
    if (!received.empty()) ids.push_back(received);
    const bool ok = services_.store->queue_mails({row}, ids, error);
    if (ok) {
      ++services_.metrics.mail_queued;
      if (services_.mail_sender) services_.mail_sender->poke();
    } else {
      spdlog::error("mail: cannot queue the answer {}: {}", row.id, error.message);
      if (!received.empty()) recent_ids().forget(received);
    }
    done(ok);
  };
  if (!workers_.submit(Workers::Kind::quick, job)) done(false);
}

namespace {

// The answer to a mail that holds no move: what it lacked and what to send, with a turn of this game
// written as a record writes it (the first legal action of the side to move) as the example, in the seat's
// language.
std::string no_moves(const lobby::Room& room, std::string_view language) {
  std::string example;
  const Record& record = room.record();
  if (!record.finished() && !record.incomplete())
    for (Action a : record.state().legal_actions())
      if (!a.is_end_turn()) {
        example = std::string(1, record.game().side_letter(record.state().to_move())) + "/" +
                  record.state().action_text(a) + "/";
        break;
      }
  return example.empty() ? mail::text(language, "refused.no_moves")
                         : mail::text(language, "refused.no_moves_like", {{"example", example}});
}

// The reason of a refused log, the rules' or the room's own (`error`: the answer's reason_code, params, line
// and turn), in `language`, a side letter said as the game's word for the side; "" when the answer gives no
// code the mails know.
std::string rules_reason(const lobby::Room& room, const std::string& language, const json& error) {
  if (!error.contains("reason_code") || !error.at("reason_code").is_string()) return {};
  std::vector<std::pair<std::string, std::string>> params;
  if (error.contains("params") && error.at("params").is_object())
    for (const auto& [key, value] : error.at("params").items())
      if (value.is_string()) params.emplace_back(key, value.get<std::string>());
  const Game& game = room.record().game();
  auto side_word = [&game, &language](const std::string& letter) {
    for (int side = 0; side < 2; ++side)
      if (letter.size() == 1 && letter[0] == game.side_letter(side))
        return std::string(game.words_in(language).sides[static_cast<std::size_t>(side)]);
    return letter;
  };
  return mail::rules_reason(language, error.at("reason_code").get<std::string>(), params,
                            error.value("line", 0), error.value("turn", 0), side_word);
}

}  // namespace

void HttpApi::play_mail(std::shared_ptr<RoomActor> actor, std::shared_ptr<const MailIn> in, Respond respond) {
  actor->post([this, actor, in, respond](RoomActor& a) {
    a.when_settled([this, &a, actor, in, respond] {
      lobby::Room& room = a.room();
      const int seat = in->seat.seat;
      const Postman& postman = *services_.postman;
      if (!tag_ok(room, seat, in->seat.tag)) {
        services_.metrics.count_mail_in("forged");
        return respond(outcome(403, "forged", "550 5.7.1 this address does not name a seat of game " + room.id()));
      }
      if (!in->message_id.empty() && recent_ids().seen(in->message_id)) {
        services_.metrics.count_mail_in("duplicate");
        return respond(outcome(200, "duplicate", "250 2.0.0 this mail was played already"));
      }
      const lobby::Now now = Services::now();
      // The answer, to the sender, in the game's thread; a refusal is stored with the mail's id.
      auto answer_refused = [this, &a, in, seat, respond, &postman](const std::string& reason) {
        services_.metrics.count_mail_in("refused");
        const std::int64_t at = Services::now().unix_ms;
        auto g = postman.view(a.room(), at);
        store::MailRow row = postman.row(a.room(), seat, "answer", mail::refused(g, seat, in->from, in->message_id, reason), at);
        store_answer(std::move(row), in->message_id, [respond, reason](bool ok) {
          respond(ok ? outcome(200, "refused", "250 2.0.0 answered: " + reason)
                     : outcome(503, "storage", "451 4.3.0 the server could not store its answer: try again later"));
        });
      };
      const std::string language = room.seat_mail(seat).language;
      if (in->lines.empty()) return answer_refused(no_moves(room, language));
      if (room.status() == lobby::Status::finished)
        return answer_refused(mail::text(language, "refused.over", {{"result", result_words(room, language)}}));
      // A reply from the invited (or given) address confirms it; a seat nobody holds is taken by the mail.
      lobby::SeatMail m = room.seat_mail(seat);
      if (!m.address.empty() && !m.confirmed && lower(m.address) == lower(in->from)) {
        m.confirmed = true;
        room.set_seat_mail(seat, m);
      }
      if (room.seats()[seat].id.empty()) {
        lobby::Player player;
        player.id = "mail:" + room.id() + "." + std::to_string(seat);
        player.name = !in->from_name.empty() ? in->from_name : in->from.substr(0, in->from.find('@'));
        a.apply(room.claim_seat(player, seat, room.seat_token_hash(seat), now), nullptr, {});
      }
      std::string log = in->lines;
      if (log.rfind("#!", 0) != 0 && log.find("\n#!") == std::string::npos) log = room.record().write() + log;
      const std::string token = room.seat_token(seat);
      if (token.empty()) return answer_refused(mail::text(language, "refused.old_game"));
      auto body = std::make_shared<const std::string>(std::move(log));
      play_log(actor, seat, token, body,
               [this, actor, in, seat, respond, answer_refused](net::HttpResponse r) {
                 if (r.status == 503) {
                   recent_ids().forget(in->message_id);
                   return respond(outcome(503, "busy", "451 4.3.0 busy: try again later"));
                 }
                 actor->post([this, in, seat, respond, r, answer_refused](RoomActor& a) {
                   if (r.status != 200) {
                     std::string reason = r.body;
                     try {
                       const json error = json::parse(r.body).at("error");
                       reason = error.at("message").get<std::string>();
                       // The rules' reason in the seat's language, when the answer gives its code.
                       if (std::string said =
                               rules_reason(a.room(), a.room().seat_mail(seat).language, error);
                           !said.empty())
                         reason = said;
                     } catch (const std::exception&) {
                     }
                     return answer_refused(reason);
                   }
                   services_.metrics.count_mail_in("played");
                   const Postman& postman = *services_.postman;
                   const std::int64_t at = Services::now().unix_ms;
                   auto g = postman.view(a.room(), at);
                   store::MailRow row =
                       postman.row(a.room(), seat, "answer", mail::played(g, seat, in->from, in->message_id), at);
                   // The turn is stored (with the mail's id); its answer follows it.
                   store_answer(std::move(row), {}, [respond](bool) { respond(outcome(200, "played", "250 2.0.0 turn played")); });
                 });
               },
               0, in->message_id);
    }, [respond] { respond(outcome(503, "storage", "451 4.3.0 the server could not store this: try again later")); });
  });
}

void HttpApi::seat_mail(Call& call) {
  const Postman* postman = services_.postman;
  if (!postman) return call.respond(error_response(404, "no_mail", "this server sends no mail"));
  const int seat = seat_param(call.query["seat"]);
  const std::string token = call.query["token"];
  if (seat < 0) return call.respond(error_response(400, "bad_message", "give the seat (?seat=0 or ?seat=1) and its token"));
  json body = json::object();
  if (call.request.method == "POST") {
    body = json::parse(call.request.body, nullptr, false);
    if (!body.is_object()) return call.respond(error_response(400, "bad_message", "the body must be a JSON object"));
  }
  auto text = [&](const char* key, std::string& out) {
    auto it = body.find(key);
    if (it == body.end()) return true;
    if (!it->is_string() || it->get<std::string>().size() > 254) return false;
    out = it->get<std::string>();
    return true;
  };
  std::string address = "\x01", invite, reminders = "\x01", name, zone = "\x01", language = "\x01";
  if (!text("address", address) || !text("invite", invite) || !text("reminders", reminders) || !text("name", name) ||
      !text("zone", zone) || !text("language", language))
    return call.respond(error_response(400, "bad_message", "address, invite, language, name, reminders and zone are strings"));
  // The page's language (i18n.js): the seat's mails are written in it.
  if (language != "\x01" && !mail::known_language(language)) {
    std::string known;
    for (std::string_view l : mail::languages()) known += (known.empty() ? "" : ", ") + std::string(l);
    return call.respond(error_response(400, "bad_language", "language: '" + language + "' is not one of " + known));
  }
  if (zone != "\x01" && !zone.empty() && !mail::valid_zone(zone))
    return call.respond(error_response(400, "bad_zone", "zone: a time zone such as Europe/Paris, or \"\" for UTC"));
  for (const std::string* a : {&address, &invite})
    if (!a->empty() && *a != "\x01" && !mail::valid_address(*a))
      return call.respond(error_response(400, "bad_address", "'" + *a + "' is not an e-mail address"));
  if (reminders != "\x01" && !reminders.empty() && reminders != "off" && !mail::parse_leads(reminders))
    return call.respond(error_response(400, "bad_reminders", "reminders: off, or times before the deadline like 24h,8h,1h"));
  std::optional<bool> by_mail;
  if (auto it = body.find("by_mail"); it != body.end()) {
    if (!it->is_boolean()) return call.respond(error_response(400, "bad_message", "by_mail is true or false"));
    by_mail = it->get<bool>();
  }
  bool use_account = false;  // the seat takes the confirmed address of the account that holds it
  if (auto it = body.find("use_account"); it != body.end()) {
    if (!it->is_boolean()) return call.respond(error_response(400, "bad_message", "use_account is true or false"));
    use_account = it->get<bool>();
  }
  const std::string id = call.params.at(0);
  rooms_.load(id, [this, id, seat, token, address, invite, reminders, name, zone, language, by_mail, use_account,
                   forwarded = call.request, respond = call.respond](RoomDirectory::Lookup found) mutable {
    if (!found.owner.empty()) return services_.bus->forward_http(found.owner, std::move(forwarded), respond);
    if (found.busy || found.moved) return respond(busy_response());
    if (!found.room) return respond(error_response(404, "not_found", "no game '" + id + "'"));
    found.room->post([this, seat, token, address, invite, reminders, name, zone, language, by_mail, use_account, actor = found.room,
                      respond](RoomActor& a) {
      a.when_settled([this, &a, seat, token, address, invite, reminders, name, zone, language, by_mail, use_account, actor,
                      respond] {
        lobby::Room& room = a.room();
        const Postman& postman = *services_.postman;
        if (room.seat_token_hash(seat).empty() || !token_matches(token, room.seat_token_hash(seat)))
          return respond(error_response(403, "bad_token", "this is not seat " + std::to_string(seat) + "'s token"));
        if (use_account)
          return adopt_account_mail(actor, seat, [respond, seat](bool ok) {
            respond(ok ? json_response(200, {{"seat", seat}, {"use_account", true}})
                       : error_response(409, "no_account_address",
                                        "the seat's player has no confirmed address on its account"));
          });
        const lobby::Now now = Services::now();
        bool changed = false, new_address = false;
        lobby::SeatMail mine = room.seat_mail(seat);
        if (address != "\x01" && lower(address) != lower(mine.address)) {
          mine.address = address;
          mine.confirmed = false;
          changed = new_address = true;
        }
        if (reminders != "\x01") changed |= std::exchange(mine.reminders, reminders) != reminders;
        if (zone != "\x01") changed |= std::exchange(mine.zone, zone) != zone;
        if (language != "\x01") {
          const std::string stored = language == "en" ? "" : language;  // English is the default, stored ""
          changed |= std::exchange(mine.language, stored) != stored;
        }
        if (by_mail) changed |= std::exchange(mine.by_mail, *by_mail) != *by_mail;
        room.set_seat_mail(seat, mine);
        if (new_address && !mine.address.empty())
          a.queue_mail(postman.row(room, seat, "confirm",
                                   mail::confirm_address(postman.view(room, now.unix_ms), seat, postman.confirm_url(room, seat)),
                                   now.unix_ms));
        if (!invite.empty()) {
          const int other = 1 - seat;
          if (!room.seats()[other].id.empty() || room.status() == lobby::Status::finished)
            return respond(error_response(409, "seat_taken", "the other seat is taken: there is nobody to invite"));
          // Invited in the inviter's language (its page's), which the invited player's seat keeps.
          room.set_seat_mail(other, {invite, true, false, "", "", mine.language});
          lobby::Player player;
          player.id = "mail:" + room.id() + "." + std::to_string(other);
          player.name = !name.empty() ? name : invite.substr(0, invite.find('@'));
          a.apply(room.claim_seat(player, other, room.seat_token_hash(other), now), nullptr, {});
          a.queue_mail(postman.row(room, other, "invite",
                                   mail::invitation(postman.view(room, now.unix_ms), other, room.config().clock.days),
                                   now.unix_ms));
          changed = true;
        }
        if (changed) {
          lobby::Effect save;
          save.save = true;
          a.apply(std::move(save), nullptr, {});
        }
        json answer = {{"seat", seat},
                       {"address", mine.address},
                       {"confirmed", mine.confirmed},
                       {"by_mail", mine.by_mail},
                       {"reminders", mine.reminders},
                       {"zone", mine.zone},
                       {"language", mine.language.empty() ? std::string("en") : mine.language},
                       {"reply_address", postman.reply_address(room, seat)},
                       {"invited", invited(room, 1 - seat)}};
        a.when_settled([this, answer, respond, id = room.id(), seat] {
          if (services_.mail_sender) services_.mail_sender->poke();
          // The seat's mails its mail server refused for good, so that the player sees them on the site.
          bool queued = workers_.submit(Workers::Kind::quick, [this, answer, respond, id, seat]() mutable {
            note_blocking(services_.metrics);
            json failed = json::array();
            for (const store::MailRow& m : services_.store->mails_of_game(id))
              if (m.seat == seat && m.state == "failed")
                failed.push_back({{"kind", m.kind}, {"to", m.recipient}, {"error", m.error}, {"at_ms", m.created_ms}});
            answer["failed"] = std::move(failed);
            respond(json_response(200, answer));
          });
          if (!queued) respond(busy_response());
        }, [respond] { respond(storage_response()); });
      }, [respond] { respond(storage_response()); });
    });
  });
}

namespace {

// A link's seat (?room=&seat=&tag=) and what to do to its mail on the room's strand.
void by_link(HttpApi::Call& call, RoomDirectory& rooms, Services& services,
             std::function<std::string(lobby::SeatMail&)> change) {
  const std::string id = call.query["room"];
  const int seat = seat_param(call.query["seat"]);
  const std::string tag = call.query["tag"];
  if (id.empty() || seat < 0 || tag.empty())
    return call.respond(text_response(400, "This link is incomplete: it needs its room, seat and tag."));
  rooms.load(id, [&services, id, seat, tag, change, forwarded = call.request,
                  respond = call.respond](RoomDirectory::Lookup found) mutable {
    if (!found.owner.empty()) return services.bus->forward_http(found.owner, std::move(forwarded), respond);
    if (found.busy || found.moved) return respond(busy_response());
    if (!found.room) return respond(text_response(404, "No game " + id + "."));
    found.room->post([seat, tag, change, respond](RoomActor& a) {
      a.when_settled([&a, seat, tag, change, respond] {
        if (!tag_ok(a.room(), seat, tag)) return respond(text_response(403, "This link is not valid for this game."));
        lobby::SeatMail m = a.room().seat_mail(seat);
        std::string said = change(m);
        a.room().set_seat_mail(seat, m);
        lobby::Effect save;
        save.save = true;
        a.apply(std::move(save), nullptr, {});
        a.when_settled([respond, said] { respond(text_response(200, said)); },
                       [respond] { respond(storage_response()); });
      }, [respond] { respond(storage_response()); });
    });
  });
}

}  // namespace

void HttpApi::unsubscribe(Call& call) {
  by_link(call, rooms_, services_, [](lobby::SeatMail& m) {
    m.address.clear();
    m.confirmed = false;
    return std::string("Done: this game sends no more mail to this seat's address.");
  });
}

void HttpApi::confirm(Call& call) {
  by_link(call, rooms_, services_, [](lobby::SeatMail& m) {
    if (m.address.empty()) return std::string("This seat has no address to confirm.");
    m.confirmed = true;
    return "Confirmed: the game's mails go to " + m.address + ".";
  });
}

}  // namespace cinq::server
