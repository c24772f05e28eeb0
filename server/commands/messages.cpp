// The parse functions of the messages' structs (messages.h): what each field must be, and the refusal when it
// is not.
#include "server/commands/messages.h"

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "bots/bot.h"
#include "rules/registry.h"
#include "server/accounts.h"
#include "server/identity.h"

namespace cinq::server::commands {

using nlohmann::json;

namespace {

Refusal bad_message(std::string why) { return {"bad_message", std::move(why)}; }

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
// are refused with bad_clock rather than read as "no clock".
std::optional<lobby::ClockSpec> clock_of(const json& body, Refusal& refusal) {
  auto it = body.find("clock");
  if (it == body.end() || it->is_null()) return lobby::ClockSpec{};
  if (!it->is_object()) {
    refusal = {"bad_message",
               "field 'clock' must be null, {\"base_ms\": N, \"increment_ms\": N} or {\"days\": N}"};
    return std::nullopt;
  }
  lobby::ClockSpec c;
  for (const auto& [key, value] : it->items()) {
    std::int64_t* out = key == "base_ms"        ? &c.base_ms
                        : key == "increment_ms" ? &c.increment_ms
                        : key == "days"         ? &c.days
                                                : nullptr;
    if (!out) {
      refusal = {"bad_clock",
                 "a clock has base_ms and increment_ms, or days: no member '" + key + "' (null: no clock)"};
      return std::nullopt;
    }
    if (!value.is_number_integer()) {
      refusal = {"bad_message", "clock." + key + " must be an integer"};
      return std::nullopt;
    }
    *out = value.get<std::int64_t>();
  }
  if (it->contains("days") ? c.days == 0 : c.base_ms == 0) {
    refusal = {"bad_clock", it->contains("days")
                                ? "a correspondence clock gives 1, 2, 3, 5, 7 or 14 days per turn"
                                : "a live clock needs base_ms (at least 10000); null: no clock"};
    return std::nullopt;
  }
  return c;
}

// The computer opponents of a `create`: none, some, or nullopt and why not (for `bad_message`).
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

// A boolean field: false when absent or null.
std::optional<Refusal> bool_field(const json& body, const char* key, bool& out) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_boolean()) return bad_message(std::string("field '") + key + "' must be true or false");
  out = it->get<bool>();
  return std::nullopt;
}

}  // namespace

