// The store (docs/design.md, "Storage"): players and games, in one SQLite file in WAL mode (the default) or in
// a PostgreSQL database; both backends have the same tables and columns.
//
// Storage the size of a turn (schema version 3). A game is its `games` row (the columns a query
// needs) plus, while it is unfinished, its record kept as entries and a small progress row:
//
//   games           one row per game. `record` holds the `#!` line while the game is unfinished, the whole
//                   record (notation.md form) once it is finished. Written only when a queried column changes
//                   (status, seats, result, deadline, privacy, seat tokens, ...), when the game is new, and
//                   when it finishes; its progress columns (clock times, version, turns, updated_ms) are
//                   those of that last write, and the progress row's win while there is one.
//   record_entries  (game_id, seq, text) WITHOUT ROWID, primary key (game_id, seq): one row per entry of an
//                   unfinished game's record after its `#!` line, in the form of one record line for that
//                   entry alone (rules/notation.h, layout_record): a turn `B/g3 f3/@ c3/` (no number), a
//                   players line, `> timestamp`, `# comment`, `#- 2`, `#= result`, `...`. A turn still open (a
//                   Baltek turn sent action by action) is rewritten in place as it grows.
//   game_progress   (game_id, version, turns, seat0_clock_ms, seat1_clock_ms, open_turn, updated_ms) WITHOUT
//                   ROWID: what changes every turn but no query looks at, one short row per unfinished game.
//   chat            (game_id, seq, at_ms, channel, seat, player_id, name, text) WITHOUT ROWID (version 4):
//                   each game's chat lines, appended by its saves; not part of the record.
//   seat_tokens     (game_id, seat, token) WITHOUT ROWID (version 4): an unfinished correspondence game's seat
//                   tokens, written with its row, deleted when it finishes.
//   sessions        (token_hash, player_id, created_ms) WITHOUT ROWID (version 5): an account's login tokens.
//   ratings         (player_id, game, pool, rating, deviation, volatility, games, wins, losses, draws,
//                   last_ms) WITHOUT ROWID (version 5): Glicko-2 per game and pool (live, correspondence).
//   rating_history  (player_id, game_id, ...) WITHOUT ROWID (version 5): one row per rated game and player,
//                   written with the game's result; its key is what makes a game count once.
//   mail_seats      (game_id, seat, address, by_mail, confirmed, reminders, zone, language) (version 7; zone: 8;
//                   language: 9): each seat's mail
//                   (SeatMail), written with the games row, kept after the game ends.
//   mail_outbox     (id, slot, game_id, seat, kind, sender, recipient, message, ...) (version 7): the mails to
//                   send (MailRow), queued in the transaction that causes them, claimed and sent by the server.
//   mail_received   (message_id, at_ms) (version 7): the mails played or answered, so that one delivered twice
//                   acts once.
//   account_mail    (player_id, address, pending, code_hash, unsubscribe_key, prefs, digest_day, updated_ms)
//                   (version 8): an account's own address and which mails it wants (AccountMail).
//   tournaments     (id, game, format, name, status, created_by, starts_ms, created_ms, updated_ms, version,
//                   state) (version 10): a tournament's whole state as its logic saves it (TournamentRow).
//   analyses        (game_id, settings, analysis, created_ms) (version 11): a finished game's analysis at one
//                   depth or think time, computed once (AnalysisRow).
//   roles, sanctions, reports, blocks, audit, sightings (version 12): moderation (RoleRow and the rows after
//                   it), written by moderate() alone.
// Version 5 also gives players a user name and a password hash (accounts) and games `rated` and `winner`.
//
// So an accepted turn writes one entry row and the progress row, whatever the game's length. Reading a game
// lays its record out from the `#!` line and the entries (layout_record: numbered, aligned turn lines, no
// replay). When the game finishes, the whole record goes into `games.record` and its entry and progress rows
// are deleted, in the same transaction. A file of version 2 (whole records in `games.record`) is upgraded in
// place at open: the records of unfinished games are split into entries (split_record), finished ones keep
// theirs. The store links rules/ for that syntax and layout only (no replay, no game logic).
//
// Every save is one transaction, committed (SQLite: synchronous=FULL; PostgreSQL: synchronous_commit as the
// server sets it, on by default) before it returns: the server announces a turn
// only after its save committed, so a crash never loses a turn anyone has seen.
//
// Thread-safety: every method may be called from any thread. Writes go through one connection, reads
// through another (WAL, or PostgreSQL's MVCC, lets them run at once); each connection is used under its own
// mutex. A game is read in one read transaction (its row and its entries from the same snapshot). The server
// calls the store only from its Worker threads (persistence/worker.h), never from a network thread.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cinq::store {

