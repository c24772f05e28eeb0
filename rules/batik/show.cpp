// Batik (docs/rules/batik.md): what clients, tests and tools see of a state.
#include <bit>
#include <cmath>
#include <cstdio>
#include <string>

#include "rules/batik/state.h"

namespace cinq::batik {

namespace {

std::string letter(Side s) { return std::string(1, game().side_letter(s)); }

const Shape& shape_of(const Body& b) {
  return standard_shapes()[static_cast<std::size_t>(b.piece)][b.flipped ? 1 : 0];
}

std::string ids(unsigned mask) {
  std::string s;
  const auto& set = standard_set();
  for (std::size_t i = 0; i < set.size(); ++i)
    if (mask & (1u << i)) s += (s.empty() ? "" : " ") + std::string(set[i].id);
  return s;
}

Value id_list(unsigned mask) {
  Value v = Value::array();
  const auto& set = standard_set();
  for (std::size_t i = 0; i < set.size(); ++i)
    if (mask & (1u << i)) v.push(std::string(set[i].id));
  return v;
}

// Animation frames are rounded to a thousandth of a unit to keep messages short; the resting polygons are
// exact, so a client can check overflow against the rim.
Value polygon_value(const Polygon& p, bool rounded) {
  Value v = Value::array();
  auto r = [&](double d) { return rounded ? std::round(d * 1000) / 1000 : d; };
  for (const Point& q : p) v.push(Value(Value::Array{Value(r(q.x)), Value(r(q.y))}));
  return v;
}

Value piece_value(const Body& b) {
  Value v = Value::object();
  v.set("side", letter(b.owner));
  v.set("owner", b.owner);
  v.set("id", std::string(standard_set()[static_cast<std::size_t>(b.piece)].id));
  v.set("flipped", b.flipped);
  return v;
}

Value fall_value(const LastFall& last) {
  Value v = Value::object();
  v.set("game", last.game);
  v.set("side", letter(last.side));
  v.set("drop", drop_text(last.drop));
  v.set("overflow", last.overflow);
  v.set("interval", static_cast<double>(kTimeStep) * kSampleSteps);
  v.set("at_rest", last.fall.at_rest);
  Value pieces = Value::array();
  for (std::size_t i = 0; i < last.bodies.size(); ++i) {
    Value p = piece_value(last.bodies[i]);
    p.set("start", polygon_value(outline_at(shape_of(last.bodies[i]), last.fall.start[i]), false));
    p.set("end", polygon_value(outline_at(shape_of(last.bodies[i]), last.fall.end[i]), false));
    pieces.push(std::move(p));
  }
  v.set("pieces", std::move(pieces));
  Value moving = Value::array();
  for (int i : last.fall.moving) moving.push(i);
  v.set("moving", std::move(moving));
  Value frames = Value::array();
  for (const auto& poses : last.fall.frames) {
    Value frame = Value::array();
    for (std::size_t k = 0; k < poses.size(); ++k) {
      const Body& b = last.bodies[static_cast<std::size_t>(last.fall.moving[k])];
      frame.push(polygon_value(outline_at(shape_of(b), poses[k]), true));
    }
    frames.push(std::move(frame));
  }
  v.set("frames", std::move(frames));
  return v;
}

bool inside(const Polygon& p, double x, double y) {
  bool in = false;
  for (std::size_t i = 0, j = p.size() - 1; i < p.size(); j = i++)
    if ((p[i].y > y) != (p[j].y > y) && x < (p[j].x - p[i].x) * (y - p[i].y) / (p[j].y - p[i].y) + p[i].x)
      in = !in;
  return in;
}

std::string hex(float f) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08x", std::bit_cast<std::uint32_t>(f));
  return buf;
}

}  // namespace

Value BatikState::view() const {
  Value v = Value::object();
  v.set("game", "batik");
  v.set("width", kFrameWidth);
  v.set("height", kRim);
  v.set("rim", kRim);
  v.set("tolerance", kTolerance);
  v.set("match", match_);
  v.set("round", game_);
  v.set("to_move", outcome_.over() ? Value() : Value(letter(to_move_)));
  Value sides = Value::array();
  for (Side s : {0, 1}) {
    Value side = Value::object();
    side.set("side", letter(s));
    side.set("name", s == 0 ? "Light" : "Dark");
    side.set("available", id_list(available(s)));
    side.set("dropped", id_list(dropped_[static_cast<std::size_t>(s)]));
    side.set("lost", id_list(lost_[static_cast<std::size_t>(s)]));
    sides.push(std::move(side));
  }
  v.set("sides", std::move(sides));
  Value pieces = Value::array();
  for (const Body& b : frame_) {
    Value p = piece_value(b);
    p.set("polygon", polygon_value(outline_at(shape_of(b), b.pose), false));
    pieces.push(std::move(p));
  }
  v.set("pieces", std::move(pieces));
  Value games = Value::array();
  for (std::size_t i = 0; i < game_winners_.size(); ++i) {
    Value g = Value::object();
    g.set("game", static_cast<int>(i + 1));
    g.set("winner", letter(game_winners_[i]));
    g.set("reason", "overflow");
    games.push(std::move(g));
  }
  v.set("games", std::move(games));
  Value out = Value::object();
  out.set("over", outcome_.over());
  if (outcome_.over()) {
    out.set("winner", letter(outcome_.winner));
    out.set("reason", outcome_.reason);
  }
  v.set("outcome", std::move(out));
  v.set("last_fall", last_fall_ ? fall_value(*last_fall_) : Value());
  return v;
}

