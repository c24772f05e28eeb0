// The SQLite store (DESIGN.md, "Storage"): players and games, one file in WAL mode.
//
// A game is stored as its record in notation.md form plus the columns a query needs. Every save is one
// transaction, committed (synchronous=FULL) before `save_game` returns: the server announces a turn only
// after its save returned, so a crash never loses a turn anyone has seen.
//
// Thread-safety: every method may be called from any thread. Writes go through one connection, reads
// through another (WAL lets them run at once); each connection is used under its own mutex. The server calls
// the store only from its Worker threads (persistence/worker.h), never from a network thread.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cinq::store {

struct PlayerRow {
  std::string id;          // "p" + random base62
  std::string token_hash;  // hex digest of the secret token (the token itself is never stored)
  std::string name;
  std::int64_t created_ms = 0;  // Unix time, milliseconds
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
  std::string record;                          // the whole record, notation.md form
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
};

struct Error {
  std::string message;
};

class Store {
 public:
  // Opens (creating the file, its parent directory and the schema if needed) the database at `path`.
  // Returns nullptr and fills `error` if it cannot.
  static std::unique_ptr<Store> open(const std::string& path, Error& error);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // --- writes: each is one committed transaction; false (and `error`) if it failed, nothing changed then
  bool put_player(const PlayerRow& player, Error& error);  // insert or replace
  bool save_game(const GameRow& game, Error& error);       // insert or replace, whole row
  // Several rows in one transaction (one fsync): all are committed, or none. The group commit of the server's
  // saves (persistence/saver.h): under load, many rooms' turns share one commit.
  bool save_games(const std::vector<GameRow>& games, Error& error);
  // Players and games in one transaction.
  bool save_all(const std::vector<PlayerRow>& players, const std::vector<GameRow>& games, Error& error);

  // --- reads
  std::optional<PlayerRow> player(const std::string& id);
  std::optional<GameRow> game(const std::string& id);
  // Games whose status is not "finished", oldest first: what the server reopens on start.
  std::vector<GameRow> unfinished_games();
  // Finished games, newest first, at most `limit`; public ones only unless `include_private`.
  std::vector<GameRow> finished_games(int limit, bool include_private = false);
  std::int64_t count_games();
  // The games where `player_id` holds a seat: unfinished ones first (the nearest deadline first), then the
  // finished ones, most recently updated first; at most `limit`.
  std::vector<GameRow> games_of_player(const std::string& player_id, int limit = 50);

 private:
  struct Impl;
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cinq::store
