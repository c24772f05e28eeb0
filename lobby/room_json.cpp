// What a room tells its clients, as JSON (docs/protocol.md): events, the full state, the lobby summary.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "lobby/json_value.h"
#include "lobby/room.h"

namespace cinq::lobby {

using nlohmann::json;

namespace {

// A number as the games write one: shortest decimal, at most three places ("3.25", "0", "12").
std::string short_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", x);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::optional<double> number_of(const std::string& word) {
  if (word.empty() || word.size() > 12) return std::nullopt;
  char* end = nullptr;
  double x = std::strtod(word.c_str(), &end);
  if (end != word.c_str() + word.size() || short_number(x) != word) return std::nullopt;
  return x;
}

// The legal actions' texts, with runs that differ only by an evenly spaced last number folded into one
// range entry: a Batik position has some 18,000 drops but only a few hundred (piece, angle) pairs.
// Whether a text's last word (after `space`) may be a number; seen from its first character, with no copy.
bool ends_with_number(const std::string& t, std::size_t space) {
  return space != std::string::npos && space + 1 < t.size() &&
         (std::isdigit(static_cast<unsigned char>(t[space + 1])) != 0 || t[space + 1] == '-');
}

json legal_json(const std::vector<std::string>& texts) {
  json out = json::array();
  if (texts.size() <= 64) {
    for (const auto& t : texts) out.push_back(t);
    return out;
  }
  std::map<std::string, std::vector<double>> runs;  // prefix -> last numbers
  std::vector<std::string> order;
  std::vector<std::string> plain;
  for (const auto& t : texts) {
    auto space = t.rfind(' ');
    bool may_be_number = ends_with_number(t, space);
    std::optional<double> x = may_be_number ? number_of(t.substr(space + 1)) : std::nullopt;
    if (!x) {
      plain.push_back(t);
      continue;
    }
    std::string prefix = t.substr(0, space);
    auto [it, fresh] = runs.try_emplace(prefix);
    if (fresh) order.push_back(prefix);
    it->second.push_back(*x);
  }
  for (const auto& t : plain) out.push_back(t);
  for (const auto& prefix : order) {
    auto xs = runs[prefix];
    std::sort(xs.begin(), xs.end());
    std::size_t i = 0;
    while (i < xs.size()) {  // split into maximal evenly spaced runs
      std::size_t j = i + 1;
      double step = j < xs.size() ? xs[j] - xs[i] : 0;
      while (j < xs.size() && std::abs((xs[j] - xs[j - 1]) - step) < 1e-9) ++j;
      if (j - i >= 3) {
        out.push_back({{"prefix", prefix}, {"from", xs[i]}, {"to", xs[j - 1]}, {"step", step}});
        i = j;
      } else {
        out.push_back(prefix + " " + short_number(xs[i]));
        ++i;
      }
    }
  }
  return out;
}

// legal_json's text. Lists that cannot fold (every Tablut position) are written straight to text.
std::string legal_text(const std::vector<std::string>& texts) {
  bool folds = texts.size() > 64 && std::any_of(texts.begin(), texts.end(), [](const std::string& t) {
                 return ends_with_number(t, t.rfind(' '));
               });
  if (folds) return legal_json(texts).dump();
  std::string out = "[";
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (i > 0) out += ',';
    write_json_string(texts[i], out);
  }
  out += ']';
  return out;
}

}  // namespace

json clock_json(const ClockSpec& c) {
  if (c.correspondence()) return {{"days", c.days}};
  if (c.enabled()) return {{"base_ms", c.base_ms}, {"increment_ms", c.increment_ms}};
  return nullptr;
}

Message Room::event(json body, const std::string& position) {
  ++version_;
  body["type"] = "event";
  body["room"] = id_;
  body["version"] = version_;
  std::string text = body.dump();
  if (!position.empty()) {  // spliced in as text: it is the bulk of the message, and already JSON
    text.pop_back();
    text += ",\"position\":";
    text += position;
    text += '}';
  }
  auto m = std::make_shared<const std::string>(std::move(text));
  log_.emplace_back(version_, m);
  while (log_.size() > kEventLog) log_.pop_front();
  return m;
}

std::optional<std::vector<Message>> Room::events_since(std::int64_t version) const {
  if (version > version_ || version < 0) return std::nullopt;
  if (version == version_) return std::vector<Message>{};
  if (log_.empty() || log_.front().first > version + 1) return std::nullopt;
  std::vector<Message> out;
  for (const auto& [v, m] : log_)
    if (v > version) out.push_back(m);
  return out;
}

json Room::clocks_json(Now now) const {
  if (!config_.clock.enabled()) return nullptr;
  auto left = clock_left(now);
  return {{"ms", {left[0], left[1]}}, {"running", running_ >= 0 ? json(running_) : json(nullptr)}};
}

