// The SQLite backend of the store (store.h): two connections (one writer, one reader) on one WAL file, each
// with its own mutex and its own cache of prepared statements.
#include "persistence/store.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string_view>
#include <filesystem>
#include <functional>
#include <mutex>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <limits>
#include <variant>
#include <spdlog/spdlog.h>

#include "rules/notation.h"

namespace cinq::store {
namespace {

constexpr int kSchemaVersion = 12;
constexpr int kBusyTimeoutMs = 5000;

// CREATE ... IF NOT EXISTS everywhere: opening a database whose schema is already there changes nothing.
constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS players (
  id TEXT PRIMARY KEY NOT NULL,
  token_hash TEXT NOT NULL,
  name TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY NOT NULL,
  game TEXT NOT NULL,
  options TEXT NOT NULL,
  clock_base_ms INTEGER NOT NULL,
  clock_increment_ms INTEGER NOT NULL,
  is_private INTEGER NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  result TEXT NOT NULL,
  record TEXT NOT NULL,
  seat0_id TEXT NOT NULL,
  seat1_id TEXT NOT NULL,
  seat0_name TEXT NOT NULL,
  seat1_name TEXT NOT NULL,
  seat0_clock_ms INTEGER NOT NULL,
  seat1_clock_ms INTEGER NOT NULL,
  version INTEGER NOT NULL,
  turns INTEGER NOT NULL,
  rematch_of TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  clock_days INTEGER NOT NULL DEFAULT 0,
  deadline_ms INTEGER NOT NULL DEFAULT 0,
  seat0_token_hash TEXT NOT NULL DEFAULT '',
  seat1_token_hash TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS games_by_status ON games(status);
CREATE INDEX IF NOT EXISTS games_by_updated ON games(updated_ms);
CREATE INDEX IF NOT EXISTS games_by_seat0 ON games(seat0_id);
CREATE INDEX IF NOT EXISTS games_by_seat1 ON games(seat1_id);
)sql";

// Version 3's tables for unfinished games (store.h): the record's entries and the progress of each turn.
constexpr const char* kEntriesSchema = R"sql(
CREATE TABLE IF NOT EXISTS record_entries (
  game_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS game_progress (
  game_id TEXT PRIMARY KEY NOT NULL,
  version INTEGER NOT NULL,
  turns INTEGER NOT NULL,
  seat0_clock_ms INTEGER NOT NULL,
  seat1_clock_ms INTEGER NOT NULL,
  open_turn INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  commands TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
)sql";

// Version 4's tables: a correspondence game's seat tokens, kept so that their links can be shown
// again while the game is unfinished (deleted when it finishes), and each game's chat, which is not part of
// its record.
constexpr const char* kExtrasSchema = R"sql(
CREATE TABLE IF NOT EXISTS seat_tokens (
  game_id TEXT NOT NULL,
  seat INTEGER NOT NULL,
  token TEXT NOT NULL,
  PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chat (
  game_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  at_ms INTEGER NOT NULL,
  channel TEXT NOT NULL,
  seat INTEGER NOT NULL,
  player_id TEXT NOT NULL,
  name TEXT NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
)sql";

// Version 5: accounts (a user name, unique whatever its case, and a password hash on the players
// row; their login tokens), rated games and who won them, ratings and what each rated game did to them.
// Applied to a new file too, after the tables of the earlier versions.
constexpr const char* kUpgradeTo5 = R"sql(
ALTER TABLE players ADD COLUMN username TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN password_hash TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX IF NOT EXISTS players_by_username ON players(username COLLATE NOCASE) WHERE username <> '';
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN winner INTEGER NOT NULL DEFAULT -1;
CREATE INDEX IF NOT EXISTS games_finished_by_updated ON games(updated_ms) WHERE status = 'finished';
CREATE TABLE IF NOT EXISTS sessions (
  token_hash TEXT PRIMARY KEY NOT NULL,
  player_id TEXT NOT NULL,
  seq INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sessions_by_player ON sessions(player_id);
CREATE TABLE IF NOT EXISTS ratings (
  player_id TEXT NOT NULL,
  game TEXT NOT NULL,
  pool TEXT NOT NULL,
  rating REAL NOT NULL,
  deviation REAL NOT NULL,
  volatility REAL NOT NULL,
  games INTEGER NOT NULL,
  wins INTEGER NOT NULL,
  losses INTEGER NOT NULL,
  draws INTEGER NOT NULL,
  last_ms INTEGER NOT NULL,
  PRIMARY KEY (player_id, game, pool)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ratings_by_board ON ratings(game, pool, rating);
CREATE TABLE IF NOT EXISTS rating_history (
  player_id TEXT NOT NULL,
  game_id TEXT NOT NULL,
  game TEXT NOT NULL,
  pool TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  score REAL NOT NULL,
  before_rating REAL NOT NULL,
  before_deviation REAL NOT NULL,
  rating REAL NOT NULL,
  deviation REAL NOT NULL,
  volatility REAL NOT NULL,
  PRIMARY KEY (player_id, game_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rating_history_by_game ON rating_history(game_id);
)sql";

// From version 1 to 2: the correspondence columns (existing games are not correspondence games).
constexpr const char* kUpgradeTo2 = R"sql(
ALTER TABLE games ADD COLUMN clock_days INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN deadline_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN seat0_token_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN seat1_token_hash TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS games_by_seat0 ON games(seat0_id);
CREATE INDEX IF NOT EXISTS games_by_seat1 ON games(seat1_id);
)sql";

// Version 6: several nodes on one store. The ids of the forwarded commands each unfinished game
// applied last (store.h, GameRow::commands), the nodes' heartbeats and the rooms' leases (store.h, Fence).
// A SQLite file is one machine's, but it keeps the same tables as PostgreSQL: the store behaves the same.
constexpr const char* kAddCommands = "ALTER TABLE game_progress ADD COLUMN commands TEXT NOT NULL DEFAULT ''";
constexpr const char* kUpgradeTo6 = R"sql(
CREATE TABLE IF NOT EXISTS nodes (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  address TEXT NOT NULL,
  started_ms INTEGER NOT NULL,
  expires_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS room_leases (
  game_id TEXT PRIMARY KEY NOT NULL,
  node_id TEXT NOT NULL,
  lease INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS room_leases_by_node ON room_leases(node_id);
)sql";

// Version 7: correspondence by e-mail (docs/mail.md; store.h, SeatMail, MailRow): each seat's mail, the
// outbox, and the Message-IDs of the mails played.
constexpr const char* kUpgradeTo7 = R"sql(
CREATE TABLE IF NOT EXISTS mail_seats (
  game_id TEXT NOT NULL,
  seat INTEGER NOT NULL,
  address TEXT NOT NULL,
  by_mail INTEGER NOT NULL,
  confirmed INTEGER NOT NULL,
  reminders TEXT NOT NULL,
  PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS mail_outbox (
  id TEXT PRIMARY KEY NOT NULL,
  slot TEXT NOT NULL,
  game_id TEXT NOT NULL,
  seat INTEGER NOT NULL,
  kind TEXT NOT NULL,
  sender TEXT NOT NULL,
  recipient TEXT NOT NULL,
  message TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  due_ms INTEGER NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  next_ms INTEGER NOT NULL,
  error TEXT NOT NULL,
  sent_ms INTEGER NOT NULL,
  claimed_by TEXT NOT NULL,
  claimed_until_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS mail_outbox_due ON mail_outbox(state, due_ms);
CREATE INDEX IF NOT EXISTS mail_outbox_by_game ON mail_outbox(game_id);
CREATE INDEX IF NOT EXISTS mail_outbox_by_slot ON mail_outbox(slot) WHERE state = 'queued';
CREATE TABLE IF NOT EXISTS mail_received (
  message_id TEXT PRIMARY KEY NOT NULL,
  at_ms INTEGER NOT NULL
) WITHOUT ROWID;
)sql";

// Version 8: each seat's time zone, and an account's own address and mail preferences (store.h, AccountMail).
constexpr const char* kUpgradeTo8 = R"sql(
ALTER TABLE mail_seats ADD COLUMN zone TEXT NOT NULL DEFAULT '';
CREATE TABLE IF NOT EXISTS account_mail (
  player_id TEXT PRIMARY KEY NOT NULL,
  address TEXT NOT NULL,
  pending TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  unsubscribe_key TEXT NOT NULL,
  prefs TEXT NOT NULL,
  digest_day TEXT NOT NULL,
  updated_ms INTEGER NOT NULL
) WITHOUT ROWID;
)sql";

// The database's clock in Unix milliseconds (every node of a cluster shares it).
#define CINQ_NOW_MS "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"

// The columns of a games row, in the order bind_game() binds them.
// Version 9: each seat's language (its mails', mail/words.h).
constexpr const char* kUpgradeTo9 = R"sql(
ALTER TABLE mail_seats ADD COLUMN language TEXT NOT NULL DEFAULT '';
)sql";

// Version 10: tournaments (store.h, TournamentRow).
constexpr const char* kUpgradeTo10 = R"sql(
CREATE TABLE IF NOT EXISTS tournaments (
  id TEXT PRIMARY KEY NOT NULL,
  game TEXT NOT NULL,
  format TEXT NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  created_by TEXT NOT NULL,
  starts_ms INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  version INTEGER NOT NULL,
  state TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tournaments_by_status ON tournaments(status, starts_ms, created_ms);
)sql";

// Version 11: the games' analyses (store.h, AnalysisRow).
constexpr const char* kUpgradeTo11 = R"sql(
CREATE TABLE IF NOT EXISTS analyses (
  game_id TEXT NOT NULL,
  settings TEXT NOT NULL,
  analysis TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  PRIMARY KEY (game_id, settings)
) WITHOUT ROWID;
)sql";
constexpr const char* kPutAnalysis =
    "INSERT INTO analyses (game_id, settings, analysis, created_ms) VALUES (?1, ?2, ?3, ?4)"
    " ON CONFLICT(game_id, settings) DO UPDATE SET analysis = excluded.analysis, created_ms = excluded.created_ms";
constexpr const char* kSelectAnalysis =
    "SELECT game_id, settings, analysis, created_ms FROM analyses WHERE game_id = ?1 AND settings = ?2";
constexpr const char* kSelectAnalyses =
    "SELECT game_id, settings, analysis, created_ms FROM analyses ORDER BY game_id, settings";
// Version 12: moderation (store.h, RoleRow and the rows after it).
constexpr const char* kUpgradeTo12 = R"sql(
CREATE TABLE IF NOT EXISTS roles (
  player_id TEXT PRIMARY KEY NOT NULL,
  role TEXT NOT NULL,
  granted_by TEXT NOT NULL,
  at_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sanctions (
  player_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  reason TEXT NOT NULL,
  by_id TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  until_ms INTEGER NOT NULL,
  PRIMARY KEY (player_id, kind)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS reports (
  id TEXT PRIMARY KEY NOT NULL,
  at_ms INTEGER NOT NULL,
  reporter_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  room TEXT NOT NULL,
  line TEXT NOT NULL,
  reason TEXT NOT NULL,
  status TEXT NOT NULL,
  handled_by TEXT NOT NULL,
  handled_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS reports_by_status ON reports(status, at_ms);
CREATE TABLE IF NOT EXISTS blocks (
  blocker_id TEXT NOT NULL,
  blocked_id TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  PRIMARY KEY (blocker_id, blocked_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS blocks_by_blocked ON blocks(blocked_id);
CREATE TABLE IF NOT EXISTS audit (
  seq INTEGER PRIMARY KEY,
  at_ms INTEGER NOT NULL,
  actor_id TEXT NOT NULL,
  actor_name TEXT NOT NULL,
  action TEXT NOT NULL,
  target_id TEXT NOT NULL,
  target_name TEXT NOT NULL,
  detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_by_target ON audit(target_id, seq);
CREATE TABLE IF NOT EXISTS sightings (
  player_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  first_ms INTEGER NOT NULL,
  last_ms INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (player_id, kind, value)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sightings_by_value ON sightings(kind, value);
)sql";

// --- moderation (schema version 12): the statements.
constexpr const char* kUpsertRole =
    "INSERT INTO roles (player_id, role, granted_by, at_ms) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(player_id) DO"
    " UPDATE SET role = excluded.role, granted_by = excluded.granted_by, at_ms = excluded.at_ms";
constexpr const char* kDeleteRole = "DELETE FROM roles WHERE player_id = ?1";
constexpr const char* kSelectRoles = "SELECT player_id, role, granted_by, at_ms FROM roles ORDER BY player_id";
constexpr const char* kUpsertSanction =
    "INSERT INTO sanctions (player_id, kind, reason, by_id, at_ms, until_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    " ON CONFLICT(player_id, kind) DO UPDATE SET reason = excluded.reason, by_id = excluded.by_id,"
    " at_ms = excluded.at_ms, until_ms = excluded.until_ms";
constexpr const char* kDeleteSanction = "DELETE FROM sanctions WHERE player_id = ?1 AND kind = ?2";
constexpr const char* kSelectSanctions =
    "SELECT player_id, kind, reason, by_id, at_ms, until_ms FROM sanctions ORDER BY player_id, kind";
#define CINQ_REPORT_COLUMNS "id, at_ms, reporter_id, target_id, room, line, reason, status, handled_by, handled_ms"
constexpr const char* kUpsertReport =
    "INSERT OR REPLACE INTO reports (" CINQ_REPORT_COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
constexpr const char* kSelectReports = "SELECT " CINQ_REPORT_COLUMNS
                                       " FROM reports WHERE ?1 = '' OR status = ?1 ORDER BY at_ms DESC, id LIMIT ?2";
constexpr const char* kSelectReport = "SELECT " CINQ_REPORT_COLUMNS " FROM reports WHERE id = ?1";
constexpr const char* kInsertBlock = "INSERT OR IGNORE INTO blocks (blocker_id, blocked_id, at_ms) VALUES (?1, ?2, ?3)";
constexpr const char* kDeleteBlock = "DELETE FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2";
constexpr const char* kSelectBlocks =
    "SELECT blocker_id, blocked_id, at_ms FROM blocks WHERE ?1 = '' OR blocker_id = ?1 OR blocked_id = ?1"
    " ORDER BY blocker_id, blocked_id";
#define CINQ_AUDIT_COLUMNS "seq, at_ms, actor_id, actor_name, action, target_id, target_name, detail"
constexpr const char* kInsertAudit =
    "INSERT INTO audit (" CINQ_AUDIT_COLUMNS ") VALUES (CASE WHEN ?1 > 0 THEN ?1 ELSE"
    " (SELECT coalesce(max(seq), 0) + 1 FROM audit) END, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
constexpr const char* kSelectAudit = "SELECT " CINQ_AUDIT_COLUMNS
                                     " FROM audit WHERE ?1 = '' OR target_id = ?1 ORDER BY seq DESC LIMIT ?2";
constexpr const char* kNoteSighting =
    "INSERT INTO sightings (player_id, kind, value, first_ms, last_ms, count) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    " ON CONFLICT(player_id, kind, value) DO UPDATE SET count = count + excluded.count,"
    " last_ms = max(last_ms, excluded.last_ms), first_ms = min(first_ms, excluded.first_ms)";
constexpr const char* kSelectSightings =
    "SELECT player_id, kind, value, first_ms, last_ms, count FROM sightings ORDER BY player_id, kind, value";
constexpr const char* kSelectLinks =
    "SELECT l.a, l.b, l.kind, l.shared, (SELECT count(*) FROM games g WHERE g.rated <> 0 AND"
    " ((g.seat0_id = l.a AND g.seat1_id = l.b) OR (g.seat0_id = l.b AND g.seat1_id = l.a))) AS rated"
    " FROM (SELECT x.player_id AS a, y.player_id AS b, x.kind AS kind, count(*) AS shared FROM sightings x"
    " JOIN sightings y ON y.kind = x.kind AND y.value = x.value AND y.player_id > x.player_id"
    " GROUP BY x.player_id, y.player_id, x.kind) l ORDER BY rated DESC, l.shared DESC, l.a, l.b LIMIT ?1";

#define CINQ_GAME_COLUMNS                                                                            \
  "id, game, options, clock_base_ms, clock_increment_ms, is_private, kind, status, result, record, " \
  "seat0_id, seat1_id, seat0_name, seat1_name, seat0_clock_ms, seat1_clock_ms, version, turns, "     \
  "rematch_of, created_ms, updated_ms, clock_days, deadline_ms, seat0_token_hash, seat1_token_hash, rated, winner"
// The same as every games query reads them (read_game() reads them by position): the progress row's values
// win while the game has one.
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

constexpr const char* kUpsertGame =
    "INSERT INTO games (" CINQ_GAME_COLUMNS
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, "
    "?21, ?22, ?23, ?24, ?25, ?26, ?27)"
    " ON CONFLICT(id) DO UPDATE SET game = excluded.game, options = excluded.options,"
    " clock_base_ms = excluded.clock_base_ms, clock_increment_ms = excluded.clock_increment_ms,"
    " is_private = excluded.is_private, kind = excluded.kind, status = excluded.status,"
    " result = excluded.result, record = excluded.record, seat0_id = excluded.seat0_id,"
    " seat1_id = excluded.seat1_id, seat0_name = excluded.seat0_name, seat1_name = excluded.seat1_name,"
    " seat0_clock_ms = excluded.seat0_clock_ms, seat1_clock_ms = excluded.seat1_clock_ms,"
    " version = excluded.version, turns = excluded.turns, rematch_of = excluded.rematch_of,"
    " created_ms = excluded.created_ms, updated_ms = excluded.updated_ms, clock_days = excluded.clock_days,"
    " deadline_ms = excluded.deadline_ms, seat0_token_hash = excluded.seat0_token_hash,"
    " seat1_token_hash = excluded.seat1_token_hash, rated = excluded.rated, winner = excluded.winner";
constexpr const char* kSelectGame = "SELECT " CINQ_READ_COLUMNS CINQ_FROM_GAMES " WHERE g.id = ?1";
// The id breaks ties so that equal times still give a stable order.
constexpr const char* kSelectUnfinished = "SELECT " CINQ_READ_COLUMNS CINQ_FROM_GAMES
                                          " WHERE g.status <> 'finished' ORDER BY g.created_ms, g.id";
constexpr const char* kSelectFinished =
    "SELECT " CINQ_READ_COLUMNS CINQ_FROM_GAMES
    " WHERE g.status = 'finished' AND (?2 OR g.is_private = 0) ORDER BY g.updated_ms DESC, g.id DESC"
    " LIMIT ?1";
constexpr const char* kCountGames = "SELECT count(*) FROM games";
constexpr const char* kSelectOfPlayer =
    "SELECT " CINQ_READ_COLUMNS CINQ_FROM_GAMES
    " WHERE g.seat0_id = ?1 OR g.seat1_id = ?1"
    " ORDER BY g.status = 'finished',"
    " CASE WHEN g.status = 'finished' THEN -g.updated_ms ELSE g.deadline_ms END, g.id"
    " LIMIT ?2";

// The archive: finished public games; ?1 a player ('' any), ?2 a game, ?3 a result (win and loss are
// the player's), ?4 rated (1, 0, -1 either), ?5 and ?6 the time span (0: open), ?7 limit, ?8 offset.
#define CINQ_ARCHIVE_WHERE                                                                                  \
  " WHERE g.status = 'finished' AND g.is_private = 0 AND (?1 = '' OR g.seat0_id = ?1 OR g.seat1_id = ?1)"  \
  " AND (?2 = '' OR g.game = ?2) AND (?4 < 0 OR g.rated = ?4) AND (?5 = 0 OR g.updated_ms >= ?5)"          \
  " AND (?6 = 0 OR g.updated_ms < ?6) AND (?3 = '' OR (?3 = 'draw' AND g.winner = 2)"                     \
  " OR (?3 = 'decided' AND g.winner IN (0, 1)) OR (?3 = 'aborted' AND g.result LIKE 'aborted%')"            \
  " OR (?3 = 'win' AND ((g.seat0_id = ?1 AND g.winner = 0) OR (g.seat1_id = ?1 AND g.winner = 1)))"        \
  " OR (?3 = 'loss' AND ((g.seat0_id = ?1 AND g.winner = 1) OR (g.seat1_id = ?1 AND g.winner = 0))))"
constexpr const char* kSelectArchive = "SELECT " CINQ_READ_COLUMNS CINQ_FROM_GAMES CINQ_ARCHIVE_WHERE
                                       " ORDER BY g.updated_ms DESC, g.id DESC LIMIT ?7 OFFSET ?8";
constexpr const char* kCountArchive =
    "SELECT count(*) FROM (SELECT ?7, ?8) JOIN games g" CINQ_ARCHIVE_WHERE;
#undef CINQ_ARCHIVE_WHERE

#undef CINQ_GAME_COLUMNS
#undef CINQ_READ_COLUMNS
#undef CINQ_FROM_GAMES

// The entries and progress of unfinished games.
constexpr const char* kSelectEntries = "SELECT text FROM record_entries WHERE game_id = ?1 ORDER BY seq";
constexpr const char* kDeleteEntriesFrom = "DELETE FROM record_entries WHERE game_id = ?1 AND seq >= ?2";
constexpr const char* kInsertEntry = "INSERT INTO record_entries (game_id, seq, text) VALUES (?1, ?2, ?3)";
constexpr const char* kUpsertProgress =
    "INSERT INTO game_progress (game_id, version, turns, seat0_clock_ms, seat1_clock_ms, open_turn, updated_ms,"
    " commands) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
    " ON CONFLICT(game_id) DO UPDATE SET version = excluded.version, turns = excluded.turns,"
    " seat0_clock_ms = excluded.seat0_clock_ms, seat1_clock_ms = excluded.seat1_clock_ms,"
    " open_turn = excluded.open_turn, updated_ms = excluded.updated_ms, commands = excluded.commands";
// A change to the stored game: applies only to the version it was made from (?9).
constexpr const char* kUpdateProgress =
    "UPDATE game_progress SET version = ?2, turns = ?3, seat0_clock_ms = ?4, seat1_clock_ms = ?5,"
    " open_turn = ?6, updated_ms = ?7, commands = ?8 WHERE game_id = ?1 AND version = ?9";
// Leases: a save under a lease finds it (?1 game, ?2 node, ?3 lease), or takes a new room's.
constexpr const char* kCheckLease =
    "SELECT 1 FROM room_leases WHERE game_id = ?1 AND node_id = ?2 AND lease = ?3";
constexpr const char* kInsertLease = "INSERT INTO room_leases (game_id, node_id, lease) VALUES (?1, ?2, ?3)";
constexpr const char* kBeat =
    "INSERT INTO nodes (id, name, address, started_ms, expires_ms) VALUES (?1, ?2, ?3, ?4, " CINQ_NOW_MS " + ?5)"
    " ON CONFLICT(id) DO UPDATE SET expires_ms = excluded.expires_ms, address = excluded.address";
constexpr const char* kLiveNodes =
    "SELECT id, name, address, started_ms, expires_ms FROM nodes WHERE expires_ms > " CINQ_NOW_MS " ORDER BY id";
constexpr const char* kForgetDeadNodes = "DELETE FROM nodes WHERE expires_ms < " CINQ_NOW_MS " - 3600000";
// Taken unless a live node other than ?2 holds it; the lease number grows.
constexpr const char* kAcquire =
    "INSERT INTO room_leases (game_id, node_id, lease) VALUES (?1, ?2, 1)"
    " ON CONFLICT(game_id) DO UPDATE SET node_id = ?2, lease = lease + 1"
    " WHERE node_id = '' OR node_id = ?2 OR node_id NOT IN"
    " (SELECT id FROM nodes WHERE expires_ms > " CINQ_NOW_MS ")";
constexpr const char* kLeaseOf = "SELECT node_id, lease FROM room_leases WHERE game_id = ?1";
constexpr const char* kRelease =
    "UPDATE room_leases SET node_id = '' WHERE game_id = ?1 AND node_id = ?2 AND lease = ?3";
constexpr const char* kReleaseAll = "UPDATE room_leases SET node_id = '' WHERE node_id = ?1";
constexpr const char* kDeleteNode = "DELETE FROM nodes WHERE id = ?1";
constexpr const char* kOrphans =
    "SELECT g.id FROM games g LEFT JOIN room_leases l ON l.game_id = g.id WHERE g.status <> 'finished'"
    " AND (l.node_id IS NULL OR l.node_id = '' OR l.node_id NOT IN"
    " (SELECT id FROM nodes WHERE expires_ms > " CINQ_NOW_MS ")) ORDER BY g.created_ms, g.id LIMIT ?1";
constexpr const char* kTournamentOrphans =
    "SELECT t.id FROM tournaments t LEFT JOIN room_leases l ON l.game_id = 't:' || t.id WHERE t.status <> 'finished'"
    " AND (l.node_id IS NULL OR l.node_id = '' OR l.node_id NOT IN"
    " (SELECT id FROM nodes WHERE expires_ms > " CINQ_NOW_MS ")) ORDER BY t.created_ms, t.id LIMIT ?1";
constexpr const char* kDeleteProgress = "DELETE FROM game_progress WHERE game_id = ?1";
constexpr const char* kDeleteProgressAt = "DELETE FROM game_progress WHERE game_id = ?1 AND version = ?2";
// The upgrade from version 2.
constexpr const char* kSelectUnfinishedRecords =
    "SELECT id, record, version, turns, seat0_clock_ms, seat1_clock_ms, updated_ms FROM games"
    " WHERE status <> 'finished'";
constexpr const char* kSetRecord = "UPDATE games SET record = ?2 WHERE id = ?1";

constexpr const char* kUpsertSeatToken =
    "INSERT INTO seat_tokens (game_id, seat, token) VALUES (?1, ?2, ?3)"
    " ON CONFLICT(game_id, seat) DO UPDATE SET token = excluded.token";
constexpr const char* kDeleteSeatTokens = "DELETE FROM seat_tokens WHERE game_id = ?1";
constexpr const char* kSelectSeatTokens = "SELECT seat, token FROM seat_tokens WHERE game_id = ?1";
// --- mail (schema version 7; store.h, SeatMail, MailRow, MailCancel): the statements. The writes are
// write_mail_of (with a save) and write_mail, the reads and the sender's calls SqliteStore's "mail" section.
constexpr const char* kUpsertSeatMail =
    "INSERT INTO mail_seats (game_id, seat, address, by_mail, confirmed, reminders, zone, language)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT(game_id, seat) DO UPDATE SET address = excluded.address,"
    " by_mail = excluded.by_mail, confirmed = excluded.confirmed, reminders = excluded.reminders, zone = excluded.zone,"
    " language = excluded.language";
constexpr const char* kDeleteSeatMail = "DELETE FROM mail_seats WHERE game_id = ?1 AND seat = ?2";
constexpr const char* kSelectSeatMail =
    "SELECT seat, address, by_mail, confirmed, reminders, zone, language FROM mail_seats WHERE game_id = ?1";
#define CINQ_MAIL_COLUMNS                                                                                  \
  "id, slot, game_id, seat, kind, sender, recipient, message, created_ms, due_ms, state, attempts, next_ms, " \
  "error, sent_ms"
// A queued mail of the same slot takes the newer one's content (a coalesced your-turn mail), keeping its id
// and attempts; not while a sender holds it (claimed until after the new mail's created_ms: what it sends is
// the old content, and its outcome would be recorded for the new one): then the new mail is a row of its own.
constexpr const char* kReplaceSlot =
    "UPDATE mail_outbox SET seat = ?2, kind = ?3, sender = ?4, recipient = ?5, message = ?6, created_ms = ?7,"
    " due_ms = ?8, next_ms = 0 WHERE slot = ?1 AND state = 'queued' AND claimed_until_ms <= ?7";
constexpr const char* kInsertMail =
    "INSERT INTO mail_outbox (" CINQ_MAIL_COLUMNS ", claimed_by, claimed_until_ms)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'queued', 0, 0, '', 0, '', 0) ON CONFLICT(id) DO NOTHING";
// ?3: the kinds as ",turn,reminder,".
constexpr const char* kCancelMail =
    "UPDATE mail_outbox SET state = 'cancelled' WHERE game_id = ?1 AND seat = ?2 AND state = 'queued'"
    " AND instr(?3, ',' || kind || ',') > 0";
constexpr const char* kInsertReceived =
    "INSERT INTO mail_received (message_id, at_ms) VALUES (?1, ?2) ON CONFLICT(message_id) DO NOTHING";
constexpr const char* kSelectReceived = "SELECT 1 FROM mail_received WHERE message_id = ?1";
constexpr const char* kClaimMails =
    "UPDATE mail_outbox SET claimed_by = ?1, claimed_until_ms = ?2 WHERE id IN (SELECT id FROM mail_outbox"
    " WHERE state = 'queued' AND due_ms <= ?3 AND next_ms <= ?3 AND claimed_until_ms <= ?3"
    " ORDER BY due_ms, created_ms LIMIT ?4) RETURNING " CINQ_MAIL_COLUMNS;
// A mail cancelled while it was being sent stays cancelled if it is to be tried again.
constexpr const char* kFinishMail =
    "UPDATE mail_outbox SET state = CASE WHEN ?2 = 'queued' AND state = 'cancelled' THEN state ELSE ?2 END,"
    " attempts = attempts + 1, claimed_until_ms = 0, claimed_by = '',"
    " sent_ms = CASE WHEN ?2 = 'sent' THEN ?3 ELSE sent_ms END,"
    " next_ms = CASE WHEN ?2 = 'queued' THEN ?4 ELSE next_ms END,"
    " error = CASE WHEN ?2 = 'sent' THEN error ELSE ?5 END WHERE id = ?1";
constexpr const char* kSelectMailsOfGame =
    "SELECT " CINQ_MAIL_COLUMNS " FROM mail_outbox WHERE game_id = ?1 ORDER BY created_ms, id";
constexpr const char* kCountMails = "SELECT state, count(*) FROM mail_outbox GROUP BY state";
#define CINQ_ACCOUNT_MAIL_COLUMNS \
  "player_id, address, pending, code_hash, unsubscribe_key, prefs, digest_day, updated_ms"
constexpr const char* kUpsertAccountMail =
    "INSERT INTO account_mail (" CINQ_ACCOUNT_MAIL_COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
    " ON CONFLICT(player_id) DO UPDATE SET address = excluded.address, pending = excluded.pending,"
    " code_hash = excluded.code_hash, unsubscribe_key = excluded.unsubscribe_key, prefs = excluded.prefs,"
    " digest_day = excluded.digest_day, updated_ms = excluded.updated_ms";
constexpr const char* kSelectAccountMail =
    "SELECT " CINQ_ACCOUNT_MAIL_COLUMNS " FROM account_mail WHERE player_id = ?1";
// ?1 the game, ?2 the seat.
constexpr const char* kSelectSeatAccountMail =
    "SELECT a.player_id, a.address, a.pending, a.code_hash, a.unsubscribe_key, a.prefs, a.digest_day,"
    " a.updated_ms FROM games g JOIN account_mail a"
    " ON a.player_id = CASE WHEN ?2 = 0 THEN g.seat0_id ELSE g.seat1_id END WHERE g.id = ?1"
    " AND NOT EXISTS (SELECT 1 FROM mail_seats m WHERE m.game_id = g.id AND m.seat = ?2 AND m.by_mail <> 0)";
constexpr const char* kSelectDigestAccounts =
    "SELECT " CINQ_ACCOUNT_MAIL_COLUMNS " FROM account_mail WHERE address <> '' AND instr(prefs, 'digest=') > 0"
    " ORDER BY player_id";
#define CINQ_TOURNAMENT_COLUMNS \
  "id, game, format, name, status, created_by, starts_ms, created_ms, updated_ms, version, state"
constexpr const char* kInsertTournament =
    "INSERT INTO tournaments (" CINQ_TOURNAMENT_COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
    " ON CONFLICT(id) DO NOTHING";
// ?12 the version the save follows.
constexpr const char* kUpdateTournament =
    "UPDATE tournaments SET game = ?2, format = ?3, name = ?4, status = ?5, created_by = ?6, starts_ms = ?7,"
    " created_ms = ?8, updated_ms = ?9, version = ?10, state = ?11 WHERE id = ?1 AND version = ?12";
constexpr const char* kSelectTournament = "SELECT " CINQ_TOURNAMENT_COLUMNS " FROM tournaments WHERE id = ?1";
// ?1 the status ('' any), ?2 the limit.
constexpr const char* kSelectTournaments =
    "SELECT " CINQ_TOURNAMENT_COLUMNS " FROM tournaments WHERE ?1 = '' OR status = ?1"
    " ORDER BY starts_ms DESC, created_ms DESC, id LIMIT ?2";
constexpr const char* kInsertChat =
    "INSERT INTO chat (game_id, seq, at_ms, channel, seat, player_id, name, text)"
    " VALUES (?1, (SELECT coalesce(max(seq), 0) + 1 FROM chat WHERE game_id = ?1), ?2, ?3, ?4, ?5, ?6, ?7)";
// The last ?2 lines, oldest first.
constexpr const char* kSelectChat =
    "SELECT at_ms, channel, seat, player_id, name, text FROM"
    " (SELECT * FROM chat WHERE game_id = ?1 ORDER BY seq DESC LIMIT ?2) ORDER BY seq";

// Version 2 marked a record whose last turn was still open with this last line (lobby/room.cpp wrote it);
// version 3 keeps that in game_progress.open_turn.
constexpr std::string_view kOpenTurnLine = "# turn in progress\n";

// The chat lines a game read brings (a room shows its last 100: lobby::Room::kChatKept).
constexpr int kChatRead = 100;

constexpr const char* kUpsertPlayer =
    "INSERT INTO players (id, token_hash, name, created_ms, username, password_hash)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    " ON CONFLICT(id) DO UPDATE SET token_hash = excluded.token_hash, name = excluded.name,"
    " created_ms = excluded.created_ms, username = excluded.username, password_hash = excluded.password_hash";
constexpr const char* kSelectPlayer =
    "SELECT id, token_hash, name, created_ms, username, password_hash FROM players WHERE id = ?1";
constexpr const char* kSelectPlayerByUsername =
    "SELECT id, token_hash, name, created_ms, username, password_hash FROM players"
    " WHERE username = ?1 COLLATE NOCASE AND username <> ''";
constexpr const char* kDeleteSessions = "DELETE FROM sessions WHERE player_id = ?1";
constexpr const char* kInsertSession =
    "INSERT OR REPLACE INTO sessions (token_hash, player_id, seq) VALUES (?1, ?2, ?3)";
constexpr const char* kSelectSessions = "SELECT token_hash FROM sessions WHERE player_id = ?1 ORDER BY seq";
// Sessions written as changes (PlayerRow::SessionWrite::changes): one token added after the newest, one
// removed, the oldest beyond ?2 dropped.
constexpr const char* kAddSession =
    "INSERT OR IGNORE INTO sessions (token_hash, player_id, seq)"
    " SELECT ?1, ?2, coalesce(max(seq), -1) + 1 FROM sessions WHERE player_id = ?2";
constexpr const char* kEndSession = "DELETE FROM sessions WHERE player_id = ?1 AND token_hash = ?2";
constexpr const char* kTrimSessions =
    "DELETE FROM sessions WHERE player_id = ?1 AND token_hash NOT IN"
    " (SELECT token_hash FROM sessions WHERE player_id = ?1 ORDER BY seq DESC LIMIT ?2)";
constexpr const char* kClaimUsername =
    "UPDATE players SET username = ?2, password_hash = ?3, name = ?2 WHERE id = ?1 AND username = ''";
#define CINQ_RATING_COLUMNS \
  "player_id, game, pool, rating, deviation, volatility, games, wins, losses, draws, last_ms"
constexpr const char* kSelectRating =
    "SELECT " CINQ_RATING_COLUMNS " FROM ratings WHERE player_id = ?1 AND game = ?2 AND pool = ?3";
constexpr const char* kSelectRatings = "SELECT " CINQ_RATING_COLUMNS " FROM ratings WHERE player_id = ?1 ORDER BY game, pool";
constexpr const char* kUpsertRating =
    "INSERT OR REPLACE INTO ratings (" CINQ_RATING_COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
constexpr const char* kSelectLeaderboard =
    "SELECT r.player_id, r.game, r.pool, r.rating, r.deviation, r.volatility, r.games, r.wins, r.losses, r.draws,"
    " r.last_ms, p.username FROM ratings r JOIN players p ON p.id = r.player_id"
    " WHERE r.game = ?1 AND r.pool = ?2 AND r.deviation <= ?3 AND p.username <> ''"
    " ORDER BY r.rating DESC, p.username LIMIT ?4";
#undef CINQ_RATING_COLUMNS
#define CINQ_HISTORY_COLUMNS \
  "player_id, game_id, game, pool, at_ms, score, before_rating, before_deviation, rating, deviation, volatility"
constexpr const char* kHistoryExists = "SELECT 1 FROM rating_history WHERE player_id = ?1 AND game_id = ?2";
constexpr const char* kInsertHistory = "INSERT INTO rating_history (" CINQ_HISTORY_COLUMNS
                                       ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
constexpr const char* kSelectHistoryOfPlayer = "SELECT " CINQ_HISTORY_COLUMNS
                                               " FROM rating_history WHERE player_id = ?1"
                                               " ORDER BY at_ms DESC, game_id LIMIT ?2";
constexpr const char* kSelectHistoryOfGame = "SELECT " CINQ_HISTORY_COLUMNS
                                             " FROM rating_history WHERE game_id = ?1 ORDER BY player_id";
constexpr const char* kSelectAllHistory = "SELECT " CINQ_HISTORY_COLUMNS
                                         " FROM rating_history ORDER BY player_id, game_id";
#undef CINQ_HISTORY_COLUMNS
constexpr const char* kSelectAllRatings =
    "SELECT player_id, game, pool, rating, deviation, volatility, games, wins, losses, draws, last_ms"
    " FROM ratings ORDER BY player_id, game, pool";
constexpr const char* kSelectPlayerIds = "SELECT id FROM players ORDER BY id";
constexpr const char* kSelectGameIds = "SELECT id FROM games ORDER BY id";

// Resets a cached statement and drops its bindings however the scope is left, so the next user finds it
// clean and no bound pointer outlives the strings it points into.
class StatementUse {
 public:
  explicit StatementUse(sqlite3_stmt* stmt) : stmt_(stmt) {}
  ~StatementUse() {
    if (stmt_ != nullptr) {
      sqlite3_reset(stmt_);
      sqlite3_clear_bindings(stmt_);
    }
  }
  StatementUse(const StatementUse&) = delete;
  StatementUse& operator=(const StatementUse&) = delete;

 private:
  sqlite3_stmt* stmt_;
};

// Text columns are bound SQLITE_STATIC: the strings outlive the step, and StatementUse clears the bindings.
int bind_text(sqlite3_stmt* stmt, int index, const std::string& text) {
  return sqlite3_bind_text(stmt, index, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
}

std::string column_text(sqlite3_stmt* stmt, int index) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, index));
  if (text == nullptr) return {};
  return std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, index)));
}

GameRow read_game(sqlite3_stmt* stmt) {
  GameRow g;
  g.id = column_text(stmt, 0);
  g.game = column_text(stmt, 1);
  g.options = column_text(stmt, 2);
  g.clock_base_ms = sqlite3_column_int64(stmt, 3);
  g.clock_increment_ms = sqlite3_column_int64(stmt, 4);
  g.is_private = sqlite3_column_int64(stmt, 5) != 0;
  g.kind = column_text(stmt, 6);
  g.status = column_text(stmt, 7);
  g.result = column_text(stmt, 8);
  g.record = column_text(stmt, 9);
  g.seat_ids = {column_text(stmt, 10), column_text(stmt, 11)};
  g.seat_names = {column_text(stmt, 12), column_text(stmt, 13)};
  g.clock_ms = {sqlite3_column_int64(stmt, 14), sqlite3_column_int64(stmt, 15)};
  g.version = sqlite3_column_int64(stmt, 16);
  g.turns = sqlite3_column_int64(stmt, 17);
  g.rematch_of = column_text(stmt, 18);
  g.created_ms = sqlite3_column_int64(stmt, 19);
  g.updated_ms = sqlite3_column_int64(stmt, 20);
  g.clock_days = sqlite3_column_int64(stmt, 21);
  g.deadline_ms = sqlite3_column_int64(stmt, 22);
  g.seat_token_hashes = {column_text(stmt, 23), column_text(stmt, 24)};
  g.open_turn = sqlite3_column_int64(stmt, 25) != 0;
  g.rated = sqlite3_column_int64(stmt, 26) != 0;
  g.winner = sqlite3_column_int(stmt, 27);
  g.commands = column_text(stmt, 28);
  return g;
}

// The progress of `g` for kUpsertProgress and kUpdateProgress (?1 to ?8).
int bind_progress(sqlite3_stmt* stmt, const GameRow& g) {
  int rc = bind_text(stmt, 1, g.id);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 2, g.version);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 3, g.turns);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 4, g.clock_ms[0]);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 5, g.clock_ms[1]);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 6, g.open_turn ? 1 : 0);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 7, g.updated_ms);
  if (rc == SQLITE_OK) rc = bind_text(stmt, 8, g.commands);
  return rc;
}

