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

// Texts that share all but their last word, grouped: {prefix, last words} in the order first seen. A text
// of one word, or alone with its prefix, stays a text (an empty `words`). Views into `texts`, which must
// outlive the groups. The prefixes are few (a move's origin square, say) and come in runs, so they are
// looked for from the last one back rather than kept in a map.
struct Group {
  std::string_view prefix;  // the text itself when `words` is empty
  std::vector<std::string_view> words;
};

std::vector<Group> grouped(const std::vector<std::string>& texts) {
  std::vector<Group> out;
  out.reserve(texts.size());
  for (const auto& t : texts) {
    auto space = t.rfind(' ');
    if (space == std::string::npos || space == 0 || space + 1 == t.size()) {
      out.push_back({t, {}});
      continue;
    }
    std::string_view text(t), prefix = text.substr(0, space);
    auto it = std::find_if(out.rbegin(), out.rend(), [&](const Group& g) { return !g.words.empty() && g.prefix == prefix; });
    if (it == out.rend())
      out.push_back({prefix, {text.substr(space + 1)}});
    else
      it->words.push_back(text.substr(space + 1));
  }
  return out;
}

// A group of one word is written as its whole text.
std::string_view whole_text(const Group& g) {
  return g.words.size() == 1 ? std::string_view(g.prefix.data(), g.prefix.size() + 1 + g.words[0].size())
                             : g.prefix;
}

// docs/protocol.md: a group is ["PREFIX","W1 W2 ..."], standing for "PREFIX W1", "PREFIX W2", ...
std::string words_text(const Group& g) {
  std::string words;
  for (const auto& w : g.words) {
    if (!words.empty()) words += ' ';
    words += w;
  }
  return words;
}

json legal_json(const std::vector<std::string>& texts) {
  json out = json::array();
  std::map<std::string, std::vector<double>> runs;  // prefix -> last numbers
  std::vector<std::string> order;
  std::vector<std::string> plain;
  for (const auto& t : texts) {
    auto space = t.rfind(' ');
    bool may_be_number = texts.size() > 64 && ends_with_number(t, space);
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
  for (const auto& g : grouped(plain))
    out.push_back(g.words.size() <= 1 ? json(std::string(whole_text(g)))
                                      : json::array({std::string(g.prefix), words_text(g)}));
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
  for (const auto& g : grouped(texts)) {
    if (out.size() > 1) out += ',';
    if (g.words.size() <= 1) {
      write_json_string(whole_text(g), out);
      continue;
    }
    out += '[';
    write_json_string(g.prefix, out);
    out += ',';
    write_json_string(words_text(g), out);
    out += ']';
  }
  out += ']';
  return out;
}

}  // namespace

json ungroup_legal(const json& legal) {
  json out = json::array();
  for (const json& entry : legal) {
    if (!entry.is_array()) {
      out.push_back(entry);
      continue;
    }
    const std::string prefix = entry.at(0).get<std::string>(), words = entry.at(1).get<std::string>();
    for (std::size_t at = 0; at <= words.size();) {
      std::size_t end = std::min(words.find(' ', at), words.size());
      out.push_back(prefix + " " + words.substr(at, end - at));
      at = end + 1;
    }
  }
  return out;
}

Failure rules_failure(std::string code, const Error& error) {
  Failure f{std::move(code), error.message};
  f.reason_code = error.code;
  f.params = error.params;
  return f;
}

void add_reason(const Failure& failure, json& error) {
  if (!failure.reason_code.empty()) {
    error["reason_code"] = failure.reason_code;
    json params = json::object();
    for (const auto& p : failure.params) params[p.first] = p.second;
    error["params"] = std::move(params);
  }
  if (failure.turn > 0) error["turn"] = failure.turn;
}

json clock_json(const ClockSpec& c) {
  if (c.correspondence()) return {{"days", c.days}};
  if (c.enabled()) return {{"base_ms", c.base_ms}, {"increment_ms", c.increment_ms}};
  return nullptr;
}

