// The messages clients send (docs/protocol.md): parsing, checking, and handing each to its room.
// A message that is refused gets one `error` to its sender and changes nothing.
#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>

#include "bots/bot.h"
#include "rules/registry.h"
#include "server/app.h"
#include "server/request.h"

namespace cinq::server {

using nlohmann::json;

namespace {

// Game options from a message: `"k=v k=v"`, or an object {"k": "v", "n": 3}.
std::optional<std::string> options_text(const json& body, std::string& why) {
  auto it = body.find("options");
  if (it == body.end() || it->is_null()) return std::string();
  if (it->is_string()) return it->get<std::string>();
  if (!it->is_object()) {
    why = "field 'options' must be a string (\"key=value ...\") or an object";
    return std::nullopt;
  }
  std::string out;
  for (const auto& [k, v] : it->items()) {
    std::string value;
    if (v.is_string())
      value = v.get<std::string>();
    else if (v.is_number_integer())
      value = std::to_string(v.get<std::int64_t>());
    else {
      why = "option '" + k + "' must be a string or an integer";
      return std::nullopt;
    }
    out += (out.empty() ? "" : " ") + k + "=" + value;
  }
  return out;
}

std::optional<lobby::ClockSpec> clock_of(const json& body, std::string& why) {
  auto it = body.find("clock");
  if (it == body.end() || it->is_null()) return lobby::ClockSpec{};
  if (!it->is_object()) {
    why = "field 'clock' must be null, {\"base_ms\": N, \"increment_ms\": N} or {\"days\": N}";
    return std::nullopt;
  }
  lobby::ClockSpec c;
  for (auto [key, out] : {std::pair{"base_ms", &c.base_ms}, std::pair{"increment_ms", &c.increment_ms},
                          std::pair{"days", &c.days}}) {
    auto f = it->find(key);
    if (f == it->end()) continue;
    if (!f->is_number_integer()) {
      why = std::string("clock.") + key + " must be an integer";
      return std::nullopt;
    }
    *out = f->get<std::int64_t>();
  }
  return c;
}

// Checks a game, its options and clock as Room::create would, telling which part is wrong.
struct GameRequest {
  const Game* game = nullptr;
  std::string options;  // canonical
  lobby::ClockSpec clock;
};

std::optional<GameRequest> game_request(const json& body, std::string& code, std::string& why) {
  GameRequest g;
  auto name = body.find("game");
  if (name == body.end() || !name->is_string()) {
    code = "bad_message";
    why = "field 'game' must be a game name (" + game_names() + ")";
    return std::nullopt;
  }
  g.game = find_game(name->get<std::string>());
  if (!g.game) {
    code = "unknown_game";
    why = "unknown game '" + name->get<std::string>() + "' (" + game_names() + ")";
    return std::nullopt;
  }
  auto text = options_text(body, why);
  if (!text) return code = "bad_message", std::nullopt;
  auto options = Options::parse_text(g.game->option_specs(), *text);
  if (!options) {
    code = "bad_options";
    why = options.error().message;
    return std::nullopt;
  }
  g.options = options->text();
  auto clock = clock_of(body, why);
  if (!clock) return code = "bad_message", std::nullopt;
  g.clock = *clock;
  if (auto bad = lobby::check_clock(g.clock)) {
    code = bad->code;
    why = bad->message;
    return std::nullopt;
  }
  return g;
}

// The computer opponents a `create` asks for: `bot` (a level: the bot takes the seat the creator does not)
// or `bots` (two levels, seats 0 and 1: nobody else sits). Nothing, or an error for `bad_message`.
struct BotRequest {
  std::array<std::optional<int>, 2> levels;  // `bot`: [level, nullopt]; `bots`: both
  bool any() const { return levels[0].has_value(); }
};

std::optional<BotRequest> bot_request(const json& body, bool seat_given, bool correspondence,
                                      std::string& why) {
  auto level_of = [](const json& v) -> std::optional<int> {
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > bots::kMaxLevel)
      return std::nullopt;
    return v.get<int>();
  };
  const std::string levels = "a level from 0 (random play) to " + std::to_string(bots::kMaxLevel);
  BotRequest out;
  auto bot = body.find("bot");
  auto two = body.find("bots");
  const bool has_bot = bot != body.end() && !bot->is_null();
  const bool has_two = two != body.end() && !two->is_null();
  if (has_bot && has_two)
    return why = "give 'bot' (one computer opponent) or 'bots' (two), not both", std::nullopt;
  if (has_bot) {
    out.levels[0] = level_of(*bot);
    if (!out.levels[0]) return why = "field 'bot' must be " + levels, std::nullopt;
  }
  if (has_two) {
    if (!two->is_array() || two->size() != 2 || !level_of((*two)[0]) || !level_of((*two)[1]))
      return why = "field 'bots' must be two levels [L0, L1], each " + levels, std::nullopt;
    if (seat_given) return why = "a room of two bots has no seat for you: leave 'seat' out", std::nullopt;
    out.levels = {level_of((*two)[0]), level_of((*two)[1])};
  }
  if (out.any() && correspondence)
    return why = "computer opponents play live: no correspondence clock with 'bot' or 'bots'", std::nullopt;
  return out;
}

int random_seat() {
  static thread_local std::mt19937 rng{std::random_device{}()};
  return static_cast<int>(rng() & 1);
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------

void App::on_message(const std::shared_ptr<net::Connection>& c, std::string text) {
  if (!admit(c, text.size())) return;
  Request r;
  r.connection = c;
  r.received = std::chrono::steady_clock::now();
  r.body = json::parse(text, nullptr, false);
  if (r.body.is_discarded()) return reply_error(c, "bad_json", "the message is not valid JSON");
  if (!r.body.is_object()) return reply_error(c, "bad_json", "a message is one JSON object");
  if (auto ref = r.body.find("ref"); ref != r.body.end() && (ref->is_string() || ref->is_number_integer()))
    r.ref = ref->dump();
  auto type = r.body.find("type");
  if (type == r.body.end() || !type->is_string())
    return reply_error(c, "bad_message", "field 'type' must be a string", r.ref);
  r.type = type->get<std::string>();
  r.player = player_of(c->id());
  dispatch(c, r);
}

void App::dispatch(const std::shared_ptr<net::Connection>& c, Request& r) {
  if (r.type == "ping")
    return c->send(json{{"type", "pong"}, {"ref", r.ref.empty() ? json() : json::parse(r.ref)}}.dump());
  if (r.type == "hello") return on_hello(r);
  static const std::set<std::string> kKnown = {"name",    "create", "join",   "sit",          "leave",
                                               "act",     "resign", "draw",   "decline_draw", "abort",
                                               "rematch", "seek",   "unseek", "rooms",        "my_games"};
  if (!kKnown.count(r.type))
    return reply_error(c, "unknown_type", "unknown message type '" + r.type + "'", r.ref);
  if (!r.player) return reply_error(c, "hello_required", "send 'hello' first", r.ref);
  if (r.type == "name") return on_name(r);
  if (r.type == "create") return on_create(r);
  if (r.type == "join") return on_join(r);
  if (r.type == "sit") return on_sit(r);
  if (r.type == "leave") return on_leave(r);
  if (r.type == "act") return on_act(r);
  if (r.type == "seek") return on_seek(r);
  if (r.type == "unseek") return on_unseek(r);
  if (r.type == "rooms") return on_rooms(r);
  if (r.type == "my_games") return on_my_games(r);
  on_room_command(r);
}

// The room a message names, or an error to its sender.
#define CINQ_ROOM_OR_RETURN(r, actor, room_id)                                   \
  std::string why;                                                               \
  auto room_id = (r).string_field("room", why);                                  \
  if (!room_id) return reply_error((r).connection, "bad_message", why, (r).ref); \
  auto actor = find_room(*room_id);                                              \
  if (!actor) return reply_error((r).connection, "no_room", "no room '" + *room_id + "'", (r).ref, *room_id)

void App::on_create(Request& r) {
  std::string code, why;
  auto g = game_request(r.body, code, why);
  if (!g) return reply_error(r.connection, code, why, r.ref);
  std::optional<int> seat;
  if (auto s = r.body.find("seat"); s != r.body.end() && !s->is_null()) {
    if (!s->is_number_integer() || (*s != 0 && *s != 1))
      return reply_error(r.connection, "bad_message", "field 'seat' must be 0, 1 or null (random)", r.ref);
    seat = s->get<int>();
  }
  bool is_private = false;
  if (auto p = r.body.find("private"); p != r.body.end() && !p->is_null()) {
    if (!p->is_boolean())
      return reply_error(r.connection, "bad_message", "field 'private' must be true or false", r.ref);
    is_private = p->get<bool>();
  }
  auto bots = bot_request(r.body, seat.has_value(), g->clock.correspondence(), why);
  if (!bots) return reply_error(r.connection, "bad_message", why, r.ref);
  lobby::RoomConfig config{new_room_id(), g->game, g->options, g->clock, is_private, {}};
  auto room = lobby::Room::create(config, Services::now());
  if (!room) return reply_error(r.connection, "bad_options", room.error().message, r.ref);
  if (bots->any()) return create_bot_room(r, std::move(*room), bots->levels, seat);
  // A correspondence room's seat links go to its creator only, in the creator's state: never broadcast.
  std::shared_ptr<const json> extra;
  if (g->clock.correspondence()) {
    auto links = issue_seat_tokens(*room);
    extra = std::make_shared<const json>(json{{"links", {links[0], links[1]}}});
  }
  auto actor = add_room(std::move(*room));
  remember_room(r.connection->id(), actor->id());
  actor->post([c = r.connection, player = *r.player, seat = seat.value_or(random_seat()), ref = r.ref,
               extra](RoomActor& a) {
    a.apply(a.room().sit(player, seat, Services::now()), c, ref);
    a.subscribe(c, player.id, std::nullopt, extra);
  });
}

// A room with computer opponents (docs/protocol.md, "Lobby"): the creator's seat and the bot's, or two bots
// and the creator watching. Both seats are taken at once: the game starts, and the bot to move is asked.
void App::create_bot_room(Request& r, lobby::Room room, std::array<std::optional<int>, 2> levels,
                          std::optional<int> seat) {
  if (levels[1]) {
    std::lock_guard lock(rooms_mutex_);
    auto& mine = bot_rooms_of_[r.player->id];
    std::erase_if(mine, [](const std::weak_ptr<RoomActor>& w) {
      auto a = w.lock();
      return !a || a->listing().status == lobby::Status::finished;
    });
    if (mine.size() >= kMaxWatchedBotRooms)
      return reply_error(r.connection, "too_many_rooms",
                         "you already have " + std::to_string(kMaxWatchedBotRooms) +
                             " computer-vs-computer games going: wait for one to end",
                         r.ref);
  }
  auto actor = add_room(std::move(room));
  if (levels[1]) {
    std::lock_guard lock(rooms_mutex_);
    bot_rooms_of_[r.player->id].push_back(actor);
  }
  remember_room(r.connection->id(), actor->id());
  std::array<std::optional<lobby::Player>, 2> sitters;
  if (levels[1]) {
    sitters = {bot_player(*levels[0], 0), bot_player(*levels[1], 1)};
  } else {
    int mine = seat.value_or(random_seat());
    sitters[mine] = *r.player;
    sitters[1 - mine] = bot_player(*levels[0]);
  }
  actor->post([c = r.connection, pid = r.player->id, sitters, ref = r.ref](RoomActor& a) {
    for (int s = 0; s < 2; ++s) a.apply(a.room().sit(*sitters[s], s, Services::now()), c, ref);
    a.subscribe(c, pid, std::nullopt);
  });
}

void App::on_join(Request& r) {
  CINQ_ROOM_OR_RETURN(r, actor, room_id);
  std::optional<std::int64_t> since;
  if (auto s = r.body.find("since"); s != r.body.end() && !s->is_null()) {
    if (!s->is_number_integer())
      return reply_error(r.connection, "bad_message", "field 'since' must be an integer", r.ref);
    since = s->get<std::int64_t>();
  }
  remember_room(r.connection->id(), actor->id());
  actor->post([c = r.connection, pid = r.player->id, since](RoomActor& a) { a.subscribe(c, pid, since); });
}

void App::on_sit(Request& r) {
  CINQ_ROOM_OR_RETURN(r, actor, room_id);
  std::optional<int> seat;
  if (auto s = r.body.find("seat"); s != r.body.end() && !s->is_null()) {
    if (!s->is_number_integer() || (*s != 0 && *s != 1))
      return reply_error(r.connection, "bad_message", "field 'seat' must be 0, 1 or null (any)", r.ref);
    seat = s->get<int>();
  }
  auto seat_token = r.string_field("seat_token", why, false);
  if (!why.empty()) return reply_error(r.connection, "bad_message", why, r.ref);
  if (seat_token && !seat)
    return reply_error(r.connection, "bad_message", "a seat_token needs its 'seat' (0 or 1)", r.ref);
  remember_room(r.connection->id(), actor->id());
  actor->post([c = r.connection, player = *r.player, seat, seat_token, ref = r.ref](RoomActor& a) {
    lobby::Room& room = a.room();
    lobby::Now now = Services::now();
    auto effect = seat_token ? room.claim_seat(player, *seat, token_hash(*seat_token), now)
                             : room.sit(player, seat, now);
    bool ok = !effect.error;
    // Taking a correspondence seat from the lobby (without its link) gives the seat a new token, told to the
    // one who sat only: an earlier link to that seat stops working.
    std::string link_message;
    if (ok && !seat_token && room.config().clock.correspondence()) {
      int s = room.seat_of(player.id);
      std::string token = random_id(32);
      room.set_seat_token_hash(s, token_hash(token));
      link_message = json{{"type", "seat_link"},
                          {"room", room.id()},
                          {"seat", s},
                          {"link", seat_link(room.id(), s, token)}}
                         .dump();
    }
    a.apply(std::move(effect), c, ref);
    if (!ok) return;
    if (!link_message.empty()) a.when_settled([c, link_message] { c->send(link_message); });
    if (a.is_subscribed(c->id()))
      a.refresh_presence();  // a spectator who sat down is now a player online
    else
      a.subscribe(c, player.id, std::nullopt);  // sitting is joining
  });
}

void App::on_leave(Request& r) {
  CINQ_ROOM_OR_RETURN(r, actor, room_id);
  {
    std::lock_guard lock(clients_mutex_);
    if (auto it = clients_.find(r.connection->id()); it != clients_.end()) it->second.rooms.erase(*room_id);
  }
  actor->post([c = r.connection, pid = r.player->id, ref = r.ref](RoomActor& a) {
    a.apply(a.room().leave(pid, Services::now()), c, ref);
    a.unsubscribe(c->id());
    c->send(json{{"type", "left"}, {"room", a.id()}}.dump());
  });
}

void App::on_act(Request& r) {
  CINQ_ROOM_OR_RETURN(r, actor, room_id);
  std::vector<std::string> items;
  auto actions = r.body.find("actions");
  if (actions != r.body.end() && !actions->is_null()) {
    if (!actions->is_array() || actions->size() > 16)
      return reply_error(r.connection, "bad_message", "field 'actions' must be an array of at most 16 texts",
                         r.ref);
    for (const auto& a : *actions) {
      if (!a.is_string() || a.get<std::string>().size() > 200)
        return reply_error(r.connection, "bad_message", "each action must be a text of at most 200 bytes",
                           r.ref);
      items.push_back(a.get<std::string>());
    }
  }
  bool end_turn = false;
  if (auto e = r.body.find("end_turn"); e != r.body.end() && !e->is_null()) {
    if (!e->is_boolean())
      return reply_error(r.connection, "bad_message", "field 'end_turn' must be true or false", r.ref);
    end_turn = e->get<bool>();
  }
  actor->post([this, c = r.connection, pid = r.player->id, items = std::move(items), end_turn, ref = r.ref,
               received = r.received](RoomActor& a) {
    auto effect = a.room().act(pid, items, end_turn, Services::now());
    bool accepted = !effect.error;
    ++(accepted ? services_.metrics.turns_accepted : services_.metrics.turns_rejected);
    a.apply(std::move(effect), c, ref, accepted ? std::optional(received) : std::nullopt);
  });
}

void App::on_room_command(Request& r) {
  CINQ_ROOM_OR_RETURN(r, actor, room_id);
  actor->post([c = r.connection, pid = r.player->id, type = r.type, ref = r.ref](RoomActor& a) {
    lobby::Room& room = a.room();
    lobby::Now now = Services::now();
    lobby::Effect e = type == "resign"         ? room.resign(pid, now)
                      : type == "draw"         ? room.offer_draw(pid, now)
                      : type == "decline_draw" ? room.decline_draw(pid, now)
                      : type == "abort"        ? room.abort(pid, now)
                                               : room.ask_rematch(pid, now);
    a.apply(std::move(e), c, ref);
  });
}

void App::on_seek(Request& r) {
  std::string code, why;
  auto g = game_request(r.body, code, why);
  if (!g) return reply_error(r.connection, code, why, r.ref);
  lobby::Seek seek{*r.player,  r.connection->id(), std::string(g->game->name()),
                   g->options, g->clock,           Services::now().unix_ms};
  std::optional<lobby::Seek> other;
  {
    std::lock_guard lock(seeks_mutex_);
    other = seeks_.add(seek);
  }
  json game_json = {{"game", seek.game}, {"options", seek.options}, {"clock", lobby::clock_json(g->clock)}};
  if (!other) {
    json m = game_json;
    m["type"] = "seeking";
    return r.connection->send(m.dump());
  }
  // Paired: a room with both seated (sides drawn at random); each player is told, and joins.
  std::shared_ptr<net::Connection> other_connection;
  {
    std::lock_guard lock(clients_mutex_);
    if (auto it = clients_.find(other->connection); it != clients_.end())
      other_connection = it->second.connection.lock();
  }
  lobby::Now now = Services::now();
  lobby::RoomConfig config{new_room_id(), g->game, g->options, g->clock, false, {}};
  auto room = lobby::Room::create(config, now);
  if (!room) return reply_error(r.connection, "bad_options", room.error().message, r.ref);
  int first = random_seat();
  (void)room->sit(other->player, first, now);
  (void)room->sit(*r.player, 1 - first, now);
  auto actor = add_room(std::move(*room));
  json m = game_json;
  m["type"] = "paired";
  m["room"] = actor->id();
  auto message = std::make_shared<const std::string>(m.dump());
  actor->post([c = r.connection, other_connection, message](RoomActor& a) {
    a.save_then([c, other_connection, message] {
      c->send(message);
      if (other_connection) other_connection->send(message);
    });
  });
}

void App::on_unseek(Request& r) {
  int n = 0;
  {
    std::lock_guard lock(seeks_mutex_);
    n = seeks_.remove_player(r.player->id);
  }
  r.connection->send(json{{"type", "unseeked"}, {"count", n}}.dump());
}

void App::on_rooms(Request& r) {
  json seeks = json::array();
  {
    std::lock_guard lock(seeks_mutex_);
    for (const auto& s : seeks_.seeks())
      seeks.push_back({{"game", s.game},
                       {"options", s.options},
                       {"clock", lobby::clock_json(s.clock)},
                       {"name", s.player.name}});
  }
  r.connection->send(json{{"type", "rooms"}, {"rooms", room_list()}, {"seeks", seeks}}.dump());
}

// The player's games, from the store (on its thread): unfinished ones first, those where it is the player's
// turn before the others, nearest deadline first; then the finished ones, newest first.
void App::on_my_games(Request& r) {
  bool posted = services_.writer->post([this, c = r.connection, pid = r.player->id] {
    std::vector<store::GameRow> rows = services_.store->games_of_player(pid, 50);
    std::vector<json> games;
    for (const auto& row : rows) {
      json summary;
      std::shared_ptr<RoomActor> actor;
      if (row.status != "finished") {
        std::lock_guard lock(rooms_mutex_);
        if (auto it = rooms_.find(row.id); it != rooms_.end()) actor = it->second;
      }
      if (actor) {
        summary = actor->listing().summary;
      } else {
        auto room = lobby::Room::restore(from_row(row), Services::now());
        if (!room) continue;
        summary = room->summary(Services::now());
      }
      int seat = row.seat_ids[0] == pid ? 0 : 1;
      summary["my_seat"] = seat;
      summary["my_turn"] = summary.value("to_move", json()) == json(seat);
      games.push_back(std::move(summary));
    }
    std::stable_sort(games.begin(), games.end(), [](const json& x, const json& y) {
      auto rank = [](const json& g) {
        return g["status"] == "finished" ? 2 : g["my_turn"].get<bool>() ? 0 : 1;
      };
      if (rank(x) != rank(y)) return rank(x) < rank(y);
      if (rank(x) == 2) return false;  // the store's order: newest first
      auto deadline = [](const json& g) {
        return g["deadline_ms"].is_number() ? g["deadline_ms"].get<std::int64_t>() : INT64_MAX;
      };
      return deadline(x) < deadline(y);
    });
    c->send(json{{"type", "my_games"}, {"games", games}}.dump());
  });
  if (!posted) reply_error(r.connection, "storage", "the server is shutting down", r.ref);
}

}  // namespace cinq::server
