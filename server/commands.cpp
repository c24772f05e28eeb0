// The messages clients send (docs/protocol.md), as one table of typed commands. Each message type has a
// struct for its fields with one parse function that checks them, a flag saying whether it needs `hello`,
// and its handler; commands that name a room get the room found (or loaded from the store, off the network
// thread) before their handler runs. A message that is refused gets one `error` to its sender and changes
// nothing.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <random>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

#include "bots/bot.h"
#include "rules/registry.h"
#include "server/bot_runner.h"
#include "server/room_bus.h"
#include "ratings/glicko2.h"
#include "server/account_mail.h"
#include "server/accounts.h"
#include "server/identity.h"
#include "server/mail_sender.h"
#include "server/postman.h"
#include "server/request.h"
#include "server/room_actor.h"
#include "server/rooms.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server {

using nlohmann::json;

namespace {

template <class T>
using Parsed = std::variant<T, Refusal>;

Refusal bad_message(std::string why) { return {"bad_message", std::move(why)}; }

const std::string kBusy = "the server is busy or cannot reach its store: try again in a moment";

// A string field: nullopt when absent (`why` set if it is `required`) or of the wrong shape (`why` set).
std::optional<std::string> string_field(const json& body, const char* key, std::string& why,
                                        bool required = true) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) {
    if (required) why = std::string("field '") + key + "' is missing";
    return std::nullopt;
  }
  if (!it->is_string()) {
    why = std::string("field '") + key + "' must be a string";
    return std::nullopt;
  }
  return it->get<std::string>();
}

// The room a command names.
std::optional<Refusal> room_field(const json& body, std::string& room) {
  std::string why;
  auto id = string_field(body, "room", why);
  if (!id) return bad_message(why);
  room = std::move(*id);
  return std::nullopt;
}

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

// A clock from a message: null or absent for none. An object is a clock: it names only base_ms,
// increment_ms and days, and describes a running one (docs/protocol.md): {"days": 0}, {"base_ms": 0} or {}
// are refused with bad_clock rather than read as "no clock" (issue 17).
std::optional<lobby::ClockSpec> clock_of(const json& body, Refusal& refusal) {
  auto it = body.find("clock");
  if (it == body.end() || it->is_null()) return lobby::ClockSpec{};
  if (!it->is_object()) {
    refusal = {"bad_message", "field 'clock' must be null, {\"base_ms\": N, \"increment_ms\": N} or {\"days\": N}"};
    return std::nullopt;
  }
  lobby::ClockSpec c;
  for (const auto& [key, value] : it->items()) {
    std::int64_t* out = key == "base_ms" ? &c.base_ms : key == "increment_ms" ? &c.increment_ms
                      : key == "days"    ? &c.days
                                         : nullptr;
    if (!out) {
      refusal = {"bad_clock", "a clock has base_ms and increment_ms, or days: no member '" + key +
                                  "' (null: no clock)"};
      return std::nullopt;
    }
    if (!value.is_number_integer()) {
      refusal = {"bad_message", "clock." + key + " must be an integer"};
      return std::nullopt;
    }
    *out = value.get<std::int64_t>();
  }
  if (it->contains("days") ? c.days == 0 : c.base_ms == 0) {
    refusal = {"bad_clock", it->contains("days") ? "a correspondence clock gives 1, 2, 3, 5, 7 or 14 days per turn"
                                                 : "a live clock needs base_ms (at least 10000); null: no clock"};
    return std::nullopt;
  }
  return c;
}

// A game, its options and clock, checked as Room::create would, telling which part is wrong.
struct GameRequest {
  const Game* game = nullptr;
  std::string options;  // canonical
  lobby::ClockSpec clock;

  static Parsed<GameRequest> parse(const json& body) {
    GameRequest g;
    auto name = body.find("game");
    if (name == body.end() || !name->is_string())
      return bad_message("field 'game' must be a game name (" + game_names() + ")");
    g.game = find_game(name->get<std::string>());
    if (!g.game)
      return Refusal{"unknown_game", "unknown game '" + name->get<std::string>() + "' (" + game_names() + ")"};
    std::string why;
    auto text = options_text(body, why);
    if (!text) return bad_message(why);
    auto options = Options::parse_text(g.game->option_specs(), *text);
    if (!options) return Refusal{"bad_options", options.error().message};
    g.options = options->text();
    Refusal clock_refusal;
    auto clock = clock_of(body, clock_refusal);
    if (!clock) return clock_refusal;
    g.clock = *clock;
    if (auto bad = lobby::check_clock(g.clock)) return Refusal{bad->code, bad->message};
    return g;
  }
};

// The computer opponents a `create` asks for: `bot` (a level: the bot takes the seat the creator does not)
// or `bots` (two levels, seats 0 and 1: nobody else sits). Nothing, or why not (for `bad_message`).
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

// A seat number: 0, 1, or null/absent.
std::optional<Refusal> seat_field(const json& body, std::optional<int>& seat, const char* null_means) {
  auto s = body.find("seat");
  if (s == body.end() || s->is_null()) return std::nullopt;
  if (!s->is_number_integer() || (*s != 0 && *s != 1))
    return bad_message(std::string("field 'seat' must be 0, 1 or null (") + null_means + ")");
  seat = s->get<int>();
  return std::nullopt;
}

int random_seat() {
  static thread_local std::mt19937 rng{std::random_device{}()};
  return static_cast<int>(rng() & 1);
}

json ref_json(const std::string& ref) { return ref.empty() ? json() : json::parse(ref); }

// ---------------------------------------------------------------------------------------------------------
// The commands' fields

struct Ping {
  static Parsed<Ping> parse(const json&) { return Ping{}; }
};

struct Hello {
  std::optional<std::string> id, token, name;
  static Parsed<Hello> parse(const json& body) {
    Hello h;
    std::string why;
    h.id = string_field(body, "id", why, false);
    h.token = string_field(body, "token", why, false);
    h.name = string_field(body, "name", why, false);
    if (!why.empty()) return bad_message(why);
    if (h.name) {
      h.name = clean_name(*h.name, why);
      if (!h.name) return Refusal{"bad_name", why};
    }
    return h;
  }
};

struct Name {
  std::string name;
  static Parsed<Name> parse(const json& body) {
    std::string why;
    auto name = string_field(body, "name", why);
    if (!name) return bad_message(why);
    auto clean = clean_name(*name, why);
    if (!clean) return Refusal{"bad_name", why};
    return Name{*clean};
  }
};

// A boolean field: false when absent or null.
std::optional<Refusal> bool_field(const json& body, const char* key, bool& out) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_boolean()) return bad_message(std::string("field '") + key + "' must be true or false");
  out = it->get<bool>();
  return std::nullopt;
}

struct Credentials {
  std::string username, password;
  static Parsed<Credentials> parse(const json& body) {
    std::string why;
    auto username = string_field(body, "username", why);
    auto password = string_field(body, "password", why);
    if (!username || !password) return bad_message(why);
    return Credentials{*username, *password};
  }
};

