// One game room as pure logic (docs/design.md, "Rooms, sessions and messages"): seats, record, clocks, draw
// offers, rematches, and a version that grows with every event. Commands go in; a command either fails (an
// error for the sender only, nothing changed) or yields events, each numbered by the room's version and
// built once as the JSON text every recipient gets. Time is passed in, so rooms are tested without a clock
// or a network; the server runs each room on its own strand and saves it before announcing its events.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lobby/recent.h"
#include "rules/notation.h"

namespace cinq::lobby {

// The time of a command: a monotonic clock for the game clocks, wall time for records and rows.
struct Now {
  std::int64_t steady_ms = 0;
  std::int64_t unix_ms = 0;
};

// What a client saw last of a room (`join` with `since`): a version, and the epoch it counts in (none from a
// client that does not say it: the version alone is trusted then).
struct Since {
  Since(std::int64_t v = 0, std::optional<std::int64_t> e = std::nullopt) : version(v), epoch(e) {}
  std::int64_t version = 0;
  std::optional<std::int64_t> epoch;
};

struct ClockSpec {
  std::int64_t base_ms = 0;  // 0: no clock
  std::int64_t increment_ms = 0;
  // Correspondence: days per turn (1, 2, 3, 5, 7 or 14), on the wall clock; 0: not correspondence.
  std::int64_t days = 0;
  bool enabled() const { return base_ms > 0; }  // a live clock (steady time)
  bool correspondence() const { return days > 0; }
  // The kind of game (the store's `kind`) and the rating pool: "live" or "correspondence".
  const char* kind() const { return correspondence() ? "correspondence" : "live"; }
  friend bool operator==(const ClockSpec&, const ClockSpec&) = default;
};

// A seated account's rating in the room's game and pool, as read when it sat down: shown beside
// its name in the room and the lobby.
struct SeatRating {
  double rating = 1500;
  bool provisional = true;
};

struct Player {
  std::string id;
  std::string name;
  // The account's user name ("" for a guest, a bot, or a seat read back from the store): a rated room seats
  // accounts only.
  std::string username;
  std::optional<SeatRating> rating;  // an account's, none for a guest or a bot
};

enum class Status { open, live, finished };
const char* status_name(Status s);

// Why a command was refused: a stable code (docs/protocol.md) and a sentence for people.
struct Failure {
  std::string code;
  std::string message;
  int line = 0;  // the line of a mailed log the failure is about (play_log), 0 if none
  // When the rules refused (an illegal act, a bad record): their reason's code and parameters (cinq::Error,
  // rules/errors.inc), for a reader to say it in its language; or, for a mailed log the room itself refused,
  // "log." and its reason's code (log_refusals.inc); `turn` is the mailed log's turn it is about (play_log),
  // 0 if none.
  std::string reason_code{};
  ErrorParams params{};
  int turn = 0;
};

// A failure `code` whose reason is the rules' `error`: its message, its code and parameters.
Failure rules_failure(std::string code, const Error& error);

// A reason of the room's own for refusing a mailed log (log_refusals.inc): a Failure gives it as reason_code
// "log.CODE", with parameters of these names (space-separated).
struct LogRefusalInfo {
  std::string_view code;
  std::string_view params;
};
std::span<const LogRefusalInfo> log_refusals();
// The failure's reason fields, added to an error object of the protocol: `reason_code` and `params` (an
// object of strings) when the rules gave the reason, `turn` when there is one (docs/protocol.md).
void add_reason(const Failure& failure, nlohmann::json& error);

using Message = std::shared_ptr<const std::string>;

// Why a clock cannot be used (`bad_clock`), or nothing: live clocks of 10 s to 24 h with an increment up to
// 1 h, or correspondence clocks of 1, 2, 3, 5, 7 or 14 days per turn.
std::optional<Failure> check_clock(const ClockSpec& clock);
// A clock as the protocol shows it: null, {base_ms, increment_ms} or {days}.
nlohmann::json clock_json(const ClockSpec& clock);

// One message of a room's chat. Not an event: it has no version and is not part of the record.
// A seated player writes in the players' channel, which everyone in the room reads; anyone else in the
// spectators' channel, which the players read only once the game is over.
struct ChatLine {
  std::int64_t at_ms = 0;  // Unix time
  bool spectators = false;  // the channel
  int seat = -1;            // the writer's seat, -1 for a spectator
  std::string player_id;
  std::string name;
  std::string text;
};

// A correspondence seat's private link, as the client opens it: `/#/room/ID?seat=S&token=T`.
std::string seat_link(const std::string& room, int seat, const std::string& token);
// Seat links as the protocol lists them (`links`): always two entries, by seat, null for a link not given,
// so that the index is the seat, as the link's own `seat=` says; null when neither is given.
nlohmann::json seat_links_json(const std::array<std::string, 2>& links);

// A record cut after its first `turns` turns, to be played on from there (an import's `turns`): the lines
// after that turn go, its result with them. Errors: fewer turns than that, a record that stops at '...',
// a game over at that turn (the board ended it: nothing to play on).
Result<Record> record_until(const Record& record, std::int64_t turns);

// A chat line as a `chat` message and a state's `chat` list give it (without `type` and `room`).
nlohmann::json chat_json(const ChatLine& line);

// What a command did.
struct Effect {
  std::optional<Failure> error;  // for the sender only
  std::vector<Message> events;   // for everyone in the room, in version order
  bool save = false;             // the stored form changed: save it before sending `events`
  bool rematch_ready = false;  // both players asked for a rematch: the server opens it (Room::rematch_opened)
  // The legal actions (docs/protocol.md, "Positions, patches and legal actions"): after these events, the
  // seat `mover` (-1: none) may play `legal` (the members `"legal":[...],"can_end_turn":b`, as JSON text).
  // The connections of that seat get the event `events[patched]` with them added (with_legal()); `patched`
  // is the last event that changed the position, npos if none did.
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::size_t patched = npos;
  int mover = -1;
  std::string legal;
  // Chat lines to deliver once stored, each with its `chat` message (Room::chat_message).
  std::vector<std::pair<ChatLine, Message>> chat;
};

// The RFC 7386 merge patch that turns `from` into `to` (objects are diffed member by member; anything else,
// arrays included, is replaced whole). A null member and an absent one are the same.
Value merge_patch(const Value& from, const Value& to);
// The same, from `from` as JSON text written by write_json (what a room keeps of the position last shown: a
// tenth of its tree's memory). Values are compared as their texts, so the one difference is in doubles: 0.0
// and -0.0 differ here, and a non-finite double (written null) counts as absent.
Value merge_patch_text(std::string_view from, const Value& to);

// `message` (one JSON object as text) with `members` (`"k":v,...`) added at its end.
std::string with_members(const std::string& message, const std::string& members);

// A `legal` list with its groups (["e3","f3 g3"], docs/protocol.md) written out as texts; folded ranges and
// texts are kept as they are. For tests and tools that read legal lists.
nlohmann::json ungroup_legal(const nlohmann::json& legal);

// One line of the lobby's list (docs/protocol.md, SUMMARY) as plain fields: cheap enough to take at every
// announcement; its JSON is built only when a list is asked for.
nlohmann::json rating_json(const SeatRating& r);  // {"rating": 1663, "provisional": true}

struct Summary {
  std::shared_ptr<const nlohmann::json> fixed;  // room, game, options, clock, created_ms: set for life
  Status status = Status::open;
  std::array<std::optional<std::string>, 2> seats;  // the names in the seats
  std::array<std::optional<SeatRating>, 2> ratings;  // the seated accounts' ratings
  std::array<std::string, 2> usernames;               // and their user names ("" for a guest)
  int spectators = 0;
  int turn = 0;
  std::optional<std::string> result;
  std::optional<std::array<std::int64_t, 2>> clock_ms;  // while live with a clock
  int running = -1;
  int to_move = -1;
  std::optional<std::int64_t> deadline_ms;
  nlohmann::json to_json() const;
};

// Where a seat's mail goes and how (docs/mail.md): the room keeps it and stores it with its row, the
// server's mail glue reads it. "" address: no mail.
struct SeatMail {
  std::string address;
  bool by_mail = false;    // plays by mail alone: every turn mailed, even while a browser has the room open
  bool confirmed = false;  // the address is its owner's (a confirmation link, or a reply from it)
  std::string reminders;   // "" the default, "off" none, or leads before the deadline ("24h,8h,1h")
  std::string zone;        // the IANA time zone its mails give times in ("Europe/Paris"); "" UTC
  std::string language;    // the language of its mails ("fr", mail/words.h); "" English
  bool operator==(const SeatMail&) const = default;
};

// Everything needed to build a room again after a restart (the server maps it to its stored row).
struct Saved {
  std::string id;
  std::string game;
  std::string options;
  ClockSpec clock;
  bool is_private = false;
  Status status = Status::open;
  std::string result;  // result line text, "" while unfinished
  // The whole record. Its last turn is still open when `open_turn` (a record has no form for that: a reader
  // ends every turn); restore() also takes the older form, a last line `# turn in progress`.
  std::string record;
  bool open_turn = false;
  std::array<Player, 2> seats;
  std::array<std::int64_t, 2> clock_ms{0, 0};
  std::int64_t version = 0;
  std::int64_t turns = 0;
  std::string rematch_of;
  std::int64_t created_ms = 0;
  std::int64_t deadline_ms = 0;                  // correspondence: the wall deadline of the side to move
  std::array<std::string, 2> seat_token_hashes;  // correspondence: token_hash() of each seat's token
  // Correspondence: each seat's token itself, kept so that the links can be shown again; "" when
  // not known (a room made before they were kept).
  std::array<std::string, 2> seat_tokens;
  std::array<SeatMail, 2> seat_mail;  // each seat's mail (docs/mail.md)
  // The last lines of the chat, oldest first (as the store keeps them: Room::kChatKept at most).
  std::vector<ChatLine> chat;
  // A rated game (its end changes both players' ratings), and who won: a seat, 2 for a draw, -1
  // none (unfinished, aborted).
  bool rated = false;
  int winner = -1;
  // Read from the store (the server's from_row): the room's saves are then changes to what is stored. False
  // for a new room (or one built from a record): its first save is whole.
  bool stored = false;
};

// A save sized to the change (Room::take_save): what the store needs to catch up with the room
// since the last save the room handed out. The server maps it to store::GameSave (persistence/store.h).
struct RoomSave {
  // Every column and the progress as they are now. `saved.record`: the record's `#!` line while the game is
  // unfinished, the whole record once it is finished (then there are no entries: the store keeps it whole).
  Saved saved;
  bool row_changed = true;  // a queried column changed, or the game is new or finished
  // The texts of the record's entries from index `from` on (Record::entry_texts): they replace the stored
  // entries from `from` on.
  std::size_t from = 0;
  std::vector<std::string> entries;
  // Whether the store may hold entries from `from` on, which must go first (an open turn rewritten, a turn
  // taken back, a room read from the store): false when the save only appends, so that the usual turn
  // costs the store no delete.
  bool replaces = true;
  // The version the store holds if every save handed out before this one committed; none for a save that
  // stands alone (a new room's first, a finished game's).
  std::optional<std::int64_t> base_version;
  // Chat lines written since the last save: appended to the stored chat.
  std::vector<ChatLine> chat;
};

struct RoomConfig {
  std::string id;
  const Game* game = nullptr;
  std::string options;  // `key=value ...`, checked by create()
  ClockSpec clock;
  bool is_private = false;
  std::string rematch_of;
  bool rated = false;  // seats accounts only; never a bot
};

// How a seat link may take a seat another player id holds (Room::claim_seat). A seat held by an account is
// its owner's: only that account takes it (from any browser, by logging in). A seat held by a guest moves to
// the link's holder (the guest moving to another browser) once asked to (`take`).
struct SeatClaim {
  bool take = false;
  // The holder's account name when the server knows it is an account ("" a guest, or not known): a seat
  // taken as a guest who registered since holds no user name in the room.
  std::string holder_account;
};

class Room {
 public:
  static constexpr std::size_t kEventLog = 256;  // events kept for reconnecting clients
  static constexpr std::int64_t kMaxClockMs = 24LL * 3600 * 1000;
  static constexpr std::int64_t kDayMs = 24LL * 3600 * 1000;
  // A live clock starts for each side with its first move; a side that has not made it within this time
  // aborts the game.
  static constexpr std::int64_t kFirstMoveMs = 30 * 1000;
  static constexpr const char* kNoFirstMove = "no first move";
  // A rated game that ends by resignation or on time before each side has made its first move is aborted
  // and unrated (as on Lichess): a second account resigning at once must not give a rating away. The
  // record gets this comment, and the result this detail.
  static constexpr const char* kTooShortToRate = "too short to rate";
  static constexpr std::size_t kChatKept = 100;  // chat lines a room keeps (and a state shows)
  // The notes a state shows (`notes`): the room's last events of this many that a page words beside the
  // moves (a draw offered, declined, a takeback, a seat moved, the end), so that a reload shows them again.
  static constexpr std::size_t kNotesKept = 8;
  static constexpr std::size_t kChatMaxChars = 300;
  static constexpr std::size_t kChatBurst = 5;
  static constexpr std::int64_t kChatWindowMs = 10 * 1000;

