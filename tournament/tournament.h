// A tournament as pure logic (docs/tournaments.md), like lobby::Room: its spec, its entrants, its rounds and
// games, their results and the standings; time is passed in (`now_ms`, Unix milliseconds), and it does no
// I/O. The server keeps its saved form (to_json) in the store and makes the rooms of its games.
//
// How the server drives it:
//   1. After any change (a join, a result, a timer), call advance(now): it starts a tournament whose time has
//      come, pairs what is due (the next Swiss or round robin round once the current one is over, every round
//      of a correspondence round robin at its start, the waiting players of an arena), and finishes it. It
//      returns the games it paired.
//   2. Store to_json() (the `version` grew), THEN create a room for each game in rooms_to_create() (pending
//      games with no room attached), seating game.seats[0] in the first seat and game.seats[1] in the second,
//      and attach_room(game, room) (store again). After a crash the stored state still names the paired
//      games: rooms_to_create() gives those whose room was never attached; a pending game whose attached room
//      is missing from the store is made again under that room id. (Game::id is deterministic,
//      `<tournament>-<round>-<board>`: a server may use it as the room id.)
//   3. When a room ends, record_result(game, result, now); a live game whose first move never came is
//      record_forfeit(game, who was there, now). Recording is idempotent: the same result again changes
//      nothing; another result for a finished game, or any for an unknown game, is refused. Then advance(now).
//   4. A player away at pairing time is set_absent(player, true, now): skipped (no game, no bye, no points)
//      until set_absent(player, false, now). A forfeit marks the player who did not come absent.
//   5. withdraw() does not end a game in progress: the server resigns it for the player and records it.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cinq::tournament {

enum class Format : std::uint8_t { swiss, round_robin, arena };
const char* format_name(Format f);  // "swiss", "roundrobin", "arena"
std::optional<Format> format_named(const std::string& name);

// The clock of every game: live (minutes and increment) or correspondence (days per move).
struct Pace {
  std::int64_t base_ms = 0;
  std::int64_t increment_ms = 0;
  std::int64_t days = 0;  // correspondence when > 0
  bool correspondence() const { return days > 0; }
  friend bool operator==(const Pace&, const Pace&) = default;
};

struct Spec {
  std::string name;  // as shown ("Sunday Tablut Swiss")
  Format format = Format::swiss;
  std::string game;     // the game's name (rules/registry.h); the server checks it and the options
  std::string options;  // `key=value ...`, for every game of the tournament
  bool rated = false;
  int rounds = 0;                     // Swiss: the number of rounds (1..kMaxRounds)
  bool double_round_robin = false;    // round robin: each pair meets twice, sides swapped
  std::int64_t duration_ms = 0;       // arena: pairing stops this long after the start
  Pace pace;
  std::optional<std::int64_t> start_ms;  // the planned start; none: started by hand (start())
  std::string creator;                   // the account that made it
  friend bool operator==(const Spec&, const Spec&) = default;
};

inline constexpr int kMaxRounds = 100;

// Why a command was refused: a stable code and a sentence for people.
struct Error {
  std::string code;
  std::string message;
};

// Why `spec` cannot make a tournament (bad_spec), or nothing.
std::optional<Error> check_spec(const Spec& spec);

enum class Status : std::uint8_t { open, running, finished };
const char* status_name(Status s);  // "open" (taking entries, not started), "running", "finished"

struct Entrant {
  std::string id;    // the player (account) id
  std::string name;  // as shown
  double rating = 1500;  // the seeding: higher first, then earlier entry
  std::int64_t joined_ms = 0;
  int entry = 0;        // the order of entry, from 0
  int first_round = 1;  // Swiss: the first round the player may be paired in (a late entry: a later one)
  bool withdrawn = false;
  bool absent = false;
  friend bool operator==(const Entrant&, const Entrant&) = default;
};

// A game's result. A forfeit is a game that was not played: the player who was there wins it.
enum class Result : std::uint8_t {
  pending,
  first_wins,   // the player in the first seat (seats[0])
  second_wins,
  draw,
  first_wins_forfeit,  // the second seat's player did not come
  second_wins_forfeit,
  double_forfeit,  // neither came: no points
};
const char* result_name(Result r);  // "pending", "1-0", "0-1", "1/2-1/2", "1-0 forfeit", "0-1 forfeit", "0-0 forfeit"
std::optional<Result> result_named(const std::string& name);
bool forfeit(Result r);
// The points a result gives the player of `seat` (Swiss, round robin): a win 1, a draw 1/2, else 0.
double points_for(Result r, int seat);