struct Register : Credentials {
  static Parsed<Register> parse(const json& body) {
    auto c = Credentials::parse(body);
    if (auto* r = std::get_if<Refusal>(&c)) return *r;
    Register out{std::get<Credentials>(c)};
    std::string why;
    if (!check_username(out.username, why)) return Refusal{"bad_username", why};
    if (!check_password(out.password, why)) return Refusal{"bad_password", why};
    return out;
  }
};

struct ChangePassword {
  std::string old_password, new_password;
  static Parsed<ChangePassword> parse(const json& body) {
    std::string why;
    auto old_password = string_field(body, "old", why);
    auto new_password = string_field(body, "new", why);
    if (!old_password || !new_password) return bad_message(why);
    if (!check_password(*new_password, why)) return Refusal{"bad_password", why};
    return ChangePassword{*old_password, *new_password};
  }
};

struct Logout {
  static Parsed<Logout> parse(const json&) { return Logout{}; }
};

struct MailSettings {
  static Parsed<MailSettings> parse(const json&) { return MailSettings{}; }
};
struct SetMail {
  AccountMailChange change;
  static Parsed<SetMail> parse(const json& body) {
    std::string why;
    auto c = AccountMailChange::parse(body, why);
    if (!c) return bad_message(why);
    return SetMail{*c};
  }
};

struct Create {
  GameRequest game;
  std::optional<int> seat;
  bool is_private = false;
  bool rated = false;
  BotRequest bots;
  static Parsed<Create> parse(const json& body) {
    Create c;
    auto g = GameRequest::parse(body);
    if (auto* r = std::get_if<Refusal>(&g)) return *r;
    c.game = std::get<GameRequest>(g);
    if (auto r = seat_field(body, c.seat, "random")) return *r;
    if (auto r = bool_field(body, "private", c.is_private)) return *r;
    if (auto r = bool_field(body, "rated", c.rated)) return *r;
    std::string why;
    auto bots = bot_request(body, c.seat.has_value(), c.game.clock.correspondence(), why);
    if (!bots) return bad_message(why);
    c.bots = *bots;
    if (c.rated && c.bots.any()) return Refusal{"cannot_rate", "games against the computer are never rated"};
    return c;
  }
};

struct Join {
  std::string room;
  std::optional<lobby::Since> since;  // with the epoch the client counts in, when it says it
  static Parsed<Join> parse(const json& body) {
    Join j;
    if (auto r = room_field(body, j.room)) return *r;
    if (auto s = body.find("since"); s != body.end() && !s->is_null()) {
      if (!s->is_number_integer()) return bad_message("field 'since' must be an integer");
      j.since = lobby::Since{s->get<std::int64_t>()};
      if (auto e = body.find("epoch"); e != body.end() && !e->is_null()) {
        if (!e->is_number_integer()) return bad_message("field 'epoch' must be an integer");
        j.since->epoch = e->get<std::int64_t>();
      }
    }
    return j;
  }
};

struct Sit {
  std::string room;
  std::optional<int> seat;
  std::optional<std::string> seat_token;
  static Parsed<Sit> parse(const json& body) {
    Sit s;
    if (auto r = room_field(body, s.room)) return *r;
    if (auto r = seat_field(body, s.seat, "any")) return *r;
    std::string why;
    s.seat_token = string_field(body, "seat_token", why, false);
    if (!why.empty()) return bad_message(why);
    if (s.seat_token && !s.seat) return bad_message("a seat_token needs its 'seat' (0 or 1)");
    return s;
  }
};

struct Act {
  std::string room;
  std::vector<std::string> actions;
  bool end_turn = false;
  static Parsed<Act> parse(const json& body) {
    Act a;
    if (auto r = room_field(body, a.room)) return *r;
    auto actions = body.find("actions");
    if (actions != body.end() && !actions->is_null()) {
      if (!actions->is_array() || actions->size() > 16)
        return bad_message("field 'actions' must be an array of at most 16 texts");
      for (const auto& item : *actions) {
        if (!item.is_string() || item.get<std::string>().size() > 200)
          return bad_message("each action must be a text of at most 200 bytes");
        a.actions.push_back(item.get<std::string>());
      }
    }
    if (auto e = body.find("end_turn"); e != body.end() && !e->is_null()) {
      if (!e->is_boolean()) return bad_message("field 'end_turn' must be true or false");
      a.end_turn = e->get<bool>();
    }
    return a;
  }
};

// leave, resign, draw, decline_draw, abort, rematch: the room alone.
struct InRoom {
  std::string room;
  static Parsed<InRoom> parse(const json& body) {
    InRoom c;
    if (auto r = room_field(body, c.room)) return *r;
    return c;
  }
};

struct Chat {
  std::string room;
  std::string text;
  static Parsed<Chat> parse(const json& body) {
    Chat c;
    if (auto r = room_field(body, c.room)) return *r;
    std::string why;
    auto text = string_field(body, "text", why);
    if (!text) return bad_message(why);
    c.text = std::move(*text);
    return c;
  }
};

struct Seek {
  GameRequest game;
  bool rated = false;
  std::optional<std::array<double, 2>> range;  // the opponent's rating: [min, max]
  static Parsed<Seek> parse(const json& body) {
    auto g = GameRequest::parse(body);
    if (auto* r = std::get_if<Refusal>(&g)) return *r;
    Seek s{std::get<GameRequest>(g)};
    if (auto r = bool_field(body, "rated", s.rated)) return *r;
    if (auto it = body.find("rating_range"); it != body.end() && !it->is_null()) {
      if (!it->is_array() || it->size() != 2 || !(*it)[0].is_number() || !(*it)[1].is_number() ||
          (*it)[0].get<double>() > (*it)[1].get<double>())
        return bad_message("field 'rating_range' must be [MIN, MAX], MIN at most MAX");
      s.range = std::array<double, 2>{(*it)[0].get<double>(), (*it)[1].get<double>()};
    }
    return s;
  }
};

struct Unseek {
  static Parsed<Unseek> parse(const json&) { return Unseek{}; }
};
struct Rooms {
  static Parsed<Rooms> parse(const json&) { return Rooms{}; }
};
struct MyGames {
  static Parsed<MyGames> parse(const json&) { return MyGames{}; }
};

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// The handlers and the table

struct Commands {
  using RoomPtr = std::shared_ptr<RoomActor>;
  // Commands whose answer is the room's state (a forwarded one of these is a join for the cluster's relay).
  template <class C>
  static constexpr bool kSubscribes = std::is_same_v<C, Join> || std::is_same_v<C, Sit>;
  using Run = void (*)(Protocol&, Context&, const json&);
  struct Command {
    bool needs_hello = true;
    Run run = nullptr;
  };