struct Error {
  std::string message;
};

// What a read of the store gives: what it found, and, when it could not read (the database unreachable, an
// I/O error), why. A read that failed found nothing, so "there is none" and "try again" must be told apart by
// failed(), never by an empty result: a room that could not be read is "busy: try again", not "no such room".
//
// A Read<T> is the T it found (an optional row, a list of rows), used as one: `store.game(id)->record`,
// `for (auto& g : store.unfinished_games())`, `std::optional<GameRow> row = store.game(id)`; a caller that
// must tell a failure apart asks `failed()` and `error()`. A count or a yes/no (T a number or bool) converts
// to its value. Writes keep their form, `bool` and `Error&`: a write has no value to carry.
template <typename T>
class Read : public T {
 public:
  Read() = default;
  // What was found.
  template <typename U = T>
    requires(!std::is_same_v<std::remove_cvref_t<U>, Read> && std::is_constructible_v<T, U &&>)
  Read(U&& value) : T(std::forward<U>(value)) {}
  // The read failed: nothing found, and why.
  Read(Error error) : error_(std::move(error)) {}

  bool failed() const { return error_.has_value(); }
  const Error& error() const { return *error_; }  // only when failed()

 private:
  std::optional<Error> error_;
};

// A count or a yes/no: its value, or the failure.
template <typename T>
  requires std::is_arithmetic_v<T>
class Read<T> {
 public:
  Read() = default;
  Read(T value) : value_(value) {}
  Read(Error error) : error_(std::move(error)) {}

  operator T() const { return value_; }
  bool failed() const { return error_.has_value(); }
  const Error& error() const { return *error_; }

 private:
  T value_{};
  std::optional<Error> error_;
};

struct PlayerRow {
  std::string id;          // "p" + random base62
  std::string token_hash;  // hex digest of the secret token (the token itself is never stored)
  std::string name;
  std::int64_t created_ms = 0;  // Unix time, milliseconds
  // Accounts (schema version 5): "" for a guest. The user name is unique without regard to case; the password
  // is kept as libsodium's crypto_pwhash_str (Argon2id, its salt and costs inside), never in clear.
  std::string username;
  std::string password_hash;
  // The hashes of the tokens given at each login (table sessions), newest last: each works like token_hash.
  std::vector<std::string> sessions;
  // How a write treats the stored sessions. `whole` (tools, copies, tests): the stored list becomes
  // `sessions`. `changes` (the server, where several nodes may log one account in at the same instant): the
  // stored list is changed, never rewritten — every one ended first if `sessions_all_ended`, then
  // `sessions_ended` removed, `sessions_added` added (newest last), and the oldest beyond kMaxSessions dropped.
  enum class SessionWrite { whole, changes };
  SessionWrite session_write = SessionWrite::whole;
  std::vector<std::string> sessions_added, sessions_ended;
  bool sessions_all_ended = false;
};

// The login tokens an account keeps (the oldest go first).
constexpr std::size_t kMaxSessions = 20;

// What claim_username() did.
enum class UsernameClaim { claimed, taken, not_guest, failed };

// A player's Glicko-2 rating in one game and pool ("live" or "correspondence"), table ratings.
struct RatingRow {
  std::string player_id;
  std::string game;
  std::string pool;
  double rating = 1500;
  double deviation = 350;
  double volatility = 0.06;
  std::int64_t games = 0, wins = 0, losses = 0, draws = 0;
  std::int64_t last_ms = 0;  // the end of the last rated game, 0: never
  std::string username;      // filled by leaderboard()
};

// What one rated game did to one player's rating (table rating_history, one row per player and game: the
// guard that applies a game once).
struct RatingChange {
  std::string player_id;
  std::string game_id;
  std::string game;
  std::string pool;
  std::int64_t at_ms = 0;
  double score = 0;  // 1 won, 0.5 draw, 0 lost
  double before_rating = 0, before_deviation = 0;
  double rating = 0, deviation = 0, volatility = 0;
};

// An archive search (finished games, public ones): every field optional.
struct ArchiveQuery {
  std::string player_id;  // a seat's player
  std::string game;
  std::string result;     // "win" or "loss" (of player_id), "draw", "decided", "aborted"; "" any
  int rated = -1;         // 1 rated, 0 not, -1 either
  std::int64_t from_ms = 0, to_ms = 0;  // updated_ms in [from, to); 0: open
  int offset = 0, limit = 20;
};

