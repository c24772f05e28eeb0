// How the listener hands over an accepted connection: as plain HTTP, or as HTTPS when the server has a
// certificate (ServerConfig::tls_cert). The sessions themselves are templates over the stream
// (http_session.h, ws_session.h), instantiated once for each in their own translation units, so that this
// header, seen by server.cpp, includes neither Beast's HTTP nor OpenSSL. Internal to server/net.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <memory>
#include <string>

#include "server/net/shared_state.h"

namespace cinq::net {

// Starts an HTTP session on `socket` (http_session.cpp).
void start_http_session(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state,
                        std::string address, AddressSlot slot);
// Starts an HTTPS session: the TLS handshake with the context in force now (TlsFiles::current), then
// the same HTTP session and WebSocket upgrade over TLS (tls_http_session.cpp).
void start_https_session(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state,
                         std::string address, AddressSlot slot);

}  // namespace cinq::net