  static const std::unordered_map<std::string_view, Command>& table() {
    static const std::unordered_map<std::string_view, Command> kTable = {
        {"ping", {false, &plain<Ping, &on_ping>}},
        {"hello", {false, &plain<Hello, &on_hello>}},
        {"name", {true, &plain<Name, &on_name>}},
        {"register", {true, &plain<Register, &on_register>}},
        {"login", {false, &plain<Credentials, &on_login>}},
        {"logout", {true, &plain<Logout, &on_logout>}},
        {"logout_all", {true, &plain<Logout, &on_logout_all>}},
        {"change_password", {true, &plain<ChangePassword, &on_change_password>}},
        {"mail_settings", {true, &plain<MailSettings, &on_mail_settings>}},
        {"set_mail", {true, &plain<SetMail, &on_set_mail>}},
        {"create", {true, &plain<Create, &on_create>}},
        {"join", {true, &in_room<Join, &on_join>}},
        {"sit", {true, &in_room<Sit, &on_sit>}},
        {"leave", {true, &in_room<InRoom, &on_leave>}},
        {"act", {true, &in_room<Act, &on_act>}},
        {"resign", {true, &in_room<InRoom, &on_room_command<&lobby::Room::resign>>}},
        {"draw", {true, &in_room<InRoom, &on_room_command<&lobby::Room::offer_draw>>}},
        {"decline_draw", {true, &in_room<InRoom, &on_room_command<&lobby::Room::decline_draw>>}},
        {"abort", {true, &in_room<InRoom, &on_room_command<&lobby::Room::abort>>}},
        {"try", {true, &in_room<Act, &on_try>}},
        {"takeback", {true, &in_room<InRoom, &on_room_command<&lobby::Room::take_back>>}},
        {"decline_takeback", {true, &in_room<InRoom, &on_room_command<&lobby::Room::decline_takeback>>}},
        {"chat", {true, &in_room<Chat, &on_chat>}},
        {"rematch", {true, &in_room<InRoom, &on_room_command<&lobby::Room::ask_rematch>>}},
        {"seek", {true, &plain<Seek, &on_seek>}},
        {"unseek", {true, &plain<Unseek, &on_unseek>}},
        {"rooms", {true, &plain<Rooms, &on_rooms>}},
        {"my_games", {true, &plain<MyGames, &on_my_games>}},
    };
    return kTable;
  }

  static void run(Protocol& p, Context& ctx, const std::string& type, const json& body) {
    const auto& t = table();
    auto it = t.find(type);
    if (it == t.end()) return p.reply_error(ctx, "unknown_type", "unknown message type '" + type + "'");
    if (it->second.needs_hello && !ctx.player) return p.reply_error(ctx, "hello_required", "send 'hello' first");
    it->second.run(p, ctx, body);
  }

  // A command of its fields alone.
  template <class C, void (*Handle)(Protocol&, Context&, C&)>
  static void plain(Protocol& p, Context& ctx, const json& body) {
    Parsed<C> parsed = C::parse(body);
    if (auto* r = std::get_if<Refusal>(&parsed)) return p.reply_error(ctx, r->code, r->message);
    Handle(p, ctx, std::get<C>(parsed));
  }

  // A command on a room: the room in memory, or loaded from the store on a worker (the connection's later
  // messages wait meanwhile); `no_room` if there is none. With several nodes (server/cluster.h): a room
  // another node owns gets the message forwarded there; a message forwarded here for a room this node does
  // not own (any more) is answered `moved`, and the sending node tries again where the room is.
  template <class C, void (*Handle)(Protocol&, Context&, C&, const RoomPtr&)>
  static void in_room(Protocol& p, Context& ctx, const json& body) {
    Parsed<C> parsed = C::parse(body);
    if (auto* r = std::get_if<Refusal>(&parsed)) return p.reply_error(ctx, r->code, r->message);
    C& cmd = std::get<C>(parsed);
    if (auto actor = p.rooms_.find(cmd.room)) {
      run_in<C, Handle>(p, ctx, cmd, actor);
      return;
    }
    RoomBus* bus = p.services_.bus;
    if (bus && !ctx.connection->remote()) {
      if (std::string owner = bus->known_owner(cmd.room); !owner.empty())
        return bus->forward(ctx.connection, *ctx.player, p.session_of(ctx.connection->id()), cmd.room,
                            std::move(ctx.text), owner, ctx.fid, kSubscribes<C>);
    }
    Resume resume = ctx.defer(p);
    p.rooms_.load(cmd.room, [&p, later = ctx, cmd, resume](RoomDirectory::Lookup found) mutable {
      bool handed = false;  // run_in() holds the connection's lane until the room settled
      if (!resume->closed()) {
        if (found.moved && later.connection->remote()) {
          p.services_.bus->refuse_moved(later.connection, later.fid, cmd.room);
        } else if (found.moved) {
          p.reply_error(later, "storage", kBusy, cmd.room);  // this node is stopping: its clients go elsewhere
        } else if (!found.owner.empty()) {
          if (later.connection->remote())
            p.services_.bus->refuse_moved(later.connection, later.fid, cmd.room);
          else
            p.services_.bus->forward(later.connection, *later.player, p.session_of(later.connection->id()),
                                     cmd.room, std::move(later.text), found.owner, later.fid, kSubscribes<C>);
        } else if (found.busy) {
          p.reply_error(later, "storage", kBusy, cmd.room);
        } else if (!found.room) {
          p.reply_error(later, "no_room", "no room '" + cmd.room + "'", cmd.room);
        } else {
          handed = run_in<C, Handle>(p, later, cmd, found.room);
        }
      }
      if (!handed) resume->finish();
    });
  }

  // Runs a command on its room. A command sent again (another node forwarded it before, and got no
  // acknowledgement) that the room applied already is not applied twice. A forwarded command holds its
  // connection's later messages until the room settled: its acknowledgement means stored and announced.
  // Returns whether the connection's lane is held until the room settled (a forwarded command).
  template <class C, void (*Handle)(Protocol&, Context&, C&, const RoomPtr&)>
  static bool run_in(Protocol& p, Context& ctx, C& cmd, const RoomPtr& actor) {
    if (!ctx.fid.empty() && actor->remembers(ctx.fid)) {
      spdlog::debug("cluster: {} applied already: acknowledged again", ctx.fid);
      if (p.services_.bus) p.services_.bus->applied_again();
      return false;
    }
    Handle(p, ctx, cmd, actor);
    if (!ctx.connection->remote()) return false;
    Resume resume = ctx.defer(p);
    actor->post([resume](RoomActor& a) {
      a.when_settled([resume] { resume->finish(); }, [resume] { resume->finish(); });
    });
    return true;
  }

  // --- identity

  static void on_ping(Protocol&, Context& ctx, Ping&) {
    ctx.connection->send(json{{"type", "pong"}, {"ref", ref_json(ctx.ref)}}.dump());
  }

