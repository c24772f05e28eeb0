// The LMTP server (lmtp.h), in the shape of the transport's other sessions (Beast's chat-multi): a listener
// accepting on its own strand, one session per connection on a strand of its own, every handler holding its
// session, one write in flight with the replies batched behind it, and the state they share.
#include "server/net/lmtp.h"

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <cctype>
#include <exception>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "server/net/acceptor.h"
#include "server/net/executor.h"
#include "server/net/shared_state.h"

namespace cinq::net {

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

constexpr std::size_t kMaxCommandLine = 2000;
// The streambuf's cap: a command line must fit in it; a longer data line is taken in pieces of this size.
constexpr std::size_t kMaxBuffer = 64 * 1024;
// Replies the client has not taken yet (a pipelining client that never reads): reading waits past this.
constexpr std::size_t kMaxBacklog = 64 * 1024;
constexpr std::size_t kMaxPath = 256;  // RFC 5321 4.5.3.1.3
constexpr std::size_t kMaxReplyText = 400;
constexpr int kMaxErrors = 10;             // bad commands before the connection is closed (421)
constexpr std::size_t kMaxSessions = 256;  // Postfix opens 20 to one destination by default
constexpr auto kIdle = std::chrono::minutes(5);
constexpr auto kDelivery = std::chrono::minutes(10);  // Postfix's lmtp_data_done_timeout: it gave up by then
constexpr auto kLinger = std::chrono::seconds(2);     // after the last reply, for the client to take it
// The same when the server stops: an MTA's cached connection reads the 421 only when it next uses it, and the
// process should not wait for that.
constexpr auto kStopLinger = std::chrono::milliseconds(200);
constexpr auto kAcceptBackoff = std::chrono::milliseconds(100);

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

// "FROM:<a@b> SIZE=12" after `keyword`: the address without <> (a source route dropped) and what follows;
// false if there is no path. A '>' inside a quoted local part does not end it.
bool read_path(std::string_view args, std::string_view keyword, std::string& address,
               std::string_view& rest) {
  if (args.size() < keyword.size() || upper(args.substr(0, keyword.size())) != keyword) return false;
  args.remove_prefix(keyword.size());
  while (!args.empty() && args.front() == ' ') args.remove_prefix(1);  // "FROM: <a>", tolerated
  if (args.empty() || args.front() != '<') return false;
  bool quoted = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == '\\' && quoted) {
      ++i;
    } else if (args[i] == '"') {
      quoted = !quoted;
    } else if (args[i] == '>' && !quoted) {
      std::string_view path = args.substr(1, i - 1);
      if (path.starts_with('@')) {  // "<@relay,@relay:user@host>" (RFC 5321 4.1.2): the route is ignored
        const auto colon = path.find(':');
        if (colon == std::string_view::npos) return false;
        path.remove_prefix(colon + 1);
      }
      address.assign(path);
      rest = args.substr(i + 1);
      return true;
    }
  }
  return false;
}

bool valid_path(const std::string& address) {
  return address.size() <= kMaxPath && std::none_of(address.begin(), address.end(), is_control);
}

// The ESMTP parameters after a path: "SIZE=12 BODY=8BITMIME" as (KEY, value) pairs, keys uppercased.
std::vector<std::pair<std::string, std::string>> parameters(std::string_view rest) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!rest.empty()) {
    const auto start = rest.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    rest.remove_prefix(start);
    const std::string_view word = rest.substr(0, rest.find(' '));
    rest.remove_prefix(word.size());
    const auto eq = word.find('=');
    out.emplace_back(upper(word.substr(0, eq)),
                     eq == std::string_view::npos ? "" : std::string(word.substr(eq + 1)));
  }
  return out;
}

