// Which mails a room's change causes (postman.h), and the parts of a room its mails show.
#include "server/postman.h"

#include <set>

#include "mail/address.h"
#include "mail/schedule.h"
#include "mail/words.h"
#include "server/stored_rooms.h"

namespace cinq::server {

namespace {

// A result line's reason in words (docs/notation.md, "Results"; mail/words_*.cpp, "reason.*"): an unknown
// reason as it is.
std::string reason_words(const std::string& reason, const std::string& loser, std::string_view language) {
  static const std::set<std::string, std::less<>> known = {"escape", "capture", "blocked", "repetition", "score",
                                                           "overflow", "exhausted", "agreement", "limit",
                                                           "resign", "time", "abandon"};
  if (!known.contains(reason)) return reason;
  return mail::text(language, "reason." + reason, {{"loser", loser}});
}

char side_letter_of(const lobby::Room& room, int seat) {
  const State& state = room.record().state();
  for (int side = 0; side < 2; ++side)
    if (state.seat_of(side) == seat) return room.game().side_letter(side);
  return room.game().side_letter(seat);
}

std::string name_of(const lobby::Room& room, int seat, std::string_view language) {
  const std::string& name = room.seats()[seat].name;
  return name.empty() ? mail::text(language, "result.seat", {{"n", std::to_string(seat + 1)}}) : name;
}

// The last turn of the record as its log writes it, and the seat that played it.
std::pair<std::string, int> last_turn(const lobby::Room& room) {
  const auto& entries = room.record().entries();
  for (auto e = entries.rbegin(); e != entries.rend(); ++e) {
    if (e->kind != Entry::Kind::turns || e->turns.empty()) continue;
    const TurnText& t = e->turns.back();
    const auto& letters = room.game().side_letters();
    const int side = t.side == letters[0] ? 0 : 1;
    return {turn_text(t), room.record().state().seat_of(side)};
  }
  return {"", -1};
}

}  // namespace

std::string side_words(const lobby::Room& room, int seat, std::string_view language) {
  const char letter = side_letter_of(room, seat);
  const Game& game = room.game();
  const int side = game.side_letter(0) == letter ? 0 : 1;
  return std::string(game.words_in(language).sides[static_cast<std::size_t>(side)]) + " (" + letter + ")";
}

std::string result_words(const lobby::Room& room, std::string_view language) {
  auto r = room.record().result();
  if (!r) return mail::text(language, "result.goes_on");
  if (r->kind == Outcome::Kind::aborted) return mail::text(language, "result.aborted");
  if (r->kind == Outcome::Kind::draw)
    return mail::text(language, "result.draw", {{"reason", reason_words(r->reason, "", language)}});
  const int winner = r->winner;
  std::string out = mail::text(language, "result.wins",
                               {{"name", name_of(room, winner, language)},
                                {"side", side_words(room, winner, language)},
                                {"reason", reason_words(r->reason, name_of(room, 1 - winner, language), language)}});
  if (!r->detail.empty()) out += " (" + r->detail + ")";
  return out;
}

MailMark MailMark::of(const lobby::Room& room) {
  return {room.record().turn_count(), room.seat_to_move(), room.status() == lobby::Status::finished};
}

std::string Postman::tag(const lobby::Room& room, int seat) {
  return mail::seat_tag(room.id(), seat, room.seat_token_hash(seat));
}

std::string Postman::reply_address(const lobby::Room& room, int seat) const {
  if (room.seat_token_hash(seat).empty() || config_.domain.empty()) return {};
  return mail::seat_address(config_.prefix, room.id(), seat, tag(room, seat), config_.domain);
}

std::string Postman::unsubscribe_url(const lobby::Room& room, int seat) const {
  return config_.public_url + "/api/mail/unsubscribe?room=" + room.id() + "&seat=" + std::to_string(seat) +
         "&tag=" + tag(room, seat);
}

std::string Postman::confirm_url(const lobby::Room& room, int seat) const {
  return config_.public_url + "/api/mail/confirm?room=" + room.id() + "&seat=" + std::to_string(seat) +
         "&tag=" + tag(room, seat);
}

mail::GameMail Postman::view(const lobby::Room& room, std::int64_t now_ms) const {
  mail::GameMail g;
  g.room = room.id();
  std::string title(room.game().record_name());
  for (std::size_t i = 1; i < title.size(); ++i)
    if (title[i - 1] != '-') title[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(title[i])));
  g.game = title;
  g.domain = config_.domain;
  g.from = {config_.from_name, config_.from};
  g.room_url = config_.public_url + "/#/room/" + room.id();
  for (int s = 0; s < 2; ++s) {
    mail::SeatView& v = g.seats[s];
    v.name = room.seats()[s].name;
    // The seat's own language (its settings, or its account's, taken with its address), English when none.
    v.language = mail::known_language(room.seat_mail(s).language) ? room.seat_mail(s).language : "en";
    v.side = side_words(room, s, v.language);
    v.letter = side_letter_of(room, s);
    v.address = room.seat_mail(s).address;
    v.zone = room.seat_mail(s).zone;
    v.reply_address = reply_address(room, s);
    if (!room.seat_token(s).empty())
      v.link = config_.public_url + lobby::seat_link(room.id(), s, room.seat_token(s));
    if (!room.seat_token_hash(s).empty()) v.unsubscribe_url = unsubscribe_url(room, s);
  }
  g.record = room.record().write();
  g.board = room.record().state().ascii();
  std::tie(g.last_turn, g.last_seat) = last_turn(room);
  g.to_move = room.seat_to_move();
  g.now_ms = now_ms;
  g.deadline_ms = room.wall_deadline().value_or(0);
  g.turn = room.record().turn_count();
  for (mail::SeatView& v : g.seats)
    for (int s = 0; s < 2; ++s) v.sides[static_cast<std::size_t>(s)] = side_words(room, s, v.language);
  if (room.status() == lobby::Status::finished) {
    g.result = result_words(room);
    for (mail::SeatView& v : g.seats) v.result = result_words(room, v.language);
  }
  return g;
}

