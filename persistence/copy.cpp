#include "persistence/copy.h"

#include <limits>
#include <utility>
#include <vector>

namespace cinq::store {
namespace {

constexpr std::size_t kBatch = 200;  // rows per transaction

// What must read back the same (the chat is compared by count).
std::string differs(const GameRow& a, const GameRow& b) {
  if (a.record != b.record) return "record";
  if (a.status != b.status) return "status";
  if (a.result != b.result) return "result";
  if (a.seat_ids != b.seat_ids || a.seat_names != b.seat_names) return "seats";
  if (a.clock_ms != b.clock_ms) return "clocks";
  if (a.version != b.version || a.turns != b.turns) return "version";
  if (a.open_turn != b.open_turn) return "open turn";
  if (a.seat_token_hashes != b.seat_token_hashes || a.seat_tokens != b.seat_tokens) return "seat tokens";
  if (a.seat_mail != b.seat_mail) return "seat mail";
  if (a.deadline_ms != b.deadline_ms || a.clock_days != b.clock_days) return "deadline";
  if (a.game != b.game || a.options != b.options || a.kind != b.kind || a.is_private != b.is_private ||
      a.rated != b.rated || a.winner != b.winner || a.rematch_of != b.rematch_of)
    return "settings";
  if (a.created_ms != b.created_ms || a.updated_ms != b.updated_ms) return "times";
  return "";
}

// The mails of `game_id` still to send (schema version 7). The outbox's history (sent, failed, cancelled
// mails) and the Message-IDs of the mails played (mail_received) are not copied: a copy is made with the
// server stopped, and what is queued is all the server needs to go on; each queued mail is copied as it was
// queued (its attempts and retry time start again). Of two queued mails of one slot (the second queued
// while a sender held the first), the newer is the one to send: it alone is copied.
std::vector<MailRow> queued_mails(Store& store, const std::string& game_id) {
  std::vector<MailRow> out;
  for (MailRow& m : store.mails_of_game(game_id)) {  // oldest first
    if (m.state != "queued") continue;
    if (!m.slot.empty())
      std::erase_if(out, [&](const MailRow& o) { return o.slot == m.slot; });
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

bool copy_store(Store& from, Store& to, CopyReport& report, Error& error,
                const std::function<void(const std::string&)>& progress) {
  auto tell = [&](const std::string& what) {
    if (progress) progress(what);
  };
  const auto target_games = to.count_games();
  const auto target_players = to.player_ids();
  if (target_games.failed() || target_players.failed()) {
    error.message = "the target store cannot be read";
    return false;
  }
  if (target_games != 0 || !target_players.empty()) {
    error.message = "the target store is not empty: copy into a new database or file";
    return false;
  }
  // Players.
  // A list the source could not give would copy nothing and check nothing: the copy stops there.
  auto unreadable = [&](const auto& read, const char* what) {
    if (!read.failed()) return false;
    error.message = std::string("reading ") + what + " from the source failed: " + read.error().message;
    return true;
  };
  const auto player_ids = from.player_ids();
  if (unreadable(player_ids, "the players")) return false;
  std::vector<PlayerRow> players;
  for (std::size_t i = 0; i < player_ids.size(); ++i) {
    auto row = from.player(player_ids[i]);
    if (!row) {
      error.message = "reading player " + player_ids[i] + " from the source failed";
      return false;
    }
    players.push_back(std::move(*row));
    // An account's own address and mail preferences (schema version 8), as they are.
    if (auto mail = from.account_mail(player_ids[i]); mail && !to.put_account_mail(*mail, {}, error)) return false;
    if (players.size() == kBatch || i + 1 == player_ids.size()) {
      if (!to.save(players, {}, error)) return false;
      report.players += static_cast<std::int64_t>(players.size());
      players.clear();
      tell(std::to_string(report.players) + " players");
    }
  }
  // Ratings, then games: a rated game's result finds its history row and is not applied twice.
  const auto ratings = from.all_ratings();
  const auto history = from.all_rating_history();
  if (unreadable(ratings, "the ratings") || unreadable(history, "the rating history")) return false;
  if (!to.put_ratings(ratings, history, error)) return false;
  report.ratings = static_cast<std::int64_t>(ratings.size());
  report.rating_changes = static_cast<std::int64_t>(history.size());
  // Games, whole, with every chat line and their queued mails.
  const auto game_ids = from.game_ids();
  if (unreadable(game_ids, "the games")) return false;
  std::vector<GameSave> saves;
  for (std::size_t i = 0; i < game_ids.size(); ++i) {
    auto row = from.game(game_ids[i]);
    if (!row) {
      error.message = "reading game " + game_ids[i] + " from the source failed";
      return false;
    }
    auto save = whole_save(*row, error);
    if (!save) return false;
    save->chat = from.chat(row->id, std::numeric_limits<int>::max());
    report.chat_lines += static_cast<std::int64_t>(save->chat.size());
    save->mails = queued_mails(from, row->id);
    if (row->status != "finished") ++report.unfinished;
    saves.push_back(std::move(*save));
    if (saves.size() == kBatch || i + 1 == game_ids.size()) {
      if (!to.save({}, saves, error)) return false;
      report.games += static_cast<std::int64_t>(saves.size());
      saves.clear();
      tell(std::to_string(report.games) + " of " + std::to_string(game_ids.size()) + " games");
    }
  }
  // Queued mails of no game (answers to mails that named none).
  if (auto loose = queued_mails(from, ""); !loose.empty() && !to.queue_mails(loose, {}, error)) return false;
  // Tournaments, as they are (their version kept: a save made after the copy follows it).
  const auto tournaments = from.tournaments("", std::numeric_limits<int>::max());
  if (unreadable(tournaments, "the tournaments")) return false;
  for (const TournamentRow& t : tournaments)
    if (!to.put_tournament(t, -1, {}, error)) return false;
  report.tournaments = static_cast<std::int64_t>(tournaments.size());
  // The games' analyses, as they are.
  const auto analyses = from.all_analyses();
  if (unreadable(analyses, "the analyses")) return false;
  for (const AnalysisRow& a : analyses)
    if (!to.put_analysis(a, error)) return false;
  report.analyses = static_cast<std::int64_t>(analyses.size());
  // Moderation (schema version 11), as it is: the audit log keeps its numbers.
  const auto moderation = from.moderation_rows();
  if (unreadable(moderation, "the moderation tables")) return false;
  ModerationWrite write;
  write.roles = moderation.roles;
  write.sanctions = moderation.sanctions;
  write.reports = moderation.reports;
  write.blocks = moderation.blocks;
  write.audit = moderation.audit;
  write.keep_seq = true;
  write.sightings = moderation.sightings;
  if (!to.moderate(write, error)) return false;
  report.moderation = static_cast<std::int64_t>(moderation.roles.size() + moderation.sanctions.size() +
                                                moderation.reports.size() + moderation.blocks.size() +
                                                moderation.audit.size() + moderation.sightings.size());
  // The check: counts, then every game.
  auto count_check = [&](const char* what, std::size_t a, std::size_t b) {
    if (a == b) return true;
    error.message = std::string("check: ") + what + ": " + std::to_string(a) + " in the source, " +
                    std::to_string(b) + " in the copy";
    return false;
  };
  if (!count_check("players", player_ids.size(), to.player_ids().size()) ||
      !count_check("games", game_ids.size(), to.game_ids().size()) ||
      !count_check("ratings", ratings.size(), to.all_ratings().size()) ||
      !count_check("rating changes", history.size(), to.all_rating_history().size()))
    return false;
  using Analyses = std::vector<AnalysisRow>;
  if (auto copied = to.all_analyses(); copied.failed() || Analyses(copied) != Analyses(analyses)) {
    error.message = "check: the analyses differ in the copy";
    return false;
  }
  if (auto copied = to.moderation_rows();
      copied.failed() || copied.roles != moderation.roles || copied.sanctions != moderation.sanctions ||
      copied.reports != moderation.reports || copied.blocks != moderation.blocks ||
      copied.audit != moderation.audit || copied.sightings != moderation.sightings) {
    error.message = "check: the moderation tables differ in the copy";
    return false;
  }
  for (const TournamentRow& t : tournaments)
    if (auto copy = to.tournament(t.id); !copy || *copy != t) {
      error.message = "check: tournament " + t.id + " differs in the copy";
      return false;
    }
  for (const std::string& id : game_ids) {
    auto a = from.game(id);
    auto b = to.game(id);
    if (!a || !b) {
      error.message = "check: game " + id + " cannot be read back";
      return false;
    }
    if (const std::string what = differs(*a, *b); !what.empty()) {
      error.message = "check: game " + id + ": its " + what + " differs in the copy";
      return false;
    }
    if (!count_check(("chat of " + id).c_str(), from.chat(id, std::numeric_limits<int>::max()).size(),
                     to.chat(id, std::numeric_limits<int>::max()).size()) ||
        !count_check(("queued mails of " + id).c_str(), queued_mails(from, id).size(),
                     queued_mails(to, id).size()))
      return false;
  }
  tell("checked");
  return true;
}

}  // namespace cinq::store
