// The fields of every message a client sends (docs/protocol.md): one struct per message type, with one parse
// function that checks them and says what is wrong (the `bad_message` texts and the other refusals), in
// messages.cpp. The table (table.cpp) parses each message with its struct before its handler sees it.
#pragma once

#include <array>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "analysis/analysis.h"
#include "lobby/room.h"
#include "rules/game.h"
#include "server/account_mail.h"
#include "server/request.h"
#include "tournament/tournament.h"

namespace cinq::server::commands {

template <class T>
using Parsed = std::variant<T, Refusal>;

// A game, its options and clock, checked as Room::create would, telling which part is wrong.
struct GameRequest {
  const Game* game = nullptr;
  std::string options;  // canonical
  lobby::ClockSpec clock;
  static Parsed<GameRequest> parse(const nlohmann::json& body);
};

// The computer opponents a `create` asks for: `bot` (a level: the bot takes the seat the creator does not)
// or `bots` (two levels, seats 0 and 1: nobody else sits).
struct BotRequest {
  std::array<std::optional<int>, 2> levels;  // `bot`: [level, nullopt]; `bots`: both
  bool any() const { return levels[0].has_value(); }
};

// ping, logout, logout_all, mail_settings, unseek, rooms, my_games: no fields.
struct Ping {
  static Parsed<Ping> parse(const nlohmann::json& body);
};
struct Logout {
  static Parsed<Logout> parse(const nlohmann::json& body);
};
struct MailSettings {
  static Parsed<MailSettings> parse(const nlohmann::json& body);
};
struct Unseek {
  static Parsed<Unseek> parse(const nlohmann::json& body);
};
struct Rooms {
  int page = 1;  // of the public rooms, from 1 (lobby::RoomPages)
  static Parsed<Rooms> parse(const nlohmann::json& body);
};
struct MyGames {
  static Parsed<MyGames> parse(const nlohmann::json& body);
};

// --- identity and accounts

struct Hello {
  std::optional<std::string> id, token, name;
  static Parsed<Hello> parse(const nlohmann::json& body);
};

struct Name {
  std::string name;
  static Parsed<Name> parse(const nlohmann::json& body);
};

// login
struct Credentials {
  std::string username, password;
  static Parsed<Credentials> parse(const nlohmann::json& body);
};

struct Register : Credentials {
  static Parsed<Register> parse(const nlohmann::json& body);
};

struct ChangePassword {
  std::string old_password, new_password;
  static Parsed<ChangePassword> parse(const nlohmann::json& body);
};

struct SetMail {
  AccountMailChange change;
  static Parsed<SetMail> parse(const nlohmann::json& body);
};

// --- rooms (every struct with a `room` goes through the room lookup of table.cpp)

struct Create {
  GameRequest game;
  std::optional<int> seat;
  bool is_private = false;
  bool rated = false;
  BotRequest bots;
  static Parsed<Create> parse(const nlohmann::json& body);
};

struct Join {
  std::string room;
  std::optional<lobby::Since> since;  // with the epoch the client counts in, when it says it
  static Parsed<Join> parse(const nlohmann::json& body);
};

struct Sit {
  std::string room;
  std::optional<int> seat;
  std::optional<std::string> seat_token;
  // With a seat token: move the seat here even though another browser (a guest) holds it. Without it, such
  // a claim is answered `seat_held`, so that the player is asked first.
  bool take = false;
  static Parsed<Sit> parse(const nlohmann::json& body);
};

// act, try
struct Act {
  std::string room;
  std::vector<std::string> actions;
  bool end_turn = false;
  static Parsed<Act> parse(const nlohmann::json& body);
};

// leave, resign, draw, decline_draw, abort, takeback, decline_takeback, rematch: the room alone.
struct InRoom {
  std::string room;
  static Parsed<InRoom> parse(const nlohmann::json& body);
};

// `analyze`: a finished game's analysis at a depth or a think time (analysis::Settings, checked).
struct Analyze {
  std::string room;
  analysis::Settings settings;
  bool named = false;  // a depth or think time was given (else the server's default depth)
  static Parsed<Analyze> parse(const nlohmann::json& body);
};

struct Chat {
  std::string room;
  std::string text;
  static Parsed<Chat> parse(const nlohmann::json& body);
};

// --- moderation (moderation.cpp): one set of fields for every moderation message, each optional here; each
// handler names those it needs. `duration` is checked ("30m", "2h", "7d", "forever"), `reason` too.
struct ModerationCommand {
  std::string player;  // a player id or an account's user name
  std::string room;
  std::string reason;
  std::string line;    // a reported chat line
  std::string report;  // a report's id
  std::string status;  // "", "open", "resolved"
  std::string duration;
  std::int64_t duration_ms = 0;  // 0: none (forever)
  static Parsed<ModerationCommand> parse(const nlohmann::json& body);
};

// --- the lobby

struct Seek {
  GameRequest game;
  bool rated = false;
  std::optional<std::array<double, 2>> range;  // the opponent's rating: [min, max]
  static Parsed<Seek> parse(const nlohmann::json& body);
};

// --- tournaments (docs/protocol.md, "Tournaments")

// tournament_create: the format, the game (its options and clock, as `create`), rounds or duration, a start.
struct TournamentCreate {
  tournament::Spec spec;  // its creator is set by the desk
  static Parsed<TournamentCreate> parse(const nlohmann::json& body);
};

// tournament, tournament_join, tournament_withdraw, tournament_start, tournament_watch, tournament_unwatch.
struct TournamentId {
  std::string id;
  static Parsed<TournamentId> parse(const nlohmann::json& body);
};

// tournaments: a list by status ("open", "running", "finished"; absent: any).
struct TournamentList {
  std::string status;
  static Parsed<TournamentList> parse(const nlohmann::json& body);
};

}  // namespace cinq::server::commands
