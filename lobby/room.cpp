// A room's commands: who may do what, when, and what it changes. JSON building is in room_json.cpp.
#include "lobby/room.h"
#include "rules/turn.h"

#include <algorithm>
#include <cassert>
#include <nlohmann/json.hpp>

#include "lobby/json_value.h"
#include "rules/registry.h"

namespace cinq::lobby {

using nlohmann::json;

const char* status_name(Status s) {
  switch (s) {
    case Status::open:
      return "open";
    case Status::live:
      return "live";
    case Status::finished:
      return "finished";
  }
  return "open";
}

namespace {

// A record has no form for a turn still in progress: a reader ends every turn it reads (and refuses one that
// cannot end there, like a Kopf oder Knopf penalty without its move). So Saved says so (open_turn), and
// restore() reopens that last turn. Stores of schema version 2 followed such a record with this line.
constexpr std::string_view kOpenTurnLine = "# turn in progress\n";

// Reads a record whose last turn is still open: the record without that turn, then its items played one by
// one, as the reader plays them but without ending the turn.
Result<Record> read_open_turn(std::string_view text) {
  auto entries = parse_lines(text);
  if (!entries) return entries.error();
  auto last = std::find_if(entries->rbegin(), entries->rend(),
                           [](const Entry& e) { return e.kind == Entry::Kind::turns; });
  if (last == entries->rend()) return make_error("a turn in progress, but no turn");
  std::string before;
  int line = 0;
  for (std::size_t start = 0; start < text.size(); ++line) {
    std::size_t end = std::min(text.find('\n', start), text.size());
    if (line + 1 != last->line)
      before += std::string(text.substr(start, end - start)) + "\n";
    else if (last->turns.size() == 2)  // keep the line's first turn
      before += std::to_string(last->number) + "   " + turn_text(last->turns.front()) + "\n";
    start = end + 1;
  }
  auto record = Record::read(before);
  if (!record) return record.error();
  const TurnText& open = last->turns.back();
  const State& st = record->state();
  if (record->finished() || st.mid_turn() || open.side != record->game().side_letter(st.to_move()))
    return make_error(std::string("the turn in progress is not ") + open.side + "'s");
  TurnRequest request;
  request.items = open.items;
  request.whole = false;  // played as the reader plays them, but the turn stays open
  auto played = play_items(record->state(), request, [&](Action a) { return record->play(a); });
  if (!played) return make_error("the turn in progress: " + played.error().message);
  return record;
}

}  // namespace

std::optional<Failure> check_clock(const ClockSpec& c) {
  if (c.days != 0) {
    if (c.days != 1 && c.days != 2 && c.days != 3 && c.days != 5 && c.days != 7 && c.days != 14)
      return Failure{"bad_clock", "a correspondence clock gives 1, 2, 3, 5, 7 or 14 days per turn"};
    if (c.base_ms != 0 || c.increment_ms != 0)
      return Failure{"bad_clock", "a correspondence clock (days) has no base time or increment"};
    return std::nullopt;
  }
  if (c.base_ms < 0 || c.increment_ms < 0) return Failure{"bad_clock", "clock times cannot be negative"};
  if (c.base_ms == 0 && c.increment_ms != 0)
    return Failure{"bad_clock", "an increment needs a base time (base_ms > 0)"};
  if (c.base_ms > Room::kMaxClockMs || c.increment_ms > 3600 * 1000)
    return Failure{"bad_clock", "clock too long: base up to 24 h, increment up to 1 h"};
  if (c.base_ms > 0 && c.base_ms < 10 * 1000) return Failure{"bad_clock", "a live clock needs at least 10 s"};
  return std::nullopt;
}

Room::Room(RoomConfig config, Record record)
    : id_(config.id), config_(std::move(config)), record_(std::move(record)) {}

Result<Room> Room::create(const RoomConfig& config, Now now) {
  if (!config.game) return make_error("unknown game");
  auto options = Options::parse_text(config.game->option_specs(), config.options);
  if (!options) return make_error("bad options: " + options.error().message);
  if (auto bad = check_clock(config.clock)) return make_error(bad->message);
  RoomConfig c = config;
  c.options = options->text();
  Room room(c, Record::start(*config.game, *options));
  room.created_ms_ = now.unix_ms;
  room.clock_ms_ = {config.clock.base_ms, config.clock.base_ms};
  room.shown_ = room.position_text(now);
  room.shown_.shrink_to_fit();
  return room;
}

Result<Room> Room::restore(const Saved& saved, Now now) {
  const Game* game = find_game(saved.game);
  if (!game) return make_error("room " + saved.id + ": unknown game '" + saved.game + "'");
  std::string_view text = saved.record;
  bool open_turn = saved.open_turn;
  if (text.ends_with(kOpenTurnLine)) {  // the older form
    open_turn = true;
    text.remove_suffix(kOpenTurnLine.size());
  }
  auto record = open_turn ? read_open_turn(text) : Record::read(text);
  if (!record) return make_error("room " + saved.id + ": stored record: " + record.error().text());
  if (&record->game() != game) return make_error("room " + saved.id + ": stored record is another game");
  RoomConfig c{saved.id, game, saved.options, saved.clock, saved.is_private, saved.rematch_of, saved.rated};
  Room room(c, std::move(*record));
  room.status_ = room.record_.finished() ? Status::finished : saved.status;
  room.seats_ = saved.seats;
  room.clock_ms_ = saved.clock_ms;
  room.version_ = saved.version;
  room.created_ms_ = saved.created_ms;
  room.seat_token_hashes_ = saved.seat_token_hashes;
  room.seat_tokens_ = saved.seat_tokens;
  room.seat_mail_ = saved.seat_mail;
  for (const ChatLine& line : saved.chat) room.chat_.push_back(line);
  if (room.status_ == Status::live && room.config_.clock.enabled()) room.restart_clock(now);
  // A correspondence deadline is wall time and runs on while the server is down: it is kept as it was (one
  // already past ends the game at the server's first tick).
  if (room.status_ == Status::live && room.config_.clock.correspondence()) {
    room.wall_deadline_ = saved.deadline_ms;
    if (room.wall_deadline_ == 0) room.restart_clock(now);
  }
  room.shown_ = room.position_text(now);
  room.shown_.shrink_to_fit();
  // From the store: the next save is a change to what it holds (this version), and rewrites every entry
  // once, so that nothing depends on how the stored entries were cut.
  if (saved.stored) {
    room.handed_.any = true;
    room.handed_.columns = saved;
    room.handed_.columns.record.clear();
    room.handed_.stable_entries = 0;
    room.handed_.version = saved.version;
  }
  return room;
}

int Room::seat_of(const std::string& player_id) const {
  for (int s = 0; s < 2; ++s)
    if (!player_id.empty() && seats_[s].id == player_id) return s;
  return -1;
}

int Room::seat_to_move() const {
  if (status_ != Status::live || record_.finished()) return -1;
  return record_.state().seat_of(record_.state().to_move());
}

Effect Room::fail(std::string code, std::string message) const {
  Effect e;
  e.error = Failure{std::move(code), std::move(message)};
  return e;
}

// ---------------------------------------------------------------------------------------------------------
// Seats

Effect Room::sit(const Player& player, std::optional<int> seat, Now now) {
  if (status_ == Status::finished) return fail("game_over", "the game is over");
  if (player.id.empty()) return fail("bad_message", "a player needs an id");  // "" marks a free seat
  if (int mine = seat_of(player.id); mine >= 0)
    return fail("already_seated", "you already hold seat " + std::to_string(mine));
  if (seat && *seat != 0 && *seat != 1) return fail("bad_message", "seat must be 0 or 1");
  int s = seat ? *seat : (seats_[0].id.empty() ? 0 : 1);
  if (!seats_[s].id.empty()) return fail("seat_taken", "seat " + std::to_string(s) + " is taken");
  // A game that began with a free seat (an imported correspondence game) is sat in with the seat's link.
  if (status_ != Status::open)
    return fail("bad_token",
                "this game is under way: take seat " + std::to_string(s) + " with its private link");
  seats_[s] = player;
  Effect e;
  e.save = true;
  json seated = {{"id", player.id}, {"name", player.name}};
  if (!player.username.empty()) seated["username"] = player.username;
  if (player.rating) seated["rating"] = rating_json(*player.rating);
  e.events.push_back(event({{"kind", "seated"}, {"seat", s}, {"player", std::move(seated)}}));
  if (!seats_[0].id.empty() && !seats_[1].id.empty()) {
    start_game(now);
    e.events.push_back(event({{"kind", "started"}}, e, now));
  }
  return e;
}

void Room::start_game(Now now) {
  status_ = Status::live;
  auto letters = record_.game().side_letters();
  record_.add_players({{letters[0], seats_[0].name}, {letters[1], seats_[1].name}});
  std::time_t t = static_cast<std::time_t>(now.unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
  record_.add_timestamp(stamp);
  restart_clock(now);
}

Effect Room::leave(const std::string& player_id, Now now) {
  int s = seat_of(player_id);
  if (s < 0 || status_ != Status::open) return {};  // a seat in a game that began is kept
  seats_[s] = Player{};
  Effect e;
  e.save = true;
  e.events.push_back(event({{"kind", "left"}, {"seat", s}}));
  if (seats_[0].id.empty() && seats_[1].id.empty()) {  // nobody waits any more: the room closes
    (void)record_.abort();
    finish(e, now);
  }
  return e;
}

// ---------------------------------------------------------------------------------------------------------
// Playing

Failure* Room::check_player_turn(const std::string& player_id, Failure& out) const {
  if (status_ == Status::finished)
    return &(out = {"game_over", "the game is over (" + record_.result_text() + ")"});
  int s = seat_of(player_id);
  if (s < 0) return &(out = {"not_seated", "you do not hold a seat in this room"});
  return check_seat_turn(s, out);
}

Failure* Room::check_seat_turn(int seat, Failure& out) const {
  if (status_ == Status::finished)
    return &(out = {"game_over", "the game is over (" + record_.result_text() + ")"});
  if (status_ == Status::open) return &(out = {"not_started", "the game has not started: a seat is free"});
  if (seat != seat_to_move()) return &(out = {"not_your_turn", "it is not your turn"});
  return nullptr;
}

Effect Room::act(const std::string& player_id, const std::vector<std::string>& items, bool end_turn,
                 Now now) {
  Failure why;
  if (check_player_turn(player_id, why)) return fail(why.code, why.message);
  return act_seat(seat_of(player_id), items, end_turn, now);
}

Effect Room::act_seat(int seat, const std::vector<std::string>& items, bool end_turn, Now now) {
  Failure why;
  if (check_seat_turn(seat, why)) return fail(why.code, why.message);
  if (items.empty() && !end_turn) return fail("bad_message", "nothing to play: give actions or end_turn");
  if (flag_fallen(now)) {  // the move came after the flag fell, before the timer said so
    Effect e = tick(now);
    e.error = Failure{"game_over", "your time ran out"};
    return e;
  }

  // Played on a copy of the state, and on the record only if every item is legal: a turn is applied whole or
  // not at all. (Copying the state, not the record: a record copy costs its whole history, every turn.)
  if (record_.incomplete()) return fail("game_over", "this record stops at '...': it cannot go on");
  std::unique_ptr<State> trial = record_.state().clone();
  TurnRequest request;
  request.items = items;
  request.whole = false;
  request.end_turn = end_turn;
  request.from_record = false;
  auto turn = play_items(*trial, request, [&trial](Action a) -> Result<bool> {
    trial->apply(a);
    return true;
  });
  if (!turn) {
    Effect e;
    e.error = rules_failure("illegal", turn.error());
    return e;
  }
  // Annotations alone (a strike sent without its move) change nothing: no event, and above all no
  // increment for a turn that did not happen.
  if (turn->actions.empty())
    return fail("illegal", "nothing to play: an annotation needs the action that follows it");
  const std::vector<Action>& actions = turn->actions;
  const bool ended = turn->ended;
  json played = turn->texts;

  for (Action a : actions) {
    // Cannot fail: each action was legal in turn on the same state, and the record is neither finished nor
    // incomplete (checked above).
    auto ok = record_.play(a);
    assert(ok);
    (void)ok;
  }
  bool turn_over = record_.finished() || !record_.state().mid_turn();
  Effect e;
  e.save = true;
  takeback_offer_ = -1;  // playing on refuses a request to take back the turn before
  if (turn_over) {
    if (draw_offer_ == 1 - seat) draw_offer_ = -1;  // answering an offer with a move declines it
    if (!record_.finished()) {
      // A side's first move is not on its clock (first_move_since_): nothing to charge, no increment.
      if (config_.clock.enabled() && running_ >= 0) {
        charge_clock(now);
        clock_ms_[seat] += config_.clock.increment_ms;
      }
      restart_clock(now);
    }
  }
  if (record_.finished()) {  // the board ended it: the play event already shows the finished position
    charge_clock(now);
    running_ = -1;
    status_ = Status::finished;
  }
  // Whether the turn is over is the patched position's (`mid_turn` false, or the game over; `turn` counts it):
  // not repeated in the event, which goes to every connection.
  json body = {{"kind", "play"}, {"seat", seat}, {"actions", played}};
  if (ended) body["end_turn"] = true;  // absent: false (bytes: every event goes to every connection)
  e.events.push_back(event(std::move(body), e, now));
  if (record_.finished()) finish(e, now);
  return e;
}

Room::Tried Room::try_turn(const std::string& player_id, const std::vector<std::string>& items, bool end_turn,
                          Now now) const {
  Tried out;
  Failure why;
  if (check_player_turn(player_id, why)) return out.error = why, out;
  if (record_.incomplete()) return out.error = Failure{"game_over", "this record stops at '...'"}, out;
  if (flag_fallen(now)) return out.error = Failure{"game_over", "your time ran out"}, out;
  const int seat = seat_of(player_id);
  // On a copy of the record, so that the position (and a result the trial reaches) reads as the room's
  // would; a copy costs the record's length, and a `try` is one message of a person composing a turn.
  Record trial = record_;
  TurnRequest request;
  request.items = items;
  request.whole = false;
  request.end_turn = end_turn;
  request.from_record = false;
  auto turn = play_items(trial.state(), request, [&trial](Action a) { return trial.play(a); });
  if (!turn) return out.error = rules_failure("illegal", turn.error()), out;
  json texts = turn->texts;
  out.members = "\"actions\":" + texts.dump() + ",\"position\":";
  write_json(position_of(trial, now), out.members);
  const State& st = trial.state();
  const bool still_mine = !trial.finished() && st.seat_of(st.to_move()) == seat;
  out.members += ",";
  out.members += still_mine ? legal_members_of(st) : std::string("\"legal\":[]");
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Outside the board

Effect Room::resign(const std::string& player_id, Now now) {
  int s = seat_of(player_id);
  if (s < 0) return fail("not_seated", "you do not hold a seat in this room");
  if (status_ == Status::finished) return fail("game_over", "the game is over");
  if (status_ == Status::open) return fail("not_started", "the game has not started: leave or abort instead");
  Effect e;
  if (abort_unrated(e, now)) return e;
  auto ok = record_.declare(Outcome::win(1 - s, "resign"));
  if (!ok) return fail("game_over", ok.error().message);
  finish(e, now);
  return e;
}

Effect Room::offer_draw(const std::string& player_id, Now now) {
  int s = seat_of(player_id);
  if (s < 0) return fail("not_seated", "you do not hold a seat in this room");
  if (status_ != Status::live)
    return fail(status_ == Status::open ? "not_started" : "game_over", "no game in play");
  if (draw_offer_ == s) return fail("already_offered", "your draw offer stands");
  Effect e;
  if (draw_offer_ == 1 - s) {
    auto ok = record_.declare(Outcome::draw("agreement"));
    if (!ok) return fail("game_over", ok.error().message);
    finish(e, now);
    return e;
  }
  draw_offer_ = s;
  e.events.push_back(event({{"kind", "draw_offer"}, {"seat", s}}, e, now));
  return e;
}

Effect Room::decline_draw(const std::string& player_id, Now now) {
  int s = seat_of(player_id);
  if (s < 0) return fail("not_seated", "you do not hold a seat in this room");
  if (status_ != Status::live || draw_offer_ != 1 - s)
    return fail("no_draw_offer", "no draw offer to decline");
  draw_offer_ = -1;
  Effect e;
  e.events.push_back(event({{"kind", "draw_declined"}, {"seat", s}}, e, now));
  return e;
}

Effect Room::abort(const std::string& player_id, Now now) {
  int s = seat_of(player_id);
  if (s < 0) return fail("not_seated", "you do not hold a seat in this room");
  if (status_ == Status::finished) return fail("game_over", "the game is over");
  if (status_ == Status::live && record_.turn_count() >= 2)
    return fail("cannot_abort", "both players have played: resign or offer a draw instead");
  Effect e;
  (void)record_.abort();
  finish(e, now);
  return e;
}

std::optional<Failure> Room::may_hint(const std::string& player_id) const {
  const int s = seat_of(player_id);
  if (s < 0) return Failure{"not_seated", "you do not hold a seat in this room"};
  if (status_ == Status::finished) return Failure{"game_over", "the game is over"};
  if (status_ == Status::open) return Failure{"not_started", "the game has not started"};
  if (config_.rated) return Failure{"no_hints_rated", "no hints in a rated game"};
  if (!seats_[1 - s].id.starts_with("bot:"))
    return Failure{"no_hints_person", "hints are only given against the computer, never against a person"};
  if (seat_to_move() != s) return Failure{"not_your_turn", "it is not your turn"};
  if (record_.state().mid_turn()) return Failure{"turn_in_progress", "a turn is in progress: finish it first"};
  return std::nullopt;
}

Effect Room::hint(const std::string& player_id, std::int64_t turns, const std::string& turn, Now now) {
  if (auto refused = may_hint(player_id)) {
    Effect e;
    e.error = std::move(*refused);
    return e;
  }
  if (record_.turn_count() != turns) return fail("stale", "a turn was played since the hint was asked for");
  const int s = seat_of(player_id);
  record_.add_comment(std::string(kHintComment) + std::to_string(s + 1) + " " + turn);
  const auto counts = hints();
  Effect e;
  e.save = true;
  e.events.push_back(event({{"kind", "hint"}, {"seat", s}, {"turn", turn}, {"hints", counts}}, e, now));
  return e;
}

std::array<int, 2> Room::hints() const {
  std::array<int, 2> out{0, 0};
  for (const Entry& e : record_.entries()) {
    if (e.kind != Entry::Kind::comment) continue;
    std::string_view text = e.text;
    while (!text.empty() && (text.front() == '#' || text.front() == ' ')) text.remove_prefix(1);
    if (!text.starts_with(kHintComment)) continue;
    text.remove_prefix(kHintComment.size());
    if (text.starts_with("1")) ++out[0];
    if (text.starts_with("2")) ++out[1];
  }
  return out;
}

Result<Record> Room::without_last_turn(int seat) const {
  if (config_.clock.correspondence())
    return make_error("a correspondence game's turns may have gone out by mail: they are not taken back");
  for (const Player& p : seats_)
    if (p.id.starts_with("bot:")) return make_error("the computer does not take back turns");
  const State& st = record_.state();
  if (st.mid_turn()) return make_error("your opponent has begun a turn since");
  if (seat_to_move() != 1 - seat) return make_error("the last turn is not yours to take back");
  const std::vector<Entry>& entries = record_.entries();
  std::size_t last = entries.size();
  while (last > 0 && entries[last - 1].kind != Entry::Kind::turns) --last;
  if (last == 0) return make_error("no turn to take back");
  // The record as it was before that turn: its entries up to it (the lines after it, a round's result
  // and the next round's start, go with it), read again.
  std::vector<std::string> texts = record_.entry_texts(0);
  texts.resize(last - 1);
  auto before = Record::read(layout_record(record_.header_line(), texts));
  if (!before) return make_error("the record before the last turn cannot be read: " + before.error().message);
  const State& b = before->state();
  if (before->finished() || b.seat_of(b.to_move()) != seat)
    return make_error("the last turn is not yours to take back");
  return before;
}

Effect Room::take_back(const std::string& player_id, Now now) {
  int s = seat_of(player_id);
  if (s < 0) return fail("not_seated", "you do not hold a seat in this room");
  if (status_ != Status::live)
    return fail(status_ == Status::open ? "not_started" : "game_over", "no game in play");
  Effect e;
  if (takeback_offer_ == 1 - s) {  // accepting: the opponent's last turn leaves the record
    auto before = without_last_turn(1 - s);
    if (!before) {
      takeback_offer_ = -1;
      return fail("cannot_take_back", before.error().message);
    }
    charge_clock(now);
    record_ = std::move(*before);
    takeback_offer_ = -1;
    draw_offer_ = -1;
    restart_clock(now);
    // The entries from the one taken back on are rewritten by the next save.
    handed_.stable_entries = std::min(handed_.stable_entries, record_.entries().size());
    e.save = true;
    e.events.push_back(event({{"kind", "takeback"}, {"seat", 1 - s}}, e, now));
    return e;
  }
  if (takeback_offer_ == s) return fail("already_offered", "your request to take back stands");
  auto before = without_last_turn(s);
  if (!before) return fail("cannot_take_back", before.error().message);
  takeback_offer_ = s;
  e.events.push_back(event({{"kind", "takeback_offer"}, {"seat", s}}, e, now));
  return e;
}

Effect Room::decline_takeback(const std::string& player_id, Now now) {
  int s = seat_of(player_id);
  if (s < 0) return fail("not_seated", "you do not hold a seat in this room");
  if (status_ != Status::live || takeback_offer_ != 1 - s)
    return fail("no_takeback_offer", "no request to take back a turn to decline");
  takeback_offer_ = -1;
  Effect e;
  e.events.push_back(event({{"kind", "takeback_declined"}, {"seat", s}}, e, now));
  return e;
}

namespace {

// The text of a chat line, trimmed, or why it cannot be one: 1 to Room::kChatMaxChars characters of valid
// UTF-8, without control characters (C0, DEL, C1) or the marks that reorder what follows (embeddings,
// overrides and isolates: U+202A-U+202E, U+2066-U+2069), which could make a line pass for another.
std::optional<std::string> clean_chat(std::string_view text, std::string& why) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.empty()) return why = "an empty message", std::nullopt;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++chars) {
    const auto b = static_cast<unsigned char>(text[i]);
    const int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > text.size()) return why = "the message is not valid UTF-8", std::nullopt;
    char32_t c = len == 1 ? b : b & (0x7F >> len);
    for (int k = 1; k < len; ++k) {
      const auto n = static_cast<unsigned char>(text[i + k]);
      if ((n & 0xC0) != 0x80) return why = "the message is not valid UTF-8", std::nullopt;
      c = (c << 6) | (n & 0x3F);
    }
    if (c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F))
      return why = "a message holds no control characters (one line of text)", std::nullopt;
    if ((c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069))
      return why = "a message holds no direction overrides", std::nullopt;
    i += len;
  }
  if (chars > Room::kChatMaxChars)
    return why = "a message holds at most " + std::to_string(Room::kChatMaxChars) + " characters", std::nullopt;
  return std::string(text);
}

}  // namespace

