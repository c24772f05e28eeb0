// Batik's notation (docs/notation.md, "Batik"): `PIECE[~] ANGLE X`, written and read.
#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

#include "rules/batik/state.h"

namespace cinq::batik {

namespace {

std::string side_name(Side s) { return s == 0 ? "Light" : "Dark"; }
std::string side_letter(Side s) { return s == 0 ? "C" : "F"; }

std::string piece_ids() {
  std::string s;
  for (const PieceSpec& p : standard_set()) s += (s.empty() ? "" : " ") + std::string(p.id);
  return s;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int to_int(std::string_view digits) {
  int v = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), v);
  return v;
}

Error drop_error(std::string_view item, ErrorCode code, ErrorParams params, const std::string& why) {
  params.insert(params.begin(), {"item", std::string(item)});
  return make_error(code, std::move(params), "'" + std::string(item) + "': " + why);
}

// A position `I` or `I.F` (digits) in eighths; nullopt if it is not a decimal. `exact` is false when the
// value is not a multiple of 1/8; `huge` when it is far beyond any wall.
struct Position {
  int eighths = 0;
  bool exact = true;
  bool huge = false;
};

std::optional<Position> parse_position(std::string_view s) {
  auto dot = s.find('.');
  std::string_view whole = s.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view{} : s.substr(dot + 1);
  if (!all_digits(whole) || (dot != std::string_view::npos && !all_digits(frac))) return std::nullopt;
  Position p;
  while (whole.size() > 1 && whole.front() == '0') whole.remove_prefix(1);
  while (!frac.empty() && frac.back() == '0') frac.remove_suffix(1);
  if (whole.size() > 3) p.huge = true;
  if (frac.size() > 3) p.exact = false;
  if (p.huge || !p.exact) return p;
  int scale = 1;
  for (std::size_t i = 0; i < frac.size(); ++i) scale *= 10;
  int f = frac.empty() ? 0 : to_int(frac);
  if (f * kEighths % scale != 0) p.exact = false;
  p.eighths = to_int(whole) * kEighths + f * kEighths / scale;
  return p;
}

}  // namespace

std::string eighths_text(int x) {
  std::string s = std::to_string(x / kEighths);
  if (int r = x % kEighths; r != 0) {
    std::string frac = std::to_string(r * 125);  // thousandths
    frac = std::string(3 - frac.size(), '0') + frac;
    while (frac.back() == '0') frac.pop_back();
    s += "." + frac;
  }
  return s;
}

std::string drop_text(const Drop& d) {
  return std::string(standard_set()[static_cast<std::size_t>(d.piece)].id) + (d.flipped ? "~" : "") + " " +
         std::to_string(d.angle * kAngleStep) + " " + eighths_text(d.x);
}

Result<Item> BatikState::read_item(std::string_view text, const ItemContext&) const {
  std::string item = fold_spaces(text);
  if (outcome_.over()) return drop_error(item, ErrorCode::item_game_over, {}, "the game is over");
  std::vector<std::string_view> tokens;
  for (std::string_view rest = item; !rest.empty();) {
    auto sp = rest.find(' ');
    tokens.push_back(rest.substr(0, sp));
    rest = sp == std::string_view::npos ? std::string_view{} : rest.substr(sp + 1);
  }
  if (tokens.size() != 3)
    return drop_error(item, ErrorCode::drop_form, {},
                      "a drop is PIECE[~] ANGLE X, e.g. TL 45 3.25 or NR~ 90 0");

  // The piece.
  std::string_view id = tokens[0];
  bool flipped = !id.empty() && id.back() == '~';
  if (flipped) id.remove_suffix(1);
  int piece = piece_index(id);
  if (piece < 0)
    return drop_error(item, ErrorCode::unknown_piece, {{"piece", std::string(id)}, {"pieces", piece_ids()}},
                      "unknown piece '" + std::string(id) + "' (pieces: " + piece_ids() + ")");
  if (lost_[static_cast<std::size_t>(to_move_)] & (1u << piece))
    return drop_error(item, ErrorCode::piece_lost,
                      {{"side", side_letter(to_move_)}, {"piece", std::string(id)}},
                      side_name(to_move_) + " lost " + std::string(id) + " in an earlier game of the match");
  if (dropped_[static_cast<std::size_t>(to_move_)] & (1u << piece))
    return drop_error(item, ErrorCode::piece_dropped,
                      {{"side", side_letter(to_move_)}, {"piece", std::string(id)}},
                      side_name(to_move_) + "'s " + std::string(id) + " is already in the frame");

  // The rotation.
  std::string_view angle_text = tokens[1];
  if (!all_digits(angle_text) || angle_text.size() > 6)
    return drop_error(item, ErrorCode::rotation_not_number, {{"angle", std::string(angle_text)}},
                      "the rotation '" + std::string(angle_text) + "' is not a whole number of degrees");
  int degrees = to_int(angle_text);
  if (degrees % kAngleStep != 0)
    return drop_error(item, ErrorCode::rotation_step, {{"angle", std::to_string(degrees)}},
                      "the rotation " + std::to_string(degrees) + " is not a multiple of 15 degrees");
  if (degrees >= kAngles * kAngleStep)
    return drop_error(item, ErrorCode::rotation_range, {{"angle", std::to_string(degrees)}},
                      "the rotation " + std::to_string(degrees) + " is out of range (0 to 345)");
  int angle = degrees / kAngleStep;

  // The position.
  const Shape& shape = standard_shapes()[static_cast<std::size_t>(piece)][flipped ? 1 : 0];
  int max_x = shape.max_x[static_cast<std::size_t>(angle)];
  std::string range = " (x from 0 to " + eighths_text(max_x) + " for " + std::string(tokens[0]) + " " +
                      std::to_string(degrees) + ")";
  auto wall = [&](ErrorCode code, const std::string& why) {
    return drop_error(
        item, code,
        {{"max", eighths_text(max_x)}, {"piece", std::string(tokens[0])}, {"angle", std::to_string(degrees)}},
        why + range);
  };
  std::string_view x_text = tokens[2];
  if (!x_text.empty() && x_text.front() == '-' && parse_position(x_text.substr(1)))
    return wall(ErrorCode::left_wall, "the piece would stick out of the left wall");
  auto position = parse_position(x_text);
  if (!position)
    return drop_error(item, ErrorCode::position_not_number, {{"position", std::string(x_text)}},
                      "the position '" + std::string(x_text) + "' is not a decimal number");
  if (!position->huge && !position->exact)
    return drop_error(item, ErrorCode::position_step, {{"position", std::string(x_text)}},
                      "the position " + std::string(x_text) + " is not a multiple of 1/8");
  if (position->huge || position->eighths > max_x)
    return wall(ErrorCode::right_wall, "the piece would stick out of the right wall");
  return Item{false, encode({piece, flipped, angle, position->eighths})};
}

}  // namespace cinq::batik
