// Correspondence over HTTP (docs/protocol.md, "Correspondence"): a seat posts the game's log with
// its new turn appended and gets the canonical updated log back; a record is imported as a room. The seat
// is proven by its secret token in the query. Reading a mailed log replays it whole, so it runs on a worker,
// on a copy of the room (lobby::Room::play_log); the room keeps the copy's new turns if nothing happened to
// it meanwhile, and the answer leaves only once they are stored.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <optional>
#include <nlohmann/json.hpp>

#include "rules/notation.h"
#include "server/http_answers.h"
#include "server/http_api.h"
#include "server/bot_runner.h"
#include "server/room_bus.h"
#include "server/identity.h"
#include "server/room_actor.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server {

using nlohmann::json;

namespace {

// Tries on a copy before the log is played on the room's strand itself (a room whose version keeps moving:
// spectators coming and going).
constexpr int kCopyTries = 3;

net::HttpResponse text_answer(const std::string& text) {
  net::HttpResponse r;
  r.content_type = "text/plain; charset=utf-8";
  r.body = text;
  r.headers.emplace_back("Access-Control-Allow-Origin", "*");
  return r;
}

// A refused log: the HTTP status its code stands for (docs/protocol.md).
int status_of(const std::string& code) {
  if (code == "bad_record") return 422;
  if (code == "bad_token" || code == "other_side") return 403;
  if (code == "bad_message") return 400;
  return 409;
}

net::HttpResponse refusal(const lobby::Failure& error) {
  json e = {{"code", error.code}, {"message", error.message}};
  if (error.line > 0) e["line"] = error.line;
  lobby::add_reason(error, e);
  return json_response(status_of(error.code), {{"error", e}});
}

void count(Metrics& metrics, const lobby::Effect& effect) {
  if (effect.error) {
    ++metrics.turns_rejected;
    metrics.count_error(effect.error->code);
  } else if (!effect.events.empty()) {
    ++metrics.turns_accepted;
  }
}

// On the strand: the room applies what the log did (the new turns, or a time forfeit found on the way) and
// answers once it is stored.
void keep(RoomActor& a, lobby::Effect effect, const HttpApi::Respond& respond, const std::string& received) {
  std::optional<lobby::Failure> error = effect.error;
  effect.error.reset();
  // A mailed turn (mail_in.cpp): its Message-ID is stored with the turn, so the same mail never plays twice.
  if (!received.empty() && !error) {
    a.note_received(received);
    effect.save = true;
  }
  a.apply(std::move(effect), nullptr, {});
  a.when_settled(
      [&a, error, respond] {
        if (error) return respond(refusal(*error));
        respond(text_answer(a.room().record().write()));
      },
      [respond] { respond(storage_response()); });
}

}  // namespace

void HttpApi::post_record(Call& call) {
  auto seat_text = call.query["seat"];
  int seat = seat_text == "0" ? 0 : seat_text == "1" ? 1 : -1;
  if (seat < 0)
    return call.respond(error_response(400, "bad_message", "give the seat (?seat=0 or ?seat=1) and its token"));
  const std::string token = call.query["token"];
  if (token.empty() || token.size() > 64) return call.respond(error_response(403, "bad_token", "give the seat's token"));
  const std::string id = call.params.at(0);
  net::HttpRequest forwarded = call.request;  // for the node that owns the room, if another does
  auto body = std::make_shared<const std::string>(std::move(call.request.body));
  rooms_.load(id, [this, id, seat, token, body, forwarded = std::move(forwarded),
                   respond = call.respond](RoomDirectory::Lookup found) mutable {
    if (!found.owner.empty()) return services_.bus->forward_http(found.owner, std::move(forwarded), respond);
    if (found.busy || found.moved) return respond(busy_response());
    if (!found.room) return respond(error_response(404, "not_found", "no game '" + id + "'"));
    play_log(found.room, seat, token, body, respond, 0, {});
  });
}

