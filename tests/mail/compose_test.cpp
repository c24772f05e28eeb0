// Composing mail: a message read back gives what was put in; no name can add a header; long lines folded.
#include <doctest/doctest.h>

#include <sstream>

#include "mail/address.h"
#include "mail/compose.h"
#include "mail/read.h"
#include "mail/schedule.h"

namespace cinq::test {
namespace {

mail::Outgoing sample() {
  mail::Outgoing m;
  m.from = {"Cinq", "play+AB12.0.abcdefghijklmnop@play.test"};
  m.to = {"Zoë Ørsted", "zoe@players.test"};
  m.reply_to = m.from;
  m.subject = "Cinq: Tablut, Zoë vs Ben — a long subject that goes on and on so that it must be folded (AB12)";
  m.message_id = "turn.AB12.0.3.1@play.test";
  m.references = {"game.AB12.0@play.test", "turn.AB12.0.1.1@play.test"};
  m.unsubscribe_url = "http://cinq.test/api/mail/unsubscribe?room=AB12&seat=0&tag=abcdefghijklmnop";
  m.date_ms = 1'795'000'000'000;
  m.text = "It is your turn, Zoë.\n" + std::string(200, 'x') + "\n.a line with a dot\ntrailing space \n";
  m.attachments.push_back({"cinq-AB12.txt", "text/plain; charset=utf-8", "#! TABLUT\n1   A/e8 i8/\n"});
  return m;
}

std::vector<std::string> header_lines(const std::string& raw) {
  std::vector<std::string> out;
  std::istringstream in(raw.substr(0, raw.find("\r\n\r\n")));
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST_CASE("mail compose: a message reads back with its names, subject, text, threading and attachment") {
  const std::string raw = mail::compose(sample());
  std::string why;
  auto m = mail::read_message(raw, why);
  REQUIRE_MESSAGE(m.has_value(), why);
  CHECK(m->from_name == "Cinq");
  CHECK(m->subject == sample().subject);
  CHECK(m->message_id == "turn.AB12.0.3.1@play.test");
  CHECK(m->in_reply_to == "turn.AB12.0.1.1@play.test");
  CHECK(m->references.size() == 2);
  CHECK(m->recipients == std::vector<std::string>{"zoe@players.test"});
  CHECK(m->text == sample().text);
  CHECK(raw.find("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n") != std::string::npos);
  CHECK(raw.find("Content-Disposition: attachment; filename=\"cinq-AB12.txt\"") != std::string::npos);
  CHECK(raw.find(mail::base64("#! TABLUT\n1   A/e8 i8/\n")) != std::string::npos);
  CHECK(raw.find("=?UTF-8?B?") != std::string::npos);  // Zoë's name
  // Lines within RFC 5322's limit; the folded subject within 78 (a URL or an id alone may not fold).
  for (std::size_t at = 0, nl; (nl = raw.find("\r\n", at)) != std::string::npos; at = nl + 2) {
    CHECK(nl - at <= 998);
    const std::string line = raw.substr(at, nl - at);
    if (line.rfind("Subject:", 0) == 0 || line.rfind(" =?UTF-8", 0) == 0) CHECK(line.size() <= 78);
  }
  // No bare LF anywhere.
  for (std::size_t i = 0; i < raw.size(); ++i)
    if (raw[i] == '\n') CHECK((i > 0 && raw[i - 1] == '\r'));
}

TEST_CASE("mail compose: a name or subject holding line breaks adds no header") {
  mail::Outgoing m = sample();
  m.to.name = "Eve\r\nBcc: victim@evil.test";
  m.subject = "hello\nX-Injected: yes";
  m.extra_headers = {{"X-Cinq-Room", "AB12\r\nBcc: more@evil.test"}};
  const std::string raw = mail::compose(m);
  for (const std::string& line : header_lines(raw)) {
    CHECK(line.rfind("Bcc:", 0) != 0);
    CHECK(line.rfind("X-Injected:", 0) != 0);
  }
  CHECK_THROWS_AS(mail::compose([] {
                    auto x = sample();
                    x.to.address = "a@b\r\nBcc: c@d";
                    return x;
                  }()),
                  std::invalid_argument);
}

TEST_CASE("mail compose: addresses players type are checked") {
  CHECK(mail::valid_address("ann@players.test"));
  CHECK(mail::valid_address("play+AB12.0.abcdefghijklmnop@play.test"));
  CHECK_FALSE(mail::valid_address("ann"));
  CHECK_FALSE(mail::valid_address("ann@@x.test"));
  CHECK_FALSE(mail::valid_address("ann smith@x.test"));
  CHECK_FALSE(mail::valid_address("<ann@x.test>"));
  CHECK_FALSE(mail::valid_address("ann@x.test\r\nBcc: y@z"));
  CHECK_FALSE(mail::valid_address(std::string(65, 'a') + "@x.test"));
}

TEST_CASE("mail address: a seat's tag is 16 base32 characters, its own, and read back from its address") {
  const std::string hash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
  const std::string tag = mail::seat_tag("AB12", 0, hash);
  CHECK(tag.size() == 16);
  CHECK(tag.find_first_not_of("abcdefghijklmnopqrstuvwxyz234567") == std::string::npos);
  CHECK(tag != mail::seat_tag("AB12", 1, hash));
  CHECK(tag != mail::seat_tag("AB13", 0, hash));
  CHECK(tag != mail::seat_tag("AB12", 0, hash + "0"));
  const std::string address = mail::seat_address("play", "AB12", 0, tag, "play.test");
  auto seat = mail::parse_seat_address(address, "play", "play.test");
  REQUIRE(seat.has_value());
  CHECK(seat->room == "AB12");
  CHECK(seat->seat == 0);
  CHECK(mail::tags_equal(seat->tag, tag));
  std::string other = tag;
  other[5] = other[5] == 'a' ? 'b' : 'a';
  CHECK_FALSE(mail::tags_equal(other, tag));
  CHECK(mail::parse_seat_address("PLAY+AB12.0." + tag + "@Play.Test", "play", "play.test").has_value());
  CHECK_FALSE(mail::parse_seat_address(address, "play", "other.test").has_value());
  CHECK_FALSE(mail::parse_seat_address("play+AB12.2." + tag + "@play.test", "play", "play.test").has_value());
  CHECK_FALSE(mail::parse_seat_address("play+AB12.0.short@play.test", "play", "play.test").has_value());
  CHECK_FALSE(mail::parse_seat_address("play+A-B.0." + tag + "@play.test", "play", "play.test").has_value());
  CHECK_FALSE(mail::parse_seat_address("play@play.test", "play", "play.test").has_value());
}

TEST_CASE("mail schedule: the default reminder comes when a fifth of the time is left, never under 12 hours") {
  constexpr std::int64_t h = 3'600'000;
  CHECK(mail::reminder_times(0, 24 * h, {}) == std::vector<std::int64_t>{12 * h});
  CHECK(mail::reminder_times(0, 7 * 24 * h, {}) == std::vector<std::int64_t>{7 * 24 * h - 7 * 24 * h / 5});
  CHECK(mail::reminder_times(0, 10 * h, {}).empty());  // 12 hours before is before the turn began
  CHECK(mail::reminder_times(0, 48 * h, {24 * h, 8 * h, 1 * h, 72 * h, 8 * h}) ==
        std::vector<std::int64_t>{24 * h, 40 * h, 47 * h});
  CHECK(mail::parse_leads("24h,8h,1h") == std::vector<std::int64_t>{24 * h, 8 * h, h});
  CHECK(mail::parse_leads("2d, 90m, 30s") == std::vector<std::int64_t>{48 * h, 90 * 60'000, 30'000});
  CHECK_FALSE(mail::parse_leads("").has_value());
  CHECK_FALSE(mail::parse_leads("0h").has_value());
  CHECK_FALSE(mail::parse_leads("5x").has_value());
  CHECK_FALSE(mail::parse_leads("1h,1h,1h,1h,1h,1h,1h,1h,1h").has_value());
  CHECK(mail::rfc5322_date(0) == "Thu, 01 Jan 1970 00:00:00 +0000");
  CHECK(mail::human_time_utc(86'400'000LL * 365) == "Friday 1 January 1971, 00:00 UTC");
}

}  // namespace
}  // namespace cinq::test