// One line of a game's chat (schema version 4): not part of its record.
struct ChatRow {
  std::int64_t at_ms = 0;
  std::string channel;  // "players" or "spectators"
  int seat = -1;        // the writer's seat, -1 for a spectator
  std::string player_id;
  std::string name;
  std::string text;
};

// A seat's mail (schema version 7, table mail_seats): where its notices go and how. Written with the games
// row (GameSave::write_row), kept after the game ends (an unsubscribe link still finds it).
struct SeatMail {
  std::string address;    // "" none: the seat gets no mail
  bool by_mail = false;   // the seat plays by mail alone: every turn is mailed, even while a browser is open
  bool confirmed = false; // the address is its owner's (confirmed by a link, or by a reply from it)
  std::string reminders;  // "" the default reminders, "off" none, or the leads before the deadline ("24h,8h,1h")
  std::string zone;       // the IANA time zone its mails give times in ("Europe/Paris"); "" UTC (version 8)
  std::string language;   // the language of its mails ("fr"); "" English (version 9)
  bool operator==(const SeatMail&) const = default;
};

struct GameRow {
  std::string id;                  // the room id
  std::string game;                // "tablut", ...
  std::string options;             // "key=value key=value", as given
  std::int64_t clock_base_ms = 0;  // 0: no clock
  std::int64_t clock_increment_ms = 0;
  bool is_private = false;
  std::string kind = "live";                   // "live" or "correspondence"
  std::string status = "open";                 // "open" (waiting for players), "live", "finished"
  std::string result;                          // the result line's text ("A escape"), "" while unfinished
  std::string record;                          // the whole record, notation.md form (canonical layout)
  std::array<std::string, 2> seat_ids;         // player ids by seat, "" if empty
  std::array<std::string, 2> seat_names;       // display names by seat
  std::array<std::int64_t, 2> clock_ms{0, 0};  // time left by seat at the last save
  std::int64_t version = 0;                    // the room's version at the last save
  std::int64_t turns = 0;                      // turns started
  std::string rematch_of;                      // the room this one is a rematch of, "" if none
  std::int64_t created_ms = 0;
  std::int64_t updated_ms = 0;
  // Correspondence (schema version 2): days per turn (0: not correspondence), the wall deadline of the side
  // to move (Unix ms, 0: none), and the hashes of the seats' secret tokens ("" if none).
  std::int64_t clock_days = 0;
  std::int64_t deadline_ms = 0;
  std::array<std::string, 2> seat_token_hashes;
  // Schema version 3: the record's last turn is still open (not ended: more actions of it may follow).
  bool open_turn = false;
  // Schema version 4 (table seat_tokens): a correspondence game's seat tokens themselves, so that their links
  // can be shown again; kept while the game is unfinished. Read by game(), unfinished_games() and
  // games_of_player().
  std::array<std::string, 2> seat_tokens;
  // Schema version 5: a rated game (both seats accounts; its end updates their ratings in the transaction
  // that stores it, once), and who won: a seat (0, 1), 2 for a draw, -1 none (unfinished, aborted, or
  // finished before version 5).
  bool rated = false;
  int winner = -1;
  // Schema version 4 (table chat): the last 100 lines, oldest first, read by game() and unfinished_games();
  // a save's lines are appended (GameSave::chat).
  std::vector<ChatRow> chat;
  // Schema version 6 (game_progress.commands): the ids of the last commands forwarded from other
  // nodes that this game applied, oldest first, space-separated (at most kRememberedCommands): a command sent
  // again after its node lost the owner is recognised and not applied twice.
  std::string commands;
  // Schema version 7 (table mail_seats): each seat's mail. Read by game(), unfinished_games() and
  // games_of_player().
  std::array<SeatMail, 2> seat_mail;
};
inline constexpr std::size_t kRememberedCommands = 32;

// The right of one node to write one game (table room_leases): a room is played by the node holding
// its lease, and every save of it names the lease, so a node that lost it (another node took the room over)
// can no longer store anything of it. `acquire`: this save takes the lease first (a room the node made).
struct Fence {
  std::string node;        // the node's id (its name and incarnation)
  std::int64_t lease = 0;  // the lease's number, which grows each time the room changes hands
  bool acquire = false;
};