  static void on_hello(Protocol& p, Context& ctx, Hello& h) {
    if (ctx.player) return p.reply_error(ctx, "bad_message", "this connection already said hello");
    if (!h.id && !h.token) {
      // Stored before it is given: a welcomed identity survives a crash (issue 17).
      Resume resume = ctx.defer(p);
      p.identities_.create(h.name, [&p, later = ctx, resume](std::optional<store::PlayerRow> row, std::string token) {
        if (!row)
          p.reply_error(later, "storage", "the server could not store a new identity: say hello again");
        else
          welcome(p, later, *row, token);
        resume->finish();
      });
      return;
    }
    if (!h.id || !h.token) return refuse_identity(p, ctx);
    // The player from the cache, or (not seen since the start) read from the store on a worker.
    Resume resume = ctx.defer(p);
    if (auto row = p.identities_.cached(*h.id)) return welcome_back(p, ctx, h, std::move(*row), resume);
    p.identities_.load(*h.id, [&p, later = ctx, h, resume](std::optional<store::PlayerRow> row, bool busy) {
      if (busy)
        p.reply_error(later, "storage", kBusy);
      else if (!row)
        refuse_identity(p, later);
      if (busy || !row) return resume->finish();
      welcome_back(p, later, h, std::move(*row), resume);
    });
  }

  static void refuse_identity(Protocol& p, const Context& ctx) {
    p.reply_error(ctx, "bad_token", "unknown id or wrong token: say hello without them for a new identity");
  }

  // Finishes `resume` once answered.
  static void welcome_back(Protocol& p, const Context& ctx, const Hello& h, store::PlayerRow row, Resume resume) {
    if (matching_token(*h.token, row).empty()) {
      refuse_identity(p, ctx);
      return resume->finish();
    }
    bool changed = false;
    if (is_legacy_hash(row.token_hash)) {  // stored before issue 16 (SHA-1): kept as SHA-256 from now on
      row.token_hash = token_hash(*h.token);
      changed = true;
    }
    if (h.name && *h.name != row.name) {
      row.name = *h.name;
      changed = true;
    }
    if (!changed) {
      welcome(p, ctx, row, *h.token);
      return resume->finish();
    }
    // The new name (or hash) is stored before the welcome tells it; if it cannot be, the welcome carries the
    // row as stored (the token still holds).
    std::optional<store::PlayerRow> before = p.identities_.cached(row.id);
    p.identities_.save(row, [&p, later = ctx, resume, row, token = *h.token, before](bool ok) {
      welcome(p, later, ok || !before ? row : *before, token);
      resume->finish();
    });
  }

  static void welcome(Protocol& p, const Context& ctx, const store::PlayerRow& row, const std::string& token) {
    p.set_player(ctx.connection->id(), lobby::Player{row.id, row.name, row.username});
    p.set_session(ctx.connection->id(), matching_token(token, row));
    json m = {{"type", "welcome"},
              {"protocol", kProtocolVersion},
              {"player", {{"id", row.id}, {"name", row.name}}},
              {"token", token}};
    if (!row.username.empty()) {
      m["player"]["username"] = row.username;
      m["username"] = row.username;
    }
    if (!ctx.ref.empty()) m["ref"] = json::parse(ctx.ref);
    ctx.connection->send(m.dump());
  }

  // The connection's player row: cached, else read on a worker; `then(row)` on a worker or this thread,
  // or the connection told and `resume` finished.
  template <class Then>
  static void with_row(Protocol& p, const Context& ctx, Resume resume, Then then) {
    if (auto row = p.identities_.cached(ctx.player->id)) return then(std::move(*row));
    p.identities_.load(ctx.player->id, [&p, later = ctx, resume, then](std::optional<store::PlayerRow> row,
                                                                        bool busy) {
      if (busy || !row) {
        p.reply_error(later, "storage", busy ? kBusy : "your identity could not be read");
        return resume->finish();
      }
      then(std::move(*row));
    });
  }

  static void on_name(Protocol& p, Context& ctx, Name& n) {
    // Stored, then told (issue 17): the connection's later messages wait for the commit.
    auto rename = [&p](const Context& ctx, store::PlayerRow row, const std::string& name, Resume resume) {
      row.name = name;
      p.identities_.save(row, [&p, ctx, row, resume](bool ok) {
        if (!ok) {
          p.reply_error(ctx, "storage", "the server could not store your new name: it is unchanged");
        } else {
          p.set_player(ctx.connection->id(), lobby::Player{row.id, row.name, row.username});
          json m = {{"type", "welcome"},
                    {"protocol", kProtocolVersion},
                    {"player", {{"id", row.id}, {"name", row.name}}}};
          if (!row.username.empty()) m["username"] = row.username;
          if (!ctx.ref.empty()) m["ref"] = json::parse(ctx.ref);
          ctx.connection->send(m.dump());
        }
        resume->finish();
      });
    };
    Resume resume = ctx.defer(p);
    with_row(p, ctx, resume, [later = ctx, name = n.name, rename, resume](store::PlayerRow row) {
      rename(later, std::move(row), name, resume);
    });
  }

  // --- accounts (issue 19, docs/protocol.md "Accounts")

  static void reply(const Context& ctx, json m) {
    if (!ctx.ref.empty()) m["ref"] = json::parse(ctx.ref);
    ctx.connection->send(m.dump());
  }

  // A guest becomes an account: same id, games and seats; its name becomes the user name.
  static void on_register(Protocol& p, Context& ctx, Register& cmd) {
    if (!ctx.player->username.empty())
      return p.reply_error(ctx, "already_registered", "you are logged in as " + ctx.player->username);
    if (!p.identities_.reserve_username(cmd.username))
      return p.reply_error(ctx, "username_taken", "the user name '" + cmd.username + "' is taken");
    Resume resume = ctx.defer(p);
    auto release = [&p, username = cmd.username] { p.identities_.release_username(username); };
    bool queued = p.workers_.submit(Workers::Kind::bulk, [&p, later = ctx, cmd, resume, release] {
      note_blocking(p.services_.metrics);
      auto holder = p.services_.store->player_by_username(cmd.username);
      if (holder || holder.failed()) {
        release();
        if (holder.failed()) {
          p.reply_error(later, "storage", kBusy);
          return resume->finish();
        }
        p.reply_error(later, "username_taken", "the user name '" + cmd.username + "' is taken");
        return resume->finish();
      }
      std::string hash = hash_password(cmd.password);
      if (hash.empty()) {
        release();
        p.reply_error(later, "storage", "the server could not hash your password: try again");
        return resume->finish();
      }
      with_row(p, later, resume, [&p, later, cmd, resume, release, hash](store::PlayerRow row) {
        if (!row.username.empty()) {
          release();
          p.reply_error(later, "already_registered", "you are logged in as " + row.username);
          return resume->finish();
        }
        row.username = cmd.username;
        row.password_hash = hash;
        row.name = cmd.username;
        p.identities_.save(row, [&p, later, row, resume, release](bool ok) {
          release();
          if (!ok) {
            p.reply_error(later, "storage", "the server could not store your account: you are still a guest");
          } else {
            p.set_player(later.connection->id(), lobby::Player{row.id, row.name, row.username});
            reply(later, {{"type", "registered"}, {"username", row.username}, {"name", row.name}});
          }
          resume->finish();
        });
      });
    });
    if (!queued) {
      release();
      p.reply_error(ctx, "storage", kBusy);
      resume->finish();
    }
  }

  // Counts an attempt against the limits; false (and `rate_limited` told) when over them.
  static bool admit_attempt(Protocol& p, const Context& ctx, const std::string& account) {
    std::int64_t retry_ms = 0;
    if (p.logins_.admit(account, ctx.connection->address(), Services::now().unix_ms, retry_ms)) return true;
    p.reply_error(ctx, "rate_limited",
                  "too many login attempts: try again in " + std::to_string((retry_ms + 999) / 1000) + " s");
    return false;
  }

