// Bi-litaire: docs/rules/bilitaire.md (turns, rounds, the end).
#include "rules/bilitaire/bilitaire.h"

#include <cassert>

#include "rules/bilitaire/state.h"

namespace cinq::bilitaire {

// --- action codes

namespace {

std::uint64_t field(std::uint64_t code, int at, int bits) {
  return (code >> at) & ((std::uint64_t{1} << bits) - 1);
}
std::uint64_t put(std::uint64_t value, int at) { return value << at; }

}  // namespace

Action encode_remove_marble(int hole) {
  return Action{put(static_cast<std::uint64_t>(Kind::remove_marble), 0) |
                put(static_cast<std::uint64_t>(hole), 8)};
}

// A chain: the start hole, the number of jumps, then two bits of direction per jump.
Action encode_chain(const std::vector<int>& path) {
  assert(path.size() >= 2 && path.size() <= kMaxChain + 1);
  std::uint64_t code = put(static_cast<std::uint64_t>(Kind::chain), 0) |
                       put(static_cast<std::uint64_t>(path[0]), 8) | put(path.size() - 1, 14);
  for (std::size_t i = 1; i < path.size(); ++i) {
    int step = path[i] - path[i - 1];
    Dir d = step == 2 ? Dir::right : step == -2 ? Dir::left : step == 16 ? Dir::up : Dir::down;
    assert(step == 2 || step == -2 || step == 16 || step == -16);
    code |= put(static_cast<std::uint64_t>(d), 19 + 2 * static_cast<int>(i - 1));
  }
  return Action{code};
}

Action encode_push(const Push& p) {
  return Action{put(static_cast<std::uint64_t>(Kind::push), 0) | put(static_cast<std::uint64_t>(p.slot), 8) |
                put(static_cast<std::uint64_t>(p.dir), 12) | put(static_cast<std::uint64_t>(p.distance), 14)};
}

Action encode_remove_tray(int slot) {
  return Action{put(static_cast<std::uint64_t>(Kind::remove_tray), 0) |
                put(static_cast<std::uint64_t>(slot), 8)};
}

Action encode_announce(int k) {
  return Action{put(static_cast<std::uint64_t>(Kind::announce), 0) | put(static_cast<std::uint64_t>(k), 8)};
}

Decoded decode(Action a) {
  Decoded d;
  if (a.is_end_turn()) return d;
  d.kind = static_cast<Kind>(field(a.code, 0, 3));
  switch (d.kind) {
    case Kind::remove_marble:
      d.hole = static_cast<int>(field(a.code, 8, 6));
      break;
    case Kind::chain: {
      d.hole = static_cast<int>(field(a.code, 8, 6));
      int n = static_cast<int>(field(a.code, 14, 5));
      d.path.push_back(d.hole);
      for (int i = 0; i < n; ++i) {
        Dir dir = static_cast<Dir>(field(a.code, 19 + 2 * i, 2));
        d.path.push_back(d.path.back() + 2 * dir_dx(dir) + 16 * dir_dy(dir));
      }
      break;
    }
    case Kind::push:
      d.push = Push{static_cast<int>(field(a.code, 8, 4)), static_cast<Dir>(field(a.code, 12, 2)),
                    static_cast<int>(field(a.code, 14, 2))};
      break;
    case Kind::remove_tray:
      d.slot = static_cast<int>(field(a.code, 8, 4));
      break;
    case Kind::announce:
      d.count = static_cast<int>(field(a.code, 8, 8));
      break;
    case Kind::none:
      break;
  }
  return d;
}

// --- the game

namespace {

class BiGame final : public Game {
 public:
  std::string_view name() const override { return "bi-litaire"; }
  std::string_view record_name() const override { return "BI-LITAIRE"; }
  std::array<char, 2> side_letters() const override { return {'M', 'T'}; }
  const GameWords& words() const override {
    // A score is the marbles left at the end of each player's round as the marble player.
    static constexpr ResultWords kResults[] = {{"score", "{head} — {mine} against {theirs} marbles left",
                                                "{head} — fewer marbles left",
                                                "Draw — {each} marbles left in each round"}};
    static const GameWords kWords = {"Bi-litaire",
        "Solitaire for two: one player jumps marbles, the other moves the trays; two rounds with the roles "
        "swapped, and fewer marbles left wins.",
        {"Marble player", "Tray player"}, false, true, kResults};
    return kWords;
  }
  // Its words in French, the client's (web-client/boards/fr/bi-litaire.js; tests/rules/words_fr_test.cpp compares
  // the sides).
  const GameWords& words_in(std::string_view language) const override {
    static const GameWords kFrench = {"Bi-litaire",
        "Un solitaire à deux\u00a0: l'un fait sauter les billes, l'autre bouge les plateaux\u00a0; deux manches en échangeant les rôles, et celui qui laisse le moins de billes gagne.",
        {"Joueur de billes", "Joueur de plateaux"}, false, true};
    return language == "fr" ? kFrench : words();
  }
  std::string winner_token(int w) const override { return w == 0 ? "1" : "2"; }
  std::span<const OptionSpec> option_specs() const override { return {}; }
  bool has_rounds() const override { return true; }
  std::span<const std::string_view> board_reasons() const override { return kReasons; }
  std::unique_ptr<State> start(const Options&) const override { return std::make_unique<BiState>(); }