// One mail in the outbox (schema version 7, table mail_outbox): stored in the transaction of the turn or the
// deadline that causes it, sent later by the server's mail sender (server/mail_sender.h), which claims it
// first (one node sends each) and records how it went.
struct MailRow {
  std::string id;         // the event that causes it: queued once per event ("turn.AB12.0.14"); a second
                          // queue of the same id is ignored
  std::string slot;       // "" or a coalescing key ("turn.AB12.0"): a queued, unsent mail of the same slot is
                          // replaced by this one (its row keeps its id) instead of a second mail going out
  std::string game_id;
  int seat = -1;          // the seat it is for; -1 none (an answer to a mail that named no seat)
  std::string kind;       // "turn", "reminder", "end", "invite", "answer"
  std::string sender;     // the envelope sender
  std::string recipient;  // the envelope recipient
  std::string message;    // the whole RFC 5322 message, CRLF line ends
  std::int64_t created_ms = 0;
  std::int64_t due_ms = 0;        // not sent before (a reminder's time; a your-turn mail's gathering delay)
  std::string state = "queued";   // "queued", "sent", "failed" (a permanent refusal), "cancelled"
  int attempts = 0;               // sends tried
  std::int64_t next_ms = 0;       // after a temporary failure: not tried again before
  std::string error;              // the last failure, as the mail server said it
  std::int64_t sent_ms = 0;
};

// An account's mail (schema version 8, table account_mail; docs/mail.md "Accounts"): its address, kept once
// confirmed by a link mailed to it, and which mails it wants. A row of its own, apart from the players row
// (which the server rewrites from memory), written only by put_account_mail.
struct AccountMail {
  std::string player_id;
  std::string address;          // the confirmed address, "" none
  std::string pending;          // an address given and not yet confirmed, "" none
  std::string code_hash;        // the hash of the pending address's confirmation code (the link holds the code)
  std::string unsubscribe_key;  // the secret of the account's one-click unsubscribe link
  std::string prefs;            // mail::AccountPrefs as text ("" : the defaults)
  std::string digest_day;       // the last day (UTC, "2026-11-29") a digest was queued for
  std::int64_t updated_ms = 0;
  bool operator==(const AccountMail&) const = default;
};

// A tournament (schema version 10, table tournaments; docs/tournaments.md): its whole state in the saved form
// of tournament::Tournament (JSON: entrants, rounds, pairings and their rooms, results), and the columns a
// list needs. One row, rewritten whole by each save; `version` makes the saves a chain: a save names the
// version it follows and fails on any other, so two writers never both pair a round.
struct TournamentRow {
  std::string id;
  std::string game;        // "tablut", ...
  std::string format;      // "swiss", "roundrobin", "arena"
  std::string name;
  std::string status;      // "open" (taking entries), "running", "finished"
  std::string created_by;  // the creating account's player id
  std::int64_t starts_ms = 0;  // when it starts by itself, 0: by hand
  std::int64_t created_ms = 0;
  std::int64_t updated_ms = 0;
  std::int64_t version = 0;    // 1 for a new tournament, one more each save
  std::string state;           // the saved form
  bool operator==(const TournamentRow&) const = default;
};

