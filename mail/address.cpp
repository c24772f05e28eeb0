// Seat addresses and their tags (address.h).
#include "mail/address.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace cinq::mail {

namespace {

constexpr std::string_view kBase32 = "abcdefghijklmnopqrstuvwxyz234567";  // RFC 4648's, lower-cased
constexpr std::size_t kTagLength = 16;                                    // 80 bits, 5 a character
constexpr std::size_t kMaxRoom = 32;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool is_alnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool is_tag(std::string_view t) {
  return t.size() == kTagLength && t.find_first_not_of(kBase32) == std::string_view::npos;
}

bool is_room(std::string_view room) {
  if (room.empty() || room.size() > kMaxRoom) return false;
  for (char c : room)
    if (!is_alnum(c)) return false;
  return true;
}

}  // namespace

std::string seat_tag(std::string_view room, int seat, std::string_view token_hash) {
  const std::string data = "cinq-mail-in\n" + std::string(room) + "\n" + std::to_string(seat);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  static const char kNoKey = 0;  // to HMAC_Init_ex a null key means "the key before": never pass one
  HMAC(EVP_sha256(), token_hash.empty() ? &kNoKey : token_hash.data(), static_cast<int>(token_hash.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &length);
  // The first 80 bits, 5 at a time, most significant first (as base32 writes 10 bytes).
  std::string tag;
  for (std::size_t i = 0; i < kTagLength; ++i) {
    const std::size_t bit = i * 5;
    const unsigned pair = static_cast<unsigned>(mac[bit / 8]) << 8 | mac[bit / 8 + 1];
    tag += kBase32[(pair >> (11 - bit % 8)) & 31];
  }
  return tag;
}

std::string seat_address(std::string_view prefix, std::string_view room, int seat, std::string_view tag,
                         std::string_view domain) {
  return std::string(prefix) + "+" + std::string(room) + "." + std::to_string(seat) + "." + std::string(tag) +
         "@" + std::string(domain);
}

std::optional<SeatAddress> parse_seat_address(std::string_view address, std::string_view prefix,
                                              std::string_view domain) {
  if (address.size() >= 2 && address.front() == '<' && address.back() == '>')
    address = address.substr(1, address.size() - 2);
  const auto at = address.rfind('@');
  if (at == std::string_view::npos || lower(address.substr(at + 1)) != lower(domain)) return std::nullopt;
  const std::string_view local = address.substr(0, at);
  const auto plus = local.find('+');
  if (plus == std::string_view::npos || lower(local.substr(0, plus)) != lower(prefix)) return std::nullopt;
  const std::string_view rest = local.substr(plus + 1);
  const auto dot1 = rest.find('.');
  const auto dot2 = dot1 == std::string_view::npos ? dot1 : rest.find('.', dot1 + 1);
  if (dot2 == std::string_view::npos || rest.find('.', dot2 + 1) != std::string_view::npos)
    return std::nullopt;
  SeatAddress s;
  s.room = std::string(rest.substr(0, dot1));
  const std::string_view seat = rest.substr(dot1 + 1, dot2 - dot1 - 1);
  s.tag = lower(rest.substr(dot2 + 1));
  if (!is_room(s.room) || (seat != "0" && seat != "1") || !is_tag(s.tag)) return std::nullopt;
  s.seat = seat[0] - '0';
  return s;
}

bool tags_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace cinq::mail
