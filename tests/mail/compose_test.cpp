// Composing mail: a message reads back with what was put in, no name or subject can add a header, every line
// keeps to its limit, an attachment decodes back to its bytes.
#include "mail/compose.h"

#include <doctest/doctest.h>

#include <sstream>

#include "mail/decode.h"
#include "mail/read.h"

namespace cinq::test {
namespace {

mail::Outgoing sample() {
  mail::Outgoing m;
  m.from = {"Cinq", "play+AB12.0.abcdefghijklmnop@play.test"};
  m.to = {"Zoë Ørsted", "zoe@players.test"};
  m.reply_to = m.from;
  m.subject = "Cinq: Tablut, Zoë vs Ben — your turn (AB12)";
  m.message_id = "turn.AB12.0.3@play.test";
  m.references = {"game.AB12.0@play.test", "turn.AB12.0.1@play.test"};
  m.unsubscribe_url = "https://cinq.test/api/mail/unsubscribe?room=AB12&seat=0&tag=abcdefghijklmnop";
  m.date_ms = 1'795'909'826'000;  // Sat, 28 Nov 2026 23:50:26 UTC
  m.text = "It is your turn, Zoë.\n\n1   A/e8 i8/   D/e3 a3/\n";
  m.extra_headers = {{"Auto-Submitted", "auto-generated"}, {"X-Cinq-Room", "AB12"}};
  return m;
}

mail::Incoming read_back(const std::string& raw) {
  std::string why;
  auto m = mail::read_message(raw, why);
  REQUIRE_MESSAGE(m.has_value(), why);
  return *m;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t at = 0, nl; (nl = text.find("\r\n", at)) != std::string::npos; at = nl + 2)
    out.push_back(text.substr(at, nl - at));
  return out;
}

// Every line within 78 characters but the List-Unsubscribe URL's (one URL, which no reader cuts).
void check_line_lengths(const std::string& raw) {
  for (const std::string& line : lines_of(raw))
    if (line.rfind("List-Unsubscribe:", 0) != 0) CHECK_MESSAGE(line.size() <= 78, line);
}

std::string header_block(const std::string& raw) { return raw.substr(0, raw.find("\r\n\r\n") + 2); }

// The names of the fields a header block starts; a line that is neither a field nor a continuation fails.
std::vector<std::string> field_names(const std::string& raw) {
  std::vector<std::string> names;
  for (const std::string& line : lines_of(header_block(raw))) {
    if (line[0] == ' ' || line[0] == '\t') continue;
    const auto colon = line.find(':');
    REQUIRE_MESSAGE(colon != std::string::npos, "not a header line: " << line);
    names.push_back(line.substr(0, colon));
  }
  return names;
}

// The decoded body of the part whose headers hold `marker`.
std::string part_body(const std::string& raw, const std::string& marker) {
  const auto at = raw.find(marker);
  REQUIRE(at != std::string::npos);
  const auto start = raw.find("\r\n\r\n", at) + 4;
  return mail::detail::decode_base64(raw.substr(start, raw.find("\r\n--", start) - start));
}

TEST_CASE("mail compose: a message reads back with its names, subject, text and threading") {
  mail::Outgoing out = sample();
  out.from.name = "Zoë Ørsted";
  const mail::Incoming in = read_back(mail::compose(out));
  CHECK(in.from_name == "Zoë Ørsted");
  CHECK(in.from_address == "play+AB12.0.abcdefghijklmnop@play.test");
  CHECK(in.subject == "Cinq: Tablut, Zoë vs Ben — your turn (AB12)");
  CHECK(in.text == out.text);
  CHECK(in.message_id == "turn.AB12.0.3@play.test");
  CHECK(in.in_reply_to == "turn.AB12.0.1@play.test");
  CHECK(in.references == out.references);
  CHECK(in.recipients == std::vector<std::string>{"zoe@players.test"});
  CHECK(in.auto_submitted == "auto-generated");
}

TEST_CASE("mail compose: the header holds the date, MIME, threading and one-click unsubscribe") {
  const std::string raw = mail::compose(sample());
  const std::string head = header_block(raw);
  CHECK(head.find("Date: Sat, 28 Nov 2026 23:50:26 +0000\r\n") != std::string::npos);
  CHECK(head.find("MIME-Version: 1.0\r\n") != std::string::npos);
  CHECK(head.find("Reply-To: \"Cinq\" <play+AB12.0.abcdefghijklmnop@play.test>\r\n") != std::string::npos);
  CHECK(head.find("Message-ID: <turn.AB12.0.3@play.test>\r\n") != std::string::npos);
  CHECK(head.find("In-Reply-To: <turn.AB12.0.1@play.test>\r\n") != std::string::npos);
  CHECK(head.find("References: <game.AB12.0@play.test> <turn.AB12.0.1@play.test>\r\n") != std::string::npos);
  CHECK(head.find("List-Unsubscribe: <https://cinq.test/api/mail/unsubscribe?room=AB12&seat=0&tag=") !=
        std::string::npos);
  CHECK(head.find("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n") != std::string::npos);
  CHECK(head.find("Auto-Submitted: auto-generated\r\n") != std::string::npos);
  CHECK(head.find("X-Cinq-Room: AB12\r\n") != std::string::npos);
  CHECK(raw.find(
            "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n") !=
        std::string::npos);
  CHECK(head.find("To: =?UTF-8?B?") != std::string::npos);  // Zoë's name, encoded
  for (char c : head) CHECK(static_cast<unsigned char>(c) < 0x80);
}

TEST_CASE("mail compose: line breaks in a name, subject or extra header add no header") {
  mail::Outgoing m = sample();
  m.to.name = "Eve\r\nBcc: victim@evil.test";
  m.from.name = "Mallory\rBcc: cr@evil.test\nX-Evil: lf";
  m.reply_to = mail::Mailbox{"Zoë\r\n\r\nbody?", "zoe@players.test"};
  m.subject = "hello\r\nBcc: more@evil.test\n\nstarts the body?";
  m.extra_headers = {{"X-Cinq-Room", "AB12\r\nBcc: extra@evil.test"}, {"Bad\r\nName", "x"}};
  m.references = {"a@b>\r\nBcc: id@evil.test"};
  m.unsubscribe_url = "https://x.test/\r\nBcc: url@evil.test";
  const std::string raw = mail::compose(m);
  const std::vector<std::string> expected = {
      "Date",        "From",        "To",           "Reply-To",         "Subject",
      "Message-ID",  "In-Reply-To", "References",   "List-Unsubscribe", "List-Unsubscribe-Post",
      "X-Cinq-Room", "BadName",     "MIME-Version", "Content-Type",     "Content-Transfer-Encoding"};
  CHECK(field_names(raw) == expected);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\r') CHECK((i + 1 < raw.size() && raw[i + 1] == '\n'));
    if (raw[i] == '\n') CHECK((i > 0 && raw[i - 1] == '\r'));
  }
  const mail::Incoming in = read_back(raw);
  CHECK(in.recipients == std::vector<std::string>{"zoe@players.test"});
  CHECK(in.text == m.text);
  CHECK(in.subject.find('\n') == std::string::npos);
}

