// Game records (docs/notation.md): reading, checking by replay, and writing, for every game.
//
// Reading is done in two steps, as scalachess does: syntax first (`parse_lines`: the lines and their
// tokens, no board), then meaning (`Record::read`: the game is replayed line by line against its rules).
// A record that fails either step gives the first bad line and why, and nothing else: a `Record` exists
// only for a record that is right from end to end.
//
// A `Record` is also the one in-memory form of a game in progress: the server and `cinq play` append
// actions, player lines, timestamps and a declared result to it, and `write()` gives the canonical text.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/game.h"

namespace cinq {

// ---------------------------------------------------------------------------------------------------------
// Syntax: one entry per non-blank line.

struct TurnText {
  char side = 0;                   // the side letter before the first `/`
  std::vector<std::string> items;  // the texts between the `/`s, spaces folded; empty for `B/`

  // turn_text()'s answer, kept: a room writes its whole record after every turn. Items are only ever
  // appended, so the text is good while their count is the one it was made for.
  mutable std::string text_cache;
  mutable std::size_t text_cache_items = static_cast<std::size_t>(-1);
};

struct ResultText {
  std::string winner;  // a side letter, a player number, "draw", or "" for `#= aborted`
  std::string reason;  // "" for aborted
  std::string detail;  // "" when absent
  bool aborted = false;
};

struct Entry {
  enum class Kind { header, players, timestamp, comment, round, turns, ellipsis, result };
  Kind kind = Kind::comment;
  int line = 0;  // 1-based line number in the text

  // header: the game name as written and its options in order; `version` for `#! BALTEK 1.0`
  std::string game;
  std::vector<std::pair<std::string, std::string>> options;
  std::string version;
  // players: (letter, name) pairs
  std::vector<std::pair<char, std::string>> players;
  // timestamp (`YYYY-MM-DD HH:MM:SS`) or comment (the line as written, from its `#`)
  std::string text;
  // round: N of `#- N`; turns: the line's number, 0 for a line of turns written without one (`D/e3 d3/`)
  int number = 0;
  // turns: one or two turns; `ellipsis` when `...` stands in place of the second
  std::vector<TurnText> turns;
  bool ellipsis = false;
  // result
  ResultText result;
};

// A turn as a record writes it: `B/g3 f3/@ c3/`.
std::string turn_text(const TurnText& turn);

// Splits a record into entries and checks each line's form. Errors carry the line.
Result<std::vector<Entry>> parse_lines(std::string_view text);

// ---------------------------------------------------------------------------------------------------------
// Layout without replay: a record as its `#!` line and its entries, each entry the text of one record line
// for it alone. A turn is written without its number (`B/g3 f3/@ c3/`: numbering and pairing are layout), the
// other entries as their line (`A = Ben    D = Ann`, `> 2026-01-02 10:00:00`, `# ...`, `#- 2`, `#= ...`,
// `...`). The store keeps a game in progress in this form (persistence/store.h), one row per entry.

// The text of one entry (a `turns` entry of a Record holds one turn; of a parsed line, its first).
std::string entry_text(const Entry& entry);

// The canonical layout of a record from its `#!` line ("" for none) and its entries' texts: numbered turn
// lines pairing the two sides' turns within a round, aligned, and the lines that fell between the two turns
// of a turn line written after it. Record::write() is layout_record(header_line(), entry_texts(0)).
std::string layout_record(std::string_view header, const std::vector<std::string>& entries);

// A record taken apart: its `#!` line ("" if it has none) and its entries' texts, a turn line giving one
// entry per turn (and one for a `...` standing in place of its second). layout_record() of the parts gives
// the record back in canonical layout. Errors: those of parse_lines.
struct RecordParts {
  std::string header;
  std::vector<std::string> entries;
};
Result<RecordParts> split_record(std::string_view text);

// ---------------------------------------------------------------------------------------------------------
// A checked game record.

class Record {
 public:
  // Reads and replays a whole record. Any error names its line; nothing of a bad record is kept.
  static Result<Record> read(std::string_view text);
  // A new game with no turn yet.
  static Record start(const Game& game, Options options);

  Record(Record&&) noexcept = default;
  Record& operator=(Record&&) noexcept = default;
  Record(const Record& other);
  Record& operator=(const Record& other);
  ~Record();

  const Game& game() const { return *game_; }
  const Options& options() const { return options_; }
  const State& state() const { return *state_; }

  // Turns started so far, both sides counted (an open turn counts).
  int turn_count() const { return turn_count_; }
  // The result: the board's outcome once the board has ended the game, else a declared one, if any.
  std::optional<Outcome> result() const;
  bool finished() const { return result().has_value(); }
  // The result line's text, `B score 2-1`, `draw repetition`, `aborted`; "" while not finished.
  std::string result_text() const;
  // True when the record stops at a `...` (turns not written): it can be shown, not played on.
  bool incomplete() const { return incomplete_; }
  // Player names by side letter as last given ("" if none), in the current round.
  std::string player(char letter) const;

  // --- appending (the server, `cinq play`)
  // Plays a legal action for the side to move and writes it into the record. Errors: the game is over, or
  // the action is not legal now.
  Result<bool> play(Action a);
  // Reads one whole turn `X/a/b/` for the side to move and plays it, or changes nothing and says why.
  Result<bool> play_turn(std::string_view turn_text);
  void add_players(std::vector<std::pair<char, std::string>> players);
  void add_timestamp(std::string timestamp);  // `YYYY-MM-DD HH:MM:SS`
  void add_comment(std::string text);         // without the leading `#`
  // Ends an unfinished game outside the board: resign/time/abandon (winner), agreement/limit (draw), or
  // aborted. Errors if the game is already over or the reason is not an outside-board one for this game.
  Result<bool> declare(const Outcome& outcome);
  // Declares `aborted`.
  Result<bool> abort();

  // The record in canonical form: the `#!` line with the options given, every line in the writer's layout,
  // canonical action texts with annotations, and the result line once the game is over.
  std::string write() const;
  // The `#!` line write() starts with (no newline).
  std::string header_line() const;
  // The record's entries as write() lays them out (see layout_record): those kept, then the results the board
  // decided after the last of them (finished rounds' results, then the game's). A kept entry's text never
  // changes, except that of a turn still open (it grows); the results at the end are not kept (a round's
  // becomes a kept entry, with the same text, when the next round starts). Cheap per turn: entry_texts(K)
  // builds the texts from entry K on only.
  std::size_t entry_count() const;
  std::vector<std::string> entry_texts(std::size_t from = 0) const;

  // The entries as kept (canonical turn items); for tools that show the move list.
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  friend class Replayer;
  Record() = default;
  void close_round_results();
  std::vector<std::string> trailing_results() const;  // the results entry_texts() adds after entries_

  const Game* game_ = nullptr;
  Options options_;
  std::unique_ptr<State> state_;
  std::vector<Entry> entries_;  // header excluded; turn entries hold one turn each
  int turn_count_ = 0;
  bool incomplete_ = false;
  std::optional<Outcome> declared_;
  int written_round_results_ = 0;  // round results already in entries_
  int section_ = 1;                // the round of the last `#- N` entry (1 before any)
};

// The outcome a result line stands for, as the game names it (`B score 2-1`).
std::string result_text(const Game& game, const Outcome& outcome);

}  // namespace cinq