Effect Room::chat(const Player& player, std::string_view text, Now now) {
  std::string why;
  auto clean = clean_chat(text, why);
  if (!clean) return fail("bad_chat", why);
  // At most kChatBurst lines in any kChatWindowMs from one player; the times are the steady clock's.
  auto& times = chat_times_[player.id];
  while (!times.empty() && now.steady_ms - times.front() >= kChatWindowMs) times.pop_front();
  if (times.size() >= kChatBurst)
    return fail("chat_limit", "at most " + std::to_string(kChatBurst) + " messages in " +
                                  std::to_string(kChatWindowMs / 1000) + " s: wait a moment");
  times.push_back(now.steady_ms);
  if (chat_times_.size() > 64)  // the players who wrote nothing lately are forgotten
    std::erase_if(chat_times_, [&](const auto& kv) {
      return kv.second.empty() || now.steady_ms - kv.second.back() >= kChatWindowMs;
    });
  ChatLine line;
  line.at_ms = now.unix_ms;
  line.seat = seat_of(player.id);
  line.spectators = line.seat < 0;
  line.player_id = player.id;
  line.name = player.name;
  line.text = std::move(*clean);
  chat_.push_back(line);
  chat_unsaved_.push_back(line);
  Effect e;
  e.save = true;
  e.chat.emplace_back(line, std::make_shared<const std::string>(chat_message(line)));
  return e;
}

