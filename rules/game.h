// The rules contract: what every game of Cinq provides, documented once, here.
//
// A game is two objects:
//   - a `Game`: the game's fixed description (its names, side letters, options) and a factory of states;
//   - a `State`: one position of one game in progress, with everything that decides how play goes on
//     (whose turn, what was already done in this turn, scores, rounds, repetition history...).
//
// Turns and actions. Every game is played in *turns*; a turn is one or more *actions* of the side to move,
// and is written in a record as `X/action/action/` (notation.md). The contract carries every shape the five
// games need with one idea: the legal actions are always those available *now*, inside the current turn.
//   - Baltek: up to three actions, a sprint, and an explicit end of turn. `legal_actions()` lists the runs,
//     sprints and kicks still affordable plus `Action::end_turn()`; the turn ends when the player ends it,
//     when nothing is left, or at once on a goal.
//   - Kopf oder Knopf: an optional penalty, an automatic strike, then a move or `pass`. At the start of the
//     turn the legal actions are the penalties and the moves (computed on the board after the strike);
//     applying a penalty leaves the same side to move with the moves left. The strike is not an action: the
//     game writes it as an annotation item (`record_items`) and checks it when read (`read_item`).
//   - Bi-litaire: the tray player's slide or removal, then an optional announcement `!k`, then the end of the
//     turn (`end_turn` is legal once the tray action is made); the marble player's jump or chain is one action.
//   - Tablut and Batik: one action per turn (a move, a drop); the turn ends by itself.
//   - Rounds and matches (Bi-litaire's two rounds, a Batik match): `round()` counts them from 1; when a round
//     ends the state moves on to the next one by itself. A round that is closed by its own result line (a
//     Batik game inside a match) reports it through `round_result()`.
// A turn is over when `mid_turn()` is false again (or the game is over). Outside-board endings (resignation,
// time, agreement, abort) are not the rules' business: records and rooms hold them beside the state.
//
// Text. Every action has one canonical notation text (`action_text`). Text from outside is read by
// `read_item`, which by default finds the legal action whose text matches (so reading and writing cannot
// drift apart); games override it to accept the alternative forms notation.md allows and to give precise
// errors. Errors on untrusted text are values (`Result`), never exceptions. Inside the core, invariants are
// asserts: `apply` must only be given an action from `legal_actions()`.
//
// Sides are numbered 0 and 1 in the order of notation.md's side-letter table (Baltek: 0 = Blue `B`).
#pragma once

#include <array>
#include <cassert>
#include <climits>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "rules/value.h"

namespace cinq {

// An error a person can read: what was wrong with a piece of untrusted input. `line` is the record line at
// fault (1-based) when the input was a record, 0 otherwise. `code` says what was wrong in a stable word
// (rules/errors.inc lists every code with the names of its parameters) and `params` the values the text
// names (squares, items as written, side letters, numbers), so that a reader can say it in another language;
// `message` is the English text, for tools and logs.
using ErrorParams = std::vector<std::pair<std::string, std::string>>;
struct Error {
  std::string message;
  int line = 0;
  std::string code;  // empty for an error made outside the rules
  ErrorParams params;
  // "line 4: message", or the message alone.
  std::string text() const { return line > 0 ? "line " + std::to_string(line) + ": " + message : message; }
  // The value of parameter `key`, or "".
  std::string param(std::string_view key) const {
    for (const auto& p : params)
      if (p.first == key) return p.second;
    return {};
  }
};

// The codes of the rules' errors, each with the names of its parameters (rules/errors.inc).
enum class ErrorCode {
#define CINQ_ERROR(code, params) code,
#include "rules/errors.inc"
#undef CINQ_ERROR
};
struct ErrorCodeInfo {
  std::string_view code;
  std::string_view params;  // the parameters' names, space-separated, in the order the sites give them
};
// Every code the rules may give, in the order of errors.inc.
std::span<const ErrorCodeInfo> error_codes();
const ErrorCodeInfo& error_code_info(ErrorCode code);
// Whether `params` are named as `code` says (the sites are checked by tests; make_error asserts it).
bool params_match(ErrorCode code, const ErrorParams& params);

// A value or an error. (std::expected is C++23; this is the part of it we need.)
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// An error without a code: for the layers above the rules (rooms, tools). The rules give every error a code.
inline Error make_error(std::string message, int line = 0) { return Error{std::move(message), line, {}, {}}; }
// An error of the rules: its code, its parameters (named as errors.inc says) and its English text.
inline Error make_error(ErrorCode code, ErrorParams params, std::string message, int line = 0) {
  assert(params_match(code, params));
  return Error{std::move(message), line, std::string(error_code_info(code).code), std::move(params)};
}

using Side = int;  // 0 or 1: the order of notation.md's side-letter table
inline Side other(Side s) { return 1 - s; }

// One action, as small as a chess move: a code only its game interprets. Copyable, comparable, hashable.
struct Action {
  std::uint64_t code = 0;

