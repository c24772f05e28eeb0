// Transfer encodings, encoded words and charsets (decode.h).
#include "mail/decode.h"

#include <iconv.h>

#include <cctype>
#include <cerrno>

namespace cinq::mail::detail {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;  // '-' and '_': the URL alphabet, which some senders use
  if (c == '/' || c == '_') return 63;
  return -1;
}

// The length of the well-formed UTF-8 sequence at the start of `s` (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF), 0 if there is none.
std::size_t utf8_sequence(std::string_view s) {
  const auto c = static_cast<unsigned char>(s[0]);
  if (c < 0x80) return 1;
  // The sequence's length and its second byte's range, by its first byte.
  std::size_t n = 0;
  unsigned char low = 0x80, high = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c == 0xe0) low = 0xa0;   // overlong
    if (c == 0xed) high = 0x9f;  // a surrogate
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c == 0xf0) low = 0x90;   // overlong
    if (c == 0xf4) high = 0x8f;  // past U+10FFFF
  }
  if (n == 0 || s.size() < n) return 0;
  const auto second = static_cast<unsigned char>(s[1]);
  if (second < low || second > high) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if ((static_cast<unsigned char>(s[k]) & 0xc0) != 0x80) return 0;
  return n;
}

// A charset name as iconv takes it, or "" for one that is empty, UTF-8 or not a plausible name at all (a
// name from a mail is untrusted: only letters, digits and "-_.:()" reach iconv_open).
std::string charset_name(std::string_view charset) {
  std::string name = lower_ascii(trim(charset));
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
  if (name.empty() || name.size() > 40) return "";
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) &&
        std::string_view("-_.:()").find(c) == std::string_view::npos)
      return "";
  if (name == "utf-8" || name == "utf8" || name == "us-ascii" || name == "ascii") return "";
  // Mailers label windows-1252 text ("curly quotes", the euro) ISO-8859-1; its C1 controls are never meant.
  if (name == "iso-8859-1" || name == "iso8859-1" || name == "latin1" || name == "iso_8859-1")
    return "windows-1252";
  return name;
}

std::string iconv_to_utf8(iconv_t cd, std::string_view bytes) {
  std::string input(bytes), out;
  char* in = input.data();
  std::size_t in_left = input.size();
  char chunk[4096];
  while (in_left > 0) {
    char* o = chunk;
    std::size_t o_left = sizeof chunk;
    const std::size_t r = iconv(cd, &in, &in_left, &o, &o_left);
    out.append(chunk, sizeof chunk - o_left);
    if (r == static_cast<std::size_t>(-1) && errno != E2BIG) {
      // A byte this charset does not have, or a sequence cut short: replaced, and reading goes on after it.
      out += kReplacement;
      ++in;
      --in_left;
      iconv(cd, nullptr, nullptr, nullptr, nullptr);
    }
  }
  return out;
}

// Raw 8-bit header text: UTF-8 if it is valid, else windows-1252 (what mailers that do not encode send).
std::string header_bytes(std::string_view s) {
  std::string utf8 = valid_utf8(s);
  if (utf8.find(kReplacement) == std::string::npos || s.find(kReplacement) != std::string_view::npos)
    return utf8;
  return to_utf8(s, "windows-1252");
}

// One encoded word at the start of `s`: "=?charset?B?data?=" or with Q; its length, 0 if `s` holds none.
struct Word {
  std::size_t length = 0;
  std::string charset;
  std::string bytes;
};

