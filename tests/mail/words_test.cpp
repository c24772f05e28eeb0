// The mails' words in each language (mail/words.h): every catalog has English's keys with the same
// parameters, texts are filled without reading a value again, dates are written as each language writes them,
// an account's language is kept in its settings, and a game's and an account's mails come in the recipient's
// language while English ones stay as they were.
#include "mail/words.h"

#include <doctest/doctest.h>

#include <map>
#include <set>

#include "mail/account.h"
#include "mail/notices.h"
#include "mail/read.h"
#include "mail/schedule.h"
#include "lobby/room.h"
#include "rules/game.h"
#include "rules/registry.h"

namespace cinq::test {
namespace {

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kSun0750 = 1'795'938'600'000;  // Sun, 29 Nov 2026 07:50:00 UTC

// The {names} of a text.
std::set<std::string> params_of(std::string_view text) {
  std::set<std::string> out;
  for (std::size_t i = text.find('{'); i != std::string_view::npos; i = text.find('{', i + 1)) {
    const std::size_t close = text.find('}', i);
    if (close != std::string_view::npos) out.insert(std::string(text.substr(i + 1, close - i - 1)));
  }
  return out;
}

// The names of a space-separated list ("turn side"), as errors.inc and log_refusals.inc give parameters.
std::set<std::string> names_of(std::string_view list) {
  std::set<std::string> out;
  for (std::string_view rest = list; !rest.empty();) {
    const auto sp = rest.find(' ');
    out.insert(std::string(rest.substr(0, sp)));
    rest = sp == std::string_view::npos ? std::string_view{} : rest.substr(sp + 1);
  }
  return out;
}

// A Tablut game's mail for seat 0 (Ann, to move) and 1 (Ben), seat 0 in `language`.
mail::GameMail game(const std::string& language) {
  mail::GameMail g;
  g.room = "AB12";
  g.game = "Tablut";
  g.domain = "play.test";
  g.from = {"Cinq", "cinq@play.test"};
  g.room_url = "https://cinq.test/#/room/AB12";
  g.seats[0] = {"Ann", language == "fr" ? "Attaquants (A)" : "Attackers (A)", 'A', "ann@players.test",
                "play+AB12.0.X@play.test", "https://cinq.test/#/room/AB12?seat=0&token=T", "https://cinq.test/u0", "",
                language};
  g.seats[1] = {"Ben", "Defenders (D)", 'D', "ben@players.test", "play+AB12.1.Y@play.test", "", "", "", "en"};
  // Both sides in each seat's language.
  g.seats[0].sides = {g.seats[0].side, language == "fr" ? "Défenseurs (D)" : "Defenders (D)"};
  g.seats[1].sides = {"Attackers (A)", "Defenders (D)"};
  g.record = "#! TABLUT\n1   A/e8 i8/   D/e7 i7/\n";
  g.board = "(the board)\n";
  g.last_turn = "D/e7 i7/";
  g.last_seat = 1;
  g.to_move = 0;
  g.now_ms = kSun0750;
  g.deadline_ms = kSun0750 + 30 * kHour;
  g.turn = 2;
  return g;
}

}  // namespace

TEST_CASE("mail words: every language has English's keys, with the same parameters, and nothing more") {
  const auto english = mail::catalog("en");
  std::map<std::string, std::set<std::string>> keys;
  for (const mail::Words& w : english) CHECK_MESSAGE(keys.emplace(std::string(w.key), params_of(w.text)).second, w.key);
  REQUIRE(mail::languages().front() == "en");
  CHECK(mail::languages().size() >= 2);
  for (std::string_view language : mail::languages()) {
    std::map<std::string, std::set<std::string>> found;
    for (const mail::Words& w : mail::catalog(language))
      CHECK_MESSAGE(found.emplace(std::string(w.key), params_of(w.text)).second, language << ": " << w.key << " twice");
    // Entries, not structured bindings: doctest's checks are lambdas, which clang 14 cannot give a binding.
    for (const auto& entry : keys) {
      const std::string& key = entry.first;
      auto it = found.find(key);
      if (it == found.end()) {
        FAIL_CHECK(language << " lacks " << key);
        continue;
      }
      CHECK_MESSAGE(it->second == entry.second, language << ": " << key << " has other parameters");
    }
    for (const auto& entry : found) {
      const std::string& key = entry.first;
      CHECK_MESSAGE(keys.contains(key), language << ": " << key << " is not English's");
    }
  }
  CHECK(mail::known_language("fr"));
  CHECK(!mail::known_language("de"));
  CHECK(!mail::known_language(""));
}

TEST_CASE("mail words: a text's parameters are filled once, and an unknown language or key falls back") {
  CHECK(mail::text("fr", "turn.last", {{"name", "{turn}"}, {"turn", "A/e8 i8/"}}) == "{turn} a joué : A/e8 i8/\n");
  CHECK(mail::text("de", "turn.last", {{"name", "Ann"}, {"turn", "A/"}}) == "Ann played: A/\n");
  CHECK(mail::text("", "invite.inviter") == "A player");
  CHECK(mail::text("fr", "no.such.key") == "no.such.key");
  CHECK(mail::count_text("en", "count.days", 1) == "1 day");
  CHECK(mail::count_text("en", "count.days", 3) == "3 days");
  CHECK(mail::count_text("fr", "count.games", 1) == "1 partie");
  CHECK(mail::count_text("fr", "count.games", 2) == "2 parties");
}

TEST_CASE("mail words: dates in each language, in the player's zone with UTC beside it") {
  const std::int64_t kThu2012 = 1'796'328'720'000;  // Thu, 3 Dec 2026 20:12 UTC
  CHECK(mail::human_time(kThu2012, "Europe/Paris", "fr") == "jeudi 3 décembre 2026 à 21:12 CET (20:12 UTC)");
  CHECK(mail::human_time(kThu2012, "", "fr") == "jeudi 3 décembre 2026 à 20:12 UTC");
  // English as the mails always wrote it; a zone the system does not know reads as UTC.
  CHECK(mail::human_time(kThu2012, "", "en") == "Thursday 3 December 2026, 20:12 UTC");
  CHECK(mail::human_time(kThu2012, "Europe/Paris", "en") == "Thursday 3 December 2026, 21:12 CET (20:12 UTC)");
  CHECK(mail::human_time(kThu2012, "America/New_York", "en") == "Thursday 3 December 2026, 15:12 EST (20:12 UTC)");
  CHECK(mail::human_time(kThu2012, "Mars/Olympus", "en") == "Thursday 3 December 2026, 20:12 UTC");
}

TEST_CASE("mail words: an account's language is kept in its settings once chosen, others refused") {
  std::string why;
  auto fr = mail::AccountPrefs::parse("turn end zone=Europe/Paris language=fr", why);
  REQUIRE_MESSAGE(fr.has_value(), why);
  CHECK(fr->language == "fr");
  CHECK(fr->text() == "turn end zone=Europe/Paris language=fr");
  CHECK(mail::AccountPrefs::stored(fr->text()) == *fr);
  // None chosen: English mails, and the text as before.
  CHECK(mail::AccountPrefs{}.language.empty());
  CHECK(mail::AccountPrefs{}.mail_language() == "en");
  CHECK(mail::AccountPrefs{}.text() == "turn reminder end");
  CHECK(mail::AccountPrefs::stored("turn language=en").text() == "turn language=en");
  CHECK(mail::AccountPrefs::stored("turn language=en").mail_language() == "en");
  mail::AccountPrefs off;
  off.turn = off.reminder = off.end = false;
  off.language = "fr";
  CHECK(mail::AccountPrefs::stored(off.text()) == off);
  CHECK(!mail::AccountPrefs::parse("turn language=xx", why));
  CHECK(why.find("'language'") != std::string::npos);
  CHECK(why.find("'xx'") != std::string::npos);
  CHECK(!mail::AccountPrefs::parse("language=", why));
}

TEST_CASE("mail words: a seat's mails in its language, the other seat's in its own, the record untranslated") {
  const mail::GameMail g = game("fr");
  const mail::Outgoing turn = mail::your_turn(g, 0);
  CHECK(turn.subject == "Cinq : Tablut, Ann contre Ben (AB12)");
  CHECK(turn.text.find("À vous de jouer, Ann, au Tablut (partie AB12).\n") == 0);
  CHECK(turn.text.find("Ben a joué : D/e7 i7/\n") != std::string::npos);
  CHECK(turn.text.find("Date limite : lundi 30 novembre 2026 à 13:50 UTC.") != std::string::npos);
  CHECK(turn.text.find("#! TABLUT\n1   A/e8 i8/   D/e7 i7/\n") != std::string::npos);
  CHECK(turn.text.find("    A/.../\n") != std::string::npos);
  CHECK(turn.text.find("Pour jouer dans un navigateur : https://cinq.test/#/room/AB12?seat=0&token=T\n") != std::string::npos);
  // The whole mail reads back.
  std::string why;
  auto back = mail::read_message(mail::compose(turn), why);
  REQUIRE_MESSAGE(back.has_value(), why);
  CHECK(back->subject == turn.subject);
  CHECK(back->text.find("À vous de jouer") != std::string::npos);
  // Seat 1 is English: as before.
  const mail::Outgoing english = mail::invitation(g, 1, 3);
  CHECK(english.subject == "Cinq: Tablut, Ann vs Ben (AB12)");
  CHECK(english.text.find("Ann invites you to a game of Tablut by correspondence on Cinq (game AB12): 3 days per move.\n"
                          "Ann, Attackers (A), against Ben, Defenders (D).\n") == 0);
  mail::GameMail over = g;
  over.result = "Ben (Defenders (D)) wins: the king escaped to a corner";
  over.seats[0].result = "Ben (Défenseurs (D)) gagne : le roi s'est échappé dans un coin";
  CHECK(mail::game_over(over, 0).text.find("La partie est finie : Ben (Défenseurs (D)) gagne") == 0);
  CHECK(mail::game_over(over, 0).text.find("Ann, Attaquants (A), contre Ben, Défenseurs (D).\n") != std::string::npos);
  CHECK(mail::game_over(over, 1).text.find("The game is over: Ben (Defenders (D)) wins") == 0);
  CHECK(mail::refused(g, 0, "ann@players.test", "", "x").text.find("Votre mail n'a rien joué : x\n") == 0);
}

TEST_CASE("mail words: an account's digest and confirmation in its language") {
  mail::AccountView a = {"p42", "Carla", {"Cinq", "cinq@play.test"}, "play.test", "https://cinq.test/#/account",
                         "https://cinq.test/u", "Europe/Paris", "fr"};
  const mail::Outgoing d = mail::digest(a, "carla@players.test",
                                        {{"AB12", "Tablut", "Dan", "Défenseurs (D)", "A/e1 e3/", "", "", kSun0750 + 30 * kHour}},
                                        kSun0750);
  CHECK(d.subject == "Cinq : à vous de jouer dans 1 partie");
  // A subject with accents goes out as RFC 2047 words and reads back whole.
  const std::string raw = mail::compose(d);
  CHECK(raw.find("=?UTF-8?B?") < raw.find("\r\n\r\n"));
  std::string why;
  auto back = mail::read_message(raw, why);
  REQUIRE_MESSAGE(back.has_value(), why);
  CHECK(back->subject == d.subject);
  CHECK(back->text.find("Bonjour Carla.") == 0);
  CHECK(d.text.find("Bonjour Carla. C'est à vous de jouer dans 1 partie") == 0);
  CHECK(d.text.find("Tablut contre Dan (partie AB12), vous jouez Défenseurs (D).\n") != std::string::npos);
  CHECK(d.text.find("  Date limite : lundi 30 novembre 2026 à 14:50 CET (13:50 UTC)\n") != std::string::npos);
  CHECK(mail::confirm_account(a, "c@players.test", "https://cinq.test/c", kSun0750).subject ==
        "Cinq : confirmez votre adresse");
}

// The rules' reasons (rules/errors.inc) in the mails' words: each catalog has a text for every code the rules
// may give and no other, with the code's parameters; a refusal is said in the recipient's language, its side
// letters as the game's words.
TEST_CASE(
    "rules reasons: every mail catalog says every code of the rules, with its parameters, and no other") {
  std::set<std::string> codes;
  for (const ErrorCodeInfo& info : error_codes()) {
    CHECK_MESSAGE(codes.insert(std::string(info.code)).second, "a code given twice: " << info.code);
  }
  CHECK(codes.size() > 100);
  for (std::string_view language : mail::languages()) {
    std::set<std::string> said;
    for (const mail::Words& w : mail::catalog(language))
      if (w.key.starts_with("rules.")) said.insert(std::string(w.key.substr(6)));
    CHECK_MESSAGE(said == codes, "the rules.* keys of the " << language << " mail words");
    for (const ErrorCodeInfo& info : error_codes()) {
      const std::string key = "rules." + std::string(info.code);
      const std::set<std::string> names = names_of(info.params);
      for (const mail::Words& w : mail::catalog(language))
        if (w.key == key) CHECK_MESSAGE(params_of(w.text) == names, language << " " << key);
    }
  }
}

TEST_CASE("rules reasons: a refusal in French names its line and turn, sides in the game's words") {
  const Game* tablut = find_game("tablut");
  REQUIRE(tablut != nullptr);
  auto side_word = [tablut](const std::string& letter) {
    for (int side = 0; side < 2; ++side)
      if (letter.size() == 1 && letter[0] == tablut->side_letter(side))
        return std::string(tablut->words_in("fr").sides[static_cast<std::size_t>(side)]);
    return letter;
  };
  CHECK(mail::rules_reason("fr", "wrong_side", {{"side", "A"}, {"written_side", "D"}}, 3, 0, side_word) ==
        "ligne 3 : c'est au tour du camp Attaquants, pas du camp Défenseurs");
  CHECK(mail::rules_reason("fr", "not_legal_now", {{"item", "e2 e9"}}, 5, 2, side_word) ==
        "ligne 5 : tour 2 : « e2 e9 » n'est pas permis maintenant");
  CHECK(mail::rules_reason("en", "not_legal_now", {{"item", "e2 e9"}}, 5, 2, side_word) ==
        "line 5: turn 2: 'e2 e9' is not legal now");
  // The room's own reasons for refusing a log ("log.CODE"): the same composition, sides in the game's words.
  CHECK(mail::rules_reason("fr", "log.stale", {{"turns", "1"}, {"total", "2"}, {"next", "D/e3 a3/"}}, 2, 0,
                           side_word) ==
        "ligne 2 : le relevé s'arrête après le tour 1, mais la partie va jusqu'au tour 2 (tour suivant : D/e3 a3/) "
        ": reprenez le relevé à jour");
  CHECK(mail::rules_reason("en", "log.stale", {{"turns", "1"}, {"total", "2"}, {"next", "D/e3 a3/"}}, 2, 0,
                           side_word) ==
        "line 2: the log stops after turn 1 but the game has 2 turns (next: D/e3 a3/): fetch the current record");
  CHECK(mail::rules_reason("fr", "log.not_your_turn", {{"turn", "3"}, {"side", "D"}, {"your_side", "A"}}, 4, 0,
                           side_word) ==
        "ligne 4 : le tour 3 est au camp Défenseurs : ce n'est pas à vous de jouer (vous jouez le camp Attaquants)");
  CHECK(mail::rules_reason("fr", "log.differs", {{"turn", "2"}, {"sent", "D/e3 b3/"}, {"stored", "D/e3 a3/"}}, 3,
                           0, side_word) ==
        "ligne 3 : le tour 2 diffère de la partie enregistrée : vous avez envoyé D/e3 b3/, la partie a D/e3 a3/");
  CHECK(mail::rules_reason("en", "log.differs", {{"turn", "2"}, {"sent", "D/e3 b3/"}, {"stored", "D/e3 a3/"}}, 3,
                           0, side_word) ==
        "line 3: turn 2 differs from the stored game: D/e3 b3/ was sent, the game has D/e3 a3/");
  CHECK(mail::rules_reason("fr", "log.result_mailed", {{"result", "#= draw"}}, 0, 0, side_word) ==
        "un résultat ne peut pas être envoyé par mail (#= draw) : abandonnez ou convenez de la nulle sur la page "
        "de la partie");
  CHECK(mail::rules_reason("fr", "log.no_such_reason", {}, 1, 0, side_word).empty());
  // A code no catalog knows (a newer rules library), or none: nothing, and the English message stands.
  CHECK(mail::rules_reason("fr", "no_such_code", {}, 1, 0, side_word).empty());
  CHECK(mail::rules_reason("fr", "", {}, 1, 0, side_word).empty());
}

// The room's own reasons for refusing a mailed log (lobby/log_refusals.inc): each mail catalog has a
// `refused.log.CODE` text for every one of them and no other, with its parameters.
TEST_CASE("log refusals: every mail catalog says every reason of the room's, with its parameters, and no other") {
  std::set<std::string> codes;
  for (const lobby::LogRefusalInfo& info : lobby::log_refusals())
    CHECK_MESSAGE(codes.insert(std::string(info.code)).second, "a reason given twice: " << info.code);
  CHECK(codes.size() > 10);
  for (std::string_view language : mail::languages()) {
    std::map<std::string, std::set<std::string>> said;
    for (const mail::Words& w : mail::catalog(language))
      if (w.key.starts_with("refused.log.")) said[std::string(w.key.substr(12))] = params_of(w.text);
    std::set<std::string> keys;
    for (const auto& entry : said) keys.insert(entry.first);
    CHECK_MESSAGE(keys == codes, "the refused.log.* keys of the " << language << " mail words");
    for (const lobby::LogRefusalInfo& info : lobby::log_refusals()) {
      const std::set<std::string> names = names_of(info.params);
      const auto found = said.find(std::string(info.code));
      if (found != said.end()) CHECK_MESSAGE(found->second == names, language << " refused.log." << info.code);
    }
  }
}

}  // namespace cinq::test
