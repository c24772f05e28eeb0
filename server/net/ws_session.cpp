// The plain WebSocket session, compiled once here (http_session.cpp declares it extern).
#include "server/net/ws_session.h"

namespace cinq::net {

template class WsSession<boost::beast::tcp_stream>;

}  // namespace cinq::net
