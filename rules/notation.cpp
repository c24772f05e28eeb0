// Records, step two: replaying the lines against the rules, and writing a record back (notation.md).
#include "rules/notation.h"
#include "rules/turn.h"

#include <algorithm>

#include "rules/registry.h"

namespace cinq {

namespace {

constexpr std::string_view kWinReasons[] = {"resign", "time", "abandon"};
constexpr std::string_view kDrawReasons[] = {"agreement", "limit"};

template <class Range>
bool contains(const Range& r, std::string_view x) {
  return std::find(std::begin(r), std::end(r), x) != std::end(r);
}

// Batik's `#- N` starts a game of a match; Bi-litaire's a round.
std::string round_word(const Game& g) { return g.name() == "batik" ? "game" : "round"; }

std::string side_list(const Game& g) {
  auto l = g.side_letters();
  return std::string(1, l[0]) + " or " + std::string(1, l[1]);
}

// Checks a result that is not the board's against the game: which reasons may be declared. `limit` is the
// board's own in a game that has a turn-limit option (Baltek).
std::optional<Error> check_declared(const Game& g, const Outcome& o) {
  if (o.kind == Outcome::Kind::aborted) return std::nullopt;
  if (contains(g.board_reasons(), o.reason))
    return make_error(ErrorCode::reason_not_on_board, {{"reason", o.reason}},
                      "the board does not give '" + o.reason + "' here: the game is not over");
  if (o.kind == Outcome::Kind::win) {
    if (contains(kWinReasons, o.reason)) return std::nullopt;
    if (contains(kDrawReasons, o.reason))
      return make_error(ErrorCode::reason_is_draw, {{"reason", o.reason}},
                        "'" + o.reason + "' is a draw: write #= draw " + o.reason);
  } else if (o.kind == Outcome::Kind::draw) {
    if (contains(kDrawReasons, o.reason)) return std::nullopt;
    if (contains(kWinReasons, o.reason))
      return make_error(ErrorCode::reason_names_winner, {{"reason", o.reason}},
                        "'" + o.reason + "' names a winner, not a draw");
  } else {
    return make_error(ErrorCode::declared_ongoing, {}, "a game cannot be declared ongoing");
  }
  return make_error(ErrorCode::unknown_reason, {{"reason", o.reason}},
                    "unknown result reason '" + o.reason + "'");
}

// A side letter that is not one of the game's, on a turn or a player line.
Error not_a_side(const Game& g, char letter) {
  return make_error(ErrorCode::not_a_side,
                    {{"letter", std::string(1, letter)},
                     {"game", std::string(g.record_name())},
                     {"first_letter", std::string(1, g.side_letter(0))},
                     {"second_letter", std::string(1, g.side_letter(1))}},
                    std::string("'") + letter + "' is not a side of " + std::string(g.record_name()) + " (" +
                        side_list(g) + ")");
}

// A round's number said with the game's word for it: Batik's `#- N` starts a game of a match (the codes
// `match_game_*`), Bi-litaire's a round (`round_*`).
Error round_error(const Game& g, ErrorCode round, ErrorCode match_game, ErrorParams params,
                  std::string message) {
  return make_error(g.name() == "batik" ? match_game : round, std::move(params), std::move(message));
}

}  // namespace

std::string result_text(const Game& game, const Outcome& o) {
  switch (o.kind) {
    case Outcome::Kind::ongoing:
      return {};
    case Outcome::Kind::aborted:
      return "aborted";
    case Outcome::Kind::win:
    case Outcome::Kind::draw: {
      std::string s = o.kind == Outcome::Kind::win ? game.winner_token(o.winner) : "draw";
      s += " " + o.reason;
      if (!o.detail.empty()) s += " " + o.detail;
      return s;
    }
  }
  return {};
}

// ---------------------------------------------------------------------------------------------------------
// Record: copying, querying, appending.

Record::Record(const Record& other)
    : game_(other.game_),
      options_(other.options_),
      state_(other.state_ ? other.state_->clone() : nullptr),
      entries_(other.entries_),
      turn_count_(other.turn_count_),
      incomplete_(other.incomplete_),
      declared_(other.declared_),
      written_round_results_(other.written_round_results_),
      section_(other.section_) {}

Record& Record::operator=(const Record& other) {
  if (this != &other) {
    Record copy(other);
    *this = std::move(copy);
  }
  return *this;
}

Record::~Record() = default;

Record Record::start(const Game& game, Options options) {
  Record r;
  r.game_ = &game;
  r.state_ = game.start(options);
  r.options_ = std::move(options);
  return r;
}

std::optional<Outcome> Record::result() const {
  if (state_ && state_->outcome().over()) return state_->outcome();
  return declared_;
}

std::string Record::result_text() const {
  auto r = result();
  return r ? cinq::result_text(*game_, *r) : std::string();
}

std::string Record::player(char letter) const {
  std::string name;
  for (const Entry& e : entries_) {
    if (e.kind == Entry::Kind::round) name.clear();
    if (e.kind == Entry::Kind::players)
      for (const auto& [l, n] : e.players)
        if (l == letter) name = n;
  }
  return name;
}

void Record::add_players(std::vector<std::pair<char, std::string>> players) {
  Entry e;
  e.kind = Entry::Kind::players;
  e.players = std::move(players);
  entries_.push_back(std::move(e));
}

void Record::add_timestamp(std::string timestamp) {
  Entry e;
  e.kind = Entry::Kind::timestamp;
  e.text = std::move(timestamp);
  entries_.push_back(std::move(e));
}

void Record::add_comment(std::string text) {
  Entry e;
  e.kind = Entry::Kind::comment;
  e.text = "# " + text;
  entries_.push_back(std::move(e));
}

// Writes the result line of every finished round that has none yet (a Batik game inside a match).
void Record::close_round_results() {
  while (written_round_results_ + 1 < state_->round()) {
    ++written_round_results_;
    if (auto o = state_->round_result(written_round_results_)) {
      Entry e;
      e.kind = Entry::Kind::result;
      e.number = written_round_results_;  // marks a round's result
      e.result.winner = o->kind == Outcome::Kind::win ? game_->winner_token(o->winner) : "draw";
      e.result.reason = o->reason;
      e.result.detail = o->detail;
      entries_.push_back(std::move(e));
    }
  }
}

namespace {

void append_final_result(std::vector<Entry>& entries, const Game& game, const Outcome& o) {
  Entry e;
  e.kind = Entry::Kind::result;
  e.result.aborted = o.kind == Outcome::Kind::aborted;
  if (!e.result.aborted) {
    e.result.winner = o.kind == Outcome::Kind::win ? game.winner_token(o.winner) : "draw";
    e.result.reason = o.reason;
    e.result.detail = o.detail;
  }
  entries.push_back(std::move(e));
}

}  // namespace

Result<bool> Record::play(Action a) {
  if (finished())
    return make_error(ErrorCode::game_over, {{"result", result_text()}},
                      "the game is over (" + result_text() + ")");
  if (incomplete_)
    return make_error(ErrorCode::record_incomplete, {},
                      "the record stops at '...': turns are missing, it cannot go on");
  if (!state_->is_legal(a)) return make_error(ErrorCode::action_not_legal, {}, "not a legal action here");
  if (!state_->mid_turn()) {
    if (state_->round() > section_) {
      close_round_results();
      Entry r;
      r.kind = Entry::Kind::round;
      r.number = section_ = state_->round();
      entries_.push_back(std::move(r));
    }
    Entry t;
    t.kind = Entry::Kind::turns;
    TurnText turn;
    turn.side = game_->side_letter(state_->to_move());
    t.turns.push_back(std::move(turn));
    entries_.push_back(std::move(t));
    ++turn_count_;
  }
  auto it = std::find_if(entries_.rbegin(), entries_.rend(),
                         [](const Entry& e) { return e.kind == Entry::Kind::turns; });
  for (auto& item : state_->record_items(a)) it->turns.back().items.push_back(std::move(item));
  state_->apply(a);
  // The board's own result line is not stored here: write() puts it at the end (or the reader where the
  // record had it), so that lines written after the last turn stay before it.
  return true;
}

Result<bool> Record::declare(const Outcome& outcome) {
  if (finished())
    return make_error(ErrorCode::game_over, {{"result", result_text()}},
                      "the game is over (" + result_text() + ")");
  if (auto why = check_declared(*game_, outcome)) return *why;
  if (outcome.kind == Outcome::Kind::win && outcome.winner != 0 && outcome.winner != 1)
    return make_error(ErrorCode::no_such_winner, {}, "no such winner");
  Outcome o = outcome;
  if (o.kind != Outcome::Kind::aborted) o.detail = state_->score();
  declared_ = o;
  close_round_results();
  append_final_result(entries_, *game_, o);
  return true;
}

Result<bool> Record::abort() { return declare(Outcome::aborted()); }

// ---------------------------------------------------------------------------------------------------------
// Replaying: the shared turn logic and the line-by-line reader.

class Replayer {
 public:
  // Plays one turn's text on `r` (its side letter and items), appending its canonical form.
  static Result<bool> play_turn(Record& r, const TurnText& t) {
    const Game& g = *r.game_;
    State& s = *r.state_;
    auto letters = g.side_letters();
    if (t.side != letters[0] && t.side != letters[1]) return not_a_side(g, t.side);
    if (r.finished())
      return make_error(ErrorCode::game_over_no_turn, {{"result", r.result_text()}},
                        "the game is over (" + r.result_text() + "): no turn may follow");
    char to_move = g.side_letter(s.to_move());
    if (t.side != to_move)
      return make_error(ErrorCode::wrong_side,
                        {{"side", std::string(1, to_move)}, {"written_side", std::string(1, t.side)}},
                        std::string("it is ") + to_move + "'s turn, not " + t.side + "'s");
    TurnRequest request;
    request.items = t.items;
    auto played = play_items(s, request, [&r](Action a) { return r.play(a); });
    if (!played) return played.error();
    return true;
  }