store::MailRow Postman::row(const lobby::Room& room, int seat, const std::string& kind,
                            const mail::Outgoing& out, std::int64_t now_ms, std::int64_t due_ms) const {
  store::MailRow r;
  r.id = out.message_id;
  r.game_id = room.id();
  r.seat = seat;
  r.kind = kind;
  r.sender = config_.from;
  r.recipient = out.to.address;
  r.message = mail::compose(out);
  r.created_ms = now_ms;
  r.due_ms = due_ms > 0 ? due_ms : now_ms;
  return r;
}

void Postman::on_change(const lobby::Room& room, MailMark& mark, store::GameSave& save,
                        std::int64_t now_ms) const {
  const MailMark now = MailMark::of(room);
  const bool ended = now.finished && !mark.finished;
  const bool new_turn = now.to_move >= 0 && (now.to_move != mark.to_move || now.turns != mark.turns) &&
                        !room.record().state().mid_turn();
  if (!ended && !new_turn) return;
  const bool correspondence = room.config().clock.correspondence();
  // Whoever is no longer to move (or everyone, at the end) needs its queued notices no more.
  for (int s = 0; s < 2; ++s)
    if (ended || (s != now.to_move && mark.to_move == s))
      save.mail_cancels.push_back({room.id(), s, {"turn", "reminder"}});
  mark = now;
  if (!correspondence) return;
  std::optional<mail::GameMail> g;
  auto game = [&]() -> const mail::GameMail& {
    if (!g) g = view(room, now_ms);
    return *g;
  };
  if (ended) {
    for (int s = 0; s < 2; ++s)
      if (mailable(room.seat_mail(s))) save.mails.push_back(row(room, s, "end", mail::game_over(game(), s), now_ms));
    return;
  }
  const int s = now.to_move;
  const lobby::SeatMail& m = room.seat_mail(s);
  if (!mailable(m)) return;
  // Not while the player has the room open in a browser, unless it plays by mail alone; gathered, so that
  // turns in quick succession make one mail (the slot: a queued one is replaced by the newer).
  if (m.by_mail || !room.online(s)) {
    store::MailRow turn = row(room, s, "turn", mail::your_turn(game(), s), now_ms,
                              now_ms + (m.by_mail ? 0 : config_.gather.count()));
    turn.slot = "turn." + room.id() + "." + std::to_string(s);
    save.mails.push_back(std::move(turn));
  }
  const std::int64_t deadline = room.wall_deadline().value_or(0);
  if (m.reminders == "off" || deadline <= now_ms) return;
  std::vector<std::int64_t> leads;
  if (!m.reminders.empty()) leads = mail::parse_leads(m.reminders).value_or(std::vector<std::int64_t>{});
  for (std::int64_t at : mail::reminder_times(now_ms, deadline, leads))
    save.mails.push_back(row(room, s, "reminder", mail::reminder(game(), s, at), now_ms, at));
}