  static constexpr std::size_t kMaxSessions = 20;  // login tokens an account keeps (the oldest go first)

  static void on_login(Protocol& p, Context& ctx, Credentials& cmd) {
    if (!admit_attempt(p, ctx, cmd.username)) return;
    Resume resume = ctx.defer(p);
    bool queued = p.workers_.submit(Workers::Kind::bulk, [&p, later = ctx, cmd, resume] {
      note_blocking(p.services_.metrics);
      auto row = p.services_.store->player_by_username(cmd.username);
      if (row.failed()) {
        p.reply_error(later, "storage", kBusy);
        return resume->finish();
      }
      if (row)
        if (auto cached = p.identities_.cached(row->id)) row = std::move(cached);  // the newest stored
      // A missing account costs one verification too, against a hash made once: the answer's time does not
      // tell which names exist.
      static const std::string kNobody = hash_password(random_id(16));
      const bool good = row ? password_matches(cmd.password, row->password_hash)
                            : (password_matches(cmd.password, kNobody), false);
      if (!good) {
        p.logins_.failed(cmd.username, Services::now().unix_ms);
        p.reply_error(later, "bad_login", "unknown user name or wrong password");
        return resume->finish();
      }
      p.logins_.succeeded(cmd.username);
      std::string token = random_id(32);
      row->sessions.push_back(token_hash(token));
      while (row->sessions.size() > kMaxSessions) row->sessions.erase(row->sessions.begin());
      p.identities_.save(*row, [&p, later, row = *row, token, resume](bool ok) {
        if (!ok)
          p.reply_error(later, "storage", "the server could not store your login: try again");
        else
          welcome(p, later, row, token);
        resume->finish();
      });
    });
    if (!queued) {
      p.reply_error(ctx, "storage", kBusy);
      resume->finish();
    }
  }

  // This connection's token stops working (an account's only: a guest has nothing to log back in with).
  static void on_logout(Protocol& p, Context& ctx, Logout&) {
    if (ctx.player->username.empty())
      return p.reply_error(ctx, "no_account", "a guest cannot log out: register first, or keep this browser");
    const std::string session = p.session_of(ctx.connection->id());
    Resume resume = ctx.defer(p);
    with_row(p, ctx, resume, [&p, later = ctx, session, resume](store::PlayerRow row) {
      if (session == row.token_hash)
        row.token_hash = token_hash(random_id(32));  // nobody knows that token: the guest one is gone
      else
        std::erase(row.sessions, session);
      p.identities_.save(row, [&p, later, resume](bool ok) {
        if (!ok) {
          p.reply_error(later, "storage", "the server could not log you out: try again");
        } else {
          p.clear_player(later.connection->id());
          reply(later, {{"type", "logged_out"}});
        }
        resume->finish();
      });
    });
  }

  // Every token of the account stops working; its other connections are told and become guests-to-be.
  static void on_logout_all(Protocol& p, Context& ctx, Logout&) {
    if (ctx.player->username.empty())
      return p.reply_error(ctx, "no_account", "a guest cannot log out: register first");
    Resume resume = ctx.defer(p);
    with_row(p, ctx, resume, [&p, later = ctx, resume](store::PlayerRow row) {
      row.token_hash = token_hash(random_id(32));
      row.sessions.clear();
      p.identities_.save(row, [&p, later, row, resume](bool ok) {
        if (!ok) {
          p.reply_error(later, "storage", "the server could not log you out: try again");
        } else {
          p.log_out_others(row.id, later.connection->id());
          if (p.services_.bus) p.services_.bus->log_out_everywhere(row.id, later.connection->id());
          p.clear_player(later.connection->id());
          reply(later, {{"type", "logged_out"}});
        }
        resume->finish();
      });
    });
  }

  static void on_change_password(Protocol& p, Context& ctx, ChangePassword& cmd) {
    if (ctx.player->username.empty())
      return p.reply_error(ctx, "no_account", "a guest has no password: register first");
    if (!admit_attempt(p, ctx, ctx.player->username)) return;
    Resume resume = ctx.defer(p);
    bool queued = p.workers_.submit(Workers::Kind::bulk, [&p, later = ctx, cmd, resume] {
      note_blocking(p.services_.metrics);
      with_row(p, later, resume, [&p, later, cmd, resume](store::PlayerRow row) {
        if (!password_matches(cmd.old_password, row.password_hash)) {
          p.logins_.failed(row.username, Services::now().unix_ms);
          p.reply_error(later, "bad_login", "the current password is wrong");
          return resume->finish();
        }
        row.password_hash = hash_password(cmd.new_password);
        if (row.password_hash.empty()) {
          p.reply_error(later, "storage", "the server could not hash your password: it is unchanged");
          return resume->finish();
        }
        p.identities_.save(row, [&p, later, resume](bool ok) {
          if (!ok)
            p.reply_error(later, "storage", "the server could not store your password: it is unchanged");
          else
            reply(later, {{"type", "password_changed"}});
          resume->finish();
        });
      });
    });
    if (!queued) {
      p.reply_error(ctx, "storage", kBusy);
      resume->finish();
    }
  }

  // --- an account's own mail (docs/mail.md, "Accounts"; server/account_mail.h), read and written on a worker

  static void on_mail_settings(Protocol& p, Context& ctx, MailSettings&) {
    if (ctx.player->username.empty())
      return p.reply_error(ctx, "no_account", "mail settings are for accounts: register or log in first");
    if (!p.services_.postman) return reply(ctx, account_mail_json(std::nullopt, false));
    Resume resume = ctx.defer(p);
    bool queued = p.workers_.submit(Workers::Kind::quick, [&p, later = ctx, resume] {
      note_blocking(p.services_.metrics);
      auto row = p.services_.store->account_mail(later.player->id);
      if (row.failed())
        p.reply_error(later, "storage", "your mail settings could not be read: try again");
      else
        reply(later, account_mail_json(row, true));
      resume->finish();
    });
    if (!queued) {
      p.reply_error(ctx, "storage", kBusy);
      resume->finish();
    }
  }

  static void on_set_mail(Protocol& p, Context& ctx, SetMail& cmd) {
    if (ctx.player->username.empty())
      return p.reply_error(ctx, "no_account", "mail settings are for accounts: register or log in first");
    if (!p.services_.postman) return p.reply_error(ctx, "no_mail", "this server sends no mail");
    Resume resume = ctx.defer(p);
    bool queued = p.workers_.submit(Workers::Kind::quick, [&p, later = ctx, cmd, resume] {
      note_blocking(p.services_.metrics);
      json answer = change_account_mail(*p.services_.store, *p.services_.postman, later.player->id,
                                        later.player->username, cmd.change, Services::now().unix_ms);
      if (answer.contains("code")) {
        p.reply_error(later, answer["code"].get<std::string>(), answer["message"].get<std::string>());
      } else {
        if (cmd.change.address && !cmd.change.address->empty() && p.services_.mail_sender) {
          ++p.services_.metrics.mail_queued;
          p.services_.mail_sender->poke();
        }
        reply(later, std::move(answer));
      }
      resume->finish();
    });
    if (!queued) {
      p.reply_error(ctx, "storage", kBusy);
      resume->finish();
    }
  }

