// The LMTP server (server/net/lmtp.h) on a real transport, over real sockets: a small blocking client of our
// own speaks RFC 2033 to it, well and badly, and the deliveries the application would get are recorded.
#include "server/net/lmtp.h"
#include "tests/support/daemon.h"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "server/net/transport.h"

namespace cinq::test {
namespace {

using namespace std::chrono_literals;
using Done = std::function<void(std::vector<net::LmtpReply>)>;

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout = 5s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

// The transport needs an application; these tests speak only LMTP.
class NoHandler : public net::Handler {
 public:
  void on_open(const std::shared_ptr<net::Connection>&) override {}
  void on_message(const std::shared_ptr<net::Connection>&, std::string) override {}
  void on_close(const std::shared_ptr<net::Connection>&) override {}
  void on_http(net::HttpRequest, std::function<void(net::HttpResponse)> respond) override { respond({404}); }
};

// A game seat's address is seat+...@play.test; anything else is refused at RCPT, as the application does.
net::LmtpReply check_seat(const std::string& recipient) {
  if (recipient.starts_with("seat+") && recipient.ends_with("@play.test")) return {250, "2.1.5 seat ok"};
  return {550, "5.1.1 no such game seat"};
}

// A transport on a free port with an LmtpServer on it, running on its own thread; the messages delivered are
// kept. By default each recipient is answered at once "250 2.0.0 played for RCPT"; `answer` replaces that.
class LmtpFixture {
 public:
  using Answer = std::function<void(const net::LmtpMessage&, Done)>;

  explicit LmtpFixture(net::LmtpConfig config = {}, Answer answer = {})
      : server_(transport_config(), handler_), answer_(std::move(answer)) {
    lmtp_ = std::make_unique<net::LmtpServer>(server_, std::move(config), check_seat,
                                              [this](net::LmtpMessage message, Done done) {
                                                {
                                                  std::lock_guard lock(mutex_);
                                                  messages_.push_back(message);
                                                }
                                                if (answer_) return answer_(message, std::move(done));
                                                std::vector<net::LmtpReply> replies;
                                                for (const auto& r : message.recipients)
                                                  replies.push_back({250, "2.0.0 played for " + r});
                                                done(std::move(replies));
                                              });
    thread_ = std::thread([this] { server_.run({}); });
  }
  ~LmtpFixture() {
    lmtp_.reset();
    server_.stop();
    thread_.join();
  }

  std::uint16_t port() const { return port_ ? port_ : lmtp_->port(); }
  const net::LmtpServer::Counters& counters() const { return lmtp_->counters(); }
  std::vector<net::LmtpMessage> messages() {
    std::lock_guard lock(mutex_);
    return messages_;
  }
  // Stops the LMTP server alone (the transport runs on).
  void stop_lmtp() {
    port_ = lmtp_->port();
    lmtp_.reset();
  }

 private:
  static net::ServerConfig transport_config() {
    net::ServerConfig config;
    config.address = "127.0.0.1";
    config.port = 0;
    config.threads = 2;
    return config;
  }

  NoHandler handler_;
  net::Server server_;
  Answer answer_;
  std::unique_ptr<net::LmtpServer> lmtp_;
  std::uint16_t port_ = 0;
  std::mutex mutex_;
  std::vector<net::LmtpMessage> messages_;
  std::thread thread_;
};

// A blocking LMTP client on a plain socket. Reads time out after 5 s.
class Client {
 public:
  explicit Client(std::uint16_t port) : fd_(connect_loopback(port)), connected_(fd_ >= 0) {}
  ~Client() { ::close(fd_); }

  bool connected() const { return connected_; }

  // False if the server closed the connection meanwhile.
  bool send(const std::string& bytes) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      const auto n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<std::size_t>(n);
    }
    return true;
  }

  // One reply line without its CRLF; "" at the end of the stream or after the timeout.
  std::string line() {
    std::size_t end;
    while ((end = pending_.find("\r\n")) == std::string::npos) {
      if (!fill()) return "";
    }
    std::string line = pending_.substr(0, end);
    pending_.erase(0, end + 2);
    return line;
  }