json Room::result_json() const {
  auto r = record_.result();
  if (!r) return nullptr;
  json out = {{"text", record_.result_text()}};
  out["winner"] = r->kind == Outcome::Kind::win ? json(r->winner) : json(nullptr);
  out["reason"] = r->kind == Outcome::Kind::aborted ? std::string("aborted") : r->reason;
  out["detail"] = r->detail;
  return out;
}

json Room::seats_json() const {
  json out = json::array();
  for (int s = 0; s < 2; ++s) {
    if (seats_[s].id.empty())
      out.push_back(nullptr);
    else
      out.push_back({{"id", seats_[s].id}, {"name", seats_[s].name}, {"online", online_[s]}});
  }
  return out;
}

// The position as JSON text, built once per event: the small fields through nlohmann, the legal actions and
// the view (most of the bytes) written straight to text.
std::string Room::position_text(Now now) const {
  const State& st = record_.state();
  int seat = seat_to_move();
  std::string legal = "[]";
  bool can_end = false;
  if (seat >= 0) {
    std::vector<std::string> texts;
    for (Action a : st.legal_actions()) {
      if (a.is_end_turn())
        can_end = true;
      else
        texts.push_back(st.action_text(a));
    }
    legal = legal_text(texts);
  }
  json small = {
      {"status", status_name(status_)},
      {"turn", record_.turn_count()},
      {"round", st.round()},
      {"to_move", seat >= 0 ? json(seat) : json(nullptr)},
      {"side", seat >= 0 ? json(std::string(1, record_.game().side_letter(st.to_move()))) : json(nullptr)},
      {"mid_turn", seat >= 0 && st.mid_turn()},
      {"can_end_turn", can_end},
      {"clocks", clocks_json(now)},
      {"deadline_ms", wall_deadline() ? json(*wall_deadline()) : json(nullptr)},
      {"draw_offer", draw_offer_ >= 0 ? json(draw_offer_) : json(nullptr)},
      {"result", result_json()}};
  std::string out = small.dump();
  out.pop_back();  // the closing brace: the big members follow
  out.reserve(out.size() + legal.size() + 2048);
  out += ",\"legal\":";
  out += legal;
  out += ",\"view\":";
  write_json(st.view(), out);
  out += '}';
  return out;
}

json Room::position_json(Now now) const { return json::parse(position_text(now)); }

json Room::state_json(Now now) const {
  json state = state_fields();
  state["position"] = position_json(now);
  return state;
}

// The state's members but the position (the bulk of it, written as text by position_text).
json Room::state_fields() const {
  auto letters = record_.game().side_letters();
  json clock = clock_json(config_.clock);
  return {{"type", "state"},
          {"room", id_},
          {"version", version_},
          {"game", std::string(record_.game().name())},
          {"options", config_.options},
          {"clock", clock},
          {"private", config_.is_private},
          {"created_ms", created_ms_},
          {"sides", {std::string(1, letters[0]), std::string(1, letters[1])}},
          {"seats", seats_json()},
          {"spectators", spectators_},
          {"rematch_of", config_.rematch_of.empty() ? json(nullptr) : json(config_.rematch_of)},
          {"rematch", rematch_room_.empty() ? json(nullptr) : json(rematch_room_)},
          {"rematch_asked", {rematch_[0], rematch_[1]}},
          {"record", record_.write()}};
}

std::string Room::state_message(Now now) const { return state_message(now, json::object()); }

std::string Room::state_message(Now now, const json& extra) const {
  json state = state_fields();
  if (extra.is_object())
    for (const auto& [k, v] : extra.items()) state[k] = v;
  std::string text = state.dump();
  text.pop_back();  // the closing brace: the position follows, already JSON text
  text += ",\"position\":";
  text += position_text(now);
  text += '}';
  return text;
}

json Room::summary(Now now) const {
  json seats = json::array();
  for (const auto& p : seats_) seats.push_back(p.id.empty() ? json(nullptr) : json{{"name", p.name}});
  json clock = clock_json(config_.clock);
  return {{"room", id_},
          {"game", std::string(record_.game().name())},
          {"options", config_.options},
          {"clock", clock},
          {"status", status_name(status_)},
          {"seats", seats},
          {"spectators", spectators_},
          {"turn", record_.turn_count()},
          {"result", record_.finished() ? json(record_.result_text()) : json(nullptr)},
          {"created_ms", created_ms_},
          {"clocks", status_ == Status::live ? clocks_json(now) : json(nullptr)},
          {"to_move", seat_to_move() >= 0 ? json(seat_to_move()) : json(nullptr)},
          {"deadline_ms", wall_deadline() ? json(*wall_deadline()) : json(nullptr)}};
}

}  // namespace cinq::lobby
