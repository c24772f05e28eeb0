// Reading mail (RFC 5322, MIME): who sent it, to whom, and its text as UTF-8, whatever its structure,
// transfer encoding and charset; then, in a reply, the lines a person wrote, and among them the lines of a
// game record. Untrusted input (a player's mail, a fuzzer's bytes): nothing here throws, loops or recurses
// without bound.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cinq::mail {

struct Incoming {
  std::string from_address;             // the domain lower-cased, the local part as written
  std::string from_name;                // decoded (RFC 2047) to UTF-8
  std::string message_id;               // without <>; "" if none (or holding spaces, controls)
  std::string subject;                  // decoded to UTF-8
  std::string in_reply_to;              // without <>
  std::vector<std::string> references;  // without <>, as listed
  std::vector<std::string> recipients;  // Delivered-To, X-Original-To, To, Cc, in that order, once each
  std::string auto_submitted;           // Auto-Submitted ("" if none): robots' mail is never answered
  bool from_html = false;               // the text came from an HTML part (there was no text/plain)
  // The first text/plain part that is not an attachment, at any depth of multiparts (format=flowed lines
  // joined), else the first text/html as text (html_to_text); UTF-8 with '\n' line ends. Base64,
  // quoted-printable, 7bit, 8bit and binary; any charset iconv knows; unknown or invalid bytes are U+FFFD.
  std::string text;
};

// Reads a raw message (CRLF or LF line ends; header names without regard to case, folded lines unfolded).
// nullopt and `error` (one line, for a person: "the mail has no text to read") for a message with no header,
// no blank line after its header, or no readable text part. Multiparts are read 8 levels deep, 100 parts in
// all.
std::optional<Incoming> read_message(std::string_view raw, std::string& error);

// The lines a person wrote in a reply, in order, each ending in '\n'. Left out: quoted lines ('>' after
// optional spaces) but a record timestamp "> YYYY-MM-DD HH:MM:SS" (one '>', one space, trailing spaces
// allowed: a line of a game record, not a quote), and an attribution line ending in ':' ("On ... wrote:",
// "Le ... a écrit :", "Am ... schrieb ...:") that a quoted line follows after optional blank lines. The text
// stops at a signature separator ("-- " or "--") and at the first line of an original under a reply:
// "-----Original Message-----" and the like ("-----" text "-----"), a line of underscores, or Outlook's
// "From: ..." line followed by "Sent: ..." (or "Date:", "Envoyé :", "Gesendet:").
std::string fresh_text(std::string_view text);

// The lines of `text` that may be lines of a game record (docs/notation.md), in order, each trimmed and
// followed by '\n' ("" if none): turns ("D/e3 a3/"), numbered turn lines ("3   A/d1 d5 x c5/"), "#!", "#=",
// "#-" and other '#' lines, "...", players ("A = Ann") and timestamps ("> 2026-06-11 10:47:00"). Prose is
// left out; no-break spaces count as spaces.
std::string record_lines(std::string_view text);

// HTML as text: tags dropped, a line end for <br> and at blocks (<p>, <div>, <tr>, <li>, ...), a
// <blockquote>'s lines prefixed with "> " per level, <hr> as a line of underscores (as Outlook writes it in
// text: the original under a reply starts there), entities decoded (&amp; &lt; &gt; &quot; &#39; &nbsp;
// &#NNN; &#xHH; and a few named ones), <head>, <style> and <script> left out, whitespace collapsed but in
// <pre>.
std::string html_to_text(std::string_view html);

// A bounce (a delivery status notification, RFC 3464, or a plain "undeliverable" mail) for mail this server
// sent: the Message-IDs in it that end in "@" + `domain` (the failed mail's own, from the returned headers),
// once each, and the reason the receiving server gave (the first Diagnostic-Code, else the first Status,
// else ""), on one line. Looks at the raw text: a bounce's parts vary too much to rely on their structure.
struct Bounce {
  std::vector<std::string> message_ids;  // without <>
  std::string reason;
};
Bounce read_bounce(std::string_view raw, std::string_view domain);

}  // namespace cinq::mail