nlohmann::json chat_json(const ChatLine& line) {
  return json{{"channel", line.spectators ? "spectators" : "players"},
              {"seat", line.seat >= 0 ? json(line.seat) : json(nullptr)},
              {"name", line.name},
              {"player", line.player_id},
              {"text", line.text},
              {"at_ms", line.at_ms}};
}

std::string Room::chat_message(const ChatLine& line) const {
  json m = chat_json(line);
  m["type"] = "chat";
  m["room"] = id_;
  return m.dump();
}

std::string seat_link(const std::string& room, int seat, const std::string& token) {
  return "/#/room/" + room + "?seat=" + std::to_string(seat) + "&token=" + token;
}

json seat_links_json(const std::array<std::string, 2>& links) {
  if (links[0].empty() && links[1].empty()) return nullptr;
  json out = json::array();
  for (const std::string& link : links) out.push_back(link.empty() ? json(nullptr) : json(link));
  return out;
}

std::array<std::string, 2> Room::seat_links(int viewer) const {
  std::array<std::string, 2> out;
  if (!config_.clock.correspondence()) return out;
  for (int s = 0; s < 2; ++s)
    if (!seat_tokens_[s].empty() && (s == viewer || (viewer >= 0 && seats_[s].id.empty())))
      out[s] = seat_link(id_, s, seat_tokens_[s]);
  return out;
}

