// The LMTP server (lmtp.h), in the shape of the transport's other sessions: an acceptor, one session per
// connection on a strand of its own, one write in flight, every handler holding its session.
#include "server/net/lmtp.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <deque>
#include <mutex>
#include <set>
#include <stdexcept>

#include "server/net/executor.h"

namespace cinq::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

namespace {

constexpr std::size_t kMaxLine = 2000;
constexpr auto kIdle = std::chrono::minutes(5);

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

// The address in "FROM:<a@b> SIZE=12" (after the colon), without <>; false if there is no path.
bool path_of(const std::string& args, std::string& address, std::string& rest) {
  const auto lt = args.find('<');
  const auto gt = args.find('>', lt == std::string::npos ? 0 : lt);
  if (lt == std::string::npos || gt == std::string::npos) return false;
  address = args.substr(lt + 1, gt - lt - 1);
  rest = args.substr(gt + 1);
  return true;
}

}  // namespace

class LmtpSession;

struct LmtpServer::Impl : std::enable_shared_from_this<LmtpServer::Impl> {
  Impl(asio::io_context& io, LmtpConfig c, LmtpCheckRecipient ch, LmtpDeliver d)
      : ioc(io), acceptor(asio::make_strand(io)), config(std::move(c)), check(std::move(ch)), deliver(std::move(d)) {}
  void accept();
  asio::io_context& ioc;
  tcp::acceptor acceptor;
  LmtpConfig config;
  LmtpCheckRecipient check;
  LmtpDeliver deliver;
  std::mutex mutex;
  std::set<std::shared_ptr<LmtpSession>> sessions;
  bool stopped = false;
};

class LmtpSession : public std::enable_shared_from_this<LmtpSession> {
 public:
  LmtpSession(tcp::socket&& socket, std::shared_ptr<LmtpServer::Impl> server)
      : socket_(std::move(socket)), idle_(socket_.get_executor()), server_(std::move(server)) {
    error_code ec;
    auto endpoint = socket_.remote_endpoint(ec);
    if (!ec) peer_ = endpoint.address().to_string();
  }