  // A new room with no one seated. Errors: bad options or clock.
  static Result<Room> create(const RoomConfig& config, Now now);
  // A room as it was saved. Live clocks resume from the time left at the last save: time spent in the turn
  // that was interrupted, and the time the server was down, are not charged.
  static Result<Room> restore(const Saved& saved, Now now);

  // --- commands from players (by player id)
  Effect sit(const Player& player, std::optional<int> seat, Now now);
  Effect leave(const std::string& player_id, Now now);
  // Plays `items` (action texts, as between the `/` of a record turn) for the player's seat, then ends the
  // turn if `end_turn`. All of them or none.
  Effect act(const std::string& player_id, const std::vector<std::string>& items, bool end_turn, Now now);
  // The same for a seat, whoever holds it (the server checked the seat's token).
  Effect act_seat(int seat, const std::vector<std::string>& items, bool end_turn, Now now);
  // What `items` (and `end_turn`) would make of the current turn of the player's seat, for that player
  // alone (`try`): the room does not change, nothing is stored or announced. The answer is the
  // members of a `tried` message: `"actions":[...],"position":{...},"legal":[...]` (and
  // `"can_end_turn":true`), the legal actions those of the seat if it is still to move, else `[]`. Errors are
  // those of act().
  struct Tried {
    std::optional<Failure> error;
    std::string members;
  };
  Tried try_turn(const std::string& player_id, const std::vector<std::string>& items, bool end_turn,
                 Now now) const;
  using SeatClaim = lobby::SeatClaim;
  // Takes `seat` with its seat token (given as token_hash()): a free seat, or one held by another player id
  // (SeatClaim). Errors: bad_token, already_seated, game_over, seat_owned (an account holds it), seat_held (a
  // guest holds it and `take` was not given). A seat that moves says so in its `seated` event (`replaces`:
  // the id and name that held it), so that the browser that held it can tell its player.
  Effect claim_seat(const Player& player, int seat, const std::string& token_hash, Now now,
                    const SeatClaim& how = {});
  // The account holding `seat`, as the room knows it (the user name it sat down with), or "".
  const std::string& seat_account(int seat) const { return seats_[seat].username; }
  // A correspondence move by mail (room_mail.cpp): `text` is the game's whole log with the new turn(s) of
  // `seat` appended. Every stored turn must be in it, unchanged; the new turns are played whole, as `seat`
  // only. All or nothing. The error's `line` is the log's line; codes: bad_record, other_game, differs,
  // stale, not_your_turn, other_side, illegal, turn_in_progress, game_over. No new turn: no error, no event.
  Effect play_log(int seat, std::string_view text, Now now);
  Effect resign(const std::string& player_id, Now now);
  Effect offer_draw(const std::string& player_id, Now now);  // accepts a standing offer of the opponent
  Effect decline_draw(const std::string& player_id, Now now);
  Effect abort(const std::string& player_id, Now now);
  // Takeback by agreement: the player who completed the last turn asks to take it back
  // (`takeback_offer`), or the opponent's standing request is accepted (`takeback`: the turn leaves the
  // record and the position, and its player is to move again). A request stands until the opponent answers
  // or acts. Refused (`cannot_take_back`) when the last turn is not the asker's, the opponent has begun its
  // turn, the game is a correspondence one (its turns may have gone out by mail), or a computer plays.
  Effect take_back(const std::string& player_id, Now now);
  Effect decline_takeback(const std::string& player_id, Now now);
  // A chat line from `player` (seated or not): stored, then sent to those who may read it (ChatLine).
  // Errors: `bad_chat` (empty once trimmed, over kChatMaxChars characters, control characters), `chat_limit`
  // (over kChatBurst lines in kChatWindowMs from one player).
  Effect chat(const Player& player, std::string_view text, Now now);
  // The `chat` message of a line, as sent to the room.
  std::string chat_message(const ChatLine& line) const;
  // Whether a viewer (a seat, or -1) may read a line now.
  bool may_read(const ChatLine& line, int viewer) const {
    return !line.spectators || viewer < 0 || status_ == Status::finished;
  }
  Effect ask_rematch(const std::string& player_id, Now now);
  // Hints (a casual game against the computer): whether `player_id` may ask for the best turn now. Refusals:
  // not_seated, not_started, game_over, no_hints_rated (a rated game), no_hints_person (the opponent is
  // not the computer), not_your_turn, turn_in_progress (a turn begun, by a mailed log).
  std::optional<Failure> may_hint(const std::string& player_id) const;
  // The hint found for the position after `turns` turns (record().turn_count() when it was asked for): kept
  // in the record as a comment `# hint N TURN` (N the seat's player number, 1 or 2: kHintComment) and
  // announced to the room (event `hint`, with the turn and the counts). Refusals: those of may_hint, and
  // `stale` when a turn was played meanwhile.
  Effect hint(const std::string& player_id, std::int64_t turns, const std::string& turn, Now now);
  static constexpr std::string_view kHintComment = "hint ";
  // The hints each seat was given in this game: the record's `# hint` comments.
  std::array<int, 2> hints() const;