  // A whole reply, its lines joined by "\n" ("250-cinq\n250-PIPELINING\n...\n250 SIZE 262144").
  std::string reply() {
    std::string whole;
    for (;;) {
      const std::string next = line();
      whole += next;
      if (next.size() < 4 || next[3] != '-') return whole;
      whole += '\n';
    }
  }

  std::string command(const std::string& text) {
    send(text + "\r\n");
    return reply();
  }

  // The greeting and LHLO, checked.
  void hello() {
    CHECK(reply().starts_with("220 "));
    CHECK(command("LHLO mta.example.org").starts_with("250-"));
  }

  // True once the server has closed the connection (whatever it still had to say is skipped).
  bool closed() {
    pending_.clear();
    for (;;) {
      char buffer[4096];
      const auto n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n > 0) continue;
      return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
    }
  }

 private:
  bool fill() {
    char buffer[4096];
    const auto n = ::recv(fd_, buffer, sizeof buffer, 0);
    if (n <= 0) return false;
    pending_.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  int fd_;
  bool connected_ = false;
  std::string pending_;
};

std::string code(const std::string& reply) { return reply.substr(0, 3); }

}  // namespace

TEST_CASE("lmtp: a whole session hands the message to its accepted recipient and answers once for it") {
  LmtpFixture lmtp;
  Client client(lmtp.port());
  CHECK(client.reply() == "220 cinq LMTP Cinq ready");
  CHECK(client.command("LHLO mta.example.org") ==
        "250-cinq\n250-PIPELINING\n250-ENHANCEDSTATUSCODES\n250-8BITMIME\n250 SIZE 262144");
  CHECK(client.command("MAIL FROM:<ann@example.org> BODY=8BITMIME") == "250 2.1.0 sender ok");
  CHECK(client.command("RCPT TO:<seat+g1.0.tag@play.test>") == "250 2.1.5 seat ok");
  CHECK(client.command("RCPT TO:<bob@example.org>") == "550 5.1.1 no such game seat");
  CHECK(code(client.command("DATA")) == "354");
  // A line starting with a dot is stuffed by the client (RFC 5321 4.5.2): one more dot in front.
  client.send("Subject: my turn\r\n\r\n..a line with a dot\r\n...\r\n.\r\n");
  CHECK(client.reply() == "250 2.0.0 played for seat+g1.0.tag@play.test");  // one reply: one recipient
  CHECK(client.command("QUIT") == "221 2.0.0 cinq closing");
  CHECK(client.closed());

  const auto messages = lmtp.messages();
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].sender == "ann@example.org");
  CHECK(messages[0].recipients == std::vector<std::string>{"seat+g1.0.tag@play.test"});
  CHECK(messages[0].data == "Subject: my turn\r\n\r\n.a line with a dot\r\n..\r\n");
  CHECK(messages[0].peer == "127.0.0.1");
  CHECK(lmtp.counters().connections == 1);
  CHECK(lmtp.counters().messages == 1);
}

TEST_CASE("lmtp: the replies after the data follow the recipients' order, whatever each one's outcome") {
  LmtpFixture lmtp({}, [](const net::LmtpMessage&, Done done) {
    // One reply short, one with a code LMTP cannot take, one with a line break in its text.
    done({{250, "2.0.0 turn played"}, {550, "5.1.1 no such\r\ngame seat"}});
  });
  Client client(lmtp.port());
  client.hello();
  CHECK(code(client.command("MAIL FROM:<ann@example.org>")) == "250");
  for (const char* seat : {"seat+a@play.test", "seat+b@play.test", "seat+c@play.test"})
    CHECK(code(client.command(std::string("RCPT TO:<") + seat + ">")) == "250");
  CHECK(code(client.command("DATA")) == "354");
  client.send("hello\r\n.\r\n");
  CHECK(client.reply() == "250 2.0.0 turn played");
  CHECK(client.reply() == "550 5.1.1 no such  game seat");
  CHECK(client.reply() == "451 4.3.0 no answer for this recipient");
  CHECK(code(client.command("NOOP")) == "250");
}

