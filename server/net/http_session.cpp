// The plain HTTP session, compiled once here; its WebSocket sessions in ws_session.cpp.
#include "server/net/http_session.h"

#include "server/net/sessions.h"

namespace cinq::net {

extern template class WsSession<boost::beast::tcp_stream>;
template class HttpSession<boost::beast::tcp_stream>;

void start_http_session(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state,
                        std::string address, AddressSlot slot) {
  std::make_shared<HttpSession<boost::beast::tcp_stream>>(boost::beast::tcp_stream(std::move(socket)), nullptr,
                                                          std::move(state), std::move(address), std::move(slot))
      ->run();
}

}  // namespace cinq::net
