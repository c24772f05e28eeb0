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

// HMAC-SHA256 keyed by the seat token's hash (hex, as stored) over "cinq-mail-in\nROOM\nSEAT": its first 80
// bits in lower-case base32, 16 characters.
std::string seat_tag(std::string_view room, int seat, std::string_view token_hash);
std::string seat_address(std::string_view prefix, std::string_view room, int seat, std::string_view tag,
                         std::string_view domain);
// The seat an address of that form names, for `domain` (prefix and domain without regard to case; the tag
// lower-cased); nullopt for any other address.
std::optional<SeatAddress> parse_seat_address(std::string_view address, std::string_view prefix,
                                              std::string_view domain);
// Compares two tags in constant time.
bool tags_equal(std::string_view a, std::string_view b);

}  // namespace cinq::mail