int bind_game(sqlite3_stmt* stmt, const GameRow& g) {
  int rc = SQLITE_OK;
  auto text = [&](int i, const std::string& s) {
    if (rc == SQLITE_OK) rc = bind_text(stmt, i, s);
  };
  auto integer = [&](int i, std::int64_t v) {
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, i, v);
  };
  text(1, g.id);
  text(2, g.game);
  text(3, g.options);
  integer(4, g.clock_base_ms);
  integer(5, g.clock_increment_ms);
  integer(6, g.is_private ? 1 : 0);
  text(7, g.kind);
  text(8, g.status);
  text(9, g.result);
  text(10, g.record);
  text(11, g.seat_ids[0]);
  text(12, g.seat_ids[1]);
  text(13, g.seat_names[0]);
  text(14, g.seat_names[1]);
  integer(15, g.clock_ms[0]);
  integer(16, g.clock_ms[1]);
  integer(17, g.version);
  integer(18, g.turns);
  text(19, g.rematch_of);
  integer(20, g.created_ms);
  integer(21, g.updated_ms);
  integer(22, g.clock_days);
  integer(23, g.deadline_ms);
  text(24, g.seat_token_hashes[0]);
  text(25, g.seat_token_hashes[1]);
  integer(26, g.rated ? 1 : 0);
  integer(27, g.winner);
  return rc;
}

