// Tablut (docs/rules/tablut.md): the contract's Game and State over the board core.
#include "rules/tablut/tablut.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <map>

#include "rules/tablut/board.h"
#include "rules/tablut/state.h"

namespace cinq::tablut {

namespace {

const std::vector<OptionSpec>& specs() {
  static const std::vector<OptionSpec> list = {
      {"first", "attackers", {"attackers", "defenders"}, 0, 0, {}},
      {"king", "armed", {"armed", "unarmed"}, 0, 0, {}},
      {"throne", "special", {"special", "plain"}, 0, 0, {}},
  };
  return list;
}

Rules rules_of(const Options& o) { return Rules{o.get("king") == "armed", o.get("throne") == "special"}; }

constexpr std::array<std::string_view, 4> kReasons = {"escape", "capture", "blocked", "repetition"};

char cell(const Board& b, int sq) {
  switch (b.at(sq)) {
    case kAttacker:
      return 'A';
    case kDefender:
      return 'D';
    case kKing:
      return 'K';
    default:
      break;
  }
  if (is_corner(sq)) return '#';
  if (sq == kThrone && b.rules().special_throne) return '+';
  return '.';
}

std::string hex(const Key& k) {
  std::string s;
  char buf[17];
  for (auto w : k.w) {
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(w));
    s += buf;
  }
  return s;
}

class TablutGame final : public Game {
 public:
  std::string_view name() const override { return "tablut"; }
  std::string_view record_name() const override { return "TABLUT"; }
  std::array<char, 2> side_letters() const override { return {'A', 'D'}; }
  const GameWords& words() const override {
    static const GameWords kWords = {"Tablut",
        "A Norse siege game: the Defenders lead their king to a corner, the Attackers try to surround him.",
        {"Attackers", "Defenders"}, true, false};
    return kWords;
  }
  // Its words in French, the client's (web-client/boards/fr/tablut.js; tests/rules/words_fr_test.cpp compares
  // the sides).
  const GameWords& words_in(std::string_view language) const override {
    static const GameWords kFrench = {"Tablut",
        "Un jeu de siège nordique\u00a0: les Défenseurs mènent leur roi vers un coin, les Attaquants tentent de l'encercler.",
        {"Attaquants", "Défenseurs"}, true, false};
    return language == "fr" ? kFrench : words();
  }
  std::span<const OptionSpec> option_specs() const override { return specs(); }
  std::span<const std::string_view> board_reasons() const override { return kReasons; }
  // Random games end by themselves (captures thin the board out; the king soon finds a corner): in 2000
  // random games, median 270 moves, longest 1444. No option is needed to bound them.
  std::string_view bounded_options() const override { return {}; }

  std::uint64_t perft(const State& state, int depth) const override {
    assert(&state.game() == this);
    const auto& s = static_cast<const TablutState&>(state);
    return tablut::perft(s.board(), s.history(), depth);
  }

  std::unique_ptr<State> start(const Options& options) const override {
    int first = options.get("first") == "attackers" ? 0 : 1;
    return std::make_unique<TablutState>(start_board(rules_of(options), first));
  }
};

}  // namespace

const Game& game() {
  static const TablutGame g;
  return g;
}

// --- TablutState

const Board& board_of(const State& state) {
  assert(&state.game() == &game());
  return static_cast<const TablutState&>(state).board();
}

TablutState::TablutState(const Board& board) : board_(board) {
  history_.push_back(board_.key());
  ending_ = ending_of(board_, history_);
}

std::unique_ptr<State> TablutState::clone() const { return std::make_unique<TablutState>(*this); }

const Game& TablutState::game() const { return tablut::game(); }

void TablutState::legal_actions(std::vector<Action>& out) const {
  if (ending_ != Ending::none) return;
  Move moves[kMaxMoves];
  int n = board_.generate(moves);
  for (int i = 0; i < n; ++i) out.push_back(encode(moves[i]));
}

void TablutState::apply(Action a) {
  assert(ending_ == Ending::none && is_legal(a));
  Undo u = board_.make(decode(a));
  if (u.captures.count > 0) history_.clear();  // a capture starts a new history
  history_.push_back(board_.key());
  ending_ = ending_of(board_, history_);
}

Outcome TablutState::outcome() const {
  switch (ending_) {
    case Ending::escape:
      return Outcome::win(1, "escape");
    case Ending::capture:
      return Outcome::win(0, "capture");
    case Ending::repetition:
      return Outcome::draw("repetition");
    case Ending::blocked:
      return Outcome::win(other(board_.side()), "blocked");
    case Ending::none:
      break;
  }
  return Outcome::ongoing();
}

std::vector<int> TablutState::captured_by(Move m) const {
  Board copy = board_;
  Captures c = copy.make(m).captures;
  std::vector<int> squares(c.squares.begin(), c.squares.begin() + c.count);
  std::sort(squares.begin(), squares.end(), by_column_then_row);
  return squares;
}

std::string TablutState::action_text(Action a) const {
  Move m = decode(a);
  std::string s = square_name(m.from) + " " + square_name(m.to);
  auto captured = captured_by(m);
  if (!captured.empty()) s += " x";
  for (int sq : captured) s += " " + square_name(sq);
  return s;
}

