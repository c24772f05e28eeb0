// Composing mail (compose.h).
#include "mail/compose.h"

#include <cctype>
#include <stdexcept>

#include "mail/schedule.h"

namespace cinq::mail {

namespace {

constexpr std::string_view kCrlf = "\r\n";

bool ascii_printable(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c > 0x7e) return false;
  return true;
}

// Any control character (CR and LF among them) becomes a space: a header value never breaks its line.
std::string one_line(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) out += (c < 0x20 || c == 0x7f) ? ' ' : static_cast<char>(c);
  return out;
}

// The length of the UTF-8 sequence that starts with `c` (1 for a stray byte).
std::size_t utf8_length(unsigned char c) {
  if (c >= 0xf0 && c < 0xf8) return 4;
  if (c >= 0xe0) return 3;
  if (c >= 0xc0) return 2;
  return 1;
}

// Folds a header line at spaces so that no line passes 78 characters where it can be helped.
std::string fold(const std::string& name, const std::string& value) {
  std::string out = name + ":";
  std::size_t line = out.size();
  std::size_t at = 0;
  while (at < value.size()) {
    std::size_t space = value.find(' ', at + 1);
    if (space == std::string::npos) space = value.size();
    std::string word = value.substr(at, space - at);
    if (at == 0 && word[0] != ' ') word = " " + word;
    if (line + word.size() > 78 && line > name.size() + 1) {
      out += "\r\n";
      line = 0;
      if (word[0] != ' ') word = " " + word;
    }
    out += word;
    line += word.size();
    at = space;
  }
  return out + "\r\n";
}

std::string header(const std::string& name, const std::string& value) { return fold(name, one_line(value)); }

std::string mailbox_text(const Mailbox& m) {
  if (!valid_address(m.address)) throw std::invalid_argument("not an e-mail address: " + one_line(m.address));
  const std::string name = one_line(m.name);
  if (name.empty()) return "<" + m.address + ">";
  bool plain = ascii_printable(name) && name.find("=?") == std::string::npos;
  if (!plain) return encode_header_text(name) + " <" + m.address + ">";
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\" <" + m.address + ">";
}

std::string id_list(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "<" : " <") + one_line(id) + ">";
  return out;
}

std::string random_boundary(const Outgoing& m) {
  // Unique enough: it must only not occur in the parts, which are QP or base64 and hold no "=_cinq_".
  return "=_cinq_" + std::to_string(m.date_ms) + "_" + std::to_string(m.message_id.size());
}

// RFC 2231: filename*=utf-8''... for a name that is not plain ASCII.
std::string disposition(const std::string& filename) {
  const std::string name = one_line(filename);
  if (ascii_printable(name) && name.find('"') == std::string::npos && name.find('\\') == std::string::npos)
    return "attachment; filename=\"" + name + "\"";
  static const char* hex = "0123456789ABCDEF";
  std::string out = "attachment; filename*=utf-8''";
  for (unsigned char c : name) {
    if (std::isalnum(c) || c == '.' || c == '-' || c == '_')
      out += static_cast<char>(c);
    else
      out += std::string("%") + hex[c >> 4] + hex[c & 15];
  }
  return out;
}

}  // namespace

bool valid_address(std::string_view a) {
  if (a.empty() || a.size() > 254) return false;
  const auto at = a.find('@');
  if (at == 0 || at == std::string_view::npos || a.find('@', at + 1) != std::string_view::npos) return false;
  const std::string_view local = a.substr(0, at), domain = a.substr(at + 1);
  if (local.size() > 64 || domain.empty() || domain.size() > 253) return false;
  for (unsigned char c : local)
    if (c <= 0x20 || c >= 0x7f || std::string_view("<>()[],;:\\\"@").find(static_cast<char>(c)) != std::string_view::npos)
      return false;
  if (local.front() == '.' || local.back() == '.' || local.find("..") != std::string_view::npos) return false;
  if (domain.front() == '.' || domain.back() == '.' || domain.find("..") != std::string_view::npos) return false;
  for (unsigned char c : domain)
    if (!std::isalnum(c) && c != '-' && c != '.') return false;
  return true;
}

