// One WebSocket connection (Beast's chat-multi websocket_session, with its two gaps closed: a bounded send
// queue and a read_message_max). Internal to server/net.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <memory>
#include <string>

#include "server/net/fifo.h"
#include "server/net/shared_state.h"
#include "server/net/transport.h"

namespace cinq::net {

// Everything runs on the connection's strand (the socket's executor). Other threads reach the session only
// through send()/close()/shut_down(), which post there. Reads are sequential: the next async_read starts
// after Handler::on_message returns, which gives the application per-connection ordering for free.
class WsSession : public Connection, public Session, public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state, std::string address,
            AddressSlot slot);
  ~WsSession() override;

  // Accepts the upgrade `request` (already read by the HTTP session) and starts reading.
  void run(boost::beast::http::request<boost::beast::http::string_body> request);

  void send(std::shared_ptr<const std::string> text) override;
  using Connection::send;
  void close(int code, std::string reason) override;
  const std::string& address() const override { return address_; }
  std::uint64_t id() const override { return id_; }
  std::string device() const override { return device_; }

  void shut_down() override { close(1001, "server shutting down"); }
  void abandon() override { finish(); }

 private:
  void on_accept(boost::beast::error_code ec);
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void on_send(std::shared_ptr<const std::string> text);
  void do_write();
  void on_write(boost::beast::error_code ec, std::size_t bytes);
  void begin_close(int code, std::string reason);
  void do_close();
  void on_close(boost::beast::error_code ec);
  void tear_down();
  // The end of the connection, whichever way it came: tells the handler, once.
  void finish();
  void fail(boost::beast::error_code ec, const char* what);

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  // Forces the socket shut when a close handshake does not complete in time (a peer that stopped reading
  // never lets our pending write or close frame through).
  boost::asio::steady_timer close_deadline_;
  std::shared_ptr<SharedState> state_;
  const std::string address_;
  const std::uint64_t id_;
  AddressSlot slot_;
  std::string device_;  // the cinq_device cookie, set before the session opens, read-only after

  // The front message is the one being written; at most one write is in flight.
  Fifo<std::shared_ptr<const std::string>> queue_;
  bool opened_ = false;           // on_open was called
  bool finished_ = false;         // on_close was called (or the session never opened)
  bool close_requested_ = false;  // a close is pending behind the queue
  bool close_started_ = false;    // async_close is in flight
  boost::beast::websocket::close_reason close_reason_;
};

}  // namespace cinq::net