  // --- rooms

  static void on_create(Protocol& p, Context& ctx, Create& cmd) {
    if (cmd.rated && ctx.player->username.empty())
      return p.reply_error(ctx, "account_required", "a rated game is for accounts: register or log in first");
    lobby::RoomConfig config{p.rooms_.new_room_id(), cmd.game.game, cmd.game.options, cmd.game.clock,
                             cmd.is_private,         {},           cmd.rated};
    auto room = lobby::Room::create(config, Services::now());
    if (!room) return p.reply_error(ctx, "bad_options", room.error().message);
    if (cmd.bots.any()) return create_bot_room(p, ctx, std::move(*room), cmd.bots.levels, cmd.seat);
    // A correspondence room's seat links go to its creator only, in the creator's state: never broadcast.
    std::shared_ptr<const json> extra;
    if (cmd.game.clock.correspondence()) {
      auto links = issue_seat_tokens(*room);
      extra = std::make_shared<const json>(json{{"links", {links[0], links[1]}}});
    }
    if (ctx.player->username.empty()) return open_room(p, ctx, cmd, std::move(*room), extra, {});
    // An account shows its rating in its seat: read first, on a worker.
    Resume resume = ctx.defer(p);
    auto shared = std::make_shared<lobby::Room>(std::move(*room));
    bool queued = p.workers_.submit(Workers::Kind::quick, [&p, later = ctx, cmd, shared, extra, resume] {
      note_blocking(p.services_.metrics);
      auto rows = p.services_.store->ratings(later.player->id);
      open_room(p, later, cmd, std::move(*shared), extra, std::move(rows));
      resume->finish();
    });
    if (!queued) {
      p.reply_error(ctx, "storage", kBusy);
      resume->finish();
    }
  }

  static void open_room(Protocol& p, const Context& ctx, const Create& cmd, lobby::Room room,
                        std::shared_ptr<const json> extra, const std::vector<store::RatingRow>& rows) {
    lobby::Player player = *ctx.player;
    if (!player.username.empty()) player.rating = seat_rating(rows, room);
    auto actor = p.rooms_.add(std::move(room));
    if (!claim(p, ctx, actor, Claims::open_room)) return;
    bool here = p.enter_room(ctx.connection->id(), actor->id(), [&] {
      actor->post([c = ctx.connection, player, seat = cmd.seat.value_or(random_seat()),
                   ref = ctx.ref, extra](RoomActor& a) {
        a.set_creator(player.id);
        a.apply(a.room().sit(player, seat, Services::now()), c, ref);
        a.subscribe(c, player.id, std::nullopt, extra);
      });
    });
    if (!here) p.rooms_.forget(actor->id());  // its creator is gone: nobody will ever sit in it
  }

  // Counts a new room against its creator's limit (RoomLimits): false, the room gone and the creator told
  // `too_many_rooms`, when the creator holds as many such rooms as allowed already.
  static bool claim(Protocol& p, const Context& ctx, const RoomPtr& actor, Claims::Kind kind) {
    const RoomLimits& limits = p.services_.limits;
    const std::size_t limit = kind == Claims::open_room ? limits.open_rooms_per_player : limits.bot_rooms_per_player;
    if (p.services_.claims.try_claim(actor->holder(), kind, ctx.player->id, limit)) return true;
    p.rooms_.forget(actor->id());  // never stored, never shown
    ++(kind == Claims::open_room ? p.services_.metrics.refused_open_rooms : p.services_.metrics.refused_bot_rooms);
    p.reply_error(ctx, "too_many_rooms",
                  kind == Claims::open_room
                      ? "you already have " + std::to_string(limit) +
                            " open rooms waiting for an opponent: play, leave or wait for one of them first"
                      : "you already have " + std::to_string(limit) +
                            " games against the computer going: finish or resign one first");
    return false;
  }

  // A room with computer opponents (docs/protocol.md, "Lobby"): the creator's seat and the bot's, or two bots
  // and the creator watching. Both seats are taken at once: the game starts, and the bot to move is asked.
  static void create_bot_room(Protocol& p, Context& ctx, lobby::Room room,
                              std::array<std::optional<int>, 2> levels, std::optional<int> seat) {
    RoomPtr actor;
    if (levels[1]) {
      actor = p.rooms_.add_bot_room(ctx.player->id, std::move(room));
      if (!actor)
        return p.reply_error(ctx, "too_many_rooms",
                             "you already have " + std::to_string(RoomDirectory::kMaxWatchedBotRooms) +
                                 " computer-vs-computer games going: wait for one to end");
    } else {
      actor = p.rooms_.add(std::move(room));
      if (!claim(p, ctx, actor, Claims::bot_room)) return;
    }
    std::array<std::optional<lobby::Player>, 2> sitters;
    if (levels[1]) {
      sitters = {bot_player(*levels[0], 0), bot_player(*levels[1], 1)};
    } else {
      int mine = seat.value_or(random_seat());
      sitters[mine] = *ctx.player;
      sitters[1 - mine] = bot_player(*levels[0]);
    }
    auto sit = [c = ctx.connection, sitters, ref = ctx.ref](RoomActor& a) {
      for (int s = 0; s < 2; ++s) a.apply(a.room().sit(*sitters[s], s, Services::now()), c, ref);
    };
    bool here = p.enter_room(ctx.connection->id(), actor->id(), [&] {
      actor->post([sit, c = ctx.connection, pid = ctx.player->id](RoomActor& a) {
        sit(a);
        a.subscribe(c, pid, std::nullopt);
      });
    });
    if (!here) p.rooms_.forget(actor->id());  // its creator is gone before it began
  }

  static void on_join(Protocol& p, Context& ctx, Join& cmd, const RoomPtr& actor) {
    p.enter_room(ctx.connection->id(), actor->id(), [&] {
      actor->post([c = ctx.connection, pid = ctx.player->id, since = cmd.since](RoomActor& a) {
        a.subscribe(c, pid, since);
      });
    });
  }

  static void on_sit(Protocol& p, Context& ctx, Sit& cmd, const RoomPtr& actor) {
    if (ctx.player->username.empty()) return sit_with(p, ctx, cmd, actor, {});
    // An account shows its rating in the seat: read first (on a worker), picked for the room's game there.
    Resume resume = ctx.defer(p);
    bool queued = p.workers_.submit(Workers::Kind::quick, [&p, later = ctx, cmd, actor, resume] {
      note_blocking(p.services_.metrics);
      auto rows = p.services_.store->ratings(later.player->id);
      sit_with(p, later, cmd, actor, std::move(rows));
      resume->finish();
    });
    if (!queued) {
      p.reply_error(ctx, "storage", kBusy);
      resume->finish();
    }
  }

