// The WebSocket session over TLS (wss://), compiled once here (tls_http_session.cpp declares it extern).
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "server/net/ws_session.h"

namespace cinq::net {

template class WsSession<boost::beast::ssl_stream<boost::beast::tcp_stream>>;

}  // namespace cinq::net
