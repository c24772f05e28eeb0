// Seat addresses: play+ROOM.SEAT.TAG@DOMAIN, whose tag is a MAC of the seat that nobody without the seat's
// token hash can make, and that reads back only for its own form and domain.
#include "mail/address.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace cinq::test {
namespace {

const std::string kHash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

TEST_CASE("mail address: a seat's tag is 16 base32 characters of HMAC-SHA256 by its token hash") {
  const std::string tag = mail::seat_tag("AB12", 0, kHash);
  CHECK(tag.size() == 16);
  CHECK(tag.find_first_not_of("abcdefghijklmnopqrstuvwxyz234567") == std::string::npos);
  // Python: base64.b32encode(hmac.new(hash, b"cinq-mail-in\nAB12\n0", sha256).digest()[:10]).lower()
  CHECK(tag == "hzvhr7xpkdvydwbm");
  CHECK(mail::seat_tag("AB12", 0, kHash) == tag);
  CHECK(mail::seat_tag("", 0, "").size() == 16);
}

TEST_CASE("mail address: the tag differs by seat, by room and by token hash") {
  const std::string tag = mail::seat_tag("AB12", 0, kHash);
  CHECK(tag != mail::seat_tag("AB12", 1, kHash));
  CHECK(tag != mail::seat_tag("AB13", 0, kHash));
  CHECK(tag != mail::seat_tag("ab12", 0, kHash));
  CHECK(tag != mail::seat_tag("AB12", 0, kHash.substr(1) + "0"));
}

TEST_CASE("mail address: a seat address reads back to its room, seat and tag") {
  const std::string tag = mail::seat_tag("AB12", 1, kHash);
  const std::string address = mail::seat_address("play", "AB12", 1, tag, "play.example.org");
  CHECK(address == "play+AB12.1." + tag + "@play.example.org");
  auto seat = mail::parse_seat_address(address, "play", "play.example.org");
  REQUIRE(seat.has_value());
  CHECK(seat->room == "AB12");
  CHECK(seat->seat == 1);
  CHECK(seat->tag == tag);
  // Prefix and domain without regard to case, the tag lower-cased, the room's case kept, <> allowed.
  std::string upper_tag = tag;
  for (char& c : upper_tag) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  seat = mail::parse_seat_address("<PLAY+Ab12.0." + upper_tag + "@Play.Example.ORG>", "play",
                                  "play.example.org");
  REQUIRE(seat.has_value());
  CHECK(seat->room == "Ab12");
  CHECK(seat->seat == 0);
  CHECK(seat->tag == tag);
  CHECK(
      mail::parse_seat_address("cinq+R" + std::string(31, '9') + ".0." + tag + "@x.test", "Cinq", "X.TEST"));
}

TEST_CASE("mail address: tags_equal tells a changed character or length") {
  const std::string tag = mail::seat_tag("AB12", 0, kHash);
  CHECK(mail::tags_equal(tag, tag));
  for (std::size_t i = 0; i < tag.size(); ++i) {
    std::string other = tag;
    other[i] = other[i] == 'a' ? 'b' : 'a';
    CHECK_FALSE(mail::tags_equal(other, tag));
  }
  CHECK_FALSE(mail::tags_equal(tag, tag.substr(0, 15)));
  CHECK_FALSE(mail::tags_equal(tag, tag + "a"));
  CHECK_FALSE(mail::tags_equal("", tag));
  CHECK(mail::tags_equal("", ""));
}

TEST_CASE("mail address: any other address is not a seat address") {
  const std::string tag = mail::seat_tag("AB12", 0, kHash);
  const auto parse = [](const std::string& a) { return mail::parse_seat_address(a, "play", "play.test"); };
  for (const std::string& other :
       std::vector<std::string>{"play+AB12.0." + tag + "@other.test",
                                "play+AB12.0." + tag + "@play.test.evil",
                                "play+AB12.0." + tag,
                                "play.AB12.0." + tag + "@play.test",
                                "games+AB12.0." + tag + "@play.test",
                                "+AB12.0." + tag + "@play.test",
                                "play+AB12.2." + tag + "@play.test",
                                "play+AB12.00." + tag + "@play.test",
                                "play+AB12.-1." + tag + "@play.test",
                                "play+AB12..0." + tag + "@play.test",
                                "play+AB12.0." + tag + ".x@play.test",
                                "play+AB12.0@play.test",
                                "play+AB12.0.short@play.test",
                                "play+AB12.0." + tag + "a@play.test",
                                "play+AB12.0.abcdefghijklmno1@play.test",
                                "play+AB12.0.abcdefghijklmno8@play.test",
                                "play+.0." + tag + "@play.test",
                                "play+A-B.0." + tag + "@play.test",
                                "play+AB_12.0." + tag + "@play.test",
                                "play+" + std::string(33, 'R') + ".0." + tag + "@play.test",
                                "play+Zoë.0." + tag + "@play.test",
                                "",
                                "@",
                                "play@play.test"})
    CHECK_FALSE_MESSAGE(parse(other).has_value(), other);
  CHECK(parse("play+" + std::string(32, 'R') + ".0." + tag + "@play.test").has_value());
}

}  // namespace
}  // namespace cinq::test