  // Starts on the session's own strand (the accepted socket's executor).
  void run() {
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->start(); });
  }

  void start() {
    write("220 " + server_->config.hostname + " LMTP Cinq ready");
    do_read();
  }

  void close() {
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->shut(); });
  }

 private:
  void shut() {
    error_code ec;
    idle_.cancel();
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    socket_.close(ec);
    std::lock_guard lock(server_->mutex);
    server_->sessions.erase(shared_from_this());
  }

  void do_read() {
    idle_.expires_after(kIdle);
    idle_.async_wait([self = shared_from_this()](error_code ec) {
      if (!ec) self->shut();
    });
    asio::async_read_until(socket_, buffer_, "\n",
                           [self = shared_from_this()](error_code ec, std::size_t n) { self->on_read(ec, n); });
  }

  void on_read(error_code ec, std::size_t n) {
    if (ec) return shut();
    std::string line(asio::buffers_begin(buffer_.data()), asio::buffers_begin(buffer_.data()) + static_cast<std::ptrdiff_t>(n));
    buffer_.consume(n);
    if (!line.empty() && line.back() == '\n') line.pop_back();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (in_data_) {
      data_line(line);
    } else if (line.size() > kMaxLine) {
      write("500 5.5.2 line too long");
      return close_after_write();
    } else {
      command(line);
    }
    if (!closing_ && !waiting_) do_read();
  }

  void data_line(const std::string& line) {
    if (line == ".") {
      in_data_ = false;
      return finish_data();
    }
    const std::size_t size = line.size() + 2;
    if (data_.size() + size > server_->config.max_message) {
      too_large_ = true;
      if (data_.size() + size > server_->config.max_message * 4) return close_after_write();  // past any sense
      return;
    }
    if (!too_large_) data_ += (line.rfind("..", 0) == 0 || line == ".." ? line.substr(1) : line) + "\r\n";
  }

  void finish_data() {
    if (too_large_) {
      for (std::size_t i = 0; i < rcpts_.size(); ++i) write("552 5.3.4 the mail is larger than " + std::to_string(server_->config.max_message) + " bytes");
      return reset();
    }
    LmtpMessage m{sender_, rcpts_, std::move(data_), peer_};
    const std::size_t count = rcpts_.size();
    reset();
    waiting_ = true;  // answered in order: nothing more is read until the replies are out
    server_->deliver(std::move(m), [self = shared_from_this(), count](std::vector<LmtpReply> replies) {
      asio::post(self->socket_.get_executor(), [self, count, replies = std::move(replies)] {
        for (std::size_t i = 0; i < count; ++i) {
          const LmtpReply r = i < replies.size() ? replies[i] : LmtpReply{451, "4.3.0 no answer"};
          self->write(std::to_string(r.code) + " " + r.text);
        }
        self->waiting_ = false;
        if (!self->closing_) self->do_read();
      });
    });
  }

  void command(const std::string& line) {
    const auto space = line.find(' ');
    const std::string verb = upper(line.substr(0, space));
    const std::string args = space == std::string::npos ? "" : line.substr(space + 1);
    if (verb == "LHLO") {
      const std::string& h = server_->config.hostname;
      write("250-" + h + "\r\n250-PIPELINING\r\n250-ENHANCEDSTATUSCODES\r\n250-8BITMIME\r\n250 SIZE " +
            std::to_string(server_->config.max_message));
      greeted_ = true;
    } else if (verb == "MAIL") {
      std::string address, rest;
      if (!greeted_) return write("503 5.5.1 LHLO first");
      if (mail_) return write("503 5.5.1 nested MAIL");
      if (upper(args).rfind("FROM:", 0) != 0 || !path_of(args, address, rest)) return write("501 5.5.4 MAIL FROM:<address>");
      const auto size_at = upper(rest).find("SIZE=");
      if (size_at != std::string::npos &&
          std::strtoull(rest.c_str() + size_at + 5, nullptr, 10) > server_->config.max_message)
        return write("552 5.3.4 the mail is larger than " + std::to_string(server_->config.max_message) + " bytes");
      sender_ = address;
      mail_ = true;
      write("250 2.1.0 ok");
    } else if (verb == "RCPT") {
      std::string address, rest;
      if (!mail_) return write("503 5.5.1 MAIL first");
      if (upper(args).rfind("TO:", 0) != 0 || !path_of(args, address, rest)) return write("501 5.5.4 RCPT TO:<address>");
      if (rcpts_.size() >= server_->config.max_recipients) return write("452 4.5.3 too many recipients");
      const LmtpReply r = server_->check(address);
      if (r.code >= 200 && r.code < 300) rcpts_.push_back(address);
      write(std::to_string(r.code) + " " + r.text);
    } else if (verb == "DATA") {
      if (rcpts_.empty()) return write("503 5.5.1 no valid recipients");
      in_data_ = true;
      data_.clear();
      too_large_ = false;
      write("354 end data with <CR><LF>.<CR><LF>");
    } else if (verb == "RSET") {
      reset();
      write("250 2.0.0 ok");
    } else if (verb == "NOOP") {
      write("250 2.0.0 ok");
    } else if (verb == "VRFY") {
      write("252 2.5.2 cannot verify");
    } else if (verb == "QUIT") {
      write("221 2.0.0 bye");
      close_after_write();
    } else {
      write("500 5.5.2 unknown command");
    }
  }

  void reset() {
    mail_ = false;
    sender_.clear();
    rcpts_.clear();
    data_.clear();
    too_large_ = false;
  }

  void write(std::string text) {
    queue_.push_back(std::move(text) + "\r\n");
    if (queue_.size() == 1) do_write();
  }

  void do_write() {
    asio::async_write(socket_, asio::buffer(queue_.front()), [self = shared_from_this()](error_code ec, std::size_t) {
      if (ec) return self->shut();
      self->queue_.pop_front();
      if (!self->queue_.empty()) return self->do_write();
      if (self->closing_) self->shut();
    });
  }

  void close_after_write() {
    closing_ = true;
    if (queue_.empty()) shut();
  }

  tcp::socket socket_;
  asio::steady_timer idle_;
  asio::streambuf buffer_{kMaxLine * 64};
  std::shared_ptr<LmtpServer::Impl> server_;
  std::string peer_;
  std::deque<std::string> queue_;
  bool greeted_ = false, mail_ = false, in_data_ = false, too_large_ = false, closing_ = false, waiting_ = false;
  std::string sender_, data_;
  std::vector<std::string> rcpts_;
};

void LmtpServer::Impl::accept() {
  acceptor.async_accept(asio::make_strand(ioc), [self = shared_from_this()](error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) {
      auto session = std::make_shared<LmtpSession>(std::move(socket), self);
      {
        std::lock_guard lock(self->mutex);
        if (self->stopped) return;
        self->sessions.insert(session);
      }
      session->run();
    } else {
      spdlog::warn("lmtp: accept failed: {}", ec.message());
    }
    self->accept();
  });
}

LmtpServer::LmtpServer(Server& server, LmtpConfig config, LmtpCheckRecipient check, LmtpDeliver deliver)
    : impl_(std::make_shared<Impl>(ServerAccess::io_context(server), std::move(config), std::move(check),
                                   std::move(deliver))) {
  error_code ec;
  const tcp::endpoint at(asio::ip::make_address(impl_->config.address, ec), impl_->config.port);
  const std::string where = impl_->config.address + ":" + std::to_string(impl_->config.port);
  if (ec) throw std::runtime_error("LMTP: bad address " + where);
  impl_->acceptor.open(at.protocol(), ec);
  if (!ec) impl_->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) impl_->acceptor.bind(at, ec);
  if (!ec) impl_->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw std::runtime_error("LMTP: cannot listen on " + where + ": " + ec.message());
  impl_->accept();
}

LmtpServer::~LmtpServer() {
  std::set<std::shared_ptr<LmtpSession>> sessions;
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopped = true;
    sessions.swap(impl_->sessions);
  }
  auto close = [impl = impl_] {
    error_code ec;
    impl->acceptor.close(ec);
  };
  if (impl_->ioc.stopped())
    close();  // the transport's threads are gone: nothing else touches it
  else
    asio::post(impl_->acceptor.get_executor(), close);
  for (const auto& s : sessions) s->close();
}

std::uint16_t LmtpServer::port() const { return impl_->acceptor.local_endpoint().port(); }

}  // namespace cinq::net