TEST_CASE("mail compose: an address that is not valid_address is a programming error") {
  for (const char* address :
       {"a@b.test\r\nBcc: c@d.test", "", "Ann <ann@x.test>", "ann@x.test, bob@y.test"}) {
    mail::Outgoing m = sample();
    m.to.address = address;
    CHECK_THROWS_AS(mail::compose(m), std::invalid_argument);
  }
  mail::Outgoing m = sample();
  m.reply_to->address = "no at sign";
  CHECK_THROWS_AS(mail::compose(m), std::invalid_argument);
}

TEST_CASE("mail compose: long subjects and names fold into lines of at most 78 and read back whole") {
  mail::Outgoing m = sample();
  m.subject =
      "Cinq: Tablut, Zoë Ørsted — the Attackers (A) vs Benedict Cumberbatch-Smythe — the Defenders (D), "
      "a correspondence game of three days a turn that goes on and on (AB12) " +
      std::string(150, 'x') + " Ωμέγα 🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲🎲";
  m.to.name = std::string(120, 'n') + " \"quoted\" \\ back";
  m.from.name = "Ørsted " + std::string(90, 'z');
  const std::string raw = mail::compose(m);
  check_line_lengths(header_block(raw));
  const mail::Incoming in = read_back(raw);
  CHECK(in.subject == m.subject);
  CHECK(in.from_name == m.from.name);
}

TEST_CASE("mail compose: encode_header_text keeps plain text and encodes what needs it") {
  CHECK(mail::encode_header_text("Cinq: Tablut, Ann vs Ben (AB12)") == "Cinq: Tablut, Ann vs Ben (AB12)");
  CHECK(mail::encode_header_text(" a\r\nb\t c ") == "a b c");  // one line, one space at a time
  const std::string encoded = mail::encode_header_text("Zoë plays =?utf-8?q?x?= now");
  CHECK(encoded.find("Zoë") == std::string::npos);
  CHECK(encoded.find("=?utf-8?q?x?=") == std::string::npos);
  CHECK(encoded.find(" now") != std::string::npos);  // the plain words stay readable
  CHECK(mail::detail::decode_header_words(encoded) == "Zoë plays =?utf-8?q?x?= now");
  const std::string long_text(400, 'e');
  for (const std::string& text : {long_text, "é" + long_text, std::string(100, '\xC3')}) {
    const std::string words = mail::encode_header_text(text);
    CHECK(words.find_first_of("\r\n") == std::string::npos);
    std::istringstream in(words);
    for (std::string word; in >> word;) CHECK(word.size() <= 75);
  }
}

