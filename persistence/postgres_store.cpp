// The PostgreSQL backend of the store (store.h), through libpq: the same tables and columns as the
// SQLite file, the same promises.
//
// Two connections, a writer and a reader, each under its own mutex, each with its statements prepared once
// per session. A save is one transaction sent in one round trip: libpq's pipeline mode carries BEGIN, every
// statement and COMMIT together, and the server runs them in order. A change that must apply to a stored
// version (GameSave::base_version) checks it inside the statement (cinq_expect_row raises when no row
// matched), so a stale save aborts the whole transaction as in SQLite; the statements after an error are
// skipped by the server up to the pipeline's sync, and the transaction is then rolled back. A rated game's
// end first reads both players' ratings (FOR UPDATE) in the same transaction: that batch costs a round trip
// more.
//
// The database going away (stopped, restarted, the network cut): a call that finds its connection broken
// reconnects first, at most once per call; while the database cannot be reached every write fails with an
// error (the server refuses the turn with the code `storage` and announces nothing) and every read gives
// nothing and its error (Read::failed()), so the server answers "try again" rather than "no such game". The
// first call after the database is back reconnects, and play goes on.
#include <libpq-fe.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <spdlog/spdlog.h>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "persistence/store.h"
#include "rules/notation.h"

namespace cinq::store {
namespace {

constexpr int kSchemaVersion = 12;

// The schema of version 5, as the SQLite file has it (store.h). `meta` holds the schema version (SQLite keeps
// it in PRAGMA user_version). Text is TEXT, integers BIGINT, reals DOUBLE PRECISION; a user name is unique
// whatever its case (lower(), as user names are ASCII).
constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL,
  name TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  username TEXT NOT NULL DEFAULT '',
  password_hash TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX IF NOT EXISTS players_by_username ON players (lower(username)) WHERE username <> '';
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY,
  game TEXT NOT NULL,
  options TEXT NOT NULL,
  clock_base_ms BIGINT NOT NULL,
  clock_increment_ms BIGINT NOT NULL,
  is_private INTEGER NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  result TEXT NOT NULL,
  record TEXT NOT NULL,
  seat0_id TEXT NOT NULL,
  seat1_id TEXT NOT NULL,
  seat0_name TEXT NOT NULL,
  seat1_name TEXT NOT NULL,
  seat0_clock_ms BIGINT NOT NULL,
  seat1_clock_ms BIGINT NOT NULL,
  version BIGINT NOT NULL,
  turns BIGINT NOT NULL,
  rematch_of TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  updated_ms BIGINT NOT NULL,
  clock_days BIGINT NOT NULL DEFAULT 0,
  deadline_ms BIGINT NOT NULL DEFAULT 0,
  seat0_token_hash TEXT NOT NULL DEFAULT '',
  seat1_token_hash TEXT NOT NULL DEFAULT '',
  rated INTEGER NOT NULL DEFAULT 0,
  winner INTEGER NOT NULL DEFAULT -1
);
CREATE INDEX IF NOT EXISTS games_by_status ON games (status);
CREATE INDEX IF NOT EXISTS games_by_updated ON games (updated_ms);
CREATE INDEX IF NOT EXISTS games_by_seat0 ON games (seat0_id);
CREATE INDEX IF NOT EXISTS games_by_seat1 ON games (seat1_id);
CREATE INDEX IF NOT EXISTS games_finished_by_updated ON games (updated_ms) WHERE status = 'finished';
CREATE TABLE IF NOT EXISTS record_entries (
  game_id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS game_progress (
  game_id TEXT PRIMARY KEY,
  version BIGINT NOT NULL,
  turns BIGINT NOT NULL,
  seat0_clock_ms BIGINT NOT NULL,
  seat1_clock_ms BIGINT NOT NULL,
  open_turn INTEGER NOT NULL,
  updated_ms BIGINT NOT NULL,
  commands TEXT NOT NULL DEFAULT ''
);
-- Version 6: several nodes on one database. The forwarded commands each game applied last, the
-- nodes' heartbeats (in the database's clock, which every node shares) and the rooms' leases.
ALTER TABLE game_progress ADD COLUMN IF NOT EXISTS commands TEXT NOT NULL DEFAULT '';
CREATE TABLE IF NOT EXISTS nodes (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  address TEXT NOT NULL,
  started_ms BIGINT NOT NULL,
  expires_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS room_leases (
  game_id TEXT PRIMARY KEY,
  node_id TEXT NOT NULL,
  lease BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS room_leases_by_node ON room_leases (node_id);
CREATE OR REPLACE FUNCTION cinq_now_ms() RETURNS BIGINT LANGUAGE sql VOLATILE AS
  $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT $$;
-- A save under a lease that is not (or no longer) this node's: the transaction fails.
CREATE OR REPLACE FUNCTION cinq_expect_lease(n BIGINT, game_id TEXT, lease BIGINT) RETURNS INTEGER
LANGUAGE plpgsql AS $$
BEGIN
  IF n = 0 THEN
    RAISE EXCEPTION 'game % is no longer this node''s (lease % lost): another node plays it now', game_id, lease;
  END IF;
  RETURN 1;
END $$;
CREATE TABLE IF NOT EXISTS seat_tokens (
  game_id TEXT NOT NULL,
  seat INTEGER NOT NULL,
  token TEXT NOT NULL,
  PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS chat (
  game_id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  at_ms BIGINT NOT NULL,
  channel TEXT NOT NULL,
  seat INTEGER NOT NULL,
  player_id TEXT NOT NULL,
  name TEXT NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS sessions (
  token_hash TEXT PRIMARY KEY,
  player_id TEXT NOT NULL,
  seq BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_by_player ON sessions (player_id);
CREATE TABLE IF NOT EXISTS ratings (
  player_id TEXT NOT NULL,
  game TEXT NOT NULL,
  pool TEXT NOT NULL,
  rating DOUBLE PRECISION NOT NULL,
  deviation DOUBLE PRECISION NOT NULL,
  volatility DOUBLE PRECISION NOT NULL,
  games BIGINT NOT NULL,
  wins BIGINT NOT NULL,
  losses BIGINT NOT NULL,
  draws BIGINT NOT NULL,
  last_ms BIGINT NOT NULL,
  PRIMARY KEY (player_id, game, pool)
);
CREATE INDEX IF NOT EXISTS ratings_by_board ON ratings (game, pool, rating);
CREATE TABLE IF NOT EXISTS rating_history (
  player_id TEXT NOT NULL,
  game_id TEXT NOT NULL,
  game TEXT NOT NULL,
  pool TEXT NOT NULL,
  at_ms BIGINT NOT NULL,
  score DOUBLE PRECISION NOT NULL,
  before_rating DOUBLE PRECISION NOT NULL,
  before_deviation DOUBLE PRECISION NOT NULL,
  rating DOUBLE PRECISION NOT NULL,
  deviation DOUBLE PRECISION NOT NULL,
  volatility DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (player_id, game_id)
);
CREATE INDEX IF NOT EXISTS rating_history_by_game ON rating_history (game_id);
-- Version 7: correspondence by e-mail (docs/mail.md): each seat's mail, the outbox, the mails played.
CREATE TABLE IF NOT EXISTS mail_seats (
  game_id TEXT NOT NULL,
  seat INTEGER NOT NULL,
  address TEXT NOT NULL,
  by_mail INTEGER NOT NULL,
  confirmed INTEGER NOT NULL,
  reminders TEXT NOT NULL,
  PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS mail_outbox (
  id TEXT PRIMARY KEY,
  slot TEXT NOT NULL,
  game_id TEXT NOT NULL,
  seat INTEGER NOT NULL,
  kind TEXT NOT NULL,
  sender TEXT NOT NULL,
  recipient TEXT NOT NULL,
  message TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  due_ms BIGINT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  next_ms BIGINT NOT NULL,
  error TEXT NOT NULL,
  sent_ms BIGINT NOT NULL,
  claimed_by TEXT NOT NULL,
  claimed_until_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS mail_outbox_due ON mail_outbox (state, due_ms);
CREATE INDEX IF NOT EXISTS mail_outbox_by_game ON mail_outbox (game_id);
CREATE INDEX IF NOT EXISTS mail_outbox_by_slot ON mail_outbox (slot) WHERE state = 'queued';
CREATE TABLE IF NOT EXISTS mail_received (
  message_id TEXT PRIMARY KEY,
  at_ms BIGINT NOT NULL
);
-- Version 8: each seat's time zone, and an account's own address and mail preferences (store.h, AccountMail).
ALTER TABLE mail_seats ADD COLUMN IF NOT EXISTS zone TEXT NOT NULL DEFAULT '';
-- Version 9: each seat's language (its mails', mail/words.h).
ALTER TABLE mail_seats ADD COLUMN IF NOT EXISTS language TEXT NOT NULL DEFAULT '';
CREATE TABLE IF NOT EXISTS account_mail (
  player_id TEXT PRIMARY KEY,
  address TEXT NOT NULL,
  pending TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  unsubscribe_key TEXT NOT NULL,
  prefs TEXT NOT NULL,
  digest_day TEXT NOT NULL,
  updated_ms BIGINT NOT NULL
);
-- Version 10: tournaments (store.h, TournamentRow).
CREATE TABLE IF NOT EXISTS tournaments (
  id TEXT PRIMARY KEY,
  game TEXT NOT NULL,
  format TEXT NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  created_by TEXT NOT NULL,
  starts_ms BIGINT NOT NULL,
  created_ms BIGINT NOT NULL,
  updated_ms BIGINT NOT NULL,
  version BIGINT NOT NULL,
  state TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_by_status ON tournaments (status, starts_ms, created_ms);
-- A tournament's save that must find the version it follows (or, new, no row of its id).
CREATE OR REPLACE FUNCTION cinq_expect_tournament(n BIGINT, id TEXT, version BIGINT) RETURNS INTEGER
LANGUAGE plpgsql AS $$
BEGIN
  IF n = 0 AND version = 0 THEN
    RAISE EXCEPTION 'tournament %: a tournament of that id exists', id;
  ELSIF n = 0 THEN
    RAISE EXCEPTION 'tournament % is not stored at version % (saved meanwhile)', id, version;
  END IF;
  RETURN 1;
END $$;
-- Version 11: the games' analyses (store.h, AnalysisRow).
CREATE TABLE IF NOT EXISTS analyses (
  game_id TEXT NOT NULL,
  settings TEXT NOT NULL,
  analysis TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  PRIMARY KEY (game_id, settings)
);
-- Version 12: moderation (store.h, RoleRow and the rows after it).
CREATE TABLE IF NOT EXISTS roles (
  player_id TEXT PRIMARY KEY,
  role TEXT NOT NULL,
  granted_by TEXT NOT NULL,
  at_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS sanctions (
  player_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  reason TEXT NOT NULL,
  by_id TEXT NOT NULL,
  at_ms BIGINT NOT NULL,
  until_ms BIGINT NOT NULL,
  PRIMARY KEY (player_id, kind)
);
CREATE TABLE IF NOT EXISTS reports (
  id TEXT PRIMARY KEY,
  at_ms BIGINT NOT NULL,
  reporter_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  room TEXT NOT NULL,
  line TEXT NOT NULL,
  reason TEXT NOT NULL,
  status TEXT NOT NULL,
  handled_by TEXT NOT NULL,
  handled_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS reports_by_status ON reports (status, at_ms);
CREATE TABLE IF NOT EXISTS blocks (
  blocker_id TEXT NOT NULL,
  blocked_id TEXT NOT NULL,
  at_ms BIGINT NOT NULL,
  PRIMARY KEY (blocker_id, blocked_id)
);
CREATE INDEX IF NOT EXISTS blocks_by_blocked ON blocks (blocked_id);
CREATE TABLE IF NOT EXISTS audit (
  seq BIGINT PRIMARY KEY,
  at_ms BIGINT NOT NULL,
  actor_id TEXT NOT NULL,
  actor_name TEXT NOT NULL,
  action TEXT NOT NULL,
  target_id TEXT NOT NULL,
  target_name TEXT NOT NULL,
  detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_by_target ON audit (target_id, seq);
CREATE TABLE IF NOT EXISTS sightings (
  player_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  first_ms BIGINT NOT NULL,
  last_ms BIGINT NOT NULL,
  count BIGINT NOT NULL,
  PRIMARY KEY (player_id, kind, value)
);
CREATE INDEX IF NOT EXISTS sightings_by_value ON sightings (kind, value);
-- A change that must find its row (a save made from a stored version): no row, and the transaction fails.
CREATE OR REPLACE FUNCTION cinq_expect_row(n BIGINT, game_id TEXT, version BIGINT) RETURNS INTEGER
LANGUAGE plpgsql AS $$
BEGIN
  IF n = 0 THEN
    RAISE EXCEPTION 'game % is not stored at version % (a save before this one failed): it must be reloaded',
      game_id, version;
  END IF;
  RETURN 1;
END $$;
)sql";

#define CINQ_GAME_COLUMNS                                                                            \
  "id, game, options, clock_base_ms, clock_increment_ms, is_private, kind, status, result, record, " \
  "seat0_id, seat1_id, seat0_name, seat1_name, seat0_clock_ms, seat1_clock_ms, version, turns, "     \
  "rematch_of, created_ms, updated_ms, clock_days, deadline_ms, seat0_token_hash, seat1_token_hash, rated, winner"
#define CINQ_READ_COLUMNS                                                                                  \
  "g.id, g.game, g.options, g.clock_base_ms, g.clock_increment_ms, g.is_private, g.kind, g.status, "       \
  "g.result, g.record, g.seat0_id, g.seat1_id, coalesce(n0.name, g.seat0_name), coalesce(n1.name, g.seat1_name), "                               \
  "coalesce(p.seat0_clock_ms, g.seat0_clock_ms), coalesce(p.seat1_clock_ms, g.seat1_clock_ms), "           \
  "coalesce(p.version, g.version), coalesce(p.turns, g.turns), g.rematch_of, g.created_ms, "               \
  "coalesce(p.updated_ms, g.updated_ms), g.clock_days, g.deadline_ms, g.seat0_token_hash, "                \
  "g.seat1_token_hash, coalesce(p.open_turn, 0), g.rated, g.winner, coalesce(p.commands, '')"
// A seat's name as its player is called now (a guest renamed or registered since), where the player has a
// row; the record keeps the names it was played under.
#define CINQ_FROM_GAMES                                                                                  \
  " FROM games g LEFT JOIN game_progress p ON p.game_id = g.id LEFT JOIN players n0 ON n0.id = g.seat0_id" \
  " LEFT JOIN players n1 ON n1.id = g.seat1_id"

// Every statement, by name; prepared on a connection the first time it is used there.
struct Sql {
  const char* name;
  const char* text;
};

constexpr Sql kUpsertGame{
    "upsert_game",
    "INSERT INTO games (" CINQ_GAME_COLUMNS
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, "
    "$21, $22, $23, $24, $25, $26, $27)"
    " ON CONFLICT (id) DO UPDATE SET game = excluded.game, options = excluded.options,"
    " clock_base_ms = excluded.clock_base_ms, clock_increment_ms = excluded.clock_increment_ms,"
    " is_private = excluded.is_private, kind = excluded.kind, status = excluded.status,"
    " result = excluded.result, record = excluded.record, seat0_id = excluded.seat0_id,"
    " seat1_id = excluded.seat1_id, seat0_name = excluded.seat0_name, seat1_name = excluded.seat1_name,"
    " seat0_clock_ms = excluded.seat0_clock_ms, seat1_clock_ms = excluded.seat1_clock_ms,"
    " version = excluded.version, turns = excluded.turns, rematch_of = excluded.rematch_of,"
    " created_ms = excluded.created_ms, updated_ms = excluded.updated_ms, clock_days = excluded.clock_days,"
    " deadline_ms = excluded.deadline_ms, seat0_token_hash = excluded.seat0_token_hash,"
    " seat1_token_hash = excluded.seat1_token_hash, rated = excluded.rated, winner = excluded.winner"};
constexpr Sql kSelectGame{"select_game", "SELECT " CINQ_READ_COLUMNS CINQ_FROM_GAMES " WHERE g.id = $1"};
constexpr Sql kSelectUnfinished{"select_unfinished", "SELECT " CINQ_READ_COLUMNS CINQ_FROM_GAMES
                                                     " WHERE g.status <> 'finished' ORDER BY g.created_ms, g.id"};
constexpr Sql kSelectFinished{
    "select_finished", "SELECT " CINQ_READ_COLUMNS CINQ_FROM_GAMES
                       " WHERE g.status = 'finished' AND ($2::integer = 1 OR g.is_private = 0)"
                       " ORDER BY g.updated_ms DESC, g.id DESC LIMIT $1::bigint"};
constexpr Sql kCountGames{"count_games", "SELECT count(*) FROM games"};
constexpr Sql kSelectOfPlayer{
    "select_of_player", "SELECT " CINQ_READ_COLUMNS CINQ_FROM_GAMES
                        " WHERE g.seat0_id = $1 OR g.seat1_id = $1"
                        " ORDER BY g.status = 'finished',"
                        " CASE WHEN g.status = 'finished' THEN -g.updated_ms ELSE g.deadline_ms END, g.id"
                        " LIMIT $2::bigint"};
#define CINQ_ARCHIVE_WHERE                                                                                     \
  " WHERE g.status = 'finished' AND g.is_private = 0 AND ($1::text = '' OR g.seat0_id = $1 OR g.seat1_id = $1)" \
  " AND ($2::text = '' OR g.game = $2) AND ($4::integer < 0 OR g.rated = $4)"                                   \
  " AND ($5::bigint = 0 OR g.updated_ms >= $5) AND ($6::bigint = 0 OR g.updated_ms < $6)"                      \
  " AND ($3::text = '' OR ($3 = 'draw' AND g.winner = 2)"                                                       \
  " OR ($3 = 'decided' AND g.winner IN (0, 1)) OR ($3 = 'aborted' AND g.result LIKE 'aborted%')"              \
  " OR ($3 = 'win' AND ((g.seat0_id = $1 AND g.winner = 0) OR (g.seat1_id = $1 AND g.winner = 1)))"          \
  " OR ($3 = 'loss' AND ((g.seat0_id = $1 AND g.winner = 1) OR (g.seat1_id = $1 AND g.winner = 0))))"
constexpr Sql kSelectArchive{"select_archive", "SELECT " CINQ_READ_COLUMNS CINQ_FROM_GAMES CINQ_ARCHIVE_WHERE
                                               " ORDER BY g.updated_ms DESC, g.id DESC LIMIT $7 OFFSET $8"};
constexpr Sql kCountArchive{"count_archive", "SELECT count(*) FROM games g" CINQ_ARCHIVE_WHERE};
#undef CINQ_ARCHIVE_WHERE
#undef CINQ_GAME_COLUMNS
#undef CINQ_READ_COLUMNS
#undef CINQ_FROM_GAMES

constexpr Sql kSelectEntries{"select_entries", "SELECT text FROM record_entries WHERE game_id = $1 ORDER BY seq"};
constexpr Sql kDeleteEntriesFrom{"delete_entries_from",
                                 "DELETE FROM record_entries WHERE game_id = $1 AND seq >= $2::bigint"};
constexpr Sql kInsertEntry{"insert_entry", "INSERT INTO record_entries (game_id, seq, text) VALUES ($1, $2, $3)"};
constexpr Sql kUpsertProgress{
    "upsert_progress",
    "INSERT INTO game_progress (game_id, version, turns, seat0_clock_ms, seat1_clock_ms, open_turn, updated_ms,"
    " commands) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, turns = excluded.turns,"
    " seat0_clock_ms = excluded.seat0_clock_ms, seat1_clock_ms = excluded.seat1_clock_ms,"
    " open_turn = excluded.open_turn, updated_ms = excluded.updated_ms, commands = excluded.commands"};
// A change to the stored game: applies only to the version it was made from ($9), or the transaction fails.
constexpr Sql kUpdateProgress{
    "update_progress",
    "WITH u AS (UPDATE game_progress SET version = $2, turns = $3, seat0_clock_ms = $4, seat1_clock_ms = $5,"
    " open_turn = $6, updated_ms = $7, commands = $8 WHERE game_id = $1 AND version = $9 RETURNING 1)"
    " SELECT cinq_expect_row((SELECT count(*) FROM u), $1, $9)"};
// Leases. A save under a lease finds it and holds it (FOR SHARE) to its commit, so a node taking
// the room over (acquire: an UPDATE of that row) waits for the save, and a save after that fails.
constexpr Sql kCheckLease{
    "check_lease",
    "SELECT cinq_expect_lease((SELECT count(*) FROM (SELECT 1 FROM room_leases WHERE game_id = $1"
    " AND node_id = $2 AND lease = $3 FOR SHARE) l), $1, $3)"};
constexpr Sql kInsertLease{"insert_lease",
                           "INSERT INTO room_leases (game_id, node_id, lease) VALUES ($1, $2, $3)"};
constexpr Sql kBeat{"beat",
                    "INSERT INTO nodes (id, name, address, started_ms, expires_ms)"
                    " VALUES ($1, $2, $3, $4, cinq_now_ms() + $5::bigint)"
                    " ON CONFLICT (id) DO UPDATE SET expires_ms = excluded.expires_ms, address = excluded.address"};
constexpr Sql kForgetDeadNodes{"forget_dead_nodes", "DELETE FROM nodes WHERE expires_ms < cinq_now_ms() - 3600000"};
constexpr Sql kLiveNodes{"live_nodes",
                         "SELECT id, name, address, started_ms, expires_ms FROM nodes"
                         " WHERE expires_ms > cinq_now_ms() ORDER BY id"};
// Taken unless a live node other than $2 holds it: the lease number grows. The row's lock orders it after
// any save holding the old lease. Then who holds it.
constexpr Sql kAcquire{
    "acquire",
    "WITH t AS (INSERT INTO room_leases AS l (game_id, node_id, lease) VALUES ($1, $2, 1)"
    " ON CONFLICT (game_id) DO UPDATE SET node_id = $2, lease = l.lease + 1"
    " WHERE l.node_id = '' OR l.node_id = $2 OR l.node_id NOT IN"
    " (SELECT id FROM nodes WHERE expires_ms > cinq_now_ms()) RETURNING lease)"
    " SELECT (SELECT lease FROM t), (SELECT node_id FROM room_leases WHERE game_id = $1)"};
constexpr Sql kLeaseOwner{"lease_owner", "SELECT node_id FROM room_leases WHERE game_id = $1"};
constexpr Sql kRelease{"release",
                       "UPDATE room_leases SET node_id = '' WHERE game_id = $1 AND node_id = $2 AND lease = $3"};
constexpr Sql kReleaseAll{"release_all", "UPDATE room_leases SET node_id = '' WHERE node_id = $1"};
constexpr Sql kDeleteNode{"delete_node", "DELETE FROM nodes WHERE id = $1"};
constexpr Sql kOrphans{
    "orphans",
    "SELECT g.id FROM games g LEFT JOIN room_leases l ON l.game_id = g.id WHERE g.status <> 'finished'"
    " AND (l.node_id IS NULL OR l.node_id = '' OR l.node_id NOT IN"
    " (SELECT id FROM nodes WHERE expires_ms > cinq_now_ms())) ORDER BY g.created_ms, g.id LIMIT $1"};
constexpr Sql kTournamentOrphans{
    "tournament_orphans",
    "SELECT t.id FROM tournaments t LEFT JOIN room_leases l ON l.game_id = 't:' || t.id WHERE t.status <> 'finished'"
    " AND (l.node_id IS NULL OR l.node_id = '' OR l.node_id NOT IN"
    " (SELECT id FROM nodes WHERE expires_ms > cinq_now_ms())) ORDER BY t.created_ms, t.id LIMIT $1"};
constexpr Sql kDeleteProgress{"delete_progress", "DELETE FROM game_progress WHERE game_id = $1"};
constexpr Sql kDeleteProgressAt{
    "delete_progress_at",
    "WITH d AS (DELETE FROM game_progress WHERE game_id = $1 AND version = $2 RETURNING 1)"
    " SELECT cinq_expect_row((SELECT count(*) FROM d), $1, $2)"};
constexpr Sql kUpsertSeatToken{"upsert_seat_token",
                               "INSERT INTO seat_tokens (game_id, seat, token) VALUES ($1, $2, $3)"
                               " ON CONFLICT (game_id, seat) DO UPDATE SET token = excluded.token"};
constexpr Sql kDeleteSeatTokens{"delete_seat_tokens", "DELETE FROM seat_tokens WHERE game_id = $1"};
// --- mail (schema version 7; store.h, SeatMail, MailRow, MailCancel): the statements. The writes are
// queue_mail_of (with a save), the reads and the sender's calls PostgresStore's "mail" section.
constexpr Sql kUpsertSeatMail{"upsert_seat_mail",
                              "INSERT INTO mail_seats (game_id, seat, address, by_mail, confirmed, reminders, zone, language)"
                              " VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (game_id, seat) DO UPDATE SET"
                              " address = excluded.address, by_mail = excluded.by_mail,"
                              " confirmed = excluded.confirmed, reminders = excluded.reminders, zone = excluded.zone,"
                              " language = excluded.language"};
constexpr Sql kDeleteSeatMail{"delete_seat_mail", "DELETE FROM mail_seats WHERE game_id = $1 AND seat = $2"};
constexpr Sql kSelectSeatMail{"select_seat_mail",
                              "SELECT seat, address, by_mail, confirmed, reminders, zone, language FROM mail_seats WHERE game_id = $1"};
#define CINQ_MAIL_COLUMNS                                                                                  \
  "id, slot, game_id, seat, kind, sender, recipient, message, created_ms, due_ms, state, attempts, next_ms, " \
  "error, sent_ms"
// The queued mail of the same slot takes the newer content, keeping its id and attempts (not while a sender
// holds it: as SQLite's kReplaceSlot); otherwise the mail is added, once per id.
constexpr Sql kQueueMail{
    "queue_mail",
    "WITH replaced AS (UPDATE mail_outbox SET seat = $4, kind = $5, sender = $6, recipient = $7, message = $8,"
    " created_ms = $9, due_ms = $10, next_ms = 0 WHERE $2 <> '' AND slot = $2 AND state = 'queued'"
    " AND claimed_until_ms <= $9 RETURNING 1)"
    " INSERT INTO mail_outbox (" CINQ_MAIL_COLUMNS ", claimed_by, claimed_until_ms)"
    " SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'queued', 0, 0, '', 0, '', 0"
    " WHERE NOT EXISTS (SELECT 1 FROM replaced) ON CONFLICT (id) DO NOTHING"};
constexpr Sql kCancelMail{"cancel_mail",
                          "UPDATE mail_outbox SET state = 'cancelled' WHERE game_id = $1 AND seat = $2"
                          " AND state = 'queued' AND position(',' || kind || ',' in $3) > 0"};
constexpr Sql kInsertReceived{"insert_received",
                              "INSERT INTO mail_received (message_id, at_ms) VALUES ($1, $2)"
                              " ON CONFLICT (message_id) DO NOTHING"};
constexpr Sql kSelectReceived{"select_received", "SELECT 1 FROM mail_received WHERE message_id = $1"};
constexpr Sql kClaimMails{
    "claim_mails",
    "UPDATE mail_outbox SET claimed_by = $1, claimed_until_ms = $2 WHERE id IN (SELECT id FROM mail_outbox"
    " WHERE state = 'queued' AND due_ms <= $3 AND next_ms <= $3 AND claimed_until_ms <= $3"
    " ORDER BY due_ms, created_ms LIMIT $4 FOR UPDATE SKIP LOCKED) RETURNING " CINQ_MAIL_COLUMNS};
constexpr Sql kFinishMail{
    "finish_mail",
    "UPDATE mail_outbox SET state = CASE WHEN $2 = 'queued' AND state = 'cancelled' THEN state ELSE $2 END,"
    " attempts = attempts + 1, claimed_until_ms = 0, claimed_by = '',"
    " sent_ms = CASE WHEN $2 = 'sent' THEN $3 ELSE sent_ms END,"
    " next_ms = CASE WHEN $2 = 'queued' THEN $4 ELSE next_ms END,"
    " error = CASE WHEN $2 = 'sent' THEN error ELSE $5 END WHERE id = $1"};
constexpr Sql kSelectMailsOfGame{"select_mails_of_game", "SELECT " CINQ_MAIL_COLUMNS
                                                         " FROM mail_outbox WHERE game_id = $1 ORDER BY created_ms, id"};
constexpr Sql kCountMails{"count_mails", "SELECT state, count(*) FROM mail_outbox GROUP BY state"};
#define CINQ_ACCOUNT_MAIL_COLUMNS \
  "player_id, address, pending, code_hash, unsubscribe_key, prefs, digest_day, updated_ms"
constexpr Sql kUpsertAccountMail{
    "upsert_account_mail",
    "INSERT INTO account_mail (" CINQ_ACCOUNT_MAIL_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    " ON CONFLICT (player_id) DO UPDATE SET address = excluded.address, pending = excluded.pending,"
    " code_hash = excluded.code_hash, unsubscribe_key = excluded.unsubscribe_key, prefs = excluded.prefs,"
    " digest_day = excluded.digest_day, updated_ms = excluded.updated_ms"};
constexpr Sql kSelectAccountMail{"select_account_mail",
                                 "SELECT " CINQ_ACCOUNT_MAIL_COLUMNS " FROM account_mail WHERE player_id = $1"};
constexpr Sql kSelectSeatAccountMail{
    "select_seat_account_mail",
    "SELECT a.player_id, a.address, a.pending, a.code_hash, a.unsubscribe_key, a.prefs, a.digest_day,"
    " a.updated_ms FROM games g JOIN account_mail a"
    " ON a.player_id = CASE WHEN $2::bigint = 0 THEN g.seat0_id ELSE g.seat1_id END WHERE g.id = $1"
    " AND NOT EXISTS (SELECT 1 FROM mail_seats m WHERE m.game_id = g.id AND m.seat = $2::bigint AND m.by_mail <> 0)"};
constexpr Sql kSelectDigestAccounts{"select_digest_accounts",
                                    "SELECT " CINQ_ACCOUNT_MAIL_COLUMNS " FROM account_mail WHERE address <> ''"
                                    " AND position('digest=' in prefs) > 0 ORDER BY player_id"};
#define CINQ_TOURNAMENT_COLUMNS \
  "id, game, format, name, status, created_by, starts_ms, created_ms, updated_ms, version, state"
constexpr Sql kInsertTournament{
    "insert_tournament",
    "WITH i AS (INSERT INTO tournaments (" CINQ_TOURNAMENT_COLUMNS
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING RETURNING 1)"
    " SELECT cinq_expect_tournament((SELECT count(*) FROM i), $1, 0)"};
// $12 the version the save follows.
constexpr Sql kUpdateTournament{
    "update_tournament",
    "WITH u AS (UPDATE tournaments SET game = $2, format = $3, name = $4, status = $5, created_by = $6,"
    " starts_ms = $7, created_ms = $8, updated_ms = $9, version = $10, state = $11"
    " WHERE id = $1 AND version = $12 RETURNING 1)"
    " SELECT cinq_expect_tournament((SELECT count(*) FROM u), $1, $12)"};
constexpr Sql kSelectTournament{"select_tournament",
                                "SELECT " CINQ_TOURNAMENT_COLUMNS " FROM tournaments WHERE id = $1"};
constexpr Sql kSelectTournaments{
    "select_tournaments",
    "SELECT " CINQ_TOURNAMENT_COLUMNS " FROM tournaments WHERE $1 = '' OR status = $1"
    " ORDER BY starts_ms DESC, created_ms DESC, id LIMIT $2"};
constexpr Sql kPutAnalysis{
    "put_analysis",
    "INSERT INTO analyses (game_id, settings, analysis, created_ms) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT (game_id, settings) DO UPDATE SET analysis = excluded.analysis, created_ms = excluded.created_ms"};
constexpr Sql kSelectAnalysis{
    "select_analysis",
    "SELECT game_id, settings, analysis, created_ms FROM analyses WHERE game_id = $1 AND settings = $2"};
constexpr Sql kSelectAnalyses{"select_analyses",
                              "SELECT game_id, settings, analysis, created_ms FROM analyses ORDER BY game_id, settings"};
// --- moderation (schema version 12)
constexpr Sql kUpsertRole{"upsert_role",
                          "INSERT INTO roles (player_id, role, granted_by, at_ms) VALUES ($1, $2, $3, $4)"
                          " ON CONFLICT (player_id) DO UPDATE SET role = excluded.role,"
                          " granted_by = excluded.granted_by, at_ms = excluded.at_ms"};
constexpr Sql kDeleteRole{"delete_role", "DELETE FROM roles WHERE player_id = $1"};
constexpr Sql kSelectRoles{"select_roles", "SELECT player_id, role, granted_by, at_ms FROM roles ORDER BY player_id"};
constexpr Sql kUpsertSanction{
    "upsert_sanction",
    "INSERT INTO sanctions (player_id, kind, reason, by_id, at_ms, until_ms) VALUES ($1, $2, $3, $4, $5, $6)"
    " ON CONFLICT (player_id, kind) DO UPDATE SET reason = excluded.reason, by_id = excluded.by_id,"
    " at_ms = excluded.at_ms, until_ms = excluded.until_ms"};
constexpr Sql kDeleteSanction{"delete_sanction", "DELETE FROM sanctions WHERE player_id = $1 AND kind = $2"};
constexpr Sql kSelectSanctions{
    "select_sanctions",
    "SELECT player_id, kind, reason, by_id, at_ms, until_ms FROM sanctions ORDER BY player_id, kind"};
#define CINQ_REPORT_COLUMNS "id, at_ms, reporter_id, target_id, room, line, reason, status, handled_by, handled_ms"
constexpr Sql kUpsertReport{
    "upsert_report",
    "INSERT INTO reports (" CINQ_REPORT_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
    " ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms, reporter_id = excluded.reporter_id,"
    " target_id = excluded.target_id, room = excluded.room, line = excluded.line, reason = excluded.reason,"
    " status = excluded.status, handled_by = excluded.handled_by, handled_ms = excluded.handled_ms"};
constexpr Sql kSelectReports{"select_reports",
                             "SELECT " CINQ_REPORT_COLUMNS " FROM reports WHERE $1 = '' OR status = $1"
                             " ORDER BY at_ms DESC, id LIMIT $2::bigint"};
constexpr Sql kSelectReport{"select_report", "SELECT " CINQ_REPORT_COLUMNS " FROM reports WHERE id = $1"};
constexpr Sql kInsertBlock{"insert_block",
                           "INSERT INTO blocks (blocker_id, blocked_id, at_ms) VALUES ($1, $2, $3)"
                           " ON CONFLICT (blocker_id, blocked_id) DO NOTHING"};
constexpr Sql kDeleteBlock{"delete_block", "DELETE FROM blocks WHERE blocker_id = $1 AND blocked_id = $2"};
constexpr Sql kSelectBlocks{"select_blocks",
                            "SELECT blocker_id, blocked_id, at_ms FROM blocks WHERE $1 = '' OR blocker_id = $1"
                            " OR blocked_id = $1 ORDER BY blocker_id, blocked_id"};
#define CINQ_AUDIT_COLUMNS "seq, at_ms, actor_id, actor_name, action, target_id, target_name, detail"
// The log's order is its seq: the table is locked for the insert, so two writers never take the same one.
constexpr Sql kLockAudit{"lock_audit", "LOCK TABLE audit IN SHARE ROW EXCLUSIVE MODE"};
constexpr Sql kInsertAudit{
    "insert_audit",
    "INSERT INTO audit (" CINQ_AUDIT_COLUMNS ") VALUES (CASE WHEN $1::bigint > 0 THEN $1::bigint ELSE"
    " (SELECT coalesce(max(seq), 0) + 1 FROM audit) END, $2, $3, $4, $5, $6, $7, $8)"};
constexpr Sql kSelectAudit{"select_audit", "SELECT " CINQ_AUDIT_COLUMNS
                                           " FROM audit WHERE $1 = '' OR target_id = $1 ORDER BY seq DESC"
                                           " LIMIT $2::bigint"};
constexpr Sql kNoteSighting{
    "note_sighting",
    "INSERT INTO sightings (player_id, kind, value, first_ms, last_ms, count) VALUES ($1, $2, $3, $4, $5, $6)"
    " ON CONFLICT (player_id, kind, value) DO UPDATE SET count = sightings.count + excluded.count,"
    " last_ms = greatest(sightings.last_ms, excluded.last_ms),"
    " first_ms = least(sightings.first_ms, excluded.first_ms)"};
constexpr Sql kSelectSightings{
    "select_sightings",
    "SELECT player_id, kind, value, first_ms, last_ms, count FROM sightings ORDER BY player_id, kind, value"};
constexpr Sql kSelectLinks{
    "select_links",
    "SELECT l.a, l.b, l.kind, l.shared, (SELECT count(*) FROM games g WHERE g.rated <> 0 AND"
    " ((g.seat0_id = l.a AND g.seat1_id = l.b) OR (g.seat0_id = l.b AND g.seat1_id = l.a))) AS rated"
    " FROM (SELECT x.player_id AS a, y.player_id AS b, x.kind AS kind, count(*) AS shared FROM sightings x"
    " JOIN sightings y ON y.kind = x.kind AND y.value = x.value AND y.player_id > x.player_id"
    " GROUP BY x.player_id, y.player_id, x.kind) l ORDER BY rated DESC, l.shared DESC, l.a, l.b"
    " LIMIT $1::bigint"};
constexpr Sql kSelectSeatTokens{"select_seat_tokens", "SELECT seat, token FROM seat_tokens WHERE game_id = $1"};
constexpr Sql kInsertChat{
    "insert_chat",
    "INSERT INTO chat (game_id, seq, at_ms, channel, seat, player_id, name, text)"
    " VALUES ($1, (SELECT coalesce(max(seq), 0) + 1 FROM chat WHERE game_id = $1), $2, $3, $4, $5, $6, $7)"};
constexpr Sql kSelectChat{"select_chat",
                          "SELECT at_ms, channel, seat, player_id, name, text FROM"
                          " (SELECT * FROM chat WHERE game_id = $1 ORDER BY seq DESC LIMIT $2::bigint) c"
                          " ORDER BY seq"};
constexpr Sql kUpsertPlayer{
    "upsert_player",
    "INSERT INTO players (id, token_hash, name, created_ms, username, password_hash)"
    " VALUES ($1, $2, $3, $4, $5, $6)"
    " ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash, name = excluded.name,"
    " created_ms = excluded.created_ms, username = excluded.username, password_hash = excluded.password_hash"};
constexpr Sql kSelectPlayer{"select_player",
                            "SELECT id, token_hash, name, created_ms, username, password_hash FROM players"
                            " WHERE id = $1"};
constexpr Sql kSelectPlayerByUsername{
    "select_player_by_username",
    "SELECT id, token_hash, name, created_ms, username, password_hash FROM players"
    " WHERE lower(username) = lower($1) AND username <> ''"};
constexpr Sql kDeleteSessions{"delete_sessions", "DELETE FROM sessions WHERE player_id = $1"};
constexpr Sql kInsertSession{"insert_session",
                             "INSERT INTO sessions (token_hash, player_id, seq) VALUES ($1, $2, $3)"
                             " ON CONFLICT (token_hash) DO UPDATE SET player_id = excluded.player_id,"
                             " seq = excluded.seq"};
constexpr Sql kSelectSessions{"select_sessions", "SELECT token_hash FROM sessions WHERE player_id = $1 ORDER BY seq"};
// Sessions written as changes (PlayerRow::SessionWrite::changes): one token added after the newest, one
// removed, the oldest beyond $2 dropped.
constexpr Sql kAddSession{"add_session",
                          "INSERT INTO sessions (token_hash, player_id, seq)"
                          " SELECT $1, $2, coalesce(max(seq), -1) + 1 FROM sessions WHERE player_id = $2"
                          " ON CONFLICT (token_hash) DO NOTHING"};
constexpr Sql kEndSession{"end_session", "DELETE FROM sessions WHERE player_id = $1 AND token_hash = $2"};
constexpr Sql kTrimSessions{"trim_sessions",
                            "DELETE FROM sessions WHERE player_id = $1 AND token_hash NOT IN"
                            " (SELECT token_hash FROM sessions WHERE player_id = $1 ORDER BY seq DESC LIMIT $2::bigint)"};
constexpr Sql kClaimUsername{"claim_username",
                             "UPDATE players SET username = $2, password_hash = $3, name = $2"
                             " WHERE id = $1 AND username = ''"};
#define CINQ_RATING_COLUMNS \
  "player_id, game, pool, rating, deviation, volatility, games, wins, losses, draws, last_ms"
constexpr Sql kSelectRatingForUpdate{"select_rating_for_update",
                                     "SELECT " CINQ_RATING_COLUMNS
                                     " FROM ratings WHERE player_id = $1 AND game = $2 AND pool = $3 FOR UPDATE"};
constexpr Sql kSelectRatings{"select_ratings",
                             "SELECT " CINQ_RATING_COLUMNS " FROM ratings WHERE player_id = $1 ORDER BY game, pool"};
constexpr Sql kSelectAllRatings{"select_all_ratings",
                                "SELECT " CINQ_RATING_COLUMNS " FROM ratings ORDER BY player_id, game, pool"};
constexpr Sql kUpsertRating{
    "upsert_rating",
    "INSERT INTO ratings (" CINQ_RATING_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
    " ON CONFLICT (player_id, game, pool) DO UPDATE SET rating = excluded.rating,"
    " deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games,"
    " wins = excluded.wins, losses = excluded.losses, draws = excluded.draws, last_ms = excluded.last_ms"};
constexpr Sql kSelectLeaderboard{
    "select_leaderboard",
    "SELECT r.player_id, r.game, r.pool, r.rating, r.deviation, r.volatility, r.games, r.wins, r.losses,"
    " r.draws, r.last_ms, p.username FROM ratings r JOIN players p ON p.id = r.player_id"
    " WHERE r.game = $1 AND r.pool = $2 AND r.deviation <= $3::double precision AND p.username <> ''"
    " ORDER BY r.rating DESC, p.username LIMIT $4::bigint"};
#undef CINQ_RATING_COLUMNS
#define CINQ_HISTORY_COLUMNS \
  "player_id, game_id, game, pool, at_ms, score, before_rating, before_deviation, rating, deviation, volatility"
constexpr Sql kHistoryExists{"history_exists",
                             "SELECT 1 FROM rating_history WHERE player_id = $1 AND game_id = $2"};
constexpr Sql kInsertHistory{"insert_history", "INSERT INTO rating_history (" CINQ_HISTORY_COLUMNS
                                               ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"};
constexpr Sql kSelectHistoryOfPlayer{"select_history_of_player",
                                     "SELECT " CINQ_HISTORY_COLUMNS " FROM rating_history WHERE player_id = $1"
                                     " ORDER BY at_ms DESC, game_id LIMIT $2::bigint"};
constexpr Sql kSelectHistoryOfGame{"select_history_of_game", "SELECT " CINQ_HISTORY_COLUMNS
                                                             " FROM rating_history WHERE game_id = $1"
                                                             " ORDER BY player_id"};
constexpr Sql kSelectAllHistory{"select_all_history", "SELECT " CINQ_HISTORY_COLUMNS
                                                      " FROM rating_history ORDER BY player_id, game_id"};
#undef CINQ_HISTORY_COLUMNS
constexpr Sql kSelectPlayerIds{"select_player_ids", "SELECT id FROM players ORDER BY id"};
constexpr Sql kSelectGameIds{"select_game_ids", "SELECT id FROM games ORDER BY id"};

// The parameters of one statement, as text (libpq's text format: integers in decimal, reals with every digit).
class Params {
 public:
  Params& text(const std::string& s) {
    values_.push_back(s);
    return *this;
  }
  Params& integer(std::int64_t v) { return text(std::to_string(v)); }
  Params& real(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return text(buf);
  }
  int size() const { return static_cast<int>(values_.size()); }
  // Pointers into the values: valid while this object lives unchanged.
  std::vector<const char*> pointers() const {
    std::vector<const char*> out;
    out.reserve(values_.size());
    for (const auto& v : values_) out.push_back(v.c_str());
    return out;
  }

 private:
  std::vector<std::string> values_;
};

// A result, freed however the scope is left.
class Result {
 public:
  explicit Result(PGresult* r = nullptr) : r_(r) {}
  ~Result() {
    if (r_ != nullptr) PQclear(r_);
  }
  Result(Result&& o) noexcept : r_(std::exchange(o.r_, nullptr)) {}
  Result& operator=(Result&& o) noexcept {
    if (this != &o) {
      if (r_ != nullptr) PQclear(r_);
      r_ = std::exchange(o.r_, nullptr);
    }
    return *this;
  }
  PGresult* get() const { return r_; }
  ExecStatusType status() const { return r_ != nullptr ? PQresultStatus(r_) : PGRES_FATAL_ERROR; }
  bool ok() const { return status() == PGRES_COMMAND_OK || status() == PGRES_TUPLES_OK; }
  int rows() const { return r_ != nullptr ? PQntuples(r_) : 0; }
  bool is_null(int row, int col) const { return PQgetisnull(r_, row, col) != 0; }
  std::string text(int row, int col) const {
    return std::string(PQgetvalue(r_, row, col), static_cast<std::size_t>(PQgetlength(r_, row, col)));
  }
  std::int64_t integer(int row, int col) const { return std::strtoll(PQgetvalue(r_, row, col), nullptr, 10); }
  double real(int row, int col) const { return std::strtod(PQgetvalue(r_, row, col), nullptr); }
  // The server's primary message ("duplicate key value violates ..."), without severity or context.
  std::string message() const {
    if (r_ == nullptr) return "no result";
    if (const char* primary = PQresultErrorField(r_, PG_DIAG_MESSAGE_PRIMARY)) return primary;
    std::string m = PQresultErrorMessage(r_);
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    return m;
  }

 private:
  PGresult* r_;
};

GameRow read_game(const Result& r, int i) {
  GameRow g;
  g.id = r.text(i, 0);
  g.game = r.text(i, 1);
  g.options = r.text(i, 2);
  g.clock_base_ms = r.integer(i, 3);
  g.clock_increment_ms = r.integer(i, 4);
  g.is_private = r.integer(i, 5) != 0;
  g.kind = r.text(i, 6);
  g.status = r.text(i, 7);
  g.result = r.text(i, 8);
  g.record = r.text(i, 9);
  g.seat_ids = {r.text(i, 10), r.text(i, 11)};
  g.seat_names = {r.text(i, 12), r.text(i, 13)};
  g.clock_ms = {r.integer(i, 14), r.integer(i, 15)};
  g.version = r.integer(i, 16);
  g.turns = r.integer(i, 17);
  g.rematch_of = r.text(i, 18);
  g.created_ms = r.integer(i, 19);
  g.updated_ms = r.integer(i, 20);
  g.clock_days = r.integer(i, 21);
  g.deadline_ms = r.integer(i, 22);
  g.seat_token_hashes = {r.text(i, 23), r.text(i, 24)};
  g.open_turn = r.integer(i, 25) != 0;
  g.rated = r.integer(i, 26) != 0;
  g.winner = static_cast<int>(r.integer(i, 27));
  g.commands = r.text(i, 28);
  return g;
}

PlayerRow read_player(const Result& r, int i) {
  PlayerRow p;
  p.id = r.text(i, 0);
  p.token_hash = r.text(i, 1);
  p.name = r.text(i, 2);
  p.created_ms = r.integer(i, 3);
  p.username = r.text(i, 4);
  p.password_hash = r.text(i, 5);
  return p;
}

RatingRow read_rating(const Result& r, int i) {
  RatingRow x;
  x.player_id = r.text(i, 0);
  x.game = r.text(i, 1);
  x.pool = r.text(i, 2);
  x.rating = r.real(i, 3);
  x.deviation = r.real(i, 4);
  x.volatility = r.real(i, 5);
  x.games = r.integer(i, 6);
  x.wins = r.integer(i, 7);
  x.losses = r.integer(i, 8);
  x.draws = r.integer(i, 9);
  x.last_ms = r.integer(i, 10);
  return x;
}

RatingChange read_change(const Result& r, int i) {
  RatingChange c;
  c.player_id = r.text(i, 0);
  c.game_id = r.text(i, 1);
  c.game = r.text(i, 2);
  c.pool = r.text(i, 3);
  c.at_ms = r.integer(i, 4);
  c.score = r.real(i, 5);
  c.before_rating = r.real(i, 6);
  c.before_deviation = r.real(i, 7);
  c.rating = r.real(i, 8);
  c.deviation = r.real(i, 9);
  c.volatility = r.real(i, 10);
  return c;
}

Params game_params(const GameRow& g) {
  Params p;
  p.text(g.id).text(g.game).text(g.options).integer(g.clock_base_ms).integer(g.clock_increment_ms);
  p.integer(g.is_private ? 1 : 0).text(g.kind).text(g.status).text(g.result).text(g.record);
  p.text(g.seat_ids[0]).text(g.seat_ids[1]).text(g.seat_names[0]).text(g.seat_names[1]);
  p.integer(g.clock_ms[0]).integer(g.clock_ms[1]).integer(g.version).integer(g.turns).text(g.rematch_of);
  p.integer(g.created_ms).integer(g.updated_ms).integer(g.clock_days).integer(g.deadline_ms);
  p.text(g.seat_token_hashes[0]).text(g.seat_token_hashes[1]).integer(g.rated ? 1 : 0).integer(g.winner);
  return p;
}

Params progress_params(const GameRow& g) {
  Params p;
  p.text(g.id).integer(g.version).integer(g.turns).integer(g.clock_ms[0]).integer(g.clock_ms[1]);
  p.integer(g.open_turn ? 1 : 0).integer(g.updated_ms).text(g.commands);
  return p;
}

Params rating_params(const RatingRow& r) {
  Params p;
  p.text(r.player_id).text(r.game).text(r.pool).real(r.rating).real(r.deviation).real(r.volatility);
  p.integer(r.games).integer(r.wins).integer(r.losses).integer(r.draws).integer(r.last_ms);
  return p;
}

Params change_params(const RatingChange& c) {
  Params p;
  p.text(c.player_id).text(c.game_id).text(c.game).text(c.pool).integer(c.at_ms).real(c.score);
  p.real(c.before_rating).real(c.before_deviation).real(c.rating).real(c.deviation).real(c.volatility);
  return p;
}

// The statements of one transaction, queued to be sent together.
struct Batch {
  std::vector<std::pair<const Sql*, Params>> statements;
  void add(const Sql& sql, Params params) { statements.emplace_back(&sql, std::move(params)); }
};

Params mail_params(const MailRow& m) {
  Params p;
  p.text(m.id).text(m.slot).text(m.game_id).integer(m.seat).text(m.kind).text(m.sender).text(m.recipient);
  p.text(m.message).integer(m.created_ms).integer(m.due_ms);
  return p;
}

MailRow read_mail(const Result& r, int i) {
  MailRow m;
  m.id = r.text(i, 0);
  m.slot = r.text(i, 1);
  m.game_id = r.text(i, 2);
  m.seat = static_cast<int>(r.integer(i, 3));
  m.kind = r.text(i, 4);
  m.sender = r.text(i, 5);
  m.recipient = r.text(i, 6);
  m.message = r.text(i, 7);
  m.created_ms = r.integer(i, 8);
  m.due_ms = r.integer(i, 9);
  m.state = r.text(i, 10);
  m.attempts = static_cast<int>(r.integer(i, 11));
  m.next_ms = r.integer(i, 12);
  m.error = r.text(i, 13);
  m.sent_ms = r.integer(i, 14);
  return m;
}

TournamentRow read_tournament(const Result& r, int i) {
  return TournamentRow{r.text(i, 0),    r.text(i, 1),    r.text(i, 2),    r.text(i, 3),
                       r.text(i, 4),    r.text(i, 5),    r.integer(i, 6), r.integer(i, 7),
                       r.integer(i, 8), r.integer(i, 9), r.text(i, 10)};
}

AccountMail read_account_mail(const Result& r, int i) {
  return AccountMail{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.text(i, 3),
                     r.text(i, 4), r.text(i, 5), r.text(i, 6), r.integer(i, 7)};
}

// --- mail (schema version 7): a save's mail (as SQLite's write_mail_of), in its transaction: the seats'
// addresses with the row, then its cancels, mails and received ids.
void queue_mail_of(Batch& b, const GameSave& s) {
  const GameRow& g = s.row;
  if (s.write_row || g.status == "finished")
    for (int seat = 0; seat < 2; ++seat) {
      const SeatMail& m = g.seat_mail[seat];
      if (m.address.empty())
        b.add(kDeleteSeatMail, Params().text(g.id).integer(seat));
      else
        b.add(kUpsertSeatMail, Params().text(g.id).integer(seat).text(m.address).integer(m.by_mail ? 1 : 0)
                                   .integer(m.confirmed ? 1 : 0).text(m.reminders).text(m.zone).text(m.language));
    }
  for (const MailCancel& c : s.mail_cancels) {
    std::string kinds = ",";
    for (const auto& k : c.kinds) kinds += k + ",";
    b.add(kCancelMail, Params().text(c.game_id).integer(c.seat).text(kinds));
  }
  for (const MailRow& m : s.mails) b.add(kQueueMail, mail_params(m));
  for (const std::string& id : s.received) b.add(kInsertReceived, Params().text(id).integer(g.updated_ms));
}

// Queues one game's save (store.h, GameSave), as write_save does for SQLite.
void queue_save(Batch& b, const GameSave& s) {
  const GameRow& g = s.row;
  auto id = [&] { return Params().text(g.id); };
  if (s.fence)  // under a lease: a new room's is taken, any other must still be held
    b.add(s.fence->acquire ? kInsertLease : kCheckLease,
          Params().text(g.id).text(s.fence->node).integer(s.fence->lease));
  auto extras = [&] {
    if (g.status == "finished") {
      b.add(kDeleteSeatTokens, id());
    } else if (s.write_row) {
      for (int seat = 0; seat < 2; ++seat)
        if (!g.seat_tokens[seat].empty())
          b.add(kUpsertSeatToken, Params().text(g.id).integer(seat).text(g.seat_tokens[seat]));
    }
    for (const ChatRow& line : s.chat)
      b.add(kInsertChat, Params().text(g.id).integer(line.at_ms).text(line.channel).integer(line.seat)
                             .text(line.player_id).text(line.name).text(line.text));
    queue_mail_of(b, s);
  };
  if (g.status == "finished") {
    if (s.base_version) b.add(kDeleteProgressAt, Params().text(g.id).integer(*s.base_version));
    b.add(kUpsertGame, game_params(g));
    extras();
    b.add(kDeleteEntriesFrom, Params().text(g.id).integer(0));
    b.add(kDeleteProgress, id());
    return;
  }
  if (s.base_version) {
    Params p = progress_params(g);
    p.integer(*s.base_version);
    b.add(kUpdateProgress, std::move(p));
  } else {
    b.add(kUpsertProgress, progress_params(g));
  }
  if (s.write_row) b.add(kUpsertGame, game_params(g));
  extras();
  // Stored entries from `from` on go first, unless the save only appends: the usual turn sends no delete.
  if (s.replaces) b.add(kDeleteEntriesFrom, Params().text(g.id).integer(s.from));
  for (std::size_t i = 0; i < s.entries.size(); ++i)
    b.add(kInsertEntry, Params().text(g.id).integer(s.from + static_cast<std::int64_t>(i)).text(s.entries[i]));
}

void queue_player(Batch& b, const PlayerRow& player) {
  b.add(kUpsertPlayer, Params().text(player.id).text(player.token_hash).text(player.name)
                           .integer(player.created_ms).text(player.username).text(player.password_hash));
  if (player.session_write == PlayerRow::SessionWrite::changes) {
    if (player.sessions_all_ended) b.add(kDeleteSessions, Params().text(player.id));
    for (const std::string& hash : player.sessions_ended) b.add(kEndSession, Params().text(player.id).text(hash));
    for (const std::string& hash : player.sessions_added) b.add(kAddSession, Params().text(hash).text(player.id));
    if (!player.sessions_added.empty())
      b.add(kTrimSessions, Params().text(player.id).integer(static_cast<std::int64_t>(kMaxSessions)));
    return;
  }
  b.add(kDeleteSessions, Params().text(player.id));
  for (std::size_t i = 0; i < player.sessions.size(); ++i)
    b.add(kInsertSession, Params().text(player.sessions[i]).text(player.id).integer(static_cast<std::int64_t>(i)));
}

// One libpq connection, its mutex and the names of the statements prepared on it.
class Connection {
 public:
  Connection(std::string uri, std::string role) : uri_(std::move(uri)), role_(std::move(role)) {}
  ~Connection() {
    if (conn_ != nullptr) PQfinish(conn_);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  std::mutex& mutex() { return mutex_; }

  // A working connection outside any transaction (opened again if it broke; a transaction left open by a
  // failure rolled back), or false and `error`. The caller holds the mutex.
  bool ready(Error& error) {
    if (conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK) {
      if (PQtransactionStatus(conn_) == PQTRANS_IDLE) return true;
      if (PQpipelineStatus(conn_) == PQ_PIPELINE_OFF) {
        Result r(PQexec(conn_, "ROLLBACK"));
        if (r.ok() && PQtransactionStatus(conn_) == PQTRANS_IDLE) return true;
      }
    }
    if (conn_ != nullptr) {
      PQfinish(conn_);
      conn_ = nullptr;
      prepared_.clear();
      spdlog::warn("store: the {} connection to {} broke: connecting again", role_, Store::describe(uri_));
    }
    // Our settings first, so that the URI's own (expand_dbname) win: a connection attempt gives up after 5 s,
    // and a dead peer is noticed by TCP keepalives within about 20 s.
    const char* keys[] = {"connect_timeout", "keepalives_idle", "keepalives_interval", "keepalives_count",
                          "application_name", "dbname", nullptr};
    const std::string name = "cinq-" + role_;
    const char* values[] = {"5", "10", "5", "2", name.c_str(), uri_.c_str(), nullptr};
    conn_ = PQconnectdbParams(keys, values, 1);
    if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK) {
      error.message = "connecting to " + Store::describe(uri_) + ": " + message();
      if (conn_ != nullptr) PQfinish(conn_);
      conn_ = nullptr;
      return false;
    }
    // Notices (a schema that exists already) are not errors.
    PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);
    return true;
  }

  std::string message() const {
    std::string m = conn_ != nullptr ? PQerrorMessage(conn_) : "out of memory";
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    return m;
  }

  // Prepares `sql` on this session unless it is; false and `error` if it does not prepare.
  bool prepare(const Sql& sql, Error& error, const std::string& doing) {
    if (prepared_.count(sql.name) != 0) return true;
    Result r(PQprepare(conn_, sql.name, sql.text, 0, nullptr));
    if (!r.ok()) {
      error.message = doing + ": " + r.message();
      return false;
    }
    prepared_.insert(sql.name);
    return true;
  }

  // Runs a prepared statement and gives its result (check ok()).
  Result run(const Sql& sql, const Params& params, Error& error, const std::string& doing) {
    if (!prepare(sql, error, doing)) return Result();
    auto values = params.pointers();
    Result r(PQexecPrepared(conn_, sql.name, params.size(), values.data(), nullptr, nullptr, 0));
    if (!r.ok()) error.message = doing + ": " + (r.get() != nullptr ? r.message() : message());
    return r;
  }

  // Runs plain SQL and gives its (last) result.
  Result query(const char* sql) { return Result(PQexec(conn_, sql)); }

  // Runs plain SQL (no parameters; several statements allowed).
  bool exec(const char* sql, Error& error, const std::string& doing) {
    Result r(PQexec(conn_, sql));
    if (r.ok()) return true;
    error.message = doing + ": " + (r.get() != nullptr ? r.message() : message());
    return false;
  }

  // Sends the batch's statements between BEGIN (already open when `begun`) and COMMIT in one pipeline and
  // reads every result; true if all succeeded and the commit held. Otherwise the transaction is rolled back
  // and `error` names the first statement that failed.
  bool run_transaction(const Batch& batch, bool begun, Error& error, const std::string& doing) {
    for (const auto& [sql, params] : batch.statements)
      if (!prepare(*sql, error, doing)) return abandon(begun);
    if (PQenterPipelineMode(conn_) != 1) {
      error.message = doing + ": entering pipeline mode: " + message();
      return abandon(begun);
    }
    bool sent = true;
    int expected = 0;
    auto send_plain = [&](const char* sql) {
      sent = sent && PQsendQueryParams(conn_, sql, 0, nullptr, nullptr, nullptr, nullptr, 0) == 1;
      ++expected;
    };
    if (!begun) send_plain("BEGIN");
    for (const auto& [sql, params] : batch.statements) {
      if (!sent) break;
      auto values = params.pointers();
      sent = PQsendQueryPrepared(conn_, sql->name, params.size(), values.data(), nullptr, nullptr, 0) == 1;
      ++expected;
    }
    send_plain("COMMIT");
    sent = sent && PQpipelineSync(conn_) == 1;
    if (!sent) {
      error.message = doing + ": sending: " + message();
      PQfinish(conn_);  // the pipeline's state is unknown: start again on the next call
      conn_ = nullptr;
      prepared_.clear();
      return false;
    }
    // One result (then a null) per statement, then the sync's.
    bool ok = true;
    std::string first_error;
    for (int i = 0; i < expected; ++i) {
      Result r(PQgetResult(conn_));
      if (r.get() == nullptr) {  // the connection went away
        ok = false;
        if (first_error.empty()) first_error = message();
        break;
      }
      const ExecStatusType st = r.status();
      if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        ok = false;
        if (first_error.empty() && st != PGRES_PIPELINE_ABORTED) first_error = r.message();
      }
      while (PGresult* extra = PQgetResult(conn_)) PQclear(extra);  // the null that ends this statement
    }
    if (conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK) {
      // Up to the sync.
      for (int guard = 0; guard < 1000; ++guard) {
        Result r(PQgetResult(conn_));
        if (r.get() == nullptr) {
          if (PQstatus(conn_) != CONNECTION_OK) break;
          continue;
        }
        if (r.status() == PGRES_PIPELINE_SYNC) break;
      }
      PQexitPipelineMode(conn_);
    }
    if (ok && PQstatus(conn_) == CONNECTION_OK) return true;
    error.message = doing + ": " + (first_error.empty() ? message() : first_error);
    if (PQstatus(conn_) != CONNECTION_OK) return false;
    // An error inside the transaction leaves it aborted: end it so the next write starts clean.
    if (PQtransactionStatus(conn_) != PQTRANS_IDLE) {
      Result r(PQexec(conn_, "ROLLBACK"));
    }
    return false;
  }

 private:
  bool abandon(bool begun) {
    if (begun) {
      Result r(PQexec(conn_, "ROLLBACK"));
    }
    return false;
  }

  std::string uri_;
  std::string role_;
  PGconn* conn_ = nullptr;
  std::mutex mutex_;
  std::set<std::string> prepared_;
};

class PostgresStore final : public Store {
 public:
  explicit PostgresStore(const std::string& uri)
      : uri_(uri), writer_(uri, "writer"), reader_(uri, "reader"), control_(uri, "control") {}

  bool open(Error& error) {
    std::lock_guard lock(writer_.mutex());
    if (!writer_.ready(error)) return false;
    const std::string doing = "creating the schema in " + Store::describe(uri_);
    // One node at a time creates or upgrades the schema: the others wait on the lock, then find it done.
    if (!writer_.exec("BEGIN; SELECT pg_advisory_xact_lock(72436151);", error, doing)) return false;
    auto fail = [&] {
      Error ignored;
      writer_.exec("ROLLBACK", ignored, doing);
      return false;
    };
    Result has_meta = writer_.query("SELECT to_regclass('meta') IS NOT NULL");
    if (!has_meta.ok()) {
      error.message = doing + ": " + has_meta.message();
      return fail();
    }
    int version = 0;
    if (has_meta.text(0, 0) == "t") {
      Result v = writer_.query("SELECT value FROM meta WHERE key = 'schema_version'");
      if (!v.ok()) {
        error.message = doing + ": " + v.message();
        return fail();
      }
      if (v.rows() > 0) version = std::atoi(v.text(0, 0).c_str());
    }
    if (version > kSchemaVersion) {
      error.message = Store::describe(uri_) + " has schema version " + std::to_string(version) +
                      ", newer than this server's " + std::to_string(kSchemaVersion);
      return fail();
    }
    // Version 5 is the first a PostgreSQL database has; the schema's statements are idempotent, and versions 6
    // (the cluster), 7 (the mail tables), 8 (the accounts' mail), 9 (the seats' language), 10 (the
    // tournaments), 11 (the analyses) and 12 (moderation) only add to it (a column with a default,
    // tables, indexes), so running them again upgrades it.
    if (version < kSchemaVersion) {
      const std::string set_version = "INSERT INTO meta (key, value) VALUES ('schema_version', '" +
                                      std::to_string(kSchemaVersion) +
                                      "') ON CONFLICT (key) DO UPDATE SET value = excluded.value";
      if (!writer_.exec(kSchema, error, doing) || !writer_.exec(set_version.c_str(), error, doing)) return fail();
    }
    return writer_.exec("COMMIT", error, doing);
  }

  const char* backend() const override { return "postgresql"; }

  bool put_player(const PlayerRow& player, Error& error) override { return save({player}, {}, error); }

  UsernameClaim claim_username(const std::string& player_id, const std::string& username,
                               const std::string& password_hash, Error& error) override {
    const std::string doing = "giving player " + player_id + " the user name " + username;
    bool ok = false;
    {
      std::lock_guard lock(writer_.mutex());
      if (!writer_.ready(error)) return UsernameClaim::failed;
      Batch batch;
      batch.add(kClaimUsername, Params().text(player_id).text(username).text(password_hash));
      ok = writer_.run_transaction(batch, false, error, doing);
    }
    if (ok) {  // whether the row is ours now (the update changes nothing for an account)
      auto row = player(player_id);
      if (row.failed()) {
        error = row.error();
        return UsernameClaim::failed;
      }
      return row && row->username == username && row->password_hash == password_hash ? UsernameClaim::claimed
                                                                                     : UsernameClaim::not_guest;
    }
    // Refused: by the unique index if someone else has the name now.
    auto holder = player_by_username(username);
    if (holder && holder->id != player_id) return UsernameClaim::taken;
    return UsernameClaim::failed;
  }

  bool save(const std::vector<PlayerRow>& players, const std::vector<GameSave>& games, Error& error) override {
    if (games.empty() && players.empty()) return true;
    const std::string doing = games.size() == 1 && players.empty()
                                  ? "saving game " + games[0].row.id
                                  : players.size() == 1 && games.empty()
                                        ? "saving player " + players[0].id
                                        : "saving " + std::to_string(games.size()) + " games and " +
                                              std::to_string(players.size()) + " players";
    std::lock_guard lock(writer_.mutex());
    if (!writer_.ready(error)) {
      error.message = doing + ": " + error.message;
      return false;
    }
    Batch batch;
    for (const PlayerRow& player : players) queue_player(batch, player);
    for (const GameSave& s : games) queue_save(batch, s);
    // Rated results read the ratings first, in the same transaction (a round trip more).
    bool begun = false;
    std::map<std::tuple<std::string, std::string, std::string>, RatingRow> seen;  // this batch's, newest
    for (const GameSave& s : games) {
      if (!changes_ratings(s.row)) continue;
      if (!begun) {
        if (!writer_.exec("BEGIN", error, doing)) return false;
        begun = true;
      }
      if (!queue_ratings(batch, s.row, seen, error, doing)) {
        Error ignored;
        writer_.exec("ROLLBACK", ignored, doing);
        return false;
      }
    }
    return writer_.run_transaction(batch, begun, error, doing);
  }

  Read<std::optional<PlayerRow>> player(const std::string& id) override {
    return load_player(kSelectPlayer, id);
  }

  Read<std::optional<PlayerRow>> player_by_username(const std::string& username) override {
    if (username.empty()) return std::nullopt;
    return load_player(kSelectPlayerByUsername, username);
  }

  Read<std::optional<GameRow>> game(const std::string& id) override {
    auto games = read_games(kSelectGame, Params().text(id), "reading game " + id, true, true);
    if (games.failed()) return games.error();
    if (games.empty()) return std::nullopt;
    return std::move(games.front());
  }

  Read<std::vector<GameRow>> unfinished_games() override {
    return read_games(kSelectUnfinished, Params(), "reading the unfinished games", true, true);
  }

  Read<std::vector<GameRow>> finished_games(int limit, bool include_private) override {
    if (limit <= 0) return {};
    return read_games(kSelectFinished, Params().integer(limit).integer(include_private ? 1 : 0),
                      "reading the finished games");
  }

  Read<std::int64_t> count_games() override {
    std::int64_t n = 0;
    Error error;
    if (!read(kCountGames, Params(), "counting the games", error,
              [&](const Result& r, int i) { n = r.integer(i, 0); }))
      return error;
    return n;
  }

  Read<std::vector<GameRow>> games_of_player(const std::string& player_id, int limit) override {
    if (limit <= 0 || player_id.empty()) return {};
    return read_games(kSelectOfPlayer, Params().text(player_id).integer(limit),
                      "reading the games of " + player_id, true);
  }

  Read<std::vector<ChatRow>> chat(const std::string& game_id, int limit) override {
    std::vector<ChatRow> out;
    if (limit <= 0) return out;
    Error error;
    if (!read(kSelectChat, Params().text(game_id).integer(limit), "reading the chat of " + game_id, error,
              [&](const Result& r, int i) { out.push_back(read_chat(r, i)); }))
      return error;
    return out;
  }

  Read<std::vector<RatingRow>> ratings(const std::string& player_id) override {
    std::vector<RatingRow> out;
    Error error;
    if (!read(kSelectRatings, Params().text(player_id), "reading the ratings of " + player_id, error,
              [&](const Result& r, int i) { out.push_back(read_rating(r, i)); }))
      return error;
    return out;
  }

  Read<std::vector<RatingChange>> rating_history(const std::string& player_id, int limit) override {
    std::vector<RatingChange> out;
    if (limit <= 0) return out;
    Error error;
    if (!read(kSelectHistoryOfPlayer, Params().text(player_id).integer(limit),
              "reading the rating history of " + player_id, error,
              [&](const Result& r, int i) { out.push_back(read_change(r, i)); }))
      return error;
    return out;
  }

  Read<std::vector<RatingChange>> game_ratings(const std::string& game_id) override {
    std::vector<RatingChange> out;
    Error error;
    if (!read(kSelectHistoryOfGame, Params().text(game_id), "reading the rating changes of " + game_id, error,
              [&](const Result& r, int i) { out.push_back(read_change(r, i)); }))
      return error;
    return out;
  }

  Read<std::vector<RatingRow>> leaderboard(const std::string& game, const std::string& pool,
                                           double max_deviation, int limit) override {
    std::vector<RatingRow> out;
    if (limit <= 0) return out;
    Error error;
    if (!read(kSelectLeaderboard, Params().text(game).text(pool).real(max_deviation).integer(limit),
              "reading the leaderboard of " + game, error, [&](const Result& r, int i) {
                out.push_back(read_rating(r, i));
                out.back().username = r.text(i, 11);
              }))
      return error;
    return out;
  }

  Read<std::vector<GameRow>> search_games(const ArchiveQuery& q, std::int64_t* total) override {
    Params p;
    p.text(q.player_id).text(q.game).text(q.result).integer(q.rated).integer(q.from_ms).integer(q.to_ms);
    if (total) {
      *total = 0;
      Error error;
      if (!read(kCountArchive, p, "counting the archive", error,
                [&](const Result& r, int i) { *total = r.integer(i, 0); }))
        return error;
    }
    if (q.limit <= 0) return {};
    p.integer(std::max(0, q.limit)).integer(std::max(0, q.offset));
    return read_games(kSelectArchive, p, "searching the archive");
  }

  Read<std::vector<std::string>> player_ids() override {
    return ids(kSelectPlayerIds, "listing the players");
  }
  Read<std::vector<std::string>> game_ids() override { return ids(kSelectGameIds, "listing the games"); }

  Read<std::vector<RatingRow>> all_ratings() override {
    std::vector<RatingRow> out;
    Error error;
    if (!read(kSelectAllRatings, Params(), "reading the ratings", error,
              [&](const Result& r, int i) { out.push_back(read_rating(r, i)); }))
      return error;
    return out;
  }

  Read<std::vector<RatingChange>> all_rating_history() override {
    std::vector<RatingChange> out;
    Error error;
    if (!read(kSelectAllHistory, Params(), "reading the rating history", error,
              [&](const Result& r, int i) { out.push_back(read_change(r, i)); }))
      return error;
    return out;
  }

  bool put_ratings(const std::vector<RatingRow>& ratings, const std::vector<RatingChange>& history,
                   Error& error) override {
    const std::string doing = "writing " + std::to_string(ratings.size()) + " ratings";
    std::lock_guard lock(writer_.mutex());
    if (!writer_.ready(error)) return false;
    Batch batch;
    for (const RatingRow& r : ratings) batch.add(kUpsertRating, rating_params(r));
    for (const RatingChange& c : history) batch.add(kInsertHistory, change_params(c));
    return writer_.run_transaction(batch, false, error, doing);
  }

  // --- several nodes: on the control connection, so that a heartbeat never waits behind a save
  // or a read. Each statement is its own transaction.
  bool beat(const NodeRow& node, std::int64_t ttl_ms, Error& error) override {
    const std::string doing = "the heartbeat of " + node.id;
    std::lock_guard lock(control_.mutex());
    if (!control_.ready(error)) return false;
    if (!control_.run(kBeat, Params().text(node.id).text(node.name).text(node.address).integer(node.started_ms)
                                 .integer(ttl_ms), error, doing).ok())
      return false;
    return control_.run(kForgetDeadNodes, Params(), error, doing).ok();
  }

  Read<std::vector<NodeRow>> live_nodes() override {
    std::vector<NodeRow> out;
    Error error;
    if (!control_query(kLiveNodes, Params(), "reading the live nodes", error, [&](const Result& r, int i) {
          out.push_back({r.text(i, 0), r.text(i, 1), r.text(i, 2), r.integer(i, 3), r.integer(i, 4)});
        }))
      return error;
    return out;
  }

  std::optional<Lease> acquire(const std::string& game_id, const std::string& node_id, Error& error) override {
    const std::string doing = "taking the lease of " + game_id;
    std::lock_guard lock(control_.mutex());
    if (!control_.ready(error)) return std::nullopt;
    // A node that took the lease while this statement waited for the row is not in the statement's snapshot:
    // who holds it then is read again, by a statement of its own.
    for (int attempt = 0; attempt < 3; ++attempt) {
      Result r = control_.run(kAcquire, Params().text(game_id).text(node_id), error, doing);
      if (!r.ok() || r.rows() == 0) return std::nullopt;
      Lease lease;
      if (!r.is_null(0, 0)) {
        lease.lease = r.integer(0, 0);
        return lease;
      }
      Result o = control_.run(kLeaseOwner, Params().text(game_id), error, doing);
      if (!o.ok()) return std::nullopt;
      if (o.rows() > 0 && !o.text(0, 0).empty()) {
        lease.owner = o.text(0, 0);
        return lease;
      }
    }
    error.message = doing + ": its holder keeps changing";
    return std::nullopt;
  }

  bool release(const std::string& game_id, const std::string& node_id, std::int64_t lease, Error& error) override {
    std::lock_guard lock(control_.mutex());
    if (!control_.ready(error)) return false;
    return control_.run(kRelease, Params().text(game_id).text(node_id).integer(lease), error,
                        "giving up the lease of " + game_id).ok();
  }

  Read<std::vector<std::string>> tournament_orphans(int limit) override {
    std::vector<std::string> out;
    Error error;
    if (!control_query(kTournamentOrphans, Params().integer(limit), "finding tournaments no node runs", error,
                       [&](const Result& r, int i) { out.push_back(r.text(i, 0)); }))
      return error;
    return out;
  }

  Read<std::vector<std::string>> orphans(int limit) override {
    std::vector<std::string> out;
    Error error;
    if (!control_query(kOrphans, Params().integer(limit), "finding games no node holds", error,
                       [&](const Result& r, int i) { out.push_back(r.text(i, 0)); }))
      return error;
    return out;
  }

  // --- mail (schema version 7): the outbox's claims and outcomes on the control connection (quick, never
  // behind a game read), standalone mails on the writer.
  bool queue_mails(const std::vector<MailRow>& mails, const std::vector<std::string>& received,
                   Error& error) override {
    const std::string doing = "queueing " + std::to_string(mails.size()) + " mails";
    std::lock_guard lock(writer_.mutex());
    if (!writer_.ready(error)) return false;
    Batch batch;
    for (const MailRow& m : mails) batch.add(kQueueMail, mail_params(m));
    // No save's time here: the ids are received now, by this machine's clock.
    const std::int64_t at = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
    for (const std::string& id : received) batch.add(kInsertReceived, Params().text(id).integer(at));
    return writer_.run_transaction(batch, false, error, doing);
  }

  Read<std::vector<MailRow>> claim_mails(const std::string& node, std::int64_t now_ms, std::int64_t claim_ms,
                                         int limit) override {
    std::vector<MailRow> out;
    Error error;
    if (!control_query(
            kClaimMails, Params().text(node).integer(now_ms + claim_ms).integer(now_ms).integer(limit),
            "claiming the mails due", error, [&](const Result& r, int i) { out.push_back(read_mail(r, i)); }))
      return error;
    std::sort(out.begin(), out.end(), [](const MailRow& a, const MailRow& b) {
      return a.due_ms != b.due_ms ? a.due_ms < b.due_ms : a.created_ms < b.created_ms;
    });
    return out;
  }

  bool finish_mail(const std::string& id, const std::string& state, std::int64_t at_ms, std::int64_t next_ms,
                   const std::string& error_text, Error& error) override {
    std::lock_guard lock(control_.mutex());
    if (!control_.ready(error)) return false;
    return control_.run(kFinishMail, Params().text(id).text(state).integer(at_ms).integer(next_ms).text(error_text),
                        error, "recording mail " + id + " as " + state).ok();
  }

  Read<bool> mail_received(const std::string& message_id) override {
    bool found = false;
    Error error;
    if (!control_query(kSelectReceived, Params().text(message_id), "looking for mail " + message_id, error,
                       [&](const Result&, int) { found = true; }))
      return error;
    return found;
  }

  Read<std::vector<MailRow>> mails_of_game(const std::string& game_id) override {
    std::vector<MailRow> out;
    Error error;
    if (!control_query(kSelectMailsOfGame, Params().text(game_id), "reading the mails of " + game_id, error,
                       [&](const Result& r, int i) { out.push_back(read_mail(r, i)); }))
      return error;
    return out;
  }

  Read<std::vector<std::pair<std::string, std::int64_t>>> count_mails() override {
    std::vector<std::pair<std::string, std::int64_t>> out;
    Error error;
    if (!control_query(kCountMails, Params(), "counting the mails", error,
                       [&](const Result& r, int i) { out.emplace_back(r.text(i, 0), r.integer(i, 1)); }))
      return error;
    return out;
  }

  // --- accounts' mail (schema version 8): on the control connection, as the outbox's calls.
  Read<std::optional<AccountMail>> account_mail(const std::string& player_id) override {
    std::optional<AccountMail> out;
    Error error;
    if (!control_query(kSelectAccountMail, Params().text(player_id),
                       "reading the mail of account " + player_id, error,
                       [&](const Result& r, int i) { out = read_account_mail(r, i); }))
      return error;
    return out;
  }

  Read<std::optional<AccountMail>> seat_account_mail(const std::string& game_id, int seat) override {
    std::optional<AccountMail> out;
    Error error;
    if (!control_query(kSelectSeatAccountMail, Params().text(game_id).integer(seat),
                       "reading the account mail of " + game_id + " seat " + std::to_string(seat), error,
                       [&](const Result& r, int i) { out = read_account_mail(r, i); }))
      return error;
    return out;
  }

  Read<std::vector<AccountMail>> digest_accounts() override {
    std::vector<AccountMail> out;
    Error error;
    if (!control_query(kSelectDigestAccounts, Params(), "reading the accounts with a digest", error,
                       [&](const Result& r, int i) { out.push_back(read_account_mail(r, i)); }))
      return error;
    return out;
  }

  bool put_account_mail(const AccountMail& a, const std::vector<MailRow>& mails, Error& error) override {
    std::lock_guard lock(writer_.mutex());
    if (!writer_.ready(error)) return false;
    Batch batch;
    batch.add(kUpsertAccountMail, Params().text(a.player_id).text(a.address).text(a.pending).text(a.code_hash)
                                      .text(a.unsubscribe_key).text(a.prefs).text(a.digest_day).integer(a.updated_ms));
    for (const MailRow& m : mails) batch.add(kQueueMail, mail_params(m));
    return writer_.run_transaction(batch, false, error, "storing the mail of account " + a.player_id);
  }

  // --- tournaments (schema version 10): on the control connection, as the accounts' mail.
  bool put_tournament(const TournamentRow& t, std::int64_t after, const std::vector<MailRow>& mails,
                      Error& error) override {
    const std::string doing = "storing tournament " + t.id;
    if (after >= 0 && t.version != after + 1) {
      error.message = doing + ": version " + std::to_string(t.version) + " does not follow " + std::to_string(after);
      return false;
    }
    std::lock_guard lock(writer_.mutex());
    if (!writer_.ready(error)) return false;
    Batch batch;
    Params params = Params().text(t.id).text(t.game).text(t.format).text(t.name).text(t.status).text(t.created_by)
                        .integer(t.starts_ms).integer(t.created_ms).integer(t.updated_ms).integer(t.version)
                        .text(t.state);
    if (after > 0) params.integer(after);
    batch.add(after <= 0 ? kInsertTournament : kUpdateTournament, params);
    for (const MailRow& m : mails) batch.add(kQueueMail, mail_params(m));
    return writer_.run_transaction(batch, false, error, doing);
  }

  Read<std::optional<TournamentRow>> tournament(const std::string& id) override {
    std::optional<TournamentRow> out;
    Error error;
    if (!control_query(kSelectTournament, Params().text(id), "reading tournament " + id, error,
                       [&](const Result& r, int i) { out = read_tournament(r, i); }))
      return error;
    return out;
  }

  Read<std::vector<TournamentRow>> tournaments(const std::string& status, int limit) override {
    std::vector<TournamentRow> out;
    Error error;
    if (!control_query(kSelectTournaments, Params().text(status).integer(limit), "reading the tournaments", error,
                       [&](const Result& r, int i) { out.push_back(read_tournament(r, i)); }))
      return error;
    return out;
  }

  // --- analyses (schema version 11): on the control connection, as the tournaments.
  bool put_analysis(const AnalysisRow& a, Error& error) override {
    std::lock_guard lock(writer_.mutex());
    if (!writer_.ready(error)) return false;
    Batch batch;
    batch.add(kPutAnalysis, Params().text(a.game_id).text(a.settings).text(a.analysis).integer(a.created_ms));
    return writer_.run_transaction(batch, false, error, "storing the analysis " + a.settings + " of game " + a.game_id);
  }

  static AnalysisRow read_analysis(const Result& r, int i) {
    return AnalysisRow{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.integer(i, 3)};
  }

  Read<std::optional<AnalysisRow>> analysis(const std::string& game_id, const std::string& settings) override {
    std::optional<AnalysisRow> out;
    Error error;
    if (!control_query(kSelectAnalysis, Params().text(game_id).text(settings),
                       "reading the analysis " + settings + " of game " + game_id, error,
                       [&](const Result& r, int i) { out = read_analysis(r, i); }))
      return error;
    return out;
  }

  Read<std::vector<AnalysisRow>> all_analyses() override {
    std::vector<AnalysisRow> out;
    Error error;
    if (!control_query(kSelectAnalyses, Params(), "reading the analyses", error,
                       [&](const Result& r, int i) { out.push_back(read_analysis(r, i)); }))
      return error;
    return out;
  }

  // --- moderation (schema version 12): on the writer for writes, the control connection for reads.
  bool moderate(const ModerationWrite& w, Error& error) override {
    if (w.empty()) return true;
    std::lock_guard lock(writer_.mutex());
    if (!writer_.ready(error)) return false;
    Batch batch;
    for (const RoleRow& r : w.roles)
      batch.add(kUpsertRole, Params().text(r.player_id).text(r.role).text(r.granted_by).integer(r.at_ms));
    for (const std::string& id : w.roles_removed) batch.add(kDeleteRole, Params().text(id));
    for (const SanctionRow& s : w.sanctions)
      batch.add(kUpsertSanction, Params().text(s.player_id).text(s.kind).text(s.reason).text(s.by)
                                     .integer(s.at_ms).integer(s.until_ms));
    for (const auto& [id, kind] : w.sanctions_lifted) batch.add(kDeleteSanction, Params().text(id).text(kind));
    for (const ReportRow& r : w.reports)
      batch.add(kUpsertReport, Params().text(r.id).integer(r.at_ms).text(r.reporter_id).text(r.target_id)
                                   .text(r.room).text(r.line).text(r.reason).text(r.status).text(r.handled_by)
                                   .integer(r.handled_ms));
    for (const BlockRow& b : w.blocks)
      batch.add(kInsertBlock, Params().text(b.blocker_id).text(b.blocked_id).integer(b.at_ms));
    for (const auto& [blocker, blocked] : w.blocks_removed)
      batch.add(kDeleteBlock, Params().text(blocker).text(blocked));
    if (!w.audit.empty()) batch.add(kLockAudit, Params());
    for (const AuditRow& a : w.audit)
      batch.add(kInsertAudit, Params().integer(w.keep_seq ? a.seq : 0).integer(a.at_ms).text(a.actor_id)
                                  .text(a.actor_name).text(a.action).text(a.target_id).text(a.target_name)
                                  .text(a.detail));
    for (const SightingRow& s : w.sightings)
      batch.add(kNoteSighting, Params().text(s.player_id).text(s.kind).text(s.value).integer(s.first_ms)
                                   .integer(s.last_ms).integer(s.count));
    return writer_.run_transaction(batch, false, error, "storing a moderation change");
  }

  Read<std::vector<RoleRow>> roles() override {
    std::vector<RoleRow> out;
    Error error;
    if (!control_query(kSelectRoles, Params(), "reading the roles", error, [&](const Result& r, int i) {
          out.push_back(RoleRow{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.integer(i, 3)});
        }))
      return error;
    return out;
  }

  Read<std::vector<SanctionRow>> sanctions() override {
    std::vector<SanctionRow> out;
    Error error;
    if (!control_query(kSelectSanctions, Params(), "reading the sanctions", error, [&](const Result& r, int i) {
          out.push_back(SanctionRow{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.text(i, 3), r.integer(i, 4),
                                    r.integer(i, 5)});
        }))
      return error;
    return out;
  }

  static ReportRow read_report(const Result& r, int i) {
    return ReportRow{r.text(i, 0), r.integer(i, 1), r.text(i, 2), r.text(i, 3), r.text(i, 4),
                     r.text(i, 5), r.text(i, 6),    r.text(i, 7), r.text(i, 8), r.integer(i, 9)};
  }

  Read<std::vector<ReportRow>> reports(const std::string& status, int limit) override {
    std::vector<ReportRow> out;
    Error error;
    if (!control_query(kSelectReports, Params().text(status).integer(limit), "reading the reports", error,
                       [&](const Result& r, int i) { out.push_back(read_report(r, i)); }))
      return error;
    return out;
  }

  Read<std::optional<ReportRow>> report(const std::string& id) override {
    std::optional<ReportRow> out;
    Error error;
    if (!control_query(kSelectReport, Params().text(id), "reading report " + id, error,
                       [&](const Result& r, int i) { out = read_report(r, i); }))
      return error;
    return out;
  }

  Read<std::vector<BlockRow>> blocks(const std::string& player_id) override {
    std::vector<BlockRow> out;
    Error error;
    if (!control_query(kSelectBlocks, Params().text(player_id), "reading the blocks of " + player_id, error,
                       [&](const Result& r, int i) {
                         out.push_back(BlockRow{r.text(i, 0), r.text(i, 1), r.integer(i, 2)});
                       }))
      return error;
    return out;
  }

  Read<std::vector<AuditRow>> audit(const std::string& target_id, int limit) override {
    std::vector<AuditRow> out;
    Error error;
    if (!control_query(kSelectAudit, Params().text(target_id).integer(limit), "reading the audit log", error,
                       [&](const Result& r, int i) {
                         out.push_back(AuditRow{r.integer(i, 0), r.integer(i, 1), r.text(i, 2), r.text(i, 3),
                                                r.text(i, 4), r.text(i, 5), r.text(i, 6), r.text(i, 7)});
                       }))
      return error;
    return out;
  }

  Read<std::vector<LinkRow>> linked_accounts(int limit) override {
    std::vector<LinkRow> out;
    Error error;
    if (!control_query(kSelectLinks, Params().integer(limit), "reading the linked accounts", error,
                       [&](const Result& r, int i) {
                         out.push_back(LinkRow{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.integer(i, 3),
                                               r.integer(i, 4)});
                       }))
      return error;
    return out;
  }

  Read<ModerationRows> moderation_rows() override {
    ModerationRows out;
    auto roles_read = roles();
    auto sanctions_read = sanctions();
    auto reports_read = reports("", std::numeric_limits<int>::max());
    auto blocks_read = blocks("");
    auto audit_read = audit("", std::numeric_limits<int>::max());
    if (roles_read.failed()) return roles_read.error();
    if (sanctions_read.failed()) return sanctions_read.error();
    if (reports_read.failed()) return reports_read.error();
    if (blocks_read.failed()) return blocks_read.error();
    if (audit_read.failed()) return audit_read.error();
    out.roles = roles_read;
    out.sanctions = sanctions_read;
    out.reports = reports_read;
    out.blocks = blocks_read;
    out.audit = audit_read;
    std::reverse(out.audit.begin(), out.audit.end());
    Error error;
    if (!control_query(kSelectSightings, Params(), "reading the sightings", error, [&](const Result& r, int i) {
          out.sightings.push_back(SightingRow{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.integer(i, 3),
                                              r.integer(i, 4), r.integer(i, 5)});
        }))
      return error;
    return out;
  }

  bool leave(const std::string& node_id, Error& error) override {
    const std::string doing = "node " + node_id + " leaving";
    std::lock_guard lock(control_.mutex());
    if (!control_.ready(error)) return false;
    Batch batch;
    batch.add(kReleaseAll, Params().text(node_id));
    batch.add(kDeleteNode, Params().text(node_id));
    return control_.run_transaction(batch, false, error, doing);
  }

 private:
  // One read on the control connection; false if it failed (logged, and why in `error`).
  template <typename Row>
  bool control_query(const Sql& sql, const Params& params, const std::string& doing, Error& error,
                     Row&& row) {
    std::lock_guard lock(control_.mutex());
    Error run;
    if (!control_.ready(run)) return read_failed(error, doing + ": " + run.message);
    Result r = control_.run(sql, params, run, doing);
    if (!r.ok()) return read_failed(error, run.message);
    for (int i = 0; i < r.rows(); ++i) row(r, i);
    return true;
  }

  static ChatRow read_chat(const Result& r, int i) {
    return ChatRow{r.integer(i, 0), r.text(i, 1), static_cast<int>(r.integer(i, 2)), r.text(i, 3), r.text(i, 4),
                   r.text(i, 5)};
  }

  // A rated game's ratings: read (locked) and changed in this transaction, once (the history row).
  bool queue_ratings(Batch& batch, const GameRow& g,
                     std::map<std::tuple<std::string, std::string, std::string>, RatingRow>& seen, Error& error,
                     const std::string& doing) {
    Result exists = writer_.run(kHistoryExists, Params().text(g.seat_ids[0]).text(g.id), error, doing);
    if (!exists.ok()) return false;
    if (exists.rows() > 0) return true;
    std::array<RatingRow, 2> before;
    for (int s = 0; s < 2; ++s) {
      const auto key = std::make_tuple(g.seat_ids[s], g.game, g.kind);
      if (auto it = seen.find(key); it != seen.end()) {
        before[s] = it->second;
        continue;
      }
      before[s].player_id = g.seat_ids[s];
      before[s].game = g.game;
      before[s].pool = g.kind;
      Result r = writer_.run(kSelectRatingForUpdate, Params().text(g.seat_ids[s]).text(g.game).text(g.kind),
                             error, doing);
      if (!r.ok()) return false;
      if (r.rows() > 0) before[s] = read_rating(r, 0);
    }
    const RatedGame rated = rate_game(g, before);
    for (int s = 0; s < 2; ++s) {
      batch.add(kUpsertRating, rating_params(rated.after[s]));
      batch.add(kInsertHistory, change_params(rated.changes[s]));
      seen[std::make_tuple(g.seat_ids[s], g.game, g.kind)] = rated.after[s];
    }
    return true;
  }

  // Runs one read statement on the reader's open connection, handing each row to `row`; false if it failed
  // (logged, and why in `error`). The caller holds the reader's mutex.
  template <typename Row>
  bool read_locked(const Sql& sql, const Params& params, const std::string& doing, Error& error, Row&& row) {
    Error run;
    Result r = reader_.run(sql, params, run, doing);
    if (!r.ok()) return read_failed(error, run.message);
    for (int i = 0; i < r.rows(); ++i) row(r, i);
    return true;
  }

  template <typename Row>
  bool read(const Sql& sql, const Params& params, const std::string& doing, Error& error, Row&& row) {
    std::lock_guard lock(reader_.mutex());
    Error ready;
    if (!reader_.ready(ready)) return read_failed(error, doing + ": " + ready.message);
    return read_locked(sql, params, doing, error, std::forward<Row>(row));
  }

  // Logs a failed read (`message` names what was being read) and keeps it in `error`, which the read gives
  // back (Read<T>); false.
  static bool read_failed(Error& error, const std::string& message) {
    spdlog::error("store: {}", message);
    error.message = message;
    return false;
  }

  Read<std::vector<std::string>> ids(const Sql& sql, const std::string& doing) {
    std::vector<std::string> out;
    Error error;
    if (!read(sql, Params(), doing, error, [&](const Result& r, int i) { out.push_back(r.text(i, 0)); }))
      return error;
    return out;
  }

  // Opens a read-only transaction with one snapshot on the reader (the caller holds its mutex).
  bool begin_snapshot(const std::string& doing, Error& error) {
    Error begin;
    if (!reader_.ready(begin)) return read_failed(error, doing + ": " + begin.message);
    if (!reader_.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", begin, doing))
      return read_failed(error, begin.message);
    return true;
  }

  bool end_snapshot(const std::string& doing, Error& error) {
    Error commit;
    return reader_.exec("COMMIT", commit, doing) || read_failed(error, commit.message);
  }

  Read<std::optional<PlayerRow>> load_player(const Sql& sql, const std::string& key) {
    std::optional<PlayerRow> found;
    const std::string doing = "reading player " + key;
    std::lock_guard lock(reader_.mutex());
    Error error;
    if (!begin_snapshot(doing, error)) return error;
    bool ok = read_locked(sql, Params().text(key), doing, error,
                          [&](const Result& r, int i) { found = read_player(r, i); });
    if (ok && found)
      ok = read_locked(kSelectSessions, Params().text(found->id), doing, error,
                       [&](const Result& r, int i) { found->sessions.push_back(r.text(i, 0)); });
    ok = end_snapshot(doing, error) && ok;
    if (!ok) return error;
    return found;
  }

  // Games: their rows, then the records of the unfinished ones laid out from their entries, in one snapshot.
  // A read that failed part of the way gives nothing: a game without its entries is not that game.
  Read<std::vector<GameRow>> read_games(const Sql& sql, const Params& params, const std::string& doing,
                                        bool with_tokens = false, bool with_chat = false) {
    std::vector<GameRow> games;
    std::lock_guard lock(reader_.mutex());
    Error error;
    if (!begin_snapshot(doing, error)) return error;
    bool ok = read_locked(sql, params, doing, error,
                          [&](const Result& r, int i) { games.push_back(read_game(r, i)); });
    std::vector<std::string> entries;
    for (GameRow& g : games) {
      if (!ok) break;
      if (g.status != "finished") {
        entries.clear();
        ok = read_locked(kSelectEntries, Params().text(g.id), doing, error,
                         [&](const Result& r, int i) { entries.push_back(r.text(i, 0)); });
        g.record = layout_record(g.record, entries);
        if (ok && with_tokens)
          ok = read_locked(kSelectSeatTokens, Params().text(g.id), doing, error, [&](const Result& r, int i) {
            const auto seat = r.integer(i, 0);
            if (seat == 0 || seat == 1) g.seat_tokens[static_cast<std::size_t>(seat)] = r.text(i, 1);
          });
      }
      if (ok && with_chat)
        ok = read_locked(kSelectChat, Params().text(g.id).integer(100), doing, error,
                         [&](const Result& r, int i) { g.chat.push_back(read_chat(r, i)); });
      if (ok && with_tokens)
        ok = read_locked(kSelectSeatMail, Params().text(g.id), doing, error, [&](const Result& r, int i) {
          const auto seat = r.integer(i, 0);
          if (seat == 0 || seat == 1)
            g.seat_mail[static_cast<std::size_t>(seat)] = {r.text(i, 1), r.integer(i, 2) != 0, r.integer(i, 3) != 0,
                                                           r.text(i, 4), r.text(i, 5), r.text(i, 6)};
        });
    }
    ok = end_snapshot(doing, error) && ok;
    if (!ok) return error;
    return games;
  }

  std::string uri_;
  Connection writer_;
  Connection reader_;
  Connection control_;  // the cluster's heartbeats and leases
};

}  // namespace

std::unique_ptr<Store> open_postgres(const std::string& uri, Error& error) {
  auto store = std::make_unique<PostgresStore>(uri);
  if (!store->open(error)) return nullptr;
  return store;
}

}  // namespace cinq::store