// An application's reply as one line on the wire: a code LMTP can take here, no line breaks in the text.
LmtpReply checked(LmtpReply r) {
  if (r.code < 200 || r.code > 599 || r.code / 100 == 3) return {451, "4.3.0 try again later"};
  std::replace_if(r.text.begin(), r.text.end(), is_control, ' ');
  if (r.text.size() > kMaxReplyText) r.text.resize(kMaxReplyText);
  if (r.text.empty())
    r.text = r.code < 300 ? "2.0.0 ok" : r.code < 500 ? "4.0.0 try again later" : "5.0.0 refused";
  return r;
}

class LmtpSession;

// What the listener and the sessions share: the configuration, the counters, the application's callbacks
// and the live sessions. The callbacks run under `calls_` (shared), so that once stop() has returned none is
// running and none will start: the application that gave them may go.
class LmtpState {
 public:
  LmtpState(LmtpConfig config, LmtpCheckRecipient check, LmtpDeliver deliver)
      : config_(std::move(config)), check_(std::move(check)), deliver_(std::move(deliver)) {
    if (!deliver_) throw std::invalid_argument("LMTP: no deliver function");
  }

  const LmtpConfig& config() const { return config_; }
  LmtpServer::Counters& counters() { return counters_; }
  // A byte count past which a message being refused for its size is no longer read: the connection closes.
  std::size_t hard_cap() const { return config_.max_message * 4 + 1024 * 1024; }

  // nullopt once stopped.
  std::optional<LmtpReply> check(const std::string& recipient) {
    std::shared_lock lock(calls_);
    if (stopped_) return std::nullopt;
    if (!check_) return LmtpReply{250, "2.1.5 ok"};
    return check_(recipient);
  }
  // false once stopped (the message was not handed over).
  bool deliver(LmtpMessage message, std::function<void(std::vector<LmtpReply>)> done) {
    std::shared_lock lock(calls_);
    if (stopped_) return false;
    deliver_(std::move(message), std::move(done));
    return true;
  }

  // Runs `f` unless the server has stopped, and keeps stop() from returning while it runs: a delivery's
  // answer, which may come from any thread at any time, reaches its session's executor only while the
  // transport's io_context is sure to be alive. A lock of its own, apart from `calls_`, since `deliver`
  // may answer at once, from within the call.
  template <class F>
  void while_running(F&& f) {
    std::shared_lock lock(answers_);
    if (!answers_stopped_) f();
  }

  enum class Join { ok, full, stopping };
  Join join(std::uint64_t id, std::weak_ptr<LmtpSession> session) {
    std::lock_guard lock(sessions_mutex_);
    if (stopping_) return Join::stopping;
    if (sessions_.size() >= kMaxSessions) return Join::full;
    sessions_.emplace(id, std::move(session));
    return Join::ok;
  }
  void leave(std::uint64_t id) {
    std::lock_guard lock(sessions_mutex_);
    sessions_.erase(id);
  }
  std::uint64_t next_id() { return next_id_.fetch_add(1) + 1; }

  // No session joins after this, no callback runs after it returns; the sessions alive now are returned.
  std::vector<std::shared_ptr<LmtpSession>> stop() {
    std::vector<std::shared_ptr<LmtpSession>> live;
    {
      std::lock_guard lock(sessions_mutex_);
      stopping_ = true;
      for (auto& [id, weak] : sessions_)
        if (auto session = weak.lock()) live.push_back(std::move(session));
    }
    std::unique_lock lock(calls_);
    stopped_ = true;
    check_ = {};
    deliver_ = {};
    lock.unlock();
    std::lock_guard answers(answers_);
    answers_stopped_ = true;
    return live;
  }

 private:
  const LmtpConfig config_;
  LmtpServer::Counters counters_;
  std::shared_mutex calls_;
  bool stopped_ = false;
  LmtpCheckRecipient check_;
  LmtpDeliver deliver_;
  std::shared_mutex answers_;
  bool answers_stopped_ = false;
  std::mutex sessions_mutex_;
  bool stopping_ = false;
  std::unordered_map<std::uint64_t, std::weak_ptr<LmtpSession>> sessions_;
  std::atomic<std::uint64_t> next_id_{0};
};