TEST_CASE("lmtp: pipelined commands in one write are answered in order") {
  LmtpFixture lmtp;
  Client client(lmtp.port());
  CHECK(code(client.reply()) == "220");
  client.send(
      "LHLO mta.example.org\r\nMAIL FROM:<ann@example.org> SIZE=40\r\nRCPT TO:<seat+a@play.test>\r\n"
      "RCPT TO:<nobody@play.test>\r\nRCPT TO:<seat+b@play.test>\r\nDATA\r\n");
  CHECK(client.reply().ends_with("250 SIZE 262144"));
  CHECK(client.reply() == "250 2.1.0 sender ok");
  CHECK(client.reply() == "250 2.1.5 seat ok");
  CHECK(client.reply() == "550 5.1.1 no such game seat");
  CHECK(client.reply() == "250 2.1.5 seat ok");
  CHECK(code(client.reply()) == "354");
  client.send(
      "Subject: both\r\n\r\nmoves\r\n.\r\nNOOP\r\nVRFY seat+a@play.test\r\nRSET\r\nMAIL "
      "FROM:<x@y>\r\nQUIT\r\n");
  CHECK(client.reply() == "250 2.0.0 played for seat+a@play.test");
  CHECK(client.reply() == "250 2.0.0 played for seat+b@play.test");
  CHECK(client.reply() == "250 2.0.0 ok");
  CHECK(code(client.reply()) == "252");
  CHECK(client.reply() == "250 2.0.0 ok");
  CHECK(client.reply() == "250 2.1.0 sender ok");
  CHECK(code(client.reply()) == "221");
  CHECK(client.closed());
  REQUIRE(lmtp.messages().size() == 1);
  CHECK(lmtp.messages()[0].data == "Subject: both\r\n\r\nmoves\r\n");
}

TEST_CASE("lmtp: DATA without an accepted recipient is 503, as is every command out of order") {
  LmtpFixture lmtp;
  Client client(lmtp.port());
  CHECK(code(client.reply()) == "220");
  CHECK(client.command("MAIL FROM:<ann@example.org>") == "503 5.5.1 LHLO first");
  CHECK(code(client.command("LHLO mta")) == "250");
  CHECK(client.command("RCPT TO:<seat+a@play.test>") == "503 5.5.1 MAIL first");
  CHECK(client.command("DATA") == "503 5.5.1 MAIL first");
  CHECK(code(client.command("MAIL FROM:<ann@example.org>")) == "250");
  CHECK(client.command("MAIL FROM:<ann@example.org>") == "503 5.5.1 nested MAIL command");
  CHECK(client.command("DATA") == "503 5.5.1 no valid recipients");
  CHECK(code(client.command("RCPT TO:<nobody@example.org>")) == "550");
  CHECK(client.command("DATA") == "503 5.5.1 no valid recipients");
  // RSET ends the transaction: a recipient needs a MAIL again.
  CHECK(client.command("RSET") == "250 2.0.0 ok");
  CHECK(client.command("RCPT TO:<seat+a@play.test>") == "503 5.5.1 MAIL first");
  CHECK(lmtp.messages().empty());
}

TEST_CASE("lmtp: unknown commands are 500, bad syntax 501, unknown parameters 555") {
  LmtpFixture lmtp;
  Client client(lmtp.port());
  CHECK(code(client.reply()) == "220");
  CHECK(client.command("EHLO mta") == "500 5.5.2 command not recognized");  // LMTP's is LHLO (RFC 2033 4.1)
  CHECK(client.command("STARTTLS") == "500 5.5.2 command not recognized");
  CHECK(code(client.command("LHLO")) == "501");
  CHECK(code(client.command("lhlo mta")) == "250");  // verbs are case-insensitive
  CHECK(code(client.command("MAIL FROM:ann@example.org")) == "501");
  CHECK(code(client.command("MAIL FROM:<ann@example.org> SIZE=lots")) == "501");
  CHECK(code(client.command("MAIL FROM:<ann@example.org> RET=HDRS")) == "555");
  CHECK(code(client.command("mail from: <ann@example.org> size=10")) == "250");
  CHECK(code(client.command("RCPT TO:<>")) == "501");
  CHECK(code(client.command("RCPT TO:<seat+a@play.test> NOTIFY=NEVER")) == "555");
  CHECK(code(client.command("RCPT TO:<@relay.example.org:seat+a@play.test>")) == "250");  // a source route
  CHECK(code(client.command("DATA now")) == "501");
  CHECK(code(client.command("DATA")) == "354");
  client.send(".\r\n");
  CHECK(code(client.reply()) == "250");
  REQUIRE(lmtp.messages().size() == 1);
  CHECK(lmtp.messages()[0].recipients == std::vector<std::string>{"seat+a@play.test"});
  CHECK(lmtp.messages()[0].data.empty());
}