void HttpApi::play_log(std::shared_ptr<RoomActor> actor, int seat, std::string token,
                       std::shared_ptr<const std::string> body, Respond respond, int attempt,
                       std::string received) {
  actor->post([this, actor, seat, token, body, respond, attempt, received](RoomActor& a) {
    // Once settled: the log is compared with the record as stored.
    a.when_settled([this, &a, actor, seat, token, body, respond, attempt, received] {
      lobby::Room& room = a.room();
      if (!token_matches(token, room.seat_token_hash(seat)))
        return respond(
            error_response(403, "bad_token", "this is not seat " + std::to_string(seat) + "'s token"));
      if (attempt >= kCopyTries) {
        note_blocking(services_.metrics);  // the room kept changing: played here, counted
        lobby::Effect effect = room.play_log(seat, *body, Services::now());
        count(services_.metrics, effect);
        return keep(a, std::move(effect), respond, received);
      }
      auto copy = std::make_shared<lobby::Room>(room);
      const std::int64_t version = room.version();
      bool queued = workers_.submit(Workers::Kind::bulk, [this, actor, copy, version, seat, token, body, respond,
                                                          attempt, received] {
        note_blocking(services_.metrics);
        auto effect = std::make_shared<lobby::Effect>(copy->play_log(seat, *body, Services::now()));
        if (!effect->save && effect->events.empty()) {
          // Refused, or the same log again: the room is as it was when copied, nothing to keep.
          count(services_.metrics, *effect);
          if (effect->error) return respond(refusal(*effect->error));
          return respond(text_answer(copy->record().write()));
        }
        actor->post([this, actor, copy, version, effect, seat, token, body, respond, attempt, received](RoomActor& a) {
          a.when_settled([this, &a, actor, copy, version, effect, seat, token, body, respond, attempt, received] {
            // Something happened to the room meanwhile (a turn, a spectator): the log is checked again.
            if (a.room().version() != version)
              return play_log(actor, seat, token, body, respond, attempt + 1, received);
            a.room() = std::move(*copy);  // the room as it was, plus what the log did
            count(services_.metrics, *effect);
            keep(a, std::move(*effect), respond, received);
          }, [respond] { respond(storage_response()); });
        });
      });
      if (!queued) respond(busy_response());
    }, [respond] { respond(storage_response()); });
  });
}