Value TablutState::view() const {
  Value v = Value::object();
  v.set("game", "tablut");
  v.set("options", Value(Value::Object{{"king", board_.rules().armed_king ? "armed" : "unarmed"},
                                       {"throne", board_.rules().special_throne ? "special" : "plain"}}));
  v.set("columns", "abcdefghi");
  // The pieces by square: "A" an attacker, "D" a defender, "K" the king. An object, not a list, so that the
  // merge patch of a move names only the squares it changed (docs/protocol.md, "Positions, patches").
  Value pieces = Value::object();
  int attackers = 0, defenders = 0;
  for (int sq = 0; sq < kSize * kSize; ++sq) {
    std::uint8_t p = board_.at(sq);
    if (p == kEmpty) continue;
    (p == kAttacker ? attackers : defenders) += 1;
    pieces.set(square_name(sq), p == kAttacker ? "A" : p == kKing ? "K" : "D");
  }
  v.set("size", kSize);
  v.set("pieces", std::move(pieces));
  v.set("corners", Value(Value::Array{"a1", "a9", "i1", "i9"}));
  v.set("throne", Value(Value::Object{{"square", "e5"}, {"special", board_.rules().special_throne}}));
  v.set("counts", Value(Value::Object{{"A", attackers}, {"D", defenders}}));
  // No `to_move`: the position's `side` says it, and the view goes whole or patched to every connection.
  // How often the current position has occurred: a third time draws.
  v.set("occurrences", occurrences(history_, board_.key()));
  Outcome o = outcome();
  if (o.over())
    v.set("outcome", Value(Value::Object{
                         {"winner", o.kind == Outcome::Kind::win ? game().winner_token(o.winner) : "draw"},
                         {"reason", o.reason}}));
  else
    v.set("outcome", nullptr);
  return v;
}

std::string TablutState::ascii() const {
  std::string s = "      a b c d e f g h i\n";
  for (int r = kSize - 1; r >= 0; --r) {
    s += "  " + std::to_string(r + 1) + "  ";
    for (int c = 0; c < kSize; ++c) (s += ' ') += cell(board_, r * kSize + c);
    s += '\n';
  }
  Outcome o = outcome();
  if (!o.over())
    s += std::string("  ") + game().side_letter(board_.side()) + " to move\n";
  else
    s += "  game over: " + (o.kind == Outcome::Kind::win ? game().winner_token(o.winner) : "draw") + " " +
         o.reason + "\n";
  return s;
}

// The options that change play, the board, the side to move and the history as a multiset of exact keys
// (only how often each position occurred matters for what follows).
std::string TablutState::fingerprint() const {
  std::string s = "tablut king=";
  s += board_.rules().armed_king ? "armed" : "unarmed";
  s += board_.rules().special_throne ? " throne=special\n" : " throne=plain\n";
  s += game().side_letter(board_.side());
  s += " to move\n";
  for (int r = kSize - 1; r >= 0; --r) {
    for (int c = 0; c < kSize; ++c) s += cell(board_, r * kSize + c);
    s += '\n';
  }
  std::map<Key, int> counts;
  for (const Key& k : history_) ++counts[k];
  s += "history";
  for (const auto& [k, n] : counts) s += " " + hex(k) + "*" + std::to_string(n);
  return s;
}

// --- set-up

Action move(std::string_view from, std::string_view to) {
  auto f = parse_square(from), t = parse_square(to);
  assert(f && t);
  return encode(Move{static_cast<std::uint8_t>(f.value_or(0)), static_cast<std::uint8_t>(t.value_or(0))});
}

Result<std::unique_ptr<State>> position(std::string_view diagram, Side to_move, std::string_view options) {
  auto o = Options::parse_text(specs(), options);
  if (!o) return o.error();
  Board b(rules_of(*o));
  std::array<bool, kSize> seen{};
  int kings = 0;
  std::size_t pos = 0;
  while (pos <= diagram.size()) {
    std::size_t end = std::min(diagram.find('\n', pos), diagram.size());
    std::string line = fold_spaces(diagram.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line[0] < '1' || line[0] > '9') continue;
    int r = line[0] - '1';
    if (line.size() != 2 + 2 * kSize - 1 || line[1] != ' ')
      return make_error(ErrorCode::row_cells, {{"row", line.substr(0, 1)}, {"count", "9"}},
                        "row " + line.substr(0, 1) + ": expected nine cells separated by spaces");
    if (seen[static_cast<std::size_t>(r)])
      return make_error(ErrorCode::row_twice, {{"row", line.substr(0, 1)}},
                        "row " + line.substr(0, 1) + " is given twice");
    seen[static_cast<std::size_t>(r)] = true;
    for (int c = 0; c < kSize; ++c) {
      int sq = r * kSize + c;
      char ch = line[static_cast<std::size_t>(2 + 2 * c)];
      std::uint8_t p = ch == 'A' ? kAttacker : ch == 'D' ? kDefender : ch == 'K' ? kKing : kEmpty;
      if (p == kEmpty && ch != '.' && ch != '#' && ch != '+')
        return make_error(ErrorCode::unknown_cell,
                          {{"square", square_name(sq)}, {"cell", std::string(1, ch)}},
                          square_name(sq) + ": unknown cell '" + std::string(1, ch) + "'");
      if (p != kEmpty && p != kKing && !b.may_stop(p, sq))
        return make_error(ErrorCode::king_square, {{"square", square_name(sq)}},
                          square_name(sq) + ": only the king may stand there");
      if (p == kKing) ++kings;
      b.put(sq, p);
    }
  }
  if (std::count(seen.begin(), seen.end(), true) != kSize)
    return make_error(ErrorCode::diagram_rows, {{"first", "9"}, {"last", "1"}},
                      "a diagram needs the nine rows 9 to 1");
  if (kings != 1) return make_error(ErrorCode::one_king, {}, "a diagram needs exactly one king");
  b.set_side(to_move);
  return std::unique_ptr<State>(std::make_unique<TablutState>(b));
}

}  // namespace cinq::tablut
