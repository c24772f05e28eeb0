// The mail tests' throwaway Postfix (tests/support/postfix.h): the players' mailboxes, the game domain's
// mail through pipe(8) or over LMTP to a tiny responder of the test's, mail deferred while the game server is
// down and delivered once it is back, the MTA stopped and started on its port with its queue, two instances
// side by side, and what it refuses.
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/daemon.h"
#include "tests/support/postfix.h"
#include "tests/support/process.h"

namespace cinq::test {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Polls `ready` every 20 ms for up to `limit`; whether it became true.
template <class Ready>
bool eventually(Ready ready, Clock::duration limit = 10s) {
  const auto deadline = Clock::now() + limit;
  while (!ready()) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

std::string message(const std::string& to, const std::string& subject, const std::string& body) {
  return "From: Ann <ann@players.test>\r\nTo: " + to + "\r\nSubject: " + subject +
         "\r\nMessage-ID: <" + subject.substr(0, subject.find(' ')) + "@players.test>\r\n"
         "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n" + body;
}

// A blocking LMTP server on a thread (RFC 2033), on a port chosen by the test: every command is answered
// 250 (354 for DATA), and every message is kept with its recipients. A thread per connection, since Postfix
// keeps its connections open for a while.
class LmtpResponder {
 public:
  struct Delivery {
    std::vector<std::string> recipients;
    std::string data;  // as the client sent it, its dot-stuffing undone
  };

  explicit LmtpResponder(int port) : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    const int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd_, 16) != 0) {
      ::close(fd_);
      throw std::runtime_error("lmtp responder: cannot listen on 127.0.0.1:" + std::to_string(port));
    }
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~LmtpResponder() {
    stop_ = true;
    acceptor_.join();
    for (auto& t : sessions_) t.join();
    ::close(fd_);
  }
  LmtpResponder(const LmtpResponder&) = delete;
  LmtpResponder& operator=(const LmtpResponder&) = delete;

  std::vector<Delivery> deliveries() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return deliveries_;
  }
  // Waits up to `limit` for `n` deliveries.
  std::vector<Delivery> wait_for(std::size_t n, Clock::duration limit = 20s) const {
    eventually([&] { return deliveries().size() >= n; }, limit);
    return deliveries();
  }

 private:
  void accept_loop() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c >= 0) sessions_.emplace_back([this, c] { session(c); });
    }
  }

  void session(int c) {
    std::string buffer;
    // The next line without its CRLF, false once the client has gone (or the responder stops).
    auto line = [&](std::string& out) {
      for (;;) {
        const auto end = buffer.find("\r\n");
        if (end != std::string::npos) {
          out = buffer.substr(0, end);
          buffer.erase(0, end + 2);
          return true;
        }
        pollfd p{c, POLLIN, 0};
        if (stop_) return false;
        if (::poll(&p, 1, 50) <= 0) continue;
        char chunk[4096];
        const ssize_t n = ::recv(c, chunk, sizeof chunk, 0);
        if (n <= 0) return false;
        buffer.append(chunk, static_cast<std::size_t>(n));
      }
    };
    auto say = [&](const std::string& text) {
      const ssize_t sent = ::send(c, text.data(), text.size(), MSG_NOSIGNAL);
      (void)sent;
    };
    say("220 lmtp.test LMTP ready\r\n");
    Delivery current;
    for (std::string command; line(command);) {
      const std::string verb = command.substr(0, 4);
      if (verb == "LHLO") {
        say("250-lmtp.test\r\n250 ENHANCEDSTATUSCODES\r\n");
      } else if (verb == "MAIL") {
        current = {};
        say("250 2.1.0 Ok\r\n");
      } else if (verb == "RCPT") {
        current.recipients.push_back(command.substr(command.find(':') + 1));
        say("250 2.1.5 Ok\r\n");
      } else if (verb == "DATA") {
        say("354 Go ahead\r\n");
        std::string text;
        bool whole = false;
        while (line(text)) {
          if (text == ".") {
            whole = true;
            break;
          }
          current.data += (text.rfind("..", 0) == 0 ? text.substr(1) : text) + "\r\n";
        }
        if (!whole) break;
        for (std::size_t i = 0; i < current.recipients.size(); ++i) say("250 2.0.0 Delivered\r\n");
        std::lock_guard<std::mutex> lock(mutex_);
        deliveries_.push_back(current);
      } else if (verb == "QUIT") {
        say("221 2.0.0 Bye\r\n");
        break;
      } else {
        say("250 2.0.0 Ok\r\n");  // RSET, NOOP
      }
    }
    ::close(c);
  }

  int fd_;
  std::atomic<bool> stop_{false};
  std::thread acceptor_;
  std::vector<std::thread> sessions_;  // the acceptor's alone until it is joined
  mutable std::mutex mutex_;
  std::vector<Delivery> deliveries_;
};

}  // namespace

