// The messages clients send (docs/protocol.md), as one table of typed commands. Each message type has a
// struct for its fields with one parse function that checks them (messages.h), a flag saying whether it needs
// `hello`, and its handler (handlers.h); commands that name a room get the room found (or loaded from the
// store, off the network thread) before their handler runs. A message that is refused gets one `error` to
// its sender and changes nothing.
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <variant>

#include "server/commands/context.h"
#include "server/commands/handlers.h"
#include "server/commands/messages.h"
#include "server/room_actor.h"
#include "server/room_bus.h"
#include "server/rooms.h"
#include "server/services.h"

namespace cinq::server {

using nlohmann::json;

namespace commands {
namespace {

template <class C>
using Handler = void (*)(CommandContext&, Request&, C&);
template <class C>
using RoomHandler = void (*)(CommandContext&, Request&, C&, const RoomPtr&);

// Commands whose answer is the room's state (a forwarded one of these is a join for the cluster's relay).
template <class C>
constexpr bool kSubscribes = std::is_same_v<C, Join> || std::is_same_v<C, Sit>;

// A command of its fields alone.
template <class C, Handler<C> Handle>
void plain(CommandContext& cx, Request& rq, const json& body) {
  Parsed<C> parsed = C::parse(body);
  if (auto* r = std::get_if<Refusal>(&parsed)) return cx.reply_error(rq, r->code, r->message);
  Handle(cx, rq, std::get<C>(parsed));
}

// --- a command on a room, in steps: the room here runs it; a room another node is known to own gets it
// forwarded; else the room is looked up (loaded from the store on a worker, the connection's later
// messages waiting meanwhile), and what the lookup found decides.

// A command sent again (another node forwarded it before, and got no acknowledgement) that the room applied
// already: acknowledged, not applied twice.
bool applied_already(CommandContext& cx, const Request& rq, const RoomPtr& actor) {
  if (rq.fid.empty() || !actor->remembers(rq.fid)) return false;
  spdlog::debug("cluster: {} applied already: acknowledged again", rq.fid);
  if (cx.services.bus) cx.services.bus->applied_again();
  return true;
}

// A forwarded command holds its connection's later messages until the room settled: its acknowledgement
// means stored and announced. Returns whether it does (the lane is then the room's to hand back).
bool hold_until_settled(CommandContext& cx, Request& rq, const RoomPtr& actor) {
  if (!rq.connection->remote()) return false;
  Resume resume = cx.defer(rq);
  actor->post([resume](RoomActor& a) {
    a.when_settled([resume] { resume->finish(); }, [resume] { resume->finish(); });
  });
  return true;
}

// Runs a command on its room. Returns whether the connection's lane is held until the room settled.
template <class C, RoomHandler<C> Handle>
bool run_on(CommandContext& cx, Request& rq, C& cmd, const RoomPtr& actor) {
  if (applied_already(cx, rq, actor)) return false;
  Handle(cx, rq, cmd, actor);
  return hold_until_settled(cx, rq, actor);
}

// The message, as it came, to the node that owns the room.
void forward(CommandContext& cx, Request& rq, const std::string& room, const std::string& owner,
             bool subscribes) {
  cx.services.bus->forward(rq.connection, *rq.player, cx.clients.session_of(rq.connection->id()), room,
                           std::move(rq.text), owner, rq.fid, subscribes);
}

// A local client's command for a room this node relays for its owner: forwarded there. False when no other
// node is known to own it.
bool forward_to_known_owner(CommandContext& cx, Request& rq, const std::string& room, bool subscribes) {
  RoomBus* bus = cx.services.bus;
  if (!bus || rq.connection->remote()) return false;
  std::string owner = bus->known_owner(room);
  if (owner.empty()) return false;
  forward(cx, rq, room, owner, subscribes);
  return true;
}

// The lookup found the room is another node's (`owner`), or this node is handing its rooms over (`moved`).
// A message forwarded here is refused `moved` (its sending node tries again where the room is); a local
// client's goes to the owner, or, from a node that is stopping, is answered busy (its clients go elsewhere).
void elsewhere(CommandContext& cx, Request& rq, const std::string& room, const RoomDirectory::Lookup& found,
               bool subscribes) {
  if (rq.connection->remote()) return cx.services.bus->refuse_moved(rq.connection, rq.fid, room);
  if (found.moved) return cx.reply_error(rq, "storage", kBusy, room);
  forward(cx, rq, room, found.owner, subscribes);
}

// Runs the command on the room found, and says whether the connection's lane is held until it settled.
using OnRoom = std::function<bool(Request&, const RoomPtr&)>;

// What the lookup of a room not in memory found. Returns whether the lane is held (by run()).
bool found_room(CommandContext& cx, Request& rq, const std::string& room, const RoomDirectory::Lookup& found,
                bool subscribes, const OnRoom& run) {
  if (found.moved || !found.owner.empty()) {
    elsewhere(cx, rq, room, found, subscribes);
    return false;
  }
  if (found.busy) {
    cx.reply_error(rq, "storage", kBusy, room);
    return false;
  }
  if (!found.room) {
    cx.reply_error(rq, "no_room", "no room '" + room + "'", room);
    return false;
  }
  return run(rq, found.room);
}

// The room looked up (loaded on a worker if need be); the connection's later messages wait for the answer.
void look_up(CommandContext& cx, Request& rq, const std::string& room, bool subscribes, OnRoom run) {
  Resume resume = cx.defer(rq);
  cx.rooms.load(room, [&cx, later = rq, room, subscribes, run = std::move(run),
                       resume](RoomDirectory::Lookup found) mutable {
    const bool held = !resume->closed() && found_room(cx, later, room, found, subscribes, run);
    if (!held) resume->finish();
  });
}

// A command on a room: here, known elsewhere, or looked up; `no_room` if there is none. With several nodes
// (server/room_bus.h), a message forwarded here for a room this node does not own (any more) is answered
// `moved`, and the sending node tries again where the room is.
template <class C, RoomHandler<C> Handle>
void in_room(CommandContext& cx, Request& rq, const json& body) {
  Parsed<C> parsed = C::parse(body);
  if (auto* r = std::get_if<Refusal>(&parsed)) return cx.reply_error(rq, r->code, r->message);
  C& cmd = std::get<C>(parsed);
  if (auto actor = cx.rooms.find(cmd.room)) {
    run_on<C, Handle>(cx, rq, cmd, actor);
    return;
  }
  if (forward_to_known_owner(cx, rq, cmd.room, kSubscribes<C>)) return;
  const std::string room = cmd.room;
  look_up(cx, rq, room, kSubscribes<C>,
          [&cx, cmd = std::move(cmd)](Request& later, const RoomPtr& actor) mutable {
            return run_on<C, Handle>(cx, later, cmd, actor);
          });
}

using Run = void (*)(CommandContext&, Request&, const json&);
struct Command {
  bool needs_hello = true;
  Run run = nullptr;
};

const std::unordered_map<std::string_view, Command>& table() {
  using lobby::Room;
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
      {"resign", {true, &in_room<InRoom, &on_room_command<&Room::resign>>}},
      {"draw", {true, &in_room<InRoom, &on_room_command<&Room::offer_draw>>}},
      {"decline_draw", {true, &in_room<InRoom, &on_room_command<&Room::decline_draw>>}},
      {"abort", {true, &in_room<InRoom, &on_room_command<&Room::abort>>}},
      {"try", {true, &in_room<Act, &on_try>}},
      {"takeback", {true, &in_room<InRoom, &on_room_command<&Room::take_back>>}},
      {"decline_takeback", {true, &in_room<InRoom, &on_room_command<&Room::decline_takeback>>}},
      {"chat", {true, &in_room<Chat, &on_chat>}},
      {"hint", {true, &in_room<InRoom, &on_hint>}},
      {"analyze", {true, &plain<Analyze, &on_analyze>}},
      {"rematch", {true, &in_room<InRoom, &on_room_command<&Room::ask_rematch>>}},
      {"seek", {true, &plain<Seek, &on_seek>}},
      {"report", {true, &plain<ModerationCommand, &on_report>}},
      {"block", {true, &plain<ModerationCommand, &on_block>}},
      {"unblock", {true, &plain<ModerationCommand, &on_unblock>}},
      {"blocks", {true, &plain<ModerationCommand, &on_blocks>}},
      {"mod_role", {true, &plain<ModerationCommand, &on_mod_role>}},
      {"mod_ban", {true, &plain<ModerationCommand, &on_mod_ban>}},
      {"mod_unban", {true, &plain<ModerationCommand, &on_mod_unban>}},
      {"mod_mute", {true, &plain<ModerationCommand, &on_mod_mute>}},
      {"mod_unmute", {true, &plain<ModerationCommand, &on_mod_unmute>}},
      {"mod_rename", {true, &plain<ModerationCommand, &on_mod_rename>}},
      {"mod_close_room", {true, &in_room<ModerationCommand, &on_mod_close_room>}},
      {"mod_player", {true, &plain<ModerationCommand, &on_mod_player>}},
      {"mod_reports", {true, &plain<ModerationCommand, &on_mod_reports>}},
      {"mod_resolve", {true, &plain<ModerationCommand, &on_mod_resolve>}},
      {"mod_audit", {true, &plain<ModerationCommand, &on_mod_audit>}},
      {"mod_links", {true, &plain<ModerationCommand, &on_mod_links>}},
      {"unseek", {true, &plain<Unseek, &on_unseek>}},
      {"rooms", {true, &plain<Rooms, &on_rooms>}},
      {"my_games", {true, &plain<MyGames, &on_my_games>}},
      {"tournament_create", {true, &plain<TournamentCreate, &on_tournament_create>}},
      {"tournament_join", {true, &plain<TournamentId, &on_tournament_join>}},
      {"tournament_withdraw", {true, &plain<TournamentId, &on_tournament_withdraw>}},
      {"tournament_start", {true, &plain<TournamentId, &on_tournament_start>}},
      {"tournament", {true, &plain<TournamentId, &on_tournament>}},
      {"tournament_watch", {true, &plain<TournamentId, &on_tournament_watch>}},
      {"tournament_unwatch", {true, &plain<TournamentId, &on_tournament_unwatch>}},
      {"tournaments", {true, &plain<TournamentList, &on_tournaments>}},
  };
  return kTable;
}

}  // namespace
}  // namespace commands

void run_command(CommandContext& cx, Request& rq, const std::string& type, const json& body) {
  const auto& t = commands::table();
  auto it = t.find(type);
  if (it == t.end()) return cx.reply_error(rq, "unknown_type", "unknown message type '" + type + "'");
  if (it->second.needs_hello && !rq.player) return cx.reply_error(rq, "hello_required", "send 'hello' first");
  it->second.run(cx, rq, body);
}

}  // namespace cinq::server