namespace {

// `key`'s value in `object`, looked for first at `*at` (then anywhere): two positions list their members in
// the same order, so walking both together finds each key at once instead of searching the whole object.
const Value* find_near(const Value::Object& object, std::string_view key, std::size_t* at) {
  if (*at < object.size() && object[*at].first == key) return &object[(*at)++].second;
  for (std::size_t i = 0; i < object.size(); ++i)
    if (object[i].first == key) {
      *at = i + 1;
      return &object[i].second;
    }
  return nullptr;
}

bool same(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  if (a.is_bool()) return b.is_bool() && a.as_bool() == b.as_bool();
  if (a.is_int()) return b.is_int() && a.as_int() == b.as_int();
  if (a.is_double()) return b.is_double() && a.as_double() == b.as_double();
  if (a.is_string()) return b.is_string() && a.as_string() == b.as_string();
  if (a.is_array()) {
    if (!b.is_array() || a.as_array().size() != b.as_array().size()) return false;
    for (std::size_t i = 0; i < a.as_array().size(); ++i)
      if (!same(a.as_array()[i], b.as_array()[i])) return false;
    return true;
  }
  if (!b.is_object() || a.as_object().size() != b.as_object().size()) return false;
  std::size_t at = 0;
  for (const auto& [k, x] : a.as_object()) {
    const Value* y = find_near(b.as_object(), k, &at);
    if (!y || !same(x, *y)) return false;
  }
  return true;
}

}  // namespace

Value merge_patch(const Value& from, const Value& to) {
  if (!from.is_object() || !to.is_object()) return to;
  Value patch = Value::object();
  std::size_t at = 0;
  for (const auto& [k, x] : to.as_object()) {
    const Value* was = find_near(from.as_object(), k, &at);
    if (x.is_null()) {
      if (was && !was->is_null()) patch.set(k, nullptr);  // removed
    } else if (!was || was->is_null()) {
      patch.set(k, x);
    } else if (x.is_object() && was->is_object()) {
      Value sub = merge_patch(*was, x);
      if (!sub.as_object().empty()) patch.set(k, std::move(sub));
    } else if (!same(*was, x)) {
      patch.set(k, x);
    }
  }
  at = 0;
  for (const auto& [k, x] : from.as_object())
    if (!x.is_null() && !find_near(to.as_object(), k, &at)) patch.set(k, nullptr);
  return patch;
}

namespace {

// A reader of JSON texts as write_json writes them (no whitespace, keys sorted): what merge_patch_text needs
// to walk the position last shown without building it again as a tree.
std::size_t value_end(std::string_view t, std::size_t i) {
  if (i >= t.size()) return t.size();
  if (t[i] == '"') {
    for (++i; i < t.size() && t[i] != '"'; ++i)
      if (t[i] == '\\') ++i;
    return std::min(i + 1, t.size());
  }
  if (t[i] == '{' || t[i] == '[') {
    int depth = 0;
    for (; i < t.size(); ++i) {
      const char c = t[i];
      if (c == '"') {
        i = value_end(t, i) - 1;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return i + 1;
      }
    }
    return t.size();
  }
  while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']') ++i;
  return i;
}

struct TextMember {
  std::string_view key;    // as written, without its quotes
  std::string_view value;  // the value's text
};

// The members of the object text `t`; false if it is not one, or a key holds an escape (never in a position:
// then the caller compares trees).
bool text_members(std::string_view t, std::vector<TextMember>& out) {
  out.clear();
  if (t.size() < 2 || t.front() != '{' || t.back() != '}') return false;
  std::size_t i = 1;
  while (i < t.size() && t[i] != '}') {
    if (t[i] != '"') return false;
    const std::size_t key_end = value_end(t, i);
    std::string_view key = t.substr(i + 1, key_end - i - 2);
    if (key.find('\\') != std::string_view::npos || key_end >= t.size() || t[key_end] != ':') return false;
    const std::size_t start = key_end + 1, end = value_end(t, start);
    out.push_back({key, t.substr(start, end - start)});
    i = end;
    if (i < t.size() && t[i] == ',') ++i;
  }
  return true;
}

// write_json writes an object's keys in order: looked up by halves, then (a text not in order) one by one.
const TextMember* find_text(const std::vector<TextMember>& members, std::string_view key) {
  auto it = std::lower_bound(members.begin(), members.end(), key,
                             [](const TextMember& m, std::string_view k) { return m.key < k; });
  if (it != members.end() && it->key == key) return &*it;
  for (const TextMember& m : members)
    if (m.key == key) return &m;
  return nullptr;
}

Value value_of(const json& j) {
  if (j.is_null()) return {};
  if (j.is_boolean()) return j.get<bool>();
  if (j.is_number_integer()) return j.get<std::int64_t>();
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) return j.get<std::string>();
  if (j.is_array()) {
    Value a = Value::array();
    for (const auto& x : j) a.push(value_of(x));
    return a;
  }
  Value o = Value::object();
  for (const auto& [k, x] : j.items()) o.set(k, value_of(x));
  return o;
}

}  // namespace

