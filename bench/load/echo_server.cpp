// cinq_echo: the baseline for cinq_load. A minimal WebSocket echo server on the same Boost.Beast build and
// in the same shape as cinq's transport (server/net: an HTTP session reads the upgrade request, one strand
// per connection, Beast's suggested timeouts, one write in flight behind a bounded queue of shared
// buffers, TCP_NODELAY), with nothing behind it: every text frame goes back to its sender. What cinq
// costs above this is the application.
//
// With --relay it is the relay baseline instead: the transport doing a turn's I/O. Each connection's first
// frame names its room and role ({"type":"hello","room":KEY,"role":I}, answered {"type":"welcome"}); each
// later frame is a turn ({"type":"act","t":T,"n":[M,O,S],"b":[BM,BO,BS]}) that the room, on its own strand
// as a cinq room, answers by sending its connections frames of the sizes asked, each built once and shared:
// M of BM bytes to the sender, O of BO bytes to the other player (role 0 or 1), S of BS bytes to each
// spectator. bench/load/relay_play.cpp is its client.
//
//   cinq_echo [--port 0] [--address 0.0.0.0] [--threads 2] [--relay]
//   prints "cinq_echo: listening on http://ADDRESS:PORT", stops on SIGINT/SIGTERM.
#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <charconv>
#include <cstdio>
#include <deque>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "bench/cli_args.h"

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
constexpr int kMaxFrames = 16;         // per recipient and turn
constexpr int kMaxFrameBytes = 60000;  // under a client's and cinq's limits

bool relay_mode = false;
std::atomic<bool> stopped{false};  // the I/O threads are done: sessions die without telling their rooms

class WsSession;

// The integer after `key` in `text`, or -1.
long long number_after(std::string_view text, std::string_view key) {
  const auto at = text.find(key);
  if (at == std::string_view::npos) return -1;
  long long v = -1;
  const char* begin = text.data() + at + key.size();
  std::from_chars(begin, text.data() + text.size(), v);
  return v;
}

// Three integers of `"key":[a,b,c]`; false if absent.
bool triple_after(std::string_view text, std::string_view key, std::array<int, 3>& out) {
  auto at = text.find(key);
  if (at == std::string_view::npos) return false;
  const char* p = text.data() + at + key.size();
  const char* end = text.data() + text.size();
  for (int i = 0; i < 3; ++i) {
    auto [next, ec] = std::from_chars(p, end, out[i]);
    if (ec != std::errc()) return false;
    p = next + 1;  // the ',' or ']'
  }
  return true;
}

// One relay room: its connections by role, touched only on its strand (a cinq room is a strand too).
class RelayRoom : public std::enable_shared_from_this<RelayRoom> {
 public:
  RelayRoom(asio::io_context& ioc, std::string key) : strand_(asio::make_strand(ioc)), key_(std::move(key)) {}

  template <class Fn>
  void post(Fn&& fn) {
    asio::post(strand_, std::forward<Fn>(fn));
  }
  const std::string& key() const { return key_; }

  void add(int role, std::weak_ptr<WsSession> session, const void* id) {
    members_.push_back({role, std::move(session), id});
  }
  // False once the room is empty.
  bool remove(const void* id) {
    std::erase_if(members_, [id](const Member& m) { return m.id == id; });
    return !members_.empty();
  }
  void relay(int sender_role, std::string_view text);

 private:
  struct Member {
    int role;
    std::weak_ptr<WsSession> session;
    const void* id;
  };

  asio::strand<asio::io_context::executor_type> strand_;
  std::string key_;
  std::vector<Member> members_;
};

class RelayRooms {
 public:
  explicit RelayRooms(asio::io_context& ioc) : ioc_(ioc) {}
  std::shared_ptr<RelayRoom> get(const std::string& key) {
    std::lock_guard lock(mutex_);
    auto& room = rooms_[key];
    if (!room) room = std::make_shared<RelayRoom>(ioc_, key);
    return room;
  }
  void erase(const std::shared_ptr<RelayRoom>& room) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(room->key());
    if (it != rooms_.end() && it->second == room) rooms_.erase(it);
  }

 private:
  asio::io_context& ioc_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<RelayRoom>> rooms_;
};