struct Game {
  std::string id;   // `<tournament id>-<round>-<board>`; an arena's `<tournament id>-a<number>`
  int round = 0;    // 1..; an arena's games: 0
  int board = 0;    // 1.. within the round; an arena's: its number, 1.. in the order paired
  std::array<std::string, 2> seats;  // entrant ids: seats[0] plays the first side
  Result result = Result::pending;
  std::string room;  // the room made for it, once attached ("" none yet)
  std::int64_t paired_ms = 0;
  std::int64_t ended_ms = 0;  // when its result was recorded, 0 while pending
  bool pending() const { return result == Result::pending; }
  friend bool operator==(const Game&, const Game&) = default;
};

// A round a player sat out of, though in the tournament: the pairing's bye (a win's points), or absent.
enum class SitOut : std::uint8_t { bye, absent };
struct Rest {
  int round = 0;
  std::string player;
  SitOut kind = SitOut::bye;
  friend bool operator==(const Rest&, const Rest&) = default;
};

// Pairs of players (their ids) of whom one blocked the other (the server's moderation): a Swiss or an arena
// pairs them only where nothing else pairs (docs/tournaments.md, "Blocks"). Not saved: given at each advance.
using Blocks = std::vector<std::pair<std::string, std::string>>;

// What advance() did.
struct Step {
  bool changed = false;  // store the state
  std::vector<Game> paired;  // the games it paired (those still pending need rooms)
  bool started = false;
  bool finished = false;
};

// What record_result() and record_forfeit() did.
struct Recorded {
  std::optional<Error> error;
  bool changed = false;  // false for a result recorded before (the same one)
};

// One line of the standings. Swiss and round robin: points (a win 1, a draw 1/2, a bye 1, a forfeit win 1),
// then the tie-breaks in this order: Buchholz, Sonneborn-Berger, direct encounter, wins; then the seeding.
// Arena: arena points (a win 2, a draw 1; doubled on a streak), then wins, then the seeding.
struct Standing {
  int rank = 0;  // 1..
  std::string player;
  std::string name;
  double points = 0;
  double buchholz = 0;
  double sonneborn_berger = 0;
  double direct = 0;  // points against the others tied on points, Buchholz and Sonneborn-Berger, when they all met
  int wins = 0;       // over the board
  int games = 0;      // played over the board
  bool withdrawn = false;
  bool on_streak = false;  // arena: the next win counts double
};

// One cell of the crosstable: a round (Swiss, round robin) or a game in order (arena).
struct Cell {
  enum class Kind : std::uint8_t { game, bye, absent, none } kind = Kind::none;  // none: not in that round
  int opponent_rank = 0;
  std::string opponent;
  int seat = 0;  // the player's seat: 0 first, 1 second
  Result result = Result::pending;
  double points = 0;  // what it earned the player (arena: arena points)
  // Written out: "+5F" won against the player ranked 5 from the first seat, "=3S" a draw from the second,
  // "-7F" lost, "?2S" pending; a forfeit ends in "!"; "bye", "abs", "." (not in that round).
  std::string text() const;
};
struct CrossRow {
  Standing standing;
  std::vector<Cell> cells;
};

class Tournament {
 public:
  static constexpr int kFormatVersion = 1;  // of to_json()

  Tournament() = default;
  // A new tournament; `spec` must pass check_spec().
  Tournament(std::string id, Spec spec, std::int64_t now_ms);

  // --- Entrants
  // Errors: finished, closed (round robin after its start, Swiss once its last round is paired, arena after
  // its end), already_in. A player who withdrew before the start joins again; after it, not.
  std::optional<Error> join(const std::string& player, const std::string& name, double rating,
                            std::int64_t now_ms);
  // Before the start the entrant is removed; after it, not paired again (played games stay). Errors:
  // not_in, finished.
  std::optional<Error> withdraw(const std::string& player, std::int64_t now_ms);
  // A player marked absent is left out of the pairings made while marked (a Swiss round: no game, no bye, no
  // points; a round robin round: the game is a forfeit loss; an arena: not paired). Errors: not_in.
  std::optional<Error> set_absent(const std::string& player, bool absent, std::int64_t now_ms);

