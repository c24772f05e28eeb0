// Composing a message (compose.h): header fields made safe and folded, the text in quoted-printable,
// attachments in base64.
#include "mail/compose.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "mail/decode.h"
#include "mail/schedule.h"

namespace cinq::mail {

namespace {

constexpr std::string_view kCrlf = "\r\n";
constexpr std::string_view kHex = "0123456789ABCDEF";
constexpr std::size_t kMaxPlainWord = 60;  // a longer word is encoded, so that it can be cut to fold
constexpr std::size_t kWordBytes = 36;     // bytes per encoded word: "=?UTF-8?B?" + 48 + "?=", 60 in all
constexpr std::size_t kMaxLine = 78;

bool is_plain_ascii(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c > 0x7e) return false;
  return true;
}

// Text for a header: valid UTF-8 where every control character (CR, LF and TAB among them) is a space, so
// that nothing in it can end the line and start another field; runs of spaces as one, none at the ends, so
// that every line can fold.
std::string one_line(std::string_view s) {
  std::string out;
  for (char c : detail::valid_utf8(s)) {
    const bool space = static_cast<unsigned char>(c) <= 0x20 || c == 0x7f;
    if (!space)
      out += c;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// An id or URL inside <>: printable ASCII but spaces and angle brackets, which would end it.
std::string bracketed(std::string_view s) {
  std::string out;
  for (unsigned char c : s)
    if (c > 0x20 && c < 0x7f && c != '<' && c != '>') out += static_cast<char>(c);
  return "<" + out + ">";
}

std::string hex_byte(char prefix, unsigned char c) { return {prefix, kHex[c >> 4], kHex[c & 15]}; }

// The length of the UTF-8 sequence that starts with `c` (valid UTF-8: one_line made it so).
std::size_t utf8_length(unsigned char c) { return c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1; }

// `text` as base64 encoded words of at most kWordBytes bytes each, cut between characters, joined by spaces
// (which readers drop between two encoded words).
std::string encoded_words(std::string_view text) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = at;
    while (end < text.size()) {
      const std::size_t n = utf8_length(static_cast<unsigned char>(text[end]));
      if (end + n - at > kWordBytes) break;
      end += n;
    }
    if (!out.empty()) out += ' ';
    out += "=?UTF-8?B?" + base64(text.substr(at, end - at), 0) + "?=";
    at = end;
  }
  return out;
}

bool needs_encoding(std::string_view word) {
  return !is_plain_ascii(word) || word.find("=?") != std::string_view::npos || word.size() > kMaxPlainWord;
}

std::vector<std::string_view> split_spaces(std::string_view s) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0;; ++at) {
    const std::size_t space = std::min(s.find(' ', at), s.size());
    out.push_back(s.substr(at, space - at));
    if (space == s.size()) return out;
    at = space;
  }
}

// "Name: value", folded at spaces so that no line passes 78 characters (encoded words are at most 60; a long
// name leaves the first word to the next line). A word longer than a line (a URL, an id) is not moved.
std::string field(std::string_view name, std::string_view value) {
  std::string out(name);
  out += ':';
  std::size_t line = out.size();
  for (std::string_view word : split_spaces(value)) {
    if (line + 1 + word.size() > kMaxLine && !word.empty() && 1 + word.size() <= kMaxLine) {
      out += kCrlf;
      line = 0;
    }
    (out += ' ') += word;
    line += 1 + word.size();
  }
  return out += kCrlf;
}

// A mailbox as a header writes it: `"Name" <address>`, `=?UTF-8?B?...?= <address>` or `<address>`.
std::string mailbox(const Mailbox& m) {
  if (!valid_address(m.address)) throw std::invalid_argument("not an e-mail address: " + one_line(m.address));
  const std::string name = one_line(m.name);
  if (name.empty()) return "<" + m.address + ">";
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  quoted += '"';
  bool plain = true;  // and its words, escapes included, short enough to fold
  for (std::string_view word : split_spaces(quoted)) plain = plain && !needs_encoding(word);
  return (plain ? quoted : encoded_words(name)) + " <" + m.address + ">";
}

