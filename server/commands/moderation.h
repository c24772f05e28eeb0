// Moderation's actions (server/commands/moderation.cpp) as the WebSocket's commands and the REST API
// (server/moderation_http.cpp) both run them: one function per action, given the actor and the command's
// fields, answering once with the WebSocket's answer or a refusal. Neither transport decides anything here.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "lobby/room.h"
#include "server/commands/messages.h"

namespace cinq::server {

struct CommandContext;
class RoomActor;

namespace commands {

// An action's outcome: the answer (a JSON object with its `type`: `mod_done`, `mod_reports`, `blocks`, ...),
// or a refusal (`code`: forbidden, no_player, bad_message, storage, ...; `message` in English).
struct ModerationOutcome {
  nlohmann::json answer;
  std::string code, message;
};
using ModerationDone = std::function<void(ModerationOutcome)>;

// Runs the action `type` (report, block, unblock, blocks, mod_role, mod_ban, mod_unban, mod_mute, mod_unmute,
// mod_rename, mod_player, mod_reports, mod_resolve, mod_audit, mod_links; another is refused unknown_type)
// for `by` on this thread, which must be a worker's (it reads and writes the store); `done` runs once, on
// this thread or later on another (a name reset's save).
void moderate(CommandContext& cx, const std::string& type, const lobby::Player& by, const ModerationCommand& cmd,
              ModerationDone done);
// mod_close_room: the room `actor` (played here) closed for `by`. On a worker; `done` once, later.
void close_room(CommandContext& cx, const lobby::Player& by, const ModerationCommand& cmd,
                const std::shared_ptr<RoomActor>& actor, ModerationDone done);
// Another node changed the player's moderation state (a sanction, a block, a name reset; a role comes with
// the audit log's poll): the desk and the player's name here read again. On a worker.
void moderation_changed_elsewhere(CommandContext& cx, const std::string& player_id);

}  // namespace commands
}  // namespace cinq::server
