// Composing mail (RFC 5322, MIME): the whole message as the SMTP server takes it. Every header value that
// comes from a player (a name, a subject holding names) is made safe here: no line break survives in it, so
// no name, chat line or record can add a header; non-ASCII text is RFC 2047 encoded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cinq::mail {

struct Mailbox {
  std::string name;     // any UTF-8, may be empty; untrusted
  std::string address;  // an addr-spec (valid_address)
};

struct Attachment {
  std::string filename;      // "cinq-AB12.txt"
  std::string content_type;  // "text/plain; charset=utf-8"
  std::string data;
};

struct Outgoing {
  Mailbox from;
  Mailbox to;
  std::optional<Mailbox> reply_to;
  std::string subject;                  // UTF-8
  std::string message_id;               // without <>: "turn.AB12.0.14@play.example.org"
  std::vector<std::string> references;  // ids without <>, oldest first; In-Reply-To is the last one
  std::string unsubscribe_url;          // List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) when set
  std::int64_t date_ms = 0;             // the Date header, in UTC
  std::string text;                     // UTF-8 body, '\n' line ends
  std::vector<Attachment> attachments;  // multipart/mixed when there are any
  std::vector<std::pair<std::string, std::string>> extra_headers;  // {"Auto-Submitted", "auto-generated"}
};

// The whole message, CRLF line ends: text/plain UTF-8 in quoted-printable (lines of at most 76), attachments
// in base64. Throws std::invalid_argument for an address that is not valid_address (callers check first).
std::string compose(const Outgoing& mail);

// A plain addr-spec `local@domain`: printable ASCII, no spaces or specials, one '@', a local part of at most
// 64 and a domain of letters, digits, hyphens and dots, 254 in all.
bool valid_address(std::string_view address);

// A header text as RFC 2047 encoded words where it needs them (non-ASCII, or "=?"); never holds CR or LF.
std::string encode_header_text(std::string_view utf8);

// Quoted-printable and base64 (RFC 2045), with CRLF line ends.
std::string quoted_printable(std::string_view utf8);
std::string base64(std::string_view bytes, std::size_t line = 76);

}  // namespace cinq::mail