// A header field's name from a caller: letters, digits and '-' kept; "" for a field compose writes itself
// (a second Subject or Content-Type would make the message ambiguous).
std::string extra_field_name(std::string_view name) {
  static constexpr std::string_view kOwn[] = {
      "date",        "from",        "to",         "reply-to",         "subject",
      "message-id",  "in-reply-to", "references", "list-unsubscribe", "list-unsubscribe-post",
      "mime-version"};
  std::string out;
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-') out += c;
  const std::string lower = detail::lower_ascii(out);
  for (std::string_view own : kOwn)
    if (lower == own) return "";
  return lower.rfind("content-", 0) == 0 ? "" : out;
}

// Content-Disposition of an attachment: a short ASCII name quoted, any other in RFC 2231's
// filename*0*=utf-8''...; filename*1*=... (percent-encoded, in pieces that fold).
std::string disposition(std::string_view filename) {
  const std::string name = one_line(filename);
  if (name.size() <= kMaxPlainWord && is_plain_ascii(name) &&
      name.find_first_of("\"\\ ") == std::string::npos)
    return "attachment; filename=\"" + name + "\"";
  std::string out = "attachment;", piece = "utf-8''";
  int index = 0;
  auto flush = [&] {
    out += " filename*" + std::to_string(index++) + "*=" + piece + ";";
    piece.clear();
  };
  for (unsigned char c : name) {
    if (piece.size() + 3 > 50) flush();
    if (std::isalnum(c) || c == '.' || c == '-' || c == '_')
      piece += static_cast<char>(c);
    else
      piece += hex_byte('%', c);
  }
  flush();
  out.pop_back();  // the last ';'
  return out;
}

std::string headers(const Outgoing& m) {
  std::string out = field("Date", rfc5322_date(m.date_ms));
  out += field("From", mailbox(m.from));
  out += field("To", mailbox(m.to));
  if (m.reply_to) out += field("Reply-To", mailbox(*m.reply_to));
  out += field("Subject", encode_header_text(m.subject));
  out += field("Message-ID", bracketed(m.message_id));
  if (!m.references.empty()) {
    std::string list;
    for (const std::string& id : m.references) list += (list.empty() ? "" : " ") + bracketed(id);
    out += field("In-Reply-To", bracketed(m.references.back()));
    out += field("References", list);
  }
  if (!m.unsubscribe_url.empty()) {
    out += field("List-Unsubscribe", bracketed(m.unsubscribe_url));
    out += field("List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
  }
  for (const auto& [name, value] : m.extra_headers)
    if (const std::string clean = extra_field_name(name); !clean.empty())
      out += field(clean, encode_header_text(value));
  return out + field("MIME-Version", "1.0");
}

std::string text_part(const Outgoing& m) {
  return "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
         quoted_printable(m.text);
}

std::string attachment_part(const Attachment& a) {
  std::string type = one_line(a.content_type);
  if (type.empty()) type = "application/octet-stream";
  return field("Content-Type", type) + "Content-Transfer-Encoding: base64\r\n" +
         field("Content-Disposition", disposition(a.filename)) + "\r\n" + base64(a.data);
}

// The parts' separator: it must not occur in them, and it cannot: "=_" is never in quoted-printable (where
// '=' is "=3D" or ends a line) nor in base64, and no header line of a part starts with "--".
std::string boundary(const Outgoing& m) {
  return "=_cinq_" + std::to_string(m.date_ms) + "_" + std::to_string(m.attachments.size());
}

}  // namespace