Parsed<GameRequest> GameRequest::parse(const json& body) {
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

Parsed<Ping> Ping::parse(const json&) { return Ping{}; }

Parsed<Hello> Hello::parse(const json& body) {
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

Parsed<Name> Name::parse(const json& body) {
  std::string why;
  auto name = string_field(body, "name", why);
  if (!name) return bad_message(why);
  auto clean = clean_name(*name, why);
  if (!clean) return Refusal{"bad_name", why};
  return Name{*clean};
}

Parsed<Credentials> Credentials::parse(const json& body) {
  std::string why;
  auto username = string_field(body, "username", why);
  auto password = string_field(body, "password", why);
  if (!username || !password) return bad_message(why);
  return Credentials{*username, *password};
}

Parsed<Register> Register::parse(const json& body) {
  auto c = Credentials::parse(body);
  if (auto* r = std::get_if<Refusal>(&c)) return *r;
  Register out{std::get<Credentials>(c)};
  std::string why;
  if (!check_username(out.username, why)) return Refusal{"bad_username", why};
  if (!check_password(out.password, why)) return Refusal{"bad_password", why};
  return out;
}

Parsed<ChangePassword> ChangePassword::parse(const json& body) {
  std::string why;
  auto old_password = string_field(body, "old", why);
  auto new_password = string_field(body, "new", why);
  if (!old_password || !new_password) return bad_message(why);
  if (!check_password(*new_password, why)) return Refusal{"bad_password", why};
  return ChangePassword{*old_password, *new_password};
}

Parsed<Logout> Logout::parse(const json&) { return Logout{}; }

Parsed<MailSettings> MailSettings::parse(const json&) { return MailSettings{}; }

Parsed<SetMail> SetMail::parse(const json& body) {
  std::string why;
  auto c = AccountMailChange::parse(body, why);
  if (!c) return bad_message(why);
  return SetMail{*c};
}

Parsed<Create> Create::parse(const json& body) {
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

Parsed<Join> Join::parse(const json& body) {
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

Parsed<Sit> Sit::parse(const json& body) {
  Sit s;
  if (auto r = room_field(body, s.room)) return *r;
  if (auto r = seat_field(body, s.seat, "any")) return *r;
  std::string why;
  s.seat_token = string_field(body, "seat_token", why, false);
  if (!why.empty()) return bad_message(why);
  if (s.seat_token && !s.seat) return bad_message("a seat_token needs its 'seat' (0 or 1)");
  if (auto r = bool_field(body, "take", s.take)) return *r;
  if (s.take && !s.seat_token) return bad_message("'take' goes with a seat_token (a seat's private link)");
  return s;
}

Parsed<Act> Act::parse(const json& body) {
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

Parsed<InRoom> InRoom::parse(const json& body) {
  InRoom c;
  if (auto r = room_field(body, c.room)) return *r;
  return c;
}

Parsed<Chat> Chat::parse(const json& body) {
  Chat c;
  if (auto r = room_field(body, c.room)) return *r;
  std::string why;
  auto text = string_field(body, "text", why);
  if (!text) return bad_message(why);
  c.text = std::move(*text);
  return c;
}

Parsed<Seek> Seek::parse(const json& body) {
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

Parsed<Unseek> Unseek::parse(const json&) { return Unseek{}; }

Parsed<Rooms> Rooms::parse(const json& body) {
  Rooms r;
  auto it = body.find("page");
  if (it == body.end() || it->is_null()) return r;
  if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > 100000)
    return bad_message("field 'page' must be an integer from 1");
  r.page = it->get<int>();
  return r;
}

Parsed<MyGames> MyGames::parse(const json&) { return MyGames{}; }

namespace {

// An integer field: nullopt when absent or null; a refusal when it is not an integer.
std::optional<Refusal> int_field(const json& body, const char* key, std::optional<std::int64_t>& out) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer()) return bad_message(std::string("field '") + key + "' must be an integer");
  out = it->get<std::int64_t>();
  return std::nullopt;
}

}  // namespace

Parsed<Analyze> Analyze::parse(const json& body) {
  Analyze a;
  if (auto r = room_field(body, a.room)) return *r;
  std::optional<std::int64_t> depth, think;
  if (auto r = int_field(body, "depth", depth)) return *r;
  if (auto r = int_field(body, "think_ms", think)) return *r;
  if (depth && think) return bad_message("give 'depth' or 'think_ms', not both");
  a.named = depth || think;
  if (depth) a.settings.depth = static_cast<int>(std::clamp<std::int64_t>(*depth, -1, 1000));
  if (think) a.settings.think_ms = std::clamp<std::int64_t>(*think, -1, 1000000);
  if (think && *think == 0) return bad_message("field think_ms: 0 is not from 50 to 10000");
  if (auto bad = analysis::check(a.settings)) return bad_message("field " + *bad);
  return a;
}

Parsed<TournamentCreate> TournamentCreate::parse(const json& body) {
  TournamentCreate c;
  std::string why;
  auto format = string_field(body, "format", why);
  if (!format) return bad_message(why + " (swiss, roundrobin or arena)");
  auto f = tournament::format_named(*format);
  if (!f) return Refusal{"bad_spec", "unknown format '" + *format + "': swiss, roundrobin or arena"};
  c.spec.format = *f;
  auto g = GameRequest::parse(body);
  if (auto* r = std::get_if<Refusal>(&g)) return *r;
  const GameRequest& game = std::get<GameRequest>(g);
  c.spec.game = std::string(game.game->name());
  c.spec.options = game.options;
  c.spec.pace = {game.clock.base_ms, game.clock.increment_ms, game.clock.days};
  if (auto r = bool_field(body, "rated", c.spec.rated)) return *r;
  if (auto r = bool_field(body, "double", c.spec.double_round_robin)) return *r;
  std::optional<std::int64_t> rounds, duration, start;
  if (auto r = int_field(body, "rounds", rounds)) return *r;
  if (auto r = int_field(body, "duration_ms", duration)) return *r;
  if (auto r = int_field(body, "start_ms", start)) return *r;
  if (rounds && (*rounds < 0 || *rounds > tournament::kMaxRounds))
    return Refusal{"bad_spec", "a Swiss tournament has 1 to " + std::to_string(tournament::kMaxRounds) + " rounds"};
  c.spec.rounds = static_cast<int>(rounds.value_or(0));
  c.spec.duration_ms = duration.value_or(0);
  c.spec.start_ms = start;
  auto name = string_field(body, "name", why, false);
  if (!why.empty()) return bad_message(why);
  if (name) {
    auto clean = clean_name(*name, why);
    if (!clean) return Refusal{"bad_name", why};
    c.spec.name = *clean;
  } else {
    c.spec.name = std::string(game.game->words().title) + " " + tournament::format_name(c.spec.format);
  }
  return c;
}

Parsed<TournamentId> TournamentId::parse(const json& body) {
  std::string why;
  auto id = string_field(body, "tournament", why);
  if (!id) return bad_message(why);
  return TournamentId{*id};
}

Parsed<TournamentList> TournamentList::parse(const json& body) {
  std::string why;
  auto status = string_field(body, "status", why, false);
  if (!why.empty()) return bad_message(why);
  TournamentList l{status.value_or("")};
  if (!l.status.empty() && l.status != "open" && l.status != "running" && l.status != "finished")
    return bad_message("field 'status' must be open, running or finished (absent: any)");
  return l;
}

}  // namespace cinq::server::commands
