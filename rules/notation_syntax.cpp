// Records, step one: the form of each line (notation.md, "Lines"), with no board.
#include <algorithm>
#include <cctype>
#include <cstdint>

#include "rules/notation.h"

namespace cinq {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (is_space(s.front()) || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (is_space(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string> tokens(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    std::size_t j = i;
    while (j < s.size() && !is_space(s[j])) ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// True if `s` is well-formed UTF-8 (no overlong forms, no surrogates).
bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t n;  // continuation bytes
    std::uint32_t cp;
    if (c < 0x80) n = 0, cp = c;
    else if ((c >> 5) == 0x6) n = 1, cp = c & 0x1F;
    else if ((c >> 4) == 0xE) n = 2, cp = c & 0x0F;
    else if ((c >> 3) == 0x1E) n = 3, cp = c & 0x07;
    else return false;
    if (i + n >= s.size() + (n == 0)) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      const unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d >> 6) != 0x2) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

// At most `max` bytes of `s`, cut on a character boundary, with "..." when cut.
std::string excerpt(std::string_view s, std::size_t max) {
  if (s.size() <= max) return std::string(s);
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return std::string(s.substr(0, end)) + "...";
}

bool valid_timestamp(std::string_view t) {
  // YYYY-MM-DD HH:MM:SS
  if (t.size() != 19) return false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char want = i == 4 || i == 7 ? '-' : i == 10 ? ' ' : i == 13 || i == 16 ? ':' : '0';
    if (want == '0' ? !is_digit(t[i]) : t[i] != want) return false;
  }
  auto num = [&](std::size_t at, std::size_t n) {
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (t[i] - '0');
    return v;
  };
  int y = num(0, 4), mo = num(5, 2), d = num(8, 2), h = num(11, 2), mi = num(14, 2), s = num(17, 2);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= kDays[mo - 1] + (mo == 2 && leap ? 1 : 0);
}

Result<Entry> parse_header(std::string_view rest, int line) {
  Entry e;
  e.kind = Entry::Kind::header;
  auto toks = tokens(rest);
  if (toks.empty())
    return make_error(ErrorCode::header_no_game, {},
                      "the #! line names no game (write #! TABLUT, #! BALTEK, ...)", line);
  e.game = toks[0];
  std::size_t i = 1;
  if (i < toks.size() && !toks[i].empty() && is_digit(toks[i][0]) && toks[i].find('=') == std::string::npos)
    e.version = toks[i++];
  for (; i < toks.size(); ++i) {
    const std::string& t = toks[i];
    auto eq = t.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == t.size())
      return make_error(ErrorCode::option_not_key_value, {{"option", t}},
                        "option '" + t + "' is not of the form key=value", line);
    std::string key = t.substr(0, eq);
    for (char c : key)
      if (!(c >= 'a' && c <= 'z'))
        return make_error(ErrorCode::option_key_case, {{"key", key}},
                          "option key '" + key + "' must be lower-case letters", line);
    e.options.emplace_back(key, t.substr(eq + 1));
  }
  return e;
}

Result<Entry> parse_result(std::string_view rest, int line) {
  Entry e;
  e.kind = Entry::Kind::result;
  auto toks = tokens(rest);
  if (toks.empty())
    return make_error(ErrorCode::result_empty, {},
                      "empty result line (write #= B score 2-1, #= draw agreement, ...)", line);
  if (toks[0] == "aborted") {
    if (toks.size() > 1)
      return make_error(ErrorCode::after_aborted, {}, "nothing may follow '#= aborted'", line);
    e.result.aborted = true;
    return e;
  }
  if (toks.size() < 2)
    return make_error(ErrorCode::result_no_reason, {{"result", toks[0]}},
                      "the result '" + toks[0] + "' gives no reason", line);
  if (toks.size() > 3)
    return make_error(ErrorCode::result_too_long, {}, "too many words in the result line", line);
  e.result.winner = toks[0];
  e.result.reason = toks[1];
  if (toks.size() == 3) e.result.detail = toks[2];
  return e;
}

// Where a player starts at `i`: a lone side letter (or player number) at the line's start or after a space or
// an '=', optional spaces, then '='. Returns the position after the '=', or npos. (`B =h = x` is read as
// `B = h = x`, the name of B being empty: as its canonical form reads back.)
std::size_t player_start(std::string_view s, std::size_t i) {
  if (i >= s.size() || (i > 0 && !is_space(s[i - 1]) && s[i - 1] != '=')) return std::string_view::npos;
  if (!std::isalnum(static_cast<unsigned char>(s[i]))) return std::string_view::npos;
  std::size_t j = i + 1;
  while (j < s.size() && is_space(s[j])) ++j;
  if (j >= s.size() || s[j] != '=') return std::string_view::npos;
  return j + 1;
}

// `B = bernard@bois.fr    R = robert@riviere.fr` (spaces around '=' optional).
Result<Entry> parse_players(std::string_view s, int line) {
  Entry e;
  e.kind = Entry::Kind::players;
  std::size_t i = 0;
  while (i < s.size()) {
    const char letter = s[i];
    std::size_t from = player_start(s, i);
    std::size_t to = from;
    while (to < s.size() && player_start(s, to) == std::string_view::npos) ++to;
    std::string name = fold_spaces(s.substr(from, to - from));
    if (name.empty())
      return make_error(ErrorCode::no_player_name, {{"letter", std::string(1, letter)}},
                        std::string("no name after '") + letter + " ='", line);
    e.players.emplace_back(letter, name);
    i = to;
  }
  return e;
}

bool looks_like_players(std::string_view s) { return player_start(s, 0) != std::string_view::npos; }

// A turn line: `N  X/a/b/  Y/c/`, or its turns alone (`X/a/b/`: number 0, placed by the reader).
Result<Entry> parse_turns(std::string_view s, int line) {
  Entry e;
  e.kind = Entry::Kind::turns;
  std::size_t i = 0;
  if (is_digit(s[0])) {
    std::size_t zeros = 0;
    while (zeros < s.size() && s[zeros] == '0') ++zeros;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i - std::min(zeros, i - 1) > 7)
      return make_error(ErrorCode::turn_number_too_large, {}, "turn number too large", line);
    e.number = std::stoi(std::string(s.substr(std::min(zeros, i - 1), i - std::min(zeros, i - 1))));
    if (i == s.size() || !is_space(s[i]))
      return make_error(ErrorCode::turn_line_form, {},
                        "a turn line is a number, spaces, then turns like B/g3 f3/", line);
  }
  const std::string num = e.number > 0 ? std::to_string(e.number) : "without a number";
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    if (i == s.size()) break;
    if (s.substr(i, 3) == "...") {
      std::size_t j = i + 3;
      while (j < s.size() && is_space(s[j])) ++j;
      if (j != s.size())
        return make_error(ErrorCode::after_ellipsis_on_line, {}, "nothing may follow '...' on a turn line",
                          line);
      if (e.turns.size() != 1)
        return make_error(ErrorCode::ellipsis_place, {},
                          "'...' may stand only in place of the second turn of a line", line);
      e.ellipsis = true;
      break;
    }
    if (e.turns.size() == 2)
      return make_error(ErrorCode::too_many_turns, {}, "a turn line holds at most two turns", line);
    if (!is_upper(s[i]) || i + 1 >= s.size() || s[i + 1] != '/') {
      std::size_t j = i;
      while (j < s.size() && !is_space(s[j])) ++j;
      return make_error(ErrorCode::not_a_turn, {{"text", std::string(s.substr(i, j - i))}},
                        "'" + std::string(s.substr(i, j - i)) +
                            "' is not a turn: a turn is a side letter and '/', like B/g3 f3/",
                        line);
    }
    TurnText t;
    t.side = s[i];
    i += 2;
    while (i < s.size() && !is_space(s[i])) {
      std::size_t slash = s.find('/', i);
      std::size_t eol = s.size();
      if (slash == std::string_view::npos) {
        return make_error(ErrorCode::turn_not_closed,
                          {{"turn", std::string(1, t.side) + "/" + std::string(s.substr(i, eol - i))}},
                          "turn " + std::string(1, t.side) + "/" + std::string(s.substr(i, eol - i)) +
                              " is not closed by '/'",
                          line);
      }
      std::string_view item = s.substr(i, slash - i);
      if (item.empty())
        return make_error(ErrorCode::empty_action, {{"letter", std::string(1, t.side)}},
                          "an empty action '//' in the turn of " + std::string(1, t.side), line);
      if (is_space(item.front()) || is_space(item.back()))
        return make_error(
            ErrorCode::space_at_slash,
            {{"item", std::string(item)}, {"turn", std::string(1, t.side) + "/" + fold_spaces(item) + "/"}},
            "a space touches '/' in '" + std::string(item) + "' (write " + std::string(1, t.side) + "/" +
                fold_spaces(item) + "/)",
            line);
      t.items.push_back(fold_spaces(item));
      i = slash + 1;
    }
    e.turns.push_back(std::move(t));
  }
  if (e.turns.empty())
    return make_error(ErrorCode::turn_line_empty, {}, "turn line " + num + " holds no turn", line);
  return e;
}

}  // namespace

