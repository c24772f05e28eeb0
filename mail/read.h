// Reading mail (RFC 5322, MIME): who sent it, to whom, and its text as UTF-8, whatever its structure,
// transfer encoding and charset; then, in a reply, the lines a person wrote, and among them the lines of a
// game record. Untrusted input: never throws, never loops, bounded nesting.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cinq::mail {

struct Incoming {
  std::string from_address;             // the domain lower-cased
  std::string from_name;                // decoded to UTF-8
  std::string message_id;               // without <>; "" if none
  std::string subject;                  // decoded to UTF-8
  std::string in_reply_to;              // without <>
  std::vector<std::string> references;  // without <>
  std::vector<std::string> recipients;  // Delivered-To, X-Original-To, To, Cc, in that order, once each
  std::string auto_submitted;           // the Auto-Submitted header ("" if none)
  bool from_html = false;               // the text came from an HTML part (there was no text/plain)
  std::string text;                     // the first text/plain part, else the first text/html as text
};

// nullopt and `error` (a sentence) for a mail with no header or no readable text part.
std::optional<Incoming> read_message(std::string_view raw, std::string& error);

// The lines a person wrote in a reply: quoted lines ('>') left out, except a record timestamp
// "> YYYY-MM-DD HH:MM:SS"; the text stops at a signature separator ("-- ") or a quoted original
// ("-----Original Message-----", "________________"); an attribution line before a quote ("On ... wrote:")
// is left out.
std::string fresh_text(std::string_view text);

// The lines of `text` that may be lines of a game record (docs/notation.md), trimmed, each followed by '\n':
// turns ("D/e3 a3/"), numbered turn lines, "#!", "#=", "#-", "# ...", "...", players ("A = Ann") and
// timestamps. Prose is left out.
std::string record_lines(std::string_view text);

// HTML as text: tags dropped, line breaks for <br>, </p>, </div>, </tr>, <li>; a <blockquote>'s lines quoted
// with "> "; entities decoded; <head>, <style> and <script> left out.
std::string html_to_text(std::string_view html);

}  // namespace cinq::mail
