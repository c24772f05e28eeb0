// Records, writing: the canonical layout of a record (notation.md). Reading it back gives the same game.
#include <algorithm>

#include "rules/notation.h"

namespace cinq {

namespace {

struct Line {
  std::string text;   // a whole line, or empty for a turn line
  int number = 0;     // a turn line's number
  std::string first;  // a turn line's turns
  std::string second;
  bool is_turn = false;
};

std::string result_line(const ResultText& r) {
  if (r.aborted) return "#= aborted";
  return "#= " + r.winner + " " + r.reason + (r.detail.empty() ? "" : " " + r.detail);
}

bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// What an entry's text is to the layout, told as parse_lines tells the lines apart.
enum class Kind { turn, ellipsis, round, result, line };

Kind kind_of(std::string_view t) {
  if (t == "...") return Kind::ellipsis;
  if (t.size() >= 2 && t[0] == '#' && t[1] == '-' && (t.size() == 2 || is_space(t[2]) || is_digit(t[2])))
    return Kind::round;
  if (t.size() >= 2 && t[0] == '#' && t[1] == '=' && (t.size() == 2 || is_space(t[2]) || is_alnum(t[2])))
    return Kind::result;
  if (t.size() >= 2 && t[0] >= 'A' && t[0] <= 'Z' && t[1] == '/') return Kind::turn;
  return Kind::line;
}

}  // namespace

std::string entry_text(const Entry& e) {
  switch (e.kind) {
    case Entry::Kind::header:
      return {};
    case Entry::Kind::turns:
      return e.turns.empty() ? std::string() : turn_text(e.turns.front());
    case Entry::Kind::ellipsis:
      return "...";
    case Entry::Kind::round:
      return "#- " + std::to_string(e.number);
    case Entry::Kind::result:
      return result_line(e.result);
    case Entry::Kind::players: {
      std::string s;
      for (const auto& [letter, name] : e.players)
        s += (s.empty() ? "" : "    ") + std::string(1, letter) + " = " + name;
      return s;
    }
    case Entry::Kind::timestamp:
      return "> " + e.text;
    case Entry::Kind::comment:
      return e.text;
  }
  return {};
}

std::string layout_record(std::string_view header, const std::vector<std::string>& entries) {
  std::vector<Line> lines;
  lines.reserve(entries.size());
  std::vector<Line> pending;  // lines that arrived between the two turns of a turn line
  bool half = false;
  int turn_in_round = 0;
  auto text_line = [&](const std::string& text) {
    Line l;
    l.text = text;
    (half ? pending : lines).push_back(std::move(l));
  };
  auto close_half = [&] {
    half = false;
    for (auto& l : pending) lines.push_back(std::move(l));
    pending.clear();
  };
  // The turn line is the last one that is a turn line (pending lines were held back).
  auto last_turn_line = [&]() -> Line& {
    return *std::find_if(lines.rbegin(), lines.rend(), [](const Line& l) { return l.is_turn; });
  };
  for (const std::string& text : entries) {
    switch (kind_of(text)) {
      case Kind::turn:
        if (turn_in_round % 2 == 0) {
          Line l;
          l.is_turn = true;
          l.number = turn_in_round / 2 + 1;
          l.first = text;
          lines.push_back(std::move(l));
          half = true;
        } else {
          last_turn_line().second = text;
          close_half();
        }
        ++turn_in_round;
        break;
      case Kind::ellipsis:
        if (half) {
          last_turn_line().second = "...";
          close_half();
        } else {
          text_line("...");
        }
        break;
      case Kind::round:
        close_half();
        text_line(text);
        turn_in_round = 0;
        break;
      case Kind::result:
        close_half();
        text_line(text);
        break;
      case Kind::line:
        text_line(text);
        break;
    }
  }
  close_half();

  std::size_t number_width = 4, first_width = 0;
  for (const Line& l : lines)
    if (l.is_turn) {
      number_width = std::max(number_width, std::to_string(l.number).size() + 1);
      if (!l.second.empty()) first_width = std::max(first_width, l.first.size() + 3);
    }
  std::string out;
  out.reserve(header.size() + 1 + lines.size() * (number_width + 2 * first_width + 2));
  if (!header.empty()) {
    out += header;
    out += '\n';
  }
  for (const Line& l : lines) {
    if (!l.is_turn) {
      out += l.text;
      out += '\n';
      continue;
    }
    const std::size_t start = out.size();
    out += std::to_string(l.number);
    out.resize(start + number_width, ' ');
    out += l.first;
    if (!l.second.empty()) {
      out.resize(std::max(out.size() + 1, start + number_width + first_width), ' ');
      out += l.second;
    }
    out += '\n';
  }
  return out;
}

Result<RecordParts> split_record(std::string_view text) {
  auto entries = parse_lines(text);
  if (!entries) return entries.error();
  RecordParts parts;
  parts.entries.reserve(entries->size() + entries->size() / 2);
  for (const Entry& e : *entries) {
    if (e.kind == Entry::Kind::header) {
      // The line as written (parse_lines keeps no text of it), without the spaces around it.
      if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
      std::size_t at = 0;
      for (int line = 1; line < e.line; ++line) at = text.find('\n', at) + 1;
      std::string_view s = text.substr(at, text.find('\n', at) - at);
      while (!s.empty() && (is_space(s.back()) || s.back() == '\r')) s.remove_suffix(1);
      while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
      parts.header = std::string(s);
    } else if (e.kind == Entry::Kind::turns) {
      for (const TurnText& t : e.turns) parts.entries.push_back(turn_text(t));
      if (e.ellipsis) parts.entries.emplace_back("...");
    } else {
      parts.entries.push_back(entry_text(e));
    }
  }
  return parts;
}

std::string Record::header_line() const {
  std::string out = "#! " + std::string(game_->record_name());
  if (!options_.explicit_values().empty()) out += " " + options_.text();
  return out;
}

// What the board decided after the last kept entry: finished rounds' results, then the game's.
std::vector<std::string> Record::trailing_results() const {
  std::vector<std::string> out;
  for (int r = written_round_results_ + 1; r < state_->round(); ++r)
    if (auto o = state_->round_result(r)) out.push_back("#= " + cinq::result_text(*game_, *o));
  if (state_->outcome().over() &&
      std::none_of(entries_.rbegin(), entries_.rend(), [](const Entry& e) {
        return e.kind == Entry::Kind::result && e.number == 0;  // the game's result line is kept
      }))
    out.push_back("#= " + cinq::result_text(*game_, state_->outcome()));
  return out;
}

std::size_t Record::entry_count() const { return entries_.size() + trailing_results().size(); }

std::vector<std::string> Record::entry_texts(std::size_t from) const {
  std::vector<std::string> out;
  std::vector<std::string> trailing = trailing_results();
  if (from >= entries_.size() + trailing.size()) return out;
  out.reserve(entries_.size() + trailing.size() - from);
  for (std::size_t i = from; i < entries_.size(); ++i) out.push_back(entry_text(entries_[i]));
  for (std::size_t i = from > entries_.size() ? from - entries_.size() : 0; i < trailing.size(); ++i)
    out.push_back(std::move(trailing[i]));
  return out;
}

std::string Record::write() const { return layout_record(header_line(), entry_texts(0)); }

std::string turn_text(const TurnText& t) {
  if (t.text_cache_items == t.items.size() && !t.text_cache.empty() && t.text_cache[0] == t.side)
    return t.text_cache;
  std::size_t size = 2;
  for (const auto& item : t.items) size += item.size() + 1;
  std::string s;
  s.reserve(size);
  s += t.side;
  s += '/';
  for (const auto& item : t.items) {
    s += item;
    s += '/';
  }
  t.text_cache = s;
  t.text_cache_items = t.items.size();
  return s;
}

}  // namespace cinq