Value merge_patch_text(std::string_view from, const Value& to) {
  if (!to.is_object()) return to;
  if (from.empty() || from.front() != '{') return to;
  std::vector<TextMember> was;
  if (!text_members(from, was)) return merge_patch(value_of(json::parse(from)), to);
  Value patch = Value::object();
  std::string text;
  for (const auto& [k, x] : to.as_object()) {
    const TextMember* m = find_text(was, k);
    const bool absent = !m || m->value == "null";
    if (x.is_null()) {
      if (!absent) patch.set(k, nullptr);  // removed
    } else if (absent) {
      patch.set(k, x);
    } else if (x.is_object() && !m->value.empty() && m->value.front() == '{') {
      Value sub = merge_patch_text(m->value, x);
      if (!sub.as_object().empty()) patch.set(k, std::move(sub));
    } else {
      text.clear();
      write_json(x, text);
      if (text != m->value) patch.set(k, x);
    }
  }
  std::vector<std::string_view> keys;  // the new position's, in order, for the members it lost
  keys.reserve(to.as_object().size());
  for (const auto& member : to.as_object()) keys.push_back(member.first);
  std::sort(keys.begin(), keys.end());
  for (const TextMember& m : was)
    if (m.value != "null" && !std::binary_search(keys.begin(), keys.end(), m.key))
      patch.set(std::string(m.key), nullptr);
  return patch;
}

std::string with_members(const std::string& message, const std::string& members) {
  if (members.empty()) return message;
  std::string out;
  out.reserve(message.size() + members.size() + 1);
  out.append(message, 0, message.size() - 1);  // without its closing brace
  if (out.size() > 1) out += ',';
  out += members;
  out += '}';
  return out;
}

Message Room::event(json body) {
  ++version_;
  body["type"] = "event";
  body["room"] = id_;
  body["version"] = version_;
  body["epoch"] = epoch_;
  auto m = std::make_shared<const std::string>(body.dump());
  log_.push_back({version_, m});
  return m;
}

namespace {

// The events a room keeps as notes (Room::kNotesKept): what a page words beside the moves.
bool note_kind(const std::string& kind) {
  return kind == "draw_offer" || kind == "draw_declined" || kind == "takeback_offer" ||
         kind == "takeback_declined" || kind == "takeback" || kind == "finished" || kind == "seated";
}

}  // namespace

void Room::note(const json& body, Now now) {
  const std::string kind = body.value("kind", "");
  if (!note_kind(kind)) return;
  if (kind == "seated" && !body.contains("replaces")) return;  // only a seat that moved is news later
  json n = {{"kind", kind}, {"version", version_}, {"at_ms", now.unix_ms}};
  for (const char* key : {"seat", "result", "replaces", "player"})
    if (auto it = body.find(key); it != body.end()) n[key] = *it;
  notes_.push_back(n.dump());
}

Message Room::event(json body, Effect& e, Now now) {
  ++version_;
  note(body, now);
  body["type"] = "event";
  body["room"] = id_;
  body["version"] = version_;
  body["epoch"] = epoch_;
  std::string text = body.dump();
  Value position = position_value(now);
  Value patch = merge_patch_text(shown_, position);
  // A running clock's `ms` is as of now: always sent whole, so a client that joined since the last event
  // (its state read the clock later than shown_ did) cannot keep a time the patch would leave out.
  if (config_.clock.enabled() && patch.is_object()) {
    Value whole = Value::object();
    for (const auto& [k, v] : patch.as_object())
      if (k != "clocks") whole.set(k, v);
    if (const Value* c = position.find("clocks")) {
      Value clocks = *c;
      // Sent whole, but merged into the client's clocks: a member that went away must be removed.
      std::vector<TextMember> was, before;
      const TextMember* shown_clocks = text_members(shown_, was) ? find_text(was, "clocks") : nullptr;
      if (shown_clocks && text_members(shown_clocks->value, before) && clocks.is_object() &&
          find_text(before, "first_move_ms") && !clocks.find("first_move_ms"))
        clocks.set("first_move_ms", Value());
      whole.set("clocks", std::move(clocks));
    }
    patch = std::move(whole);
  }
  shown_.clear();
  write_json(position, shown_);
  // Kept by every room until its next turn: not left at twice its size by the string's growth, but not
  // reallocated at every turn either (positions of one game differ by a few bytes).
  if (shown_.capacity() > shown_.size() + shown_.size() / 8) shown_.shrink_to_fit();
  text.pop_back();  // spliced in as text: already JSON
  text += ",\"patch\":";
  write_json(patch, text);
  text += '}';
  auto m = std::make_shared<const std::string>(std::move(text));
  log_.push_back({version_, m});
  e.patched = e.events.size();  // the index this event will have
  e.mover = seat_to_move();
  e.legal = legal_members();
  return m;
}