int bind_player(sqlite3_stmt* stmt, const PlayerRow& player) {
  int rc = bind_text(stmt, 1, player.id);
  if (rc == SQLITE_OK) rc = bind_text(stmt, 2, player.token_hash);
  if (rc == SQLITE_OK) rc = bind_text(stmt, 3, player.name);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 4, player.created_ms);
  if (rc == SQLITE_OK) rc = bind_text(stmt, 5, player.username);
  if (rc == SQLITE_OK) rc = bind_text(stmt, 6, player.password_hash);
  return rc;
}

PlayerRow read_player(sqlite3_stmt* stmt) {
  PlayerRow p{column_text(stmt, 0), column_text(stmt, 1), column_text(stmt, 2), sqlite3_column_int64(stmt, 3)};
  p.username = column_text(stmt, 4);
  p.password_hash = column_text(stmt, 5);
  return p;
}

RatingRow read_rating(sqlite3_stmt* stmt) {
  RatingRow r;
  r.player_id = column_text(stmt, 0);
  r.game = column_text(stmt, 1);
  r.pool = column_text(stmt, 2);
  r.rating = sqlite3_column_double(stmt, 3);
  r.deviation = sqlite3_column_double(stmt, 4);
  r.volatility = sqlite3_column_double(stmt, 5);
  r.games = sqlite3_column_int64(stmt, 6);
  r.wins = sqlite3_column_int64(stmt, 7);
  r.losses = sqlite3_column_int64(stmt, 8);
  r.draws = sqlite3_column_int64(stmt, 9);
  r.last_ms = sqlite3_column_int64(stmt, 10);
  return r;
}

