// The server's side of correspondence by mail (docs/mail.md): which mails a room's change causes, built from
// the room and queued in the save that stores the change (an outbox row in the same transaction, sent later
// by MailSender), and the seat addresses, tags and links the mails carry. Runs on the room's strand; the
// composing itself is mail/ (pure).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lobby/room.h"
#include "mail/account.h"
#include "mail/notices.h"
#include "persistence/store.h"

namespace cinq::server {

// `cinq serve --smtp ...` (docs/mail.md, "Options").
struct MailConfig {
  std::string smtp;          // smtp://HOST:PORT, smtps://HOST:PORT; "" : no mail at all
  bool starttls = false;     // --smtp-tls starttls: STARTTLS required on smtp://
  std::string user, password;  // the SMTP login (from CINQ_SMTP_USER/CINQ_SMTP_PASSWORD or --smtp-login-file)
  std::string ca_file;       // --smtp-ca-file: trust this CA (a private mail server's)
  std::string from;          // --mail-from: the envelope sender (bounces)
  std::string from_name = "Cinq";
  std::string domain;        // --mail-domain: the seats' reply addresses are play+ROOM.SEAT.TAG@DOMAIN
  std::string prefix = "play";
  std::string public_url;    // --public-url: links in mails ("http://localhost:8080" by default)
  std::chrono::milliseconds gather{std::chrono::minutes(2)};  // --mail-gather-ms: a your-turn mail waits
  std::chrono::milliseconds retry{std::chrono::minutes(1)};   // --mail-retry-ms: first retry; doubles to
  std::chrono::milliseconds retry_max{std::chrono::hours(1)};  // at most this
  std::chrono::milliseconds give_up{std::chrono::hours(24 * 5)};  // a mail still failing then is failed
  std::size_t max_message = 256 * 1024;  // --mail-max-bytes: a larger mail in is refused (552)
  int sender_rate = 120;                 // --mail-sender-rate: mails in an hour from one sender, then 450
  std::int64_t lmtp_port = -1;           // --lmtp PORT (0: any), -1 none
  std::string lmtp_address = "127.0.0.1";  // --lmtp-address: where the LMTP listener binds
  bool enabled() const { return !smtp.empty(); }
};

// What a room has been mailed about, to tell what changed (kept by its RoomActor).
struct MailMark {
  int turns = 0;
  int to_move = -1;
  bool finished = false;
  static MailMark of(const lobby::Room& room);
};

class Postman {
 public:
  explicit Postman(MailConfig config) : config_(std::move(config)) {}
  const MailConfig& config() const { return config_; }

  // The mails the room's change since `mark` causes, added to `save` (and `mark` moved on): the new mover's
  // your-turn mail (gathered, unless it plays by mail alone; none while its browser has the room open) and
  // reminders, the previous mover's queued ones cancelled, the result to both at the end.
  void on_change(const lobby::Room& room, MailMark& mark, store::GameSave& save, std::int64_t now_ms) const;

  // The game as its mails show it now.
  mail::GameMail view(const lobby::Room& room, std::int64_t now_ms) const;
  // A mail row for `out`, to `to`, for the outbox.
  store::MailRow row(const lobby::Room& room, int seat, const std::string& kind, const mail::Outgoing& out,
                     std::int64_t now_ms, std::int64_t due_ms = 0) const;
  // A seat's tag (its token's MAC), reply address and links.
  static std::string tag(const lobby::Room& room, int seat);
  std::string reply_address(const lobby::Room& room, int seat) const;
  std::string unsubscribe_url(const lobby::Room& room, int seat) const;
  std::string confirm_url(const lobby::Room& room, int seat) const;
  // An account's own mails (mail/account.h): as they show the account, their links, their outbox rows.
  mail::AccountView account_view(const store::AccountMail& account, const std::string& name) const;
  std::string account_confirm_url(const std::string& player_id, const std::string& code) const;
  std::string account_unsubscribe_url(const store::AccountMail& account) const;
  store::MailRow account_row(const std::string& kind, const mail::Outgoing& out, std::int64_t now_ms) const;
  // The day's digest of an account whose user name is `name`, from its games (as games_of_player reads
  // them): the unfinished correspondence games where it is the player's turn; none if there is none. Its id
  // is the account's and the day's, so that it is queued once a day whichever node makes it.
  std::optional<store::MailRow> digest(const store::AccountMail& account, const std::string& name,
                                       const std::vector<store::GameRow>& games, lobby::Now now) const;

  // Whether a seat's address gets mail: it is confirmed, or it was invited to play by mail.
  static bool mailable(const lobby::SeatMail& m) { return !m.address.empty() && (m.confirmed || m.by_mail); }

 private:
  MailConfig config_;
};

// The result of a finished room in words, in `language` (mail/words.h): "Ben (Defenders) wins: the king
// escaped to a corner".
std::string result_words(const lobby::Room& room, std::string_view language = "en");
// "Attackers (A)" for a seat of the room now (Bi-litaire's sides change with the round), in `language`: the
// game's own words (Game::words_in).
std::string side_words(const lobby::Room& room, int seat, std::string_view language = "en");

}  // namespace cinq::server