  static Result<Record> read(std::string_view text) {
    auto lines = parse_lines(text);
    if (!lines) return lines.error();
    Replayer rp;
    for (const Entry& e : *lines) {
      if (auto err = rp.step(e)) {
        err->line = e.line;
        return *err;
      }
    }
    if (!rp.r_.game_) {  // an empty record: a Baltek game that has not started
      if (auto err = rp.start(nullptr, 1)) return *err;
    }
    return std::move(rp.r_);
  }

 private:
  std::optional<Error> start(const Entry* header, int line) {
    const Game* g = nullptr;
    std::vector<std::pair<std::string, std::string>> given;
    if (header) {
      g = find_game(header->game);
      std::string upper;
      for (const Game* x : games()) upper += (upper.empty() ? "" : ", ") + std::string(x->record_name());
      if (!g)
        return make_error(ErrorCode::unknown_game, {{"game", header->game}, {"games", upper}},
                          "unknown game '" + header->game + "' (" + upper + ")", line);
      if (!header->version.empty()) {
        if (!g->header_optional())
          return make_error(ErrorCode::version_not_option, {{"version", header->version}},
                            "'" + header->version + "' is not an option (write key=value)", line);
        if (header->version != "1.0" && header->version != "1.1")
          return make_error(ErrorCode::unknown_version, {{"version", header->version}},
                            "unknown rules version " + header->version + " (1.0 or 1.1)", line);
      }
      given = header->options;
    } else {
      g = find_game("baltek");
      if (!g) return make_error(ErrorCode::no_header, {}, "the record has no #! line naming its game", line);
    }
    if (!header && !g->header_optional())
      return make_error(ErrorCode::header_required, {},
                        "the record must start with a #! line naming its game", line);
    auto options = Options::parse(g->option_specs(), given);
    if (!options) {
      Error e = options.error();
      e.line = line;
      return e;
    }
    r_ = Record::start(*g, std::move(*options));
    return std::nullopt;
  }

