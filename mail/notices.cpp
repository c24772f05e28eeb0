// The mails of a correspondence game (notices.h): plain text, one builder per kind, the shared parts once.
#include "mail/notices.h"

#include "mail/schedule.h"

namespace cinq::mail {

namespace {

std::string name_or(const SeatView& s, const char* fallback) { return s.name.empty() ? fallback : s.name; }

// Every mail of a seat: from its seat address (a reply plays its turns), in the game's thread.
Outgoing base(const GameMail& g, int seat, const std::string& kind, const std::string& to) {
  const SeatView& s = g.seats[seat];
  Outgoing m;
  m.from = {g.from.name.empty() ? "Cinq" : g.from.name, s.reply_address.empty() ? g.from.address : s.reply_address};
  m.to = {s.name, to};
  if (!s.reply_address.empty()) m.reply_to = Mailbox{m.from.name, s.reply_address};
  m.subject = subject_of(g);
  m.message_id = kind + "." + g.room + "." + std::to_string(seat) + "." + std::to_string(g.turn) + "." +
                 std::to_string(g.now_ms) + "@" + g.domain;
  m.references = {thread_id(g, seat)};
  m.unsubscribe_url = s.unsubscribe_url;
  m.date_ms = g.now_ms;
  m.extra_headers = {{"Auto-Submitted", "auto-generated"}, {"X-Cinq-Room", g.room}};
  return m;
}

std::string players_line(const GameMail& g) {
  return name_or(g.seats[0], "(open seat)") + ", " + g.seats[0].side + ", against " +
         name_or(g.seats[1], "(open seat)") + ", " + g.seats[1].side + ".\n";
}

// The deadline in the time zone of the seat the mail is for.
std::string deadline_line(const GameMail& g, int seat) {
  if (g.deadline_ms <= 0) return {};
  return "Deadline: " + human_time(g.deadline_ms, g.seats[seat].zone) + ". Past it, the side to move loses on time.\n";
}

// How to answer by mail, and the links.
std::string footer(const GameMail& g, int seat) {
  const SeatView& s = g.seats[seat];
  std::string out = "\nTo play by mail, reply to this message with your turn on a line of its own, for "
                    "example\n    " +
                    std::string(1, s.letter) +
                    "/.../\n"
                    "or with the whole log and your turn appended. Lines quoted with '>' are ignored.\n";
  if (!s.link.empty()) out += "To play in a browser: " + s.link + "\n";
  if (!g.room_url.empty()) out += "To watch: " + g.room_url + "\n";
  if (!s.unsubscribe_url.empty()) out += "No more mail for this game: " + s.unsubscribe_url + "\n";
  return out;
}

std::string position(const GameMail& g) {
  return "\nThe log so far:\n\n" + g.record + "\nThe position:\n\n" + g.board + "\n";
}

std::string turn_body(const GameMail& g, int seat) {
  const SeatView& other = g.seats[1 - seat];
  std::string out = "It is your turn, " + name_or(g.seats[seat], "player") + ", in " + g.game + " (game " +
                    g.room + ").\n";
  if (!g.last_turn.empty()) out += name_or(other, "Your opponent") + " played: " + g.last_turn + "\n";
  out += deadline_line(g, seat);
  return out + position(g) + footer(g, seat);
}

}  // namespace

std::string thread_id(const GameMail& g, int seat) {
  return "game." + g.room + "." + std::to_string(seat) + "@" + g.domain;
}

std::string subject_of(const GameMail& g) {
  return "Cinq: " + g.game + ", " + name_or(g.seats[0], "?") + " vs " + name_or(g.seats[1], "?") + " (" + g.room +
         ")";
}

Outgoing your_turn(const GameMail& g, int seat) {
  Outgoing m = base(g, seat, "turn", g.seats[seat].address);
  m.text = turn_body(g, seat);
  return m;
}

Outgoing reminder(const GameMail& g, int seat, std::int64_t at_ms) {
  GameMail at = g;
  at.now_ms = at_ms;
  Outgoing m = base(at, seat, "reminder", g.seats[seat].address);
  m.text = "Reminder: your turn in " + g.game + " (game " + g.room + ") is still to be played.\n" +
           turn_body(at, seat);
  return m;
}

Outgoing game_over(const GameMail& g, int seat) {
  Outgoing m = base(g, seat, "end", g.seats[seat].address);
  m.text = "The game is over: " + g.result + "\n" + players_line(g) + position(g);
  if (!g.room_url.empty()) m.text += "\nThe game on the site: " + g.room_url + "\n";
  m.attachments.push_back({"cinq-" + g.room + ".txt", "text/plain; charset=utf-8", g.record});
  return m;
}

Outgoing invitation(const GameMail& g, int seat, std::int64_t days) {
  Outgoing m = base(g, seat, "invite", g.seats[seat].address);
  const std::string inviter = name_or(g.seats[1 - seat], "A player");
  m.text = inviter + " invites you to a game of " + g.game + " by correspondence on Cinq (game " + g.room +
           "): " + std::to_string(days) + (days == 1 ? " day" : " days") + " per move.\n" + players_line(g) +
           "You play " + g.seats[seat].side + ". You can play the whole game by replying to these mails.\n";
  if (g.to_move == seat) return m.text += "\nYou move first.\n" + deadline_line(g, seat) + position(g) + footer(g, seat), m;
  m.text += "\n" + inviter + " moves first: you will get a mail when it is your turn.\n" + position(g) + footer(g, seat);
  return m;
}

Outgoing played(const GameMail& g, int seat, const std::string& to, const std::string& in_reply_to) {
  Outgoing m = base(g, seat, "played", to);
  if (!in_reply_to.empty()) m.references.push_back(in_reply_to);
  m.text = "Your turn is played" + (g.last_turn.empty() ? std::string(".") : ": " + g.last_turn) + "\n";
  if (!g.result.empty())
    m.text += "The game is over: " + g.result + "\n";
  else if (g.to_move == 1 - seat)
    m.text += "Now " + name_or(g.seats[1 - seat], "your opponent") + " is to move.\n";
  m.text += position(g) + footer(g, seat);
  return m;
}

Outgoing refused(const GameMail& g, int seat, const std::string& to, const std::string& in_reply_to,
                 const std::string& reason) {
  Outgoing m = base(g, seat, "refused", to);
  if (!in_reply_to.empty()) m.references.push_back(in_reply_to);
  m.text = "Your mail played nothing: " + reason + "\nNothing changed in the game.\n" + deadline_line(g, seat) +
           position(g) + footer(g, seat);
  return m;
}

Outgoing confirm_address(const GameMail& g, int seat, const std::string& confirm_url) {
  Outgoing m = base(g, seat, "confirm", g.seats[seat].address);
  m.text = "This address was given for your seat in " + g.game + " (game " + g.room +
           ") on Cinq. To get the game's mails here (your turn, reminders, the result), open\n    " + confirm_url +
           "\nor reply to this mail with your turn. If you did not ask for it, ignore this mail: nothing more "
           "will be sent.\n";
  return m;
}

}  // namespace cinq::mail