bool valid_address(std::string_view a) {
  const auto at = a.find('@');
  if (a.size() > 254 || at == 0 || at == std::string_view::npos ||
      a.find('@', at + 1) != std::string_view::npos)
    return false;
  const std::string_view local = a.substr(0, at), domain = a.substr(at + 1);
  if (local.size() > 64 || domain.empty() || domain.size() > 253) return false;
  for (unsigned char c : local)
    if (c <= 0x20 || c >= 0x7f ||
        std::string_view("<>()[],;:\\\"").find(static_cast<char>(c)) != std::string_view::npos)
      return false;
  for (unsigned char c : domain)
    if (!std::isalnum(c) && c != '-' && c != '.') return false;
  // Dots separate atoms and labels (RFC 5321): none at either end, never two in a row.
  for (std::string_view part : {local, domain})
    if (part.front() == '.' || part.back() == '.' || part.find("..") != std::string_view::npos) return false;
  return true;
}

std::string encode_header_text(std::string_view utf8) {
  const std::string text = one_line(utf8);
  const auto words = split_spaces(text);
  // A run of words that need encoding, with the spaces between them, becomes encoded words (readers drop a
  // space between two encoded words, so it is encoded inside them); other words stay readable as they are.
  std::string out;
  for (std::size_t i = 0; i < words.size();) {
    if (i > 0) out += ' ';
    if (!needs_encoding(words[i])) {
      out += words[i++];
      continue;
    }
    std::size_t j = i + 1;  // one_line left no empty word (two spaces in a row) to end a run early
    while (j < words.size() && needs_encoding(words[j])) ++j;
    const char* first = words[i].data();
    out += encoded_words(std::string_view(first, words[j - 1].data() + words[j - 1].size() - first));
    i = j;
  }
  return out;
}

std::string quoted_printable(std::string_view text) {
  // Valid UTF-8 with '\n' line ends: a CR, alone or before LF, is a line end too (never sent bare).
  const std::string utf8 = detail::unix_line_ends(detail::valid_utf8(text));
  std::string out, line;
  auto end_line = [&](bool soft) {
    out += line;
    out += soft ? "=\r\n" : "\r\n";
    line.clear();
  };
  for (std::size_t i = 0; i < utf8.size(); ++i) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    if (c == '\n') {
      end_line(false);
      continue;
    }
    const bool at_line_end = i + 1 == utf8.size() || utf8[i + 1] == '\n';
    std::string piece(1, static_cast<char>(c));
    // '=' and what is not printable ASCII are encoded; so is a space or tab before a line end (transports
    // strip them) and the 'F' of a "From " starting a line (mbox writers would quote it).
    if ((c < 0x20 && c != '\t') || c >= 0x7f || c == '=' || ((c == ' ' || c == '\t') && at_line_end) ||
        (c == 'F' && line.empty() && utf8.compare(i, 5, "From ") == 0))
      piece = hex_byte('=', c);
    if (line.size() + piece.size() > 75) end_line(true);
    line += piece;
  }
  if (!line.empty()) end_line(false);
  return out;
}

std::string base64(std::string_view bytes, std::size_t line) {
  static constexpr std::string_view k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t column = 0;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 2]);
    out += k[(v >> 18) & 63];
    out += k[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? k[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? k[v & 63] : '=';
    column += 4;
    if (line > 0 && column >= line) {
      out += kCrlf;
      column = 0;
    }
  }
  if (line > 0 && column > 0) out += kCrlf;
  return out;
}

std::string compose(const Outgoing& m) {
  std::string out = headers(m);
  if (m.attachments.empty()) return out + text_part(m);
  const std::string b = boundary(m);
  out += "Content-Type: multipart/mixed; boundary=\"" + b + "\"\r\n\r\n";
  // The line end before each delimiter belongs to the delimiter (RFC 2046): the parts end with their own.
  out += "--" + b + "\r\n" + text_part(m);
  for (const Attachment& a : m.attachments) out += "\r\n--" + b + "\r\n" + attachment_part(a);
  return out + "\r\n--" + b + "--\r\n";
}

bool same_address(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace cinq::mail