  std::optional<Error> step(const Entry& e) {
    using K = Entry::Kind;
    if (e.kind == K::header) return start(&e, e.line);
    if (!r_.game_)
      if (auto err = start(nullptr, e.line)) return err;
    const Game& g = *r_.game_;
    const State& s = *r_.state_;
    switch (e.kind) {
      case K::header:
        break;
      case K::comment:
      case K::timestamp:
        r_.entries_.push_back(e);
        break;
      case K::players:
        if (final_result_)
          return make_error(ErrorCode::players_after_result, {}, "a player line after the result line");
        if (r_.incomplete_) return only_comments_after_ellipsis();
        for (const auto& [letter, name] : e.players)
          if (letter != g.side_letter(0) && letter != g.side_letter(1)) return not_a_side(g, letter);
        r_.entries_.push_back(e);
        break;
      case K::round: {
        if (!g.has_rounds())
          return make_error(ErrorCode::no_rounds, {},
                            "'#- N' lines are only for Batik games and Bi-litaire rounds");
        if (r_.incomplete_) return only_comments_after_ellipsis();
        if (final_result_)
          return make_error(ErrorCode::round_after_result, {},
                            "the game is over: no round may follow the result line");
        int section = r_.section_;
        if (e.number == 1 && section == 1 && r_.turn_count_ == 0 && !saw_round_) {
          saw_round_ = true;
          r_.entries_.push_back(e);
          break;
        }
        if (e.number != section + 1)
          return make_error(ErrorCode::expected_round,
                            {{"expected", std::to_string(section + 1)}, {"found", std::to_string(e.number)}},
                            "expected '#- " + std::to_string(section + 1) + "', found '#- " +
                                std::to_string(e.number) + "'");
        if (s.round() < e.number)
          return round_error(g, ErrorCode::round_not_over, ErrorCode::match_game_not_over,
                             {{"n", std::to_string(section)}, {"found", std::to_string(e.number)}},
                             round_word(g) + " " + std::to_string(section) + " is not over: '#- " +
                                 std::to_string(e.number) + "' cannot start yet");
        r_.close_round_results();
        r_.entries_.push_back(e);
        r_.section_ = e.number;
        saw_round_ = true;
        half_line_ = false;
        next_line_ = 1;
        break;
      }
      case K::turns: {
        if (final_result_)
          return make_error(ErrorCode::turn_after_result, {},
                            "the game is over: no turn may follow the result line");
        if (r_.incomplete_) return make_error(ErrorCode::turn_after_ellipsis, {}, "no turn may follow '...'");
        if (s.outcome().over())
          return make_error(ErrorCode::game_over_no_turn, {{"result", r_.result_text()}},
                            "the game is over (" + r_.result_text() + "): no turn may follow");
        int section = r_.section_;
        if (s.round() > section)
          return round_error(g, ErrorCode::round_over, ErrorCode::match_game_over,
                             {{"n", std::to_string(section)}, {"next", std::to_string(section + 1)}},
                             round_word(g) + " " + std::to_string(section) + " is over: write '#- " +
                                 std::to_string(section + 1) + "' before its turns");
        // A line holding only the second side's turn, numbered as the line it completes or not numbered,
        // continues a line that stopped after the first side's turn (how a mailed log grows).
        const bool continues = half_line_ && e.turns.size() == 1 && !e.ellipsis &&
                               (e.number == 0 || e.number == next_line_ - 1);
        if (half_line_ && !continues) return half_line_error(g, s, e);
        if (!continues && e.number != 0 && e.number != next_line_)
          return make_error(
              ErrorCode::expected_turn_line,
              {{"expected", std::to_string(next_line_)}, {"found", std::to_string(e.number)}},
              "expected turn line " + std::to_string(next_line_) + ", found " + std::to_string(e.number));
        for (std::size_t i = 0; i < e.turns.size(); ++i) {
          if (s.round() > section)
            return round_error(g, ErrorCode::round_ended_in_line, ErrorCode::match_game_ended_in_line,
                               {{"n", std::to_string(section)}, {"next", std::to_string(section + 1)}},
                               round_word(g) + " " + std::to_string(section) +
                                   " ended with the first turn of this line: the next turn starts '#- " +
                                   std::to_string(section + 1) + "'");
          auto ok = Replayer::play_turn(r_, e.turns[i]);
          if (!ok) {
            Error err = ok.error();
            err.line = 0;  // the caller names the line
            return err;
          }
        }
        if (continues) {
          half_line_ = false;
          break;
        }
        ++next_line_;
        if (e.ellipsis && s.outcome().over()) return game_over_no_ellipsis();
        if (e.ellipsis) {
          r_.incomplete_ = true;
          Entry dots;
          dots.kind = K::ellipsis;
          r_.entries_.push_back(std::move(dots));
        }
        half_line_ = e.turns.size() == 1 && !s.outcome().over() && s.round() == section;
        if (half_line_) half_side_ = e.turns.front().side;
        break;
      }
      case K::ellipsis:
        if (r_.incomplete_) return make_error(ErrorCode::second_ellipsis, {}, "a second '...'");
        if (final_result_)
          return make_error(ErrorCode::ellipsis_after_result, {}, "'...' after the result line");
        if (s.outcome().over()) return game_over_no_ellipsis();
        r_.incomplete_ = true;
        r_.entries_.push_back(e);
        break;
      case K::result:
        return read_result(e.result);
    }
    return std::nullopt;
  }

