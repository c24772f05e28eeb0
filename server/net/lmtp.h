// An LMTP server (RFC 2033) on the transport's threads: an MTA (Postfix's lmtp(8)) delivers the mail of the
// game domain to `cinq serve --lmtp PORT`, and gets one reply per recipient once each is played or refused.
// No Boost here: the rest of the server sees only these types (lmtp.cpp is the only one that sees Asio).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "server/net/transport.h"

namespace cinq::net {

struct LmtpMessage {
  std::string sender;                   // MAIL FROM's address (without <>; "" for the null sender <>)
  std::vector<std::string> recipients;  // every accepted RCPT TO address, in order (without <>)
  std::string data;                     // the message as received, dot-unstuffed, CRLF line ends kept
  std::string peer;                     // the client's IP address
};

struct LmtpReply {
  int code = 250;    // 250 delivered; 4xx temporary (try again later); 5xx permanent
  std::string text;  // enhanced status code first: "2.0.0 turn played", "5.1.1 no such game seat"
};

struct LmtpConfig {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;                // 0: any free port (LmtpServer::port())
  std::size_t max_message = 256 * 1024;  // SIZE advertised in LHLO; a message over it is refused with 552 for
                                         // every recipient (read and discarded up to a hard cap, then the
                                         // connection closes)
  std::size_t max_recipients = 16;       // RCPT beyond it: 452
  std::string hostname = "cinq";         // in the greeting
};

// Called for each recipient at RCPT TO, on a network thread; must be quick and never block (a syntax check of
// the address): a reply other than 2xx refuses that recipient now (e.g. 550 5.1.1 for an address that is not
// a seat's). An empty function accepts every recipient.
using LmtpCheckRecipient = std::function<LmtpReply(const std::string& recipient)>;
// Called once per message after its DATA, on a network thread; it must not block: it hands the work elsewhere
// and calls `done` later, exactly once, from any thread, with one reply per recipient (in order; a missing
// one is answered 451). If `done` is never called before the server stops, the connection just closes; `done`
// holds nothing of the connection, so calling it late (or never) is harmless.
using LmtpDeliver =
    std::function<void(LmtpMessage message, std::function<void(std::vector<LmtpReply>)> done)>;

class LmtpServer {
 public:
  // Binds and listens at once on the transport's I/O threads (throws std::runtime_error with a clear message
  // if it cannot). Must be destroyed before `server`.
  LmtpServer(Server& server, LmtpConfig config, LmtpCheckRecipient check, LmtpDeliver deliver);
  // Stops listening and closes its connections (421 first). Once it returns, `check` and `deliver` are
  // neither running nor called again, so whatever they point to may go.
  ~LmtpServer();
  // The same, before the transport stops (a signal): its listener would keep the transport's threads busy.
  // Safe to call more than once; the destructor calls it.
  void stop();
  LmtpServer(const LmtpServer&) = delete;
  LmtpServer& operator=(const LmtpServer&) = delete;

  std::uint16_t port() const;  // the port actually bound

  struct Counters {
    std::atomic<std::int64_t> connections{0};   // connections accepted since start
    std::atomic<std::int64_t> messages{0};      // messages handed to `deliver`
    std::atomic<std::int64_t> refused_size{0};  // messages refused for their size (MAIL SIZE= or the data)
  };
  const Counters& counters() const;

 private:
  struct Impl;  // lmtp.cpp: the listener and the state the sessions share
  std::unique_ptr<Impl> impl_;
};

}  // namespace cinq::net