 private:
  static constexpr std::string_view kReasons[] = {"score"};
};

}  // namespace

const Game& game() {
  static const BiGame g;
  return g;
}

// --- the state

namespace {
const BiState& as_bilitaire(const State& state) {
  assert(&state.game() == &game());
  return static_cast<const BiState&>(state);
}
}  // namespace

const Board& board_of(const State& state) { return as_bilitaire(state).board(); }
Phase phase_of(const State& state) { return as_bilitaire(state).phase(); }
int left_after(const State& state, int round) { return as_bilitaire(state).left_after(round); }

BiState::BiState(const Board& board, const Setup& setup)
    : board_(board),
      round_(setup.round),
      phase_(setup.phase),
      announced_(setup.announced),
      round1_left_(setup.round1_left) {
  if (phase_ == Phase::tray_done) longest_ = board_.longest_chain();
}

Side BiState::to_move() const {
  return phase_ == Phase::tray || phase_ == Phase::tray_done ? kTraySide : kMarbleSide;
}

void BiState::legal_actions(std::vector<Action>& out) const {
  switch (phase_) {
    case Phase::first_removal:
      for (int h = 0; h < kHoles; ++h)
        if (board_.has_marble(h)) out.push_back(encode_remove_marble(h));
      break;
    case Phase::tray: {
      std::vector<Push> pushes;
      board_.pushes(pushes);
      for (const Push& p : pushes) out.push_back(encode_push(p));
      for (int s = 0; s < kSlots; ++s)
        if (board_.has_tray(s) && board_.tray_empty(s)) out.push_back(encode_remove_tray(s));
      break;
    }
    case Phase::tray_done:
      for (int k = 2; k <= longest_; ++k) out.push_back(encode_announce(k));
      out.push_back(Action::end_turn());
      break;
    case Phase::marbles: {
      std::vector<std::vector<int>> chains;
      board_.chains(announced_ > 0 ? announced_ : 1, chains);
      for (const auto& c : chains) out.push_back(encode_chain(c));
      break;
    }
    case Phase::over:
      break;
  }
}

std::string BiState::action_text(Action a) const {
  Decoded d = decode(a);
  switch (d.kind) {
    case Kind::none:
      return {};
    case Kind::remove_marble:
      return "x " + hole_name(d.hole);
    case Kind::chain: {
      std::string s;
      for (int h : d.path) s += (s.empty() ? "" : " ") + hole_name(h);
      return s;
    }
    case Kind::push:
      return slot_name(d.push.slot) + " " + dir_mark(d.push.dir) + std::to_string(d.push.distance);
    case Kind::remove_tray:
      return "x " + slot_name(d.slot);
    case Kind::announce:
      return "!" + std::to_string(d.count);
  }
  return {};
}

void BiState::apply(Action a) {
  assert(is_legal(a));
  Decoded d = decode(a);
  switch (d.kind) {
    case Kind::none:  // end of the tray player's turn without announcement
      announced_ = 0;
      end_tray_turn();
      break;
    case Kind::remove_marble:
      board_.marbles &= ~(std::uint64_t{1} << d.hole);
      phase_ = Phase::tray;
      break;
    case Kind::chain:
      // The jumper leaves its start, each jumped marble goes at once, the jumper ends on the last hole.
      board_.marbles &= ~(std::uint64_t{1} << d.path.front());
      for (std::size_t i = 1; i < d.path.size(); ++i)
        board_.marbles &= ~(std::uint64_t{1} << ((d.path[i - 1] + d.path[i]) / 2));
      board_.marbles |= std::uint64_t{1} << d.path.back();
      announced_ = 0;
      phase_ = Phase::tray;
      break;
    case Kind::push:
      board_.apply_push(d.push);
      longest_ = board_.longest_chain();
      phase_ = Phase::tray_done;
      break;
    case Kind::remove_tray:
      assert(board_.tray_empty(d.slot));
      board_.trays = static_cast<std::uint16_t>(board_.trays & ~(1u << d.slot));
      longest_ = board_.longest_chain();
      phase_ = Phase::tray_done;
      break;
    case Kind::announce:
      // A legal announcement means a chain of that length exists: the round goes on.
      announced_ = d.count;
      phase_ = Phase::marbles;
      break;
  }
}

void BiState::end_tray_turn() {
  if (board_.has_jump()) {
    phase_ = Phase::marbles;
    return;
  }
  if (round_ == 1) {
    round1_left_ = board_.marble_count();
    round_ = 2;
    board_ = Board::initial();
    phase_ = Phase::first_removal;
  } else {
    round2_left_ = board_.marble_count();
    phase_ = Phase::over;
  }
}

Outcome BiState::outcome() const {
  if (phase_ != Phase::over) return Outcome::ongoing();
  // Player 1 played the marbles in round 1, player 2 in round 2: fewer marbles left is better.
  if (round1_left_ < round2_left_) return Outcome::win(0, "score", score());
  if (round2_left_ < round1_left_) return Outcome::win(1, "score", score());
  return Outcome::draw("score", score());
}

std::string BiState::score() const {
  if (phase_ != Phase::over) return {};
  return std::to_string(round1_left_) + "-" + std::to_string(round2_left_);
}

std::string BiState::fingerprint() const {
  static constexpr const char* kPhases[] = {"first_removal", "tray", "tray_done", "marbles", "over"};
  std::string s = "round " + std::to_string(round_) + " " + kPhases[static_cast<int>(phase_)];
  s += " announced " + std::to_string(announced_);
  s += " left " + std::to_string(round1_left_) + " " + std::to_string(round2_left_);
  s += " trays " + std::to_string(board_.trays) + " marbles " + std::to_string(board_.marbles);
  return s;
}

}  // namespace cinq::bilitaire