  // A side in words, as a player knows it: "the Attackers' (A)", "Red's (R)".
  static std::string sides_of(const Game& g, char letter) {
    const int side = letter == g.side_letter(1) ? 1 : 0;
    const std::string name(g.words().sides[static_cast<std::size_t>(side)]);
    return (g.words().plural ? "the " : "") + name + (name.ends_with('s') ? "'" : "'s");
  }

  // Why a turn line cannot follow a line that stopped after its first turn, said as what the player wrote
  // and what to write instead: the usual slips in a mailed log are a new line for the side that just moved,
  // and the second side's turn under the next number.
  Error half_line_error(const Game& g, const State& s, const Entry& e) const {
    const std::string stopped = std::to_string(next_line_ - 1);
    const std::string here = e.number != 0 ? "turn line " + std::to_string(e.number) : "this turn line";
    const char next = g.side_letter(s.to_move());
    const std::string first = sides_of(g, half_side_), second = sides_of(g, next);
    const std::string fix = "write " + second + " turn after " + first + " on turn line " + stopped +
                            ", or alone on a line with no number (or numbered " + stopped + ")";
    ErrorParams params = {{"stopped", stopped},
                          {"first_side", std::string(1, half_side_)},
                          {"second_side", std::string(1, next)}};
    if (!e.turns.empty() && e.turns.front().side == half_side_)
      return make_error(ErrorCode::half_line_repeats, std::move(params),
                        here + " gives " + first + " turn again: each line holds one turn of each side, " +
                            first + " then " + second + ", and turn line " + stopped + " still waits for " +
                            second + " turn: " + fix);
    if (!e.turns.empty() && e.turns.front().side == next && e.turns.size() == 1)
      return make_error(
          ErrorCode::half_line_completes, std::move(params),
          here + " holds " + second + " turn, which completes turn line " + stopped + ": " + fix);
    if (e.number == 0 || e.number == next_line_ - 1)
      return make_error(
          ErrorCode::half_line_alone, std::move(params),
          "a line completing turn line " + stopped + " holds " + second + " turn alone: " + fix);
    return make_error(ErrorCode::half_line_waits, std::move(params),
                      here + " cannot follow turn line " + stopped + ", which still waits for " + second +
                          " turn alone: " + fix);
  }