RelayRooms* relay_rooms = nullptr;

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  explicit WsSession(tcp::socket&& socket) : ws_(std::move(socket)) {}
  ~WsSession() {
    if (!room_ || stopped) return;
    room_->post([room = room_, id = static_cast<const void*>(this)] {
      if (!room->remove(id)) relay_rooms->erase(room);
    });
  }

  // As cinq's Connection::send: from any thread, onto the connection's strand.
  void send(std::shared_ptr<const std::string> text) {
    asio::post(ws_.get_executor(), [self = shared_from_this(), text = std::move(text)]() mutable {
      self->on_send(std::move(text));
    });
  }

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
    if (relay_mode) {
      std::string text = beast::buffers_to_string(buffer_.data());
      buffer_.consume(buffer_.size());
      relay_read(std::move(text));
      return do_read();
    }
    // As cinq does: the text leaves the read buffer as a shared string and is sent through a post to the
    // connection's strand (cinq's Connection::send may be called from any thread).
    auto text = std::make_shared<const std::string>(beast::buffers_to_string(buffer_.data()));
    buffer_.consume(buffer_.size());
    send(std::move(text));
    do_read();
  }

  // As cinq: the message is read on the connection's strand and handed to its room's strand.
  void relay_read(std::string text) {
    if (room_) {
      return room_->post([room = room_, role = role_, text = std::move(text)] { room->relay(role, text); });
    }
    const auto at = text.find(R"("room":")");
    const auto role = number_after(text, R"("role":)");
    if (at == std::string::npos || role < 0) return;  // not a hello: ignored
    const auto begin = at + 8;
    const auto end = text.find('"', begin);
    if (end == std::string::npos) return;
    room_ = relay_rooms->get(text.substr(begin, end - begin));
    role_ = static_cast<int>(role);
    room_->post([room = room_, role = role_, self = weak_from_this(), id = static_cast<const void*>(this)] {
      room->add(role, self, id);
      // Answered once it is in the room: its turns can then only reach the room after it.
      if (auto s = self.lock()) s->send(std::make_shared<const std::string>(R"({"type":"welcome"})"));
    });
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
  std::shared_ptr<RelayRoom> room_;  // relay mode, after the hello
  int role_ = -1;
};

// One frame of the relay: {"type":"relay","t":T,"k":LEFT,"pad":"xx..."}, `bytes` long (or just the
// header if that is longer).
std::shared_ptr<const std::string> relay_frame(long long turn, int left, int bytes) {
  char head[96];
  const int n = std::snprintf(head, sizeof head, R"({"type":"relay","t":%lld,"k":%d,"pad":")", turn, left);
  auto text = std::make_shared<std::string>(head, static_cast<std::size_t>(n));
  const int pad = std::max(0, bytes - n - 2);
  text->append(static_cast<std::size_t>(pad), 'x');
  text->append("\"}");
  return text;
}

void RelayRoom::relay(int sender_role, std::string_view text) {
  const long long turn = number_after(text, R"("t":)");
  std::array<int, 3> n{}, bytes{};
  if (turn < 0 || !triple_after(text, R"("n":[)", n) || !triple_after(text, R"("b":[)", bytes)) return;
  // Each role's frames are built once and shared by its connections, as cinq builds an event once for
  // the room (and once more, with `legal`, for the seat to move).
  std::array<std::vector<std::shared_ptr<const std::string>>, 3> frames;
  for (int r = 0; r < 3; ++r) {
    const int count = std::clamp(n[r], 0, kMaxFrames);
    const int size = std::clamp(bytes[r], 0, kMaxFrameBytes);
    if (r == 2 && count == n[0] && size == bytes[0]) {
      frames[2] = frames[0];
      continue;
    }
    for (int k = 0; k < count; ++k) frames[r].push_back(relay_frame(turn, count - 1 - k, size));
  }
  for (const auto& m : members_) {
    auto session = m.session.lock();
    if (!session) continue;
    const int r = m.role == sender_role ? 0 : m.role < 2 ? 1 : 2;
    for (const auto& f : frames[r]) session->send(f);
  }
}

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

}  // namespace

int main(int argc, char** argv) {
  int port = 0;
  int threads = 2;
  std::string address = "0.0.0.0";
  CLI::App app(
      "cinq_echo: the baselines of cinq_load, a WebSocket echo server (or, with --relay, a relay) "
      "in the shape of cinq's transport",
      "cinq_echo");
  app.add_option("--port", port, "port to listen on (default 0: any free one)")->check(CLI::Range(0, 65535));
  app.add_option("--address", address, "address to listen on (default 0.0.0.0)");
  app.add_option("--threads", threads, "I/O threads (default 2)")->check(CLI::Range(1, 64));
  app.add_flag("--relay", relay_mode,
               "relay turns to rooms instead of echoing (see bench/load/relay_play.cpp)");
  if (const int status = cinq::bench::parse_args(app, argc, argv); status >= 0) return status;

  try {
    asio::io_context ioc(threads);
    RelayRooms rooms(ioc);
    relay_rooms = &rooms;
    auto listener = std::make_shared<Listener>(
        ioc, tcp::endpoint(asio::ip::make_address(address), static_cast<std::uint16_t>(port)));
    listener->run();
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&ioc](beast::error_code, int) { ioc.stop(); });
    std::cout << "cinq_echo: " << (relay_mode ? "relaying" : "echoing") << ", listening on http://" << address
              << ":" << listener->port() << std::endl;
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i) pool.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : pool) t.join();
    stopped = true;
  } catch (const std::exception& e) {
    std::cerr << "cinq_echo: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