// One connection. Everything runs on its strand (the socket's executor): `deliver`'s answer and the server's
// stop come back to it by post. Lines are read with async_read_until into a capped streambuf, and every
// complete line already there is handled before the next read (PIPELINING), their replies going out together.
class LmtpSession : public std::enable_shared_from_this<LmtpSession> {
 public:
  LmtpSession(tcp::socket&& socket, std::shared_ptr<LmtpState> state)
      : socket_(std::move(socket)),
        executor_(socket_.get_executor()),
        timer_(executor_),
        state_(std::move(state)),
        id_(state_->next_id()) {
    error_code ec;
    const auto endpoint = socket_.remote_endpoint(ec);
    peer_ = ec ? "unknown" : endpoint.address().to_string();
    socket_.set_option(tcp::no_delay(true), ec);  // replies are small and each one is waited for
  }
  ~LmtpSession() { state_->leave(id_); }

  void run() {
    asio::dispatch(executor_, [self = shared_from_this()] { self->start(); });
  }

  // Any thread: 421, then the connection closes (a delivery not yet answered is left to the MTA's retry).
  void shut_down() {
    asio::post(executor_, [self = shared_from_this()] {
      self->stopping_ = true;
      if (self->closing_) return self->arm_timer();
      self->reply(421, "4.3.2 " + self->state_->config().hostname + " shutting down");
      self->close_after_write();
      self->flush();
    });
  }

 private:
  using Command = void (LmtpSession::*)(std::string_view args);

  void start() {
    switch (state_->join(id_, weak_from_this())) {
      case LmtpState::Join::stopping:
        return abort();
      case LmtpState::Join::full:
        reply(421, "4.3.2 too many connections, try again later");
        close_after_write();
        return flush();
      case LmtpState::Join::ok:
        break;
    }
    state_->counters().connections.fetch_add(1);
    reply(220, state_->config().hostname + " LMTP Cinq ready");
    process();
  }

  // Handles the complete lines already read, then reads more, unless a delivery or a backlog of replies
  // holds it. Never called while a read is in flight: the streambuf is the read's until it completes.
  void process() {
    if (!reading_ && !closing_) {
      std::string line;
      bool crlf = false;
      while (!closing_ && !delivering_ && backlog() < kMaxBacklog && take_line(line, crlf)) {
        if (in_data_) {
          on_data_line(line, crlf);
        } else {
          on_command(line);
        }
      }
      if (!closing_ && !delivering_ && backlog() < kMaxBacklog) do_read();
    }
    flush();
  }

  bool take_line(std::string& line, bool& crlf) {
    const std::string_view data(static_cast<const char*>(buffer_.data().data()), buffer_.size());
    const auto lf = data.find('\n');
    if (lf == std::string_view::npos) return false;
    std::string_view text = data.substr(0, lf);
    crlf = text.ends_with('\r');
    if (crlf) text.remove_suffix(1);
    line.assign(text);
    buffer_.consume(lf + 1);
    return true;
  }