RatingChange read_change(sqlite3_stmt* stmt) {
  RatingChange c;
  c.player_id = column_text(stmt, 0);
  c.game_id = column_text(stmt, 1);
  c.game = column_text(stmt, 2);
  c.pool = column_text(stmt, 3);
  c.at_ms = sqlite3_column_int64(stmt, 4);
  c.score = sqlite3_column_double(stmt, 5);
  c.before_rating = sqlite3_column_double(stmt, 6);
  c.before_deviation = sqlite3_column_double(stmt, 7);
  c.rating = sqlite3_column_double(stmt, 8);
  c.deviation = sqlite3_column_double(stmt, 9);
  c.volatility = sqlite3_column_double(stmt, 10);
  return c;
}

// One SQLite connection, its mutex and its prepared statements (kept for the connection's life).
class Connection {
 public:
  Connection() = default;
  ~Connection() {
    for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
    if (db_ != nullptr) sqlite3_close(db_);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Opens `path` and sets the pragmas every connection needs; false and `error` if it cannot.
  bool open(const std::string& path, int flags, Error& error) {
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      error.message = "opening " + path + ": " + message();
      return false;
    }
    sqlite3_extended_result_codes(db_, 1);
    if (sqlite3_busy_timeout(db_, kBusyTimeoutMs) != SQLITE_OK) {
      error.message = "setting the busy timeout on " + path + ": " + message();
      return false;
    }
    // WAL lets the reader run beside the writer; only a file system that cannot share memory refuses it.
    std::string mode;
    if (!query_text("PRAGMA journal_mode=WAL", mode, error, "setting WAL mode on " + path)) return false;
    if (mode != "wal") {
      error.message = "setting WAL mode on " + path + ": SQLite answered journal_mode=" + mode;
      return false;
    }
    return exec("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;", error, "setting pragmas on " + path);
  }

  sqlite3* db() const { return db_; }
  std::mutex& mutex() { return mutex_; }
  std::string message() const { return db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory"; }

  // The cached statement for `sql`, prepared on first use; nullptr and `error` if it does not prepare.
  sqlite3_stmt* statement(const char* sql, Error& error, const std::string& doing) {
    if (auto it = statements_.find(sql); it != statements_.end()) return it->second;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK) {
      error.message = doing + ": " + message();
      return nullptr;
    }
    statements_.emplace(sql, stmt);
    return stmt;
  }

  bool exec(const char* sql, Error& error, const std::string& doing) {
    char* text = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &text) == SQLITE_OK) return true;
    error.message = doing + ": " + (text != nullptr ? text : message());
    sqlite3_free(text);
    return false;
  }

  // Runs a one-row, one-column query (a pragma) and gives its value as text.
  bool query_text(const char* sql, std::string& value, Error& error, const std::string& doing) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr) != SQLITE_OK) {
      error.message = doing + ": " + message();
      return false;
    }
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) value = column_text(stmt, 0);
    sqlite3_finalize(stmt);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
      error.message = doing + ": " + message();
      return false;
    }
    return true;
  }

  // Runs `write` (which binds and steps its statements) inside BEGIN IMMEDIATE / COMMIT. IMMEDIATE takes the
  // write lock up front, so a busy database waits in BEGIN (busy_timeout) rather than failing mid-way.
  template <typename Write>
  bool transaction(Error& error, const std::string& doing, Write&& write) {
    std::lock_guard lock(mutex_);
    if (!exec("BEGIN IMMEDIATE", error, doing)) return false;
    if (write(error) && exec("COMMIT", error, doing)) return true;
    // A failed COMMIT (SQLITE_BUSY, I/O error) may leave the transaction open: end it so nothing is half
    // written and the next write starts clean.
    if (sqlite3_get_autocommit(db_) == 0) {
      Error ignored;
      exec("ROLLBACK", ignored, doing);
    }
    return false;
  }

 private:
  sqlite3* db_ = nullptr;
  std::mutex mutex_;
  std::unordered_map<std::string, sqlite3_stmt*> statements_;
};

// Binds and steps one write statement on `db` (inside its transaction).
bool write_one(Connection& db, const char* sql, const std::string& doing, Error& error,
               const std::function<int(sqlite3_stmt*)>& bind) {
  sqlite3_stmt* stmt = db.statement(sql, error, doing);
  if (stmt == nullptr) return false;
  StatementUse use(stmt);
  if (bind(stmt) != SQLITE_OK || sqlite3_step(stmt) != SQLITE_DONE) {
    error.message = doing + ": " + db.message();
    return false;
  }
  return true;
}

// Steps a read statement on `db` inside its transaction (the writer's reads that a write depends on).
bool read_on(Connection& db, const char* sql, const std::string& doing, Error& error,
             const std::function<int(sqlite3_stmt*)>& bind, const std::function<void(sqlite3_stmt*)>& row) {
  sqlite3_stmt* stmt = db.statement(sql, error, doing);
  if (stmt == nullptr) return false;
  StatementUse use(stmt);
  if (bind(stmt) != SQLITE_OK) {
    error.message = doing + ": " + db.message();
    return false;
  }
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) row(stmt);
  if (rc != SQLITE_DONE) {
    error.message = doing + ": " + db.message();
    return false;
  }
  return true;
}

// The login tokens of a row written as changes (PlayerRow::SessionWrite::changes).
bool write_session_changes(Connection& db, const PlayerRow& player, const std::string& doing, Error& error) {
  auto id_and = [&](const std::string& hash) {
    return [&player, &hash](sqlite3_stmt* stmt) {
      int rc = bind_text(stmt, 1, player.id);
      return rc == SQLITE_OK ? bind_text(stmt, 2, hash) : rc;
    };
  };
  if (player.sessions_all_ended &&
      !write_one(db, kDeleteSessions, doing, error, [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, player.id); }))
    return false;
  for (const std::string& hash : player.sessions_ended)
    if (!write_one(db, kEndSession, doing, error, id_and(hash))) return false;
  for (const std::string& hash : player.sessions_added)
    if (!write_one(db, kAddSession, doing, error, [&](sqlite3_stmt* stmt) {
          int rc = bind_text(stmt, 1, hash);
          return rc == SQLITE_OK ? bind_text(stmt, 2, player.id) : rc;
        }))
      return false;
  if (player.sessions_added.empty()) return true;
  return write_one(db, kTrimSessions, doing, error, [&](sqlite3_stmt* stmt) {
    int rc = bind_text(stmt, 1, player.id);
    return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 2, static_cast<std::int64_t>(kMaxSessions)) : rc;
  });
}

// A players row and its login tokens (the stored list becomes the row's, or changes: PlayerRow::session_write).
bool write_player(Connection& db, const PlayerRow& player, const std::string& doing, Error& error) {
  if (!write_one(db, kUpsertPlayer, doing, error, [&](sqlite3_stmt* stmt) { return bind_player(stmt, player); }))
    return false;
  if (player.session_write == PlayerRow::SessionWrite::changes) return write_session_changes(db, player, doing, error);
  if (!write_one(db, kDeleteSessions, doing, error, [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, player.id); }))
    return false;
  for (std::size_t i = 0; i < player.sessions.size(); ++i) {
    if (!write_one(db, kInsertSession, doing, error, [&](sqlite3_stmt* stmt) {
          int rc = bind_text(stmt, 1, player.sessions[i]);
          if (rc == SQLITE_OK) rc = bind_text(stmt, 2, player.id);
          return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 3, static_cast<std::int64_t>(i)) : rc;
        }))
      return false;
  }
  return true;
}

bool write_rating(Connection& db, const RatingRow& r, const std::string& doing, Error& error) {
  return write_one(db, kUpsertRating, doing, error, [&](sqlite3_stmt* stmt) {
    int rc = bind_text(stmt, 1, r.player_id);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 2, r.game);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 3, r.pool);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(stmt, 4, r.rating);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(stmt, 5, r.deviation);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(stmt, 6, r.volatility);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 7, r.games);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 8, r.wins);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 9, r.losses);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 10, r.draws);
    return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 11, r.last_ms) : rc;
  });
}

bool write_change(Connection& db, const RatingChange& c, const std::string& doing, Error& error) {
  return write_one(db, kInsertHistory, doing, error, [&](sqlite3_stmt* stmt) {
    int rc = bind_text(stmt, 1, c.player_id);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 2, c.game_id);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 3, c.game);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 4, c.pool);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 5, c.at_ms);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(stmt, 6, c.score);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(stmt, 7, c.before_rating);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(stmt, 8, c.before_deviation);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(stmt, 9, c.rating);
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(stmt, 10, c.deviation);
    return rc == SQLITE_OK ? sqlite3_bind_double(stmt, 11, c.volatility) : rc;
  });
}

// A rated game's result applied to both players' ratings, inside the transaction that stores the result
// (rate_game). Once only: a game whose history row is there is not applied again (a finished game's
// row may be written more than once: a rematch offer, a chat line after the end).
bool apply_ratings(Connection& db, const GameRow& g, const std::string& doing, Error& error) {
  if (!changes_ratings(g)) return true;
  bool done = false;
  if (!read_on(db, kHistoryExists, doing, error,
               [&](sqlite3_stmt* stmt) {
                 int rc = bind_text(stmt, 1, g.seat_ids[0]);
                 return rc == SQLITE_OK ? bind_text(stmt, 2, g.id) : rc;
               },
               [&](sqlite3_stmt*) { done = true; }))
    return false;
  if (done) return true;
  std::array<RatingRow, 2> before;
  for (int s = 0; s < 2; ++s) {
    before[s].player_id = g.seat_ids[s];
    before[s].game = g.game;
    before[s].pool = g.kind;
    if (!read_on(db, kSelectRating, doing, error,
                 [&](sqlite3_stmt* stmt) {
                   int rc = bind_text(stmt, 1, g.seat_ids[s]);
                   if (rc == SQLITE_OK) rc = bind_text(stmt, 2, g.game);
                   return rc == SQLITE_OK ? bind_text(stmt, 3, g.kind) : rc;
                 },
                 [&](sqlite3_stmt* stmt) { before[s] = read_rating(stmt); }))
      return false;
  }
  const RatedGame rated = rate_game(g, before);
  for (int s = 0; s < 2; ++s)
    if (!write_rating(db, rated.after[s], doing, error) || !write_change(db, rated.changes[s], doing, error))
      return false;
  return true;
}

// Writes one game's save (store.h, GameSave) inside the caller's transaction.
// The seat tokens (with the row: kept while unfinished, deleted at the end) and the new chat lines.
bool write_extras(Connection& db, const GameSave& s, const std::string& doing, Error& error) {
  const GameRow& g = s.row;
  if (g.status == "finished") {
    if (!write_one(db, kDeleteSeatTokens, doing, error,
                   [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, g.id); }))
      return false;
  } else if (s.write_row) {
    for (int seat = 0; seat < 2; ++seat) {
      if (g.seat_tokens[seat].empty()) continue;
      if (!write_one(db, kUpsertSeatToken, doing, error, [&](sqlite3_stmt* stmt) {
            int rc = bind_text(stmt, 1, g.id);
            if (rc == SQLITE_OK) rc = sqlite3_bind_int(stmt, 2, seat);
            return rc == SQLITE_OK ? bind_text(stmt, 3, g.seat_tokens[seat]) : rc;
          }))
        return false;
    }
  }
  for (const ChatRow& line : s.chat) {
    if (!write_one(db, kInsertChat, doing, error, [&](sqlite3_stmt* stmt) {
          int rc = bind_text(stmt, 1, g.id);
          if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 2, line.at_ms);
          if (rc == SQLITE_OK) rc = bind_text(stmt, 3, line.channel);
          if (rc == SQLITE_OK) rc = sqlite3_bind_int(stmt, 4, line.seat);
          if (rc == SQLITE_OK) rc = bind_text(stmt, 5, line.player_id);
          if (rc == SQLITE_OK) rc = bind_text(stmt, 6, line.name);
          return rc == SQLITE_OK ? bind_text(stmt, 7, line.text) : rc;
        }))
      return false;
  }
  return true;
}

// --- mail (schema version 7): a save's mail, in its transaction.