// A finished game's analysis (schema version 11, table analyses; analysis/analysis.h): computed once for each
// settings key ("depth=3", "think=500") and kept as the protocol's JSON text.
struct AnalysisRow {
  std::string game_id;
  std::string settings;  // analysis::Settings::key()
  std::string analysis;  // analysis::to_json(), as text
  std::int64_t created_ms = 0;
  bool operator==(const AnalysisRow&) const = default;
};
// Moderation (schema version 12; moderation/moderation.h, docs/protocol.md "Moderation"). Plain rows: the
// logic (who may, when a sanction ends) is the moderation part's.
struct RoleRow {        // table roles: a player's role, "moderator" or "administrator"
  std::string player_id;
  std::string role;
  std::string granted_by;  // "" the command line
  std::int64_t at_ms = 0;
  bool operator==(const RoleRow&) const = default;
};
struct SanctionRow {    // table sanctions, key (player_id, kind): a ban or a mute in force or ended
  std::string player_id;
  std::string kind;     // "ban" or "mute"
  std::string reason;
  std::string by;
  std::int64_t at_ms = 0;
  std::int64_t until_ms = 0;  // 0: until lifted
  bool operator==(const SanctionRow&) const = default;
};
struct ReportRow {      // table reports
  std::string id;
  std::int64_t at_ms = 0;
  std::string reporter_id;
  std::string target_id;
  std::string room;
  std::string line;
  std::string reason;
  std::string status = "open";  // "open", "resolved"
  std::string handled_by;
  std::int64_t handled_ms = 0;
  bool operator==(const ReportRow&) const = default;
};
struct BlockRow {       // table blocks, key (blocker_id, blocked_id)
  std::string blocker_id;
  std::string blocked_id;
  std::int64_t at_ms = 0;
  bool operator==(const BlockRow&) const = default;
};
struct AuditRow {       // table audit: the moderation log, in order of seq (given by the store)
  std::int64_t seq = 0;
  std::int64_t at_ms = 0;
  std::string actor_id;
  std::string actor_name;
  std::string action;
  std::string target_id;
  std::string target_name;
  std::string detail;
  bool operator==(const AuditRow&) const = default;
};
// Table sightings, key (player_id, kind, value): an account seen from an address or a browser (`value` a
// hash of the address or of the cinq_device cookie, never the address itself), how often and when last.
struct SightingRow {
  std::string player_id;
  std::string kind;  // "address" or "device"
  std::string value;
  std::int64_t first_ms = 0, last_ms = 0, count = 0;
  bool operator==(const SightingRow&) const = default;
};
// Two accounts seen with the same values of one kind, and the rated games between them (linked_accounts).
struct LinkRow {
  std::string a, b;  // a < b
  std::string kind;
  std::int64_t shared = 0;
  std::int64_t rated_games = 0;
};
// Every moderation row (a copy's read and write).
struct ModerationRows {
  std::vector<RoleRow> roles;
  std::vector<SanctionRow> sanctions;
  std::vector<ReportRow> reports;
  std::vector<BlockRow> blocks;
  std::vector<AuditRow> audit;  // seq kept by a copy
  std::vector<SightingRow> sightings;
};
// One moderation write, one transaction, applied in this order: roles set then removed, sanctions set
// (insert or replace) then lifted (deleted), reports put (insert or replace), blocks added then removed,
// audit rows appended (their seq given by the store, unless `keep_seq`), sightings noted (a new row, or the
// count grown by `count` and last_ms moved on).
struct ModerationWrite {
  std::vector<RoleRow> roles;
  std::vector<std::string> roles_removed;  // player ids
  std::vector<SanctionRow> sanctions;
  std::vector<std::pair<std::string, std::string>> sanctions_lifted;  // (player_id, kind)
  std::vector<ReportRow> reports;
  std::vector<BlockRow> blocks;
  std::vector<std::pair<std::string, std::string>> blocks_removed;  // (blocker, blocked)
  std::vector<AuditRow> audit;
  bool keep_seq = false;
  std::vector<SightingRow> sightings;
  bool empty() const {
    return roles.empty() && roles_removed.empty() && sanctions.empty() && sanctions_lifted.empty() &&
           reports.empty() && blocks.empty() && blocks_removed.empty() && audit.empty() && sightings.empty();
  }
};

// Queued mails that no longer apply (the seat played: its your-turn mail and reminders go): every mail still
// queued for `seat` of `game_id` whose kind is one of `kinds`.
struct MailCancel {
  std::string game_id;
  int seat = -1;
  std::vector<std::string> kinds;
};

// One save of a game, sized to what changed since the last one. The server's rooms build these
// (lobby::Room::take_save); the Saver (persistence/saver.h) merges those of one game queued together.
struct GameSave {
  // Every column as it is now; its progress (clock_ms, version, turns, open_turn, updated_ms) is always
  // written. `row.record`: the `#!` line (no newline) while the game is unfinished, the whole record once it
  // is finished (then `from` and `entries` are not used: the entry rows are deleted).
  GameRow row;
  bool write_row = true;  // write the games row: a queried column changed, or the game is new or finished
  // The record's entries from index `from` on; they replace every stored entry from `from` on.
  std::int64_t from = 0;
  std::vector<std::string> entries;
  // Whether stored entries from `from` on may exist and must go first; false: the save appends only.
  bool replaces = true;
  // The version the store must hold for this game for the save to apply (it changes what the store has); a
  // save that finds another version fails, so a save made after a failed one never half-applies. None: the
  // save stands alone (a new game's, or a finished one's).
  std::optional<std::int64_t> base_version;
  // Chat lines to append (the row's own `chat` is not written).
  std::vector<ChatRow> chat;
  // Several nodes: the lease under which the save is made; it fails if the node holds it no more.
  std::optional<Fence> fence;
  // Mail (schema version 7), in the same transaction: the cancels first, then the mails queued, then the
  // Message-IDs of the mails whose turns this save plays (table mail_received: a mail delivered twice plays
  // once).
  std::vector<MailCancel> mail_cancels;
  std::vector<MailRow> mails;
  std::vector<std::string> received;
};

