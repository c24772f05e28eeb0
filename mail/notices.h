// The mails a correspondence game sends (docs/mail.md): what each says, as plain text built from plain fields.
// Pure logic: the server fills a GameMail from its room and queues what these return. Every mail of a game
// carries the same subject and references the game's thread id, so a mail client shows the game as one
// conversation; each comes from the recipient's seat address, so that a reply plays a turn.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "mail/compose.h"

namespace cinq::mail {

// One seat as its mails name it.
struct SeatView {
  std::string name;            // the player's name ("" : nobody yet)
  std::string side;            // the side in words and letter: "Attackers (A)"
  char letter = 'X';           // its side letter in the log
  std::string address;         // where its mail goes ("" none)
  std::string reply_address;   // its seat address (play+ROOM.SEAT.TAG@DOMAIN): replies play its turns
  std::string link;            // the seat's link on the site (with its token): opens the room in a browser
  std::string unsubscribe_url; // one click stops its mail (RFC 8058)
  std::string zone;            // the IANA time zone its mails give times in; "" UTC
  std::string language = "en"; // the language of its mails (words.h): its account's, or its seat's settings'
  std::string result;          // the game's result in words in its language, once finished ("" : GameMail's)
  // Both seats' sides in words in its language, seat 0 first ("" : each seat's `side`).
  std::array<std::string, 2> sides;
};

// A game as its mails show it, at the moment a mail is made.
struct GameMail {
  std::string room;
  std::string game;          // "Tablut"
  std::string domain;        // the mail domain (Message-IDs)
  Mailbox from;              // the server's sender (--mail-from); replies go to the seat address instead
  std::string room_url;      // the room for a spectator (no token)
  std::array<SeatView, 2> seats;
  std::string record;        // the whole log, canonical
  std::string board;         // the position as a text diagram
  std::string last_turn;     // the turn just played ("D/e7 i7 x i8/"), "" at the start
  int last_seat = -1;        // who played it
  int to_move = -1;          // the seat to move, -1 none
  std::int64_t now_ms = 0;
  std::int64_t deadline_ms = 0;  // the side to move's deadline, 0 none
  int turn = 0;                  // turns played so far (makes Message-IDs unique)
  std::string result;            // the result in words, once finished ("Ben wins: the king escaped")
};

// The thread every mail of `room` belongs to: "game.ROOM@DOMAIN" (a Message-ID no mail has: clients thread
// by References).
std::string thread_id(const GameMail& g, int seat);
// The subject every mail of the game carries: "Cinq: Tablut, Ann vs Ben (AB12)", in `language`.
std::string subject_of(const GameMail& g, std::string_view language = "en");

// It is `seat`'s turn: the opponent's last turn, the whole log, the position, the deadline, the links.
Outgoing your_turn(const GameMail& g, int seat);
// `seat`'s deadline is near (the same content as your_turn, said as a reminder); `at_ms` is when it goes.
Outgoing reminder(const GameMail& g, int seat, std::int64_t at_ms);
// The game is over: the result in words, the record attached as a .txt.
Outgoing game_over(const GameMail& g, int seat);
// `seat` is invited by the other seat's player: the game, the clock, how to play by mail, and (if it is to
// move) its turn.
Outgoing invitation(const GameMail& g, int seat, std::int64_t days);
// The answer to a mail from `to` that played `seat`'s turn: the canonical log, the position.
Outgoing played(const GameMail& g, int seat, const std::string& to, const std::string& in_reply_to);
// The answer to a mail that played nothing: the reason, naming the line at fault, and the log unchanged.
Outgoing refused(const GameMail& g, int seat, const std::string& to, const std::string& in_reply_to,
                 const std::string& reason);
// A link that confirms `seat`'s address (a seat's own address is mailed nothing else until it is confirmed,
// by this link or by a reply from it).
Outgoing confirm_address(const GameMail& g, int seat, const std::string& confirm_url);

}  // namespace cinq::mail