  // The rating of `rows` for a room's game and pool (1500, provisional, for none yet).
  static lobby::SeatRating seat_rating(const std::vector<store::RatingRow>& rows, const lobby::Room& room) {
    const std::string game(room.record().game().name());
    const std::string pool = room.config().clock.kind();
    for (const auto& r : rows)
      if (r.game == game && r.pool == pool) return {r.rating, r.deviation > ratings::kProvisionalDeviation};
    return {};
  }

  static void sit_with(Protocol& p, const Context& ctx, const Sit& cmd, const RoomPtr& actor,
                       std::vector<store::RatingRow> rows) {
    p.enter_room(ctx.connection->id(), actor->id(), [&] {
      actor->post([c = ctx.connection, player = *ctx.player, seat = cmd.seat, seat_token = cmd.seat_token,
                   ref = ctx.ref, rows = std::move(rows)](RoomActor& a) mutable {
        if (!player.username.empty()) player.rating = seat_rating(rows, a.room());
        sit_down(a, c, player, seat, seat_token, ref);
      });
    });
  }

  // On the room's strand.
  static void sit_down(RoomActor& a, const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
                       std::optional<int> seat, const std::optional<std::string>& seat_token,
                       const std::string& ref) {
    lobby::Room& room = a.room();
    lobby::Now now = Services::now();
    lobby::Effect effect;
    if (room.config().rated && player.username.empty()) {
      effect.error = lobby::Failure{"account_required", "this game is rated: log in to an account to play it"};
    } else if (seat_token) {
      // The token is checked here, in constant time; the room then sees the stored hash, or a wrong one.
      const std::string& stored = room.seat_token_hash(*seat);
      effect = room.claim_seat(player, *seat, token_matches(*seat_token, stored) ? stored : std::string("-"),
                               now);
    } else {
      effect = room.sit(player, seat, now);
    }
    bool ok = !effect.error;
    // Taking a correspondence seat from the lobby (without its link) gives the seat a new token, told to the
    // one who sat only: an earlier link to that seat stops working.
    std::string link_message;
    if (ok && !seat_token && room.config().clock.correspondence()) {
      int s = room.seat_of(player.id);
      std::string token = random_id(32);
      room.set_seat_token_hash(s, token_hash(token));
      room.set_seat_token(s, token);
      link_message = json{{"type", "seat_link"},
                          {"room", room.id()},
                          {"seat", s},
                          {"link", seat_link(room.id(), s, token)}}
                         .dump();
    }
    a.apply(std::move(effect), c, ref);
    if (!ok) return;
    if (!link_message.empty()) a.when_settled([c, link_message] { c->send(link_message); });
    if (a.is_subscribed(c->id())) {
      a.refresh_presence();  // a spectator who sat down is now a player online
      // The `seated` event carries no legal actions: a player who took a seat whose turn it is (a
      // correspondence seat taken with its link) gets the state as that seat sees it.
      a.when_settled([self = a.shared_from_this(), c, pid = player.id] {
        const int s = self->room().seat_of(pid);
        if (s >= 0 && s == self->room().seat_to_move()) c->send(self->room().state_message(Services::now(), s));
      });
    } else
      a.subscribe(c, player.id, std::nullopt);  // sitting is joining
  }

  static void on_leave(Protocol& p, Context& ctx, InRoom& cmd, const RoomPtr& actor) {
    p.leave_room(ctx.connection->id(), cmd.room);
    actor->post([c = ctx.connection, pid = ctx.player->id, ref = ctx.ref](RoomActor& a) {
      a.apply(a.room().leave(pid, Services::now()), c, ref);
      a.unsubscribe(c->id());
      c->send(json{{"type", "left"}, {"room", a.id()}}.dump());
    });
  }

  static void on_act(Protocol& p, Context& ctx, Act& cmd, const RoomPtr& actor) {
    actor->post([&metrics = p.services_.metrics, c = ctx.connection, pid = ctx.player->id,
                 items = std::move(cmd.actions), end_turn = cmd.end_turn, ref = ctx.ref,
                 received = ctx.received](RoomActor& a) {
      auto effect = a.room().act(pid, items, end_turn, Services::now());
      bool accepted = !effect.error;
      ++(accepted ? metrics.turns_accepted : metrics.turns_rejected);
      a.apply(std::move(effect), c, ref, accepted ? std::optional(received) : std::nullopt);
    });
  }

  // The position some actions of the turn would make, to the sender only (issue 18): nothing changes.
  static void on_try(Protocol& p, Context& ctx, Act& cmd, const RoomPtr& actor) {
    actor->post([&metrics = p.services_.metrics, c = ctx.connection, pid = ctx.player->id,
                 items = std::move(cmd.actions), end_turn = cmd.end_turn, ref = ctx.ref](RoomActor& a) {
      auto tried = a.room().try_turn(pid, items, end_turn, Services::now());
      if (tried.error) {
        metrics.count_error(tried.error->code);
        return c->send(error_message(tried.error->code, tried.error->message, ref, a.id()));
      }
      std::string m = R"({"type":"tried","room":)" + json(a.id()).dump();
      if (!ref.empty()) m += R"(,"ref":)" + ref;
      c->send(m + "," + tried.members + "}");
    });
  }

  // A line of the room's chat: from someone in the room (joined or seated), stored, then sent.
  static void on_chat(Protocol&, Context& ctx, Chat& cmd, const RoomPtr& actor) {
    actor->post([c = ctx.connection, player = *ctx.player, text = std::move(cmd.text), ref = ctx.ref](RoomActor& a) {
      if (!a.is_subscribed(c->id()) && a.room().seat_of(player.id) < 0)
        return c->send(error_message("bad_message", "join the room before writing in its chat", ref, a.id()));
      a.apply(a.room().chat(player, text, Services::now()), c, ref);
    });
  }

  // resign, draw, decline_draw, abort, rematch: one room method each.
  template <lobby::Effect (lobby::Room::*Method)(const std::string&, lobby::Now)>
  static void on_room_command(Protocol&, Context& ctx, InRoom&, const RoomPtr& actor) {
    actor->post([c = ctx.connection, pid = ctx.player->id, ref = ctx.ref](RoomActor& a) {
      a.apply((a.room().*Method)(pid, Services::now()), c, ref);
    });
  }

  // --- the lobby

