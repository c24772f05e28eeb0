// A listening socket for the transport's listeners (server.cpp's for HTTP and WebSocket, lmtp.cpp's for
// LMTP): opened, bound with SO_REUSEADDR and listening, or std::runtime_error saying what could not listen
// where, and why (address in use, permission denied). Boost: included by server/net/ only.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cinq::net {

// Returns the port bound (the one asked, or the one the system chose for 0).
inline std::uint16_t open_acceptor(boost::asio::ip::tcp::acceptor& acceptor, const std::string& address,
                                   std::uint16_t port, const std::string& what) {
  namespace asio = boost::asio;
  const std::string where = address + ":" + std::to_string(port);
  const auto check = [&](const boost::system::error_code& step) {
    if (step) throw std::runtime_error(what + "cannot listen on " + where + ": " + step.message());
  };
  boost::system::error_code ec;
  const auto ip = asio::ip::make_address(address, ec);
  check(ec);
  const asio::ip::tcp::endpoint endpoint(ip, port);
  acceptor.open(endpoint.protocol(), ec);
  check(ec);
  acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  check(ec);
  acceptor.bind(endpoint, ec);
  check(ec);
  acceptor.listen(asio::socket_base::max_listen_connections, ec);
  check(ec);
  const std::uint16_t bound = acceptor.local_endpoint(ec).port();
  check(ec);
  return bound;
}

}  // namespace cinq::net
