// cinq_echo: the baseline for cinq_load. A minimal WebSocket echo server on the same Boost.Beast build and
// in the same shape as cinq's transport (server/net: an HTTP session reads the upgrade request, one strand
// per connection, Beast's suggested timeouts, one write in flight behind a bounded queue of shared
// buffers, TCP_NODELAY), with nothing behind it: every text frame goes back to its sender. What cinq
// costs above this is the application.
//
//   cinq_echo [--port 0] [--address 0.0.0.0] [--threads 2]
//   prints "cinq_echo: listening on http://ADDRESS:PORT", stops on SIGINT/SIGTERM.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <charconv>
#include <deque>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

// The same limits as cinq's defaults (server/net/transport.h, ServerConfig).
constexpr std::size_t kMaxMessage = 64 * 1024;
constexpr std::size_t kSendQueueMax = 512;
constexpr auto kHttpTimeout = std::chrono::seconds(30);

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  explicit WsSession(tcp::socket&& socket) : ws_(std::move(socket)) {}

  void run(http::request<http::string_body> request) {
    beast::get_lowest_layer(ws_).expires_never();
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(kMaxMessage);
    ws_.auto_fragment(false);
    ws_.text(true);
    ws_.async_accept(request, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
  }

 private:
  void on_accept(beast::error_code ec) {
    if (!ec) do_read();
  }

  void do_read() {
    ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec) return;
    // As cinq does: the text leaves the read buffer as a shared string and is sent through a post to the
    // connection's strand (cinq's Connection::send may be called from any thread).
    auto text = std::make_shared<const std::string>(beast::buffers_to_string(buffer_.data()));
    buffer_.consume(buffer_.size());
    asio::post(ws_.get_executor(), [self = shared_from_this(), text = std::move(text)]() mutable {
      self->on_send(std::move(text));
    });
    do_read();
  }

  void on_send(std::shared_ptr<const std::string> text) {
    if (queue_.size() >= kSendQueueMax) {
      beast::get_lowest_layer(ws_).close();  // too slow: dropped, as cinq drops it
      return;
    }
    queue_.push_back(std::move(text));
    if (queue_.size() == 1) do_write();
  }

  void do_write() {
    ws_.async_write(asio::buffer(*queue_.front()),
                    beast::bind_front_handler(&WsSession::on_write, shared_from_this()));
  }

  void on_write(beast::error_code ec, std::size_t) {
    if (ec) {
      queue_.clear();
      return;
    }
    queue_.pop_front();
    if (!queue_.empty()) do_write();
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  explicit HttpSession(tcp::socket&& socket) : stream_(std::move(socket)) {}

  void run() {
    parser_.emplace();
    parser_->header_limit(8 * 1024);
    stream_.expires_after(kHttpTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
  }

 private:
  void on_read(beast::error_code ec, std::size_t) {
    if (ec) return;
    auto& request = parser_->get();
    const std::string_view target = request.target();
    if (websocket::is_upgrade(request) && target.substr(0, target.find('?')) == "/ws") {
      stream_.expires_never();
      std::make_shared<WsSession>(stream_.release_socket())->run(parser_->release());
      return;
    }
    response_.version(request.version());
    response_.result(http::status::not_found);
    response_.set(http::field::content_type, "text/plain");
    response_.keep_alive(false);
    response_.body() = "not found\n";
    response_.prepare_payload();
    http::async_write(stream_, response_,
                      [self = shared_from_this()](beast::error_code, std::size_t) { self->stream_.close(); });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(asio::io_context& ioc, const tcp::endpoint& endpoint)
      : ioc_(ioc), acceptor_(asio::make_strand(ioc)) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(asio::socket_base::max_listen_connections);
  }

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  void run() { do_accept(); }

 private:
  void do_accept() {
    // Each connection gets its own strand, as in cinq.
    acceptor_.async_accept(asio::make_strand(ioc_),
                           beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
  }

  void on_accept(beast::error_code ec, tcp::socket socket) {
    if (!ec) {
      beast::error_code ignored;  // as cinq does (server/net/server.cpp)
      socket.set_option(tcp::no_delay(true), ignored);
      std::make_shared<HttpSession>(std::move(socket))->run();
    }
    if (ec == asio::error::operation_aborted) return;
    do_accept();
  }

  asio::io_context& ioc_;
  tcp::acceptor acceptor_;
};

int usage(const std::string& why) {
  std::cerr << "cinq_echo: " << why << "\nusage: cinq_echo [--port 0] [--address 0.0.0.0] [--threads 2]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int port = 0;
  int threads = 2;
  std::string address = "0.0.0.0";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage(a == "--help" ? "" : a + " needs a value");
    const std::string v = argv[++i];
    int* target = a == "--port" ? &port : a == "--threads" ? &threads : nullptr;
    if (a == "--address") {
      address = v;
    } else if (!target) {
      return usage("unknown argument '" + a + "'");
    } else if (std::from_chars(v.data(), v.data() + v.size(), *target).ec != std::errc()) {
      return usage(a + ": bad value '" + v + "'");
    }
  }
  if (port < 0 || port > 65535 || threads < 1 || threads > 64) return usage("bad --port or --threads");

  try {
    asio::io_context ioc(threads);
    auto listener = std::make_shared<Listener>(
        ioc, tcp::endpoint(asio::ip::make_address(address), static_cast<std::uint16_t>(port)));
    listener->run();
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&ioc](beast::error_code, int) { ioc.stop(); });
    std::cout << "cinq_echo: listening on http://" << address << ":" << listener->port() << std::endl;
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i) pool.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : pool) t.join();
  } catch (const std::exception& e) {
    std::cerr << "cinq_echo: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