  // --- Life
  // Starts now (by hand, or at the planned time through advance). Errors: started, too_few (fewer than
  // two entrants).
  std::optional<Error> start(std::int64_t now_ms);
  // Everything due at `now_ms`: the planned start (with two entrants or more; else it waits), the pairing of
  // the next round or of waiting arena players, the finish.
  // `blocks`: the pairs the pairing avoids (a Swiss round, the arena's waiting players; a round robin's table
  // is fixed).
  Step advance(std::int64_t now_ms, const Blocks& blocks = {});
  // The next round of a Swiss (its current round over) or a live round robin, or every round of a
  // correspondence round robin at its start; empty if none is due.
  std::vector<Game> pair_next_round(std::int64_t now_ms, const Blocks& blocks = {});
  // The arena's waiting players paired (none after its end).
  std::vector<Game> pair_arena(std::int64_t now_ms, const Blocks& blocks = {});

  // --- Games
  // Errors: unknown_game, not_a_result (pending), result_differs (another result was recorded).
  Recorded record_result(const std::string& game, Result result, std::int64_t now_ms);
  // The game was not played: `present[s]` says whether the player of seat s was there. One present: a
  // forfeit win for that one; none: a double forfeit. The absent are marked absent. Errors as record_result.
  Recorded record_forfeit(const std::string& game, std::array<bool, 2> present, std::int64_t now_ms);
  // Notes the room made for a game (idempotent). Errors: unknown_game, room_differs.
  std::optional<Error> attach_room(const std::string& game, const std::string& room);
  // Pending games whose room has not been attached yet, in pairing order.
  std::vector<Game> rooms_to_create() const;

  // --- Reading
  const std::string& id() const { return id_; }
  const Spec& spec() const { return spec_; }
  Status status() const { return status_; }
  std::int64_t version() const { return version_; }  // grows with every change
  std::int64_t created_ms() const { return created_ms_; }
  std::int64_t started_ms() const { return started_ms_; }
  std::int64_t ends_ms() const { return ends_ms_; }  // arena: when pairing stops; 0 otherwise
  int round() const { return round_; }               // the last round paired (0 before the first)
  int total_rounds() const { return total_rounds_; }  // Swiss: spec.rounds; round robin: known at the start
  const std::vector<Entrant>& entrants() const { return entrants_; }
  const std::vector<Game>& games() const { return games_; }
  const std::vector<Rest>& rests() const { return rests_; }
  const Entrant* entrant(const std::string& player) const;
  const Game* game(const std::string& id) const;
  bool round_over() const;  // every game of the current round has a result

  std::vector<Standing> standings() const;
  std::vector<CrossRow> crosstable() const;
  // The standings with their tie-breaks and the crosstable, as plain text.
  std::string standings_text() const;

  // --- Saved form: everything above, as one JSON object (docs/tournaments.md, "Saved form"):
  //   {"format_version":1, "id", "spec":{"name","format","game","options","rated","rounds","double_round_robin",
  //    "duration_ms","pace":{"base_ms","increment_ms","days"},"start_ms"(null: by hand),"creator"},
  //    "status", "version", "created_ms", "started_ms", "ends_ms", "round", "total_rounds",
  //    "order":[player ids in Berger numbers' order (round robin)], "next_number" (arena's next game),
  //    "entrants":[{"id","name","rating","joined_ms","entry","first_round","withdrawn","absent"}],
  //    "games":[{"id","round","board","seats":[a,b],"result","room","paired_ms","ended_ms"}],
  //    "rests":[{"round","player","kind":"bye"|"absent"}]}
  // A later format adds fields with defaults; from_json refuses a format_version it does not know.
  nlohmann::json to_json() const;
  static std::optional<Tournament> from_json(const nlohmann::json& saved, std::string* error = nullptr);

  friend bool operator==(const Tournament&, const Tournament&) = default;

 private:
  Entrant* find(const std::string& player);
  Game* find_game(const std::string& id);
  std::vector<const Entrant*> seeded() const;  // by rating, then entry
  Game make_game(int round, int board, std::array<std::string, 2> seats, std::int64_t now_ms);
  std::vector<Game> pair_swiss_round(std::int64_t now_ms, const Blocks& blocks);
  std::vector<Game> pair_round_robin(int round, std::int64_t now_ms);
  bool due_to_finish(std::int64_t now_ms) const;
  void changed() { ++version_; }

  std::string id_;
  Spec spec_;
  Status status_ = Status::open;
  std::int64_t version_ = 0;
  std::int64_t created_ms_ = 0;
  std::int64_t started_ms_ = 0;
  std::int64_t ends_ms_ = 0;
  int round_ = 0;
  int total_rounds_ = 0;
  std::vector<std::string> order_;  // round robin: the players by Berger number
  int next_number_ = 1;             // arena: the next game's number
  std::vector<Entrant> entrants_;
  std::vector<Game> games_;
  std::vector<Rest> rests_;
};

}  // namespace cinq::tournament