Word encoded_word(std::string_view s) {
  // RFC 2047 allows 75 characters; some senders write longer words, but none of 1000. The bound keeps a
  // header of many "=?" from being searched to its end from each of them.
  s = s.substr(0, 1000);
  if (s.substr(0, 2) != "=?") return {};
  const std::size_t q1 = s.find('?', 2);
  if (q1 == std::string_view::npos || q1 == 2 || q1 + 3 >= s.size() || s[q1 + 2] != '?') return {};
  const char encoding = static_cast<char>(std::tolower(static_cast<unsigned char>(s[q1 + 1])));
  const std::size_t end = s.find("?=", q1 + 3);
  if ((encoding != 'b' && encoding != 'q') || end == std::string_view::npos) return {};
  const std::string_view data = s.substr(q1 + 3, end - q1 - 3);
  if (data.find_first_of(" \t") != std::string_view::npos) return {};
  std::string charset(s.substr(2, q1 - 2));
  if (auto star = charset.find('*'); star != std::string::npos) charset.resize(star);  // RFC 2231's language
  return {end + 2, charset, encoding == 'b' ? decode_base64(data) : decode_quoted_printable(data, true)};
}

}  // namespace

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string_view trim(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n";
  const std::size_t first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

std::string decode_base64(std::string_view s) {
  std::string out;
  out.reserve(s.size() * 3 / 4);
  unsigned buffer = 0;
  int bits = 0;
  for (char c : s) {
    if (c == '=') {
      bits = 0;  // padding: the quantum is over, what is left of it is zeros
      continue;
    }
    const int v = base64_value(c);
    if (v < 0) continue;  // line ends, junk
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xff);
    }
  }
  return out;
}

std::string decode_quoted_printable(std::string_view s, bool header) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '=') {
      std::size_t k = i + 1;
      while (k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k;
      if (k == s.size() || s[k] == '\n') {  // a soft line break (spaces after '=' were added in transport)
        i = k;
        continue;
      }
      if (i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
        out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
        i += 2;
        continue;
      }
    }
    out += header && c == '_' ? ' ' : c;
  }
  return out;
}

std::string valid_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  while (!bytes.empty()) {
    const std::size_t n = utf8_sequence(bytes);
    if (n == 0) {
      out += kReplacement;
      bytes.remove_prefix(1);
    } else {
      out.append(bytes.substr(0, n));
      bytes.remove_prefix(n);
    }
  }
  return out;
}

std::string to_utf8(std::string_view bytes, std::string_view charset) {
  const std::string name = charset_name(charset);
  if (name.empty()) return valid_utf8(bytes);
  iconv_t cd = iconv_open("UTF-8", name.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) return valid_utf8(bytes);
  std::string out = iconv_to_utf8(cd, bytes);
  iconv_close(cd);
  return valid_utf8(out);
}

std::string decode_header_words(std::string_view s) {
  std::string out, pending, pending_charset;  // adjacent words' bytes, converted together: a sender may
  auto flush = [&] {                          // cut a character between two words
    out += to_utf8(pending, pending_charset);
    pending.clear();
  };
  std::size_t text_start = 0;  // the raw text since the last word
  bool after_word = false;
  for (std::size_t at = 0; at < s.size();) {
    const std::size_t start = s.find("=?", at);
    if (start == std::string_view::npos) break;
    Word w = encoded_word(s.substr(start));
    if (w.length == 0) {
      at = start + 2;
      continue;
    }
    const std::string_view between = s.substr(text_start, start - text_start);
    if (!(after_word && trim(between).empty())) {
      flush();
      out += header_bytes(between);
    } else if (lower_ascii(w.charset) != lower_ascii(pending_charset)) {
      flush();
    }
    pending += w.bytes;
    pending_charset = w.charset;
    at = text_start = start + w.length;
    after_word = true;
  }
  flush();
  return out + header_bytes(s.substr(text_start));
}

std::size_t encoded_word_length(std::string_view s) { return encoded_word(s).length; }

std::string unix_line_ends(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\r')
      out += s[i];
    else if (i + 1 == s.size() || s[i + 1] != '\n')
      out += '\n';
  }
  return out;
}

std::string utf8_of(char32_t cp) {
  if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return std::string(kReplacement);
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
  return out;
}

}  // namespace cinq::mail::detail