void HttpApi::import_game(Call& call) {
  // Each import is a stored room, reopened at every start: an address makes a few an hour.
  std::int64_t retry_after = 0;
  RoomBus* bus = services_.limits.imports_per_hour > 0 ? services_.bus : nullptr;
  const std::int64_t now_ms = Services::now().unix_ms;
  bool fits = true;
  if (bus) {  // the cluster's count as this node knows it: its own, and the totals its INCRs were answered
    std::lock_guard lock(shared_imports_mutex_);
    if (shared_imports_.count(call.request.address, now_ms) >=
        static_cast<std::int64_t>(services_.limits.imports_per_hour)) {
      fits = false;
      retry_after = (shared_imports_.until_next(now_ms) + 999) / 1000;
    }
  }
  if (!fits || !imports_.take(call.request.address, std::chrono::steady_clock::now(), retry_after)) {
    ++services_.metrics.refused_imports;
    net::HttpResponse r = error_response(
        429, "too_many_imports",
        "this address imported " + std::to_string(services_.limits.imports_per_hour) +
            " games in the last hour: try again in " + std::to_string(retry_after) + " s");
    r.headers.emplace_back("Retry-After", std::to_string(retry_after));
    return call.respond(r);
  }
  if (bus) {
    std::int64_t own = 0;
    const std::int64_t window = shared_imports_.window(now_ms);
    {
      std::lock_guard lock(shared_imports_mutex_);
      own = shared_imports_.add(call.request.address, now_ms);
    }
    const std::string key = "cinq:imports:" + call.request.address + ":" + std::to_string(window);
    bus->shared_command({"INCR", key}, [this, address = call.request.address, window, own](std::optional<net::RedisReply> r) {
      if (!r || r->kind != net::RedisReply::Kind::integer) return;
      std::lock_guard lock(shared_imports_mutex_);
      shared_imports_.merged(address, window, own, r->integer);
    });
    bus->shared_command({"PEXPIRE", key, std::to_string(2 * shared_imports_.window_ms())}, {});
  }
  // Private unless asked: an imported game is listed in the lobby only with ?public=1.
  bool is_private = !(call.query["public"] == "1" || call.query["public"] == "true");
  if (call.query["private"] == "0" || call.query["private"] == "false") is_private = false;
  std::int64_t days = 3;
  if (call.query.count("days")) {
    const std::string& d = call.query["days"];
    days = d.size() == 1 || d.size() == 2 ? std::atoi(d.c_str()) : -1;
  }
  if (days < 1)
    return call.respond(error_response(400, "bad_clock", "days: 1, 2, 3, 5, 7 or 14 days per turn"));
  // Playing on from a position: `turns` cuts the record after that many turns; `bot` (a level) and `seat`
  // (the person's) make it a game against the computer, with no clock, the person's seat taken by its link.
  auto number = [&](const char* key, int low, int high) -> std::optional<int> {
    if (!call.query.count(key)) return std::nullopt;
    const std::string& v = call.query[key];
    if (v.empty() || v.size() > 6 || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return -1;
    const int n = std::atoi(v.c_str());
    return n < low || n > high ? -1 : n;
  };
  const std::optional<int> turns = number("turns", 0, 999999), bot = number("bot", 0, 5),
                           seat = number("seat", 0, 1);
  if (turns && *turns < 0) return call.respond(error_response(400, "bad_message", "turns: a number of turns (0 or more)"));
  if (bot && *bot < 0) return call.respond(error_response(400, "bad_message", "bot: a level from 0 to 5"));
  if (seat && *seat < 0) return call.respond(error_response(400, "bad_message", "seat: 0 or 1"));
  if (seat && !bot) return call.respond(error_response(400, "bad_message", "seat: the person's seat goes with bot"));
  if (bot && call.query.count("days"))
    return call.respond(error_response(400, "bad_message", "bot: a game against the computer has no days per turn"));
  auto job = [this, is_private, days, turns, bot, seat, body = std::move(call.request.body),
              respond = call.respond] {
    note_blocking(services_.metrics);
    if (blank(body)) return respond(blank_record_response());
    auto record = Record::read(body);
    if (!record) return respond(error_response(422, "bad_record", record.error().text(), record.error().line));
    if (record->incomplete())
      return respond(
          error_response(422, "bad_record", "the record stops at '...': its turns are not all written"));
    if (turns) {
      auto cut = lobby::record_until(*record, *turns);
      if (!cut) return respond(error_response(422, "bad_record", cut.error().message));
      record = std::move(cut);
    }
    std::array<lobby::Player, 2> seats;
    const int person = seat.value_or(0);
    if (bot) {
      if (record->finished())
        return respond(error_response(422, "bad_record", "bot: the game is over: give turns to play on from"));
      seats[1 - person] = bot_player(*bot);
    }
    lobby::Now now = Services::now();
    note_blocking(services_.metrics);
    auto room = lobby::Room::from_record(rooms_.new_room_id_checked(), *record, bot ? 0 : days, is_private, now,
                                         seats);
    if (!room) return respond(error_response(400, "bad_clock", room.error().message));
    json links = json::array();
    if (room->status() != lobby::Status::finished) {
      const auto issued = issue_seat_tokens(*room);
      for (int s = 0; s < 2; ++s) links.push_back(bot && s != person ? json(nullptr) : json(issued[s]));
      if (bot) {  // the bot's seat has no link
        room->set_seat_token_hash(1 - person, {});
        room->set_seat_token(1 - person, {});
      }
    }
    json answer = {{"room", room->id()}, {"links", links}, {"status", lobby::status_name(room->status())}};
    auto actor = rooms_.add(std::move(*room));
    actor->post([answer, respond](RoomActor& a) {
      a.save_then([answer, respond] { respond(json_response(201, answer)); },
                  [respond] { respond(storage_response()); });
    });
  };
  if (!workers_.submit(Workers::Kind::bulk, std::move(job))) call.respond(busy_response());
}

}  // namespace cinq::server