  // --- from the server
  // Correspondence rooms: the seats' token hashes (the tokens themselves are given to the players only).
  void set_seat_token_hash(int seat, std::string hash) { seat_token_hashes_[seat] = std::move(hash); }
  // The token itself, kept to show the seat's link again to whom may see it (seat_links).
  void set_seat_token(int seat, std::string token) { seat_tokens_[seat] = std::move(token); }
  // A correspondence room's links that `viewer` (a seat, -1 for none) may see, by seat: its own seat's, and
  // that of a seat nobody holds yet (to send to the opponent). Each `/#/room/ID?seat=S&token=T`; "" for a
  // seat whose link is not shown.
  std::array<std::string, 2> seat_links(int viewer) const;
  const std::string& seat_token_hash(int seat) const { return seat_token_hashes_[seat]; }
  const std::string& seat_token(int seat) const { return seat_tokens_[seat]; }
  // Each seat's mail (docs/mail.md); a change is saved with the row at the next save.
  const SeatMail& seat_mail(int seat) const { return seat_mail_[seat]; }
  void set_seat_mail(int seat, SeatMail mail) { seat_mail_[seat] = std::move(mail); }
  // A finished or unfinished game from a record (the import): no one seated; unfinished ones play on with a
  // correspondence clock of `days`, finished ones only show. Errors: an incomplete record.
  // `seats`: who sits down at once (a computer opponent of a game played on from a record); the others
  // are free. `days` 0 with an unfinished record: no clock (a game against the computer).
  static Result<Room> from_record(const std::string& id, const Record& record, std::int64_t days,
                                  bool is_private, Now now, const std::array<Player, 2>& seats = {});
  Effect tick(Now now);  // flag fall: call at deadline() (and any time: it does nothing early)
  Effect set_online(int seat, bool online, Now now);
  // The player `player_id` is called `name` now (a rename, or a guest registered as `username`): its seat
  // shows it (event `renamed`), and the row's seat names follow at the next save; the record keeps the names
  // the game was played under. Nothing when the player holds no seat here or nothing changed.
  Effect rename_seat(const std::string& player_id, const std::string& name, const std::string& username, Now now);
  // An open room nobody took up in time (the server's --open-room-expiry): aborted, so it leaves the lists
  // and its seated player, if any, sees why; `not_open` if the room is not open.
  Effect expire(Now now);
  // A moderator closes the room (docs/protocol.md "Moderation"): an unfinished game is aborted, whatever was
  // played, with the record's comment and the result's detail kClosed; a finished room refuses (game_over).
  Effect close(Now now);
  static constexpr const char* kClosed = "closed by a moderator";
  bool online(int seat) const { return online_[seat]; }
  Effect set_spectators(int count, Now now);
  Effect rematch_opened(const std::string& new_room, Now now);

