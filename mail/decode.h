// Decoding what mail carries, for read.cpp and compose.cpp (internal to the library): transfer encodings
// (RFC 2045), encoded words (RFC 2047) and charsets, always to valid UTF-8. Untrusted input: nothing here
// throws or fails; what cannot be read becomes U+FFFD.
#pragma once

#include <string>
#include <string_view>

namespace cinq::mail::detail {

inline constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// ASCII letters lower-cased, other bytes kept.
std::string lower_ascii(std::string_view s);
// Spaces, tabs, CR and LF removed at both ends.
std::string_view trim(std::string_view s);

// Base64, skipping line ends and junk; a '=' ends a quantum (so concatenated encodings decode too).
std::string decode_base64(std::string_view s);
// Quoted-printable, '\n' line ends; in a `header` (RFC 2047's Q), '_' is a space.
std::string decode_quoted_printable(std::string_view s, bool header);

// `bytes` with every byte that is not part of a well-formed UTF-8 sequence replaced by U+FFFD.
std::string valid_utf8(std::string_view bytes);
// `bytes` in `charset` (any name iconv knows; ISO-8859-1 read as its superset windows-1252) as UTF-8. An
// unknown charset is read as UTF-8.
std::string to_utf8(std::string_view bytes, std::string_view charset);
// A header value with its RFC 2047 encoded words decoded (the space between two adjacent words dropped), and
// raw 8-bit text read as UTF-8 if it is valid, else as windows-1252.
std::string decode_header_words(std::string_view value);
// CRLF and a lone CR as '\n'.
std::string unix_line_ends(std::string_view s);
// The length of the RFC 2047 encoded word at the start of `s` ("=?charset?B?data?="), 0 if there is none.
std::size_t encoded_word_length(std::string_view s);
// The code point `cp` in UTF-8 (U+FFFD for a surrogate or a value past U+10FFFF).
std::string utf8_of(char32_t cp);

}  // namespace cinq::mail::detail