// A node of a cluster (table nodes): alive while its heartbeat is fresh (expires_ms is in the
// database's clock, which every node shares).
struct NodeRow {
  std::string id;       // name:incarnation, unique per process
  std::string name;     // --node
  std::string address;  // where it listens (for operators)
  std::int64_t started_ms = 0;
  std::int64_t expires_ms = 0;
};

// The lease of a tournament (server/tournaments.h): the node holding it runs the tournament (pairs its rounds,
// makes its rooms, keeps its clock). Kept with the rooms' leases under a key no game id can be.
inline std::string tournament_lease(const std::string& tournament_id) { return "t:" + tournament_id; }

// What acquire() found: the lease is this node's now (`lease` > 0), or another live node holds it (`owner`).
struct Lease {
  std::int64_t lease = 0;
  std::string owner;
};

// The save that writes `row` whole (its record split into entries while unfinished); nullopt and `error` if
// the record of an unfinished game is not a record.
std::optional<GameSave> whole_save(const GameRow& row, Error& error);

// What a rated game's end does to its two players (Glicko-2, one rating period each, after the idle periods
// since their last rated game): the ratings after it and the history rows, by seat. `before` holds each seat's
// stored rating (or a new player's default row, 1500/350/0.06). Both backends store these in the transaction
// that stores the result, once (the history row's key).
struct RatedGame {
  std::array<RatingRow, 2> after;
  std::array<RatingChange, 2> changes;
};
RatedGame rate_game(const GameRow& game, const std::array<RatingRow, 2>& before);
// Whether a game's save carries a result that changes ratings (rated, finished with a winner or a draw).
bool changes_ratings(const GameRow& game);

// The store: one interface, two backends with the same behaviour — SQLite, one file (the embedded
// default, persistence/sqlite_store.cpp), and PostgreSQL (persistence/postgres_store.cpp). Every write is one
// transaction committed before it returns; the server announces nothing before that.
class Store {
 public:
  // Opens the store named by `spec`:
  //   sqlite:PATH                        a SQLite file (created with its parent directory and schema if needed)
  //   PATH                               the same (no scheme)
  //   postgresql://USER:PASSWORD@HOST:PORT/DB, postgres://..., postgresql:///DB?host=/run/postgresql
  //                                      a PostgreSQL database (libpq's URI; the schema is created if needed)
  // An older schema is upgraded at open; a newer one is refused. Returns nullptr and fills `error` if it
  // cannot.
  static std::unique_ptr<Store> open(const std::string& spec, Error& error);
  // The spec as a person should see it: "sqlite:PATH", or the PostgreSQL URI without its password.
  static std::string describe(const std::string& spec);
  virtual ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // "sqlite" or "postgresql".
  virtual const char* backend() const = 0;

  // --- writes: each is one committed transaction; false (and `error`) if it failed, nothing changed then
  virtual bool put_player(const PlayerRow& player, Error& error) = 0;  // insert or replace
  // Players and game saves in one transaction (one commit), applied in order: all are committed, or none. The
  // group commit of the server's saves (persistence/saver.h): under load, many rooms' turns share one commit.
  virtual bool save(const std::vector<PlayerRow>& players, const std::vector<GameSave>& games, Error& error) = 0;
  // Whole rows (whole_save): insert or replace each game entirely. For tools and tests; the server saves
  // changes.
  bool save_game(const GameRow& game, Error& error);
  bool save_games(const std::vector<GameRow>& games, Error& error);
  bool save_all(const std::vector<PlayerRow>& players, const std::vector<GameRow>& games, Error& error);

  // --- reads: a game's `record` is whole (laid out from its entries while unfinished). A read that fails
  // (the database unreachable) is logged and gives nothing, with its error (Read::failed()).
  virtual Read<std::optional<PlayerRow>> player(const std::string& id) = 0;
  virtual Read<std::optional<GameRow>> game(const std::string& id) = 0;
  // Games whose status is not "finished", oldest first: what the server reopens on start.
  virtual Read<std::vector<GameRow>> unfinished_games() = 0;
  // Finished games, newest first, at most `limit`; public ones only unless `include_private`.
  virtual Read<std::vector<GameRow>> finished_games(int limit, bool include_private = false) = 0;
  virtual Read<std::int64_t> count_games() = 0;
  // The games where `player_id` holds a seat: unfinished ones first (the nearest deadline first), then the
  // finished ones, most recently updated first; at most `limit`.
  virtual Read<std::vector<GameRow>> games_of_player(const std::string& player_id, int limit = 50) = 0;
  // The last `limit` chat lines of a game, oldest first.
  virtual Read<std::vector<ChatRow>> chat(const std::string& game_id, int limit = 1000) = 0;

