// A reply's own lines and the record lines among them (read.h's fresh_text and record_lines).
#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "mail/decode.h"
#include "mail/read.h"

namespace cinq::mail {

namespace {

using detail::trim;

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, nl - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    at = nl + 1;
  }
  return out;
}

std::string_view trim_end(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// "> YYYY-MM-DD HH:MM:SS": one '>', one space, spaces allowed after it only.
bool is_timestamp(std::string_view line) {
  constexpr std::string_view kShape = "> dddd-dd-dd dd:dd:dd";
  line = trim_end(line);
  if (line.size() != kShape.size()) return false;
  for (std::size_t i = 0; i < line.size(); ++i)
    if (kShape[i] == 'd' ? !is_digit(line[i]) : line[i] != kShape[i]) return false;
  return true;
}

bool is_quote(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t");
  return first != std::string_view::npos && line[first] == '>' && !is_timestamp(line);
}

// "-- " (or "--"): the signature follows.
bool is_signature(std::string_view line) { return trim_end(line) == "--"; }

// The first line of an original under a reply: "-----Original Message-----" and its translations,
// "---------- Forwarded message ---------", or Outlook's line of underscores.
bool is_original(std::string_view line) {
  const std::string_view t = trim(line);
  if (t.size() >= 10 && t.find_first_not_of('_') == std::string_view::npos) return true;
  if (t.size() < 12 || t.substr(0, 5) != "-----" || t.substr(t.size() - 5) != "-----") return false;
  for (char c : t)
    if (std::isalpha(static_cast<unsigned char>(c))) return true;
  return false;
}

// The header block Outlook writes above an original it does not quote: "From: ..." then "Sent: ..." (or
// "Date:"; in French "De :" and "Envoyé :", in German "Von:" and "Gesendet:").
bool is_original_header(const std::vector<std::string_view>& lines, std::size_t i) {
  static constexpr std::pair<std::string_view, std::string_view> kPairs[] = {{"From:", "Sent:"},
                                                                             {"From:", "Date:"},
                                                                             {"De :", "Envoy\xC3\xA9 :"},
                                                                             {"De:", "Envoy\xC3\xA9:"},
                                                                             {"Von:", "Gesendet:"}};
  if (i + 1 >= lines.size()) return false;
  const std::string_view line = trim(lines[i]), next = trim(lines[i + 1]);
  for (const auto& [from, sent] : kPairs)
    if (line.substr(0, from.size()) == from && next.substr(0, sent.size()) == sent) return true;
  return false;
}

// "On ... wrote:" and the like: a line ending in ':' that a quoted line follows, after blank lines if any.
bool is_attribution(const std::vector<std::string_view>& lines, std::size_t i) {
  const std::string_view t = trim(lines[i]);
  if (t.empty() || t.back() != ':') return false;
  std::size_t k = i + 1;
  while (k < lines.size() && trim(lines[k]).empty()) ++k;
  return k < lines.size() && is_quote(lines[k]);
}

// A turn: a side's upper-case letter and '/' ("D/e3 a3/", "B/").
bool is_turn(std::string_view token) {
  return token.size() >= 2 && token[0] >= 'A' && token[0] <= 'Z' && token[1] == '/';
}

// A turn line's number and then a turn or "...": "3   A/d1 d5 x c5/", "03 D/e7 i7/".
bool is_numbered_turn(std::string_view line) {
  std::size_t k = 0;
  while (k < line.size() && is_digit(line[k])) ++k;
  if (k == 0 || k == line.size() || (line[k] != ' ' && line[k] != '\t')) return false;
  const std::string_view rest = trim(line.substr(k));
  return is_turn(rest) || rest.substr(0, rest.find_first_of(" \t")) == "...";
}

// "X = name": a side's letter, " = ".
bool is_player(std::string_view line) {
  return line.size() >= 4 && line[0] >= 'A' && line[0] <= 'Z' && line.substr(1, 3) == " = ";
}

bool is_record_line(std::string_view line) {
  return line[0] == '#' || line == "..." || is_timestamp(line) || is_turn(line) || is_numbered_turn(line) ||
         is_player(line);
}

// No-break spaces (U+00A0, which some clients put in plain text for runs of spaces) as spaces.
std::string plain_spaces(std::string_view line) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\xC2' && i + 1 < line.size() && line[i + 1] == '\xA0') {
      out += ' ';
      ++i;
    } else {
      out += line[i];
    }
  }
  return out;
}

}  // namespace

std::string fresh_text(std::string_view text) {
  const auto lines = lines_of(text);
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (is_signature(lines[i]) || is_original(lines[i]) || is_original_header(lines, i)) break;
    if (is_quote(lines[i]) || is_attribution(lines, i)) continue;
    (out += lines[i]) += '\n';
  }
  return out;
}

std::string record_lines(std::string_view text) {
  std::string out;
  for (std::string_view raw : lines_of(text)) {
    const std::string spaced = plain_spaces(raw);
    const std::string_view line = trim(spaced);
    if (!line.empty() && is_record_line(line)) (out += line) += '\n';
  }
  return out;
}

}  // namespace cinq::mail
