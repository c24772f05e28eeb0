#include "bench/load/ws_conn.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <deque>
#include <thread>

namespace cinq::load {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

struct Loop::Impl {
  asio::io_context ioc{1};  // one thread per loop: the concurrency hint lets Asio skip its locks
  asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(ioc);
  std::thread thread;
};

Loop::Loop() : impl_(std::make_unique<Impl>()) {}

Loop::~Loop() { stop(); }

void Loop::start() {
  impl_->thread = std::thread([this] { impl_->ioc.run(); });
}

void Loop::stop() {
  impl_->work.reset();
  impl_->ioc.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

void Loop::post(std::function<void()> fn) { asio::post(impl_->ioc, std::move(fn)); }

void Loop::after(Clock::duration delay, std::function<void()> fn) {
  auto timer = std::make_shared<asio::steady_timer>(impl_->ioc, delay);
  timer->async_wait([timer, fn = std::move(fn)](beast::error_code ec) {
    if (!ec) fn();
  });
}

namespace {

class ConnImpl final : public Conn, public std::enable_shared_from_this<ConnImpl> {
 public:
  ConnImpl(asio::io_context& ioc, ConnListener* listener) : ws_(ioc), listener_(listener) {}

  void start(const Target& target, Clock::duration timeout, const std::string& source) {
    host_ = target.host + ":" + std::to_string(target.port);
    path_ = target.path;
    beast::error_code ec;
    auto address = asio::ip::make_address(target.host == "localhost" ? "127.0.0.1" : target.host, ec);
    if (ec) {
      // Reported from the loop, never from inside open(): the caller has not stored the connection yet.
      return asio::post(ws_.get_executor(), [self = shared_from_this(), ec] { self->fail("connect", ec); });
    }
    if (!source.empty()) bind_source(source, ec);
    if (ec) {
      return asio::post(ws_.get_executor(), [self = shared_from_this(), ec] { self->fail("bind", ec); });
    }
    beast::get_lowest_layer(ws_).expires_after(timeout);
    // An open socket is connected as it is: from the address bound above.
    beast::get_lowest_layer(ws_).async_connect(
        tcp::endpoint(address, target.port),
        [self = shared_from_this()](beast::error_code e) { self->on_connect(e); });
  }

  void send(std::string text) override {
    if (closed_) return;
    queue_.push_back(std::move(text));
    if (queue_.size() == 1) do_write();
  }

  void detach() override { listener_ = nullptr; }

  void close() override {
    detach();
    if (closed_) return;
    closed_ = true;
    open_ = false;
    beast::get_lowest_layer(ws_).close();
  }

  bool open_now() const override { return open_; }

 private:
  // Binds the socket to `source`, port 0. IP_BIND_ADDRESS_NO_PORT defers the choice of the port to
  // connect(), which then only needs the whole 4-tuple to be free: without it bind() reserves a port for
  // the address alone, and sockets in TIME_WAIT from an earlier phase would use the range up.
  void bind_source(const std::string& source, beast::error_code& ec) {
    const auto address = asio::ip::make_address(source, ec);
    if (ec) return;
    auto& socket = beast::get_lowest_layer(ws_).socket();
    socket.open(address.is_v4() ? tcp::v4() : tcp::v6(), ec);
    if (ec) return;
#ifdef IP_BIND_ADDRESS_NO_PORT
    const int one = 1;
    ::setsockopt(socket.native_handle(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
#endif
    socket.bind(tcp::endpoint(address, 0), ec);
  }

  void on_connect(beast::error_code ec) {
    if (ec) return fail("connect", ec);
    // The client must not add delays of its own to what it measures.
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ignored);
    ws_.async_handshake(host_, path_,
                        [self = shared_from_this()](beast::error_code e) { self->on_handshake(e); });
  }

  void on_handshake(beast::error_code ec) {
    if (ec) return fail("handshake", ec);
    beast::get_lowest_layer(ws_).expires_never();  // Beast's websocket timeouts take over
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    ws_.read_message_max(16 * 1024 * 1024);
    ws_.auto_fragment(false);
    ws_.text(true);
    open_ = true;
    if (listener_) listener_->on_open(*this);
    if (!closed_) do_read();
  }

  void do_read() {
    ws_.async_read(buffer_,
                   [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    const auto at = Clock::now();
    if (ec) return fail("read", ec);
    const auto data = buffer_.cdata();
    if (listener_) listener_->on_message(*this, {static_cast<const char*>(data.data()), data.size()}, at);
    buffer_.consume(buffer_.size());
    if (!closed_) do_read();
  }

  void do_write() {
    ws_.async_write(asio::buffer(queue_.front()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
  }

  void on_write(beast::error_code ec) {
    if (ec) {
      queue_.clear();
      return;  // the pending read fails too and reports it
    }
    queue_.pop_front();
    if (!queue_.empty()) do_write();
  }

  void fail(const char* what, beast::error_code ec) {
    const bool was_closed = closed_;
    closed_ = true;
    open_ = false;
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    if (was_closed || !listener_) return;
    ConnListener* l = listener_;
    listener_ = nullptr;
    l->on_close(*this, std::string(what) + ": " + ec.message());
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  ConnListener* listener_;
  std::string host_;
  std::string path_;
  bool open_ = false;
  bool closed_ = false;
};

}  // namespace

std::shared_ptr<Conn> Conn::open(Loop& loop, const Target& target, ConnListener* listener,
                                 Clock::duration connect_timeout, const std::string& source) {
  auto c = std::make_shared<ConnImpl>(loop.impl().ioc, listener);
  c->start(target, connect_timeout, source);
  return c;
}

}  // namespace cinq::load
