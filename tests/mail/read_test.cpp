// Reading mail as players' clients write it (tests/data/mail/*.eml): the sender, the recipients, the text
// whatever its structure, encoding and charset, and in a reply only the record lines the player wrote. Then
// broken and hostile mails: an error or some text, never a crash or a hang.
#include "mail/read.h"

#include <doctest/doctest.h>

#include <random>

#include "mail/decode.h"
#include "tests/support.h"

namespace cinq::test {
namespace {

const std::vector<std::string> kSamples = {"apple-mail-signature.eml",    "gmail-alternative-qp.eml",
                                           "latin1-base64.eml",           "mutt-whole-log-lf.eml",
                                           "nested-mixed-attachment.eml", "outlook-html-only.eml",
                                           "thunderbird-quoted.eml",      "vacation-auto-reply.eml"};

std::string sample(const std::string& name) { return read_text(data_path("mail/" + name)); }

mail::Incoming read(const std::string& raw) {
  std::string why;
  auto m = mail::read_message(raw, why);
  REQUIRE_MESSAGE(m.has_value(), why);
  return *m;
}

std::string turn_of(const mail::Incoming& m) { return mail::record_lines(mail::fresh_text(m.text)); }

// What every text read must be: valid UTF-8 with '\n' line ends.
void check_clean(const mail::Incoming& m) {
  CHECK(mail::detail::valid_utf8(m.text) == m.text);
  CHECK(m.text.find('\r') == std::string::npos);
  CHECK(mail::detail::valid_utf8(m.subject) == m.subject);
  CHECK(mail::detail::valid_utf8(m.from_name) == m.from_name);
}

TEST_CASE("mail read: a Thunderbird reply gives its new turn, not the quoted log nor the signature") {
  const mail::Incoming m = read(sample("thunderbird-quoted.eml"));
  CHECK(m.from_address == "ben@players.test");  // the domain lower-cased
  CHECK(m.from_name == "Ben Baker");
  CHECK(m.message_id == "tb-1@players.test");
  CHECK(m.subject == "Re: Cinq: Tablut, Ann vs Ben (AB12)");
  CHECK(m.in_reply_to == "turn.AB12.1.2.1@play.test");
  CHECK(m.references == std::vector<std::string>{"game.AB12.1@play.test", "turn.AB12.1.2.1@play.test"});
  CHECK(m.recipients == std::vector<std::string>{"play+AB12.1.abcdefghijklmnop@play.test"});
  CHECK(m.auto_submitted.empty());
  // format=flowed: the line Thunderbird wrapped is one line again.
  CHECK(m.text.find("and whether the corner could still be reached.\n") != std::string::npos);
  CHECK(turn_of(m) == "D/e3 a3/\n");
}

TEST_CASE("mail read: CRLF and LF line ends read the same") {
  const std::string crlf = sample("thunderbird-quoted.eml");
  std::string lf;
  for (char c : crlf)
    if (c != '\r') lf += c;
  REQUIRE(lf.size() < crlf.size());
  const mail::Incoming a = read(crlf), b = read(lf);
  CHECK(a.text == b.text);
  CHECK(a.subject == b.subject);
  CHECK(a.references == b.references);
}

TEST_CASE("mail read: Gmail's quoted-printable alternative, a French attribution and its quote left out") {
  const mail::Incoming m = read(sample("gmail-alternative-qp.eml"));
  CHECK(m.from_name == "Zoë Ørsted");
  CHECK(m.from_address == "zoe.orsted@gmail.test");
  CHECK(m.subject == "Re: mon coup — voilà");
  CHECK(m.message_id == "CAGmail-77+x=Y@mail.gmail.com");
  CHECK(m.recipients == std::vector<std::string>{"play+AB12.0.abcdefghijklmnop@play.test", "ann@players.test",
                                                 "ben@players.test"});
  CHECK_FALSE(m.from_html);
  CHECK(m.text.rfind("Voilà mon coup :\n3   A/d1 d5 x c5/\n", 0) == 0);
  CHECK(mail::fresh_text(m.text) == "Voilà mon coup :\n3   A/d1 d5 x c5/\n\n\n");
  CHECK(turn_of(m) == "3   A/d1 d5 x c5/\n");
}

TEST_CASE("mail read: an HTML-only Outlook reply in windows-1252 gives its turn, not the original below") {
  const mail::Incoming m = read(sample("outlook-html-only.eml"));
  CHECK(m.from_html);
  CHECK(m.message_id ==
        "AM0PR07MB5678D1E2F3A4B5C6D7E8F9A0B1C2D3E4F5@AM0PR07MB5678.eurprd07.prod.outlook.com");
  CHECK(m.text.rfind("My move – here’s the capture:\nA/i4 g4 x g5/\n\nAnn & co.\n____", 0) == 0);
  CHECK(m.text.find("margin") == std::string::npos);  // the <style> left out
  CHECK(m.text.find("From: Cinq <play+AB12.0.abcdefghijklmnop@play.test>\n") != std::string::npos);
  CHECK(turn_of(m) == "A/i4 g4 x g5/\n");
}

TEST_CASE("mail read: an ISO-8859-1 body in base64 becomes UTF-8 with '\\n' line ends") {
  const mail::Incoming m = read(sample("latin1-base64.eml"));
  CHECK(m.from_name == "René Dupré");
  CHECK(m.subject == "Re\u00a0: coup");
  CHECK(m.text == "Voilà, René a joué :\nD/e7 i7 x i8/\n\nÀ bientôt\n");
  CHECK(turn_of(m) == "D/e7 i7 x i8/\n");
}

TEST_CASE("mail read: an Apple Mail reply is cut at its signature") {
  const mail::Incoming m = read(sample("apple-mail-signature.eml"));
  CHECK(m.subject == "Re: Cinq: Tablut, Ann vs René (AB12)");  // raw UTF-8 in the header, as sent
  CHECK(m.from_name == "René Dupré");
  CHECK_FALSE(m.from_html);
  CHECK(mail::fresh_text(m.text) == "D/e7 i7 x i8/\n\nCheers,\nRené\n");
  CHECK(turn_of(m) == "D/e7 i7 x i8/\n");
}

TEST_CASE("mail read: a whole log pasted back keeps its header, players, timestamps and turns") {
  const std::string raw = sample("mutt-whole-log-lf.eml");
  REQUIRE(raw.find('\r') == std::string::npos);
  const mail::Incoming m = read(raw);
  CHECK(
      turn_of(m) ==
      "#! TABLUT\nA = Ann    D = Ben\n> 2026-11-28 09:12:44\n1   A/e8 i8/   D/e3 a3/\n> 2026-11-29 10:21:07\n"
      "2   A/i6 g6/\n");
}

TEST_CASE("mail read: the text/plain of nested multiparts is read, not an attachment nor the HTML") {
  const mail::Incoming m = read(sample("nested-mixed-attachment.eml"));
  CHECK(m.from_name == "Smith, Ann");
  CHECK_FALSE(m.from_html);
  CHECK(m.text == "Played: A/i6 g6/");  // the line end before a delimiter is the delimiter's
}

TEST_CASE("mail read: an auto-reply says so in auto_submitted") {
  const mail::Incoming m = read(sample("vacation-auto-reply.eml"));
  CHECK(m.auto_submitted == "auto-replied (vacation)");
  CHECK(m.in_reply_to == "turn.AB12.1.2.1@play.test");
}

TEST_CASE("mail read: addresses, names and ids in their odd but legal forms") {
  const mail::Incoming m = read(
      "From: \"O'Neil, \\\"Jo\\\"\" <Jo.ONeil@Example.ORG>\nTo: undisclosed-recipients:;\n"
      "Cc: Team: a@x.test, =?UTF-8?Q?Zo=C3=AB?= <zoe@X.test>;, bob@x.test (Bob)\nDelivered-To: zoe@x.test\n"
      "X-Original-To: <Bob@X.TEST>\nMessage-ID: <id@x> (a comment)\nIn-Reply-To: <a@x> <b@x>\n"
      "References: c@x d@x\nSubject: =?utf-8?b?QQ==?= =?utf-8?b?Qg==?= C =?bogus =?\n\nhi\n");
  CHECK(m.from_name == "O'Neil, \"Jo\"");
  CHECK(m.from_address == "Jo.ONeil@example.org");
  CHECK(m.recipients == std::vector<std::string>{"zoe@x.test", "Bob@x.test", "a@x.test", "bob@x.test"});
  CHECK(m.message_id == "id@x");
  CHECK(m.in_reply_to == "a@x");
  CHECK(m.references == std::vector<std::string>{"c@x", "d@x"});
  CHECK(m.subject == "AB C =?bogus =?");
  // Line breaks from an encoded word are spaces: a subject or name read is one line.
  const mail::Incoming n =
      read("From: =?utf-8?q?Eve=0D=0ABcc:_x?= <e@x.test>\nSubject: =?utf-8?q?a=0D=0AB?=\n\nx\n");
  CHECK(n.subject == "a  B");
  CHECK(n.from_name == "Eve  Bcc: x");
}

TEST_CASE("mail read: headers are found without regard to case and unfolded") {
  const mail::Incoming m = read(
      "SUBJECT: a\n very\n\tlong subject\nfrom: Ann\n <ann@x.test>\nCONTENT-TYPE: TEXT/PLAIN;\n "
      "CHARSET=\"ISO-8859-1\"\n"
      "content-transfer-encoding: QUOTED-PRINTABLE\n\nd=E9j=E0 jou=\n=E9\n");
  CHECK(m.subject == "a very long subject");
  CHECK(m.from_name == "Ann");
  CHECK(m.text == "déjà joué\n");
}

TEST_CASE("mail read: a mail without a header, a blank line or any text is refused with a reason") {
  std::string why;
  for (const char* raw : {"", "\n\nbody only", "no header at all", "just a line\nand another\n"}) {
    CHECK_FALSE(mail::read_message(raw, why).has_value());
    CHECK(why == "this is not a mail: it has no header");
  }
  CHECK_FALSE(mail::read_message("Subject: cut short\nFrom: a@x.test\n", why).has_value());
  CHECK(why == "this is not a whole mail: no blank line ends its header");
  for (const char* raw : {"Content-Type: image/png\n\nxx", "Content-Type: multipart/mixed\n\n--x\n\nx\n",
                          "Content-Type: multipart/mixed; boundary=x\n\nno delimiter\n",
                          "Content-Type: text/plain\nContent-Disposition: attachment\n\nx\n"}) {
    CHECK_FALSE(mail::read_message(raw, why).has_value());
    CHECK(why == "the mail has no text to read");
  }
  CHECK(read("Subject: empty\n\n").text.empty());
}

TEST_CASE("mail read: broken encodings and unknown charsets give text with U+FFFD, never a crash") {
  const mail::Incoming cut =
      read("Content-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: text/plain\n\nA/e8 i8/\n");
  CHECK(cut.text == "A/e8 i8/\n");  // an unterminated boundary: the part runs to the end
  check_clean(read("Content-Transfer-Encoding: base64\n\n!!!!@@@@####\x01\x02 QQ= =Qg\n"));
  CHECK(read("Content-Transfer-Encoding: base64\n\nQUI=Qw==\n").text == "ABC");  // two encodings, one text
  CHECK(read("Content-Transfer-Encoding: quoted-printable\n\na=ZZ=4\n=\n").text == "a=ZZ=4\n");
  CHECK(read("Content-Type: text/plain; charset=x-martian\n\nA\xff/\n").text == "A\xEF\xBF\xBD/\n");
  CHECK(read("Content-Type: text/plain; charset=\"../../etc/passwd\"\n\nok\n").text == "ok\n");
  CHECK(read("Content-Type: text/plain; charset=utf-8//TRANSLIT\n\nok\n").text == "ok\n");
  CHECK(read("Content-Type: text/plain; junk; charset=\"windows-1252\"; x\n\n\x80\n").text == "€\n");
  CHECK(read("Content-Type: text/plain; charset=utf-8\n\n\xC3\x28 \xED\xA0\x80 \xF4\x90\x80\x80\n").text ==
        "\xEF\xBF\xBD( \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD "
        "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\n");
  CHECK(read("Content-Type: text/plain; charset=windows-1252\n\n\x93quoted\x94 \x80\x81\n").text ==
        "\u201cquoted\u201d \u20ac\xEF\xBF\xBD\n");
  check_clean(read("Content-Type: text/plain; charset=iso-2022-jp\n\n\x1b$B$3$s\x1b(B \x1b$B\xff\n"));
  check_clean(read(
      "From: =?utf-8?b?w6k=?= =?utf-8?q?=C3?= =?utf-8?q?=A9?= <a@x.test>\nSubject: =?\xff?q?x?= =?\n\nx\n"));
}

TEST_CASE("mail read: multiparts nested 50 deep or 1000 wide are read within bounds") {
  std::string why;
  std::string deep = "Content-Type: multipart/mixed; boundary=b0\n\n";
  for (int i = 1; i < 50; ++i)
    deep += "--b" + std::to_string(i - 1) + "\nContent-Type: multipart/mixed; boundary=b" +
            std::to_string(i) + "\n\n";
  CHECK_FALSE(mail::read_message(deep + "--b49\nContent-Type: text/plain\n\ndeep\n", why).has_value());
  CHECK(why == "the mail has no text to read");
  std::string shallow = "Content-Type: multipart/mixed; boundary=b0\n\n";
  for (int i = 1; i < 5; ++i)
    shallow += "--b" + std::to_string(i - 1) + "\nContent-Type: multipart/mixed; boundary=b" +
               std::to_string(i) + "\n\n";
  CHECK(read(shallow + "--b4\nContent-Type: text/plain\n\nshallow\n").text == "shallow\n");
  std::string wide = "Content-Type: multipart/mixed; boundary=w\n\n";
  for (int i = 0; i < 1000; ++i) wide += "--w\nContent-Type: image/gif\n\nGIF\n";
  CHECK_FALSE(mail::read_message(wide + "--w\n\nlate text\n--w--\n", why).has_value());
  CHECK(read("Content-Type: multipart/alternative; boundary=w\n\n--w\n\nfirst\n" + wide.substr(43)).text ==
        "first");
}

// Inputs that would take quadratic time to a careless reader: each is read at once (a fuzzer's timeouts).
TEST_CASE("mail read: megabytes of repeated markup are read in linear time") {
  const auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  std::string distinct;  // 100 000 recipients, each once
  for (int i = 0; i < 100'000; ++i) distinct += "p" + std::to_string(i) + "@x.test,";
  check_clean(
      read("Subject: " + repeat("=?a?b?", 200'000) + "\nFrom: " + repeat("<\"(", 200'000) + "\n\nx\n"));
  check_clean(read("From: " + repeat("=?a?b?", 200'000) + "\nTo: " + distinct + "\n\nx\n"));
  check_clean(read("Subject: x\n" + repeat(" folded\n", 200'000) + "\nx\n"));
  check_clean(read("Content-Type: text/html\n\n" + repeat("&#", 500'000) + repeat("<b", 100'000)));
  check_clean(read("Content-Type: text/html\n\n" + repeat("<style>", 100'000) + "</style>x"));
  check_clean(read("Content-Transfer-Encoding: quoted-printable\n\n" + repeat("=", 1'000'000)));
  check_clean(read("Content-Type: text/plain; format=flowed\n\n" + repeat("x \n", 300'000)));
  CHECK(mail::record_lines(mail::fresh_text(repeat("a:\n\n", 200'000) + repeat(">\n", 200'000))).empty());
  // 300 000 empty parts: the first is an empty text/plain (a part without a header is one, RFC 2045).
  CHECK(read("Content-Type: multipart/mixed; boundary=b\n\n" + repeat("--b\n", 300'000)).text.empty());
}

// A fixed-seed fuzz: random bytes rich in MIME's own characters, and the samples cut and mangled.
TEST_CASE("mail read: random and mangled mails give an error or clean text") {
  std::mt19937 rng(20261129);
  const std::vector<std::string> atoms = {"\r\n",
                                          "\n",
                                          "\n\n",
                                          ": ",
                                          "Content-Type: multipart/mixed; boundary=b\n",
                                          "--b\n",
                                          "--b--\n",
                                          "=?utf-8?b?",
                                          "=?",
                                          "?=",
                                          "Content-Transfer-Encoding: base64\n",
                                          "Content-Transfer-Encoding: quoted-printable\n",
                                          "=C3",
                                          "=\n",
                                          "<p>",
                                          "</blockquote>",
                                          "<blockquote>",
                                          "&#x",
                                          "&#",
                                          ";",
                                          "Content-Type: text/html\n",
                                          "\xff",
                                          "\xc3",
                                          "<",
                                          ">",
                                          "\"",
                                          "(",
                                          ")",
                                          ",",
                                          "@",
                                          "format=flowed",
                                          "charset=utf-16",
                                          " ",
                                          "\t",
                                          "From: ",
                                          "x"};
  for (int round = 0; round < 3000; ++round) {
    std::string raw;
    const int n = static_cast<int>(rng() % 60);
    for (int i = 0; i < n; ++i) raw += atoms[rng() % atoms.size()];
    std::string why;
    if (auto m = mail::read_message(raw, why))
      check_clean(*m);
    else
      CHECK_FALSE(why.empty());
  }
  for (const std::string& name : kSamples) {
    const std::string raw = sample(name);
    for (std::size_t cut = 0; cut < raw.size(); cut += 7) {
      std::string why, mangled = raw.substr(0, cut);
      if (auto m = mail::read_message(mangled, why)) check_clean(*m);
      mangled = raw;
      mangled[cut] = static_cast<char>(rng());
      if (auto m = mail::read_message(mangled, why)) check_clean(*m);
    }
  }
}

}  // namespace
}  // namespace cinq::test

namespace cinq::test {

TEST_CASE("mail read: a bounce gives the returned mail's Message-ID of our domain and the receiving server's reason") {
  const mail::Bounce b = mail::read_bounce(sample("postfix-bounce.eml"), "play.test");
  // The notification's own id (@mta.test) and the References are not ours to mark.
  CHECK(b.message_ids == std::vector<std::string>{"confirm.AB12.0.0.1796014871000@play.test"});
  CHECK(b.reason == "X-Postfix; this mailbox is gone");
  CHECK(mail::read_bounce(sample("postfix-bounce.eml"), "PLAY.TEST").message_ids.size() == 1);  // any case
  CHECK(mail::read_bounce(sample("postfix-bounce.eml"), "other.test").message_ids.empty());
  // Without a Diagnostic-Code, the Status; an id named twice is listed once.
  const mail::Bounce plain = mail::read_bounce(
      "Subject: Undeliverable\r\n\r\nStatus: 5.2.2\r\nMessage-ID: <turn.X.1.2.3@play.test>\r\n"
      "message-id:   <turn.X.1.2.3@play.test>  \r\nMessage-ID: <has space@play.test>\r\n",
      "play.test");
  CHECK(plain.message_ids == std::vector<std::string>{"turn.X.1.2.3@play.test"});
  CHECK(plain.reason == "5.2.2");
  CHECK(mail::read_bounce("", "play.test").message_ids.empty());
}

}  // namespace cinq::test