  // --- reading
  const std::string& id() const { return id_; }
  const Game& game() const { return record_.game(); }
  const Record& record() const { return record_; }
  Status status() const { return status_; }
  std::int64_t version() const { return version_; }
  // Which life of the room its versions count in: set by whoever loads the room (a new number each time a
  // room is made or read from the store again), carried by every state and event. Versions grow by one per
  // event within an epoch; the same version in two epochs names two different events (those not stored,
  // such as presence, are numbered again by the room's next life).
  std::int64_t epoch() const { return epoch_; }
  void set_epoch(std::int64_t epoch);
  const RoomConfig& config() const { return config_; }
  const std::array<Player, 2>& seats() const { return seats_; }
  int seat_of(const std::string& player_id) const;  // -1 if not seated
  int seat_to_move() const;                         // -1 unless live
  // When the running clock falls (or the first-move time ends), on the steady clock; nullopt if neither runs.
  std::optional<std::int64_t> deadline() const;
  // When the side to move of a correspondence game loses on time, in Unix ms (wall time); nullopt otherwise.
  std::optional<std::int64_t> wall_deadline() const;
  std::array<std::int64_t, 2> clock_left(Now now) const;
  std::int64_t created_ms() const { return created_ms_; }

  // The full state as a `state` message (docs/protocol.md) as `viewer` sees it (a seat, or -1 for a
  // spectator): the seat to move also gets its legal actions. The members of `extra` (an object) are added.
  std::string state_message(Now now, int viewer = -1) const;
  std::string state_message(Now now, int viewer, const nlohmann::json& extra) const;
  nlohmann::json state_json(Now now, int viewer = -1) const;
  // The members `"legal":[...],"can_end_turn":b` for the seat to move, "" when no seat is to move.
  std::string legal_members() const;
  // Who asked for a rematch, by seat.
  const std::array<bool, 2>& rematch_asked() const { return rematch_; }
  // One line of the lobby's list.
  Summary summary(Now now) const;
  // The events after `since`, if the log still holds them all (empty if up to date); nullopt otherwise, and
  // always for another epoch.
  std::optional<std::vector<Message>> events_since(const Since& since) const;
  // The whole stored form (the record whole): what restore() takes.
  Saved saved(Now now) const;
  // The next save: only what changed since the last one handed out (the columns if one changed, the entries
  // from the first that may have changed, the progress), and remembers it as handed out. The server queues
  // it, in order; if a save fails, the room is dropped and reloaded from the store (restore() with
  // `stored`), whose first save rewrites every entry.
  RoomSave take_save(Now now);

