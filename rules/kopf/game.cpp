// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md): the game's description, its options, the layout
// and positions from diagrams.
#include <cctype>

#include "rules/kopf/layout.h"
#include "rules/kopf/state.h"

namespace cinq::kopf {

namespace {

std::vector<std::string_view> tokens_of(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

// Calls `row(number, tokens after it, line)` for each line that starts with a row number 1..10.
template <class F>
std::optional<Error> for_rows(std::string_view diagram, F row) {
  while (!diagram.empty()) {
    auto nl = diagram.find('\n');
    std::string_view line = diagram.substr(0, nl);
    diagram = nl == std::string_view::npos ? std::string_view{} : diagram.substr(nl + 1);
    auto tokens = tokens_of(line);
    if (tokens.empty() || !std::isdigit(static_cast<unsigned char>(tokens[0][0]))) continue;
    int n = 0;
    for (char c : tokens[0])
      n = std::isdigit(static_cast<unsigned char>(c)) && n < 100 ? n * 10 + (c - '0') : 1000;
    if (n < 1 || n > kSize)
      return make_error(ErrorCode::not_a_row,
                        {{"row", std::string(tokens[0])}, {"first", "1"}, {"last", "10"}},
                        "'" + std::string(tokens[0]) + "' is not a row number (1 to 10)");
    tokens.erase(tokens.begin());
    if (auto e = row(n - 1, tokens)) return e;
  }
  return std::nullopt;
}

const OptionSpec kOptions[] = {{"target", "10", {}, 8, 14, ""}};
constexpr std::string_view kReasons[] = {"score", "blocked"};

class KopfGame final : public Game {
 public:
  std::string_view name() const override { return "kopf-oder-knopf"; }
  std::string_view record_name() const override { return "KOPF-ODER-KNOPF"; }
  std::array<char, 2> side_letters() const override { return {'R', 'B'}; }
  const GameWords& words() const override {
    // A score counts the buttons each side removed; a game where both sides are blocked ends by it too.
    static constexpr ResultWords kResults[] = {
        {"score", "{head} — {mine} against {theirs} buttons removed",
         "{head} — the target of buttons removed was reached", ""},
        {"blocked", "{head} — both sides were blocked; {mine} against {theirs} buttons removed",
         "{head} — both sides were blocked", "Draw — both sides were blocked with {each} buttons removed each"}};
    static const GameWords kWords = {"Kopf oder Knopf",
        "Buttons on holes: pairs of your buttons strike along their line; the first to remove 10 wins.",
        {"Red", "Blue"}, false, false, kResults};
    return kWords;
  }
  // Its words in French, the client's (web-client/boards/fr/kopf-oder-knopf.js; tests/rules/words_fr_test.cpp compares
  // the sides).
  const GameWords& words_in(std::string_view language) const override {
    static const GameWords kFrench = {"Kopf oder Knopf",
        "Des boutons sur des trous\u00a0: vos paires de boutons frappent le long de leur ligne\u00a0; le premier à en retirer 10 gagne.",
        {"Rouge", "Bleu"}, false, false};
    return language == "fr" ? kFrench : words();
  }
  std::span<const OptionSpec> option_specs() const override { return kOptions; }
  std::span<const std::string_view> board_reasons() const override { return kReasons; }
  // Random games at target=8 end by score within a few hundred actions (see the kopf tests' figures).
  std::string_view bounded_options() const override { return "target=8"; }
  std::unique_ptr<State> start(const Options& options) const override {
    return std::make_unique<KopfState>(*this, standard_holes(), options.get_int("target"), start_cells(), 0,
                                       std::array<int, 2>{0, 0}, false);
  }
};

}  // namespace

const Game& game() {
  static const KopfGame g;
  return g;
}

Result<Holes> parse_layout(std::string_view diagram) {
  Holes holes{};
  std::array<bool, kSize> seen{};
  auto e = for_rows(diagram, [&](int r, const std::vector<std::string_view>& t) -> std::optional<Error> {
    const std::string row = std::to_string(r + 1);
    if (seen[r]) return make_error(ErrorCode::row_twice, {{"row", row}}, "row " + row + " is given twice");
    seen[r] = true;
    if (t.size() != kSize)
      return make_error(ErrorCode::row_hole_counts, {{"row", row}}, "row " + row + " needs ten hole counts");
    for (int c = 0; c < kSize; ++c) {
      if (t[c].size() != 1 || t[c][0] < '1' || t[c][0] > '4')
        return make_error(ErrorCode::bad_hole_count, {{"row", row}, {"cell", std::string(t[c])}},
                          "row " + row + ": '" + std::string(t[c]) + "' is not 1 to 4 holes");
      holes[square(c, r)] = static_cast<std::int8_t>(t[c][0] - '0');
    }
    return std::nullopt;
  });
  if (e) return *e;
  for (int r = 0; r < kSize; ++r)
    if (!seen[r])
      return make_error(ErrorCode::row_missing, {{"row", std::to_string(r + 1)}},
                        "row " + std::to_string(r + 1) + " is missing");
  return holes;
}

const std::shared_ptr<const Holes>& standard_holes() {
  static const std::shared_ptr<const Holes> holes = [] {
    auto parsed = parse_layout(kStandardLayout);
    assert(parsed.ok() && "layout.h must hold a valid layout");
    return std::make_shared<const Holes>(parsed.ok() ? *parsed : Holes{});
  }();
  return holes;
}

Result<std::unique_ptr<State>> from_ascii(std::string_view diagram, const Setup& setup,
                                          std::shared_ptr<const Holes> holes) {
  if (!holes) holes = standard_holes();
  Cells cells;
  cells.fill(kEmpty);
  std::array<bool, kSize> seen{};
  auto e = for_rows(diagram, [&](int r, const std::vector<std::string_view>& t) -> std::optional<Error> {
    const std::string number = std::to_string(r + 1);
    const std::string row = "row " + number;
    if (seen[r]) return make_error(ErrorCode::row_twice, {{"row", number}}, row + " is given twice");
    seen[r] = true;
    if (t.size() < kSize)
      return make_error(ErrorCode::row_cells, {{"row", number}, {"count", "10"}}, row + " needs ten squares");
    for (int c = 0; c < kSize; ++c) {
      if (t[c] == "R" || t[c] == "B")
        cells[square(c, r)] = t[c] == "R" ? 0 : 1;
      else if (t[c] != ".")
        return make_error(ErrorCode::bad_cell,
                          {{"row", number}, {"cell", std::string(t[c])}, {"cells", "R, B ."}},
                          row + ": '" + std::string(t[c]) + "' is not R, B or .");
    }
    // Optionally the row number again and the ten hole counts, as ascii() prints them: they must agree.
    std::size_t at = kSize;
    if (t.size() == at) return std::nullopt;
    if (t.size() == at + 1 + kSize && t[at] == std::to_string(r + 1)) ++at;
    if (t.size() != at + kSize)
      return make_error(ErrorCode::row_hole_counts, {{"row", number}},
                        row + ": ten hole counts expected after the squares");
    for (int c = 0; c < kSize; ++c)
      if (t[at + c] != std::to_string((*holes)[square(c, r)]))
        return make_error(ErrorCode::holes_differ,
                          {{"row", number},
                           {"holes", std::to_string((*holes)[square(c, r)])},
                           {"square", square_name(square(c, r))},
                           {"written", std::string(t[at + c])}},
                          row + ": the layout has " + std::to_string((*holes)[square(c, r)]) + " holes on " +
                              square_name(square(c, r)) + ", the diagram says " + std::string(t[at + c]));
    return std::nullopt;
  });
  if (e) return *e;
  for (int r = 0; r < kSize; ++r)
    if (!seen[r])
      return make_error(ErrorCode::row_missing, {{"row", std::to_string(r + 1)}},
                        "row " + std::to_string(r + 1) + " is missing");
  if (setup.to_move != 0 && setup.to_move != 1)
    return make_error(ErrorCode::side_to_move, {}, "the side to move is 0 (Red) or 1 (Blue)");
  if (setup.target < 8 || setup.target > 14)
    return make_error(ErrorCode::target_range, {{"min", "8"}, {"max", "14"}}, "the target is 8 to 14");
  for (int s = 0; s < 2; ++s) {
    int left = 0;
    for (auto who : cells) left += who == 1 - s;
    if (setup.removed[s] < 0 || setup.removed[s] >= setup.target || setup.removed[s] + left > 14)
      return make_error(ErrorCode::removed_counts, {},
                        "the removed counts do not fit the board and the target");
  }
  std::unique_ptr<State> state = std::make_unique<KopfState>(
      game(), std::move(holes), setup.target, cells, setup.to_move, setup.removed, setup.opponent_passed);
  return state;
}

}  // namespace cinq::kopf