TEST_CASE("lmtp: a message over max_message is 552 for each recipient and never delivered") {
  net::LmtpConfig config;
  config.max_message = 1024;
  LmtpFixture lmtp(config);
  Client client(lmtp.port());
  CHECK(code(client.reply()) == "220");
  CHECK(client.command("LHLO mta").ends_with("250 SIZE 1024"));
  CHECK(code(client.command("MAIL FROM:<ann@example.org>")) == "250");
  CHECK(code(client.command("RCPT TO:<seat+a@play.test>")) == "250");
  CHECK(code(client.command("RCPT TO:<seat+b@play.test>")) == "250");
  CHECK(code(client.command("DATA")) == "354");
  std::string body;
  for (int i = 0; i < 100; ++i) body += "a line of a message far too long for this server\r\n";
  client.send(body + ".\r\n");
  CHECK(client.reply() == "552 5.3.4 message too big: the limit is 1024 bytes");
  CHECK(client.reply() == "552 5.3.4 message too big: the limit is 1024 bytes");
  CHECK(lmtp.messages().empty());
  CHECK(lmtp.counters().refused_size == 1);
  CHECK(lmtp.counters().messages == 0);

  // The session goes on: a message at the limit exactly is taken.
  CHECK(code(client.command("MAIL FROM:<ann@example.org>")) == "250");
  CHECK(code(client.command("RCPT TO:<seat+a@play.test>")) == "250");
  CHECK(code(client.command("DATA")) == "354");
  const std::string line(1022, 'x');
  client.send(line + "\r\n.\r\n");
  CHECK(code(client.reply()) == "250");
  REQUIRE(lmtp.messages().size() == 1);
  CHECK(lmtp.messages()[0].data == line + "\r\n");
}

TEST_CASE("lmtp: MAIL FROM with a SIZE over the limit is 552 at once") {
  net::LmtpConfig config;
  config.max_message = 1000;
  LmtpFixture lmtp(config);
  Client client(lmtp.port());
  client.hello();
  CHECK(client.command("MAIL FROM:<ann@example.org> SIZE=1001") ==
        "552 5.3.4 message too big: the limit is 1000 bytes");
  CHECK(code(client.command("MAIL FROM:<ann@example.org> SIZE=99999999999999999999")) == "552");
  CHECK(code(client.command("MAIL FROM:<ann@example.org> SIZE=-5")) == "501");
  CHECK(client.command("MAIL FROM:<ann@example.org> SIZE=1000") == "250 2.1.0 sender ok");
  CHECK(lmtp.counters().refused_size == 2);
}

TEST_CASE("lmtp: a second message follows the first on the same connection") {
  LmtpFixture lmtp;
  Client client(lmtp.port());
  client.hello();
  for (int i = 1; i <= 2; ++i) {
    const std::string n = std::to_string(i);
    CHECK(code(client.command("MAIL FROM:<player" + n + "@example.org>")) == "250");
    CHECK(code(client.command("RCPT TO:<seat+" + n + "@play.test>")) == "250");
    CHECK(code(client.command("DATA")) == "354");
    client.send("Subject: turn " + n + "\r\n\r\nmove " + n + "\r\n.\r\n");
    CHECK(client.reply() == "250 2.0.0 played for seat+" + n + "@play.test");
  }
  const auto messages = lmtp.messages();
  REQUIRE(messages.size() == 2);
  CHECK(messages[1].sender == "player2@example.org");
  CHECK(messages[1].recipients == std::vector<std::string>{"seat+2@play.test"});
  CHECK(messages[1].data == "Subject: turn 2\r\n\r\nmove 2\r\n");
  CHECK(lmtp.counters().messages == 2);
  CHECK(lmtp.counters().connections == 1);
}