 private:
  Room(RoomConfig config, Record record);

  Failure* check_player_turn(const std::string& player_id, Failure& out) const;
  Effect fail(std::string code, std::string message) const;
  // Numbers it, logs it. With `changed`, the position may have changed: the event gets the member `patch`
  // (RFC 7386, from the position of the last patched event to now), and `e` learns who moves next.
  Message event(nlohmann::json body);
  Message event(nlohmann::json body, Effect& e, Now now);
  void start_game(Now now);
  void charge_clock(Now now);   // the running side pays the time since the turn began
  void restart_clock(Now now);  // the clock of the seat to move starts (live or correspondence)
  Failure* check_seat_turn(int seat, Failure& out) const;
  bool flag_fallen(Now now) const;
  void finish(Effect& effect, Now now);  // the record holds its result: close the room
  Value position_value(Now now) const;       // the POSITION (no legal actions: see legal_members)
  // The POSITION of `record` (the room's, or a trial of it: try_turn) in this room.
  Value position_of(const Record& record, Now now) const;
  static std::string legal_members_of(const State& st);
  nlohmann::json state_fields() const;       // state_json without its position
  std::string position_text(Now now) const;  // position_value as JSON text
  nlohmann::json clocks_json(Now now) const;
  nlohmann::json result_json() const;
  nlohmann::json seats_json() const;

