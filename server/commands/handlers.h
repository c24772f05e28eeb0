// The commands' handlers, by topic: identity.cpp (the connection's identity and the accounts), rooms.cpp (a
// room's commands), seeks.cpp (quick pairing) and lists.cpp (what the lobby lists). Each gets the command's
// parsed fields (messages.h), after the table (table.cpp) checked `hello` and, for a room's command, found
// the room. What several of them share is here too.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "lobby/room.h"
#include "server/commands/context.h"
#include "server/commands/messages.h"

namespace cinq::server {
class RoomActor;
}

namespace cinq::server::commands {

using RoomPtr = std::shared_ptr<RoomActor>;

inline const std::string kBusy = "the server is busy or cannot reach its store: try again in a moment";

// An answer to the sender, with the message's `ref`.
void reply(const Request& rq, nlohmann::json m);
// A seat drawn at random (0 or 1).
int random_seat();

// --- moderation.cpp: reports, blocks, and the moderators' actions
void on_report(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_block(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_unblock(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_blocks(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_mod_role(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_mod_ban(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_mod_unban(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_mod_mute(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_mod_unmute(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_mod_rename(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_mod_close_room(CommandContext& cx, Request& rq, ModerationCommand& cmd, const RoomPtr& actor);
void on_mod_player(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_mod_reports(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_mod_resolve(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_mod_audit(CommandContext& cx, Request& rq, ModerationCommand& cmd);
void on_mod_links(CommandContext& cx, Request& rq, ModerationCommand& cmd);
// An account welcomed on this connection: its address and browser noted (hashed) for the linked accounts.
void note_sighting(CommandContext& cx, const std::shared_ptr<net::Connection>& c, const std::string& player_id);

// --- identity.cpp: the connection, its player, accounts and their mail settings
void on_ping(CommandContext& cx, Request& rq, Ping& cmd);
void on_hello(CommandContext& cx, Request& rq, Hello& cmd);
void on_name(CommandContext& cx, Request& rq, Name& cmd);
void on_register(CommandContext& cx, Request& rq, Register& cmd);
void on_login(CommandContext& cx, Request& rq, Credentials& cmd);
void on_logout(CommandContext& cx, Request& rq, Logout& cmd);
void on_logout_all(CommandContext& cx, Request& rq, Logout& cmd);
void on_change_password(CommandContext& cx, Request& rq, ChangePassword& cmd);
void on_mail_settings(CommandContext& cx, Request& rq, MailSettings& cmd);
void on_set_mail(CommandContext& cx, Request& rq, SetMail& cmd);

// --- rooms.cpp: making a room, and the commands on a room
void on_create(CommandContext& cx, Request& rq, Create& cmd);
void on_join(CommandContext& cx, Request& rq, Join& cmd, const RoomPtr& actor);
void on_sit(CommandContext& cx, Request& rq, Sit& cmd, const RoomPtr& actor);
void on_leave(CommandContext& cx, Request& rq, InRoom& cmd, const RoomPtr& actor);
void on_act(CommandContext& cx, Request& rq, Act& cmd, const RoomPtr& actor);
void on_try(CommandContext& cx, Request& rq, Act& cmd, const RoomPtr& actor);
void on_chat(CommandContext& cx, Request& rq, Chat& cmd, const RoomPtr& actor);
// hint: the best turn in a casual game against the computer (RoomActor::ask_hint)
void on_hint(CommandContext& cx, Request& rq, InRoom& cmd, const RoomPtr& actor);
// analyze: a finished game's analysis (server/analyst.h), read from the store or computed
void on_analyze(CommandContext& cx, Request& rq, Analyze& cmd);
// resign, draw, decline_draw, abort, takeback, decline_takeback, rematch: one room method each (instantiated
// in rooms.cpp for those).
template <lobby::Effect (lobby::Room::*Method)(const std::string&, lobby::Now)>
void on_room_command(CommandContext& cx, Request& rq, InRoom& cmd, const RoomPtr& actor);

// --- seeks.cpp: quick pairing
void on_seek(CommandContext& cx, Request& rq, Seek& cmd);
void on_unseek(CommandContext& cx, Request& rq, Unseek& cmd);

// --- lists.cpp: the lobby's lists
void on_rooms(CommandContext& cx, Request& rq, Rooms& cmd);
void on_my_games(CommandContext& cx, Request& rq, MyGames& cmd);

// --- tournaments.cpp: tournaments (server/tournaments.h does the work)
void on_tournament_create(CommandContext& cx, Request& rq, TournamentCreate& cmd);
void on_tournament_join(CommandContext& cx, Request& rq, TournamentId& cmd);
void on_tournament_withdraw(CommandContext& cx, Request& rq, TournamentId& cmd);
void on_tournament_start(CommandContext& cx, Request& rq, TournamentId& cmd);
void on_tournament(CommandContext& cx, Request& rq, TournamentId& cmd);
void on_tournament_watch(CommandContext& cx, Request& rq, TournamentId& cmd);
void on_tournament_unwatch(CommandContext& cx, Request& rq, TournamentId& cmd);
void on_tournaments(CommandContext& cx, Request& rq, TournamentList& cmd);

}  // namespace cinq::server::commands
