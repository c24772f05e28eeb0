// analyze (analysis/analysis.h): the record replayed turn by turn, each position before a turn searched once.
#include "analysis/analysis.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace cinq::analysis {

using nlohmann::json;

namespace {

// The canonical text of the last turn entry of `record`.
std::string last_turn_text(const Record& record) {
  const std::vector<Entry>& entries = record.entries();
  for (auto it = entries.rbegin(); it != entries.rend(); ++it)
    if (it->kind == Entry::Kind::turns && !it->turns.empty()) return turn_text(it->turns.front());
  return {};
}

// A seat's win chance in a finished position.
double outcome_chance(const Outcome& o, int seat) {
  if (o.kind == Outcome::Kind::win) return o.winner == seat ? 1.0 : 0.0;
  return 0.5;
}

std::optional<std::int64_t> number_after(std::string_view key, std::string_view prefix) {
  if (!key.starts_with(prefix)) return std::nullopt;
  key.remove_prefix(prefix.size());
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), n);
  if (ec != std::errc() || end != key.data() + key.size() || key.empty()) return std::nullopt;
  return n;
}

}  // namespace

std::string Settings::key() const {
  return think_ms > 0 ? "think=" + std::to_string(think_ms) : "depth=" + std::to_string(depth);
}

std::optional<std::string> check(const Settings& s) {
  if (s.think_ms != 0 && (s.think_ms < kMinThinkMs || s.think_ms > kMaxThinkMs))
    return "think_ms: " + std::to_string(s.think_ms) + " is not from " + std::to_string(kMinThinkMs) + " to " +
           std::to_string(kMaxThinkMs);
  if (s.think_ms == 0 && (s.depth < kMinDepth || s.depth > kMaxDepth))
    return "depth: " + std::to_string(s.depth) + " is not from " + std::to_string(kMinDepth) + " to " +
           std::to_string(kMaxDepth);
  return std::nullopt;
}

std::optional<Settings> parse_key(std::string_view key) {
  Settings s;
  if (auto d = number_after(key, "depth=")) {
    if (*d < kMinDepth || *d > kMaxDepth) return std::nullopt;
    s.depth = static_cast<int>(*d);
  } else if (auto t = number_after(key, "think=")) {
    s.think_ms = *t;
    if (check(s)) return std::nullopt;
  } else {
    return std::nullopt;
  }
  return s;
}

bots::Settings search_settings(const Settings& settings, std::uint64_t seed) {
  // The strongest bot: level 5's policy (no slip, its own search shares), capped at the depth's playouts.
  bots::Settings s = bots::level_settings(bots::kMaxLevel);
  if (settings.think_ms > 0) {
    s.think = std::chrono::milliseconds(settings.think_ms);
    s.playouts = 0;
  } else {
    const bots::Settings d = bots::level_settings(settings.depth);
    s.playouts = d.playouts;
    // The cap decides; the think time (twice the level's) only bounds a loaded machine.
    s.think = d.think * 2;
  }
  s.hard_limit = s.think * 2 + std::chrono::milliseconds(1000);
  s.seed = seed;
  return s;
}

Mark mark_for(double drop) {
  if (drop >= kBlunder - 1e-9) return Mark::blunder;
  if (drop >= kMistake - 1e-9) return Mark::mistake;
  return Mark::none;
}

const char* mark_name(Mark mark) {
  switch (mark) {
    case Mark::mistake: return "mistake";
    case Mark::blunder: return "blunder";
    case Mark::none: break;
  }
  return "";
}