  std::string id_;
  RoomConfig config_;
  Record record_;
  Status status_ = Status::open;
  std::array<Player, 2> seats_;
  std::array<bool, 2> online_{false, false};
  int spectators_ = 0;
  mutable std::shared_ptr<const nlohmann::json> summary_fixed_;  // Summary::fixed, built once
  std::int64_t version_ = 0;
  std::int64_t epoch_ = 0;
  Recent<std::pair<std::int64_t, Message>> log_{kEventLog};
  // The position as of the last patched event (or restore), as JSON text: what the next patch starts from.
  std::string shown_;
  std::int64_t created_ms_ = 0;
  // Clocks: time left by seat at the start of the running turn, the seat whose clock runs, and since when.
  std::array<std::int64_t, 2> clock_ms_{0, 0};
  int running_ = -1;
  std::int64_t running_since_ = 0;
  // While a live clock waits for the side to move to make its first move: since when (steady), else -1.
  std::int64_t first_move_since_ = -1;
  // A rated game ending outside the board before both sides played: aborted and unrated (kTooShortToRate).
  bool abort_unrated(Effect& e, Now now);
  std::string abort_detail_;  // why the game was aborted, when the room did it (kNoFirstMove)
  int draw_offer_ = -1;                        // the seat offering a draw, -1 if none
  int takeback_offer_ = -1;                    // the seat asking to take back its last turn, -1 if none
  // The record without its last turn, if `seat` may take that turn back now; else why not.
  Result<Record> without_last_turn(int seat) const;
  std::array<bool, 2> rematch_{false, false};  // who asked for a rematch
  std::string rematch_room_;
  std::int64_t wall_deadline_ = 0;  // correspondence: Unix ms, 0 when no turn is running
  std::array<std::string, 2> seat_token_hashes_;
  std::array<std::string, 2> seat_tokens_;
  std::array<SeatMail, 2> seat_mail_;
  Recent<ChatLine> chat_{kChatKept};        // the last kChatKept lines
  // The last kNotesKept note events (note_kind), each its body with `at_ms` as JSON text: kept in memory
  // only (a room read again from the store starts without them).
  Recent<std::string> notes_{kNotesKept};
  void note(const nlohmann::json& body, Now now);
  std::vector<ChatLine> chat_unsaved_;      // lines not yet handed to the store (take_save)
  std::map<std::string, std::deque<std::int64_t>> chat_times_;  // by player: when its last lines came
  // What the room last handed to the store (take_save): whether it did (or was restored from the store),
  // the queried columns then, the entries that cannot change any more, and the version.
  struct Handed {
    bool any = false;
    Saved columns;  // no record
    std::size_t stable_entries = 0;
    // How many entries the store may hold (every one handed out so far); unknown (all of them) once read
    // from the store.
    std::size_t stored_entries = static_cast<std::size_t>(-1);
    std::int64_t version = 0;
  };
  Handed handed_;
  Saved saved_columns() const;  // saved() without the record
};

}  // namespace cinq::lobby