TEST_CASE("postfix: a message to a player's address arrives whole in that player's own mailbox") {
  Postfix mta;
  CHECK(mta.smtp_url() == "smtp://127.0.0.1:" + std::to_string(mta.smtp_port()));
  const std::string body = "Hello Ann,\r\n.a line that starts with a dot\r\n..and two\r\n\r\nA/e8 i8/\r\n";
  const std::string reply = mta.send("ben@players.test", "ann@players.test",
                                     message("ann@players.test", "m1 your move in Tablut", body));
  CHECK_MESSAGE(reply.rfind("250 2.0.0 Ok: queued as ", 0) == 0, reply);
  // Bare LF line ends are sent as CRLF too.
  CHECK(mta.send("ann@players.test", "Zoe.Q@players.test", "Subject: m2 lf\n\n.one\nline\n").rfind("250", 0) == 0);

  const auto ann = mta.wait_for_mail("ann", 1);
  REQUIRE(ann.size() == 1);
  INFO(ann[0]);
  CHECK(ann[0].rfind("Return-Path: <ben@players.test>\n", 0) == 0);
  CHECK(has(ann[0], "\nDelivered-To: ann@players.test\n"));
  CHECK(has(ann[0], "\nSubject: m1 your move in Tablut\n"));
  CHECK(has(ann[0], "\nMessage-ID: <m1@players.test>\n"));
  // The body as it was written (Maildir lines end in LF; the dots unstuffed).
  CHECK(has(ann[0], "\n\nHello Ann,\n.a line that starts with a dot\n..and two\n\nA/e8 i8/\n"));
  const auto zoe = mta.wait_for_mail("zoe.q", 1);
  CHECK(has(zoe[0], "\n\n.one\nline\n"));
  CHECK(mta.mailbox("ZOE.Q").size() == 1);  // an address's case does not matter
  CHECK(mta.mailbox("ben").empty());
  CHECK(mta.mailbox("an").empty());
  CHECK(eventually([&] { return mta.queued() == 0; }));
  CHECK(eventually([&] { return has(mta.log(), "status=sent (delivered to maildir)"); }));
}

TEST_CASE("postfix: mail for any other domain and for an unknown player is refused by its SMTP server") {
  PostfixOptions options;
  options.message_size_limit = 64 * 1024;
  Postfix mta(options);
  const std::string body = message("x@example.com", "m1 hi", "hi\r\n");
  const std::string relay = mta.send("ann@players.test", "x@example.com", body);
  CHECK_MESSAGE(relay.rfind("554 5.7.1 ", 0) == 0, relay);
  CHECK(has(relay, "Relay access denied"));
  const std::string sub = mta.send("ann@players.test", "x@sub.play.test", body);
  CHECK_MESSAGE(sub.rfind("554 5.7.1 ", 0) == 0, sub, mta.log());
  CHECK(mta.send("ann@players.test", "x@players.test.example.com", body).rfind("554 5.7.1 ", 0) == 0);
  const std::string unknown = mta.send("ann@players.test", "nobody@players.test", body);
  CHECK_MESSAGE(unknown.rfind("550 5.1.1 ", 0) == 0, unknown);
  const std::string big = mta.send("ann@players.test", "ben@players.test",
                                   message("ben@players.test", "m2 big", std::string(100 * 1024, 'x') + "\r\n"));
  CHECK_MESSAGE(big.rfind("552 5.3.4 ", 0) == 0, big);
  // The refused mail's queue file goes once Postfix's cleanup has finished with it, a moment after the 552.
  CHECK(eventually([&] { return mta.queued() == 0; }));
  CHECK(mta.mailbox("ben").empty());
}

TEST_CASE("postfix: its configuration passes postfix check without a word and it logs to its own file") {
  Postfix mta;
  TempDir out;
  Daemon check;
  check.start({find_program("postfix", "postfix"), "-c", mta.config_dir(), "check"}, out.path() + "/check.log");
  CHECK(eventually([&] { return !check.running(); }));
  CHECK(check.how_it_ended() == "exited with status 0");
  CHECK(file_text(out.path() + "/check.log") == "");
  // Its log is its own file, and what it says there names its own configuration.
  CHECK(has(mta.log(), "daemon started -- version 3."));
  CHECK(has(mta.log(), "configuration " + mta.config_dir()));
  CHECK_FALSE(has(mta.log(), "warning"));
}

TEST_CASE("postfix: mail for the game domain reaches the pipe command with its recipient and sender") {
  TempDir out;
  ::chmod(out.path().c_str(), 0777);  // the command runs as nobody
  PostfixOptions options;
  options.pipe_argv = {"/bin/sh", "-c", "cat > " + out.path() + "/piped-\"$$1\" && echo \"$$2\" > " + out.path() +
                                            "/sender-\"$$1\"",
                       "sh", "${recipient}", "${sender}"};
  Postfix mta(options);
  const std::string to = "play+x.0.tag@play.test";
  const std::string reply = mta.send("ann@players.test", to, message(to, "m1 A/e8 i8/", "A/e8 i8/\r\n"));
  CHECK_MESSAGE(reply.rfind("250 ", 0) == 0, reply);
  const std::string piped = out.path() + "/piped-" + to;
  // Delivered once the command has ended (then both files are whole).
  REQUIRE_MESSAGE(eventually([&] { return has(mta.log(), "status=sent (delivered via cinqpipe service)"); }),
                  mta.log());
  const std::string text = file_text(piped);
  INFO(text);
  CHECK(text.rfind("Return-Path: <ann@players.test>\n", 0) == 0);  // flags=R
  CHECK(has(text, "\nSubject: m1 A/e8 i8/\n"));
  CHECK(has(text, "\n\nA/e8 i8/\n"));
  CHECK(file_text(out.path() + "/sender-" + to) == "ann@players.test\n");
  CHECK(eventually([&] { return mta.queued() == 0; }));
  CHECK(mta.mailbox("play+x.0.tag").empty());
}