Result<std::vector<Entry>> parse_lines(std::string_view text) {
  std::vector<Entry> entries;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte-order mark
  int line = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view raw = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line;
    std::string_view s = trim(raw);
    if (s.empty()) {
      if (nl == text.size()) break;
      continue;
    }
    for (char c : s)
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
        return make_error(ErrorCode::control_character, {}, "a control character in the line", line);
    if (!valid_utf8(s)) return make_error(ErrorCode::not_utf8, {}, "the line is not UTF-8 text", line);
    Result<Entry> e = Entry{};
    if (s.substr(0, 2) == "#!") {
      if (!entries.empty())
        return make_error(ErrorCode::header_not_first, {}, "the #! line must be the first line of the record",
                          line);
      e = parse_header(s.substr(2), line);
    } else if (s.substr(0, 2) == "#-" && (s.size() == 2 || is_space(s[2]) || is_digit(s[2]))) {
      Entry r;
      r.kind = Entry::Kind::round;
      auto toks = tokens(s.substr(2));
      bool ok = toks.size() == 1 && toks[0].size() <= 3 && !toks[0].empty();
      for (char c : ok ? toks[0] : std::string()) ok = ok && is_digit(c);
      if (!ok || std::stoi(toks[0]) < 1)
        return make_error(ErrorCode::round_line_form, {}, "a round line is '#- N' with N a number from 1",
                          line);
      r.number = std::stoi(toks[0]);
      e = r;
    } else if (s.substr(0, 2) == "#=" && (s.size() == 2 || is_space(s[2]) || std::isalnum(static_cast<unsigned char>(s[2])))) {
      e = parse_result(s.substr(2), line);
    } else if (s[0] == '#') {
      Entry c;
      c.kind = Entry::Kind::comment;
      c.text = std::string(s);
      e = c;
    } else if (s[0] == '>') {
      Entry t;
      t.kind = Entry::Kind::timestamp;
      t.text = fold_spaces(s.substr(1));
      if (!valid_timestamp(t.text))
        return make_error(ErrorCode::bad_timestamp, {{"timestamp", t.text}},
                          "malformed timestamp '" + t.text + "' (write > YYYY-MM-DD HH:MM:SS, UTC)", line);
      e = t;
    } else if (s == "...") {
      Entry t;
      t.kind = Entry::Kind::ellipsis;
      e = t;
    } else if (is_digit(s[0]) || (s.size() > 1 && is_upper(s[0]) && s[1] == '/')) {
      e = parse_turns(s, line);
    } else if (looks_like_players(s)) {
      e = parse_players(s, line);
    } else {
      return make_error(
          ErrorCode::unrecognised_line, {{"text", excerpt(s, 40)}},
          "unrecognised line '" + excerpt(s, 40) + "'" +
              " (expected a turn line, a player line 'X = name', '> date time', '#...' or '...')",
          line);
    }
    if (!e) {
      Error err = e.error();
      err.line = line;
      return err;
    }
    e->line = line;
    entries.push_back(std::move(*e));
  }
  return entries;
}

}  // namespace cinq