// One mail into the outbox: it replaces the queued mail of its slot, or is added (once per id).
bool write_mail(Connection& db, const MailRow& m, const std::string& doing, Error& error) {
  if (!m.slot.empty()) {
    if (!write_one(db, kReplaceSlot, doing, error, [&](sqlite3_stmt* stmt) {
          int rc = bind_text(stmt, 1, m.slot);
          if (rc == SQLITE_OK) rc = sqlite3_bind_int(stmt, 2, m.seat);
          if (rc == SQLITE_OK) rc = bind_text(stmt, 3, m.kind);
          if (rc == SQLITE_OK) rc = bind_text(stmt, 4, m.sender);
          if (rc == SQLITE_OK) rc = bind_text(stmt, 5, m.recipient);
          if (rc == SQLITE_OK) rc = bind_text(stmt, 6, m.message);
          if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 7, m.created_ms);
          return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 8, m.due_ms) : rc;
        }))
      return false;
    if (sqlite3_changes(db.db()) > 0) return true;
  }
  return write_one(db, kInsertMail, doing, error, [&](sqlite3_stmt* stmt) {
    int rc = bind_text(stmt, 1, m.id);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 2, m.slot);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 3, m.game_id);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(stmt, 4, m.seat);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 5, m.kind);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 6, m.sender);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 7, m.recipient);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 8, m.message);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 9, m.created_ms);
    return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 10, m.due_ms) : rc;
  });
}

bool write_received(Connection& db, const std::string& id, std::int64_t at_ms, const std::string& doing,
                    Error& error) {
  return write_one(db, kInsertReceived, doing, error, [&](sqlite3_stmt* stmt) {
    int rc = bind_text(stmt, 1, id);
    return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 2, at_ms) : rc;
  });
}

// A save's mail: the seats' addresses with the row, then its cancels, mails and received ids.
bool write_mail_of(Connection& db, const GameSave& s, const std::string& doing, Error& error) {
  const GameRow& g = s.row;
  if (s.write_row || g.status == "finished") {
    for (int seat = 0; seat < 2; ++seat) {
      const SeatMail& m = g.seat_mail[seat];
      const bool ok = m.address.empty()
                          ? write_one(db, kDeleteSeatMail, doing, error,
                                      [&](sqlite3_stmt* stmt) {
                                        int rc = bind_text(stmt, 1, g.id);
                                        return rc == SQLITE_OK ? sqlite3_bind_int(stmt, 2, seat) : rc;
                                      })
                          : write_one(db, kUpsertSeatMail, doing, error, [&](sqlite3_stmt* stmt) {
                              int rc = bind_text(stmt, 1, g.id);
                              if (rc == SQLITE_OK) rc = sqlite3_bind_int(stmt, 2, seat);
                              if (rc == SQLITE_OK) rc = bind_text(stmt, 3, m.address);
                              if (rc == SQLITE_OK) rc = sqlite3_bind_int(stmt, 4, m.by_mail ? 1 : 0);
                              if (rc == SQLITE_OK) rc = sqlite3_bind_int(stmt, 5, m.confirmed ? 1 : 0);
                              if (rc == SQLITE_OK) rc = bind_text(stmt, 6, m.reminders);
                              if (rc == SQLITE_OK) rc = bind_text(stmt, 7, m.zone);
                              return rc == SQLITE_OK ? bind_text(stmt, 8, m.language) : rc;
                            });
      if (!ok) return false;
    }
  }
  for (const MailCancel& c : s.mail_cancels) {
    std::string kinds = ",";
    for (const auto& k : c.kinds) kinds += k + ",";
    if (!write_one(db, kCancelMail, doing, error, [&](sqlite3_stmt* stmt) {
          int rc = bind_text(stmt, 1, c.game_id);
          if (rc == SQLITE_OK) rc = sqlite3_bind_int(stmt, 2, c.seat);
          return rc == SQLITE_OK ? bind_text(stmt, 3, kinds) : rc;
        }))
      return false;
  }
  for (const MailRow& m : s.mails)
    if (!write_mail(db, m, doing, error)) return false;
  for (const std::string& id : s.received)
    if (!write_received(db, id, g.updated_ms, doing, error)) return false;
  return true;
}

MailRow read_mail(sqlite3_stmt* stmt) {
  MailRow m;
  m.id = column_text(stmt, 0);
  m.slot = column_text(stmt, 1);
  m.game_id = column_text(stmt, 2);
  m.seat = sqlite3_column_int(stmt, 3);
  m.kind = column_text(stmt, 4);
  m.sender = column_text(stmt, 5);
  m.recipient = column_text(stmt, 6);
  m.message = column_text(stmt, 7);
  m.created_ms = sqlite3_column_int64(stmt, 8);
  m.due_ms = sqlite3_column_int64(stmt, 9);
  m.state = column_text(stmt, 10);
  m.attempts = sqlite3_column_int(stmt, 11);
  m.next_ms = sqlite3_column_int64(stmt, 12);
  m.error = column_text(stmt, 13);
  m.sent_ms = sqlite3_column_int64(stmt, 14);
  return m;
}

bool write_save(Connection& db, const GameSave& s, const std::string& doing, Error& error) {
  const GameRow& g = s.row;
  const bool finished = g.status == "finished";
  auto stale = [&] {
    error.message = doing + ": game " + g.id + " is not stored at version " + std::to_string(*s.base_version) +
                    " (a save before this one failed): it must be reloaded";
    return false;
  };
  auto game_row = [&] {
    return write_one(db, kUpsertGame, doing, error, [&](sqlite3_stmt* stmt) { return bind_game(stmt, g); });
  };
  if (s.fence) {
    // Under a lease: a room's first save takes it, every other one must find it still ours.
    auto bind_fence = [&](sqlite3_stmt* stmt) {
      int rc = bind_text(stmt, 1, g.id);
      if (rc == SQLITE_OK) rc = bind_text(stmt, 2, s.fence->node);
      return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 3, s.fence->lease) : rc;
    };
    if (s.fence->acquire) {
      if (!write_one(db, kInsertLease, doing, error, bind_fence)) return false;
    } else {
      bool held = false;
      if (!read_on(db, kCheckLease, doing, error, bind_fence, [&](sqlite3_stmt*) { held = true; })) return false;
      if (!held) {
        error.message = doing + ": game " + g.id + " is no longer this node's (lease " +
                        std::to_string(s.fence->lease) + " lost): another node plays it now";
        return false;
      }
    }
  }
  if (finished) {
    // The whole record goes into the row; the entries and the progress go.
    if (s.base_version) {
      if (!write_one(db, kDeleteProgressAt, doing, error, [&](sqlite3_stmt* stmt) {
            int rc = bind_text(stmt, 1, g.id);
            return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 2, *s.base_version) : rc;
          }))
        return false;
      if (sqlite3_changes(db.db()) == 0) return stale();
    }
    return game_row() && write_extras(db, s, doing, error) && write_mail_of(db, s, doing, error) &&
           apply_ratings(db, g, doing, error) &&
           write_one(db, kDeleteEntriesFrom, doing, error,
                     [&](sqlite3_stmt* stmt) {
                       int rc = bind_text(stmt, 1, g.id);
                       return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 2, 0) : rc;
                     }) &&
           write_one(db, kDeleteProgress, doing, error,
                     [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, g.id); });
  }
  if (s.base_version) {
    if (!write_one(db, kUpdateProgress, doing, error, [&](sqlite3_stmt* stmt) {
          int rc = bind_progress(stmt, g);
          return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 9, *s.base_version) : rc;
        }))
      return false;
    if (sqlite3_changes(db.db()) == 0) return stale();
  } else if (!write_one(db, kUpsertProgress, doing, error,
                        [&](sqlite3_stmt* stmt) { return bind_progress(stmt, g); })) {
    return false;
  }
  if (s.write_row && !game_row()) return false;
  if (!write_extras(db, s, doing, error) || !write_mail_of(db, s, doing, error)) return false;
  // The entries from `from` on: whatever was stored there goes (nothing, when the save appends a turn: then
  // no delete is sent at all).
  if (s.replaces && !write_one(db, kDeleteEntriesFrom, doing, error, [&](sqlite3_stmt* stmt) {
        int rc = bind_text(stmt, 1, g.id);
        return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 2, s.from) : rc;
      }))
    return false;
  for (std::size_t i = 0; i < s.entries.size(); ++i) {
    if (!write_one(db, kInsertEntry, doing, error, [&](sqlite3_stmt* stmt) {
          int rc = bind_text(stmt, 1, g.id);
          if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 2, s.from + static_cast<std::int64_t>(i));
          return rc == SQLITE_OK ? bind_text(stmt, 3, s.entries[i]) : rc;
        }))
      return false;
  }
  return true;
}

// From version 2 to 3 (inside create_schema's transaction): the new tables, then every unfinished game's
// record split into entries, its progress row written and its games.record cut to the `#!` line. A record
// that does not split (never expected: the server wrote it) is kept whole in games.record, without entries,
// and reads back as it was.
bool upgrade_to_3(Connection& db, const std::string& path, Error& error, const std::string& doing) {
  if (!db.exec(kEntriesSchema, error, doing)) return false;
  std::vector<GameRow> unfinished;
  {
    sqlite3_stmt* stmt = db.statement(kSelectUnfinishedRecords, error, doing);
    if (stmt == nullptr) return false;
    StatementUse use(stmt);
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      GameRow g;
      g.id = column_text(stmt, 0);
      g.record = column_text(stmt, 1);
      g.version = sqlite3_column_int64(stmt, 2);
      g.turns = sqlite3_column_int64(stmt, 3);
      g.clock_ms = {sqlite3_column_int64(stmt, 4), sqlite3_column_int64(stmt, 5)};
      g.updated_ms = sqlite3_column_int64(stmt, 6);
      unfinished.push_back(std::move(g));
    }
    if (rc != SQLITE_DONE) {
      error.message = doing + ": " + db.message();
      return false;
    }
  }
  for (GameRow& g : unfinished) {
    std::string_view text = g.record;
    g.open_turn = text.ends_with(kOpenTurnLine);
    if (g.open_turn) text.remove_suffix(kOpenTurnLine.size());
    GameSave save;
    save.row = g;
    save.write_row = false;
    std::string header;
    if (auto parts = split_record(text)) {
      header = std::move(parts->header);
      save.entries = std::move(parts->entries);
    } else {
      spdlog::warn("store: upgrading {}: the record of game {} does not read ({}): kept whole", path, g.id,
                   parts.error().text());
      g.open_turn = false;
      save.row.open_turn = false;
      header = g.record;
      if (header.ends_with('\n')) header.pop_back();
    }
    if (!write_save(db, save, doing, error)) return false;
    if (!write_one(db, kSetRecord, doing, error, [&](sqlite3_stmt* stmt) {
          int rc = bind_text(stmt, 1, g.id);
          return rc == SQLITE_OK ? bind_text(stmt, 2, header) : rc;
        }))
      return false;
  }
  return true;
}

// Creates the schema once and records its version, upgrading a file of an older version in place (one
// transaction); refuses a file written by a newer schema.
bool create_schema(Connection& db, const std::string& path, Error& error) {
  const std::string doing = "creating the schema in " + path;
  std::string text;
  if (!db.query_text("PRAGMA user_version", text, error, doing)) return false;
  const int version = std::stoi(text);
  if (version == kSchemaVersion) return true;
  if (version > kSchemaVersion) {
    error.message = path + " has schema version " + text + ", newer than this server's " +
                    std::to_string(kSchemaVersion);
    return false;
  }
  const std::string set_version = "PRAGMA user_version=" + std::to_string(kSchemaVersion);
  const std::string upgrading = "upgrading " + path + " from schema version " + text;
  return db.transaction(error, doing, [&](Error& e) {
    if (version == 0)
      return db.exec(kSchema, e, doing) && db.exec(kEntriesSchema, e, doing) &&
             db.exec(kExtrasSchema, e, doing) && db.exec(kUpgradeTo5, e, doing) &&
             db.exec(kUpgradeTo6, e, doing) && db.exec(kUpgradeTo7, e, doing) && db.exec(kUpgradeTo8, e, doing) &&
             db.exec(kUpgradeTo9, e, doing) && db.exec(kUpgradeTo10, e, doing) &&
             db.exec(kUpgradeTo11, e, doing) && db.exec(kUpgradeTo12, e, doing) &&
             db.exec(set_version.c_str(), e, doing);
    // Version 1 gains the correspondence columns (its games are not correspondence games), then version 2
    // its entries, then version 3 the seat tokens and chat tables (empty: older links cannot be shown again),
    // then version 4 the accounts and ratings (every player a guest, no game rated, winners unknown), then
    // version 5 the cluster's tables (version 3's game_progress gains its commands, which the version 3
    // tables made here have already), then version 6 the mail tables (empty), then version 7 the accounts'
    // mail (empty), then version 8 the seats' language (English), then version 9 the tournaments (none), then
    // version 10 the analyses (none), then version 11 the moderation tables (empty).
    if (version >= 3 && version <= 5 && !db.exec(kAddCommands, e, upgrading)) return false;
    if (version == 1 && !db.exec(kUpgradeTo2, e, upgrading)) return false;
    if (version <= 2 && !upgrade_to_3(db, path, e, upgrading)) return false;
    if (version <= 3 && !db.exec(kExtrasSchema, e, upgrading)) return false;
    if (version <= 4 && !db.exec(kUpgradeTo5, e, upgrading)) return false;
    if (version <= 5 && !db.exec(kUpgradeTo6, e, upgrading)) return false;
    if (version <= 6 && !db.exec(kUpgradeTo7, e, upgrading)) return false;
    if (version <= 7 && !db.exec(kUpgradeTo8, e, upgrading)) return false;
    if (version <= 8 && !db.exec(kUpgradeTo9, e, upgrading)) return false;
    if (version <= 9 && !db.exec(kUpgradeTo10, e, upgrading)) return false;
    if (version <= 10 && !db.exec(kUpgradeTo11, e, upgrading)) return false;
    return db.exec(kUpgradeTo12, e, upgrading) && db.exec(set_version.c_str(), e, upgrading);
  });
}

// A player read is one statement, which sees one consistent snapshot (WAL); a game read is one read
// transaction (Impl::read_games).
// Logs a failed read and keeps why in `error`, which the read gives back (Read<T>); false.
bool read_failed(Error& error, const std::string& doing, const std::string& message) {
  spdlog::error("store: {}: {}", doing, message);
  error.message = doing + ": " + message;
  return false;
}

}  // namespace

class SqliteStore final : public Store {
 public:
  std::string path;
  Connection writer;
  Connection reader;

