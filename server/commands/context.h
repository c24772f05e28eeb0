// What the commands (server/commands/*.cpp) are given: the server's parts they use and the few operations
// on the connections they need, and nothing of Protocol's own state. Protocol makes one CommandContext and
// hands it, with each message, to run_command.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "lobby/seeks.h"
#include "server/request.h"

namespace cinq::server {

struct Services;
class RoomDirectory;
class Identities;
class Workers;
class LoginGuard;
class TournamentDesk;
class ModerationDesk;

// This node's seeks (lobby::SeekBook) behind a mutex: the commands add and remove them, a connection's go
// when it closes or logs out, the lobby lists them.
class SeekDesk {
 public:
  // The seek paired with `seek`, taken out, or nothing (then `seek` waits).
  std::optional<lobby::Seek> add(lobby::Seek seek);
  int remove_player(const std::string& player_id);
  void remove_connection(std::uint64_t connection);
  std::size_t size();
  // The seeks as the lobby lists them (JSON array text).
  std::string list_json();

 private:
  std::mutex mutex_;
  lobby::SeekBook book_;
};

struct CommandContext {
  Services& services;
  RoomDirectory& rooms;
  Identities& identities;
  Workers& workers;
  SeekDesk& seeks;
  TournamentDesk& tournaments;  // server/tournaments.h
  ModerationDesk& moderation;   // server/moderation_desk.h
  LoginGuard& logins;    // the login throttle (login_guard.h)
  Clients& clients;      // the connections' players, sessions and rooms

  // The one `error` a refused message gets (counted in the metrics), with its ref and the room if any.
  void reply_error(const Request& rq, const std::string& code, const std::string& message,
                   const std::string& room = {}) const;
  // The command goes on off this thread (Request::defer).
  Resume defer(Request& rq) const { return rq.defer(clients); }
};

// Handles one parsed message (server/commands/table.cpp, the table of typed commands): unknown_type,
// hello_required, the command's own checks (bad_message and the like), then its handler.
void run_command(CommandContext& cx, Request& rq, const std::string& type, const nlohmann::json& body);

}  // namespace cinq::server