void Room::set_epoch(std::int64_t epoch) {
  epoch_ = epoch;
  log_.clear();  // their texts name the epoch they were numbered in
}

std::optional<std::vector<Message>> Room::events_since(const Since& since) const {
  if (since.epoch && *since.epoch != epoch_) return std::nullopt;
  const std::int64_t version = since.version;
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
  out["detail"] = r->kind == Outcome::Kind::aborted ? abort_detail_ : r->detail;
  return out;
}

json Room::seats_json() const {
  json out = json::array();
  for (int s = 0; s < 2; ++s) {
    if (seats_[s].id.empty())
      out.push_back(nullptr);
    else {
      json seat = {{"id", seats_[s].id}, {"name", seats_[s].name}, {"online", online_[s]}};
      if (!seats_[s].username.empty()) seat["username"] = seats_[s].username;
      if (seats_[s].rating) seat["rating"] = rating_json(*seats_[s].rating);
      out.push_back(std::move(seat));
    }
  }
  return out;
}

// The position, the same for everyone in the room (the legal actions are legal_members()).
Value Room::position_value(Now now) const { return position_of(record_, now); }

Value Room::position_of(const Record& record, Now now) const {
  const State& st = record.state();
  const bool finished = status_ == Status::finished || record.finished();
  const int seat = status_ == Status::live && !finished ? st.seat_of(st.to_move()) : -1;
  Value p = Value::object();
  p.set("status", status_name(finished ? Status::finished : status_));
  p.set("turn", record.turn_count());
  p.set("round", st.round());
  p.set("to_move", seat >= 0 ? Value(seat) : Value());
  // No `side`: the state's `sides[to_move]` says it, and a patch goes to every connection at every turn.
  p.set("mid_turn", seat >= 0 && st.mid_turn());
  if (config_.clock.enabled()) {
    auto left = clock_left(now);
    Value clocks = Value::object();
    clocks.set("ms", Value(Value::Array{Value(left[0]), Value(left[1])}));
    clocks.set("running", running_ >= 0 ? Value(running_) : Value());
    if (first_move_since_ >= 0 && &record == &record_)
      clocks.set("first_move_ms",
                 Value(std::max<std::int64_t>(0, first_move_since_ + kFirstMoveMs - now.steady_ms)));
    p.set("clocks", std::move(clocks));
  } else {
    p.set("clocks", Value());
  }
  p.set("deadline_ms", wall_deadline() ? Value(*wall_deadline()) : Value());
  p.set("draw_offer", draw_offer_ >= 0 ? Value(draw_offer_) : Value());
  p.set("takeback_offer", takeback_offer_ >= 0 ? Value(takeback_offer_) : Value());
  if (auto r = record.result()) {
    Value result = Value::object();
    result.set("text", record.result_text());
    result.set("winner", r->kind == Outcome::Kind::win ? Value(r->winner) : Value());
    result.set("reason", r->kind == Outcome::Kind::aborted ? std::string("aborted") : r->reason);
    result.set("detail", r->kind == Outcome::Kind::aborted && &record == &record_ ? abort_detail_ : r->detail);
    p.set("result", std::move(result));
  } else {
    p.set("result", Value());
  }
  // Hints given (a game against the computer): only once there are any, so other games' positions do not
  // change.
  if (const auto h = hints(); h[0] + h[1] > 0) {
    Value counts = Value::array();
    counts.push(Value(h[0]));
    counts.push(Value(h[1]));
    p.set("hints", std::move(counts));
  }
  p.set("view", st.view());
  return p;
}

std::string Room::position_text(Now now) const {
  std::string out;
  out.reserve(2048);
  write_json(position_value(now), out);
  return out;
}

std::string Room::legal_members() const {
  if (seat_to_move() < 0) return {};
  return legal_members_of(record_.state());
}

std::string Room::legal_members_of(const State& st) {
  std::vector<std::string> texts;
  bool can_end = false;
  for (Action a : st.legal_actions()) {
    if (a.is_end_turn())
      can_end = true;
    else
      texts.push_back(st.action_text(a));
  }
  std::string out = "\"legal\":";
  out += legal_text(texts);
  if (can_end) out += ",\"can_end_turn\":true";  // absent: false
  return out;
}