  // Steps a read statement to the end, handing each row to `row`; false if SQLite failed (logged, and why in
  // `error`). The caller holds the reader's mutex.
  template <typename Row>
  bool step_rows(const char* sql, const std::string& doing, Error& error,
                 const std::function<int(sqlite3_stmt*)>& bind, Row&& row) {
    Error prepare;
    sqlite3_stmt* stmt = reader.statement(sql, prepare, doing);
    if (stmt == nullptr) return read_failed(error, doing, prepare.message);
    StatementUse use(stmt);
    if (bind && bind(stmt) != SQLITE_OK) return read_failed(error, doing, reader.message());
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) row(stmt);
    if (rc != SQLITE_DONE) return read_failed(error, doing, reader.message());
    return true;
  }

  // Ends a read transaction; false if that failed (logged, and why in `error`).
  bool commit_read(const std::string& doing, Error& error) {
    Error commit;
    return reader.exec("COMMIT", commit, doing) || read_failed(error, doing, commit.message);
  }

  // A player row and its login tokens, in one read transaction.
  Read<std::optional<PlayerRow>> load_player(const char* sql, const std::string& key) {
    std::optional<PlayerRow> found;
    std::lock_guard lock(reader.mutex());
    Error error, begin;
    const std::string doing = "reading player " + key;
    if (!reader.exec("BEGIN", begin, doing)) {
      read_failed(error, doing, begin.message);
      return error;
    }
    bool ok = step_rows(
        sql, doing, error, [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, key); },
        [&](sqlite3_stmt* stmt) { found = read_player(stmt); });
    if (ok && found)
      ok = step_rows(
          kSelectSessions, doing, error, [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, found->id); },
          [&](sqlite3_stmt* stmt) { found->sessions.push_back(column_text(stmt, 0)); });
    ok = commit_read(doing, error) && ok;
    if (!ok) return error;
    return found;
  }

  // One statement, one snapshot.
  template <typename Row>
  bool read_rows(const char* sql, const std::string& doing, Error& error,
                 const std::function<int(sqlite3_stmt*)>& bind, Row&& row) {
    std::lock_guard lock(reader.mutex());
    return step_rows(sql, doing, error, bind, std::forward<Row>(row));
  }

  // Games: their rows, then the records of the unfinished ones laid out from their entries, all in one read
  // transaction (one snapshot: a save committing meanwhile is seen whole or not at all).
  // The last `limit` chat lines of a game, oldest first (the caller holds the reader's mutex).
  bool step_chat(const std::string& id, int limit, const std::string& doing, Error& error,
                 std::vector<ChatRow>& out) {
    return step_rows(
        kSelectChat, doing, error,
        [&](sqlite3_stmt* stmt) {
          int rc = bind_text(stmt, 1, id);
          return rc == SQLITE_OK ? sqlite3_bind_int(stmt, 2, limit) : rc;
        },
        [&](sqlite3_stmt* stmt) {
          out.push_back(ChatRow{sqlite3_column_int64(stmt, 0), column_text(stmt, 1), sqlite3_column_int(stmt, 2),
                                column_text(stmt, 3), column_text(stmt, 4), column_text(stmt, 5)});
        });
  }

  // With `with_tokens`, the seat tokens of the unfinished games too; with `with_chat`, the games' last
  // kChatRead chat lines (what a room needs).
  Read<std::vector<GameRow>> read_games(const char* sql, const std::string& doing,
                                        const std::function<int(sqlite3_stmt*)>& bind,
                                        bool with_tokens = false, bool with_chat = false) {
    std::vector<GameRow> games;
    std::lock_guard lock(reader.mutex());
    Error error, begin;
    if (!reader.exec("BEGIN", begin, doing)) {
      read_failed(error, doing, begin.message);
      return error;
    }
    bool ok =
        step_rows(sql, doing, error, bind, [&](sqlite3_stmt* stmt) { games.push_back(read_game(stmt)); });
    std::vector<std::string> entries;
    for (GameRow& g : games) {
      if (!ok || g.status == "finished") continue;
      entries.clear();
      ok = step_rows(
          kSelectEntries, doing, error, [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, g.id); },
          [&](sqlite3_stmt* stmt) { entries.push_back(column_text(stmt, 0)); });
      g.record = layout_record(g.record, entries);
      if (!ok || !with_tokens) continue;
      ok = step_rows(
          kSelectSeatTokens, doing, error, [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, g.id); },
          [&](sqlite3_stmt* stmt) {
            const int seat = sqlite3_column_int(stmt, 0);
            if (seat == 0 || seat == 1) g.seat_tokens[seat] = column_text(stmt, 1);
          });
    }
    for (GameRow& g : games)
      if (ok && with_chat) ok = step_chat(g.id, kChatRead, doing, error, g.chat);
    for (GameRow& g : games) {
      if (!ok || !with_tokens) break;
      ok = step_rows(
          kSelectSeatMail, doing, error, [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, g.id); },
          [&](sqlite3_stmt* stmt) {
            const int seat = sqlite3_column_int(stmt, 0);
            if (seat == 0 || seat == 1)
              g.seat_mail[seat] = {column_text(stmt, 1), sqlite3_column_int(stmt, 2) != 0,
                                   sqlite3_column_int(stmt, 3) != 0, column_text(stmt, 4),
                                   column_text(stmt, 5), column_text(stmt, 6)};
          });
    }
    // A read that failed part of the way gives nothing: a game without its entries is not that game.
    ok = commit_read(doing, error) && ok;
    if (!ok) return error;
    return games;
  }

  const char* backend() const override { return "sqlite"; }
  bool queue_mails(const std::vector<MailRow>& mails, const std::vector<std::string>& received,
                   Error& error) override;
  Read<std::vector<MailRow>> claim_mails(const std::string& node, std::int64_t now_ms, std::int64_t claim_ms,
                                         int limit) override;
  bool finish_mail(const std::string& id, const std::string& state, std::int64_t at_ms, std::int64_t next_ms,
                   const std::string& error_text, Error& error) override;
  Read<bool> mail_received(const std::string& message_id) override;
  Read<std::vector<MailRow>> mails_of_game(const std::string& game_id) override;
  Read<std::vector<std::pair<std::string, std::int64_t>>> count_mails() override;
  Read<std::optional<AccountMail>> account_mail(const std::string& player_id) override;
  bool put_account_mail(const AccountMail& mail, const std::vector<MailRow>& mails, Error& error) override;
  Read<std::optional<AccountMail>> seat_account_mail(const std::string& game_id, int seat) override;
  Read<std::vector<AccountMail>> digest_accounts() override;
  bool put_tournament(const TournamentRow& row, std::int64_t after, const std::vector<MailRow>& mails,
                      Error& error) override;
  Read<std::optional<TournamentRow>> tournament(const std::string& id) override;
  Read<std::vector<TournamentRow>> tournaments(const std::string& status, int limit) override;
  bool put_analysis(const AnalysisRow& row, Error& error) override;
  Read<std::optional<AnalysisRow>> analysis(const std::string& game_id, const std::string& settings) override;
  Read<std::vector<AnalysisRow>> all_analyses() override;
  bool moderate(const ModerationWrite& write, Error& error) override;
  Read<std::vector<RoleRow>> roles() override;
  Read<std::vector<SanctionRow>> sanctions() override;
  Read<std::vector<ReportRow>> reports(const std::string& status, int limit) override;
  Read<std::optional<ReportRow>> report(const std::string& id) override;
  Read<std::vector<BlockRow>> blocks(const std::string& player_id) override;
  Read<std::vector<AuditRow>> audit(const std::string& target_id, int limit) override;
  Read<std::vector<LinkRow>> linked_accounts(int limit) override;
  Read<ModerationRows> moderation_rows() override;
  bool put_player(const PlayerRow& player, Error& error) override;
  UsernameClaim claim_username(const std::string& player_id, const std::string& username,
                               const std::string& password_hash, Error& error) override;
  bool save(const std::vector<PlayerRow>& players, const std::vector<GameSave>& games, Error& error) override;
  Read<std::optional<PlayerRow>> player(const std::string& id) override;
  Read<std::optional<GameRow>> game(const std::string& id) override;
  Read<std::vector<GameRow>> unfinished_games() override;
  Read<std::vector<GameRow>> finished_games(int limit, bool include_private) override;
  Read<std::int64_t> count_games() override;
  Read<std::vector<GameRow>> games_of_player(const std::string& player_id, int limit) override;
  Read<std::vector<ChatRow>> chat(const std::string& game_id, int limit) override;
  Read<std::optional<PlayerRow>> player_by_username(const std::string& username) override;
  Read<std::vector<RatingRow>> ratings(const std::string& player_id) override;
  Read<std::vector<RatingChange>> rating_history(const std::string& player_id, int limit) override;
  Read<std::vector<RatingChange>> game_ratings(const std::string& game_id) override;
  Read<std::vector<RatingRow>> leaderboard(const std::string& game, const std::string& pool,
                                           double max_deviation, int limit) override;
  Read<std::vector<GameRow>> search_games(const ArchiveQuery& query, std::int64_t* total) override;
  Read<std::vector<std::string>> player_ids() override;
  Read<std::vector<std::string>> game_ids() override;
  Read<std::vector<RatingRow>> all_ratings() override;
  Read<std::vector<RatingChange>> all_rating_history() override;
  bool put_ratings(const std::vector<RatingRow>& ratings, const std::vector<RatingChange>& history,
                   Error& error) override;

  // --- several nodes: on the writer, each one transaction.
  bool beat(const NodeRow& node, std::int64_t ttl_ms, Error& error) override {
    return writer.transaction(error, "the heartbeat of " + node.id, [&](Error& e) {
      return write_one(writer, kBeat, "the heartbeat of " + node.id, e, [&](sqlite3_stmt* stmt) {
               int rc = bind_text(stmt, 1, node.id);
               if (rc == SQLITE_OK) rc = bind_text(stmt, 2, node.name);
               if (rc == SQLITE_OK) rc = bind_text(stmt, 3, node.address);
               if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 4, node.started_ms);
               return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 5, ttl_ms) : rc;
             }) &&
             write_one(writer, kForgetDeadNodes, "forgetting dead nodes", e, [](sqlite3_stmt*) { return SQLITE_OK; });
    });
  }
  Read<std::vector<NodeRow>> live_nodes() override {
    std::vector<NodeRow> out;
    Error error;
    if (!read_rows(kLiveNodes, "reading the live nodes", error, nullptr, [&](sqlite3_stmt* stmt) {
          out.push_back({column_text(stmt, 0), column_text(stmt, 1), column_text(stmt, 2),
                         sqlite3_column_int64(stmt, 3), sqlite3_column_int64(stmt, 4)});
        }))
      return error;
    return out;
  }
  std::optional<Lease> acquire(const std::string& game_id, const std::string& node_id, Error& error) override {
    const std::string doing = "taking the lease of " + game_id;
    Lease lease;
    bool ok = writer.transaction(error, doing, [&](Error& e) {
      auto bind = [&](sqlite3_stmt* stmt) {
        int rc = bind_text(stmt, 1, game_id);
        return rc == SQLITE_OK ? bind_text(stmt, 2, node_id) : rc;
      };
      if (!write_one(writer, kAcquire, doing, e, bind)) return false;
      const bool taken = sqlite3_changes(writer.db()) > 0;
      return read_on(writer, kLeaseOf, doing, e, [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, game_id); },
                     [&](sqlite3_stmt* stmt) {
                       if (taken)
                         lease.lease = sqlite3_column_int64(stmt, 1);
                       else
                         lease.owner = column_text(stmt, 0);
                     });
    });
    if (!ok) return std::nullopt;
    return lease;
  }
  bool release(const std::string& game_id, const std::string& node_id, std::int64_t lease, Error& error) override {
    const std::string doing = "giving up the lease of " + game_id;
    return writer.transaction(error, doing, [&](Error& e) {
      return write_one(writer, kRelease, doing, e, [&](sqlite3_stmt* stmt) {
        int rc = bind_text(stmt, 1, game_id);
        if (rc == SQLITE_OK) rc = bind_text(stmt, 2, node_id);
        return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 3, lease) : rc;
      });
    });
  }
  Read<std::vector<std::string>> orphans(int limit) override {
    std::vector<std::string> out;
    Error error;
    if (!read_rows(
            kOrphans, "finding games no node holds", error,
            [&](sqlite3_stmt* stmt) { return sqlite3_bind_int(stmt, 1, limit); },
            [&](sqlite3_stmt* stmt) { out.push_back(column_text(stmt, 0)); }))
      return error;
    return out;
  }
  Read<std::vector<std::string>> tournament_orphans(int limit) override {
    std::vector<std::string> out;
    Error error;
    if (!read_rows(
            kTournamentOrphans, "finding tournaments no node runs", error,
            [&](sqlite3_stmt* stmt) { return sqlite3_bind_int(stmt, 1, limit); },
            [&](sqlite3_stmt* stmt) { out.push_back(column_text(stmt, 0)); }))
      return error;
    return out;
  }
  bool leave(const std::string& node_id, Error& error) override {
    const std::string doing = "node " + node_id + " leaving";
    auto bind = [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, node_id); };
    return writer.transaction(error, doing, [&](Error& e) {
      return write_one(writer, kReleaseAll, doing, e, bind) && write_one(writer, kDeleteNode, doing, e, bind);
    });
  }

 private:
  // The ids of a table, in order.
  Read<std::vector<std::string>> ids(const char* sql, const std::string& doing) {
    std::vector<std::string> out;
    Error error;
    if (!read_rows(sql, doing, error, nullptr,
                   [&](sqlite3_stmt* stmt) { out.push_back(column_text(stmt, 0)); }))
      return error;
    return out;
  }
};

std::unique_ptr<Store> open_sqlite(const std::string& path, Error& error) {
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) {
      error.message = "creating the directory " + parent.string() + " for " + path + ": " + ec.message();
      return nullptr;
    }
  }
  auto store = std::make_unique<SqliteStore>();
  store->path = path;
  if (!store->writer.open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, error)) {
    return nullptr;
  }
  if (!create_schema(store->writer, path, error)) return nullptr;
  // The reader opens after the schema exists; query_only guards against a write slipping onto it.
  if (!store->reader.open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, error)) return nullptr;
  if (!store->reader.exec("PRAGMA query_only=ON", error, "opening the reader on " + path)) return nullptr;
  return store;
}