TEST_CASE("lmtp: done may come later from another thread, and commands pipelined behind wait for it") {
  std::mutex mutex;
  std::vector<std::thread> threads;
  std::atomic<bool> answered{false};
  {
    LmtpFixture lmtp({}, [&](const net::LmtpMessage& message, Done done) {
      std::lock_guard lock(mutex);
      threads.emplace_back([&answered, done = std::move(done), count = message.recipients.size()] {
        std::this_thread::sleep_for(300ms);
        answered = true;
        done(std::vector<net::LmtpReply>(count, {250, "2.0.0 played later"}));
        done({{550, "5.0.0 a second call is ignored"}});
      });
    });
    Client client(lmtp.port());
    client.hello();
    client.send(
        "MAIL FROM:<ann@example.org>\r\nRCPT TO:<seat+a@play.test>\r\nRCPT "
        "TO:<seat+b@play.test>\r\nDATA\r\n");
    CHECK(code(client.reply()) == "250");
    CHECK(code(client.reply()) == "250");
    CHECK(code(client.reply()) == "250");
    CHECK(code(client.reply()) == "354");
    client.send("move\r\n.\r\nNOOP\r\n");
    CHECK(client.reply() == "250 2.0.0 played later");
    CHECK(answered);
    CHECK(client.reply() == "250 2.0.0 played later");
    CHECK(client.reply() == "250 2.0.0 ok");          // the NOOP, after the replies it was sent behind
    CHECK(client.command("NOOP") == "250 2.0.0 ok");  // and nothing of the second call
  }
  for (auto& thread : threads) thread.join();
}

TEST_CASE("lmtp: garbage and overlong lines close the connection, and the server takes the next one") {
  LmtpFixture lmtp;
  {
    Client client(lmtp.port());
    CHECK(code(client.reply()) == "220");
    std::string garbage;
    for (int i = 0; i < 12; ++i) garbage += std::string("\x01\xff\x80 GET / HTTP/1.1\0junk\r\n", 25);
    client.send(garbage);
    for (int i = 0; i < 10; ++i) CHECK(code(client.reply()) == "500");
    CHECK(client.reply() == "421 4.7.0 too many errors, closing");
    CHECK(client.closed());
  }
  {
    Client client(lmtp.port());
    CHECK(code(client.reply()) == "220");
    client.send("LHLO " + std::string(3000, 'a') + "\r\n");
    CHECK(client.reply() == "500 5.5.2 line too long");
    CHECK(client.closed());
  }
  {
    Client client(lmtp.port());  // a line that never ends
    CHECK(code(client.reply()) == "220");
    client.send(std::string(200 * 1024, 'b'));
    CHECK(client.reply() == "500 5.5.2 line too long");
    CHECK(client.closed());
  }
  {
    Client client(lmtp.port());  // a client that goes away mid-message
    client.hello();
    client.send("MAIL FROM:<a@b>\r\nRCPT TO:<seat+a@play.test>\r\nDATA\r\nhalf a mess");
  }
  Client client(lmtp.port());
  client.hello();
  CHECK(client.command("QUIT") == "221 2.0.0 cinq closing");
  CHECK(lmtp.messages().empty());
  CHECK(lmtp.counters().connections == 5);
}

TEST_CASE("lmtp: the null sender <> is an empty sender") {
  LmtpFixture lmtp;
  Client client(lmtp.port());
  client.hello();
  CHECK(client.command("MAIL FROM:<>") == "250 2.1.0 sender ok");
  CHECK(code(client.command("RCPT TO:<seat+a@play.test>")) == "250");
  CHECK(code(client.command("DATA")) == "354");
  client.send("Subject: Delivery Status Notification\r\n\r\nbounced\r\n.\r\n");
  CHECK(code(client.reply()) == "250");
  REQUIRE(lmtp.messages().size() == 1);
  CHECK(lmtp.messages()[0].sender.empty());
}

TEST_CASE("lmtp: a RCPT beyond max_recipients is 452, and the accepted ones are delivered") {
  net::LmtpConfig config;
  config.max_recipients = 2;
  LmtpFixture lmtp(config);
  Client client(lmtp.port());
  client.hello();
  CHECK(code(client.command("MAIL FROM:<ann@example.org>")) == "250");
  CHECK(code(client.command("RCPT TO:<nobody@example.org>")) == "550");  // a refused one does not count
  CHECK(code(client.command("RCPT TO:<seat+a@play.test>")) == "250");
  CHECK(code(client.command("RCPT TO:<seat+b@play.test>")) == "250");
  CHECK(client.command("RCPT TO:<seat+c@play.test>") == "452 4.5.3 too many recipients");
  CHECK(code(client.command("DATA")) == "354");
  client.send("x\r\n.\r\n");
  CHECK(code(client.reply()) == "250");
  CHECK(code(client.reply()) == "250");
  REQUIRE(lmtp.messages().size() == 1);
  CHECK(lmtp.messages()[0].recipients == std::vector<std::string>{"seat+a@play.test", "seat+b@play.test"});
}

