// A room on its own strand (docs/design.md, "Rooms, sessions and messages"; lila's RoundAsyncActor): every
// command on the room runs there, one at a time. The actor adds what the pure lobby::Room leaves out: the
// connections in the room, the clock timer, and the rule that nothing is announced before it is stored.
//
// Announcing after storing: a command's events wait in an outbox until their save, run on the store's
// writer thread, has committed; then they go out in version order. Anything that shows the room (a join,
// a reconnect, the REST state) waits for the outbox to be empty, so nobody ever sees a turn that a crash
// could still lose.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lobby/room.h"
#include "server/bot_runner.h"
#include "server/caps.h"
#include "server/postman.h"
#include "persistence/store.h"
#include "server/net/transport.h"

namespace cinq::store {
struct Chain;
}

namespace cinq::server {

struct Services;

class RoomActor : public std::enable_shared_from_this<RoomActor> {
 public:
  // `fence`: the lease this node plays the room under (several nodes, server/cluster.h); `commands`: the ids
  // of the forwarded commands the room applied last, as stored.
  RoomActor(Services& services, lobby::Room room, std::shared_ptr<net::Strand> strand,
            std::optional<store::Fence> fence = std::nullopt, const std::string& commands = {});
  ~RoomActor();  // a bot still thinking for this room stops

  const std::string& id() const { return id_; }
  // Any thread: the lease (never changes), and whether a forwarded command was applied here already.
  const std::optional<store::Fence>& fence() const { return lease_; }
  bool remembers(const std::string& command) const;
  // The player who created the room: its open room counts against that player's limit even after it left
  // the seat (RoomLimits::open_rooms_per_player). On the strand.
  void set_creator(const std::string& player) { creator_ = player; }
  // This room's number in Services::claims (what counts against its players' limits).
  std::uint64_t holder() const { return holder_; }
  // Runs `fn` on the room's strand with the room. Everything touching the room goes through here.
  void post(std::function<void(RoomActor&)> fn);
  // Called once the actor is in its shared_ptr (RoomDirectory::add): arms what the constructor could not, the
  // expiry of an open room nobody holds (a room reopened at start that nobody comes back to).
  void shared();

  // --- on the strand only
  lobby::Room& room() { return room_; }
  // Applies a command's effect: the error to `sender` at once, the events after their save.
  // `received` is when the command arrived (for the latency histogram), if it was a turn.
  void apply(lobby::Effect effect, const std::shared_ptr<net::Connection>& sender, const std::string& ref,
             std::optional<std::chrono::steady_clock::time_point> received = {});
  // Adds a connection (as the player `player_id`, "" for none): it gets the missed events after `since`, or
  // the full state, with the fields of `extra` added (a creator's private seat links). Runs once the outbox
  // is empty.
  void subscribe(const std::shared_ptr<net::Connection>& c, const std::string& player_id,
                 std::optional<lobby::Since> since, std::shared_ptr<const nlohmann::json> extra = nullptr);
  void unsubscribe(std::uint64_t connection_id);
  // A finished room's lease may have gone while this node was paused (another node took the room; it holds
  // nothing to save, so no save finds it out): it is read again, wherever its lease is, by its members'
  // joins (told `storage`).
  void reload_if_finished();
  bool is_subscribed(std::uint64_t connection_id) const { return subscribers_.count(connection_id) > 0; }
  // Runs `fn` once everything accepted so far has been stored and announced; if a save fails first (the room
  // closes: docs/protocol.md, "When a save fails"), runs `failed` instead, if given.
  void when_settled(std::function<void()> fn, std::function<void()> failed = {});
  // Counts spectators and the seats online again, and tells the room if that changed.
  void refresh_presence();
  // Saves the room now (a new room), then runs `then`; `failed` instead if the save fails.
  void save_then(std::function<void()> then, std::function<void()> failed = {});
  // Mail (docs/mail.md): mails and played Message-IDs that go into the room's next save, in its transaction
  // (an answer to a mailed turn, an invitation). On the strand.
  void queue_mail(store::MailRow mail) { mail_pending_.push_back(std::move(mail)); }
  void note_received(std::string message_id) { received_pending_.push_back(std::move(message_id)); }
  // Plays for the room's bot seats (server/bot_runner.h): when a bot is to move, one job for the bot
  // threads; a draw offer to a bot is declined, a rematch asked of it agreed. Called after every effect.
  void serve_bots();
  // A hint for `player_id` (lobby::Room::may_hint): the best turn searched on the bot threads at the computer
  // opponent's level (at least 1), for the player as their owner, then kept and announced by Room::hint.
  // One at a time per room (`hint_pending`).
  void ask_hint(const std::shared_ptr<net::Connection>& c, const std::string& player_id, const std::string& ref);

  // --- any thread: what the lobby lists, as of the last announcement
  struct Listing {
    lobby::Summary summary;  // lobby::Room::summary (its JSON: summary.to_json())
    bool is_private = false;
    lobby::Status status = lobby::Status::open;
    int subscribers = 0;
  };
  Listing listing() const;