  // The explicit end of a turn (Baltek's "end turn", Bi-litaire's turn without announcement, an empty
  // turn `B/`). It has no text of its own: in a record it is the end of the turn's text.
  static constexpr Action end_turn() { return Action{~std::uint64_t{0}}; }
  constexpr bool is_end_turn() const { return code == ~std::uint64_t{0}; }
  friend constexpr bool operator==(Action a, Action b) { return a.code == b.code; }
};

// How the game stands. `winner` indexes the game's winner tokens (Game::winner_token): a side for most
// games, a player for Bi-litaire. `reason` is notation.md's result reason (`score`, `escape`, ...);
// `detail` the score text where the game keeps one.
struct Outcome {
  enum class Kind { ongoing, win, draw, aborted };  // aborted: only ever declared, never by the board
  Kind kind = Kind::ongoing;
  int winner = -1;
  std::string reason;
  std::string detail;

  bool over() const { return kind != Kind::ongoing; }
  static Outcome ongoing() { return {}; }
  static Outcome win(int w, std::string reason, std::string detail = {}) {
    return {Kind::win, w, std::move(reason), std::move(detail)};
  }
  static Outcome draw(std::string reason, std::string detail = {}) {
    return {Kind::draw, -1, std::move(reason), std::move(detail)};
  }
  static Outcome aborted() { return {Kind::aborted, -1, {}, {}}; }
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

// One option of a game, from its rules file. An option is either a choice among words or an integer in
// [min, max]; `none_value` (e.g. "off") is the word for "not set" when the option may be absent.
struct OptionSpec {
  std::string key;
  std::string default_value;
  std::vector<std::string> choices;  // empty: an integer option
  int min = 0;
  int max = INT_MAX;
  std::string none_value;  // accepted besides integers ("off"), empty if none
};

// Validated options: every key of the game's specs, with its value (the default where none was given).
class Options {
 public:
  // Checks `given` (key=value pairs, in the order written) against `specs`. Errors name the option.
  static Result<Options> parse(std::span<const OptionSpec> specs,
                               const std::vector<std::pair<std::string, std::string>>& given);
  // Parses `key=value key=value` (space separated), as on the command line.
  static Result<Options> parse_text(std::span<const OptionSpec> specs, std::string_view text);

  const std::string& get(std::string_view key) const;  // asserts the key exists
  int get_int(std::string_view key) const;              // an integer option's value; asserts it is one
  bool is_none(std::string_view key) const;             // the option holds its none_value
  // The options written explicitly, in spec order, as `key=value` (what a writer puts on the #! line).
  const std::vector<std::pair<std::string, std::string>>& explicit_values() const { return explicit_; }
  const std::vector<std::pair<std::string, std::string>>& values() const { return values_; }
  // The explicit options as one text, `key=value key=value` ("" for none): the #! line's options, and the
  // canonical form rooms and the protocol name a game's options by.
  std::string text() const;

 private:
  std::vector<std::pair<std::string, std::string>> values_;
  std::vector<std::pair<std::string, std::string>> explicit_;
};

// Where an item of a turn stands in its turn, for games whose items depend on it (annotations).
struct ItemContext {
  int index = 0;                  // 0 for the first item of the turn
  bool after_annotation = false;  // the previous item of this turn was an annotation
};

// What one item of a record's turn stands for: an action to apply, or a checked annotation (nothing to
// apply: the rules do it by themselves, like Kopf oder Knopf's strike).
struct Item {
  bool annotation = false;
  Action action;
};

class Game;

// How a game words a result its board ends with, where the client's own sentence for that reason does not
// fit (docs/protocol.md, "The games"). Each is a sentence with places: {head} the winner and verb ("Ada (Red)
// wins"), {mine} and {theirs} the winner's and the loser's figures of the result's detail ("10-7"), {each}
// a drawn result's figure. Empty: the client's own sentence.
struct ResultWords {
  std::string_view reason;    // "score"
  std::string_view win;       // a win with figures: "{head} — {mine} against {theirs} marbles left"
  std::string_view win_bare;  // a win without figures: "{head} — fewer marbles left"
  std::string_view draw;      // a draw with figures: "Draw — {each} marbles left in each round"
};

// A game in words, in English: its title, what it is in one line, its sides (docs/rules/GAME.md). The one
// place they are written: the server's game table hands them to the client (docs/protocol.md, "The games"),
// and mails use them.
struct GameWords {
  std::string_view title;                 // "Kopf oder Knopf"
  std::string_view about;                 // the lobby's one line on what the game is
  std::array<std::string_view, 2> sides;  // each side in words, side 0 first: "Attackers", "Defenders"
  bool plural = false;                    // the side words name groups: "the Attackers win"
  // True where a result names a player (1 or 2) rather than a side, the players swapping sides between
  // rounds (Bi-litaire: winner_token).
  bool numbered_players = false;
  // Its results in words, where they differ from every game's (above): the units of its scores.
  std::span<const ResultWords> results = {};
};

class State {
 public:
  virtual ~State() = default;
  virtual std::unique_ptr<State> clone() const = 0;
  virtual const Game& game() const = 0;