  static Error only_comments_after_ellipsis() {
    return make_error(ErrorCode::only_comments_after_ellipsis, {},
                      "only comments and timestamps may follow '...'");
  }

  Error game_over_no_ellipsis() const {
    return make_error(ErrorCode::game_over_no_ellipsis, {{"result", r_.result_text()}},
                      "the game is over (" + r_.result_text() + "): '...' cannot stand for more turns");
  }

  static Error score_differs(const std::string& score, const std::string& written) {
    return make_error(ErrorCode::score_differs, {{"score", score}, {"written", written}},
                      "the score is " + score + ", not " + written);
  }

  std::optional<Error> read_result(const ResultText& rt) {
    const Game& g = *r_.game_;
    const State& s = *r_.state_;
    if (r_.incomplete_) return make_error(ErrorCode::result_after_ellipsis, {}, "no result may follow '...'");
    if (final_result_) return make_error(ErrorCode::second_result, {}, "a second result line");
    // A finished round's own result line (a Batik game inside a match).
    int section = r_.section_;
    if (s.round() > section && r_.written_round_results_ < section) {
      if (auto o = s.round_result(section)) {
        std::string winner = o->kind == Outcome::Kind::win ? g.winner_token(o->winner) : "draw";
        if (rt.aborted || rt.winner != winner || rt.reason != o->reason ||
            (!rt.detail.empty() && rt.detail != o->detail))
          return round_error(
              g, ErrorCode::round_result, ErrorCode::match_game_result,
              {{"n", std::to_string(section)}, {"result", result_text(g, *o)}},
              round_word(g) + " " + std::to_string(section) + " ended '" + result_text(g, *o) + "'");
        r_.close_round_results();
        return std::nullopt;
      }
    }
    final_result_ = true;
    Outcome declared;
    if (rt.aborted) {
      declared = Outcome::aborted();
    } else {
      int winner = -1;
      for (int w = 0; w < 2; ++w)
        if (g.winner_token(w) == rt.winner) winner = w;
      if (rt.winner == "draw") {
        declared = Outcome::draw(rt.reason);
      } else if (winner < 0) {
        return make_error(
            ErrorCode::unknown_winner,
            {{"winner", rt.winner}, {"first", g.winner_token(0)}, {"second", g.winner_token(1)}},
            "unknown winner '" + rt.winner + "' (" + g.winner_token(0) + ", " + g.winner_token(1) +
                " or draw)");
      } else {
        declared = Outcome::win(winner, rt.reason);
      }
    }
    const Outcome board = s.outcome();
    if (board.over()) {
      std::string want = result_text(g, board);
      if (declared.kind == Outcome::Kind::aborted || declared.reason != board.reason)
        return make_error(ErrorCode::moves_end_game, {{"result", want}},
                          "the moves end the game: the result is '" + want + "'");
      if (declared.kind != board.kind || declared.winner != board.winner)
        return make_error(ErrorCode::result_differs,
                          {{"result", want}, {"written", rt.winner + " " + rt.reason}},
                          "the result is '" + want + "', not '" + rt.winner + " " + rt.reason + "'");
      if (!rt.detail.empty() && rt.detail != board.detail) {
        if (board.detail.empty())
          return make_error(ErrorCode::no_result_detail, {{"game", std::string(g.record_name())}},
                            "a " + std::string(g.record_name()) + " result takes no detail");
        return score_differs(board.detail, rt.detail);
      }
      write_board_result();
      return std::nullopt;
    }
    if (auto why = check_declared(g, declared)) return why;
    if (!rt.detail.empty()) {
      std::string score = s.score();
      if (score.empty())
        return make_error(ErrorCode::no_score_detail, {}, "no score detail may follow this result here");
      if (score != rt.detail) return score_differs(score, rt.detail);
    }
    auto ok = r_.declare(declared);
    if (!ok) return ok.error();
    return std::nullopt;
  }