// --- an account's own mails

mail::AccountView Postman::account_view(const store::AccountMail& account, const std::string& name) const {
  mail::AccountView a;
  a.player_id = account.player_id;
  a.name = name;
  a.from = {config_.from_name, config_.from};
  a.domain = config_.domain;
  a.settings_url = config_.public_url + "/#/account";
  a.unsubscribe_url = account_unsubscribe_url(account);
  const mail::AccountPrefs prefs = mail::AccountPrefs::stored(account.prefs);
  a.zone = prefs.zone;
  a.language = prefs.mail_language();
  return a;
}

std::string Postman::account_confirm_url(const std::string& player_id, const std::string& code) const {
  return config_.public_url + "/api/account/confirm?player=" + player_id + "&code=" + code;
}

std::string Postman::account_unsubscribe_url(const store::AccountMail& account) const {
  return config_.public_url + "/api/account/unsubscribe?player=" + account.player_id +
         "&key=" + account.unsubscribe_key;
}

store::MailRow Postman::account_row(const std::string& kind, const mail::Outgoing& out, std::int64_t now_ms) const {
  store::MailRow r;
  r.id = out.message_id;
  r.kind = kind;
  r.sender = config_.from;
  r.recipient = out.to.address;
  r.message = mail::compose(out);
  r.created_ms = now_ms;
  r.due_ms = now_ms;
  return r;
}

std::optional<store::MailRow> Postman::digest(const store::AccountMail& account, const std::string& name,
                                              const std::vector<store::GameRow>& games, lobby::Now now) const {
  std::vector<mail::DigestGame> list;
  const std::string language = mail::AccountPrefs::stored(account.prefs).mail_language();
  for (const store::GameRow& row : games) {
    if (row.status == "finished" || row.clock_days <= 0) continue;
    const int seat = row.seat_ids[0] == account.player_id ? 0 : row.seat_ids[1] == account.player_id ? 1 : -1;
    if (seat < 0) continue;
    auto room = lobby::Room::restore(from_row(row), now);
    if (!room || room->seat_to_move() != seat || room->status() == lobby::Status::finished) continue;
    const mail::GameMail g = view(*room, now.unix_ms);
    list.push_back({g.room, g.game, g.seats[1 - seat].name, side_words(*room, seat, language),
                    g.last_seat == 1 - seat ? g.last_turn : std::string(), g.seats[seat].link,
                    g.seats[seat].reply_address, g.deadline_ms});
  }
  if (list.empty()) return std::nullopt;
  mail::Outgoing out = mail::digest(account_view(account, name), account.address, std::move(list), now.unix_ms);
  out.message_id = "digest." + account.player_id + "." +
                   mail::digest_day(mail::AccountPrefs::stored(account.prefs), now.unix_ms) + "@" + config_.domain;
  store::MailRow r = account_row("digest", out, now.unix_ms);
  return r;
}

}  // namespace cinq::server
