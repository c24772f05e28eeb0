// Bi-litaire's texts: docs/rules/bilitaire.md ("Notation") and notation.md; items read with precise
// errors, the ASCII diagram, the client view.
#include <bit>
#include <charconv>

#include "rules/bilitaire/bilitaire.h"
#include "rules/bilitaire/state.h"

namespace cinq::bilitaire {

namespace {

std::optional<int> parse_count(std::string_view s) {
  int v = 0;
  // Canonical digits only (no sign, no leading zero): each action has one text.
  if (s.empty() || s.size() > 3 || (s[0] == '0' && s.size() > 1)) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string joined(const std::vector<std::string>& tokens) {
  std::string s;
  for (const auto& t : tokens) s += (s.empty() ? "" : " ") + t;
  return s;
}

std::string slot_list(const std::vector<int>& slots) {
  std::string s;
  for (int slot : slots) s += (s.empty() ? "" : " ") + slot_name(slot);
  return s;
}

std::string gap(int hole) {
  return hole_name(hole) + " is in a gap (no tray on " + slot_name(slot_of(hole)) + ")";
}
ErrorParams gap_params(int hole) { return {{"hole", hole_name(hole)}, {"slot", slot_name(slot_of(hole))}}; }

// An item's error: its code, its parameters after the item's own, and its English reason.
Error item_error(const std::string& item, ErrorCode code, ErrorParams params, const std::string& why) {
  params.insert(params.begin(), {"item", item});
  return make_error(code, std::move(params), "'" + item + "': " + why);
}

constexpr const char* kTrayHelp = "slide a tray (B1 >2) or remove an empty one (x B1)";

}  // namespace

Result<Item> BiState::read_item(std::string_view text, const ItemContext&) const {
  std::string folded = fold_spaces(text);
  if (folded.empty()) return make_error(ErrorCode::empty_item, {}, "an empty action");
  if (phase_ == Phase::over) return item_error(folded, ErrorCode::item_game_over, {}, "the game is over");
  auto words = split_words(folded);
  std::vector<std::string> tokens(words.begin(), words.end());
  if (tokens[0][0] == '!') {
    if (tokens.size() != 1)
      return item_error(folded, ErrorCode::announcement_token, {}, "an announcement is one token (!3)");
    return read_announcement(tokens[0]);
  }
  if (phase_ == Phase::tray || phase_ == Phase::tray_done) return read_tray_item(tokens);
  return read_marble_item(tokens);
}

Result<Item> BiState::read_announcement(std::string_view token) const {
  std::string item(token);
  if (phase_ == Phase::tray)
    return item_error(item, ErrorCode::announce_after_tray, {},
                      "the tray player announces after its tray action");
  if (phase_ != Phase::tray_done)
    return item_error(item, ErrorCode::announce_tray_player, {}, "only the tray player announces");
  auto k = parse_count(token.substr(1));
  if (!k)
    return make_error(ErrorCode::not_an_announcement, {{"item", item}},
                      "'" + item + "' is not an announcement (write the number of jumps: !3)");
  if (*k < 2)
    return item_error(item, ErrorCode::announcement_small, {},
                      "an announcement is at least 2 (a single jump needs none)");
  if (*k > longest_) {
    if (longest_ == 0) return item_error(item, ErrorCode::no_jump, {}, "no marble can jump here");
    return item_error(item, ErrorCode::chain_too_long,
                      {{"count", std::to_string(*k)}, {"longest", std::to_string(longest_)}},
                      "no marble can make " + std::to_string(*k) + " jumps in a row here (at most " +
                          std::to_string(longest_) + ")");
  }
  return Item{false, encode_announce(*k)};
}

Result<Item> BiState::read_tray_item(const std::vector<std::string>& tokens) const {
  std::string item = joined(tokens);
  auto fail = [&](ErrorCode code, ErrorParams params, const std::string& why) {
    return item_error(item, code, std::move(params), why);
  };
  if (phase_ == Phase::tray_done)
    return fail(ErrorCode::tray_action_made, {},
                "the tray action is made; announce a chain (!2) or end the turn");
  if (tokens[0] == "x") {
    if (tokens.size() != 2)
      return fail(ErrorCode::removal_one_slot, {}, "a removal names one tray slot (x B1)");
    auto slot = parse_slot(tokens[1]);
    if (!slot) {
      if (parse_hole(tokens[1]))
        return fail(ErrorCode::removes_tray_not_marble, {},
                    "the tray player removes an empty tray (x B1), not a marble");
      return fail(ErrorCode::not_a_slot, {{"token", tokens[1]}},
                  "'" + tokens[1] + "' is not a tray slot (A1 to D4)");
    }
    if (!board_.has_tray(*slot))
      return fail(ErrorCode::no_tray, {{"slot", tokens[1]}}, "there is no tray on " + tokens[1]);
    if (!board_.tray_empty(*slot)) {
      int n = std::popcount(board_.marbles & slot_holes(*slot));
      return fail(ErrorCode::tray_not_empty, {{"slot", tokens[1]}, {"count", std::to_string(n)}},
                  "the tray on " + tokens[1] + " still holds " + std::to_string(n) +
                      (n == 1 ? " marble" : " marbles"));
    }
    return Item{false, encode_remove_tray(*slot)};
  }
  auto slot = parse_slot(tokens[0]);
  if (!slot) {
    if (parse_hole(tokens[0]))
      return fail(ErrorCode::tray_players_turn, {},
                  "it is the tray player's turn: " + std::string(kTrayHelp));
    return fail(ErrorCode::not_a_tray_action, {}, "not a tray action: " + std::string(kTrayHelp));
  }
  if (tokens.size() != 2)
    return fail(ErrorCode::push_one_token, {},
                "a push is the slot then the direction and distance in one token (B1 >2)");
  auto dir = dir_from_mark(tokens[1][0]);
  auto distance = parse_count(std::string_view(tokens[1]).substr(1));
  if (!dir || !distance)
    return fail(ErrorCode::push_form, {}, "a push is written with > < ^ or v and a distance (B1 >2)");
  Push push{*slot, *dir, *distance};
  std::vector<int> group = board_.push_group(*slot, *dir);
  int blocker = -1;
  switch (board_.check_push(push, &blocker)) {
    case PushFault::none:
      return Item{false, encode_push(push)};
    case PushFault::no_tray:
      return fail(ErrorCode::no_tray, {{"slot", tokens[0]}}, "there is no tray on " + tokens[0]);
    case PushFault::too_many:
      return fail(ErrorCode::four_trays, {{"slots", slot_list(group)}},
                  "a group of four trays (" + slot_list(group) + ") cannot be pushed");
    case PushFault::too_far:
      if (push.distance < 1)
        return fail(ErrorCode::push_zero, {}, "a push moves the trays at least one slot");
      if (group.size() == 1)
        return fail(ErrorCode::one_tray_distance, {}, "a single tray moves at most 3 slots");
      if (group.size() == 2)
        return fail(ErrorCode::two_trays_distance, {{"slots", slot_list(group)}},
                    "a group of two trays (" + slot_list(group) + ") moves at most 2 slots");
      return fail(ErrorCode::three_trays_distance, {{"slots", slot_list(group)}},
                  "a group of three trays (" + slot_list(group) + ") moves only 1 slot");
    case PushFault::frame:
      return fail(ErrorCode::push_frame, {}, "the push is blocked by the frame");
    case PushFault::tray:
      return fail(ErrorCode::push_tray, {{"slot", slot_name(blocker)}},
                  "the push is blocked by the tray on " + slot_name(blocker));
  }
  return fail(ErrorCode::push_not_legal, {}, "not a legal push");
}

Result<Item> BiState::read_marble_item(const std::vector<std::string>& tokens) const {
  std::string item = joined(tokens);
  auto fail = [&](ErrorCode code, ErrorParams params, const std::string& why) {
    return item_error(item, code, std::move(params), why);
  };
  if (phase_ == Phase::first_removal) {
    if (tokens[0] != "x" || tokens.size() != 2)
      return fail(ErrorCode::first_removal, {},
                  "the marble player starts the round by removing one marble (x d4)");
    auto hole = parse_hole(tokens[1]);
    if (!hole)
      return fail(ErrorCode::not_a_hole, {{"token", tokens[1]}},
                  "'" + tokens[1] + "' is not a hole (a1 to h8)");
    if (!board_.is_hole(*hole)) return fail(ErrorCode::in_gap, gap_params(*hole), gap(*hole));
    if (!board_.has_marble(*hole))
      return fail(ErrorCode::no_marble, {{"hole", tokens[1]}}, "there is no marble on " + tokens[1]);
    return Item{false, encode_remove_marble(*hole)};
  }
  if (tokens[0] == "x")
    return fail(ErrorCode::removal_over, {},
                "a marble is removed only at the start of a round; now a marble jumps (d2 d4)");
  if (parse_slot(tokens[0]))
    return fail(ErrorCode::marble_players_turn, {}, "it is the marble player's turn: a marble jumps (d2 d4)");
  std::vector<int> path;
  for (const auto& t : tokens) {
    auto hole = parse_hole(t);
    if (!hole) return fail(ErrorCode::not_a_hole, {{"token", t}}, "'" + t + "' is not a hole (a1 to h8)");
    path.push_back(*hole);
  }
  if (path.size() < 2)
    return fail(ErrorCode::jump_form, {}, "a jump names the marble's hole and its landing hole (d2 d4)");
  if (!board_.has_marble(path[0])) {
    if (board_.is_hole(path[0]))
      return fail(ErrorCode::no_marble, {{"hole", tokens[0]}}, "there is no marble on " + tokens[0]);
    return fail(ErrorCode::in_gap, gap_params(path[0]), gap(path[0]));
  }
  // Play the chain on a copy: the jumper leaves its start, each jumped marble goes at once.
  Board b = board_;
  b.marbles &= ~(std::uint64_t{1} << path[0]);
  for (std::size_t i = 1; i < path.size(); ++i) {
    int from = path[i - 1], to = path[i];
    std::string jump = path.size() > 2 ? "jump " + tokens[i - 1] + " " + tokens[i] + ": " : "";
    // The jump at fault, named in the parameters (the item is the whole chain).
    auto jump_fail = [&](ErrorCode code, ErrorParams params, const std::string& why) {
      params.insert(params.begin(), {"jump", tokens[i - 1] + " " + tokens[i]});
      return fail(code, std::move(params), jump + why);
    };
    int dx = to % 8 - from % 8, dy = to / 8 - from / 8;
    bool straight = (dy == 0 && (dx == 2 || dx == -2)) || (dx == 0 && (dy == 2 || dy == -2));
    if (!straight)
      return jump_fail(ErrorCode::jump_straight, {},
                       "a jump goes straight over one hole (across, up or down)");
    int over = (from + to) / 2;
    if (!b.is_hole(over))
      return jump_fail(ErrorCode::jump_over_gap, gap_params(over),
                       "there is no hole on " + hole_name(over) + " to jump over (no tray on " +
                           slot_name(slot_of(over)) + ")");
    if (!b.has_marble(over))
      return jump_fail(ErrorCode::jump_over_empty, {{"hole", hole_name(over)}},
                       "there is no marble on " + hole_name(over) + " to jump over");
    if (!b.is_hole(to)) return jump_fail(ErrorCode::jump_into_gap, gap_params(to), gap(to));
    if (b.has_marble(to))
      return jump_fail(ErrorCode::landing_taken, {{"hole", hole_name(to)}}, hole_name(to) + " is not empty");
    b.marbles &= ~(std::uint64_t{1} << over);
  }
  int made = static_cast<int>(path.size()) - 1;
  if (announced_ == 0 && made != 1)
    return fail(
        ErrorCode::one_jump, {{"made", std::to_string(made)}},
        "without an announcement the marble player makes exactly one jump, not " + std::to_string(made));
  if (announced_ > 0 && made != announced_)
    return fail(ErrorCode::announced_chain,
                {{"announced", std::to_string(announced_)}, {"made", std::to_string(made)}},
                "the tray player announced !" + std::to_string(announced_) +
                    ": the chain must make exactly " + std::to_string(announced_) + " jumps, not " +
                    std::to_string(made));
  return Item{false, encode_chain(path)};
}

// --- showing it

namespace {

char cell(const Board& b, int hole) { return b.has_marble(hole) ? 'o' : b.is_hole(hole) ? '+' : '.'; }

std::string slots_row(const Board& b, int row) {
  std::string s = std::to_string(row + 1);
  for (int col = 0; col < 4; ++col) s += std::string("  ") + (b.has_tray(row * 4 + col) ? 'T' : '.');
  return s;
}

}  // namespace

std::string BiState::ascii() const {
  std::string out;
  for (int row = 7; row >= 0; --row) {
    std::string line = " " + std::to_string(row + 1) + " ";
    for (int col = 0; col < 8; ++col) line += std::string(" ") + cell(board_, row * 8 + col);
    if (row == 7) line += "      slots:   " + slots_row(board_, 3);
    if (row >= 4 && row < 7) line += "               " + slots_row(board_, row - 4);
    if (row == 3) line += "                  A  B  C  D";
    out += line + "\n";
  }
  out += "    a b c d e f g h\n";
  auto who = [&](Side s) {
    return std::string(1, game().side_letter(s)) + " (player " + std::to_string(player_of(s)) + ")";
  };
  std::string status;
  switch (phase_) {
    case Phase::first_removal:
      status = who(kMarbleSide) + " removes a first marble";
      break;
    case Phase::tray:
      status = who(kTraySide) + " slides or removes a tray";
      break;
    case Phase::tray_done:
      status = who(kTraySide) + (longest_ >= 2
                                     ? " announces up to !" + std::to_string(longest_) + " or ends the turn"
                                     : " ends the turn");
      break;
    case Phase::marbles:
      status =
          who(kMarbleSide) +
          (announced_ > 0 ? " makes a chain of " + std::to_string(announced_) + " jumps" : " makes one jump");
      break;
    case Phase::over:
      status = "game over, marbles left " + score();
      break;
  }
  out += phase_ == Phase::over ? status : "round " + std::to_string(round_) + ": " + status;
  out += ", " + std::to_string(board_.marble_count()) + " marbles on the board";
  if (round1_left_ >= 0 && phase_ != Phase::over) out += ", round 1 left " + std::to_string(round1_left_);
  return out + "\n";
}

Value BiState::view() const {
  static constexpr const char* kPhases[] = {"first_removal", "tray", "tray_done", "marbles", "over"};
  Value v = Value::object();
  v.set("game", "bi-litaire");
  v.set("round", round_);
  v.set("phase", kPhases[static_cast<int>(phase_)]);
  v.set("to_move", phase_ == Phase::over ? Value() : Value(std::string(1, game().side_letter(to_move()))));
  v.set("marble_player", player_of(kMarbleSide));
  v.set("tray_player", player_of(kTraySide));
  v.set("announced", announced_);
  v.set("may_announce", phase_ == Phase::tray_done && longest_ >= 2 ? longest_ : 0);
  v.set("marbles_left", board_.marble_count());
  Value scores = Value::array();
  scores.push(round1_left_ >= 0 ? Value(round1_left_) : Value());
  scores.push(round2_left_ >= 0 ? Value(round2_left_) : Value());
  v.set("round_scores", std::move(scores));
  // Each slot's tray and its four holes: the client draws from this alone.
  Value slots = Value::array();
  for (int s = 0; s < kSlots; ++s) {
    Value slot = Value::object();
    slot.set("slot", slot_name(s));
    slot.set("tray", board_.has_tray(s));
    Value marbles = Value::array();
    for (int h = 0; h < kHoles; ++h)
      if (slot_of(h) == s && board_.has_marble(h)) marbles.push(hole_name(h));
    slot.set("marbles", std::move(marbles));
    slots.push(std::move(slot));
  }
  v.set("slots", std::move(slots));
  Value rows = Value::array();  // rows 8 down to 1, a..h: `o` marble, `+` empty hole, `.` no hole
  for (int row = 7; row >= 0; --row) {
    std::string r;
    for (int col = 0; col < 8; ++col) r += cell(board_, row * 8 + col);
    rows.push(r);
  }
  v.set("rows", std::move(rows));
  if (phase_ == Phase::over) {
    Outcome o = outcome();
    v.set("winner", o.kind == Outcome::Kind::win ? Value(o.winner + 1) : Value());
    v.set("score", score());
  }
  return v;
}

// --- positions from diagrams

Result<std::unique_ptr<State>> position(std::string_view diagram, const Setup& setup) {
  Board b;
  b.trays = 0;
  b.marbles = 0;
  std::array<bool, 8> seen{};
  std::array<std::array<char, 8>, 8> cells{};
  std::string text(diagram);
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string folded_row = fold_spaces(std::string_view(text).substr(start, end - start));
    auto words = split_words(folded_row);
    std::vector<std::string> tokens(words.begin(), words.end());
    start = end + 1;
    if (tokens.size() < 9 || tokens[0].size() != 1 || tokens[0][0] < '1' || tokens[0][0] > '8') continue;
    int row = tokens[0][0] - '1';
    if (seen[row])
      return make_error(ErrorCode::row_twice, {{"row", tokens[0]}}, "row " + tokens[0] + " is given twice");
    seen[row] = true;
    for (int col = 0; col < 8; ++col) {
      const std::string& t = tokens[col + 1];
      if (t.size() != 1 || (t[0] != 'o' && t[0] != '+' && t[0] != '.'))
        return make_error(ErrorCode::bad_cell, {{"row", tokens[0]}, {"cell", t}, {"cells", "o + ."}},
                          "row " + tokens[0] + ": '" + t + "' is not a cell (o, + or .)");
      cells[row][col] = t[0];
    }
  }
  for (int row = 0; row < 8; ++row)
    if (!seen[row])
      return make_error(ErrorCode::row_missing, {{"row", std::to_string(row + 1)}},
                        "row " + std::to_string(row + 1) + " is missing");
  for (int s = 0; s < kSlots; ++s) {
    int gaps = 0;
    for (int h = 0; h < kHoles; ++h) {
      if (slot_of(h) != s) continue;
      char c = cells[h / 8][h % 8];
      gaps += c == '.';
      if (c == 'o') b.marbles |= std::uint64_t{1} << h;
    }
    if (gaps != 0 && gaps != 4)
      return make_error(ErrorCode::half_tray, {{"slot", slot_name(s)}},
                        "slot " + slot_name(s) + " is half a tray");
    if (gaps == 0) b.trays = static_cast<std::uint16_t>(b.trays | (1u << s));
  }
  if (setup.round < 1 || setup.round > 2) return make_error(ErrorCode::round_number, {}, "a round is 1 or 2");
  if (setup.phase == Phase::over)
    return make_error(ErrorCode::diagram_finished, {},
                      "a diagram sets a game in progress, not a finished one");
  if ((setup.round == 2) != (setup.round1_left >= 0))
    return make_error(ErrorCode::round_one_marbles, {},
                      "round 2, and round 2 only, needs the marbles left at the end of round 1");
  if (setup.announced != 0 && setup.phase != Phase::marbles)
    return make_error(ErrorCode::announcement_phase, {},
                      "an announcement is set only where the marble player is to jump");
  if (setup.announced < 0 || setup.announced > kMaxChain)
    return make_error(ErrorCode::announcement_range, {{"max", std::to_string(kMaxChain)}},
                      "an announcement is 0 to 22");
  if (b.marbles == 0) return make_error(ErrorCode::no_marbles, {}, "a position has at least one marble");
  if (setup.phase == Phase::marbles) {
    int longest = b.longest_chain();
    if (longest == 0)
      return make_error(ErrorCode::diagram_no_jump, {},
                        "the marble player has no jump here: the round would be over");
    if (setup.announced > longest)
      return make_error(ErrorCode::no_chain_to_announce, {{"count", std::to_string(setup.announced)}},
                        "no chain of " + std::to_string(setup.announced) + " jumps here to announce");
  }
  return std::unique_ptr<State>(std::make_unique<BiState>(b, setup));
}

}  // namespace cinq::bilitaire
