// A reply's own lines (fresh_text), the record lines among them (record_lines), and HTML read as text
// (html_to_text): what a player wrote, without what their client quoted, signed or decorated.
#include <doctest/doctest.h>

#include "mail/read.h"

namespace cinq::test {
namespace {

TEST_CASE("mail reply: quoted lines and the attribution before them are left out") {
  CHECK(mail::fresh_text(
            "D/e3 a3/\n\nOn Sun, 29 Nov 2026, Ann wrote:\n\n> > 2026-06-11 10:47:00\n> 1   A/e8 i8/\n") ==
        "D/e3 a3/\n\n\n");
  CHECK(mail::fresh_text("D/e3 a3/\nAm 29.11.2026 um 10:00 schrieb Ann <ann@x.test>:\n   >quoted\n") ==
        "D/e3 a3/\n");
  CHECK(mail::fresh_text("Le dim. 29 nov. 2026 à 10:00, Ann a écrit :\n> 1   A/e8 i8/\nD/e3 a3/\n") ==
        "D/e3 a3/\n");
  // A line ending in ':' that no quote follows is the player's own.
  CHECK(mail::fresh_text("My move:\nD/e3 a3/\nNotes:\n") == "My move:\nD/e3 a3/\nNotes:\n");
  CHECK(mail::fresh_text("a\r\nb\r\n") == "a\nb\n");
}

TEST_CASE("mail reply: a record timestamp is a line of the record, not a quote") {
  CHECK(mail::fresh_text("> 2026-06-11 10:47:00\n") == "> 2026-06-11 10:47:00\n");
  CHECK(mail::fresh_text("> 2026-06-11 10:47:00  \t\n") == "> 2026-06-11 10:47:00  \t\n");
  for (const char* quoted :
       {"> > 2026-06-11 10:47:00\n", ">> 2026-06-11 10:47:00\n", "  > 2026-06-11 10:47:00\n",
        ">  2026-06-11 10:47:00\n", ">2026-06-11 10:47:00\n", "> 2026-06-11 10:47\n",
        "> 2026-06-11 10:47:00 and more\n", "> 2026/06/11 10:47:00\n"})
    CHECK_MESSAGE(mail::fresh_text(quoted).empty(), quoted);
}

TEST_CASE("mail reply: the text stops at a signature or the original of a reply") {
  CHECK(mail::fresh_text("A/e8 i8/\n-- \nAnn\nD/e3 a3/\n") == "A/e8 i8/\n");
  CHECK(mail::fresh_text("A/e8 i8/\n--\nAnn\n") == "A/e8 i8/\n");
  CHECK(mail::fresh_text("A/e8 i8/\n---\nmore\n") == "A/e8 i8/\n---\nmore\n");
  CHECK(mail::fresh_text("A/e8 i8/\n-----Original Message-----\nD/e3 a3/\n") == "A/e8 i8/\n");
  CHECK(mail::fresh_text("A/e8 i8/\n -----Ursprüngliche Nachricht-----\nD/e3 a3/\n") == "A/e8 i8/\n");
  CHECK(mail::fresh_text("A/e8 i8/\n---------- Forwarded message ---------\nD/e3 a3/\n") == "A/e8 i8/\n");
  CHECK(mail::fresh_text("A/e8 i8/\n________________________________\nFrom: Cinq\n") == "A/e8 i8/\n");
  CHECK(mail::fresh_text("A/e8 i8/\n----------------\nD/e3 a3/\n") ==
        "A/e8 i8/\n----------------\nD/e3 a3/\n");
  // Outlook's header block above an original it does not quote.
  CHECK(mail::fresh_text("A/e8 i8/\n\nFrom: Cinq <play@x.test>\nSent: Sunday, 29 November 2026 10:00\n"
                         "To: Ann\n\n1   A/e8 i8/   D/e3 a3/\n") == "A/e8 i8/\n\n");
  CHECK(mail::fresh_text("A/e8 i8/\nDe : Cinq\nEnvoyé : dimanche\n1   A/e8 i8/\n") == "A/e8 i8/\n");
}

TEST_CASE("mail reply: record lines are turns, numbered lines, headers, players, timestamps and comments") {
  const std::string text =
      "Hello Ann,\n"
      "  D/e3 a3/  \n"
      "B/@ c3/e3 f3/\n"
      "3   A/d1 d5 x c5/   D/e7 i7 x i8/\n"
      "03\tA/d1 d5/\n"
      "#! TABLUT first=D\n"
      "#= D escape\n"
      "#- 2\n"
      "# a comment\n"
      "#comment too\n"
      "...\n"
      "A = Ann    D = Ben\n"
      "> 2026-06-11 10:47:00\n"
      "I think A/B testing is fun\n"
      "3 apples and A/e8\n"
      "a/b\n"
      "A=Ann\n"
      "12\n"
      "Thanks!\n";
  CHECK(mail::record_lines(text) ==
        "D/e3 a3/\nB/@ c3/e3 f3/\n3   A/d1 d5 x c5/   D/e7 i7 x i8/\n03\tA/d1 d5/\n#! TABLUT first=D\n#= D "
        "escape\n"
        "#- 2\n# a comment\n#comment too\n...\nA = Ann    D = Ben\n> 2026-06-11 10:47:00\n");
  CHECK(mail::record_lines("Hi,\n\nsee you\n").empty());
  CHECK(mail::record_lines("3\xC2\xA0\xC2\xA0 A/d1 d5/\n") == "3   A/d1 d5/\n");  // no-break spaces
}

TEST_CASE("mail reply: HTML becomes lines, entities are decoded, blockquotes are quoted") {
  CHECK(mail::html_to_text("<p>a&amp;b&lt;c&gt;&#233;&#x263A;&quot;&#39;</p><p>x<br>y</p>") ==
        "a&b<c>é☺\"'\nx\ny\n");
  CHECK(mail::html_to_text("<blockquote><p>one</p><blockquote>two</blockquote></blockquote>three") ==
        "> one\n> > two\nthree\n");
  CHECK(mail::html_to_text("<div>\n   3   A/d1 d5/\n</div>\n<div>D/e7&nbsp;&nbsp;i7/</div>") ==
        "3 A/d1 d5/\nD/e7  i7/\n");
  CHECK(mail::html_to_text("<pre>1   A/e8 i8/\r\n2   A/i6 g6/</pre>after") ==
        "1   A/e8 i8/\n2   A/i6 g6/\nafter\n");
  CHECK(mail::html_to_text("a<br><br>b<table><tr><td>c</td><td>d</td></tr></table>") == "a\n\nb\nc d\n");
  CHECK(mail::html_to_text("x<hr>y") == "x\n________________________________\ny\n");
}

TEST_CASE("mail reply: what is not text in HTML is left out, and odd HTML is read without harm") {
  CHECK(mail::html_to_text(
            "<HEAD><Title>T</Title><STYLE>p {}</STYLE></HEAD><body><script>if (a<b) x();</script>"
            "Hi<!-- a > b -->!</body>") == "Hi!\n");
  CHECK(mail::html_to_text("a < b and c>d, AT&T &bogus; &amp") == "a < b and c>d, AT&T &bogus; &amp\n");
  CHECK(mail::html_to_text("&#150;&#0;&#xD800;&#13;x&#1114112;&#x7;") ==
        "–\xEF\xBF\xBD\xEF\xBF\xBD x\xEF\xBF\xBD\n");
  CHECK(mail::html_to_text("<p>cut short<b") == "cut short\n");
  CHECK(mail::html_to_text("<style>never closed").empty());
  CHECK(mail::html_to_text("<head><meta charset=utf-8>text") == "text\n");  // a <head> never closed
  CHECK(mail::html_to_text("</blockquote></blockquote>x<blockquote>") == "x\n");
  CHECK(mail::html_to_text("").empty());
}

}  // namespace
}  // namespace cinq::test