bool SqliteStore::put_player(const PlayerRow& player, Error& error) {
  const std::string doing = "saving player " + player.id;
  return writer.transaction(error, doing, [&](Error& e) {
    return write_player(writer, player, doing, e);
  });
}

bool SqliteStore::save(const std::vector<PlayerRow>& players, const std::vector<GameSave>& games, Error& error) {
  if (games.empty() && players.empty()) return true;
  const std::string doing = games.size() == 1 && players.empty()
                                ? "saving game " + games[0].row.id
                                : "saving " + std::to_string(games.size()) + " games and " +
                                      std::to_string(players.size()) + " players";
  return writer.transaction(error, doing, [&](Error& e) {
    for (const PlayerRow& player : players)
      if (!write_player(writer, player, doing, e)) return false;
    for (const GameSave& game : games)
      if (!write_save(writer, game, doing, e)) return false;
    return true;
  });
}

UsernameClaim SqliteStore::claim_username(const std::string& player_id, const std::string& username,
                                          const std::string& password_hash, Error& error) {
  const std::string doing = "giving player " + player_id + " the user name " + username;
  bool changed = false;
  const bool ok = writer.transaction(error, doing, [&](Error& e) {
    if (!write_one(writer, kClaimUsername, doing, e, [&](sqlite3_stmt* stmt) {
          int rc = bind_text(stmt, 1, player_id);
          if (rc == SQLITE_OK) rc = bind_text(stmt, 2, username);
          return rc == SQLITE_OK ? bind_text(stmt, 3, password_hash) : rc;
        }))
      return false;
    changed = sqlite3_changes(writer.db()) > 0;
    return true;
  });
  if (ok) return changed ? UsernameClaim::claimed : UsernameClaim::not_guest;
  // Refused: by the unique index if someone else has the name now.
  auto holder = player_by_username(username);
  if (holder && holder->id != player_id) return UsernameClaim::taken;
  return UsernameClaim::failed;
}

Read<std::optional<PlayerRow>> SqliteStore::player(const std::string& id) {
  return load_player(kSelectPlayer, id);
}

Read<std::optional<PlayerRow>> SqliteStore::player_by_username(const std::string& username) {
  if (username.empty()) return std::nullopt;
  return load_player(kSelectPlayerByUsername, username);
}

Read<std::vector<RatingRow>> SqliteStore::ratings(const std::string& player_id) {
  std::vector<RatingRow> out;
  Error error;
  if (!read_rows(
          kSelectRatings, "reading the ratings of " + player_id, error,
          [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, player_id); },
          [&](sqlite3_stmt* stmt) { out.push_back(read_rating(stmt)); }))
    return error;
  return out;
}

Read<std::vector<RatingChange>> SqliteStore::rating_history(const std::string& player_id, int limit) {
  std::vector<RatingChange> out;
  if (limit <= 0) return out;
  Error error;
  if (!read_rows(
          kSelectHistoryOfPlayer, "reading the rating history of " + player_id, error,
          [&](sqlite3_stmt* stmt) {
            int rc = bind_text(stmt, 1, player_id);
            return rc == SQLITE_OK ? sqlite3_bind_int(stmt, 2, limit) : rc;
          },
          [&](sqlite3_stmt* stmt) { out.push_back(read_change(stmt)); }))
    return error;
  return out;
}

Read<std::vector<RatingChange>> SqliteStore::game_ratings(const std::string& game_id) {
  std::vector<RatingChange> out;
  Error error;
  if (!read_rows(
          kSelectHistoryOfGame, "reading the rating changes of " + game_id, error,
          [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, game_id); },
          [&](sqlite3_stmt* stmt) { out.push_back(read_change(stmt)); }))
    return error;
  return out;
}

Read<std::vector<RatingRow>> SqliteStore::leaderboard(const std::string& game, const std::string& pool,
                                                      double max_deviation, int limit) {
  std::vector<RatingRow> out;
  if (limit <= 0) return out;
  Error error;
  if (!read_rows(
          kSelectLeaderboard, "reading the leaderboard of " + game, error,
          [&](sqlite3_stmt* stmt) {
            int rc = bind_text(stmt, 1, game);
            if (rc == SQLITE_OK) rc = bind_text(stmt, 2, pool);
            if (rc == SQLITE_OK) rc = sqlite3_bind_double(stmt, 3, max_deviation);
            return rc == SQLITE_OK ? sqlite3_bind_int(stmt, 4, limit) : rc;
          },
          [&](sqlite3_stmt* stmt) {
            out.push_back(read_rating(stmt));
            out.back().username = column_text(stmt, 11);
          }))
    return error;
  return out;
}

Read<std::vector<GameRow>> SqliteStore::search_games(const ArchiveQuery& q, std::int64_t* total) {
  std::vector<GameRow> games;
  auto bind = [&](sqlite3_stmt* stmt) {
    int rc = bind_text(stmt, 1, q.player_id);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 2, q.game);
    if (rc == SQLITE_OK) rc = bind_text(stmt, 3, q.result);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(stmt, 4, q.rated);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 5, q.from_ms);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 6, q.to_ms);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(stmt, 7, std::max(0, q.limit));
    return rc == SQLITE_OK ? sqlite3_bind_int(stmt, 8, std::max(0, q.offset)) : rc;
  };
  if (total) {
    *total = 0;
    Error error;
    if (!read_rows(kCountArchive, "counting the archive", error, bind,
                   [&](sqlite3_stmt* stmt) { *total = sqlite3_column_int64(stmt, 0); }))
      return error;
  }
  if (q.limit <= 0) return games;
  return read_games(kSelectArchive, "searching the archive", bind);
}

Read<std::optional<GameRow>> SqliteStore::game(const std::string& id) {
  auto games = read_games(
      kSelectGame, "reading game " + id, [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, id); }, true,
      true);
  if (games.failed()) return games.error();
  if (games.empty()) return std::nullopt;
  return std::move(games.front());
}

Read<std::vector<GameRow>> SqliteStore::unfinished_games() {
  return read_games(kSelectUnfinished, "reading the unfinished games", nullptr, true, true);
}

Read<std::vector<ChatRow>> SqliteStore::chat(const std::string& game_id, int limit) {
  std::vector<ChatRow> out;
  if (limit <= 0) return out;
  std::lock_guard lock(reader.mutex());
  Error error;
  if (!step_chat(game_id, limit, "reading the chat of " + game_id, error, out)) return error;
  return out;
}

Read<std::vector<GameRow>> SqliteStore::finished_games(int limit, bool include_private) {
  std::vector<GameRow> games;
  // SQLite reads a negative LIMIT as "no limit"; here it means no rows, like 0.
  if (limit <= 0) return games;
  return read_games(kSelectFinished, "reading the finished games", [&](sqlite3_stmt* stmt) {
    int rc = sqlite3_bind_int(stmt, 1, limit);
    return rc == SQLITE_OK ? sqlite3_bind_int(stmt, 2, include_private ? 1 : 0) : rc;
  });
}

Read<std::int64_t> SqliteStore::count_games() {
  std::int64_t count = 0;
  Error error;
  if (!read_rows(kCountGames, "counting the games", error, nullptr,
                 [&](sqlite3_stmt* stmt) { count = sqlite3_column_int64(stmt, 0); }))
    return error;
  return count;
}

Read<std::vector<GameRow>> SqliteStore::games_of_player(const std::string& player_id, int limit) {
  std::vector<GameRow> games;
  if (limit <= 0 || player_id.empty()) return games;
  return read_games(
      kSelectOfPlayer, "reading the games of " + player_id,
      [&](sqlite3_stmt* stmt) {
        int rc = bind_text(stmt, 1, player_id);
        return rc == SQLITE_OK ? sqlite3_bind_int(stmt, 2, limit) : rc;
      },
      true);
}

Read<std::vector<std::string>> SqliteStore::player_ids() {
  return ids(kSelectPlayerIds, "listing the players");
}

Read<std::vector<std::string>> SqliteStore::game_ids() { return ids(kSelectGameIds, "listing the games"); }

Read<std::vector<RatingRow>> SqliteStore::all_ratings() {
  std::vector<RatingRow> out;
  Error error;
  if (!read_rows(kSelectAllRatings, "reading the ratings", error, nullptr,
                 [&](sqlite3_stmt* stmt) { out.push_back(read_rating(stmt)); }))
    return error;
  return out;
}

Read<std::vector<RatingChange>> SqliteStore::all_rating_history() {
  std::vector<RatingChange> out;
  Error error;
  if (!read_rows(kSelectAllHistory, "reading the rating history", error, nullptr,
                 [&](sqlite3_stmt* stmt) { out.push_back(read_change(stmt)); }))
    return error;
  return out;
}

bool SqliteStore::put_ratings(const std::vector<RatingRow>& ratings, const std::vector<RatingChange>& history,
                              Error& error) {
  const std::string doing = "writing " + std::to_string(ratings.size()) + " ratings";
  return writer.transaction(error, doing, [&](Error& e) {
    for (const RatingRow& r : ratings)
      if (!write_rating(writer, r, doing, e)) return false;
    for (const RatingChange& c : history)
      if (!write_change(writer, c, doing, e)) return false;
    return true;
  });
}

// --- mail (schema version 7): mails outside a save, and the sender's claims and outcomes (on the writer
// connection, under its mutex: a claim is one IMMEDIATE transaction, so two never overlap).

bool SqliteStore::queue_mails(const std::vector<MailRow>& mails, const std::vector<std::string>& received,
                              Error& error) {
  const std::string doing = "queueing " + std::to_string(mails.size()) + " mails";
  return writer.transaction(error, doing, [&](Error& e) {
    for (const MailRow& m : mails)
      if (!write_mail(writer, m, doing, e)) return false;
    // No save's time here: the ids are received now, by this machine's clock.
    const std::int64_t at = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
    for (const std::string& id : received)
      if (!write_received(writer, id, at, doing, e)) return false;
    return true;
  });
}

Read<std::vector<MailRow>> SqliteStore::claim_mails(const std::string& node, std::int64_t now_ms,
                                                    std::int64_t claim_ms, int limit) {
  std::vector<MailRow> out;
  Error error;
  const std::string doing = "claiming the mails due";
  const bool ok = writer.transaction(error, doing, [&](Error& e) {
    return read_on(
        writer, kClaimMails, doing, e,
        [&](sqlite3_stmt* stmt) {
          int rc = bind_text(stmt, 1, node);
          if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 2, now_ms + claim_ms);
          if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 3, now_ms);
          return rc == SQLITE_OK ? sqlite3_bind_int(stmt, 4, limit) : rc;
        },
        [&](sqlite3_stmt* stmt) { out.push_back(read_mail(stmt)); });
  });
  if (!ok) {
    spdlog::error("store: {}", error.message);
    return error;
  }
  std::sort(out.begin(), out.end(), [](const MailRow& a, const MailRow& b) {
    return a.due_ms != b.due_ms ? a.due_ms < b.due_ms : a.created_ms < b.created_ms;
  });
  return out;
}

bool SqliteStore::finish_mail(const std::string& id, const std::string& state, std::int64_t at_ms,
                              std::int64_t next_ms, const std::string& error_text, Error& error) {
  const std::string doing = "recording mail " + id + " as " + state;
  return writer.transaction(error, doing, [&](Error& e) {
    return write_one(writer, kFinishMail, doing, e, [&](sqlite3_stmt* stmt) {
      int rc = bind_text(stmt, 1, id);
      if (rc == SQLITE_OK) rc = bind_text(stmt, 2, state);
      if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 3, at_ms);
      if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 4, next_ms);
      return rc == SQLITE_OK ? bind_text(stmt, 5, error_text) : rc;
    });
  });
}

Read<bool> SqliteStore::mail_received(const std::string& message_id) {
  bool found = false;
  Error error;
  if (!read_rows(
          kSelectReceived, "looking for mail " + message_id, error,
          [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, message_id); },
          [&](sqlite3_stmt*) { found = true; }))
    return error;
  return found;
}

Read<std::vector<MailRow>> SqliteStore::mails_of_game(const std::string& game_id) {
  std::vector<MailRow> out;
  Error error;
  if (!read_rows(
          kSelectMailsOfGame, "reading the mails of " + game_id, error,
          [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, game_id); },
          [&](sqlite3_stmt* stmt) { out.push_back(read_mail(stmt)); }))
    return error;
  return out;
}

// --- accounts' mail (schema version 8)

namespace {

AccountMail read_account_mail(sqlite3_stmt* stmt) {
  return AccountMail{column_text(stmt, 0), column_text(stmt, 1), column_text(stmt, 2), column_text(stmt, 3),
                     column_text(stmt, 4), column_text(stmt, 5), column_text(stmt, 6),
                     sqlite3_column_int64(stmt, 7)};
}

}  // namespace

Read<std::optional<AccountMail>> SqliteStore::account_mail(const std::string& player_id) {
  std::optional<AccountMail> out;
  Error error;
  if (!read_rows(
          kSelectAccountMail, "reading the mail of account " + player_id, error,
          [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, player_id); },
          [&](sqlite3_stmt* stmt) { out = read_account_mail(stmt); }))
    return error;
  return out;
}

Read<std::optional<AccountMail>> SqliteStore::seat_account_mail(const std::string& game_id, int seat) {
  std::optional<AccountMail> out;
  Error error;
  if (!read_rows(
          kSelectSeatAccountMail, "reading the account mail of " + game_id + " seat " + std::to_string(seat),
          error,
          [&](sqlite3_stmt* stmt) {
            int rc = bind_text(stmt, 1, game_id);
            return rc == SQLITE_OK ? sqlite3_bind_int(stmt, 2, seat) : rc;
          },
          [&](sqlite3_stmt* stmt) { out = read_account_mail(stmt); }))
    return error;
  return out;
}

Read<std::vector<AccountMail>> SqliteStore::digest_accounts() {
  std::vector<AccountMail> out;
  Error error;
  if (!read_rows(kSelectDigestAccounts, "reading the accounts with a digest", error, nullptr,
                 [&](sqlite3_stmt* stmt) { out.push_back(read_account_mail(stmt)); }))
    return error;
  return out;
}

