// Correspondence over HTTP (docs/protocol.md, "Correspondence"; issue 9): a seat posts the game's log with
// its new turn appended and gets the canonical updated log back; a record is imported as a room. The seat
// is proven by its secret token in the query; the room checks and plays the log on its strand
// (lobby::Room::play_log), and the answer leaves only once the new turns are stored.
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>

#include "rules/notation.h"
#include "server/app.h"
#include "server/http_answers.h"

namespace cinq::server {

using nlohmann::json;

namespace {

net::HttpResponse text_answer(const std::string& text) {
  net::HttpResponse r;
  r.content_type = "text/plain; charset=utf-8";
  r.body = text;
  r.headers.emplace_back("Access-Control-Allow-Origin", "*");
  return r;
}

// The query's parameters (`?seat=0&token=Ab..`), percent-decoded; the last of a repeated name wins.
std::map<std::string, std::string> query_of(const std::string& target) {
  std::map<std::string, std::string> out;
  auto q = target.find('?');
  if (q == std::string::npos) return out;
  auto decode = [](std::string_view s) {
    std::string d;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '+') {
        d += ' ';
      } else if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
                 std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
        d += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
        i += 2;
      } else {
        d += s[i];
      }
    }
    return d;
  };
  std::string_view rest = std::string_view(target).substr(q + 1);
  while (!rest.empty()) {
    auto amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    auto eq = pair.find('=');
    out[decode(pair.substr(0, eq))] = eq == std::string_view::npos ? "" : decode(pair.substr(eq + 1));
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
  }
  return out;
}

// A refused log: the HTTP status its code stands for (docs/protocol.md).
int status_of(const std::string& code) {
  if (code == "bad_record") return 422;
  if (code == "bad_token" || code == "other_side") return 403;
  if (code == "bad_message") return 400;
  return 409;
}

}  // namespace

std::string seat_link(const std::string& room, int seat, const std::string& token) {
  return "/#/room/" + room + "?seat=" + std::to_string(seat) + "&token=" + token;
}

std::array<std::string, 2> App::issue_seat_tokens(lobby::Room& room) {
  std::array<std::string, 2> links;
  for (int s = 0; s < 2; ++s) {
    std::string token = random_id(32);
    room.set_seat_token_hash(s, token_hash(token));
    links[s] = seat_link(room.id(), s, token);
  }
  return links;
}

void App::post_record(const std::string& room_id, const net::HttpRequest& request,
                      std::function<void(net::HttpResponse)> respond) {
  auto query = query_of(request.target);
  int seat = query["seat"] == "0" ? 0 : query["seat"] == "1" ? 1 : -1;
  if (seat < 0)
    return respond(error_response(400, "bad_message", "give the seat (?seat=0 or ?seat=1) and its token"));
  const std::string& token = query["token"];
  if (token.empty() || token.size() > 64)
    return respond(error_response(403, "bad_token", "give the seat's token"));
  auto actor = find_room(room_id);
  if (!actor) return respond(error_response(404, "not_found", "no game '" + room_id + "'"));
  actor->post([this, seat, hash = token_hash(token), body = request.body, respond](RoomActor& a) {
    // Once settled: the log is compared with the record as stored, and the answer follows its own save.
    a.when_settled([this, &a, seat, hash, body, respond] {
      lobby::Room& room = a.room();
      if (room.seat_token_hash(seat).empty() || room.seat_token_hash(seat) != hash)
        return respond(
            error_response(403, "bad_token", "this is not seat " + std::to_string(seat) + "'s token"));
      lobby::Effect effect = room.play_log(seat, body, Services::now());
      std::optional<lobby::Failure> error = effect.error;
      effect.error.reset();
      bool played = !error && !effect.events.empty();
      if (played) ++services_.metrics.turns_accepted;
      if (error) {
        ++services_.metrics.turns_rejected;
        services_.metrics.count_error(error->code);
      }
      a.apply(std::move(effect), nullptr, {});  // the new turns, or a time forfeit found on the way
      a.when_settled([&a, error, respond] {
        if (error)
          return respond(error_response(status_of(error->code), error->code, error->message, error->line));
        respond(text_answer(a.room().record().write()));
      });
    });
  });
}

void App::import_game(const net::HttpRequest& request, std::function<void(net::HttpResponse)> respond) {
  auto query = query_of(request.target);
  bool is_private = query["private"] == "1" || query["private"] == "true";
  std::int64_t days = 3;
  if (query.count("days")) {
    const std::string& d = query["days"];
    days = d.size() == 1 || d.size() == 2 ? std::atoi(d.c_str()) : -1;
  }
  if (days < 1) return respond(error_response(400, "bad_clock", "days: 1, 2, 3, 5, 7 or 14 days per turn"));
  auto record = Record::read(request.body);
  if (!record) {
    return respond(error_response(422, "bad_record", record.error().text(), record.error().line));
  }
  if (record->incomplete())
    return respond(
        error_response(422, "bad_record", "the record stops at '...': its turns are not all written"));
  lobby::Now now = Services::now();
  auto room = lobby::Room::from_record(new_room_id(), *record, days, is_private, now);
  if (!room) return respond(error_response(400, "bad_clock", room.error().message));
  json links = json::array();
  if (room->status() != lobby::Status::finished)
    for (const auto& link : issue_seat_tokens(*room)) links.push_back(link);
  json answer = {{"room", room->id()}, {"links", links}, {"status", lobby::status_name(room->status())}};
  auto actor = add_room(std::move(*room));
  actor->post([answer, respond](RoomActor& a) {
    a.save_then([answer, respond] {
      net::HttpResponse r = json_response(201, answer);
      respond(r);
    });
  });
}

}  // namespace cinq::server