TEST_CASE("lmtp: a data line longer than the read buffer arrives whole, and a bare LF becomes CRLF") {
  LmtpFixture lmtp;
  Client client(lmtp.port());
  client.hello();
  CHECK(code(client.command("MAIL FROM:<ann@example.org>")) == "250");
  CHECK(code(client.command("RCPT TO:<seat+a@play.test>")) == "250");
  CHECK(code(client.command("DATA")) == "354");
  const std::string wide = std::string(100 * 1024, 'w') + ".";
  // A lone dot ended by a bare LF is no end of data (only CRLF.CRLF is): it is an empty, unstuffed line.
  client.send("..dotted " + wide + "\r\nbare\n.\nlast\r\n.\r\n");
  CHECK(code(client.reply()) == "250");
  REQUIRE(lmtp.messages().size() == 1);
  CHECK(lmtp.messages()[0].data == ".dotted " + wide + "\r\nbare\r\n\r\nlast\r\n");
}

TEST_CASE("lmtp: a message far past the limit is cut short: 552 and the connection closes") {
  net::LmtpConfig config;
  config.max_message = 1024;
  LmtpFixture lmtp(config);
  Client client(lmtp.port());
  client.hello();
  CHECK(code(client.command("MAIL FROM:<ann@example.org>")) == "250");
  CHECK(code(client.command("RCPT TO:<seat+a@play.test>")) == "250");
  CHECK(code(client.command("DATA")) == "354");
  const std::string chunk = std::string(998, 'z') + "\r\n";
  std::string flood;
  for (int i = 0; i < 1100; ++i) flood += chunk;  // 1.1 MB, past 4 x 1024 + 1 MiB
  client.send(flood);                             // may fail part way: the server stops reading
  CHECK(client.reply() == "552 5.3.4 message too big: the limit is 1024 bytes");
  CHECK(client.closed());
  CHECK(lmtp.messages().empty());
  CHECK(lmtp.counters().refused_size == 1);
}

TEST_CASE("lmtp: destroying the server closes its connections with 421, and a late done is harmless") {
  Done kept;
  std::mutex mutex;
  LmtpFixture lmtp({}, [&](const net::LmtpMessage&, Done done) {
    std::lock_guard lock(mutex);
    kept = std::move(done);  // never answered while the server runs
  });
  Client idle(lmtp.port());
  idle.hello();
  Client waiting(lmtp.port());
  waiting.hello();
  waiting.send("MAIL FROM:<a@b>\r\nRCPT TO:<seat+a@play.test>\r\nDATA\r\n");
  for (int i = 0; i < 3; ++i) waiting.reply();
  waiting.send("move\r\n.\r\n");
  REQUIRE(eventually([&] { return lmtp.messages().size() == 1; }));

  lmtp.stop_lmtp();
  CHECK(idle.reply() == "421 4.3.2 cinq shutting down");
  CHECK(idle.closed());
  CHECK(waiting.reply() == "421 4.3.2 cinq shutting down");  // no reply for the message: the MTA tries again
  CHECK(waiting.closed());
  std::lock_guard lock(mutex);
  REQUIRE(kept);
  kept({{250, "2.0.0 too late"}});
  kept = nullptr;
  CHECK(eventually([&] { return !Client(lmtp.port()).connected(); }));
}

TEST_CASE("lmtp: a port already taken is a clear error") {
  LmtpFixture first;
  NoHandler handler;
  net::ServerConfig config;
  config.address = "127.0.0.1";
  config.port = 0;
  net::Server server(config, handler);
  net::LmtpConfig taken;
  taken.port = first.port();
  try {
    net::LmtpServer second(server, taken, {}, [](net::LmtpMessage, Done) {});
    FAIL("a second server bound the same port");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).starts_with("LMTP: cannot listen on 127.0.0.1:" +
                                            std::to_string(first.port())));
  }
}

}  // namespace cinq::test