std::string encode_header_text(std::string_view utf8) {
  const std::string text = one_line(utf8);
  if (ascii_printable(text) && text.find("=?") == std::string::npos) return text;
  // Base64 words of at most 64 characters ("=?UTF-8?B?" + 4*ceil(n/3) + "?=", n <= 39 bytes), so that one fits
  // a line after "Subject: "; cut only between whole UTF-8 sequences.
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = at;
    while (end < text.size()) {
      const std::size_t n = utf8_length(static_cast<unsigned char>(text[end]));
      if (end + n - at > 39) break;
      end += n;
    }
    if (end == at) end = std::min(text.size(), at + 1);
    if (!out.empty()) out += ' ';
    out += "=?UTF-8?B?" + base64(text.substr(at, end - at), 0) + "?=";
    at = end;
  }
  return out;
}

std::string quoted_printable(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out, line;
  auto flush = [&](bool soft) {
    out += line;
    out += soft ? "=\r\n" : "\r\n";
    line.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      // A space or tab before a line end is encoded, so that no transport strips it.
      if (!line.empty() && (line.back() == ' ' || line.back() == '\t')) {
        const char last = line.back();
        line.pop_back();
        line += std::string("=") + hex[last >> 4] + hex[last & 15];
      }
      flush(false);
      continue;
    }
    std::string piece;
    if ((c >= 33 && c <= 126 && c != '=') || c == ' ' || c == '\t')
      piece = std::string(1, static_cast<char>(c));
    else
      piece = std::string("=") + hex[c >> 4] + hex[c & 15];
    // A '.' or "From " at a line's start is left to the SMTP client (which dot-stuffs).
    if (line.size() + piece.size() > 75) flush(true);
    line += piece;
  }
  if (!line.empty()) {
    if (line.back() == ' ' || line.back() == '\t') {
      const char last = line.back();
      line.pop_back();
      line += std::string("=") + hex[last >> 4] + hex[last & 15];
    }
    flush(false);
  }
  return out;
}

std::string base64(std::string_view bytes, std::size_t line) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
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
  std::string out;
  out += header("Date", rfc5322_date(m.date_ms));
  out += header("From", mailbox_text(m.from));
  out += header("To", mailbox_text(m.to));
  if (m.reply_to) out += header("Reply-To", mailbox_text(*m.reply_to));
  out += fold("Subject", encode_header_text(m.subject));
  out += header("Message-ID", "<" + m.message_id + ">");
  if (!m.references.empty()) {
    out += header("In-Reply-To", "<" + m.references.back() + ">");
    out += header("References", id_list(m.references));
  }
  if (!m.unsubscribe_url.empty()) {
    out += header("List-Unsubscribe", "<" + m.unsubscribe_url + ">");
    out += header("List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
  }
  for (const auto& [name, value] : m.extra_headers) {
    std::string clean;
    for (char c : name)
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '-') clean += c;
    if (!clean.empty()) out += header(clean, encode_header_text(value));
  }
  out += "MIME-Version: 1.0\r\n";
  const std::string text_part = "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: "
                                "quoted-printable\r\n\r\n" + quoted_printable(m.text);
  if (m.attachments.empty()) return out + text_part;
  const std::string boundary = random_boundary(m);
  out += "Content-Type: multipart/mixed; boundary=\"" + boundary + "\"\r\n\r\n";
  // The line break before each boundary belongs to the boundary (RFC 2046): one more keeps the text's own.
  out += "--" + boundary + "\r\n" + text_part;
  for (const Attachment& a : m.attachments) {
    out += "\r\n--" + boundary + "\r\n";
    out += header("Content-Type", a.content_type + "; name=\"" + one_line(a.filename) + "\"");
    out += "Content-Transfer-Encoding: base64\r\n";
    out += header("Content-Disposition", disposition(a.filename));
    out += "\r\n" + base64(a.data);
  }
  return out + "\r\n--" + boundary + "--\r\n";
}

}  // namespace cinq::mail