std::string BatikState::ascii() const {
  // Cells a quarter of a unit wide and half a unit high (characters are about twice as tall as wide);
  // each shows the piece under its centre: Light's pieces in lower case, Dark's in upper case.
  constexpr int kCols = 4, kRows = 2;
  std::vector<Polygon> outlines;
  double high = kRim + 2;
  for (const Body& b : frame_) {
    outlines.push_back(outline_at(shape_of(b), b.pose));
    for (const Point& p : outlines.back()) high = std::max(high, std::ceil(p.y));
  }
  const int width = static_cast<int>(kFrameWidth) * kCols;
  std::string out = "Batik";
  if (match_) out += ", game " + std::to_string(game_);
  out += outcome_.over() ? ": " + letter(outcome_.winner) + " wins (" + outcome_.reason + ")\n"
                         : ": " + letter(to_move_) + " to drop\n";
  out += "   +" + std::string(static_cast<std::size_t>(width), '-') + "+\n";
  for (int row = static_cast<int>(high) * kRows - 1; row >= 0; --row) {
    double y = (row + 0.5) / kRows;
    bool labelled = row % kRows == 0;
    char label[16];
    std::snprintf(label, sizeof label, "%2d ", row / kRows);
    out += labelled ? label : "   ";
    out += "|";
    for (int col = 0; col < width; ++col) {
      double x = (col + 0.5) / kCols;
      char c = (row == static_cast<int>(kRim) * kRows) ? '.' : ' ';  // the row just above the rim
      for (std::size_t i = 0; i < frame_.size(); ++i)
        if (inside(outlines[i], x, y))
          c = static_cast<char>((frame_[i].owner == 0 ? 'a' : 'A') + frame_[i].piece);
      out += c;
    }
    out += row == static_cast<int>(kRim) * kRows ? "| rim\n" : "|\n";
  }
  out += "   +" + std::string(static_cast<std::size_t>(width), '=') + "+\n   ";
  for (int x = 0; x <= static_cast<int>(kFrameWidth); ++x) out += std::to_string(x) + (x < 8 ? "   " : "\n");
  out += "pieces: ";
  for (std::size_t i = 0; i < standard_set().size(); ++i)
    out += std::string(1, static_cast<char>('a' + i)) + "=" + std::string(standard_set()[i].id) + " ";
  out += "(Light lower case, Dark upper case)\n";
  for (Side s : {0, 1}) {
    out += letter(s) + " has: " + ids(available(s));
    if (lost_[static_cast<std::size_t>(s)]) out += "; lost: " + ids(lost_[static_cast<std::size_t>(s)]);
    out += "\n";
  }
  return out;
}

std::string BatikState::fingerprint() const {
  // Poses as their float bits: the next drop's world is rebuilt from exactly these.
  std::string s = "batik match=" + std::string(match_ ? "on" : "off") + " game=" + std::to_string(game_) +
                  " to_move=" + letter(to_move_) + " lost=" + std::to_string(lost_[0]) + "," +
                  std::to_string(lost_[1]) + " dropped=" + std::to_string(dropped_[0]) + "," +
                  std::to_string(dropped_[1]) + " games=";
  for (Side w : game_winners_) s += letter(w);
  s += " outcome=" + (outcome_.over() ? letter(outcome_.winner) + " " + outcome_.reason : std::string("-"));
  for (const Body& b : frame_)
    s += " | " + letter(b.owner) + " " + std::string(standard_set()[static_cast<std::size_t>(b.piece)].id) +
         (b.flipped ? "~" : "") + " " + hex(b.pose.x) + " " + hex(b.pose.y) + " " + hex(b.pose.angle) +
         (b.asleep ? "" : " awake");
  return s;
}

}  // namespace cinq::batik
