// Reading a message (read.h): its header fields, its MIME tree and the text it carries.
#include "mail/read.h"

#include <algorithm>
#include <unordered_set>
#include <utility>

#include "mail/decode.h"

namespace cinq::mail {

namespace {

using detail::lower_ascii;
using detail::trim;

constexpr int kMaxDepth = 8;            // multipart levels read; deeper parts are ignored
constexpr std::size_t kMaxParts = 100;  // parts looked at in all

using Headers = std::vector<std::pair<std::string, std::string>>;  // names lower-cased, values unfolded

struct Part {
  Headers headers;
  std::string_view body;
  bool separated = false;  // a blank line ended the header block
};

// RFC 5322's field name: printable ASCII but ':'. A line that has none before its ':' (an mbox "From "
// line, junk) is not a field.
bool is_field_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (c <= 32 || c >= 127) return false;
  return true;
}

// The header block of `text` ('\n' line ends), folded lines unfolded (RFC 5322: the line end removed, the
// whitespace after it kept), and the body after the blank line.
Part split_part(std::string_view text) {
  Part p;
  bool in_field = false;
  std::size_t at = 0;
  while (at < text.size() && !p.separated) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, nl - at);
    at = nl + 1;
    if (line.empty()) {
      p.body = text.substr(std::min(at, text.size()));
      p.separated = true;
    } else if (line[0] == ' ' || line[0] == '\t') {
      if (in_field) p.headers.back().second += line;
    } else {
      const std::size_t colon = line.find(':');
      in_field = colon != std::string_view::npos && is_field_name(line.substr(0, colon));
      if (in_field) p.headers.emplace_back(lower_ascii(line.substr(0, colon)), line.substr(colon + 1));
    }
  }
  for (auto& [name, value] : p.headers) value = std::string(trim(value));
  return p;
}

std::string field(const Headers& h, std::string_view name) {
  for (const auto& [n, v] : h)
    if (n == name) return v;
  return {};
}

// A structured field's value and parameters: `text/plain; charset="utf-8"` (value and names lower-cased).
struct Field {
  std::string value;
  std::vector<std::pair<std::string, std::string>> params;
  std::string param(std::string_view name) const {
    for (const auto& [k, v] : params)
      if (k == name) return v;
    return {};
  }
};

// One parameter's value at `at` (after its '='), quoted or not; `at` moves past it.
std::string param_value(std::string_view text, std::size_t& at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  std::string value;
  if (at < text.size() && text[at] == '"') {
    for (++at; at < text.size() && text[at] != '"'; ++at) {
      if (text[at] == '\\' && at + 1 < text.size()) ++at;
      value += text[at];
    }
    ++at;
    return value;
  }
  const std::size_t end = std::min(text.find(';', at), text.size());
  value = std::string(trim(text.substr(at, end - at)));
  at = end;
  return value;
}

Field parse_field(std::string_view text) {
  Field f;
  std::size_t at = std::min(text.find(';'), text.size());
  f.value = lower_ascii(trim(text.substr(0, at)));
  while (at < text.size()) {
    const std::size_t eq = text.find('=', at + 1), next = std::min(text.find(';', at + 1), text.size());
    if (eq == std::string_view::npos) break;
    if (eq > next) {  // a parameter without a value: skipped
      at = next;
      continue;
    }
    std::string name = lower_ascii(trim(text.substr(at + 1, eq - at - 1)));
    if (!name.empty() && name.back() == '*')
      name.pop_back();  // RFC 2231's charset'language'value: as written
    at = eq + 1;
    f.params.emplace_back(std::move(name), param_value(text, at));
    at = std::min(text.find(';', at), text.size());
  }
  return f;
}

// --- Addresses ---------------------------------------------------------------------------------------

struct Address {
  std::string name;
  std::string address;
};

// Where a reader of an address list is: inside quotes, comments, angle brackets.
struct Nesting {
  bool quoted = false;
  int comment = 0, angle = 0;
  // Takes the next character; true if it separates two items (',', or a group's ':' and ';').
  bool separates(char c) {
    if (c == '"' && comment == 0) quoted = !quoted;
    if (quoted) return false;
    if (c == '(') ++comment;
    if (c == ')' && comment > 0) --comment;
    if (comment > 0) return false;
    if (c == '<') ++angle;
    if (c == '>' && angle > 0) --angle;
    return angle == 0 && (c == ',' || c == ':' || c == ';');
  }
};

