// The plain HTTP session, compiled once here; its WebSocket sessions in ws_session.cpp.
#include "server/net/http_session.h"

#include <sys/random.h>

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "server/net/sessions.h"

namespace cinq::net {

namespace {
constexpr std::string_view kDeviceCookie = "cinq_device";
constexpr std::int64_t kDeviceCookieMaxAge = 400LL * 24 * 3600;
}  // namespace

std::string device_cookie(std::string_view header) {
  while (!header.empty()) {
    std::string_view pair = header.substr(0, header.find(';'));
    header.remove_prefix(std::min(header.size(), pair.size() + 1));
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    while (!pair.empty() && pair.back() == ' ') pair.remove_suffix(1);
    if (!pair.starts_with(kDeviceCookie) || pair.size() <= kDeviceCookie.size() || pair[kDeviceCookie.size()] != '=')
      continue;
    std::string_view value = pair.substr(kDeviceCookie.size() + 1);
    if (value.empty() || value.size() > 64) return {};
    for (char c : value)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return {};
    return std::string(value);
  }
  return {};
}

std::string new_device_id() {
  static constexpr char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::string out;
  while (out.size() < 32) {
    unsigned char buf[64];
    const ssize_t got = getrandom(buf, sizeof buf, 0);
    for (ssize_t i = 0; i < got && out.size() < 32; ++i)
      if (buf[i] < 248) out += kAlphabet[buf[i] % 62];  // 248 = 4 * 62: no value more likely than another
  }
  return out;
}

std::string device_set_cookie(const std::string& device, bool secure) {
  return std::string(kDeviceCookie) + "=" + device + "; Path=/; Max-Age=" + std::to_string(kDeviceCookieMaxAge) +
         "; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
}

extern template class WsSession<boost::beast::tcp_stream>;
template class HttpSession<boost::beast::tcp_stream>;

void start_http_session(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state,
                        std::string address, AddressSlot slot) {
  std::make_shared<HttpSession<boost::beast::tcp_stream>>(boost::beast::tcp_stream(std::move(socket)), nullptr,
                                                          std::move(state), std::move(address), std::move(slot))
      ->run();
}

}  // namespace cinq::net