Effect Room::expire(Now now) {
  if (status_ != Status::open) return fail("not_open", "the room is not open");
  Effect e;
  (void)record_.abort();
  finish(e, now);
  return e;
}

Effect Room::close(Now now) {
  if (status_ == Status::finished) return fail("game_over", "the game is over");
  Effect e;
  record_.add_comment(kClosed);
  if (!record_.abort()) return fail("game_over", "the game is over");
  abort_detail_ = kClosed;
  config_.rated = false;
  finish(e, now);
  return e;
}

Effect Room::ask_rematch(const std::string& player_id, Now) {
  int s = seat_of(player_id);
  if (s < 0) return fail("not_seated", "you do not hold a seat in this room");
  if (status_ != Status::finished) return fail("not_finished", "a rematch follows a finished game");
  if (!rematch_room_.empty()) return fail("rematch_exists", "the rematch is room " + rematch_room_);
  if (rematch_[s]) return fail("already_asked", "you already asked for a rematch");
  rematch_[s] = true;
  Effect e;
  if (rematch_[1 - s]) {
    e.rematch_ready = true;
    return e;
  }
  e.events.push_back(event({{"kind", "rematch_offer"}, {"seat", s}}));
  return e;
}

Effect Room::rematch_opened(const std::string& new_room, Now) {
  rematch_room_ = new_room;
  Effect e;
  // Not `room`: every event's `room` names the room it belongs to (event() sets it), and would hide this one.
  e.events.push_back(event({{"kind", "rematch"}, {"rematch", new_room}}));
  return e;
}