json Room::state_json(Now now, int viewer) const { return json::parse(state_message(now, viewer)); }

// The state's members but the position (the bulk of it, written as text by position_text).
json Room::state_fields() const {
  auto letters = record_.game().side_letters();
  json clock = clock_json(config_.clock);
  return {{"type", "state"},
          {"room", id_},
          {"version", version_},
          {"epoch", epoch_},
          {"game", std::string(record_.game().name())},
          {"options", config_.options},
          {"clock", clock},
          {"private", config_.is_private},
          {"rated", config_.rated},
          {"created_ms", created_ms_},
          {"sides", {std::string(1, letters[0]), std::string(1, letters[1])}},
          {"seats", seats_json()},
          {"spectators", spectators_},
          {"rematch_of", config_.rematch_of.empty() ? json(nullptr) : json(config_.rematch_of)},
          {"rematch", rematch_room_.empty() ? json(nullptr) : json(rematch_room_)},
          {"rematch_asked", {rematch_[0], rematch_[1]}},
          {"record", record_.write()}};
}

std::string Room::state_message(Now now, int viewer) const {
  return state_message(now, viewer, json::object());
}

std::string Room::state_message(Now now, int viewer, const json& extra) const {
  json state = state_fields();
  json chat = json::array();
  for (const ChatLine& line : chat_)
    if (may_read(line, viewer)) chat.push_back(chat_json(line));
  state["chat"] = std::move(chat);
  if (json links = seat_links_json(seat_links(viewer)); !links.is_null()) state["links"] = std::move(links);
  if (!notes_.empty()) {
    json notes = json::array();
    for (const std::string& n : notes_) notes.push_back(json::parse(n));
    state["notes"] = std::move(notes);
  }
  if (extra.is_object())
    for (const auto& [k, v] : extra.items()) state[k] = v;
  std::string text = state.dump();
  text.pop_back();  // the closing brace: the position follows, already JSON text
  text += ",\"position\":";
  write_json(position_value(now), text);
  if (viewer >= 0 && viewer == seat_to_move()) {
    text += ',';
    text += legal_members();
  }
  text += '}';
  return text;
}

Summary Room::summary(Now now) const {
  if (!summary_fixed_)
    summary_fixed_ = std::make_shared<const json>(json{{"room", id_},
                                                       {"game", std::string(record_.game().name())},
                                                       {"options", config_.options},
                                                       {"clock", clock_json(config_.clock)},
                                                       {"rated", config_.rated},
                                                       {"created_ms", created_ms_}});
  Summary s;
  s.fixed = summary_fixed_;
  s.status = status_;
  for (int i = 0; i < 2; ++i)
    if (!seats_[i].id.empty()) {
      s.seats[i] = seats_[i].name;
      s.ratings[i] = seats_[i].rating;
      s.usernames[i] = seats_[i].username;
    }
  s.spectators = spectators_;
  s.turn = record_.turn_count();
  if (record_.finished()) s.result = record_.result_text();
  if (status_ == Status::live && config_.clock.enabled()) {
    s.clock_ms = clock_left(now);
    s.running = running_;
  }
  s.to_move = seat_to_move();
  s.deadline_ms = wall_deadline();
  return s;
}

json rating_json(const SeatRating& r) {
  return {{"rating", std::round(r.rating)}, {"provisional", r.provisional}};
}

json Summary::to_json() const {
  json out = fixed ? *fixed : json::object();
  json seat_list = json::array();
  for (int i = 0; i < 2; ++i) {
    if (!seats[i]) {
      seat_list.push_back(nullptr);
      continue;
    }
    json seat = {{"name", *seats[i]}};
    if (!usernames[i].empty()) seat["username"] = usernames[i];
    if (ratings[i]) seat["rating"] = rating_json(*ratings[i]);
    seat_list.push_back(std::move(seat));
  }
  out["status"] = status_name(status);
  out["seats"] = std::move(seat_list);
  out["spectators"] = spectators;
  out["turn"] = turn;
  out["result"] = result ? json(*result) : json(nullptr);
  out["clocks"] = clock_ms ? json{{"ms", {(*clock_ms)[0], (*clock_ms)[1]}},
                                  {"running", running >= 0 ? json(running) : json(nullptr)}}
                           : json(nullptr);
  out["to_move"] = to_move >= 0 ? json(to_move) : json(nullptr);
  out["deadline_ms"] = deadline_ms ? json(*deadline_ms) : json(nullptr);
  return out;
}

}  // namespace cinq::lobby
