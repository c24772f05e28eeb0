// The outbox's sender (mail_sender.h): libcurl's SMTP client, one connection per mail.
#include "server/mail_sender.h"

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "server/services.h"

namespace cinq::server {

namespace {

constexpr std::int64_t kClaimMs = 120'000;  // a claim outlives any send (connect 10 s, whole mail 60 s)
constexpr int kBatch = 16;
constexpr auto kPoll = std::chrono::seconds(1);
constexpr std::int64_t kDigestCheckMs = 10'000;  // how often the digests due are looked for

struct Upload {
  const std::string* data;
  std::size_t at = 0;
};

std::size_t read_body(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* up = static_cast<Upload*>(user);
  const std::size_t n = std::min(size * count, up->data->size() - up->at);
  std::memcpy(buffer, up->data->data() + up->at, n);
  up->at += n;
  return n;
}

// curl's global state, once per process (curl_global_init is not thread-safe in older libcurls).
void init_curl() {
  static const bool done = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }();
  (void)done;
}

}  // namespace

MailSender::MailSender(store::Store& store, const MailConfig& config, Metrics& metrics, std::string node)
    : store_(store), config_(config), metrics_(metrics), node_(std::move(node)), postman_(config) {
  init_curl();
  thread_ = std::thread([this] { run(); });
}

MailSender::~MailSender() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void MailSender::poke() {
  {
    std::lock_guard lock(mutex_);
    poked_ = true;
  }
  wake_.notify_all();
}

void MailSender::run() {
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      if (stop_) return;
    }
    if (const std::int64_t now = Services::now().unix_ms; now - digests_checked_ms_ >= kDigestCheckMs) {
      digests_checked_ms_ = now;
      queue_digests();
    }
    auto mails = store_.claim_mails(node_, Services::now().unix_ms, kClaimMs, kBatch);
    for (const store::MailRow& m : mails) {
      {
        std::lock_guard lock(mutex_);
        if (stop_) return;  // the claims run out; another node, or the next start, sends them
      }
      deliver(m);
    }
    if (mails.size() == static_cast<std::size_t>(kBatch)) continue;
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, kPoll, [this] { return stop_ || poked_; });
    poked_ = false;
  }
}

bool MailSender::wanted(const store::MailRow& m) {
  if (m.game_id.empty() || m.seat < 0 || (m.kind != "turn" && m.kind != "reminder" && m.kind != "end")) return true;
  auto account = store_.seat_account_mail(m.game_id, m.seat);
  if (!account) return true;
  return mail::AccountPrefs::stored(account->prefs).wants(m.kind);
}

void MailSender::queue_digests() {
  const lobby::Now now = Services::now();
  for (store::AccountMail& account : store_.digest_accounts()) {
    const mail::AccountPrefs prefs = mail::AccountPrefs::stored(account.prefs);
    if (!mail::digest_due(prefs, account.digest_day, now.unix_ms)) continue;
    auto player = store_.player(account.player_id);
    if (!player) continue;
    auto games = store_.games_of_player(account.player_id, 200);
    if (games.failed()) continue;  // tried again at the next check
    std::vector<store::MailRow> mails;
    if (auto row = postman_.digest(account, player->username.empty() ? player->name : player->username, games, now))
      mails.push_back(std::move(*row));
    // Only the day changes: read again, so that settings changed meanwhile are kept.
    auto fresh = store_.account_mail(account.player_id);
    if (!fresh) continue;
    fresh->digest_day = mail::digest_day(prefs, now.unix_ms);
    store::Error error;
    if (!store_.put_account_mail(*fresh, mails, error))
      spdlog::error("mail: the digest of {}: {}", account.player_id, error.message);
    else
      metrics_.mail_queued += static_cast<std::int64_t>(mails.size());
  }
}

void MailSender::deliver(const store::MailRow& m) {
  if (!wanted(m)) {
    ++metrics_.mail_skipped;
    store::Error error;
    if (!store_.finish_mail(m.id, "cancelled", Services::now().unix_ms, 0, "not wanted by the account's settings", error))
      spdlog::error("mail {}: cannot record that it was skipped: {}", m.id, error.message);
    return;
  }
  const Outcome out = send(config_, m.sender, m.recipient, m.message);
  const std::int64_t now = Services::now().unix_ms;
  std::string state = "sent";
  std::int64_t next = 0;
  if (out.kind == Outcome::Kind::sent) {
    ++metrics_.mail_sent;
  } else if (out.kind == Outcome::Kind::temporary && now - m.created_ms < config_.give_up.count()) {
    // Back off: the first retry after `retry`, then twice as long each time, at most `retry_max`.
    std::int64_t wait = config_.retry.count();
    for (int i = 0; i < m.attempts && wait < config_.retry_max.count(); ++i) wait *= 2;
    state = "queued";
    next = now + std::min<std::int64_t>(wait, config_.retry_max.count());
    ++metrics_.mail_deferred;
    spdlog::warn("mail {} to {} deferred: {}", m.id, m.recipient, out.text);
  } else {
    state = "failed";
    ++metrics_.mail_bounced;
    spdlog::warn("mail {} to {} failed for good: {}", m.id, m.recipient, out.text);
  }
  store::Error error;
  if (!store_.finish_mail(m.id, state, now, next, out.text, error))
    spdlog::error("mail {}: cannot record that it was {}: {}", m.id, state, error.message);
}

MailSender::Outcome MailSender::send(const MailConfig& config, const std::string& sender,
                                     const std::string& recipient, const std::string& message) {
  init_curl();
  CURL* curl = curl_easy_init();
  if (!curl) return {Outcome::Kind::temporary, "libcurl could not start"};
  char error[CURL_ERROR_SIZE] = {};
  Upload up{&message};
  curl_slist* rcpt = curl_slist_append(nullptr, ("<" + recipient + ">").c_str());
  curl_easy_setopt(curl, CURLOPT_URL, config.smtp.c_str());
  curl_easy_setopt(curl, CURLOPT_MAIL_FROM, ("<" + sender + ">").c_str());
  curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
  curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_body);
  curl_easy_setopt(curl, CURLOPT_READDATA, &up);
  curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(message.size()));
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
  if (config.starttls) curl_easy_setopt(curl, CURLOPT_USE_SSL, static_cast<long>(CURLUSESSL_ALL));
  if (!config.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, config.ca_file.c_str());
  if (!config.user.empty()) {
    curl_easy_setopt(curl, CURLOPT_USERNAME, config.user.c_str());
    curl_easy_setopt(curl, CURLOPT_PASSWORD, config.password.c_str());
  }
  const CURLcode rc = curl_easy_perform(curl);
  long code = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
  curl_slist_free_all(rcpt);
  curl_easy_cleanup(curl);
  if (rc == CURLE_OK) return {Outcome::Kind::sent, "250"};
  std::string text = std::string(curl_easy_strerror(rc)) + (error[0] ? std::string(": ") + error : "");
  if (code > 0) text += " (the mail server answered " + std::to_string(code) + ")";
  // A 5xx answer is the mail server's final word; anything else (4xx, no connection, a timeout, TLS failing
  // to start) may pass.
  if (code >= 500 && code < 600) return {Outcome::Kind::permanent, text};
  return {Outcome::Kind::temporary, text};
}

}  // namespace cinq::server