Effect Room::tick(Now now) {
  if (!flag_fallen(now)) return {};
  int loser = seat_to_move();
  Effect e;
  if (first_move_since_ >= 0) {  // a side did not make its first move in time: the game never began
    record_.add_comment(kNoFirstMove);
    abort_detail_ = kNoFirstMove;
    if (!record_.abort()) return e;
    finish(e, now);
    return e;
  }
  if (abort_unrated(e, now)) return e;
  auto ok = record_.declare(Outcome::win(1 - loser, "time"));
  if (!ok) return e;
  finish(e, now);
  return e;
}

Effect Room::set_online(int seat, bool online, Now) {
  if (seat < 0 || seat > 1 || online_[seat] == online) return {};
  online_[seat] = online;
  Effect e;
  e.events.push_back(event({{"kind", "presence"}, {"seat", seat}, {"online", online}}));
  return e;
}

Effect Room::rename_seat(const std::string& player_id, const std::string& name, const std::string& username,
                         Now) {
  const int s = seat_of(player_id);
  if (s < 0 || name.empty()) return {};
  Player& p = seats_[s];
  if (p.name == name && (username.empty() || p.username == username)) return {};
  p.name = name;
  if (!username.empty()) p.username = username;
  Effect e;
  e.save = status_ != Status::finished;  // a finished row is read with its players' names as they are now
  json body = {{"kind", "renamed"}, {"seat", s}, {"name", name}};
  if (!p.username.empty()) body["username"] = p.username;
  e.events.push_back(event(std::move(body)));
  return e;
}

