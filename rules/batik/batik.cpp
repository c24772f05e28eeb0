// Batik (docs/rules/batik.md): the game, the turns, the end of a game and the match.
#include "rules/batik/batik.h"

#include <algorithm>

#include "rules/batik/state.h"
#include "rules/batik/view.h"

namespace cinq::batik {

namespace {

constexpr unsigned kAllPieces = (1u << 9) - 1;

unsigned bit(int piece) { return 1u << piece; }

class BatikGame final : public Game {
 public:
  std::string_view name() const override { return "batik"; }
  std::string_view record_name() const override { return "BATIK"; }
  std::array<char, 2> side_letters() const override { return {'C', 'F'}; }
  const GameWords& words() const override {
    static const GameWords kWords = {"Batik",
        "Pieces dropped into a frame fall and settle; whoever makes one stick out above the rim loses.",
        {"Light", "Dark"}, false, false};
    return kWords;
  }
  // Its words in French, the client's (web-client/boards/fr/batik.js; tests/rules/words_fr_test.cpp compares
  // the sides).
  const GameWords& words_in(std::string_view language) const override {
    static const GameWords kFrench = {"Batik",
        "Les pièces lâchées dans un cadre tombent et se calent\u00a0; celui dont une pièce dépasse du bord perd.",
        {"Clair", "Foncé"}, false, false};
    return language == "fr" ? kFrench : words();
  }
  std::span<const OptionSpec> option_specs() const override {
    static const std::vector<OptionSpec> specs = {{"match", "on", {"on", "off"}, 0, 0, ""}};
    return specs;
  }
  bool has_rounds() const override { return true; }
  std::span<const std::string_view> board_reasons() const override {
    static constexpr std::string_view reasons[] = {"overflow", "exhausted"};
    return reasons;
  }
  // A match is bounded without options: every game takes a piece from a set for good.
  std::string_view bounded_options() const override { return {}; }
  std::unique_ptr<State> start(const Options& options) const override {
    return std::make_unique<BatikState>(options.get("match") == "on");
  }
};

}  // namespace

const Game& game() {
  static const BatikGame g;
  return g;
}

Action encode(const Drop& d) {
  return Action{static_cast<std::uint64_t>(d.piece) | static_cast<std::uint64_t>(d.flipped) << 4 |
                static_cast<std::uint64_t>(d.angle) << 5 | static_cast<std::uint64_t>(d.x) << 10};
}

Drop decode(Action a) {
  return {static_cast<int>(a.code & 15), ((a.code >> 4) & 1) != 0, static_cast<int>((a.code >> 5) & 31),
          static_cast<int>((a.code >> 10) & 127)};
}

int piece_index(std::string_view id) {
  const auto& set = standard_set();
  for (std::size_t i = 0; i < set.size(); ++i)
    if (set[i].id == id) return static_cast<int>(i);
  return -1;
}

const BatikState& as_batik(const State& s) {
  assert(&s.game() == &game());
  return static_cast<const BatikState&>(s);
}

std::unique_ptr<State> make_state(bool match, Side to_move, std::vector<Body> frame,
                                  std::array<unsigned, 2> lost) {
  auto s = std::make_unique<BatikState>(match);
  s->set_frame(std::move(frame), to_move, lost);
  return s;
}

const std::vector<Body>& frame_of(const State& s) { return as_batik(s).frame(); }
const LastFall* last_fall_of(const State& s) { return as_batik(s).last_fall(); }
bool is_match(const State& s) { return as_batik(s).match(); }
unsigned available_of(const State& s, Side side) { return as_batik(s).available(side); }
unsigned lost_of(const State& s, Side side) { return as_batik(s).lost(side); }

unsigned BatikState::available(Side side) const {
  auto i = static_cast<std::size_t>(side);
  return kAllPieces & ~lost_[i] & ~dropped_[i];
}

void BatikState::set_frame(std::vector<Body> frame, Side to_move, std::array<unsigned, 2> lost) {
  assert(match_ || (lost == std::array<unsigned, 2>{}));
  lost_ = lost;
  frame_ = std::move(frame);
  dropped_ = {};
  for (const Body& b : frame_) dropped_[static_cast<std::size_t>(b.owner)] |= bit(b.piece);
  to_move_ = to_move;
  check_exhausted();
}

std::optional<Outcome> BatikState::round_result(int round) const {
  if (round < 1 || round >= game_) return std::nullopt;
  return Outcome::win(game_winners_[static_cast<std::size_t>(round - 1)], "overflow");
}

void BatikState::legal_actions(std::vector<Action>& out) const {
  if (outcome_.over()) return;
  unsigned mine = available(to_move_);
  const Shapes& shapes = standard_shapes();
  for (int piece = 0; piece < static_cast<int>(shapes.size()); ++piece) {
    if (!(mine & bit(piece))) continue;
    for (int f = 0; f < 2; ++f)
      for (int angle = 0; angle < kAngles; ++angle) {
        int max_x = shapes[static_cast<std::size_t>(piece)][static_cast<std::size_t>(f)]
                        .max_x[static_cast<std::size_t>(angle)];
        for (int x = 0; x <= max_x; ++x) out.push_back(encode({piece, f == 1, angle, x}));
      }
  }
}

std::string BatikState::action_text(Action a) const {
  if (a.is_end_turn()) return {};
  return drop_text(decode(a));
}

void BatikState::apply(Action a) {
  assert(!outcome_.over());
  Drop d = decode(a);
  assert(available(to_move_) & bit(d.piece));
  const Shapes& shapes = standard_shapes();
  const Shape& shape = shapes[static_cast<std::size_t>(d.piece)][d.flipped ? 1 : 0];
  assert(d.angle >= 0 && d.angle < kAngles && d.x >= 0 &&
         d.x <= shape.max_x[static_cast<std::size_t>(d.angle)]);

  auto last = std::make_shared<LastFall>();
  last->game = game_;
  last->side = to_move_;
  last->drop = d;
  last->bodies = frame_;
  last->bodies.push_back({to_move_, d.piece, d.flipped, release_pose(shape, d.angle, d.x)});
  last->fall = simulate(shapes, last->bodies);

  frame_ = last->bodies;
  for (std::size_t i = 0; i < frame_.size(); ++i) {
    frame_[i].pose = last->fall.end[i];
    frame_[i].asleep = last->fall.asleep[i];
  }
  dropped_[static_cast<std::size_t>(to_move_)] |= bit(d.piece);
  last->overflow = std::any_of(frame_.begin(), frame_.end(), [&](const Body& b) {
    return top(shapes[static_cast<std::size_t>(b.piece)][b.flipped ? 1 : 0], b.pose) > kRim + kTolerance;
  });
  last_fall_ = std::move(last);

  Side dropper = to_move_;
  if (last_fall_->overflow) {
    // The dropper loses, whichever piece sticks out.
    if (!match_) {
      outcome_ = Outcome::win(other(dropper), "overflow");
      return;
    }
    next_game(other(dropper), d.piece);
  } else {
    to_move_ = other(dropper);
  }
  check_exhausted();
}

void BatikState::next_game(Side winner, int piece) {
  game_winners_.push_back(winner);
  lost_[static_cast<std::size_t>(other(winner))] |= bit(piece);
  ++game_;
  frame_.clear();
  dropped_ = {};
  to_move_ = winner;
}

void BatikState::check_exhausted() {
  if (available(to_move_) == 0) outcome_ = Outcome::win(other(to_move_), "exhausted");
}

}  // namespace cinq::batik
