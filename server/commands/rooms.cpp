// Making a room (create, with or without computer opponents) and the commands on a room: join, sit, leave,
// act, try, chat, and the room methods of one call each (resign, draw, abort, takeback, rematch...). A
// command on a room runs on the room's strand (RoomActor::post); the table found the room first.
#include "server/rooms.h"

#include <algorithm>
#include <array>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "ratings/glicko2.h"
#include "server/analyst.h"
#include "server/bot_runner.h"
#include "server/commands/handlers.h"
#include "server/identity.h"
#include "server/postman.h"
#include "server/moderation_desk.h"
#include "server/room_actor.h"
#include "server/services.h"
#include "server/shared_limits.h"
#include "server/workers.h"

namespace cinq::server::commands {

using nlohmann::json;

namespace {

// The rating of `rows` for a room's game and pool (1500, provisional, for none yet).
lobby::SeatRating seat_rating(const std::vector<store::RatingRow>& rows, const lobby::Room& room) {
  const std::string game(room.record().game().name());
  const std::string pool = room.config().clock.kind();
  for (const auto& r : rows)
    if (r.game == game && r.pool == pool) return {r.rating, r.deviation > ratings::kProvisionalDeviation};
  return {};
}

// Counts a new room against its creator's limit (RoomLimits), with the `elsewhere` such rooms the other nodes
// of a cluster hold: false, the room gone and the creator told `too_many_rooms`, when the creator holds as
// many such rooms as allowed already.
bool claim(CommandContext& cx, const Request& rq, const RoomPtr& actor, Claims::Kind kind, std::int64_t elsewhere) {
  const RoomLimits& limits = cx.services.limits;
  const std::size_t limit =
      kind == Claims::open_room ? limits.open_rooms_per_player : limits.bot_rooms_per_player;
  if (cx.services.claims.try_claim(actor->holder(), kind, rq.player->id, limit,
                                   static_cast<std::size_t>(std::max<std::int64_t>(0, elsewhere))))
    return true;
  cx.rooms.forget(actor->id());  // never stored, never shown
  ++(kind == Claims::open_room ? cx.services.metrics.refused_open_rooms
                               : cx.services.metrics.refused_bot_rooms);
  cx.reply_error(rq, "too_many_rooms",
                 kind == Claims::open_room
                     ? "you already have " + std::to_string(limit) +
                           " open rooms waiting for an opponent: play, leave or wait for one of them first"
                     : "you already have " + std::to_string(limit) +
                           " games against the computer going: finish or resign one first");
  return false;
}

void open_room(CommandContext& cx, const Request& rq, const Create& cmd, lobby::Room room,
               std::shared_ptr<const json> extra, const std::vector<store::RatingRow>& rows,
               std::int64_t elsewhere) {
  lobby::Player player = *rq.player;
  if (!player.username.empty()) player.rating = seat_rating(rows, room);
  auto actor = cx.rooms.add(std::move(room));
  if (!claim(cx, rq, actor, Claims::open_room, elsewhere)) return;
  bool here = cx.clients.enter_room(rq.connection->id(), actor->id(), [&] {
    actor->post([c = rq.connection, player, seat = cmd.seat.value_or(random_seat()), ref = rq.ref,
                 extra](RoomActor& a) {
      a.set_creator(player.id);
      a.apply(a.room().sit(player, seat, Services::now()), c, ref);
      a.subscribe(c, player.id, std::nullopt, extra);
    });
  });
  if (!here) cx.rooms.forget(actor->id());  // its creator is gone: nobody will ever sit in it
}

// A room with computer opponents (docs/protocol.md, "Lobby"): the creator's seat and the bot's, or two bots
// and the creator watching. Both seats are taken at once: the game starts, and the bot to move is asked.
void create_bot_room(CommandContext& cx, Request& rq, lobby::Room room,
                     std::array<std::optional<int>, 2> levels, std::optional<int> seat, std::int64_t elsewhere) {
  RoomPtr actor;
  if (levels[1]) {
    actor = cx.rooms.add_bot_room(rq.player->id, std::move(room));
    if (!actor)
      return cx.reply_error(rq, "too_many_rooms",
                            "you already have " + std::to_string(RoomDirectory::kMaxWatchedBotRooms) +
                                " computer-vs-computer games going: wait for one to end");
  } else {
    actor = cx.rooms.add(std::move(room));
    if (!claim(cx, rq, actor, Claims::bot_room, elsewhere)) return;
  }
  std::array<std::optional<lobby::Player>, 2> sitters;
  if (levels[1]) {
    sitters = {bot_player(*levels[0], 0), bot_player(*levels[1], 1)};
  } else {
    int mine = seat.value_or(random_seat());
    sitters[mine] = *rq.player;
    sitters[1 - mine] = bot_player(*levels[0]);
  }
  auto sit = [c = rq.connection, sitters, ref = rq.ref](RoomActor& a) {
    for (int s = 0; s < 2; ++s) a.apply(a.room().sit(*sitters[s], s, Services::now()), c, ref);
  };
  bool here = cx.clients.enter_room(rq.connection->id(), actor->id(), [&] {
    actor->post([sit, c = rq.connection, pid = rq.player->id](RoomActor& a) {
      sit(a);
      a.subscribe(c, pid, std::nullopt);
    });
  });
  if (!here) cx.rooms.forget(actor->id());  // its creator is gone before it began
}

// On the room's strand. `how`: whether to move a seat another browser holds here, and whether its holder
// is an account (the server looked it up: sit_with).
void sit_down(RoomActor& a, const std::shared_ptr<net::Connection>& c, const lobby::Player& player,
              std::optional<int> seat, const std::optional<std::string>& seat_token, const std::string& ref,
              const lobby::Room::SeatClaim& how = {}) {
  lobby::Room& room = a.room();
  lobby::Now now = Services::now();
  lobby::Effect effect;
  if (room.config().rated && player.username.empty()) {
    effect.error = lobby::Failure{"account_required", "this game is rated: log in to an account to play it"};
  } else if (seat_token) {
    // The token is checked here, in constant time; the room then sees the stored hash, or a wrong one.
    const std::string& stored = room.seat_token_hash(*seat);
    effect = room.claim_seat(player, *seat, token_matches(*seat_token, stored) ? stored : std::string("-"),
                             now, how);
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
    link_message =
        json{
            {"type", "seat_link"}, {"room", room.id()}, {"seat", s}, {"link", seat_link(room.id(), s, token)}}
            .dump();
  }
  a.apply(std::move(effect), c, ref);
  if (!ok) return;
  if (!link_message.empty()) a.when_settled([c, link_message] { c->send(link_message); });
  if (a.is_subscribed(c->id())) {
    a.refresh_presence();  // a spectator who sat down is now a player online
    // The `seated` event carries no legal actions and no links: a player who took a seat whose turn it is,
    // or a seat with its link (whose state shows that link and the free seat's), gets the state as that
    // seat sees it.
    a.when_settled([self = a.shared_from_this(), c, pid = player.id, by_link = seat_token.has_value()] {
      const int s = self->room().seat_of(pid);
      if (s >= 0 && (by_link || s == self->room().seat_to_move()))
        c->send(self->room().state_message(Services::now(), s));
    });
  } else
    a.subscribe(c, player.id, std::nullopt);  // sitting is joining
}

// The player id holding the seat a link names, when the room cannot tell whether it is an account's: a
// guest who registered since it sat down holds no user name in the room, nor does a seat read back from
// the store. Then its row says (Identities::load: the cache, else the store on a worker). "" when there is
// nothing to look up: a free seat, the sender's own, a wrong token, a holder the room knows is an account.
std::string holder_to_look_up(const lobby::Room& room, const lobby::Player& player, int seat,
                              const std::string& token) {
  const lobby::Player& holder = room.seats()[seat];
  if (holder.id.empty() || holder.id == player.id || !holder.username.empty()) return {};
  if (holder.id.starts_with("bot:") || holder.id.starts_with("mail:")) return {};
  if (room.config().clock.correspondence() && token_matches(token, room.seat_token_hash(seat))) return holder.id;
  return {};
}

void sit_with(CommandContext& cx, const Request& rq, const Sit& cmd, const RoomPtr& actor,
              std::vector<store::RatingRow> rows, Resume resume = nullptr) {
  cx.clients.enter_room(rq.connection->id(), actor->id(), [&] {
    actor->post([&cx, c = rq.connection, player = *rq.player, seat = cmd.seat, seat_token = cmd.seat_token,
                 take = cmd.take, ref = rq.ref, rows = std::move(rows), resume](RoomActor& a) mutable {
      if (!player.username.empty()) player.rating = seat_rating(rows, a.room());
      lobby::Room::SeatClaim how{take, {}};
      const std::string holder =
          seat_token && seat ? holder_to_look_up(a.room(), player, *seat, *seat_token) : std::string();
      if (holder.empty()) {
        sit_down(a, c, player, seat, seat_token, ref, how);
        if (resume) resume->finish();
        return;
      }
      cx.identities.load(holder, [actor = a.shared_from_this(), c, player, seat, seat_token, ref, how, holder,
                                  resume](std::optional<store::PlayerRow> row, bool busy) mutable {
        if (busy) {
          c->send(error_message("storage", kBusy, ref, actor->id()));
          if (resume) resume->finish();
          return;
        }
        if (row) how.holder_account = row->username;
        actor->post([c, player, seat, seat_token, ref, how, holder, resume](RoomActor& a) {
          // The seat may have moved meanwhile: what was looked up holds for that holder only.
          lobby::Room::SeatClaim now_how = how;
          if (a.room().seats()[*seat].id != holder) now_how.holder_account.clear();
          sit_down(a, c, player, seat, seat_token, ref, now_how);
          if (resume) resume->finish();
        });
      });
    });
  });
}

// The room made, with `elsewhere` rooms of its kind the player holds on the other nodes; true when it went on
// off this thread (it then finishes the request's flight itself).
bool create(CommandContext& cx, Request& rq, const Create& cmd, std::int64_t elsewhere) {
  lobby::RoomConfig config{
      cx.rooms.new_room_id(), cmd.game.game, cmd.game.options, cmd.game.clock, cmd.is_private, {}, cmd.rated};
  auto room = lobby::Room::create(config, Services::now());
  if (!room) {
    cx.reply_error(rq, "bad_options", room.error().message);
    return false;
  }
  if (cmd.bots.any()) {
    create_bot_room(cx, rq, std::move(*room), cmd.bots.levels, cmd.seat, elsewhere);
    return false;
  }
  // A correspondence room's seat links go to its creator only, in the creator's state: never broadcast.
  std::shared_ptr<const json> extra;
  if (cmd.game.clock.correspondence()) {
    auto links = issue_seat_tokens(*room);
    extra = std::make_shared<const json>(json{{"links", {links[0], links[1]}}});
  }
  if (rq.player->username.empty()) {
    open_room(cx, rq, cmd, std::move(*room), extra, {}, elsewhere);
    return false;
  }
  // An account shows its rating in its seat: read first, on a worker.
  Resume resume = cx.defer(rq);
  auto shared = std::make_shared<lobby::Room>(std::move(*room));
  bool queued = cx.workers.submit(Workers::Kind::quick, [&cx, later = rq, cmd, shared, extra, resume, elsewhere] {
    note_blocking(cx.services.metrics);
    auto rows = cx.services.store->ratings(later.player->id);
    open_room(cx, later, cmd, std::move(*shared), extra, std::move(rows), elsewhere);
    resume->finish();
  });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
  return true;
}

}  // namespace

void on_create(CommandContext& cx, Request& rq, Create& cmd) {
  if (cmd.rated && rq.player->username.empty())
    return cx.reply_error(rq, "account_required", "a rated game is for accounts: register or log in first");
  // In a cluster the player's rooms of this kind on the other nodes count too: asked first, the creation
  // going on with Redis's answer, or without it after a moment (shared_limits.h). A computer-vs-computer
  // room counts against no such limit.
  if (cx.services.bus && !cmd.bots.levels[1]) {
    const Claims::Kind kind = cmd.bots.any() ? Claims::bot_room : Claims::open_room;
    Resume resume = cx.defer(rq);
    cx.services.shared_limits->rooms_elsewhere(
        kind, rq.player->id, [&cx, later = rq, cmd, resume](std::int64_t elsewhere) mutable {
          if (!create(cx, later, cmd, elsewhere)) resume->finish();
        });
    return;
  }
  create(cx, rq, cmd, 0);
}

void on_join(CommandContext& cx, Request& rq, Join& cmd, const RoomPtr& actor) {
  cx.clients.enter_room(rq.connection->id(), actor->id(), [&] {
    actor->post([c = rq.connection, pid = rq.player->id, since = cmd.since](RoomActor& a) {
      a.subscribe(c, pid, since);
    });
  });
}

void on_sit(CommandContext& cx, Request& rq, Sit& cmd, const RoomPtr& actor) {
  // A seat link may need its holder looked up (sit_with): the connection's next messages wait for the seat.
  Resume held = cmd.seat_token ? cx.defer(rq) : nullptr;
  if (rq.player->username.empty()) return sit_with(cx, rq, cmd, actor, {}, held);
  // An account shows its rating in the seat: read first (on a worker), picked for the room's game there.
  Resume resume = cx.defer(rq);
  bool queued = cx.workers.submit(Workers::Kind::quick, [&cx, later = rq, cmd, actor, resume, held] {
    note_blocking(cx.services.metrics);
    auto rows = cx.services.store->ratings(later.player->id);
    sit_with(cx, later, cmd, actor, std::move(rows), held);
    if (!held) resume->finish();
  });
  if (!queued) {
    cx.reply_error(rq, "storage", kBusy);
    resume->finish();
  }
}

void on_leave(CommandContext& cx, Request& rq, InRoom& cmd, const RoomPtr& actor) {
  cx.clients.leave_room(rq.connection->id(), cmd.room);
  actor->post([c = rq.connection, pid = rq.player->id, ref = rq.ref](RoomActor& a) {
    a.apply(a.room().leave(pid, Services::now()), c, ref);
    a.unsubscribe(c->id());
    c->send(json{{"type", "left"}, {"room", a.id()}}.dump());
  });
}

void on_act(CommandContext& cx, Request& rq, Act& cmd, const RoomPtr& actor) {
  actor->post([&metrics = cx.services.metrics, c = rq.connection, pid = rq.player->id,
               items = std::move(cmd.actions), end_turn = cmd.end_turn, ref = rq.ref,
               received = rq.received](RoomActor& a) {
    auto effect = a.room().act(pid, items, end_turn, Services::now());
    bool accepted = !effect.error;
    ++(accepted ? metrics.turns_accepted : metrics.turns_rejected);
    a.apply(std::move(effect), c, ref, accepted ? std::optional(received) : std::nullopt);
  });
}

// The position some actions of the turn would make, to the sender only: nothing changes.
void on_try(CommandContext& cx, Request& rq, Act& cmd, const RoomPtr& actor) {
  actor->post([&metrics = cx.services.metrics, c = rq.connection, pid = rq.player->id,
               items = std::move(cmd.actions), end_turn = cmd.end_turn, ref = rq.ref](RoomActor& a) {
    auto tried = a.room().try_turn(pid, items, end_turn, Services::now());
    if (tried.error) {
      metrics.count_error(tried.error->code);
      return c->send(error_message(*tried.error, ref, a.id()));
    }
    std::string m = R"({"type":"tried","room":)" + json(a.id()).dump();
    if (!ref.empty()) m += R"(,"ref":)" + ref;
    c->send(m + "," + tried.members + "}");
  });
}

// A line of the room's chat: from someone in the room (joined or seated), stored, then sent.
void on_chat(CommandContext& cx, Request& rq, Chat& cmd, const RoomPtr& actor) {
  if (auto mute = cx.moderation.in_force(rq.player->id, "mute", Services::now().unix_ms)) {
    json m = json::parse(error_message("muted", "you are muted in the chats" +
                                                    (mute->reason.empty() ? std::string() : ": " + mute->reason),
                                       rq.ref, cmd.room));
    m["until_ms"] = mute->until_ms == 0 ? json(nullptr) : json(mute->until_ms);
    return rq.connection->send(m.dump());
  }
  actor->post([c = rq.connection, player = *rq.player, text = std::move(cmd.text),
               ref = rq.ref](RoomActor& a) {
    if (!a.is_subscribed(c->id()) && a.room().seat_of(player.id) < 0)
      return c->send(error_message("bad_message", "join the room before writing in its chat", ref, a.id()));
    a.apply(a.room().chat(player, text, Services::now()), c, ref);
  });
}

void on_hint(CommandContext&, Request& rq, InRoom&, const RoomPtr& actor) {
  actor->post([c = rq.connection, pid = rq.player->id, ref = rq.ref](RoomActor& a) { a.ask_hint(c, pid, ref); });
}

void on_analyze(CommandContext& cx, Request& rq, Analyze& cmd) {
  // Off the network thread: the analysis may be read from the store at once. The connection's later messages
  // wait for it (Resume), so two requests are queued, or refused over the player's limit, in the order sent.
  Resume resume = cx.defer(rq);
  bool queued = cx.workers.submit(Workers::Kind::quick, [&cx, c = rq.connection, pid = rq.player->id, ref = rq.ref,
                                                         cmd, resume] {
    note_blocking(cx.services.metrics);
    analysis::Settings settings = cmd.settings;
    if (!cmd.named) settings.depth = cx.services.analyst->default_depth();
    if (!resume->closed()) cx.services.analyst->request(cmd.room, settings, pid, c, ref);
    resume->finish();
  });
  if (!queued) {
    cx.reply_error(rq, "busy", kBusy);
    resume->finish();
  }
}

// resign, draw, decline_draw, abort, rematch: one room method each.
template <lobby::Effect (lobby::Room::*Method)(const std::string&, lobby::Now)>
void on_room_command(CommandContext&, Request& rq, InRoom&, const RoomPtr& actor) {
  actor->post([c = rq.connection, pid = rq.player->id, ref = rq.ref](RoomActor& a) {
    a.apply((a.room().*Method)(pid, Services::now()), c, ref);
  });
}

template void on_room_command<&lobby::Room::resign>(CommandContext&, Request&, InRoom&, const RoomPtr&);
template void on_room_command<&lobby::Room::offer_draw>(CommandContext&, Request&, InRoom&, const RoomPtr&);
template void on_room_command<&lobby::Room::decline_draw>(CommandContext&, Request&, InRoom&, const RoomPtr&);
template void on_room_command<&lobby::Room::abort>(CommandContext&, Request&, InRoom&, const RoomPtr&);
template void on_room_command<&lobby::Room::take_back>(CommandContext&, Request&, InRoom&, const RoomPtr&);
template void on_room_command<&lobby::Room::decline_takeback>(CommandContext&, Request&, InRoom&,
                                                              const RoomPtr&);
template void on_room_command<&lobby::Room::ask_rematch>(CommandContext&, Request&, InRoom&, const RoomPtr&);

}  // namespace cinq::server::commands
