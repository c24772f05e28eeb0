// The mails of a correspondence game (notices.h): plain text, one builder per kind, the shared parts once, in
// the language of the seat each is for (words.h).
#include "mail/notices.h"

#include "mail/words.h"

namespace cinq::mail {

namespace {

std::string name_or(const SeatView& s, const std::string& fallback) { return s.name.empty() ? fallback : s.name; }

// The text of `key` in the language of the seat the mail is for.
std::string say(const GameMail& g, int seat, std::string_view key, Params params = {}) {
  return text(g.seats[seat].language, key, params);
}

// The result in the seat's language.
const std::string& result_of(const GameMail& g, int seat) {
  return g.seats[seat].result.empty() ? g.result : g.seats[seat].result;
}

// Every mail of a seat: from its seat address (a reply plays its turns), in the game's thread.
Outgoing base(const GameMail& g, int seat, const std::string& kind, const std::string& to) {
  const SeatView& s = g.seats[seat];
  Outgoing m;
  m.from = {g.from.name.empty() ? "Cinq" : g.from.name, s.reply_address.empty() ? g.from.address : s.reply_address};
  m.to = {s.name, to};
  if (!s.reply_address.empty()) m.reply_to = Mailbox{m.from.name, s.reply_address};
  m.subject = subject_of(g, s.language);
  m.message_id = kind + "." + g.room + "." + std::to_string(seat) + "." + std::to_string(g.turn) + "." +
                 std::to_string(g.now_ms) + "@" + g.domain;
  m.references = {thread_id(g, seat)};
  m.unsubscribe_url = s.unsubscribe_url;
  m.date_ms = g.now_ms;
  m.extra_headers = {{"Auto-Submitted", "auto-generated"}, {"X-Cinq-Room", g.room}};
  return m;
}

// Seat `of`'s side in words in the language of the seat the mail is for.
const std::string& side_for(const GameMail& g, int seat, int of) {
  const std::string& side = g.seats[seat].sides[static_cast<std::size_t>(of)];
  return side.empty() ? g.seats[of].side : side;
}

std::string players_line(const GameMail& g, int seat) {
  const std::string open = say(g, seat, "game.open_seat");
  return say(g, seat, "game.players",
             {{"first", name_or(g.seats[0], open)}, {"first_side", side_for(g, seat, 0)},
              {"second", name_or(g.seats[1], open)}, {"second_side", side_for(g, seat, 1)}});
}

// The deadline in the time zone and language of the seat the mail is for.
std::string deadline_line(const GameMail& g, int seat) {
  if (g.deadline_ms <= 0) return {};
  const SeatView& s = g.seats[seat];
  return say(g, seat, "game.deadline", {{"time", human_time(g.deadline_ms, s.zone, s.language)}});
}

// How to answer by mail, and the links.
std::string footer(const GameMail& g, int seat) {
  const SeatView& s = g.seats[seat];
  std::string out = say(g, seat, "game.footer", {{"letter", std::string(1, s.letter)}});
  if (!s.link.empty()) out += say(g, seat, "game.footer.play", {{"link", s.link}});
  if (!g.room_url.empty()) out += say(g, seat, "game.footer.watch", {{"link", g.room_url}});
  if (!s.unsubscribe_url.empty()) out += say(g, seat, "game.footer.unsubscribe", {{"link", s.unsubscribe_url}});
  return out;
}

std::string position(const GameMail& g, int seat) {
  return say(g, seat, "game.position", {{"record", g.record}, {"board", g.board}});
}

std::string turn_body(const GameMail& g, int seat) {
  const SeatView& other = g.seats[1 - seat];
  std::string out = say(g, seat, "turn.head",
                        {{"name", name_or(g.seats[seat], say(g, seat, "turn.player"))}, {"game", g.game}, {"room", g.room}});
  if (!g.last_turn.empty())
    out += say(g, seat, "turn.last", {{"name", name_or(other, say(g, seat, "turn.opponent"))}, {"turn", g.last_turn}});
  out += deadline_line(g, seat);
  return out + position(g, seat) + footer(g, seat);
}

}  // namespace

std::string thread_id(const GameMail& g, int seat) {
  return "game." + g.room + "." + std::to_string(seat) + "@" + g.domain;
}

std::string subject_of(const GameMail& g, std::string_view language) {
  return text(language, "game.subject",
              {{"game", g.game}, {"first", name_or(g.seats[0], "?")}, {"second", name_or(g.seats[1], "?")}, {"room", g.room}});
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
  m.text = say(g, seat, "reminder.head", {{"game", g.game}, {"room", g.room}}) + turn_body(at, seat);
  return m;
}

Outgoing game_over(const GameMail& g, int seat) {
  Outgoing m = base(g, seat, "end", g.seats[seat].address);
  m.text = say(g, seat, "over.head", {{"result", result_of(g, seat)}}) + players_line(g, seat) + position(g, seat);
  if (!g.room_url.empty()) m.text += say(g, seat, "over.site", {{"link", g.room_url}});
  m.attachments.push_back({"cinq-" + g.room + ".txt", "text/plain; charset=utf-8", g.record});
  return m;
}

Outgoing invitation(const GameMail& g, int seat, std::int64_t days) {
  Outgoing m = base(g, seat, "invite", g.seats[seat].address);
  const std::string_view language = g.seats[seat].language;
  const std::string inviter = name_or(g.seats[1 - seat], say(g, seat, "invite.inviter"));
  m.text = say(g, seat, "invite.head",
               {{"inviter", inviter}, {"game", g.game}, {"room", g.room}, {"days", count_text(language, "count.days", days)}}) +
           players_line(g, seat) + say(g, seat, "invite.side", {{"side", g.seats[seat].side}});
  if (g.to_move == seat)
    return m.text += say(g, seat, "invite.first") + deadline_line(g, seat) + position(g, seat) + footer(g, seat), m;
  m.text += say(g, seat, "invite.wait", {{"inviter", inviter}}) + position(g, seat) + footer(g, seat);
  return m;
}

Outgoing played(const GameMail& g, int seat, const std::string& to, const std::string& in_reply_to) {
  Outgoing m = base(g, seat, "played", to);
  if (!in_reply_to.empty()) m.references.push_back(in_reply_to);
  m.text = g.last_turn.empty() ? say(g, seat, "played.head") : say(g, seat, "played.turn", {{"turn", g.last_turn}});
  if (!g.result.empty())
    m.text += say(g, seat, "played.over", {{"result", result_of(g, seat)}});
  else if (g.to_move == 1 - seat)
    m.text += say(g, seat, "played.next", {{"name", name_or(g.seats[1 - seat], say(g, seat, "played.opponent"))}});
  m.text += position(g, seat) + footer(g, seat);
  return m;
}

Outgoing refused(const GameMail& g, int seat, const std::string& to, const std::string& in_reply_to,
                 const std::string& reason) {
  Outgoing m = base(g, seat, "refused", to);
  if (!in_reply_to.empty()) m.references.push_back(in_reply_to);
  m.text = say(g, seat, "refused.head", {{"reason", reason}}) + deadline_line(g, seat) + position(g, seat) +
           footer(g, seat);
  return m;
}

Outgoing confirm_address(const GameMail& g, int seat, const std::string& confirm_url) {
  Outgoing m = base(g, seat, "confirm", g.seats[seat].address);
  m.text = say(g, seat, "confirm.seat", {{"game", g.game}, {"room", g.room}, {"link", confirm_url}});
  return m;
}

}  // namespace cinq::mail