Result<Analysis> analyze(const Record& record, const Settings& settings, const std::atomic<bool>* cancel,
                         const std::function<void(int, int)>& progress) {
  if (auto bad = check(settings)) return make_error(*bad);
  Analysis out;
  out.game = std::string(record.game().name());
  out.settings = settings;
  std::vector<const TurnText*> turns;
  for (const Entry& e : record.entries())
    if (e.kind == Entry::Kind::turns && !e.turns.empty()) turns.push_back(&e.turns.front());
  const int total = static_cast<int>(turns.size());

  // Each position k (0..total: before turn k, the last one after every turn): seat 0's win chance, when the
  // search or the board says it (a forced turn is not searched: its position is worth what the next is).
  std::vector<std::optional<double>> chance0(turns.size() + 1);
  // Where the best turn found at position k is another than the one played: seat 0's chance after it, found
  // as the chance after the turn played is (the position with the opponent to move, searched), so that the
  // two compare without the search's bias for the side it searches for.
  std::vector<std::optional<double>> best0(turns.size());
  Record replay = Record::start(record.game(), record.options());
  int round = 1, in_round = 0;
  // Seat 0's chance in `st` (searched with `seed`), or nothing for a forced turn; `best` gets the best turn.
  auto evaluate = [&](const State& st, std::uint64_t seed, std::vector<Action>* best) -> std::optional<double> {
    if (st.outcome().over()) return outcome_chance(st.outcome(), 0);
    bots::Turn turn = bots::choose_turn(st, search_settings(settings, seed), cancel);
    if (best) *best = std::move(turn.actions);
    if (turn.value < 0) return std::nullopt;
    return st.seat_of(st.to_move()) == 0 ? turn.value : 1 - turn.value;
  };
  for (std::size_t k = 0; k < turns.size(); ++k) {
    if (cancel && cancel->load()) return make_error("cancelled");
    const State& st = replay.state();
    TurnEval t;
    t.index = static_cast<int>(k);
    if (st.round() != round) {
      round = st.round();
      in_round = 0;
    }
    t.round = round;
    t.number = in_round / 2 + 1;
    ++in_round;
    t.side = record.game().side_letter(st.to_move());
    t.seat = st.seat_of(st.to_move());
    std::vector<Action> best_actions;
    chance0[k] = evaluate(st, k + 1, &best_actions);
    std::optional<Record> tried;
    if (!best_actions.empty()) {
      tried.emplace(replay);
      for (Action a : best_actions)
        if (!tried->play(a)) {
          tried.reset();
          break;
        }
    }
    auto ok = replay.play_turn(turn_text(*turns[k]));
    if (!ok) return make_error("turn " + std::to_string(k + 1) + ": " + ok.error().message);
    t.played = last_turn_text(replay);
    if (tried && last_turn_text(*tried) != t.played) {
      t.best = last_turn_text(*tried);
      best0[k] = evaluate(tried->state(), 1'000'003 + k, nullptr);
    }
    out.turns.push_back(std::move(t));
    if (progress) progress(static_cast<int>(k) + 1, total + 1);
  }
  if (cancel && cancel->load()) return make_error("cancelled");
  chance0[turns.size()] = evaluate(replay.state(), turns.size() + 1, nullptr);
  if (progress) progress(total + 1, total + 1);
  // Unknown values from the end back: a forced turn's position is worth the next one's; a last position with
  // no value (a forced turn not searched) is even.
  for (std::size_t k = chance0.size(); k-- > 0;)
    if (!chance0[k]) chance0[k] = k + 1 < chance0.size() ? *chance0[k + 1] : 0.5;
  for (TurnEval& t : out.turns) {
    const auto k = static_cast<std::size_t>(t.index);
    auto mine = [&](double c0) { return t.seat == 0 ? c0 : 1 - c0; };
    t.before = mine(*chance0[k]);
    t.after = mine(*chance0[k + 1]);
    // The best turn's chance: searched after it, or (a forced reply not searched) the search's own estimate.
    t.best_after = t.best.empty() ? t.after : best0[k] ? mine(*best0[k]) : t.before;
    t.mark = t.best.empty() ? Mark::none : mark_for(t.best_after - t.after);
  }
  return out;
}

namespace {

double rounded(double x) { return std::round(x * 1000) / 1000; }

}  // namespace

json to_json(const Analysis& a) {
  json turns = json::array();
  for (const TurnEval& t : a.turns) {
    json j = {{"round", t.round}, {"number", t.number},         {"side", std::string(1, t.side)},
              {"seat", t.seat},   {"played", t.played},         {"eval", rounded(t.before)},
              {"after", rounded(t.after)}};
    if (!t.best.empty()) {
      j["best"] = t.best;
      j["best_after"] = rounded(t.best_after);
    }
    if (t.mark != Mark::none) j["mark"] = mark_name(t.mark);
    turns.push_back(std::move(j));
  }
  return {{"game", a.game},
          {"settings", a.settings.key()},
          {"thresholds", {{"mistake", kMistake}, {"blunder", kBlunder}}},
          {"turns", std::move(turns)}};
}

Result<Analysis> from_json(const json& j) {
  Analysis a;
  if (!j.is_object()) return make_error("analysis: not an object");
  if (!j.contains("game") || !j["game"].is_string()) return make_error("game: missing or not a string");
  a.game = j["game"].get<std::string>();
  if (!j.contains("settings") || !j["settings"].is_string()) return make_error("settings: missing or not a string");
  auto s = parse_key(j["settings"].get<std::string>());
  if (!s) return make_error("settings: not depth=N or think=MS");
  a.settings = *s;
  if (!j.contains("turns") || !j["turns"].is_array()) return make_error("turns: missing or not an array");
  int index = 0;
  for (const json& tj : j["turns"]) {
    const std::string at = "turns[" + std::to_string(index) + "]";
    if (!tj.is_object()) return make_error(at + ": not an object");
    TurnEval t;
    t.index = index++;
    try {
      t.round = tj.at("round").get<int>();
      t.number = tj.at("number").get<int>();
      const std::string side = tj.at("side").get<std::string>();
      if (side.size() != 1) return make_error(at + ".side: not one letter");
      t.side = side[0];
      t.seat = tj.at("seat").get<int>();
      t.played = tj.at("played").get<std::string>();
      t.before = tj.at("eval").get<double>();
      t.after = tj.at("after").get<double>();
      t.best = tj.value("best", std::string());
      t.best_after = t.best.empty() ? t.after : tj.at("best_after").get<double>();
      const std::string mark = tj.value("mark", std::string());
      t.mark = mark == "blunder" ? Mark::blunder : mark == "mistake" ? Mark::mistake : Mark::none;
      if (!mark.empty() && t.mark == Mark::none) return make_error(at + ".mark: not mistake or blunder");
    } catch (const json::exception& e) {
      return make_error(at + ": " + e.what());
    }
    a.turns.push_back(std::move(t));
  }
  return a;
}

std::string text_lines(const Analysis& a) {
  std::string out;
  char buf[64];
  int round = 1;
  for (const TurnEval& t : a.turns) {
    if (t.round != round) {
      round = t.round;
      out += "#- " + std::to_string(round) + "\n";
    }
    std::snprintf(buf, sizeof buf, "%.2f", t.before);
    out += std::to_string(t.number) + " " + std::string(1, t.side) + " " + t.played + " " + buf + " " +
           (t.best.empty() ? std::string("-") : t.best);
    if (t.mark != Mark::none) out += std::string(" ") + mark_name(t.mark);
    out += '\n';
  }
  return out;
}

}  // namespace cinq::analysis
