// A throwaway Postfix for tests (docs/mail.md): Debian's postfix as an instance of its own (its own config
// directory, queue, data directory, log and Maildirs in a temporary directory, its SMTP server on a free port
// of 127.0.0.1), run in the foreground (`postfix start-fg`) as a child of the test. It delivers any address
// of the players' domain to a Maildir of its own, and the game domain's mail to Cinq over LMTP or through
// pipe(8). Nothing leaves loopback: no DNS, no other domain (relaying is refused). Needs root (CI runs as
// root); the system's own Postfix, if any, is left alone.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/daemon.h"
#include "tests/support/process.h"

namespace cinq::test {

struct PostfixOptions {
  std::string game_domain = "play.test";
  std::string lmtp;                    // "127.0.0.1:PORT": the game domain's mail goes there over LMTP, or
  std::vector<std::string> pipe_argv;  // else to this command through pipe(8), as user nobody
                                       // (${recipient} and ${sender} are replaced by pipe(8))
  std::string player_domain = "players.test";
  // The players' mailboxes, LOCAL@player_domain each (Postfix's virtual(8) takes no pattern for them).
  std::vector<std::string> mailboxes{"ann", "ben", "sue", "mallory", "eve", "zoe"};
  std::size_t message_size_limit = 10 * 1024 * 1024;
};

class Postfix {
 public:
  // Starts it and waits (up to 20 s) until its SMTP port greets; throws std::runtime_error with its log if not.
  explicit Postfix(PostfixOptions options = {});
  ~Postfix();
  Postfix(const Postfix&) = delete;
  Postfix& operator=(const Postfix&) = delete;

  int smtp_port() const { return port_; }
  std::string smtp_url() const { return "smtp://127.0.0.1:" + std::to_string(port_); }

  // The mail server going away (its port refuses connections after), and back on the same port with its
  // queue as it was.
  void stop();
  void start();
  // Tries the deferred mail again now (postqueue -f).
  void flush();

  // Every message delivered to LOCAL@player_domain so far, as Postfix wrote it, oldest first.
  std::vector<std::string> mailbox(const std::string& local) const;
  // Waits until mailbox(local) holds `count` messages; throws std::runtime_error with the log if not in time.
  std::vector<std::string> wait_for_mail(const std::string& local, std::size_t count,
                                         std::chrono::milliseconds timeout = std::chrono::seconds(20)) const;
  // Submits a message over SMTP (a small client of our own: EHLO, MAIL, RCPT, DATA, QUIT) and returns the
  // server's last reply to it ("250 2.0.0 Ok: queued as ...", or the refusal).
  std::string send(const std::string& from, const std::string& to, const std::string& raw_message);
  // Messages in its queue (active or deferred).
  std::size_t queued() const;
  std::string log() const;

 private:
  void write_config() const;
  PostfixOptions options_;
  std::unique_ptr<TempDir> dir_;
  int port_ = 0;
  Daemon master_;
};

}  // namespace cinq::test
