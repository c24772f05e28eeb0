// An account's mail (docs/mail.md, "Accounts"): which of its games' mails it wants, its daily digest, and the
// two mails that are the account's own (the confirmation of its address, the digest). Pure: every time is
// passed in (Unix milliseconds, UTC).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mail/compose.h"

namespace cinq::mail {

// Which mails an account's seats get. As stored: the kinds wanted, space-separated, the digest's hour, the
// account's time zone and its language: "turn reminder end" (the defaults), "reminder end digest=7
// zone=Europe/Paris language=fr", "none".
struct AccountPrefs {
  bool turn = true;      // a your-turn mail after each opponent's turn
  bool reminder = true;  // reminders before a correspondence deadline
  bool end = true;       // the result, with the record
  int digest_hour = -1;  // 0-23: one mail a day at that hour (in `zone`) listing the games where it is the
                         // player's turn; -1 none
  std::string zone;      // the IANA time zone of its mails' times and of the digest's hour; "" UTC
  // The language of its mails and of the site (words.h, languages()), once the player chose one (the
  // header's switch while logged in); "" none chosen: English mails, and the site keeps the browser's.
  std::string language;
  // The language its mails are written in: its choice, else English.
  std::string mail_language() const { return language.empty() ? "en" : language; }

  // Whether a game's mail of `kind` goes to the account: "turn", "reminder" and "end" as chosen; a your-turn
  // mail never while the digest is on (the digest tells of it); every other kind (an answer to a mail, an
  // invitation, a confirmation) always.
  bool wants(std::string_view kind) const;
  std::string text() const;
  // The stored text back; "" is the defaults. nullopt (and `why`) for an unknown word, a bad hour, a zone
  // the system does not know or a language the mails are not written in.
  static std::optional<AccountPrefs> parse(std::string_view text, std::string& why);
  // What the store holds, read: the defaults for a text that does not read (written by another version).
  static AccountPrefs stored(std::string_view text);
  bool operator==(const AccountPrefs&) const = default;
};

// The UTC day of a time: "2026-11-29".
std::string utc_day(std::int64_t unix_ms);
// Whether an account's digest should be queued at `now_ms`: it has one, its hour has come today (in its
// zone), and none was queued today (`last_day`, as digest_day).
bool digest_due(const AccountPrefs& prefs, const std::string& last_day, std::int64_t now_ms);
// The day of `now_ms` in the account's zone, as digest_due compares it.
std::string digest_day(const AccountPrefs& prefs, std::int64_t now_ms);

// The account as its own mails show it.
struct AccountView {
  std::string player_id;
  std::string name;             // the user name
  Mailbox from;                 // the server's sender (--mail-from)
  std::string domain;           // the mail domain (Message-IDs)
  std::string settings_url;     // where its mail settings are on the site
  std::string unsubscribe_url;  // one click stops every mail of the account (RFC 8058)
  std::string zone;             // the IANA time zone its mails give times in; "" UTC
  std::string language = "en";  // the language of its mails (AccountPrefs::language)
};

// One game in a digest: it is the player's turn there.
struct DigestGame {
  std::string room;
  std::string game;          // "Tablut"
  std::string opponent;      // their name
  std::string side;          // the player's side in words: "Defenders (D)"
  std::string last_turn;     // the opponent's last turn, "" none
  std::string link;          // the seat's link (opens the room, seated)
  std::string reply_address; // the seat address: a reply there plays the turn
  std::int64_t deadline_ms = 0;
};

// A link that confirms `address` for the account (nothing else is mailed to it until then).
Outgoing confirm_account(const AccountView& a, const std::string& address, const std::string& confirm_url,
                         std::int64_t now_ms);
// The day's digest to `address`: the games where it is the player's turn, the nearest deadline first.
Outgoing digest(const AccountView& a, const std::string& address, std::vector<DigestGame> games,
                std::int64_t now_ms);

}  // namespace cinq::mail