TEST_CASE("postfix: mail for the game domain is delivered over LMTP to the responder of the test") {
  const int port = free_local_port();
  LmtpResponder lmtp(port);
  PostfixOptions options;
  options.lmtp = "127.0.0.1:" + std::to_string(port);
  Postfix mta(options);
  const std::string to = "play+r1.1.abc@play.test";
  CHECK(mta.send("ben@players.test", to, message(to, "m1 move", "B/c1 c4/\r\n.dot\r\n")).rfind("250 ", 0) == 0);
  const auto got = lmtp.wait_for(1);
  REQUIRE_MESSAGE(got.size() == 1, mta.log());
  CHECK(got[0].recipients == std::vector<std::string>{"<" + to + ">"});
  CHECK(has(got[0].data, "\r\nSubject: m1 move\r\n"));
  CHECK(has(got[0].data, "\r\n\r\nB/c1 c4/\r\n.dot\r\n"));
  CHECK(eventually([&] { return mta.queued() == 0; }));
  // The players' mail still goes to their mailboxes.
  mta.send("cinq@play.test", "ben@players.test", message("ben@players.test", "m2 your turn", "go\r\n"));
  CHECK(mta.wait_for_mail("ben", 1).size() == 1);
  CHECK(lmtp.deliveries().size() == 1);
}

TEST_CASE("postfix: mail waits in its queue while the game server and the MTA are down and arrives after") {
  const int port = free_local_port();  // nobody listens there yet
  PostfixOptions options;
  options.lmtp = "127.0.0.1:" + std::to_string(port);
  Postfix mta(options);
  const int smtp = mta.smtp_port();
  const std::string to = "play+r1.0.abc@play.test";
  CHECK(mta.send("ann@players.test", to, message(to, "m1 move", "A/e8 i8/\r\n")).rfind("250 ", 0) == 0);
  CHECK_MESSAGE(eventually([&] { return has(mta.log(), "status=deferred"); }), mta.log());
  CHECK(mta.queued() == 1);

  // The MTA goes away: its port refuses, and its queue stays.
  mta.stop();
  CHECK_FALSE(mta.running());
  CHECK_FALSE(accepts_connections(smtp));
  CHECK_THROWS_AS(mta.send("ann@players.test", to, message(to, "m2 lost", "x\r\n")), std::runtime_error);
  CHECK(mta.queued() == 1);
  mta.start();
  CHECK(mta.smtp_port() == smtp);
  CHECK(accepts_connections(smtp));
  CHECK(mta.queued() == 1);

  // The game server comes back; flushed, the mail is delivered.
  LmtpResponder lmtp(port);
  mta.flush();
  const auto got = lmtp.wait_for(1);
  REQUIRE_MESSAGE(got.size() == 1, mta.log());
  CHECK(has(got[0].data, "\r\nSubject: m1 move\r\n"));
  CHECK(eventually([&] { return mta.queued() == 0; }));
  std::this_thread::sleep_for(500ms);
  CHECK(lmtp.deliveries().size() == 1);  // once
}

TEST_CASE("postfix: two instances at once do not see each other's mail") {
  Postfix one, two;
  CHECK(one.smtp_port() != two.smtp_port());
  CHECK(one.config_dir() != two.config_dir());
  CHECK(one.send("ben@players.test", "ann@players.test", message("ann@players.test", "m1 one", "one\r\n"))
            .rfind("250 ", 0) == 0);
  CHECK(two.send("ben@players.test", "ann@players.test", message("ann@players.test", "m2 two", "two\r\n"))
            .rfind("250 ", 0) == 0);
  const auto a = one.wait_for_mail("ann", 1);
  const auto b = two.wait_for_mail("ann", 1);
  std::this_thread::sleep_for(500ms);
  REQUIRE(one.mailbox("ann").size() == 1);
  REQUIRE(two.mailbox("ann").size() == 1);
  CHECK(has(a[0], "Subject: m1 one"));
  CHECK(has(b[0], "Subject: m2 two"));
  // One stopped, the other still takes mail.
  one.stop();
  CHECK_FALSE(accepts_connections(one.smtp_port()));
  CHECK(two.send("ben@players.test", "sue@players.test", message("sue@players.test", "m3 three", "3\r\n"))
            .rfind("250 ", 0) == 0);
  CHECK(two.wait_for_mail("sue", 1).size() == 1);
  CHECK(one.mailbox("sue").empty());
}

}  // namespace cinq::test