  static void on_seek(Protocol& p, Context& ctx, Seek& cmd) {
    const GameRequest& g = cmd.game;
    if (cmd.rated && ctx.player->username.empty())
      return p.reply_error(ctx, "account_required", "a rated game is for accounts: register or log in first");
    // Several nodes: one book, the lobby leader's.
    if (p.services_.bus && !ctx.connection->remote() &&
        p.services_.bus->forward_seek(ctx.connection, *ctx.player, p.session_of(ctx.connection->id()),
                                          ctx.text, false))
      return;
    lobby::Seek seek{*ctx.player,  ctx.connection->id(), std::string(g.game->name()),
                     g.options,    g.clock,              Services::now().unix_ms};
    seek.rated = cmd.rated;
    if (cmd.range) seek.range = *cmd.range;
    if (ctx.player->username.empty()) return place_seek(p, ctx, cmd, std::move(seek));
    // An account's seek shows its rating in this game and pool: read on a worker first.
    Resume resume = ctx.defer(p);
    bool queued = p.workers_.submit(Workers::Kind::quick, [&p, later = ctx, cmd, seek, resume]() mutable {
      note_blocking(p.services_.metrics);
      const std::string pool = cmd.game.clock.kind();
      for (const store::RatingRow& r : p.services_.store->ratings(seek.player.id)) {
        if (r.game != seek.game || r.pool != pool) continue;
        seek.rating = r.rating;
        seek.provisional = r.deviation > ratings::kProvisionalDeviation;
      }
      place_seek(p, later, cmd, std::move(seek));
      resume->finish();
    });
    if (!queued) {
      p.reply_error(ctx, "storage", kBusy);
      resume->finish();
    }
  }

  static void place_seek(Protocol& p, const Context& ctx, const Seek& cmd, lobby::Seek seek) {
    const GameRequest& g = cmd.game;
    std::optional<lobby::Seek> other;
    {
      std::lock_guard lock(p.seeks_mutex_);
      other = p.seeks_.add(seek);
    }
    json game_json = {{"game", seek.game}, {"options", seek.options}, {"clock", lobby::clock_json(g.clock)},
                      {"rated", seek.rated}};
    if (!other) {
      json m = game_json;
      m["type"] = "seeking";
      return ctx.connection->send(m.dump());
    }
    // Paired: a room with both seated (sides drawn at random); each player is told, and joins.
    std::shared_ptr<net::Connection> other_connection = p.connection_of(other->connection);
    lobby::Now now = Services::now();
    lobby::RoomConfig config{p.rooms_.new_room_id(), g.game, g.options, g.clock, false, {}, seek.rated};
    auto room = lobby::Room::create(config, now);
    if (!room) return p.reply_error(ctx, "bad_options", room.error().message);
    int first = random_seat();
    auto rated_player = [](const lobby::Seek& s) {
      lobby::Player player = s.player;
      if (!player.username.empty()) player.rating = lobby::SeatRating{s.rating, s.provisional};
      return player;
    };
    (void)room->sit(rated_player(*other), first, now);
    (void)room->sit(rated_player(seek), 1 - first, now);
    auto actor = p.rooms_.add(std::move(*room));
    json m = game_json;
    m["type"] = "paired";
    m["room"] = actor->id();
    auto message = std::make_shared<const std::string>(m.dump());
    actor->post([c = ctx.connection, other_connection, message](RoomActor& a) {
      a.save_then(
          [c, other_connection, message] {
            c->send(message);
            if (other_connection) other_connection->send(message);
          },
          [c, other_connection] {
            // Nothing was stored: neither player has a room; both may seek again.
            auto m = error_message("storage", "the server could not store your new game: seek again", {}, {});
            c->send(m);
            if (other_connection) other_connection->send(m);
          });
    });
  }

  static void on_unseek(Protocol& p, Context& ctx, Unseek&) {
    if (p.services_.bus && !ctx.connection->remote() &&
        p.services_.bus->forward_seek(ctx.connection, *ctx.player, p.session_of(ctx.connection->id()),
                                          ctx.text, true))
      return;
    int n = 0;
    {
      std::lock_guard lock(p.seeks_mutex_);
      n = p.seeks_.remove_player(ctx.player->id);
    }
    ctx.connection->send(json{{"type", "unseeked"}, {"count", n}}.dump());
  }

  static void on_rooms(Protocol& p, Context& ctx, Rooms&) {
    if (RoomBus* bus = p.services_.bus) {  // every node's rooms, the leader's seeks
      auto seeks = bus->leader_seeks();
      ctx.connection->send(R"({"type":"rooms","rooms":)" + *bus->public_list() + R"(,"seeks":)" +
                           (seeks ? *seeks : p.seeks_json()) + "}");
      return;
    }
    ctx.connection->send(R"({"type":"rooms","rooms":)" + *p.rooms_.public_list() + R"(,"seeks":)" +
                         p.seeks_json() + "}");
  }

  static std::string seeks_json(Protocol& p) {
    json seeks = json::array();
    {
      std::lock_guard lock(p.seeks_mutex_);
      for (const auto& s : p.seeks_.seeks())
        seeks.push_back({{"game", s.game},
                         {"options", s.options},
                         {"clock", lobby::clock_json(s.clock)},
                         {"name", s.player.name},
                         {"username", s.player.username.empty() ? json(nullptr) : json(s.player.username)},
                         {"rated", s.rated},
                         {"rating", s.player.username.empty() ? json(nullptr)
                                                              : json{{"rating", std::round(s.rating)},
                                                                     {"provisional", s.provisional}}},
                         {"rating_range", s.range ? json{(*s.range)[0], (*s.range)[1]} : json(nullptr)}});
    }
    return seeks.dump();
  }

  // The player's games, read (and those not in memory replayed, for their summary) on a worker: unfinished
  // ones first, those where it is the player's turn before the others, nearest deadline first; then the
  // finished ones, newest first.
  static void on_my_games(Protocol& p, Context& ctx, MyGames&) {
    Resume resume = ctx.defer(p);
    bool queued = p.workers_.submit(Workers::Kind::quick, [&p, c = ctx.connection, pid = ctx.player->id, resume] {
      if (!resume->closed()) c->send(my_games(p, pid));
      resume->finish();
    });
    if (!queued) {
      p.reply_error(ctx, "storage", kBusy);
      resume->finish();
    }
  }

  static std::string my_games(Protocol& p, const std::string& pid) {
    Services& services = p.services_;
    note_blocking(services.metrics);
    std::vector<store::GameRow> rows = services.store->games_of_player(pid, 50);
    std::vector<json> games;
    for (const auto& row : rows) {
      json summary;
      RoomPtr actor = row.status != "finished" ? p.rooms_.find(row.id) : nullptr;
      if (actor) {
        summary = actor->listing().summary.to_json();
      } else {
        note_blocking(services.metrics);
        auto room = lobby::Room::restore(from_row(row), Services::now());
        if (!room) continue;
        summary = room->summary(Services::now()).to_json();
      }
      int seat = row.seat_ids[0] == pid ? 0 : 1;
      summary["my_seat"] = seat;
      // A correspondence game's links the player may see again: its own seat's, and a free seat's (to send).
      if (row.clock_days > 0 && row.status != "finished") {
        json links = json::array();
        for (int s = 0; s < 2; ++s)
          if (!row.seat_tokens[s].empty() && (s == seat || row.seat_ids[s].empty()))
            links.push_back(seat_link(row.id, s, row.seat_tokens[s]));
        if (!links.empty()) summary["links"] = std::move(links);
      }
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
    return json{{"type", "my_games"}, {"games", games}}.dump();
  }
};

void run_command(Protocol& protocol, Context& ctx, const std::string& type, const json& body) {
  Commands::run(protocol, ctx, type, body);
}

std::string Protocol::seeks_json() { return Commands::seeks_json(*this); }

}  // namespace cinq::server