  // --- whose turn
  // The side to move. Meaningful while the game is not over.
  virtual Side to_move() const = 0;
  // True once the side to move has made at least one action of its current turn (the turn is open).
  virtual bool mid_turn() const = 0;
  // The round of Bi-litaire or the game of a Batik match, from 1; 1 in the other games.
  virtual int round() const { return 1; }
  // The seat (0 or 1: the player who started the game as side 0, or as side 1) holding side `s` now. Sides
  // and seats are the same in every game but Bi-litaire, whose players swap roles in round 2. An Outcome's
  // winner is a seat too.
  virtual int seat_of(Side s) const { return s; }
  // The result of a finished round, for games that close each round with a result line (a Batik game of a
  // match): asked for every round below round().
  virtual std::optional<Outcome> round_result(int /*round*/) const { return std::nullopt; }

  // --- actions
  // Appends the legal actions of the side to move, now, inside its turn (end_turn() included when the turn
  // may end here). Empty once the game is over.
  virtual void legal_actions(std::vector<Action>& out) const = 0;
  std::vector<Action> legal_actions() const {
    std::vector<Action> out;
    legal_actions(out);
    return out;
  }
  bool is_legal(Action a) const;
  // The canonical notation text of a legal action ("" for end_turn()).
  virtual std::string action_text(Action a) const = 0;
  // The items a writer puts in the record for `a` (legal now): by default its text alone (none for
  // end_turn()). Kopf oder Knopf adds its strike annotation here.
  virtual std::vector<std::string> record_items(Action a) const;
  // Reads one item of a turn (the text between two `/`, spaces already folded to one). By default: the
  // legal action whose text is equal, else an error naming the item. It is also asked, once the game is
  // over, about an item that follows the action that ended it: only an annotation is accepted there.
  virtual Result<Item> read_item(std::string_view text, const ItemContext& ctx) const;
  // Plays a legal action.
  virtual void apply(Action a) = 0;

  // --- the end
  virtual Outcome outcome() const = 0;
  // The score as a result line's detail ("2-1"), first side's figure first; "" when the game keeps no
  // score, or not yet (Bi-litaire before the end of round 2).
  virtual std::string score() const { return {}; }

  // --- showing it
  // Everything a client needs to draw the position (no rules knowledge needed to read it).
  virtual Value view() const = 0;
  // The position as an ASCII diagram, the way the tests and `cinq replay` show it.
  virtual std::string ascii() const = 0;
  // A complete text image of the state: two states that play on identically have the same fingerprint.
  virtual std::string fingerprint() const = 0;
};

class Game {
 public:
  virtual ~Game() = default;
  // The name on the command line and in the protocol: `baltek`, `tablut`, `kopf-oder-knopf`, ...
  virtual std::string_view name() const = 0;
  // The name on the `#!` line, upper case: `BALTEK`, `KOPF-ODER-KNOPF`, ...
  virtual std::string_view record_name() const = 0;
  // The side letters of notation.md, side 0 first.
  virtual std::array<char, 2> side_letters() const = 0;
  // The game in words (title, what it is, its sides).
  virtual const GameWords& words() const = 0;
  // The same in `language` ("fr"; the client's codes), for the server's mails: each game's rules give their
  // words in the languages they know, the same as the client's (web-client/boards/LANGUAGE/NAME.js); English
  // (words()) for the others.
  virtual const GameWords& words_in(std::string_view language) const {
    (void)language;
    return words();
  }
  char side_letter(Side s) const { return side_letters()[static_cast<std::size_t>(s)]; }
  // How a result line names winner `w` of an Outcome: the side letter by default, `1`/`2` for Bi-litaire.
  virtual std::string winner_token(int w) const { return std::string(1, side_letter(w)); }
  // The game's options, from its rules file.
  virtual std::span<const OptionSpec> option_specs() const = 0;
  // True for the games whose records have `#- N` lines (Bi-litaire, Batik).
  virtual bool has_rounds() const { return false; }
  // True if a record may leave the `#!` line out (Baltek only, as in the seed).
  virtual bool header_optional() const { return false; }
  // Result reasons that only the board can give in this game (`escape`, `score`, ...): a record may not
  // declare them while the board has not. Other reasons are the generic outside-board ones.
  virtual std::span<const std::string_view> board_reasons() const = 0;
  // Options under which random play ends within a few thousand actions (the conformance suite's bound).
  virtual std::string_view bounded_options() const { return {}; }

  // The number of action sequences of `depth` actions from `state` (a state whose game is over is not
  // expanded further; actions into it still count). The default clones through this contract; a game may
  // override it with a faster walk over its own type.
  virtual std::uint64_t perft(const State& state, int depth) const;

  // The initial state under validated options.
  virtual std::unique_ptr<State> start(const Options& options) const = 0;
  // Convenience for tests and tools: `key=value ...` text, checked.
  Result<std::unique_ptr<State>> start(std::string_view options_text) const;
};

// Folds runs of spaces and tabs into one space and trims both ends: the form items are compared in.
std::string fold_spaces(std::string_view text);
// The words of a folded item, split at its single spaces (views into `folded`).
std::vector<std::string_view> split_words(std::string_view folded);

}  // namespace cinq