  // --- accounts and ratings (schema version 5)
  // A guest becomes the account `username` (its name becomes the user name too), in a transaction of its own,
  // outside any group commit: `taken` when the unique index on user names refuses it (another player has it,
  // whatever its case, on this node or any other), `not_guest` when the player has a user name already or is
  // not stored, `failed` (and `error`) when the database could not be written.
  virtual UsernameClaim claim_username(const std::string& player_id, const std::string& username,
                                       const std::string& password_hash, Error& error) = 0;
  // The account of that user name, whatever its case.
  virtual Read<std::optional<PlayerRow>> player_by_username(const std::string& username) = 0;
  // A player's ratings, every game and pool.
  virtual Read<std::vector<RatingRow>> ratings(const std::string& player_id) = 0;
  // The rating changes of a player (newest first, at most `limit`) or of a game (both players).
  virtual Read<std::vector<RatingChange>> rating_history(const std::string& player_id, int limit = 500) = 0;
  virtual Read<std::vector<RatingChange>> game_ratings(const std::string& game_id) = 0;
  // The best established ratings (deviation at most `max_deviation`) of a game and pool, with user names.
  virtual Read<std::vector<RatingRow>> leaderboard(const std::string& game, const std::string& pool,
                                                   double max_deviation, int limit = 100) = 0;
  // Finished public games matching `query`, newest first, and how many match in all.
  virtual Read<std::vector<GameRow>> search_games(const ArchiveQuery& query,
                                                  std::int64_t* total = nullptr) = 0;

  // --- for `cinq store copy` (tools): every player id, and every game id, in id order.
  virtual Read<std::vector<std::string>> player_ids() = 0;
  virtual Read<std::vector<std::string>> game_ids() = 0;
  // Every rating row and history row (a copy carries them over as they are: they are not recomputed).
  virtual Read<std::vector<RatingRow>> all_ratings() = 0;
  virtual Read<std::vector<RatingChange>> all_rating_history() = 0;
  // Writes rating and history rows as given, in one transaction (a copy's; the server never calls it).
  virtual bool put_ratings(const std::vector<RatingRow>& ratings, const std::vector<RatingChange>& history,
                           Error& error) = 0;

  // --- several nodes (docs/scaling.md). Each is one statement or transaction of its own, on a
  // connection of its own (a node's heartbeat never waits behind reads or saves). Times are the database's.
  // The node's heartbeat: its row, alive for `ttl_ms` from now.
  virtual bool beat(const NodeRow& node, std::int64_t ttl_ms, Error& error) = 0;
  // The nodes alive now.
  virtual Read<std::vector<NodeRow>> live_nodes() = 0;
  // Takes the lease of `game_id` for `node_id` unless a live node other than it holds it (a new lease number
  // each time); nullopt if the database could not be asked.
  virtual std::optional<Lease> acquire(const std::string& game_id, const std::string& node_id, Error& error) = 0;
  // Gives a lease up (the room left this node's memory, or the node is stopping): nobody holds it then.
  virtual bool release(const std::string& game_id, const std::string& node_id, std::int64_t lease,
                       Error& error) = 0;
  // Unfinished games that no live node holds (never held, given up, or held by a node whose heartbeat
  // stopped), oldest first, at most `limit`.
  virtual Read<std::vector<std::string>> orphans(int limit) = 0;
  // The node stops: its leases are given up and its row goes.
  virtual bool leave(const std::string& node_id, Error& error) = 0;
  // Unfinished tournaments (open or running) that no live node runs: their lease (tournament_lease(id), in the
  // same table as the rooms') never held, given up, or held by a node whose heartbeat stopped. Oldest first,
  // at most `limit`.
  virtual Read<std::vector<std::string>> tournament_orphans(int limit) = 0;

