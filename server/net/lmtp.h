// An LMTP server (RFC 2033) on the transport's threads: an MTA (Postfix's lmtp(8)) delivers the mail of the
// game domain to `cinq serve --lmtp PORT`, one reply per recipient once each is played or refused. No Boost
// here: the rest of the server sees only these types.
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
  std::string sender;                   // MAIL FROM (without <>; "" for the null sender)
  std::vector<std::string> recipients;  // the accepted RCPT TO addresses, in order
  std::string data;                     // the message, dot-unstuffed, CRLF line ends
  std::string peer;                     // the client's IP address
};

struct LmtpReply {
  int code = 250;    // 2xx delivered, 4xx try again later, 5xx refused for good
  std::string text;  // the enhanced status code first: "2.0.0 turn played"
};

struct LmtpConfig {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;                // 0: any free port (LmtpServer::port())
  std::size_t max_message = 256 * 1024;  // SIZE in LHLO; a larger message is refused (552) for every recipient
  std::size_t max_recipients = 16;       // RCPT beyond it: 452
  std::string hostname = "cinq";
};

// At RCPT TO, on a network thread, quick: a reply other than 2xx refuses that recipient.
using LmtpCheckRecipient = std::function<LmtpReply(const std::string& recipient)>;
// After DATA, on a network thread, never blocking: `done` is called once, later, from any thread, with one
// reply per recipient in order.
using LmtpDeliver = std::function<void(LmtpMessage message, std::function<void(std::vector<LmtpReply>)> done)>;

class LmtpServer {
 public:
  // Binds and listens at once (std::runtime_error if it cannot).
  LmtpServer(Server& server, LmtpConfig config, LmtpCheckRecipient check, LmtpDeliver deliver);
  ~LmtpServer();  // stops listening and closes its connections
  LmtpServer(const LmtpServer&) = delete;
  LmtpServer& operator=(const LmtpServer&) = delete;
  std::uint16_t port() const;

  struct Impl;  // lmtp.cpp: the acceptor and the sessions

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace cinq::net
