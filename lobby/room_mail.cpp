// Correspondence by mail: a seat sends the game's whole log with its new turn appended, as
// players have always mailed it; the room checks the log against its own record and plays the new turns.
// Also the import of a record as a room.
#include <algorithm>
#include <cassert>
#include <nlohmann/json.hpp>

#include "lobby/room.h"
#include "rules/registry.h"

namespace cinq::lobby {

using nlohmann::json;

namespace {

// One turn of a log and the line it is on (meaningless for the room's own record, which was never text).
struct LogTurn {
  int line = 0;
  TurnText turn;
};

// Every turn of a record in order, across rounds: the game is the sequence of its turns.
std::vector<LogTurn> turns_of(const Record& record) {
  std::vector<LogTurn> out;
  for (const Entry& e : record.entries())
    if (e.kind == Entry::Kind::turns)
      for (const TurnText& t : e.turns) out.push_back({e.line, t});
  return out;
}

int result_line(std::string_view text) {
  auto entries = parse_lines(text);
  if (!entries) return 0;
  for (const Entry& e : *entries)
    if (e.kind == Entry::Kind::result) return e.line;
  return 0;
}

Effect refuse(std::string code, int line, std::string message) {
  Effect e;
  e.error =
      Failure{std::move(code), line > 0 ? "line " + std::to_string(line) + ": " + message : message, line};
  return e;
}

// A refusal whose reason is the rules' (`reason`: its code and parameters kept), about turn `turn` of the log
// when it is one of its new turns (0 otherwise).
Effect refuse(std::string code, int line, std::string message, const Failure& reason, int turn = 0) {
  Effect e = refuse(std::move(code), line, std::move(message));
  e.error->reason_code = reason.reason_code;
  e.error->params = reason.params;
  e.error->turn = turn;
  return e;
}

// The room's own reasons (log_refusals.inc).
constexpr LogRefusalInfo kLogRefusals[] = {
#define CINQ_LOG_REFUSAL(code, names) {#code, names},
#include "lobby/log_refusals.inc"
#undef CINQ_LOG_REFUSAL
};

// Whether `params` are the names log_refusals.inc gives `code`, in its order.
[[maybe_unused]] bool log_params_match(std::string_view code, const ErrorParams& params) {
  for (const LogRefusalInfo& info : kLogRefusals) {
    if (info.code != code) continue;
    std::string names;
    for (const auto& p : params) names += (names.empty() ? "" : " ") + p.first;
    return names == info.params;
  }
  return false;
}

// A refusal with the room's own reason `reason` (log_refusals.inc) and its parameters, for a mail to say it
// in its seat's language; `message` is the English text of the same.
Effect refuse(std::string code, int line, std::string message, std::string_view reason, ErrorParams params) {
  assert(log_params_match(reason, params));
  Effect e = refuse(std::move(code), line, std::move(message));
  e.error->reason_code = "log." + std::string(reason);
  e.error->params = std::move(params);
  return e;
}

// A refusal because the game is over (`result`): the rules' reason game_over, which every reader knows.
Effect refuse_over(int line, const std::string& result) {
  Effect e = refuse("game_over", line, "the game is over (" + result + ")");
  e.error->reason_code = "game_over";
  e.error->params = {{"result", result}};
  return e;
}

}  // namespace

std::span<const LogRefusalInfo> log_refusals() { return kLogRefusals; }

// A seat link used over the WebSocket: the seat goes to whoever presents its token.
Effect Room::claim_seat(const Player& player, int seat, const std::string& token_hash, Now now,
                        const SeatClaim& how) {
  if (seat != 0 && seat != 1) return fail("bad_message", "seat must be 0 or 1");
  if (seat_token_hashes_[seat].empty() || token_hash != seat_token_hashes_[seat])
    return fail("bad_token", "this is not seat " + std::to_string(seat) + "'s token");
  if (status_ == Status::finished) return fail("game_over", "the game is over");
  if (player.id.empty()) return fail("bad_message", "a player needs an id");
  if (seats_[seat].id == player.id) return {};
  if (seat_of(player.id) >= 0) return fail("already_seated", "you already hold the other seat");
  if (status_ == Status::open && seats_[seat].id.empty()) return sit(player, seat, now);
  const Player before = seats_[seat];
  if (!before.id.empty()) {
    const std::string side = "seat " + std::to_string(seat) + " (" +
                             std::string(record_.game().words().sides[static_cast<std::size_t>(seat)]) + ")";
    const std::string& account = !before.username.empty() ? before.username : how.holder_account;
    if (!account.empty())
      return fail("seat_owned", side + " belongs to the account " + account + ": log in as " + account +
                                    " to play it; anyone else watches the game");
    if (!how.take)
      return fail("seat_held", side + " is held by " + before.name +
                                   " in another browser: send the link again with 'take' to move the seat here");
  }
  // The seat moves to the link's holder (another browser); the record keeps the name the game began with.
  seats_[seat] = player;
  Effect e;
  e.save = true;
  json seated = {{"kind", "seated"}, {"seat", seat}, {"player", {{"id", player.id}, {"name", player.name}}}};
  if (!player.username.empty()) seated["player"]["username"] = player.username;
  if (!before.id.empty()) seated["replaces"] = {{"id", before.id}, {"name", before.name}};
  e.events.push_back(event(seated));
  note(seated, now);
  return e;
}

Result<Record> record_until(const Record& record, std::int64_t turns) {
  if (record.incomplete()) return make_error("the record stops at '...': its turns are not all written");
  if (turns < 0 || turns > record.turn_count())
    return make_error("turns: the record has " + std::to_string(record.turn_count()) + " turns, not " +
                      std::to_string(turns));
  // A kept entry is one line of the record; a turns entry holds one turn. The entries up to the turn named
  // stay (a finished round's result and the next round's start, before it, with them); what follows goes.
  std::vector<std::string> texts = record.entry_texts(0);
  std::size_t keep = 0, seen = 0;
  const std::vector<Entry>& entries = record.entries();
  if (turns > 0) {
    for (; keep < entries.size() && seen < static_cast<std::size_t>(turns); ++keep)
      seen += entries[keep].kind == Entry::Kind::turns;
  } else {  // before the first turn: the lines before it (players, a timestamp) stay
    while (keep < entries.size() && entries[keep].kind != Entry::Kind::turns &&
           entries[keep].kind != Entry::Kind::result)
      ++keep;
  }
  texts.resize(std::min(keep, texts.size()));
  while (!texts.empty() && texts.back().starts_with("#=")) texts.pop_back();  // the result goes with the rest
  auto cut = Record::read(layout_record(record.header_line(), texts));
  if (!cut) return make_error("the record cut after turn " + std::to_string(turns) + ": " + cut.error().message);
  if (cut->finished())
    return make_error("turns: the game is over after turn " + std::to_string(turns) + " (" + cut->result_text() +
                      "): play on from an earlier turn");
  return cut;
}

Result<Room> Room::from_record(const std::string& id, const Record& record, std::int64_t days,
                               bool is_private, Now now, const std::array<Player, 2>& seats) {
  if (record.incomplete()) return make_error("the record stops at '...': its turns are not all written");
  const bool finished = record.finished();
  Saved s;
  s.id = id;
  s.game = std::string(record.game().name());
  s.options = record.options().text();
  s.clock = ClockSpec{0, 0, finished ? 0 : days};
  s.is_private = is_private;
  s.status = finished ? Status::finished : Status::live;
  s.result = record.result_text();
  s.record = record.write();
  // The names stay in the record; the seats are free (an empty id), to be claimed with their links, but
  // for those given (a computer opponent).
  if (!finished) s.seats = seats;
  s.turns = record.turn_count();
  s.created_ms = now.unix_ms;
  if (!finished) {
    if (auto bad = check_clock(s.clock)) return make_error(bad->message);
  }
  return restore(s, now);
}

Effect Room::play_log(int seat, std::string_view text, Now now) {
  if (seat != 0 && seat != 1) return refuse("bad_message", 0, "seat must be 0 or 1");
  if (status_ == Status::live && flag_fallen(now)) {  // the deadline passed before the timer said so
    Effect e = tick(now);
    e.error = Failure{"game_over", "the time for this turn ran out (" + record_.result_text() + ")"};
    e.error->reason_code = "log.time_out";
    e.error->params = {{"result", record_.result_text()}};
    return e;
  }
  // A log with neither a #! line nor a turn (an empty mail, a body of prose) would read as an empty game of
  // the one game whose header is optional, and be called another game: say what it lacks instead.
  if (auto lines = parse_lines(text)) {
    const bool any = std::any_of(lines->begin(), lines->end(), [](const Entry& e) {
      return e.kind == Entry::Kind::header || e.kind == Entry::Kind::turns;
    });
    // (A mail with no move is answered before it comes here: mail_in.cpp.)
    const std::string example = std::string(1, record_.game().side_letter(record_.state().to_move())) + "/...";
    if (!any)
      return refuse("bad_record", 0,
                    "no moves were sent: send the game's log with your turn under it (a line like " + example + ")",
                    "no_moves", {{"example", example}});
  }
  auto sent_record = Record::read(text);
  if (!sent_record) {
    if (status_ == Status::finished)  // most likely a turn after the end: say first that the game is over
      return refuse_over(0, record_.result_text());
    return refuse("bad_record", sent_record.error().line, sent_record.error().message,
                  rules_failure("bad_record", sent_record.error()));
  }
  const Record& sent = *sent_record;
  if (&sent.game() != &record_.game() || sent.options().text() != config_.options) {
    const std::string game =
        std::string(record_.game().name()) + (config_.options.empty() ? "" : " " + config_.options);
    return refuse("other_game", 1, "the log is not this game (" + game + ")", "other_game", {{"game", game}});
  }

  // Everything stored must be in the log as it is: compared item by item in canonical form, so comments,
  // timestamps, spacing and optional annotations may differ.
  const std::vector<LogTurn> stored = turns_of(record_);
  std::vector<LogTurn> mailed = turns_of(sent);
  // A read record's entries are canonical but not tied to lines: the lines come from the syntax step.
  if (auto lines = parse_lines(text)) {
    std::vector<int> turn_lines;
    for (const Entry& e : *lines)
      if (e.kind == Entry::Kind::turns)
        for (std::size_t i = 0; i < e.turns.size(); ++i) turn_lines.push_back(e.line);
    for (std::size_t k = 0; k < mailed.size() && k < turn_lines.size(); ++k) mailed[k].line = turn_lines[k];
  }
  for (std::size_t k = 0; k < std::min(stored.size(), mailed.size()); ++k) {
    const TurnText& a = stored[k].turn;
    const TurnText& b = mailed[k].turn;
    if (a.side != b.side || a.items != b.items)
      return refuse("differs", mailed[k].line,
                    "turn " + std::to_string(k + 1) + " differs from the stored game: " + turn_text(b) +
                        " was sent, the game has " + turn_text(a),
                    "differs", {{"turn", std::to_string(k + 1)}, {"sent", turn_text(b)}, {"stored", turn_text(a)}});
  }
  if (mailed.size() < stored.size()) {
    int line = mailed.empty() ? 1 : mailed.back().line;
    const std::string next = turn_text(stored[mailed.size()].turn);
    return refuse("stale", line,
                  "the log stops after turn " + std::to_string(mailed.size()) + " but the game has " +
                      std::to_string(stored.size()) + " turns (next: " + next + "): fetch the current record",
                  "stale",
                  {{"turns", std::to_string(mailed.size())}, {"total", std::to_string(stored.size())}, {"next", next}});
  }
  const bool news = mailed.size() > stored.size();
  const int first_line = news ? mailed[stored.size()].line : result_line(text);
  if (status_ == Status::finished) {
    if (!news && (!sent.finished() || sent.result_text() == record_.result_text()))
      return {};  // the same log
    return refuse_over(first_line, record_.result_text());
  }
  if (!news) {
    if (sent.finished())
      return refuse("bad_result", result_line(text),
                    "a result cannot be mailed (" + sent.result_text() + "): resign or agree a draw in the room",
                    "result_mailed", {{"result", sent.result_text()}});
    return {};  // the same log again: nothing to do
  }
  if (status_ == Status::open)
    return refuse("not_started", first_line, "the game has not started: a seat is free", "not_started", {});
  if (record_.state().mid_turn())
    return refuse("turn_in_progress", first_line, "a turn is in progress in the room: finish it there first",
                  "turn_in_progress", {});

  // The new turns, played on a copy kept only if every one of them is the sender's, legal and whole.
  Room next = *this;
  Effect all;
  all.save = true;
  auto letter_of = [&](int s) {
    const State& st = next.record_.state();
    for (int side = 0; side < 2; ++side)
      if (st.seat_of(side) == s) return std::string(1, next.record_.game().side_letter(side));
    return std::string("?");
  };
  for (std::size_t k = stored.size(); k < mailed.size(); ++k) {
    const LogTurn& t = mailed[k];
    const std::string number = std::to_string(k + 1);
    if (next.record_.finished())
      return refuse("illegal", t.line, "turn " + number + " comes after the end of the game", "after_end",
                    {{"turn", number}});
    if (next.seat_to_move() != seat) {
      const std::string side(1, t.turn.side);
      if (k == stored.size())
        return refuse("not_your_turn", t.line,
                      "turn " + number + " is " + side + "'s: it is not your turn (you play " + letter_of(seat) + ")",
                      "not_your_turn", {{"turn", number}, {"side", side}, {"your_side", letter_of(seat)}});
      return refuse("other_side", t.line,
                    "turn " + number + " plays for the other side (" + side + "): send your own turns only",
                    "other_side", {{"turn", number}, {"side", side}});
    }
    Effect e = next.act_seat(seat, t.turn.items, true, now);
    if (e.error)
      return refuse(e.error->code, t.line, "turn " + number + ": " + e.error->message, *e.error,
                    static_cast<int>(k + 1));
    if (!next.record_.finished() && next.seat_to_move() == seat && next.record_.state().mid_turn())
      return refuse("illegal", t.line, "turn " + number + " is not complete", "turn_incomplete",
                    {{"turn", number}});
    if (e.patched != Effect::npos) {
      all.patched = all.events.size() + e.patched;
      all.mover = e.mover;
      all.legal = std::move(e.legal);
    }
    for (auto& m : e.events) all.events.push_back(std::move(m));
  }
  if (sent.finished() && sent.result_text() != next.record_.result_text()) {
    const std::string message = "the result " + sent.result_text() + " is not the game's (" +
                                (next.record_.finished() ? next.record_.result_text() : std::string("unfinished")) +
                                ")";
    if (!next.record_.finished())
      return refuse("bad_result", result_line(text), message, "result_unfinished", {{"result", sent.result_text()}});
    return refuse("bad_result", result_line(text), message, "result_differs",
                  {{"result", sent.result_text()}, {"game_result", next.record_.result_text()}});
  }
  *this = std::move(next);
  return all;
}

}  // namespace cinq::lobby
