// An account's mail settings as stored and read back, when its digest is due, and what its two own mails
// say (mail/account.h).
#include "mail/account.h"

#include <doctest/doctest.h>

#include "mail/read.h"

namespace cinq::test {
namespace {

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kSun0750 = 1'795'938'600'000;  // Sun, 29 Nov 2026 07:50:00 UTC

mail::AccountPrefs prefs(const std::string& text) {
  std::string why;
  auto p = mail::AccountPrefs::parse(text, why);
  REQUIRE_MESSAGE(p.has_value(), why);
  return *p;
}

mail::AccountView carla() {
  return {"p42", "Carla", {"Cinq", "cinq@play.test"}, "play.test", "https://cinq.test/#/account",
          "https://cinq.test/api/account/unsubscribe?player=p42&key=K", ""};
}

}  // namespace

TEST_CASE("mail account: settings round-trip as text, and say which of a game's mails go") {
  CHECK(prefs("") == mail::AccountPrefs{});  // the defaults: every mail, no digest
  CHECK(mail::AccountPrefs{}.text() == "turn reminder end");
  const mail::AccountPrefs digest = prefs("reminder end digest=7");
  CHECK(!digest.turn);
  CHECK(digest.digest_hour == 7);
  CHECK(digest.text() == "reminder end digest=7");
  CHECK(prefs(digest.text()) == digest);
  CHECK(prefs("none").text() == "none");
  CHECK(prefs("none") == prefs(prefs("none").text()));
  // A your-turn mail never while the digest is on; a reminder and the result as chosen; anything else always.
  CHECK(!prefs("turn digest=0").wants("turn"));
  CHECK(prefs("turn").wants("turn"));
  CHECK(!prefs("turn").wants("reminder"));
  CHECK(!prefs("none").wants("end"));
  CHECK(prefs("none").wants("answer"));
  CHECK(prefs("none").wants("invite"));
  // A time zone: the account's times are given in it.
  const mail::AccountPrefs paris = prefs("turn end digest=8 zone=Europe/Paris");
  CHECK(paris.zone == "Europe/Paris");
  CHECK(paris.text() == "turn end digest=8 zone=Europe/Paris");
  CHECK(prefs(paris.text()) == paris);
  std::string why;
  CHECK(!mail::AccountPrefs::parse("turn zone=Europe/Nowhere", why));
  CHECK(why.find("Europe/Nowhere") != std::string::npos);
  CHECK(!mail::AccountPrefs::parse("turn weekly", why));
  CHECK(mail::AccountPrefs::stored("turn weekly") == mail::AccountPrefs{});  // another version's text: defaults
  CHECK(mail::AccountPrefs::stored(paris.text()) == paris);
  CHECK(why.find("weekly") != std::string::npos);
  for (const char* bad : {"digest=24", "digest=", "digest=-1", "digest=7h", "digest=123"}) {
    CHECK_MESSAGE(!mail::AccountPrefs::parse(bad, why), bad);
    CHECK(why.find("0 to 23") != std::string::npos);
  }
}

TEST_CASE("mail account: a digest is due once a day, from its hour (UTC) on") {
  const mail::AccountPrefs at7 = prefs("digest=7");
  CHECK(mail::utc_day(kSun0750) == "2026-11-29");
  CHECK(mail::utc_day(kSun0750 + 17 * kHour) == "2026-11-30");
  CHECK(mail::digest_due(at7, "", kSun0750));
  CHECK(mail::digest_due(at7, "2026-11-28", kSun0750));
  CHECK(!mail::digest_due(at7, "2026-11-29", kSun0750));         // sent today already
  CHECK(!mail::digest_due(at7, "2026-11-28", kSun0750 - kHour));  // 06:50: not yet
  CHECK(mail::digest_due(at7, "2026-11-28", kSun0750 + 3 * kHour));   // a server down at 7 sends it later
  CHECK(!mail::digest_due(at7, "2026-11-29", kSun0750 + 17 * kHour));  // 00:50 the next day: not yet
  CHECK(!mail::digest_due(prefs("turn"), "", kSun0750));          // no digest chosen
  CHECK(mail::digest_due(prefs("digest=0"), "2026-11-28", kSun0750 - 7 * kHour));  // 00:50
  // In the account's zone: 07:50 UTC is 16:50 in Tokyo; 22:00 UTC is 07:00 there, the next day.
  const mail::AccountPrefs tokyo = prefs("digest=7 zone=Asia/Tokyo");
  CHECK(mail::digest_day(tokyo, kSun0750) == "2026-11-29");
  CHECK(mail::digest_due(tokyo, "2026-11-28", kSun0750));
  CHECK(!mail::digest_due(tokyo, "2026-11-29", kSun0750 + 14 * kHour));  // 06:50 on the 30th in Tokyo
  CHECK(mail::digest_day(tokyo, kSun0750 + 14 * kHour + 10 * 60'000) == "2026-11-30");
  CHECK(mail::digest_due(tokyo, "2026-11-29", kSun0750 + 14 * kHour + 10 * 60'000));  // 07:00 there
}

TEST_CASE("mail account: the digest lists the games where it is the player's turn, the nearest deadline first") {
  std::vector<mail::DigestGame> games = {
      {"AB12", "Tablut", "Dan", "Defenders (D)", "A/e1 e3/", "https://cinq.test/#/room/AB12?seat=1&token=T",
       "play+AB12.1.X@play.test", kSun0750 + 30 * kHour},
      {"CD34", "Baltek", "Eve", "Red (R)", "", "", "", kSun0750 + 5 * kHour},
      {"EF56", "Batik", "", "White (W)", "", "", "", 0},
  };
  mail::Outgoing m = mail::digest(carla(), "carla@players.test", games, kSun0750);
  CHECK(m.subject == "Cinq: your turn in 3 games");
  CHECK(m.to.address == "carla@players.test");
  CHECK(m.from.address == "cinq@play.test");
  CHECK(m.unsubscribe_url == carla().unsubscribe_url);
  const auto cd = m.text.find("(game CD34)"), ab = m.text.find("(game AB12)"), ef = m.text.find("(game EF56)");
  REQUIRE(cd != std::string::npos);
  CHECK(cd < ab);  // 5 h left before 30 h
  CHECK(ab < ef);  // no deadline last
  CHECK(m.text.find("Their last turn: A/e1 e3/") != std::string::npos);
  CHECK(m.text.find("Or mail your turn to: play+AB12.1.X@play.test") != std::string::npos);
  CHECK(m.text.find("Deadline: Sunday 29 November 2026, 12:50 UTC") != std::string::npos);
  CHECK(m.text.find("Batik against ? (game EF56)") != std::string::npos);
  // In the account's zone, with UTC beside it.
  mail::AccountView paris = carla();
  paris.zone = "Europe/Paris";
  CHECK(mail::digest(paris, "carla@players.test", games, kSun0750).text.find(
            "Deadline: Sunday 29 November 2026, 13:50 CET (12:50 UTC)") != std::string::npos);
  // The whole message reads back as it was written.
  std::string why;
  auto back = mail::read_message(mail::compose(m), why);
  REQUIRE_MESSAGE(back.has_value(), why);
  CHECK(back->text.find("Good day, Carla.") != std::string::npos);
}

TEST_CASE("mail account: the confirmation holds its link and no unsubscribe (nothing more goes there)") {
  mail::Outgoing m = mail::confirm_account(carla(), "new@players.test", "https://cinq.test/api/account/confirm?player=p42&code=C",
                                           kSun0750);
  CHECK(m.to.address == "new@players.test");
  CHECK(m.unsubscribe_url.empty());
  CHECK(m.text.find("https://cinq.test/api/account/confirm?player=p42&code=C") != std::string::npos);
  CHECK(m.text.find("account Carla") != std::string::npos);
}

}  // namespace cinq::test
