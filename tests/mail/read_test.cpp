// Reading mail as players' clients write it (tests/data/mail/*.eml): the sender, the recipients, the text
// whatever its encoding, and in a reply only the record lines the player wrote.
#include <doctest/doctest.h>

#include "mail/read.h"
#include "tests/support.h"

namespace cinq::test {
namespace {

mail::Incoming read_file_mail(const std::string& name) {
  std::string why;
  auto m = mail::read_message(read_text(data_path("mail/" + name)), why);
  REQUIRE_MESSAGE(m.has_value(), why);
  return *m;
}

std::string turn_of(const mail::Incoming& m) { return mail::record_lines(mail::fresh_text(m.text)); }

TEST_CASE("mail read: a Thunderbird reply gives its new turn, not the quoted log nor the signature") {
  auto m = read_file_mail("thunderbird-quoted.eml");
  CHECK(m.from_address == "ben@players.test");
  CHECK(m.from_name == "Ben Baker");
  CHECK(m.message_id == "tb-1@players.test");
  CHECK(m.in_reply_to == "turn.AB12.1.2.1@play.test");
  CHECK(m.references == std::vector<std::string>{"game.AB12.1@play.test", "turn.AB12.1.2.1@play.test"});
  CHECK(m.recipients == std::vector<std::string>{"play+AB12.1.abcdefghijklmnop@play.test"});
  CHECK(turn_of(m) == "D/e3 a3/\n");
}

TEST_CASE("mail read: Gmail's quoted-printable alternative, a French attribution and its quote left out") {
  auto m = read_file_mail("gmail-alternative-qp.eml");
  CHECK(m.from_name == "Zoë Ørsted");
  CHECK(m.subject == "Re: mon coup — voilà");
  CHECK_FALSE(m.from_html);
  CHECK(m.text.find("Voilà mon coup") != std::string::npos);
  CHECK(turn_of(m) == "3   A/d1 d5 x c5/\n");
}

TEST_CASE("mail read: an HTML-only Outlook mail in windows-1252 is read as text, its blockquote quoted") {
  auto m = read_file_mail("outlook-html-only.eml");
  CHECK(m.from_html);
  CHECK(m.text.find("My move – here:") != std::string::npos);
  CHECK(m.text.find("p {margin") == std::string::npos);
  CHECK(m.text.find("> 1   A/e8 i8/") != std::string::npos);
  CHECK(turn_of(m) == "A/i4 g4 x g5/\n");
}

TEST_CASE("mail read: a base64 ISO-8859-1 body becomes UTF-8") {
  auto m = read_file_mail("latin1-base64.eml");
  CHECK(m.from_name == "René");
  CHECK(m.text == "Voilà, rené:\nD/e7 i7 x i8/\n");
  CHECK(turn_of(m) == "D/e7 i7 x i8/\n");
}

TEST_CASE("mail read: a whole log keeps its header, players, timestamps and turns") {
  const std::string log =
      "Here is the log:\n#! TABLUT\nA = Ann    D = Ben\n> 2026-06-11 10:47:00\n1   A/e8 i8/   D/e3 a3/\n"
      "2   A/i6 g6/\n...\n# a comment\nthanks\n";
  CHECK(mail::record_lines(mail::fresh_text(log)) ==
        "#! TABLUT\nA = Ann    D = Ben\n> 2026-06-11 10:47:00\n1   A/e8 i8/   D/e3 a3/\n2   A/i6 g6/\n...\n"
        "# a comment\n");
}

TEST_CASE("mail read: quoted timestamps and attribution lines go, a timestamp of the log stays") {
  const std::string reply = "D/e3 a3/\n\nOn Sun, Ann wrote:\n\n> > 2026-06-11 10:47:00\n> 1   A/e8 i8/\n";
  CHECK(mail::fresh_text(reply) == "D/e3 a3/\n\n\n");
  CHECK(mail::fresh_text("> 2026-06-11 10:47:00\n") == "> 2026-06-11 10:47:00\n");
  CHECK(mail::fresh_text("A/e8 i8/\n-----Original Message-----\nD/e3 a3/\n") == "A/e8 i8/\n");
}

TEST_CASE("mail read: broken and hostile mails give an error or text, never a crash") {
  std::string why;
  CHECK_FALSE(mail::read_message("", why).has_value());
  CHECK_FALSE(mail::read_message("no header at all", why).has_value());
  // An unterminated boundary, junk base64, a charset nobody knows, parts nested 50 deep.
  CHECK(mail::read_message("Content-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: text/plain\n\nA/e8 i8/\n", why)
            .has_value());
  auto junk = mail::read_message("Content-Transfer-Encoding: base64\n\n!!!!@@@@####", why);
  REQUIRE(junk.has_value());
  auto unknown = mail::read_message("Content-Type: text/plain; charset=x-martian\n\nA\xff/\n", why);
  REQUIRE(unknown.has_value());
  CHECK(unknown->text == "A\xEF\xBF\xBD/\n");
  std::string nested = "Content-Type: multipart/mixed; boundary=b0\n\n";
  for (int i = 1; i < 50; ++i)
    nested += "--b" + std::to_string(i - 1) + "\nContent-Type: multipart/mixed; boundary=b" + std::to_string(i) + "\n\n";
  nested += "--b49\nContent-Type: text/plain\n\ndeep\n";
  CHECK_FALSE(mail::read_message(nested, why).has_value());
  CHECK(why == "the mail has no text to read");
}

TEST_CASE("mail read: HTML entities and line breaks") {
  CHECK(mail::html_to_text("<p>a&amp;b&lt;c&gt;&#233;&#x263A;</p><p>x<br>y</p>") == "a&b<c>é☺\nx\ny\n");
  CHECK(mail::html_to_text("<blockquote><p>one</p><blockquote>two</blockquote></blockquote>three") ==
        "> one\n> > two\nthree\n");
}

}  // namespace
}  // namespace cinq::test