Effect Room::set_spectators(int count, Now) {
  if (count == spectators_) return {};
  spectators_ = count;
  Effect e;
  e.events.push_back(event({{"kind", "spectators"}, {"count", count}}));
  return e;
}

bool Room::abort_unrated(Effect& e, Now now) {
  if (!config_.rated || record_.turn_count() >= 2) return false;
  // A tournament's game (its id is the tournament's game id, `TOURNAMENT-ROUND-BOARD` or `TOURNAMENT-aN`:
  // no other room id holds a '-') keeps its result, which its tournament counts; it changes no rating.
  if (config_.id.find('-') != std::string::npos) {
    record_.add_comment(kTooShortToRate);
    config_.rated = false;
    return false;
  }
  record_.add_comment(kTooShortToRate);
  if (!record_.abort()) return false;
  abort_detail_ = kTooShortToRate;
  config_.rated = false;
  finish(e, now);
  return true;
}

void Room::finish(Effect& e, Now now) {
  charge_clock(now);
  running_ = -1;
  first_move_since_ = -1;
  wall_deadline_ = 0;
  status_ = Status::finished;
  draw_offer_ = -1;
  takeback_offer_ = -1;
  e.save = true;
  e.events.push_back(event({{"kind", "finished"}, {"result", result_json()}}, e, now));
}