 private:
  struct Batch {
    std::vector<lobby::Message> events;
    std::int64_t last_version = 0;  // the room's version after them
    bool stored = false;
    std::optional<std::chrono::steady_clock::time_point> received;
    // The legal actions for the seat to move, added to events[patched] for its connections only.
    std::size_t patched = lobby::Effect::npos;
    int mover = -1;
    std::string legal;
    std::uint64_t number = 0;  // of a batch waiting for its save (RoomActor::apply)
    // Chat lines, each to those who may read it (lobby::Room::may_read), after the events.
    std::vector<std::pair<lobby::ChatLine, lobby::Message>> chat;
  };
  struct Subscriber {
    std::weak_ptr<net::Connection> connection;
    std::string player_id;
  };

  // One of the room's timers, made when first armed: most rooms never arm most of them (a clock, a bot, an
  // expiry), and each costs a few hundred bytes. On the strand.
  net::Timer& timer(std::unique_ptr<net::Timer>& t);
  void flush();  // sends the stored batches at the front of the outbox
  void send_batch(const Batch& b);
  void announce_presence();  // the coalesced presence and spectator events (refresh_presence)
  void arm_clock();
  void update_listing();  // and the claims and the expiry, which follow the same changes
  void update_claims();
  void update_expiry();
  bool nobody_holds() const;  // open, and no seat held by someone connected (nor a correspondence creator)
  void fail_storage(const std::string& why);
  // Closes the room here: every member is told `storage` (rejoin) and that it left, and the room leaves
  // memory, to be read again from the store wherever its lease is.
  void close_for_reload(const std::string& message);
  // A rated game's rating changes, read from the store once the result is stored: sent to the room
  // as `ratings` and added to every later state.
  void fetch_ratings();
  // --- bots (room_actor.cpp, "Computer opponents")
  void schedule_bot(int seat, int level);
  void on_bot_turn(std::int64_t key, BotAnswer answer);    // the answer is back on the strand
  void play_bot_turn(std::int64_t key, BotAnswer answer);  // its delay is over
  void cancel_bot();
  void answer_rematch();

  Services& services_;
  std::string id_;
  lobby::Room room_;
  std::shared_ptr<net::Strand> strand_;
  std::unique_ptr<net::Timer> timer_;
  // Presence and spectator counts are announced at most once per kPresenceEvery (lila-ws batches its crowd
  // counts the same way): a burst of joins and leaves costs the room one event, or none.
  static constexpr std::int64_t kPresenceEveryMs = 500;
  std::unique_ptr<net::Timer> presence_timer_;
  std::int64_t presence_told_ms_ = -kPresenceEveryMs;
  bool presence_pending_ = false;
  std::map<std::uint64_t, Subscriber> subscribers_;
  std::vector<Batch> outbox_;
  std::uint64_t batches_ = 0;  // batches numbered so far
  struct Waiter {
    std::function<void()> settled;
    std::function<void()> failed;
  };
  std::vector<Waiter> settled_;
  // This room's saves: once one fails, the later ones are dropped unwritten (persistence/saver.h).
  std::shared_ptr<store::Chain> chain_;
  // Several nodes: the lease as taken (const), and as the next save names it (it takes it first, for a new
  // room: the strand only).
  const std::optional<store::Fence> lease_;
  std::optional<store::Fence> fence_;
  // The ids of the forwarded commands handled last, oldest first (saved with the progress).
  mutable std::mutex commands_mutex_;
  lobby::Recent<std::string> commands_{store::kRememberedCommands};
  void remember(const std::string& command);
  std::string commands_text() const;
  bool broken_ = false;  // a save failed: the room is closed until it is reloaded from the store

  // The bot turn being thought, or waiting out its delay. Its key is the record's turn count when it was
  // asked for: while a bot is to move nobody else can play, so the same count means the same position
  // (presence and spectator events move the version, and must not throw a bot's thought away).
  struct BotJob {
    std::shared_ptr<std::atomic<bool>> cancel;
    std::int64_t key = 0;
    std::chrono::steady_clock::time_point ready;  // not played before (its delay: bot_runner.h)
  };
  std::optional<BotJob> bot_job_;
  std::shared_ptr<std::atomic<bool>> hint_cancel_;  // the hint being searched, if any
  std::unique_ptr<net::Timer> bot_timer_;  // the answer's delay, or a retry when the bot queue was full
  std::array<bool, 2> bot_shown_online_{false, false};  // presence told for each bot seat
  bool bot_fallback_ = false;  // the last bot turn failed (never expected): the next one is random play

  // What the room's mails have told so far (Postman::on_change), and what goes into the next save.
  MailMark mail_mark_;
  std::array<std::string, 2> mail_seat_ids_;  // who held each seat at the last save (a new holder may bring
                                              // its account's address: Services::adopt_account_mail)
  std::vector<store::MailRow> mail_pending_;
  std::vector<std::string> received_pending_;

  bool over_told_ = false;  // Services::room_over called
  bool ratings_asked_ = false;
  nlohmann::json ratings_;  // the seats' changes (null until read)

  std::uint64_t holder_ = 0;
  std::string creator_;
  Claims::Set claimed_;                                // as last given to Services::claims
  std::unique_ptr<net::Timer> expiry_timer_;           // an open room nobody holds: RoomLimits::open_room_expiry
  bool expiry_armed_ = false;

  mutable std::mutex listing_mutex_;
  Listing listing_;
};

}  // namespace cinq::server