// An address list's items, split outside quotes, comments, angles and encoded words (which senders fill
// with any character).
std::vector<std::string_view> list_items(std::string_view value) {
  std::vector<std::string_view> items;
  Nesting nesting;
  std::size_t start = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\\') {
      ++i;
    } else if (value[i] == '=' && !nesting.quoted && detail::encoded_word_length(value.substr(i)) > 0) {
      i += detail::encoded_word_length(value.substr(i)) - 1;
    } else if (nesting.separates(value[i])) {
      items.push_back(value.substr(start, i - start));
      start = i + 1;
    }
  }
  items.push_back(value.substr(std::min(start, value.size())));
  return items;
}

// Whether `s` is one token of valid UTF-8: no space, no control character.
bool is_token(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return false;
  return detail::valid_utf8(s) == s;
}

// Decoded header text on one line: control characters (a tab left by unfolding, a CR or LF from an encoded
// word) as spaces.
std::string header_text(std::string_view value) {
  std::string out = detail::decode_header_words(value);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

// A phrase without its quotes and escapes, its encoded words decoded.
std::string phrase_text(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size())
      out += s[++i];
    else if (s[i] != '"')
      out += s[i];
  }
  return header_text(trim(out));
}

// One mailbox: `Name <local@domain>`, `<local@domain>`, `local@domain (Name)`; nullopt without an '@'.
std::optional<Address> mailbox(std::string_view item) {
  item = trim(item);
  Address a;
  std::size_t lt = std::string_view::npos;
  bool quoted = false;
  for (std::size_t i = 0; i < item.size(); ++i) {
    if (item[i] == '\\')
      ++i;
    else if (item[i] == '"')
      quoted = !quoted;
    else if (item[i] == '<' && !quoted)
      lt = i;
  }
  const std::size_t gt = lt == std::string_view::npos ? lt : item.find('>', lt);
  if (gt != std::string_view::npos) {
    a.address = std::string(trim(item.substr(lt + 1, gt - lt - 1)));
    a.name = phrase_text(item.substr(0, lt));
  } else {
    const std::size_t paren = item.find('(');
    a.address = std::string(trim(item.substr(0, paren)));
    if (paren != std::string_view::npos)
      a.name = phrase_text(item.substr(paren + 1, item.find(')', paren) - paren - 1));
  }
  const std::size_t at = a.address.rfind('@');
  if (at == std::string::npos || at == 0 || a.address[0] == '@' || at + 1 == a.address.size() ||
      !is_token(a.address) || a.address.find_first_of("<>") != std::string::npos)
    return std::nullopt;
  a.address = a.address.substr(0, at + 1) + lower_ascii(a.address.substr(at + 1));
  return a;
}

std::vector<Address> address_list(std::string_view value) {
  std::vector<Address> out;
  for (std::string_view item : list_items(value))
    if (auto a = mailbox(item)) out.push_back(std::move(*a));
  return out;
}

// The message ids of a field, without <>; a field with no <> at all is read as ids separated by spaces. An
// id with a space, a control character or bytes that are not UTF-8 is left out.
std::vector<std::string> ids(std::string_view value) {
  std::vector<std::string> out;
  for (std::size_t at = 0; (at = value.find('<', at)) != std::string_view::npos;) {
    const std::size_t end = value.find('>', at);
    if (end == std::string_view::npos) break;
    if (auto id = trim(value.substr(at + 1, end - at - 1)); is_token(id) && !id.empty()) out.emplace_back(id);
    at = end + 1;
  }
  if (out.empty() && value.find('<') == std::string_view::npos) {
    for (std::size_t at = 0; at < value.size();) {
      const std::size_t end = std::min(value.find_first_of(" \t", at), value.size());
      if (auto id = value.substr(at, end - at); is_token(id) && !id.empty()) out.emplace_back(id);
      at = end + 1;
    }
  }
  return out;
}

std::string first_id(std::string_view value) {
  auto all = ids(value);
  return all.empty() ? std::string() : all.front();
}

std::vector<std::string> recipients(const Headers& headers) {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (std::string_view name : {"delivered-to", "x-original-to", "to", "cc"})
    for (const auto& [n, v] : headers)
      if (n == name)
        for (Address& a : address_list(v))
          if (seen.insert(a.address).second) out.push_back(std::move(a.address));
  return out;
}

// --- MIME ----------------------------------------------------------------------------------------------

