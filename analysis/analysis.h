// The analysis of a game (docs/protocol.md, "Analysis"): every turn of a record evaluated by the strongest
// bot (bots/bot.h) at a chosen depth or think time. For each turn: the mover's win chance before it (0 to 1,
// what the search expects of the position for the side to move), the same after the turn played, the best
// turn the search found where it differs from the one played with the mover's chance after it, and a mark when
// the turn played lost much against the best: a mistake from kMistake, a blunder from kBlunder (the chance after
// the best turn minus the chance after the turn played; both positions searched alike, the opponent to move, so
// that the search's optimism for the side it plays cancels out).
//
// Pure logic like bots/: no I/O, no threads of its own; the server runs it on its analysis threads
// (server/analysis_runner.h), `cinq analyze` inline. With a depth the search is capped by playouts and seeded
// by the turn's index, so the same record and depth give the same analysis anywhere (unless a loaded machine
// hits the think-time bound first); with a think time it depends on the machine.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "rules/notation.h"

namespace cinq::analysis {

inline constexpr int kMinDepth = 1;
inline constexpr int kMaxDepth = 5;
inline constexpr int kDefaultDepth = 3;
inline constexpr std::int64_t kMinThinkMs = 50;
inline constexpr std::int64_t kMaxThinkMs = 10000;
// A turn is marked when the mover's win chance after it is this much below its chance after the best turn the
// search found (another one): a mistake from 0.10, a blunder from 0.20.
inline constexpr double kMistake = 0.10;
inline constexpr double kBlunder = 0.20;

struct Settings {
  // 1 to 5: the strongest bot's search, capped at the playouts of that bot level (level_settings(depth)).
  int depth = kDefaultDepth;
  // When above 0 (kMinThinkMs to kMaxThinkMs): a search of this many ms per turn instead, with no cap.
  std::int64_t think_ms = 0;
  // The analysis's name among a game's analyses: "depth=3" or "think=500".
  std::string key() const;
  friend bool operator==(const Settings&, const Settings&) = default;
};

// Why `settings` cannot be used ("depth: ..." or "think_ms: ...", naming the field), or nothing.
std::optional<std::string> check(const Settings& settings);
// Reads a key() back ("depth=N" or "think=MS"); nothing if it is not one, or out of range.
std::optional<Settings> parse_key(std::string_view key);
// The bot's settings for one turn's search (`seed`: the turn's).
bots::Settings search_settings(const Settings& settings, std::uint64_t seed);

enum class Mark { none, mistake, blunder };
// The mark of a turn that lost `drop` of win chance (after the best turn minus after the turn played).
Mark mark_for(double drop);
const char* mark_name(Mark mark);  // "", "mistake", "blunder"

struct TurnEval {
  int index = 0;   // in the record's turns, from 0
  int round = 1;   // the Batik game or Bi-litaire round
  int number = 1;  // the turn line's number in its round
  char side = 0;   // the mover's letter
  int seat = 0;    // the mover's seat
  std::string played;  // the turn played, as the record writes it: `A/e2 c2/`
  double before = 0.5;  // the mover's win chance before the turn
  double after = 0.5;   // the mover's win chance after the turn played
  std::string best;     // the best turn found, "" when it is the one played (or the turn was forced)
  double best_after = 0.5;  // the mover's win chance after the best turn (`after` when it was played)
  Mark mark = Mark::none;
  friend bool operator==(const TurnEval&, const TurnEval&) = default;
};

struct Analysis {
  std::string game;  // the game's name ("tablut")
  Settings settings;
  std::vector<TurnEval> turns;
  friend bool operator==(const Analysis&, const Analysis&) = default;
};

// Evaluates every turn of `record` (which need not be finished). `cancel` stops it (an error "cancelled");
// `progress(done, total)` is called after each position searched. Errors: a turn of the record that does not
// replay (cannot happen for a Record read whole), a cancel.
Result<Analysis> analyze(const Record& record, const Settings& settings, const std::atomic<bool>* cancel = nullptr,
                         const std::function<void(int, int)>& progress = {});

// The analysis as the protocol and the store give it (docs/protocol.md, "Analysis"), and back (errors name
// the member at fault).
nlohmann::json to_json(const Analysis& analysis);
Result<Analysis> from_json(const nlohmann::json& json);

// `cinq analyze`'s text: one line per turn, `NUMBER SIDE PLAYED EVAL BEST MARK` (EVAL the mover's win chance
// before the turn, BEST `-` where the turn played is the best found).
std::string text_lines(const Analysis& analysis);

}  // namespace cinq::analysis
