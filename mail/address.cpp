// Seat addresses and their tags (address.h).
#include "mail/address.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cctype>

namespace cinq::mail {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_tag(std::string_view t) {
  if (t.size() != 16) return false;
  for (char c : t)
    if (!((c >= 'a' && c <= 'z') || (c >= '2' && c <= '7'))) return false;
  return true;
}

}  // namespace

std::string seat_tag(std::string_view room, int seat, std::string_view token_hash) {
  const std::string data = "cinq-mail-in\n" + std::string(room) + "\n" + std::to_string(seat);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), token_hash.data(), static_cast<int>(token_hash.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &length);
  // 80 bits, 5 at a time, in RFC 4648's base32 alphabet, lower-cased.
  static const char* alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  std::string tag;
  for (int i = 0; i < 16; ++i) {
    const int bit = i * 5;
    const unsigned v = (static_cast<unsigned>(mac[bit / 8]) << 8 | mac[bit / 8 + 1]) >> (11 - bit % 8);
    tag += alphabet[v & 31];
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
  if (dot2 == std::string_view::npos || rest.find('.', dot2 + 1) != std::string_view::npos) return std::nullopt;
  SeatAddress s;
  s.room = std::string(rest.substr(0, dot1));
  const std::string_view seat = rest.substr(dot1 + 1, dot2 - dot1 - 1);
  s.tag = lower(rest.substr(dot2 + 1));
  if (s.room.empty() || s.room.size() > 32) return std::nullopt;
  for (char c : s.room)
    if (!std::isalnum(static_cast<unsigned char>(c))) return std::nullopt;
  if (seat != "0" && seat != "1") return std::nullopt;
  s.seat = seat[0] - '0';
  if (!is_tag(s.tag)) return std::nullopt;
  return s;
}

bool tags_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace cinq::mail