bool SqliteStore::put_account_mail(const AccountMail& a, const std::vector<MailRow>& mails, Error& error) {
  const std::string doing = "storing the mail of account " + a.player_id;
  return writer.transaction(error, doing, [&](Error& e) {
    if (!write_one(writer, kUpsertAccountMail, doing, e, [&](sqlite3_stmt* stmt) {
          int rc = SQLITE_OK;
          int i = 0;
          for (const std::string* t : {&a.player_id, &a.address, &a.pending, &a.code_hash, &a.unsubscribe_key,
                                       &a.prefs, &a.digest_day})
            if (rc == SQLITE_OK) rc = bind_text(stmt, ++i, *t);
          return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 8, a.updated_ms) : rc;
        }))
      return false;
    for (const MailRow& m : mails)
      if (!write_mail(writer, m, doing, e)) return false;
    return true;
  });
}

Read<std::vector<std::pair<std::string, std::int64_t>>> SqliteStore::count_mails() {
  std::vector<std::pair<std::string, std::int64_t>> out;
  Error error;
  if (!read_rows(kCountMails, "counting the mails", error, nullptr, [&](sqlite3_stmt* stmt) {
        out.emplace_back(column_text(stmt, 0), sqlite3_column_int64(stmt, 1));
      }))
    return error;
  return out;
}

// --- tournaments (schema version 10)

namespace {

TournamentRow read_tournament(sqlite3_stmt* stmt) {
  return TournamentRow{column_text(stmt, 0),         column_text(stmt, 1),         column_text(stmt, 2),
                       column_text(stmt, 3),         column_text(stmt, 4),         column_text(stmt, 5),
                       sqlite3_column_int64(stmt, 6), sqlite3_column_int64(stmt, 7), sqlite3_column_int64(stmt, 8),
                       sqlite3_column_int64(stmt, 9), column_text(stmt, 10)};
}

}  // namespace

bool SqliteStore::put_tournament(const TournamentRow& t, std::int64_t after, const std::vector<MailRow>& mails,
                                 Error& error) {
  const std::string doing = "storing tournament " + t.id;
  if (after >= 0 && t.version != after + 1) {
    error.message = doing + ": version " + std::to_string(t.version) + " does not follow " + std::to_string(after);
    return false;
  }
  return writer.transaction(error, doing, [&](Error& e) {
    if (!write_one(writer, after <= 0 ? kInsertTournament : kUpdateTournament, doing, e, [&](sqlite3_stmt* stmt) {
          int rc = SQLITE_OK;
          int i = 0;
          for (const std::string* text : {&t.id, &t.game, &t.format, &t.name, &t.status, &t.created_by})
            if (rc == SQLITE_OK) rc = bind_text(stmt, ++i, *text);
          for (std::int64_t n : {t.starts_ms, t.created_ms, t.updated_ms, t.version})
            if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, ++i, n);
          if (rc == SQLITE_OK) rc = bind_text(stmt, ++i, t.state);
          if (rc == SQLITE_OK && after > 0) rc = sqlite3_bind_int64(stmt, ++i, after);
          return rc;
        }))
      return false;
    if (sqlite3_changes(writer.db()) == 0) {
      e.message = doing + ": " +
                  (after <= 0 ? std::string("a tournament of that id exists")
                              : "it is not stored at version " + std::to_string(after) + " (saved meanwhile)");
      return false;
    }
    for (const MailRow& m : mails)
      if (!write_mail(writer, m, doing, e)) return false;
    return true;
  });
}

Read<std::optional<TournamentRow>> SqliteStore::tournament(const std::string& id) {
  std::optional<TournamentRow> out;
  Error error;
  if (!read_rows(
          kSelectTournament, "reading tournament " + id, error,
          [&](sqlite3_stmt* stmt) { return bind_text(stmt, 1, id); },
          [&](sqlite3_stmt* stmt) { out = read_tournament(stmt); }))
    return error;
  return out;
}

Read<std::vector<TournamentRow>> SqliteStore::tournaments(const std::string& status, int limit) {
  std::vector<TournamentRow> out;
  Error error;
  if (!read_rows(
          kSelectTournaments, "reading the tournaments", error,
          [&](sqlite3_stmt* stmt) {
            int rc = bind_text(stmt, 1, status);
            return rc == SQLITE_OK ? sqlite3_bind_int(stmt, 2, limit) : rc;
          },
          [&](sqlite3_stmt* stmt) { out.push_back(read_tournament(stmt)); }))
    return error;
  return out;
}

// --- analyses (schema version 11): one statement each.
bool SqliteStore::put_analysis(const AnalysisRow& a, Error& error) {
  const std::string doing = "storing the analysis " + a.settings + " of game " + a.game_id;
  return writer.transaction(error, doing, [&](Error& e) {
    return write_one(writer, kPutAnalysis, doing, e, [&](sqlite3_stmt* stmt) {
      int rc = bind_text(stmt, 1, a.game_id);
      if (rc == SQLITE_OK) rc = bind_text(stmt, 2, a.settings);
      if (rc == SQLITE_OK) rc = bind_text(stmt, 3, a.analysis);
      return rc == SQLITE_OK ? sqlite3_bind_int64(stmt, 4, a.created_ms) : rc;
    });
  });
}

namespace {
AnalysisRow read_analysis(sqlite3_stmt* stmt) {
  return AnalysisRow{column_text(stmt, 0), column_text(stmt, 1), column_text(stmt, 2),
                     sqlite3_column_int64(stmt, 3)};
}
}  // namespace

Read<std::optional<AnalysisRow>> SqliteStore::analysis(const std::string& game_id, const std::string& settings) {
  std::optional<AnalysisRow> out;
  Error error;
  if (!read_rows(
          kSelectAnalysis, "reading the analysis " + settings + " of game " + game_id, error,
          [&](sqlite3_stmt* stmt) {
            int rc = bind_text(stmt, 1, game_id);
            return rc == SQLITE_OK ? bind_text(stmt, 2, settings) : rc;
          },
          [&](sqlite3_stmt* stmt) { out = read_analysis(stmt); }))
    return error;
  return out;
}

Read<std::vector<AnalysisRow>> SqliteStore::all_analyses() {
  std::vector<AnalysisRow> out;
  Error error;
  if (!read_rows(
          kSelectAnalyses, "reading the analyses", error, [](sqlite3_stmt*) { return SQLITE_OK; },
          [&](sqlite3_stmt* stmt) { out.push_back(read_analysis(stmt)); }))
    return error;
  return out;
}

}  // namespace cinq::store

namespace cinq::store {

// --- moderation (schema version 12)

namespace {

// A statement's parameters, in order (?1, ?2, ...): texts or integers; the texts outlive the step.
using ModParam = std::variant<std::string, std::int64_t>;

std::function<int(sqlite3_stmt*)> binder(const std::vector<ModParam>& params) {
  return [&params](sqlite3_stmt* stmt) {
    int rc = SQLITE_OK;
    for (std::size_t i = 0; i < params.size() && rc == SQLITE_OK; ++i) {
      const int at = static_cast<int>(i) + 1;
      if (const auto* text = std::get_if<std::string>(&params[i]))
        rc = bind_text(stmt, at, *text);
      else
        rc = sqlite3_bind_int64(stmt, at, std::get<std::int64_t>(params[i]));
    }
    return rc;
  };
}

std::int64_t column_int(sqlite3_stmt* stmt, int i) { return sqlite3_column_int64(stmt, i); }

ReportRow read_report(sqlite3_stmt* s) {
  return ReportRow{column_text(s, 0), column_int(s, 1), column_text(s, 2), column_text(s, 3), column_text(s, 4),
                   column_text(s, 5), column_text(s, 6), column_text(s, 7), column_text(s, 8), column_int(s, 9)};
}
AuditRow read_audit(sqlite3_stmt* s) {
  return AuditRow{column_int(s, 0),  column_int(s, 1), column_text(s, 2), column_text(s, 3),
                  column_text(s, 4), column_text(s, 5), column_text(s, 6), column_text(s, 7)};
}

}  // namespace

bool SqliteStore::moderate(const ModerationWrite& w, Error& error) {
  if (w.empty()) return true;
  const std::string doing = "storing a moderation change";
  return writer.transaction(error, doing, [&](Error& e) {
    auto one = [&](const char* sql, const std::vector<ModParam>& params) {
      return write_one(writer, sql, doing, e, binder(params));
    };
    for (const RoleRow& r : w.roles)
      if (!one(kUpsertRole, {r.player_id, r.role, r.granted_by, r.at_ms})) return false;
    for (const std::string& id : w.roles_removed)
      if (!one(kDeleteRole, {id})) return false;
    for (const SanctionRow& s : w.sanctions)
      if (!one(kUpsertSanction, {s.player_id, s.kind, s.reason, s.by, s.at_ms, s.until_ms})) return false;
    for (const auto& [id, kind] : w.sanctions_lifted)
      if (!one(kDeleteSanction, {id, kind})) return false;
    for (const ReportRow& r : w.reports)
      if (!one(kUpsertReport, {r.id, r.at_ms, r.reporter_id, r.target_id, r.room, r.line, r.reason, r.status,
                               r.handled_by, r.handled_ms}))
        return false;
    for (const BlockRow& b : w.blocks)
      if (!one(kInsertBlock, {b.blocker_id, b.blocked_id, b.at_ms})) return false;
    for (const auto& [blocker, blocked] : w.blocks_removed)
      if (!one(kDeleteBlock, {blocker, blocked})) return false;
    for (const AuditRow& a : w.audit)
      if (!one(kInsertAudit, {w.keep_seq ? a.seq : std::int64_t{0}, a.at_ms, a.actor_id, a.actor_name, a.action,
                              a.target_id, a.target_name, a.detail}))
        return false;
    for (const SightingRow& s : w.sightings)
      if (!one(kNoteSighting, {s.player_id, s.kind, s.value, s.first_ms, s.last_ms, s.count})) return false;
    return true;
  });
}

Read<std::vector<RoleRow>> SqliteStore::roles() {
  std::vector<RoleRow> out;
  Error error;
  if (!read_rows(kSelectRoles, "reading the roles", error, nullptr, [&](sqlite3_stmt* s) {
        out.push_back(RoleRow{column_text(s, 0), column_text(s, 1), column_text(s, 2), column_int(s, 3)});
      }))
    return error;
  return out;
}

Read<std::vector<SanctionRow>> SqliteStore::sanctions() {
  std::vector<SanctionRow> out;
  Error error;
  if (!read_rows(kSelectSanctions, "reading the sanctions", error, nullptr, [&](sqlite3_stmt* s) {
        out.push_back(SanctionRow{column_text(s, 0), column_text(s, 1), column_text(s, 2), column_text(s, 3),
                                  column_int(s, 4), column_int(s, 5)});
      }))
    return error;
  return out;
}

Read<std::vector<ReportRow>> SqliteStore::reports(const std::string& status, int limit) {
  std::vector<ReportRow> out;
  Error error;
  const std::vector<ModParam> params{status, std::int64_t{limit}};
  if (!read_rows(kSelectReports, "reading the reports", error, binder(params),
                 [&](sqlite3_stmt* s) { out.push_back(read_report(s)); }))
    return error;
  return out;
}

Read<std::optional<ReportRow>> SqliteStore::report(const std::string& id) {
  std::optional<ReportRow> out;
  Error error;
  const std::vector<ModParam> params{id};
  if (!read_rows(kSelectReport, "reading report " + id, error, binder(params),
                 [&](sqlite3_stmt* s) { out = read_report(s); }))
    return error;
  return out;
}

Read<std::vector<BlockRow>> SqliteStore::blocks(const std::string& player_id) {
  std::vector<BlockRow> out;
  Error error;
  const std::vector<ModParam> params{player_id};
  if (!read_rows(kSelectBlocks, "reading the blocks of " + player_id, error, binder(params), [&](sqlite3_stmt* s) {
        out.push_back(BlockRow{column_text(s, 0), column_text(s, 1), column_int(s, 2)});
      }))
    return error;
  return out;
}

Read<std::vector<AuditRow>> SqliteStore::audit(const std::string& target_id, int limit) {
  std::vector<AuditRow> out;
  Error error;
  const std::vector<ModParam> params{target_id, std::int64_t{limit}};
  if (!read_rows(kSelectAudit, "reading the audit log", error, binder(params),
                 [&](sqlite3_stmt* s) { out.push_back(read_audit(s)); }))
    return error;
  return out;
}

Read<std::vector<LinkRow>> SqliteStore::linked_accounts(int limit) {
  std::vector<LinkRow> out;
  Error error;
  const std::vector<ModParam> params{std::int64_t{limit}};
  if (!read_rows(kSelectLinks, "reading the linked accounts", error, binder(params), [&](sqlite3_stmt* s) {
        out.push_back(LinkRow{column_text(s, 0), column_text(s, 1), column_text(s, 2), column_int(s, 3),
                              column_int(s, 4)});
      }))
    return error;
  return out;
}

Read<ModerationRows> SqliteStore::moderation_rows() {
  ModerationRows out;
  auto roles_read = roles();
  auto sanctions_read = sanctions();
  auto reports_read = reports("", std::numeric_limits<int>::max());
  auto blocks_read = blocks("");
  auto audit_read = audit("", std::numeric_limits<int>::max());
  for (const Error* e : {roles_read.failed() ? &roles_read.error() : nullptr,
                         sanctions_read.failed() ? &sanctions_read.error() : nullptr,
                         reports_read.failed() ? &reports_read.error() : nullptr,
                         blocks_read.failed() ? &blocks_read.error() : nullptr,
                         audit_read.failed() ? &audit_read.error() : nullptr})
    if (e) return *e;
  out.roles = roles_read;
  out.sanctions = sanctions_read;
  out.reports = reports_read;
  out.blocks = blocks_read;
  out.audit = audit_read;
  std::reverse(out.audit.begin(), out.audit.end());
  Error error;
  if (!read_rows(kSelectSightings, "reading the sightings", error, nullptr, [&](sqlite3_stmt* s) {
        out.sightings.push_back(SightingRow{column_text(s, 0), column_text(s, 1), column_text(s, 2),
                                            column_int(s, 3), column_int(s, 4), column_int(s, 5)});
      }))
    return error;
  return out;
}

}  // namespace cinq::store
