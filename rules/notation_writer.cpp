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

}  // namespace

std::string Record::write() const {
  std::vector<Line> lines;
  lines.reserve(entries_.size() + 4);  // a record is written after every turn: no regrowth on the way
  std::vector<Line> pending;           // lines that arrived between the two turns of a turn line
  bool half = false;
  int turn_in_round = 0;
  bool final_result = false;
  auto text_line = [&](std::string text) {
    Line l;
    l.text = std::move(text);
    (half ? pending : lines).push_back(std::move(l));
  };
  auto close_half = [&] {
    half = false;
    for (auto& l : pending) lines.push_back(std::move(l));
    pending.clear();
  };
  for (const Entry& e : entries_) {
    switch (e.kind) {
      case Entry::Kind::header:
        break;
      case Entry::Kind::turns:
        if (turn_in_round % 2 == 0) {
          Line l;
          l.is_turn = true;
          l.number = turn_in_round / 2 + 1;
          l.first = turn_text(e.turns.front());
          lines.push_back(std::move(l));
          half = true;
        } else {
          // the turn line is the last one that is a turn line (pending lines were held back)
          auto it = std::find_if(lines.rbegin(), lines.rend(), [](const Line& l) { return l.is_turn; });
          it->second = turn_text(e.turns.front());
          close_half();
        }
        ++turn_in_round;
        break;
      case Entry::Kind::ellipsis:
        if (half) {
          auto it = std::find_if(lines.rbegin(), lines.rend(), [](const Line& l) { return l.is_turn; });
          it->second = "...";
          close_half();
        } else {
          text_line("...");
        }
        break;
      case Entry::Kind::round:
        close_half();
        text_line("#- " + std::to_string(e.number));
        turn_in_round = 0;
        break;
      case Entry::Kind::result:
        close_half();
        text_line(result_line(e.result));
        if (e.number == 0) final_result = true;
        break;
      case Entry::Kind::players: {
        std::string s;
        for (const auto& [letter, name] : e.players)
          s += (s.empty() ? "" : "    ") + std::string(1, letter) + " = " + name;
        text_line(s);
        break;
      }
      case Entry::Kind::timestamp:
        text_line("> " + e.text);
        break;
      case Entry::Kind::comment:
        text_line(e.text);
        break;
    }
  }
  close_half();
  // What the board decided after the last stored line: finished rounds' results, then the game's.
  for (int r = written_round_results_ + 1; r < state_->round(); ++r)
    if (auto o = state_->round_result(r)) text_line("#= " + cinq::result_text(*game_, *o));
  if (!final_result && state_->outcome().over())
    text_line("#= " + cinq::result_text(*game_, state_->outcome()));

  std::size_t number_width = 4, first_width = 0;
  for (const Line& l : lines)
    if (l.is_turn) {
      number_width = std::max(number_width, std::to_string(l.number).size() + 1);
      if (!l.second.empty()) first_width = std::max(first_width, l.first.size() + 3);
    }
  std::string out = "#! " + std::string(game_->record_name());
  if (!options_.explicit_values().empty()) out += " " + options_.text();
  out += "\n";
  out.reserve(out.size() + lines.size() * (number_width + 2 * first_width + 2));
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
