// One HTTP connection (Beast's chat-multi http_session): keep-alive requests one at a time; `/ws` upgrades
// to a WsSession, `/api/*` and `/metrics` go to Handler::on_http, other GET/HEAD requests to static files.
// Internal to server/net.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "server/net/shared_state.h"
#include "server/net/transport.h"

namespace cinq::net {

// Runs on the connection's strand (the socket's executor); Handler::on_http's answer is posted back there.
class HttpSession : public Session, public std::enable_shared_from_this<HttpSession> {
 public:
  // `slot`: the connection's admission (SharedState::admit_http), given back when the session ends or the
  // connection becomes a WebSocket.
  HttpSession(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state, std::string address,
              AddressSlot slot);
  ~HttpSession() override;

  void run();
  void shut_down() override;

 private:
  using Request = boost::beast::http::request<boost::beast::http::string_body>;

  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void on_parse_error(boost::beast::error_code ec);
  void upgrade();
  void dispatch_api(Request& request);
  void serve_static(const Request& request);
  // Writes one response to the request being answered; closes afterwards unless it is kept alive.
  void respond(int status, std::string content_type, std::string body,
               const std::vector<std::pair<std::string, std::string>>& headers = {});
  void on_write(bool keep_alive, boost::beast::error_code ec, std::size_t bytes);
  void do_shutdown();

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  std::string address_;  // the peer's (a balancer's, if trusted: ServerConfig::trusted_proxies)
  std::string client_;   // the request's client: the peer, or the last X-Forwarded-For of a trusted one
  AddressSlot slot_;
  const std::uint64_t id_;
  // A new parser per request: its body and header limits apply to each request on its own.
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  boost::beast::http::response<boost::beast::http::string_body> response_;
  // What respond() needs to know about the request it answers.
  unsigned version_ = 11;
  bool keep_alive_ = false;
  bool head_ = false;
  bool reading_ = false;        // waiting for a request: nothing would be lost by closing now
  bool shutting_down_ = false;  // the server is stopping: answer what is in progress, keep nothing alive
};

}  // namespace cinq::net