// Whether `line` is the delimiter `marker` ("--" boundary), and whether it closes (a final "--"); spaces
// after it are allowed (RFC 2046).
bool is_delimiter(std::string_view line, std::string_view marker, bool& closing) {
  if (line.substr(0, marker.size()) != marker) return false;
  line.remove_prefix(marker.size());
  closing = line.substr(0, 2) == "--";
  if (closing) line.remove_prefix(2);
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

// A multipart body's parts (the preamble and epilogue left out). A part that is not closed runs to the end:
// a mail cut short is still read.
std::vector<std::string_view> split_multipart(std::string_view body, std::string_view boundary) {
  const std::string marker = "--" + std::string(boundary);
  std::vector<std::string_view> parts;
  std::size_t start = std::string_view::npos;  // the current part's first byte
  for (std::size_t at = 0; at < body.size();) {
    const std::size_t nl = std::min(body.find('\n', at), body.size());
    bool closing = false;
    if (is_delimiter(body.substr(at, nl - at), marker, closing)) {
      // The line end before a delimiter belongs to the delimiter.
      if (start != std::string_view::npos)
        parts.push_back(body.substr(start, at > start ? at - 1 - start : 0));
      if (closing) return parts;
      start = nl + 1;
    }
    at = nl + 1;
  }
  if (start < body.size()) parts.push_back(body.substr(start));
  return parts;
}

// RFC 3676 (format=flowed): an unquoted line ending in a space goes on with the next one; a line's leading
// space is stuffing (" > 2026-06-11 10:47:00" is a record timestamp a person typed). Quoted lines are kept
// as they are: they are left out of a reply's turn anyway.
std::string unflow(std::string_view text, bool delete_space) {
  std::string out;
  bool joining = false;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, nl - at);
    at = nl + 1;
    if (!line.empty() && line[0] == '>') {
      out += joining ? "\n" : "";
      (out += line) += '\n';
      joining = false;
      continue;
    }
    if (!line.empty() && line[0] == ' ') line.remove_prefix(1);
    joining = !line.empty() && line.back() == ' ' && line != "-- ";
    if (joining && delete_space) line.remove_suffix(1);
    out += line;
    if (!joining) out += '\n';
  }
  return joining ? out + '\n' : out;
}

// A text part's content as UTF-8 with '\n' line ends.
std::string part_text(const Part& p, const Field& type) {
  const std::string encoding = lower_ascii(trim(field(p.headers, "content-transfer-encoding")));
  const std::string bytes = encoding == "base64"             ? detail::decode_base64(p.body)
                            : encoding == "quoted-printable" ? detail::decode_quoted_printable(p.body, false)
                                                             : std::string(p.body);
  std::string text = detail::unix_line_ends(detail::to_utf8(bytes, type.param("charset")));
  if (type.value == "text/plain" && lower_ascii(type.param("format")) == "flowed")
    text = unflow(text, lower_ascii(type.param("delsp")) == "yes");
  return text;
}

struct Texts {
  std::optional<std::string> plain, html;
  std::size_t parts = 0;
};

void walk(const Part& p, int depth, Texts& out) {
  if (out.plain || ++out.parts > kMaxParts || depth > kMaxDepth) return;
  Field type = parse_field(field(p.headers, "content-type"));
  if (type.value.empty()) type.value = "text/plain";  // RFC 2045's default
  if (type.value.rfind("multipart/", 0) == 0) {
    const std::string boundary = type.param("boundary");
    if (boundary.empty()) return;
    for (std::string_view part : split_multipart(p.body, boundary)) walk(split_part(part), depth + 1, out);
    return;
  }
  if (parse_field(field(p.headers, "content-disposition")).value == "attachment") return;
  if (type.value == "text/plain") out.plain = part_text(p, type);
  if (type.value == "text/html" && !out.html) out.html = part_text(p, type);
}

}  // namespace

std::optional<Incoming> read_message(std::string_view raw, std::string& error) {
  std::string text;
  text.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i)
    if (raw[i] != '\r' || i + 1 == raw.size() || raw[i + 1] != '\n') text += raw[i];
  const Part top = split_part(text);
  if (top.headers.empty()) {
    error = "this is not a mail: it has no header";
    return std::nullopt;
  }
  if (!top.separated) {
    error = "this is not a whole mail: no blank line ends its header";
    return std::nullopt;
  }
  Incoming in;
  if (auto from = address_list(field(top.headers, "from")); !from.empty()) {
    in.from_address = std::move(from[0].address);
    in.from_name = std::move(from[0].name);
  }
  in.message_id = first_id(field(top.headers, "message-id"));
  in.subject = header_text(field(top.headers, "subject"));
  in.in_reply_to = first_id(field(top.headers, "in-reply-to"));
  in.references = ids(field(top.headers, "references"));
  in.recipients = recipients(top.headers);
  in.auto_submitted = header_text(field(top.headers, "auto-submitted"));
  Texts texts;
  walk(top, 0, texts);
  if (texts.plain) {
    in.text = std::move(*texts.plain);
  } else if (texts.html) {
    in.text = html_to_text(*texts.html);
    in.from_html = true;
  } else {
    error = "the mail has no text to read";
    return std::nullopt;
  }
  return in;
}

}  // namespace cinq::mail
