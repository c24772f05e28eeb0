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
  // {"Auto-Submitted", "auto-generated"}, {"X-Cinq-Room", "AB12"}; one of the fields compose writes itself
  // (From, Subject, Content-Type, ...) is left out.
  std::vector<std::pair<std::string, std::string>> extra_headers;
};

// The whole message, CRLF line ends, ready for SMTP DATA: MIME-Version 1.0, the text as text/plain UTF-8 in
// quoted-printable (lines of at most 76), attachments (multipart/mixed) in base64 with a Content-Disposition
// filename (RFC 2231's filename* when it is not short ASCII). Every header value from a field is made safe:
// control characters (CR and LF among them) become spaces, display names are quoted or RFC 2047 encoded, the
// subject's non-ASCII words are encoded, long fields are folded (lines of at most 78). Throws
// std::invalid_argument for an address that is not valid_address (a programming error: callers check first).
std::string compose(const Outgoing& mail);

// A plain addr-spec `local@domain`, as players type it: printable ASCII without spaces or any of
// `<>()[],;:\"`, exactly one '@', a local part of 1 to 64 characters, a domain of letters, digits, hyphens
// and dots (253 at most), 254 in all; no dot at either end of either part, nor two in a row (RFC 5321).
bool valid_address(std::string_view address);
// Whether two addresses name the same mailbox, compared without regard to case (a domain has none, and mail
// servers in practice treat local parts the same way).
bool same_address(std::string_view a, std::string_view b);

// A header text on one line (control characters, CR and LF among them, as spaces; runs of spaces as one;
// none at the ends), with the words that need it (non-ASCII, holding "=?", or longer than 60) as RFC 2047
// encoded words (=?UTF-8?B?...?=, 60 characters at most, so that every line can fold within 78).

std::string encode_header_text(std::string_view utf8);

// Quoted-printable and base64 (RFC 2045), with CRLF line ends (`line` 0: one line, no line end).
std::string quoted_printable(std::string_view utf8);
std::string base64(std::string_view bytes, std::size_t line = 76);

}  // namespace cinq::mail