  // --- mail (schema version 7; server/mail_sender.h, docs/mail.md). `now_ms` is the caller's clock.
  // Mails (and received Message-IDs) stored outside a game's save, in one transaction: the answers to mails
  // that played nothing. Ids already queued are ignored, as in a save.
  virtual bool queue_mails(const std::vector<MailRow>& mails, const std::vector<std::string>& received,
                           Error& error) = 0;
  // Claims the mails due now (queued, due_ms and next_ms <= now_ms, and not claimed by anyone until after
  // now_ms), oldest due first, at most `limit`, for `node` until now_ms + claim_ms: of several nodes, one
  // sends each. A claim that runs out (its node died) makes the mail claimable again.
  virtual Read<std::vector<MailRow>> claim_mails(const std::string& node, std::int64_t now_ms,
                                                 std::int64_t claim_ms, int limit) = 0;
  // How a claimed mail's send went, releasing the claim and counting the attempt: "sent" (sent_ms = at_ms),
  // "queued" again after a temporary failure (not before next_ms; `error_text` kept), or "failed" for good.
  virtual bool finish_mail(const std::string& id, const std::string& state, std::int64_t at_ms,
                           std::int64_t next_ms, const std::string& error_text, Error& error) = 0;
  // Whether a mail with this Message-ID has been played or answered already.
  virtual Read<bool> mail_received(const std::string& message_id) = 0;
  // Every mail of a game, by creation (for tests, and the room's failures shown to its players).
  virtual Read<std::vector<MailRow>> mails_of_game(const std::string& game_id) = 0;
  // How many mails are in each state ("queued", "sent", "failed", "cancelled").
  virtual Read<std::vector<std::pair<std::string, std::int64_t>>> count_mails() = 0;

  // --- accounts' mail (schema version 8, AccountMail)
  virtual Read<std::optional<AccountMail>> account_mail(const std::string& player_id) = 0;
  // Writes it (insert or replace) and queues `mails` (its confirmation, its digest) in one transaction.
  virtual bool put_account_mail(const AccountMail& mail, const std::vector<MailRow>& mails, Error& error) = 0;
  // The account mail of whoever holds `seat` of `game_id`; none for a guest, and none when that seat plays
  // by mail alone (it needs every mail to play).
  virtual Read<std::optional<AccountMail>> seat_account_mail(const std::string& game_id, int seat) = 0;
  // The accounts whose prefs ask for a digest (prefs holding "digest="), with a confirmed address.
  virtual Read<std::vector<AccountMail>> digest_accounts() = 0;

  // --- tournaments (schema version 10, TournamentRow)
  // Writes `row` (its version must be `after` + 1; `after` 0: a new tournament, refused if its id exists; -1:
  // a copied one, inserted at its own version) and
  // queues `mails` (a round's pairings told), in one transaction. Fails, writing nothing, when the stored
  // version is not `after`: another writer saved meanwhile, and this one must read it again.
  virtual bool put_tournament(const TournamentRow& row, std::int64_t after, const std::vector<MailRow>& mails,
                              Error& error) = 0;
  virtual Read<std::optional<TournamentRow>> tournament(const std::string& id) = 0;
  // Tournaments of a status ("" any), newest first (by starts_ms, then created_ms), at most `limit`.
  virtual Read<std::vector<TournamentRow>> tournaments(const std::string& status, int limit) = 0;

  // --- analyses (schema version 11, AnalysisRow)
  // Writes `row`, replacing the game's analysis of the same settings if there is one (the same settings give
  // the same analysis: two computed at once are one).
  virtual bool put_analysis(const AnalysisRow& row, Error& error) = 0;
  virtual Read<std::optional<AnalysisRow>> analysis(const std::string& game_id, const std::string& settings) = 0;
  // Every analysis (cinq store copy), by game and settings.
  virtual Read<std::vector<AnalysisRow>> all_analyses() = 0;
  // --- moderation (schema version 12, ModerationWrite)
  virtual bool moderate(const ModerationWrite& write, Error& error) = 0;
  virtual Read<std::vector<RoleRow>> roles() = 0;
  // Every sanction row, ended or not (few: the server keeps them in memory and asks moderation::active).
  virtual Read<std::vector<SanctionRow>> sanctions() = 0;
  // Reports of a status ("" any), newest first, at most `limit`.
  virtual Read<std::vector<ReportRow>> reports(const std::string& status, int limit) = 0;
  virtual Read<std::optional<ReportRow>> report(const std::string& id) = 0;
  // The blocks that name `player_id`, as blocker or as blocked.
  virtual Read<std::vector<BlockRow>> blocks(const std::string& player_id) = 0;
  // The audit log, newest first, at most `limit`; `target_id` "" for every entry, else those of one target.
  virtual Read<std::vector<AuditRow>> audit(const std::string& target_id, int limit) = 0;
  // Pairs of accounts seen with one address or browser, and their rated games together; most rated first.
  virtual Read<std::vector<LinkRow>> linked_accounts(int limit) = 0;
  // Every row (a copy's).
  virtual Read<ModerationRows> moderation_rows() = 0;

 protected:
  Store() = default;
};

// The backends, behind Store::open.
std::unique_ptr<Store> open_sqlite(const std::string& path, Error& error);
std::unique_ptr<Store> open_postgres(const std::string& uri, Error& error);

}  // namespace cinq::store
