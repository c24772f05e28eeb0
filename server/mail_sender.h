// Drains the mail outbox (docs/mail.md): a thread of its own claims the mails that are due (one node of a
// cluster sends each: store::Store::claim_mails), hands each to the mail server over SMTP with libcurl, and
// records how it went: sent; deferred after a temporary failure (4xx, no connection), tried again after a
// back-off that doubles; failed for good after a permanent one (5xx), or when it kept failing for too long.
//
// Before a game's mail goes, the settings of the account holding its seat are read (store::seat_account_mail):
// a kind it does not want is skipped. The same thread queues each account's daily digest when it is due.
//
// Nothing is lost: a mail leaves the outbox only once the mail server accepted it. A crash between the
// server's acceptance and the row's update can send a mail twice; its Message-ID is the same both times, so
// mail clients show it once.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "persistence/store.h"
#include "server/metrics.h"
#include "server/postman.h"

namespace cinq::server {

class MailSender {
 public:
  // `node`: who claims (a cluster node's id; any fixed name alone).
  MailSender(store::Store& store, const MailConfig& config, Metrics& metrics, std::string node);
  ~MailSender();  // stops the thread (a send under way finishes first)
  MailSender(const MailSender&) = delete;
  MailSender& operator=(const MailSender&) = delete;

  // Something was queued: look at the outbox now rather than at the next poll.
  void poke();

  // What one send did.
  struct Outcome {
    enum class Kind { sent, temporary, permanent } kind = Kind::sent;
    std::string text;  // the mail server's reply or curl's error
  };
  // Sends one message over SMTP (blocking): the envelope from `sender` to `recipient`.
  static Outcome send(const MailConfig& config, const std::string& sender, const std::string& recipient,
                      const std::string& message);

 private:
  void run();
  void deliver(const store::MailRow& mail);
  // Whether the account holding the mail's seat wants it (its settings); true for any other mail.
  bool wanted(const store::MailRow& mail);
  // Queues the digests due now (each account's, once a day: its id makes a second one from another node a
  // no-op).
  void queue_digests();

  store::Store& store_;
  const MailConfig& config_;
  Metrics& metrics_;
  std::string node_;
  Postman postman_;
  std::int64_t digests_checked_ms_ = 0;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool poked_ = false;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace cinq::server
