// A seat's reply address, play+ROOM.SEAT.TAG@DOMAIN: mail to it plays that seat's turns. TAG is a MAC of the
// seat: unguessable without the seat's mails or link, and never valid for another seat or game.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cinq::mail {

struct SeatAddress {
  std::string room;
  int seat = -1;
  std::string tag;
};

// TAG: HMAC-SHA256 keyed by the seat token's hash (hex text, as stored) over "cinq-mail-in\n" ROOM "\n" SEAT,
// its first 80 bits in RFC 4648 base32 lower-cased, no padding: 16 characters.
std::string seat_tag(std::string_view room, int seat, std::string_view token_hash);
// "PREFIX+ROOM.SEAT.TAG@DOMAIN" (the prefix is configurable: "play").
std::string seat_address(std::string_view prefix, std::string_view room, int seat, std::string_view tag,
                         std::string_view domain);
// The seat an address of that form names, for `domain` (prefix and domain without regard to case, the tag
// lower-cased, the room's case kept, <> around it allowed). nullopt for any other address: another domain or
// prefix, no '+', not three fields, a seat other than 0 or 1, a tag that is not 16 base32 characters, a room
// that is empty, longer than 32 or not letters and digits.
std::optional<SeatAddress> parse_seat_address(std::string_view address, std::string_view prefix,
                                              std::string_view domain);
// Compares two tags in constant time (a forger learns nothing from how long a wrong tag takes).
bool tags_equal(std::string_view a, std::string_view b);

}  // namespace cinq::mail
