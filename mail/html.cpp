// HTML as text (read.h's html_to_text): enough of HTML to read what a person wrote in an HTML-only mail.
#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

#include "mail/decode.h"
#include "mail/read.h"

namespace cinq::mail {

namespace {

using detail::lower_ascii;

// The text being written: quote depth, line starts, and HTML's whitespace (a run of it is one space, none at
// a line's start or end) unless inside <pre>.
class TextOut {
 public:
  void source(char c) {
    if (pre_ > 0) {
      if (c == '\n')
        hard_break();
      else if (c != '\r')
        put(std::string_view(&c, 1));
      return;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
      space_ = !line_start_;
      return;
    }
    put(std::string_view(&c, 1));
  }
  void put(std::string_view s) {
    if (s.empty()) return;
    if (line_start_) {
      for (int i = 0; i < quote_; ++i) out_ += "> ";
      line_start_ = false;
    } else if (space_) {
      out_ += ' ';
    }
    space_ = false;
    out_ += s;
  }
  // A block's start or end: a line end unless the line is empty.
  void line_end() {
    if (!line_start_) hard_break();
  }
  // <br>: a line end, an empty line if the line is empty.
  void hard_break() {
    while (!out_.empty() && out_.back() == ' ') out_.pop_back();
    out_ += '\n';
    line_start_ = true;
    space_ = false;
  }
  void quote(int delta) {
    line_end();
    quote_ = std::max(0, quote_ + delta);
  }
  void pre(int delta) {
    line_end();
    pre_ = std::max(0, pre_ + delta);
  }
  std::string finish() {
    line_end();
    return std::move(out_);
  }