  void do_read() {
    reading_ = true;
    if (!closing_) arm_timer();  // closing: the linger timer stands
    asio::async_read_until(socket_, buffer_, '\n',
                           [self = shared_from_this()](error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(error_code ec) {
    reading_ = false;
    if (closing_) {  // after the last reply: whatever comes is dropped until the client closes
      buffer_.consume(buffer_.size());
      if (!ec || ec == asio::error::not_found) return do_read();
      if (shut_) abort();  // else the last replies are still going out: flush() closes after them
      return;
    }
    if (ec == asio::error::not_found) {  // kMaxBuffer bytes and no line end
      if (!in_data_) {
        reply(500, "5.5.2 line too long");
        close_after_write();
        return flush();
      }
      on_data_piece();
    } else if (ec == asio::error::eof) {
      close_after_write();  // the client is done sending: answer what it sent, then close
    } else if (ec) {
      fail(ec, "read");
      return abort();
    }
    process();
  }

  void on_command(const std::string& line) {
    if (line.size() > kMaxCommandLine) {
      reply(500, "5.5.2 line too long");
      return close_after_write();
    }
    static constexpr std::pair<std::string_view, Command> kCommands[] = {
        {"LHLO", &LmtpSession::lhlo}, {"MAIL", &LmtpSession::mail}, {"RCPT", &LmtpSession::rcpt},
        {"DATA", &LmtpSession::data}, {"RSET", &LmtpSession::rset}, {"NOOP", &LmtpSession::noop},
        {"VRFY", &LmtpSession::vrfy}, {"QUIT", &LmtpSession::quit},
    };
    const auto space = line.find(' ');
    const std::string verb = upper(std::string_view(line).substr(0, space));
    const std::string_view args = space == std::string::npos ? "" : std::string_view(line).substr(space + 1);
    for (const auto& [name, command] : kCommands)
      if (verb == name) return (this->*command)(args);
    error(500, "5.5.2 command not recognized");
  }

  void lhlo(std::string_view args) {
    if (args.find_first_not_of(' ') == std::string_view::npos)
      return error(501, "5.5.4 LHLO needs a host name");
    reset_transaction();  // as EHLO does (RFC 5321 4.1.4)
    greeted_ = true;
    reply(250, state_->config().hostname, false);
    reply(250, "PIPELINING", false);
    reply(250, "ENHANCEDSTATUSCODES", false);
    reply(250, "8BITMIME", false);
    reply(250, "SIZE " + std::to_string(state_->config().max_message));
  }

  void mail(std::string_view args) {
    if (!greeted_) return error(503, "5.5.1 LHLO first");
    if (in_mail_) return error(503, "5.5.1 nested MAIL command");
    std::string sender;
    std::string_view rest;
    if (!read_path(args, "FROM:", sender, rest)) return error(501, "5.5.4 syntax: MAIL FROM:<address>");
    if (!valid_path(sender)) return error(553, "5.1.7 bad sender address");
    for (const auto& [key, value] : parameters(rest)) {
      if (key == "SIZE") {
        if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
          return error(501, "5.5.4 bad SIZE parameter");
        if (value.size() > 18 || std::stoull(value) > state_->config().max_message) {
          state_->counters().refused_size.fetch_add(1);
          return reply(552, too_big());
        }
      } else if (key == "BODY") {
        const std::string body = upper(value);
        if (body != "7BIT" && body != "8BITMIME") return error(501, "5.5.4 BODY is 7BIT or 8BITMIME");
      } else {
        return error(555, "5.5.4 unsupported MAIL parameter " + key);
      }
    }
    sender_ = std::move(sender);
    in_mail_ = true;
    reply(250, "2.1.0 sender ok");
  }

  void rcpt(std::string_view args) {
    if (!in_mail_) return error(503, "5.5.1 MAIL first");
    std::string recipient;
    std::string_view rest;
    if (!read_path(args, "TO:", recipient, rest)) return error(501, "5.5.4 syntax: RCPT TO:<address>");
    if (!parameters(rest).empty()) return error(555, "5.5.4 RCPT takes no parameters here");
    if (recipient.empty() || !valid_path(recipient)) return error(501, "5.1.3 bad recipient address");
    if (recipients_.size() >= state_->config().max_recipients) return reply(452, "4.5.3 too many recipients");
    std::optional<LmtpReply> answer;
    try {
      answer = state_->check(recipient);
    } catch (const std::exception& e) {
      fail("check", e.what());
      answer = LmtpReply{451, "4.3.0 try again later"};
    }
    if (!answer) return abort();  // the server is stopping
    const LmtpReply r = checked(std::move(*answer));
    if (r.code / 100 == 2) recipients_.push_back(std::move(recipient));
    reply(r.code, r.text);
  }

  void data(std::string_view args) {
    if (!args.empty()) return error(501, "5.5.4 DATA takes no arguments");
    if (!in_mail_) return error(503, "5.5.1 MAIL first");
    if (recipients_.empty()) return error(503, "5.5.1 no valid recipients");
    in_data_ = true;
    at_line_start_ = true;
    too_large_ = false;
    received_ = 0;
    data_.clear();
    reply(354, "end data with <CR><LF>.<CR><LF>");
  }

  void rset(std::string_view) {
    reset_transaction();
    reply(250, "2.0.0 ok");
  }
  void noop(std::string_view) { reply(250, "2.0.0 ok"); }
  void vrfy(std::string_view) { reply(252, "2.5.2 cannot verify, but will take the message and try"); }
  void quit(std::string_view) {
    reply(221, "2.0.0 " + state_->config().hostname + " closing");
    close_after_write();
  }

  // One line of the message. Only ".\r\n" at the start of a line ends it (a bare LF does not: no smuggled
  // end of data); a leading dot is the client's stuffing and goes (RFC 5321 4.5.2).
  void on_data_line(std::string_view line, bool crlf) {
    received_ += line.size() + (crlf ? 2 : 1);
    if (at_line_start_) {
      if (line == "." && crlf) return end_of_data();
      if (line.starts_with('.')) line.remove_prefix(1);
    }
    at_line_start_ = true;
    append(line);
    append("\r\n");
    if (received_ > state_->hard_cap()) refuse_data();
  }

  // A data line longer than the buffer: what is there is a piece of it (but a CR that may be the start of
  // its CRLF waits for the rest).
  void on_data_piece() {
    std::string_view piece(static_cast<const char*>(buffer_.data().data()), buffer_.size());
    if (piece.ends_with('\r')) piece.remove_suffix(1);
    const std::size_t taken = piece.size();
    received_ += taken;
    if (at_line_start_ && piece.starts_with('.')) piece.remove_prefix(1);
    at_line_start_ = false;
    append(piece);
    buffer_.consume(taken);
    if (received_ > state_->hard_cap()) refuse_data();
  }

  void append(std::string_view text) {
    if (too_large_) return;
    if (data_.size() + text.size() > state_->config().max_message) {
      too_large_ = true;  // read on and drop, to answer 552 at the end
      std::string().swap(data_);
      return;
    }
    data_ += text;
  }

  // Past the hard cap: 552 for each recipient and close, without reading the rest.
  void refuse_data() {
    state_->counters().refused_size.fetch_add(1);
    for (std::size_t i = 0; i < recipients_.size(); ++i) reply(552, too_big());
    in_data_ = false;
    reset_transaction();
    close_after_write();
  }

  void end_of_data() {
    in_data_ = false;
    const std::size_t count = recipients_.size();
    if (too_large_) {
      state_->counters().refused_size.fetch_add(1);
      for (std::size_t i = 0; i < count; ++i) reply(552, too_big());
      return reset_transaction();
    }
    LmtpMessage message{std::move(sender_), std::move(recipients_), std::move(data_), peer_};
    reset_transaction();
    delivering_ = true;  // nothing more is read until the replies are out: they come in order
    expected_ = count;
    arm_timer();
    // `done` holds the session weakly, and reaches it only while the server runs: called late, after the
    // server stopped, it does nothing. The session it finds goes whole into the posted handler, so that the
    // calling thread never holds the last reference to a session (and its timer and socket) once the
    // transport's io_context may be gone.
    auto once = std::make_shared<std::atomic<bool>>(false);
    auto done = [state = state_, weak = weak_from_this(), once](std::vector<LmtpReply> replies) {
      if (once->exchange(true)) return;
      state->while_running([&] {
        auto self = weak.lock();
        if (!self) return;
        auto executor = self->executor_;
        asio::post(executor, [self = std::move(self), replies = std::move(replies)]() mutable {
          self->on_delivered(std::move(replies));
        });
      });
    };
    state_->counters().messages.fetch_add(1);
    try {
      if (!state_->deliver(std::move(message), std::move(done))) return abort();  // stopping
    } catch (const std::exception& e) {
      fail("deliver", e.what());
      if (!once->exchange(true)) {
        delivering_ = false;
        for (std::size_t i = 0; i < count; ++i) reply(451, "4.3.0 try again later");
      }
    }
  }

  void on_delivered(std::vector<LmtpReply> replies) {
    if (closing_ || !delivering_) return;
    delivering_ = false;
    for (std::size_t i = 0; i < expected_; ++i) {
      const LmtpReply r = checked(i < replies.size() ? std::move(replies[i])
                                                     : LmtpReply{451, "4.3.0 no answer for this recipient"});
      reply(r.code, r.text);
    }
    process();  // commands pipelined after the message wait in the buffer
  }

  void reset_transaction() {
    in_mail_ = false;
    sender_.clear();
    recipients_.clear();
    std::string().swap(data_);
  }

  std::string too_big() const {
    return "5.3.4 message too big: the limit is " + std::to_string(state_->config().max_message) + " bytes";
  }

  // Replies are queued; flush() sends them, all at once, at the end of each handler.
  void reply(int code, std::string_view text, bool last = true) {
    pending_ += std::to_string(code);
    pending_ += last ? ' ' : '-';
    pending_ += text;
    pending_ += "\r\n";
  }

  // A bad command: after kMaxErrors of them the client is not an MTA worth talking to.
  void error(int code, std::string_view text) {
    reply(code, text);
    if (++errors_ < kMaxErrors) return;
    reply(421, "4.7.0 too many errors, closing");
    close_after_write();
  }

  std::size_t backlog() const { return pending_.size() + writing_.size(); }

  void flush() {
    if (!writing_.empty() || !socket_.is_open()) return;
    if (!pending_.empty()) return do_write();
    if (closing_ && !shut_) finish_close();
  }

  void do_write() {
    writing_.swap(pending_);
    asio::async_write(socket_, asio::buffer(writing_),
                      [self = shared_from_this()](error_code ec, std::size_t) { self->on_write(ec); });
  }

  void on_write(error_code ec) {
    writing_.clear();
    if (ec) {
      fail(ec, "write");
      return abort();
    }
    process();  // reading may have waited for this write (a backlog); flush() sends what queued meanwhile
  }

  // The idle deadline while the client is expected to send, the delivery's while `deliver` works, and the
  // linger while closing; one timer, re-armed for whichever applies now.
  void arm_timer() {
    std::chrono::milliseconds wait = delivering_ ? kDelivery : kIdle;
    if (closing_) wait = stopping_ ? kStopLinger : kLinger;
    timer_.expires_after(wait);
    timer_.async_wait([self = shared_from_this()](error_code ec) { self->on_timer(ec); });
  }

  void on_timer(error_code ec) {
    if (ec || timer_.expiry() > std::chrono::steady_clock::now()) return;  // cancelled, or re-armed since
    if (closing_ || delivering_) return abort();
    reply(421, "4.4.2 idle for too long, closing");
    close_after_write();
    flush();
  }

  void close_after_write() {
    if (closing_) return;
    closing_ = true;
    arm_timer();
  }

  // The last reply is out: no more to send, and the client's remaining bytes are read and dropped until it
  // closes (closing with unread bytes would reset the connection, and could lose that reply).
  void finish_close() {
    shut_ = true;
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    if (!reading_) do_read();
  }

  void abort() {
    closing_ = shut_ = true;
    error_code ignored;
    timer_.cancel();
    socket_.close(ignored);
  }

  // The one place a session logs: a failed read or write (a peer going away is not worth a line), or an
  // exception from the application's callback.
  void fail(error_code ec, std::string_view what) { log_failure("lmtp " + peer_, what, ec); }
  void fail(std::string_view what, std::string_view message) { log_failure("lmtp " + peer_, what, message); }

  tcp::socket socket_;
  const asio::any_io_executor executor_;  // the connection's strand
  asio::steady_timer timer_;
  asio::streambuf buffer_{kMaxBuffer};
  std::shared_ptr<LmtpState> state_;
  const std::uint64_t id_;
  std::string peer_;
  std::string pending_, writing_;  // replies queued; the write in flight
  bool reading_ = false, delivering_ = false, closing_ = false, shut_ = false, stopping_ = false;
  int errors_ = 0;
  // The transaction (RFC 5321 3.3).
  bool greeted_ = false, in_mail_ = false, in_data_ = false, at_line_start_ = true, too_large_ = false;
  std::string sender_;
  std::vector<std::string> recipients_;
  std::string data_;
  std::size_t received_ = 0;  // bytes of DATA read, stuffing and line ends included
  std::size_t expected_ = 0;  // replies `deliver` owes
};

// The accept loop, as the transport's own (server.cpp): the acceptor on its own strand, so that stop() may
// close it from any thread; a failed accept waits a little instead of spinning on the error.
class LmtpListener : public std::enable_shared_from_this<LmtpListener> {
 public:
  LmtpListener(asio::io_context& ioc, std::shared_ptr<LmtpState> state)
      : ioc_(ioc),
        acceptor_(asio::make_strand(ioc)),
        backoff_(acceptor_.get_executor()),
        state_(std::move(state)) {
    const LmtpConfig& config = state_->config();
    port_ = open_acceptor(acceptor_, config.address, config.port, "LMTP: ");
  }

  std::uint16_t port() const { return port_; }

  void run() {
    asio::dispatch(acceptor_.get_executor(), [self = shared_from_this()] { self->do_accept(); });
  }

  void stop() {
    asio::post(acceptor_.get_executor(), [self = shared_from_this()] {
      error_code ignored;
      self->acceptor_.close(ignored);
      self->backoff_.cancel();
    });
  }

 private:
  void do_accept() {
    if (!acceptor_.is_open()) return;
    acceptor_.async_accept(asio::make_strand(ioc_),
                           [self = shared_from_this()](error_code ec, tcp::socket socket) {
                             self->on_accept(ec, std::move(socket));
                           });
  }

  void on_accept(error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (ec) {
      log_failure("lmtp listener", "accept", ec);
      backoff_.expires_after(kAcceptBackoff);
      backoff_.async_wait([self = shared_from_this()](error_code wait_ec) {
        if (!wait_ec) self->do_accept();
      });
      return;
    }
    std::make_shared<LmtpSession>(std::move(socket), state_)->run();
    do_accept();
  }

  asio::io_context& ioc_;
  tcp::acceptor acceptor_;
  asio::steady_timer backoff_;
  std::shared_ptr<LmtpState> state_;
  std::uint16_t port_ = 0;
};

}  // namespace

struct LmtpServer::Impl {
  std::shared_ptr<LmtpState> state;
  std::shared_ptr<LmtpListener> listener;
};

LmtpServer::LmtpServer(Server& server, LmtpConfig config, LmtpCheckRecipient check, LmtpDeliver deliver)
    : impl_(std::make_unique<Impl>()) {
  impl_->state = std::make_shared<LmtpState>(std::move(config), std::move(check), std::move(deliver));
  impl_->listener = std::make_shared<LmtpListener>(ServerAccess::io_context(server), impl_->state);
  impl_->listener->run();
}

// The acceptor and the sessions close on their strands, soon; the callbacks are already out of reach. If the
// transport's threads have stopped, they go with its io_context instead.
LmtpServer::~LmtpServer() { stop(); }

void LmtpServer::stop() {
  impl_->listener->stop();
  for (const auto& session : impl_->state->stop()) session->shut_down();
}

std::uint16_t LmtpServer::port() const { return impl_->listener->port(); }

const LmtpServer::Counters& LmtpServer::counters() const { return impl_->state->counters(); }

}  // namespace cinq::net
