// An account's mail (account.h): its preferences as text, when its digest is due, and its own two mails.
#include "mail/account.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "mail/schedule.h"
#include "mail/words.h"

namespace cinq::mail {

bool AccountPrefs::wants(std::string_view kind) const {
  if (kind == "turn") return turn && digest_hour < 0;
  if (kind == "reminder") return reminder;
  if (kind == "end") return end;
  return true;
}

std::string AccountPrefs::text() const {
  std::string out;
  auto add = [&](const std::string& word) { out += (out.empty() ? "" : " ") + word; };
  if (turn) add("turn");
  if (reminder) add("reminder");
  if (end) add("end");
  if (digest_hour >= 0) add("digest=" + std::to_string(digest_hour));
  if (!zone.empty()) add("zone=" + zone);
  if (!language.empty()) add("language=" + language);
  return out.empty() ? "none" : out;
}

std::optional<AccountPrefs> AccountPrefs::parse(std::string_view text, std::string& why) {
  AccountPrefs p;
  if (text.empty()) return p;
  p.turn = p.reminder = p.end = false;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    std::size_t end = text.find(' ', i);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(i, end - i);
    i = end;
    if (word == "turn") p.turn = true;
    else if (word == "reminder") p.reminder = true;
    else if (word == "end") p.end = true;
    else if (word == "none") continue;
    else if (word.substr(0, 5) == "zone=") {
      if (!valid_zone(word.substr(5))) {
        why = "unknown time zone '" + std::string(word.substr(5)) + "' (an IANA name such as Europe/Paris)";
        return std::nullopt;
      }
      p.zone = std::string(word.substr(5));
    }
    else if (word.substr(0, 9) == "language=") {
      if (!known_language(word.substr(9))) {
        std::string known;
        for (std::string_view l : languages()) known += (known.empty() ? "" : ", ") + std::string(l);
        why = "field 'language': unknown language '" + std::string(word.substr(9)) + "' (" + known + ")";
        return std::nullopt;
      }
      p.language = std::string(word.substr(9));
    }
    else if (word.substr(0, 7) == "digest=") {
      const std::string_view hour = word.substr(7);
      if (hour.empty() || hour.size() > 2 || !std::all_of(hour.begin(), hour.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
          std::stoi(std::string(hour)) > 23) {
        why = "the digest's hour is 0 to 23 (UTC), not '" + std::string(hour) + "'";
        return std::nullopt;
      }
      p.digest_hour = std::stoi(std::string(hour));
    } else {
      why = "unknown mail setting '" + std::string(word) + "' (turn, reminder, end, digest=HOUR, zone=ZONE, language=LANGUAGE)";
      return std::nullopt;
    }
  }
  return p;
}

AccountPrefs AccountPrefs::stored(std::string_view text) {
  std::string why;
  return parse(text, why).value_or(AccountPrefs{});
}

std::string utc_day(std::int64_t unix_ms) {
  const std::time_t t = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
  return buffer;
}

std::string digest_day(const AccountPrefs& prefs, std::int64_t now_ms) {
  return utc_day(now_ms + zone_offset_ms(prefs.zone, now_ms));
}

bool digest_due(const AccountPrefs& prefs, const std::string& last_day, std::int64_t now_ms) {
  if (prefs.digest_hour < 0) return false;
  const std::int64_t local = now_ms + zone_offset_ms(prefs.zone, now_ms);
  const std::int64_t hour = (local / 1000 / 3600) % 24;
  return hour >= prefs.digest_hour && utc_day(local) > last_day;
}

namespace {

// Every mail of an account: from the server's own address (a reply to it plays nothing), with the account's
// one-click unsubscribe.
Outgoing account_mail(const AccountView& a, const std::string& kind, const std::string& to, std::int64_t now_ms) {
  Outgoing m;
  m.from = {a.from.name.empty() ? "Cinq" : a.from.name, a.from.address};
  m.to = {a.name, to};
  m.message_id = kind + "." + a.player_id + "." + std::to_string(now_ms) + "@" + a.domain;
  m.unsubscribe_url = a.unsubscribe_url;
  m.date_ms = now_ms;
  m.extra_headers = {{"Auto-Submitted", "auto-generated"}};
  return m;
}

}  // namespace

Outgoing confirm_account(const AccountView& a, const std::string& address, const std::string& confirm_url,
                         std::int64_t now_ms) {
  Outgoing m = account_mail(a, "confirm-account", address, now_ms);
  m.unsubscribe_url.clear();  // nothing more goes to an address that is not confirmed
  m.subject = text(a.language, "account.confirm.subject");
  m.text = text(a.language, "account.confirm", {{"name", a.name}, {"link", confirm_url}});
  return m;
}

Outgoing digest(const AccountView& a, const std::string& address, std::vector<DigestGame> games,
                std::int64_t now_ms) {
  std::stable_sort(games.begin(), games.end(), [](const DigestGame& x, const DigestGame& y) {
    const auto key = [](const DigestGame& g) { return g.deadline_ms > 0 ? g.deadline_ms : INT64_MAX; };
    return key(x) < key(y);
  });
  Outgoing m = account_mail(a, "digest", address, now_ms);
  const std::string_view language = a.language;
  const std::string count = count_text(language, "count.games", static_cast<std::int64_t>(games.size()));
  m.subject = text(language, "digest.subject", {{"games", count}});
  m.text = text(language, "digest.head", {{"name", a.name}, {"games", count}});
  for (const DigestGame& g : games) {
    m.text += text(language, "digest.game",
                   {{"game", g.game}, {"opponent", g.opponent.empty() ? std::string("?") : g.opponent}, {"room", g.room},
                    {"side", g.side}});
    if (!g.last_turn.empty()) m.text += text(language, "digest.last", {{"turn", g.last_turn}});
    if (g.deadline_ms > 0)
      m.text += text(language, "digest.deadline", {{"time", human_time(g.deadline_ms, a.zone, language)}});
    if (!g.link.empty()) m.text += text(language, "digest.play", {{"link", g.link}});
    if (!g.reply_address.empty()) m.text += text(language, "digest.reply", {{"address", g.reply_address}});
  }
  m.text += text(language, "digest.footer", {{"settings", a.settings_url}, {"unsubscribe", a.unsubscribe_url}});
  return m;
}

}  // namespace cinq::mail