 private:
  std::string out_;
  int quote_ = 0, pre_ = 0;
  bool line_start_ = true, space_ = false;
};

struct Entity {
  std::string_view name, text;
};
constexpr Entity kEntities[] = {
    {"amp", "&"},         {"lt", "<"},          {"gt", ">"},          {"quot", "\""},
    {"apos", "'"},        {"nbsp", " "},        {"ndash", "\u2013"},  {"mdash", "\u2014"},
    {"hellip", "\u2026"}, {"lsquo", "\u2018"},  {"rsquo", "\u2019"},  {"ldquo", "\u201c"},
    {"rdquo", "\u201d"},  {"laquo", "\u00ab"},  {"raquo", "\u00bb"},  {"euro", "\u20ac"},
    {"copy", "\u00a9"},   {"eacute", "\u00e9"}, {"egrave", "\u00e8"}, {"agrave", "\u00e0"}};

// A numeric reference's text: &#233; &#xE9;. 128 to 159 are windows-1252's (as browsers read them); line
// ends are spaces; other control characters are nothing.
std::string numeric_entity(std::string_view digits) {
  const bool hex = !digits.empty() && (digits[0] == 'x' || digits[0] == 'X');
  if (hex) digits.remove_prefix(1);
  if (digits.empty() || digits.size() > 7) return std::string(detail::kReplacement);
  char32_t cp = 0;
  for (char c : digits) {
    const int v = c >= '0' && c <= '9'          ? c - '0'
                  : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                : -1;
    if (v < 0) return std::string(detail::kReplacement);
    cp = cp * (hex ? 16 : 10) + static_cast<char32_t>(v);
  }
  if (cp == 0) return std::string(detail::kReplacement);
  if (cp == '\t' || cp == '\n' || cp == '\r') return " ";
  if (cp >= 0x80 && cp <= 0x9f) return detail::to_utf8(std::string(1, static_cast<char>(cp)), "windows-1252");
  if (cp < 0x20 || cp == 0x7f) return "";
  return detail::utf8_of(cp);
}

// The text of the reference at html[i] ('&'), and its length; length 0 if it is a plain '&'.
std::string entity(std::string_view html, std::size_t i, std::size_t& length) {
  length = 0;
  const std::size_t semi = html.substr(0, i + 11).find(';', i);  // a name is short: never search further
  if (semi == std::string_view::npos) return {};
  const std::string_view name = html.substr(i + 1, semi - i - 1);
  if (!name.empty() && name[0] == '#') {
    length = semi - i + 1;
    return numeric_entity(name.substr(1));
  }
  for (const Entity& e : kEntities)
    if (e.name == name) {
      length = semi - i + 1;
      return std::string(e.text);
    }
  return {};
}

// Where `needle` (lower case) is in `hay` from `from` on, without regard to case; npos if nowhere.
std::size_t find_ci(std::string_view hay, std::string_view needle, std::size_t from) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  for (std::size_t i = from; i + needle.size() <= hay.size(); ++i) {
    std::size_t k = 0;
    while (k < needle.size() && lower(hay[i + k]) == needle[k]) ++k;
    if (k == needle.size()) return i;
  }
  return std::string_view::npos;
}

bool is_block(std::string_view name) {
  static constexpr std::string_view kBlocks[] = {
      "p",  "div", "tr", "li", "ul", "ol",     "table",   "dl",      "dt",     "dd",     "h1",
      "h2", "h3",  "h4", "h5", "h6", "center", "section", "article", "header", "footer", "address"};
  for (std::string_view b : kBlocks)
    if (b == name) return true;
  return false;
}

// Reads the tag at html[i] ('<') into `out`; returns where reading goes on.
std::size_t tag(std::string_view html, std::size_t i, TextOut& out) {
  if (html.substr(i, 4) == "<!--") {
    const std::size_t end = html.find("-->", i + 4);
    return end == std::string_view::npos ? html.size() : end + 3;
  }
  const std::size_t end = html.find('>', i);
  if (end == std::string_view::npos) return html.size();  // cut short: the rest is an unfinished tag
  const bool closing = html[i + 1] == '/';
  const std::size_t name_at = i + (closing ? 2 : 1);
  std::size_t name_end = name_at;
  while (name_end < end && std::isalnum(static_cast<unsigned char>(html[name_end]))) ++name_end;
  const std::string name = lower_ascii(html.substr(name_at, name_end - name_at));
  if (!closing && (name == "style" || name == "script" || name == "head" || name == "title")) {
    // Their content is not text: skipped to the end tag (a <head> without one is only its tag).
    const std::size_t close = find_ci(html, "</" + name, end + 1);
    if (close != std::string_view::npos) return std::min(html.find('>', close), html.size() - 1) + 1;
    return name == "head" ? end + 1 : html.size();
  }
  if (name == "br") {
    out.hard_break();
  } else if (name == "hr") {  // as Outlook writes it in text: where the original under a reply starts
    out.line_end();
    out.put(std::string(32, '_'));
    out.line_end();
  } else if (name == "blockquote")
    out.quote(closing ? -1 : 1);
  else if (name == "pre")
    out.pre(closing ? -1 : 1);
  else if (is_block(name))
    out.line_end();
  else if (name == "td" || name == "th")
    out.source(' ');
  return end + 1;
}

bool starts_tag(std::string_view html, std::size_t i) {
  if (i + 1 >= html.size()) return false;
  const char c = html[i + 1];
  return std::isalpha(static_cast<unsigned char>(c)) || c == '/' || c == '!' || c == '?';
}

}  // namespace

std::string html_to_text(std::string_view html) {
  TextOut out;
  for (std::size_t i = 0; i < html.size();) {
    if (html[i] == '<' && starts_tag(html, i)) {
      i = tag(html, i, out);
      continue;
    }
    std::size_t length = 0;
    if (html[i] == '&') {
      const std::string text = entity(html, i, length);
      if (length > 0) {
        if (text == " ")
          out.put(text);  // &nbsp; and the like are spaces that stay
        else
          for (char c : text) out.source(c);
        i += length;
        continue;
      }
    }
    out.source(html[i++]);
  }
  return out.finish();
}

}  // namespace cinq::mail
