// The HTTP session over TLS (https://), compiled once here; its WebSocket sessions in tls_ws_session.cpp.
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "server/net/http_session.h"
#include "server/net/sessions.h"
#include "server/net/tls.h"

namespace cinq::net {

using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;
extern template class WsSession<TlsStream>;
template class HttpSession<TlsStream>;

void start_https_session(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state,
                         std::string address, AddressSlot slot) {
  // The context in force now: a reload (SIGHUP) changes the next connections' certificate, not this one's.
  std::shared_ptr<boost::asio::ssl::context> context = state->tls()->current();
  TlsStream stream(boost::beast::tcp_stream(std::move(socket)), *context);
  std::make_shared<HttpSession<TlsStream>>(std::move(stream), std::move(context), std::move(state),
                                           std::move(address), std::move(slot))
      ->run();
}

}  // namespace cinq::net