TEST_CASE("mail compose: the text is quoted-printable in lines of at most 76 and reads back exactly") {
  mail::Outgoing m = sample();
  m.text = std::string(200, 'x') + "\n.a dot at a line's start\nFrom the start\ntrailing space \ntab\t\n" +
           "a = sign, é ü ß and 🎲 " + std::string(90, 'y') + "é\n\n" + std::string(74, 'z') + " \nno end";
  const std::string raw = mail::compose(m);
  const std::string body = raw.substr(raw.find("\r\n\r\n") + 4);
  for (const std::string& line : lines_of(body)) {
    CHECK(line.size() <= 76);
    CHECK(line.find_first_not_of(" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`"
                                 "abcdefghijklmnopqrstuvwxyz{|}~\t") == std::string::npos);
    CHECK((line.empty() || (line.back() != ' ' && line.back() != '\t')));
    CHECK(line.rfind("From ", 0) != 0);
  }
  CHECK(read_back(raw).text == m.text + "\n");  // the last line ends like the others
  m.text = "a\r\nb\rc\n";                       // a stray CR is never sent bare
  CHECK(read_back(mail::compose(m)).text == "a\nb\nc\n");
}

TEST_CASE("mail compose: an attachment is base64 in multipart/mixed and decodes back to its bytes") {
  mail::Outgoing m = sample();
  std::string bytes;
  for (int i = 0; i < 1000; ++i) bytes += static_cast<char>(i * 37 % 256);
  m.attachments.push_back({"cinq-AB12.txt", "text/plain; charset=utf-8", "#! TABLUT\n1   A/e8 i8/\n"});
  m.attachments.push_back({"partie de Zoë — très longue, vraiment très longue, beaucoup trop.bin",
                           "application/octet-stream", bytes});
  const std::string raw = mail::compose(m);
  CHECK(raw.find("Content-Type: multipart/mixed; boundary=\"") != std::string::npos);
  CHECK(part_body(raw, "filename=\"cinq-AB12.txt\"") == "#! TABLUT\n1   A/e8 i8/\n");
  CHECK(raw.find("filename*0*=utf-8''partie%20de%20Zo%C3%AB%20") != std::string::npos);
  CHECK(part_body(raw, "Content-Type: application/octet-stream") == bytes);
  check_line_lengths(raw);
  const mail::Incoming in = read_back(raw);
  CHECK(in.text == m.text);  // the text part, not an attachment
  CHECK_FALSE(in.from_html);
}

TEST_CASE("mail compose: valid_address takes plain addresses and refuses anything else") {
  for (const char* ok : {"ann@players.test", "play+AB12.0.abcdefghijklmnop@play.test",
                         "a.b-c_d@x-y.example.org", "o'neil@x.test", "ann@localhost"})
    CHECK_MESSAGE(mail::valid_address(ok), ok);
  CHECK(mail::valid_address(std::string(64, 'a') + "@x.test"));
  CHECK_FALSE(mail::valid_address(std::string(65, 'a') + "@x.test"));
  const std::string label(63, 'd'),
      domain252 = label + "." + label + "." + label + "." + std::string(60, 'd');
  CHECK(mail::valid_address("a@" + domain252));  // 254 in all
  CHECK_FALSE(mail::valid_address("ab@" + domain252));
  for (const char* bad : {"",
                          "ann",
                          "@x.test",
                          "ann@",
                          "ann@@x.test",
                          "ann@b@x.test",
                          "ann smith@x.test",
                          "<ann@x.test>",
                          "ann@x.test\r\nBcc: y@z.test",
                          "ann@x_y.test",
                          "ann@x.test.",
                          "ann@.x.test",
                          "ann@x..test",
                          ".ann@x.test",
                          "ann.@x.test",
                          "a..b@x.test",
                          "ann(x)@x.test",
                          "ann,bob@x.test",
                          "ann;@x.test",
                          "\"ann\"@x.test",
                          "zoë@x.test",
                          "ann@zoë.test",
                          "ann\t@x.test",
                          "ann@x.test\n"})
    CHECK_FALSE_MESSAGE(mail::valid_address(bad), bad);
}

}  // namespace
}  // namespace cinq::test
