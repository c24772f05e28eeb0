// A throwaway Postfix for tests (docs/mail.md): Debian's postfix as an instance of its own (its own config
// directory, queue, data directory, log and Maildir in a temporary directory, its SMTP server on a free port
// of 127.0.0.1), run in the foreground (`postfix start-fg`) as a child of the test. Any address of the
// players' domain is a mailbox (but `unknown_locals`), and the game domain's mail goes to Cinq over LMTP or
// through pipe(8). Nothing leaves loopback: no DNS, smtpd relays to the two domains only, and any other
// destination is the error(8) transport. Needs root (CI runs as root); the system's own Postfix, if any, is
// left alone, and /etc/postfix is only read (root may use any config directory: no alternate_config_directories).
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
  // Mail for this domain goes to the game server:
  std::string game_domain = "play.test";
  // "127.0.0.1:PORT": delivered over LMTP there (Postfix's lmtp(8)), or
  std::string lmtp;
  // else to this command through pipe(8), as user nobody (flags=Rq). Its words go to master.cf as they are
  // (a word with white space in braces): pipe(8) replaces ${recipient}, ${sender} and the like, and wants
  // "$$" where the command is to see one '$' (a "$1" of sh is an unknown macro: the mail is deferred).
  std::vector<std::string> pipe_argv;
  // Any LOCAL@player_domain is delivered (mailbox(LOCAL) reads it), but the addresses of unknown_locals:
  // their RCPT is refused with 550 5.1.1, as a mailbox that does not exist (a mail refused for good).
  std::string player_domain = "players.test";
  std::vector<std::string> unknown_locals{"nobody"};
  // And those of bounce_locals are taken (250), then bounced ("this mailbox is gone"): a delivery
  // status notification goes back to the mail's envelope sender, as a recipient's server does for a mailbox
  // it finds gone only after the mail was accepted.
  std::vector<std::string> bounce_locals{"gone"};
  std::size_t message_size_limit = 10 * 1024 * 1024;
};

class Postfix {
 public:
  // Starts it and waits (up to 20 s) until its SMTP port greets with "220"; throws std::runtime_error with its
  // log if not.
  explicit Postfix(PostfixOptions options = {});
  // Stops it and removes its directory.
  ~Postfix();
  Postfix(const Postfix&) = delete;
  Postfix& operator=(const Postfix&) = delete;

  // 127.0.0.1: mail from loopback is taken without authentication, for the two domains only.
  int smtp_port() const { return port_; }
  std::string smtp_url() const { return "smtp://127.0.0.1:" + std::to_string(port_); }
  // Its configuration directory (main.cf, master.cf), for `postfix -c DIR check` and the like.
  std::string config_dir() const { return dir_->path() + "/etc"; }

  // The mail server going away (`postfix stop`: its port refuses connections after), and back on the same
  // port with its queue as it was (throws as the constructor).
  void stop();
  void start();
  bool running();
  // Tries the deferred mail again now (postqueue -f).
  void flush();

  // Every message delivered to LOCAL@player_domain so far (LOCAL compared without case), raw as Postfix's
  // virtual(8) wrote it into the Maildir (Return-Path and Delivered-To first), oldest first.
  std::vector<std::string> mailbox(const std::string& local) const;
  // Waits until mailbox(local) holds at least `count` messages and returns it; throws std::runtime_error with
  // the log if not in time.
  std::vector<std::string> wait_for_mail(const std::string& local, std::size_t count,
                                         std::chrono::milliseconds timeout = std::chrono::seconds(20)) const;
  // Submits a message over SMTP (a small client of our own: EHLO, MAIL, RCPT, DATA with dot-stuffing, QUIT;
  // bare LF line ends become CRLF) and returns the server's last reply line: "250 2.0.0 Ok: queued as ...",
  // or the 4xx/5xx line of the command it refused. Throws std::runtime_error if it cannot connect (stopped)
  // or the server does not answer within 10 s.
  std::string send(const std::string& from, const std::string& to, const std::string& raw_message);
  // Messages in its queue (incoming, active, deferred, held), counted in its queue directory (so also while
  // it is stopped).
  std::size_t queued() const;
  // Its log (maillog_file), then what `postfix start-fg` and the tools run for it printed.
  std::string log() const;

 private:
  void write_config() const;
  // Runs one of Postfix's commands with this instance's configuration to its end; its exit status (-1 if
  // it did not end within 20 s). Its output goes to tools.log.
  int run_tool(const std::string& name, const std::vector<std::string>& args) const;
  // SIGKILLs the master by its pid file (a `postfix stop` that did not work; only while start-fg runs).
  void kill_master();

  PostfixOptions options_;
  std::unique_ptr<TempDir> dir_;
  int port_ = 0;
  Daemon master_;
};

}  // namespace cinq::test