// ---------------------------------------------------------------------------------------------------------
// Clocks

void Room::charge_clock(Now now) {
  if (running_ < 0) return;
  clock_ms_[running_] = std::max<std::int64_t>(0, clock_ms_[running_] - (now.steady_ms - running_since_));
  running_since_ = now.steady_ms;
}

void Room::restart_clock(Now now) {
  running_ = config_.clock.enabled() ? seat_to_move() : -1;
  running_since_ = now.steady_ms;
  // A live clock starts for each side with its first move (as Lichess does): until then the side
  // to move has kFirstMoveMs to make it, or the game is aborted.
  first_move_since_ = -1;
  if (running_ >= 0 && record_.turn_count() < 2) {
    running_ = -1;
    first_move_since_ = now.steady_ms;
  }
  wall_deadline_ =
      config_.clock.correspondence() && seat_to_move() >= 0 ? now.unix_ms + config_.clock.days * kDayMs : 0;
}

std::optional<std::int64_t> Room::deadline() const {
  if (first_move_since_ >= 0 && status_ == Status::live) return first_move_since_ + kFirstMoveMs;
  if (running_ < 0) return std::nullopt;
  return running_since_ + clock_ms_[running_];
}

std::optional<std::int64_t> Room::wall_deadline() const {
  if (wall_deadline_ == 0 || status_ != Status::live) return std::nullopt;
  return wall_deadline_;
}