  // The board's result line was read: it stands here in the canonical record.
  void write_board_result() {
    r_.close_round_results();
    append_final_result(r_.entries_, *r_.game_, r_.state_->outcome());
  }

  Record r_;
  bool final_result_ = false;
  bool saw_round_ = false;
  bool half_line_ = false;
  int next_line_ = 1;
  char half_side_ = 0;  // the side of the one turn on a line that stopped after it (half_line_)
};

Result<Record> Record::read(std::string_view text) { return Replayer::read(text); }

Result<bool> Record::play_turn(std::string_view turn_text) {
  std::string line = "1 " + std::string(turn_text);
  auto entries = parse_lines(line);
  if (!entries) {
    Error e = entries.error();
    e.line = 0;
    return e;
  }
  if (entries->size() != 1 || entries->front().turns.size() != 1 || entries->front().ellipsis)
    return make_error(ErrorCode::expected_one_turn, {}, "expected one turn, like B/g3 f3/");
  if (incomplete_)
    return make_error(ErrorCode::record_incomplete, {},
                      "the record stops at '...': turns are missing, it cannot go on");
  Record copy(*this);
  auto ok = Replayer::play_turn(copy, entries->front().turns.front());
  if (!ok) return ok.error();
  *this = std::move(copy);
  return true;
}

}  // namespace cinq