bool Room::flag_fallen(Now now) const {
  auto d = deadline();
  auto w = wall_deadline();
  return (d && now.steady_ms >= *d) || (w && now.unix_ms >= *w);
}

std::array<std::int64_t, 2> Room::clock_left(Now now) const {
  auto left = clock_ms_;
  if (running_ >= 0)
    left[running_] = std::max<std::int64_t>(0, left[running_] - (now.steady_ms - running_since_));
  return left;
}

Saved Room::saved_columns() const {
  Saved s;
  s.id = id_;
  s.game = std::string(record_.game().name());
  s.options = config_.options;
  s.clock = config_.clock;
  s.is_private = config_.is_private;
  s.status = status_;
  s.result = record_.result_text();
  s.open_turn = !record_.finished() && record_.state().mid_turn();
  s.seats = seats_;
  s.clock_ms = clock_ms_;  // the running side's time at the start of its turn
  s.version = version_;
  s.turns = record_.turn_count();
  s.rematch_of = config_.rematch_of;
  s.created_ms = created_ms_;
  s.deadline_ms = wall_deadline().value_or(0);
  s.seat_token_hashes = seat_token_hashes_;
  s.seat_tokens = seat_tokens_;
  s.seat_mail = seat_mail_;
  s.rated = config_.rated;
  if (auto r = record_.result()) {
    s.winner = r->kind == Outcome::Kind::win ? r->winner : r->kind == Outcome::Kind::draw ? 2 : -1;
  }
  return s;
}

Saved Room::saved(Now) const {
  Saved s = saved_columns();
  s.record = record_.write();
  s.chat.assign(chat_.begin(), chat_.end());
  return s;
}

namespace {

// The columns a query reads (the games row): a save writes them only when one of these changed.
bool same_columns(const Saved& a, const Saved& b) {
  auto same_seat = [](const Player& x, const Player& y) { return x.id == y.id && x.name == y.name; };
  return a.id == b.id && a.game == b.game && a.options == b.options && a.clock == b.clock &&
         a.is_private == b.is_private && a.status == b.status && a.result == b.result &&
         same_seat(a.seats[0], b.seats[0]) && same_seat(a.seats[1], b.seats[1]) &&
         a.rematch_of == b.rematch_of && a.created_ms == b.created_ms && a.deadline_ms == b.deadline_ms &&
         a.seat_token_hashes == b.seat_token_hashes && a.seat_tokens == b.seat_tokens && a.seat_mail == b.seat_mail && a.rated == b.rated &&
         a.winner == b.winner;
}

}  // namespace

RoomSave Room::take_save(Now) {
  RoomSave s;
  s.saved = saved_columns();
  s.chat = std::move(chat_unsaved_);
  chat_unsaved_.clear();
  if (status_ == Status::finished) {
    // The whole record and every column (the store drops the entries). The save that finishes the game
    // still names the version it follows, like any change: if a save before it failed, it must fail too
    // rather than commit the turns that one lost. Once finished, a save stands alone.
    s.saved.record = record_.write();
    if (handed_.any && handed_.columns.status != Status::finished) s.base_version = handed_.version;
  } else {
    s.saved.record = record_.header_line();
    s.from = handed_.any ? handed_.stable_entries : 0;
    s.entries = record_.entry_texts(s.from);
    s.replaces = !handed_.any || s.from < handed_.stored_entries;
    handed_.stored_entries = s.from + s.entries.size();
    s.row_changed = !handed_.any || !same_columns(handed_.columns, s.saved);
    if (handed_.any) s.base_version = handed_.version;
  }
  handed_.any = true;
  handed_.columns = s.saved;
  handed_.columns.record.clear();
  handed_.version = version_;
  // Every entry kept so far stays as it is, but an open turn (the last turn entry: it grows); the results
  // the record adds after its entries are not kept ones.
  const std::vector<Entry>& entries = record_.entries();
  std::size_t stable = entries.size();
  if (s.saved.open_turn) {
    while (stable > 0 && entries[stable - 1].kind != Entry::Kind::turns) --stable;
    if (stable > 0) --stable;
  }
  handed_.stable_entries = stable;
  return s;
}

}  // namespace cinq::lobby
