#include "server/metrics.h"

#include <cstdio>

#include "server/net/transport.h"

namespace cinq::server {

void Histogram::observe(double seconds) {
  std::size_t i = 0;
  while (i < kBounds.size() && seconds > kBounds[i]) ++i;
  counts_[i].fetch_add(1, std::memory_order_relaxed);
  sum_us_.fetch_add(static_cast<std::uint64_t>(seconds * 1e6), std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
}

std::string Histogram::text(const std::string& name, const std::string& help) const {
  std::string out = "# HELP " + name + " " + help + "\n# TYPE " + name + " histogram\n";
  std::uint64_t cumulative = 0;
  char buf[160];
  for (std::size_t i = 0; i < kBounds.size(); ++i) {
    cumulative += counts_[i].load(std::memory_order_relaxed);
    std::snprintf(buf, sizeof buf, "%s_bucket{le=\"%g\"} %llu\n", name.c_str(), kBounds[i],
                  static_cast<unsigned long long>(cumulative));
    out += buf;
  }
  cumulative += counts_[kBounds.size()].load(std::memory_order_relaxed);
  std::snprintf(buf, sizeof buf, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n%s_count %llu\n", name.c_str(),
                static_cast<unsigned long long>(cumulative), name.c_str(),
                static_cast<double>(sum_us_.load(std::memory_order_relaxed)) / 1e6, name.c_str(),
                static_cast<unsigned long long>(count_.load(std::memory_order_relaxed)));
  out += buf;
  return out;
}

void note_blocking(Metrics& metrics) {
  if (net::on_network_thread()) metrics.blocking_on_network.fetch_add(1, std::memory_order_relaxed);
}

void Metrics::count_error(const std::string& code) {
  std::lock_guard lock(mutex_);
  ++errors_[code];
}

void Metrics::count_mail_in(const std::string& outcome) {
  std::lock_guard lock(mutex_);
  ++mail_in_[outcome];
}

std::string Metrics::mail_text() const {
  std::string out =
      "# HELP cinq_mail_total Mails out: queued in the outbox, sent, deferred (a temporary failure, tried "
      "again), bounced (refused for good), skipped (the account's mail settings do not want it).\n# TYPE cinq_mail_total counter\n";
  out += "cinq_mail_total{state=\"queued\"} " + std::to_string(mail_queued.load()) + "\n";
  out += "cinq_mail_total{state=\"sent\"} " + std::to_string(mail_sent.load()) + "\n";
  out += "cinq_mail_total{state=\"deferred\"} " + std::to_string(mail_deferred.load()) + "\n";
  out += "cinq_mail_total{state=\"bounced\"} " + std::to_string(mail_bounced.load()) + "\n";
  out += "cinq_mail_total{state=\"skipped\"} " + std::to_string(mail_skipped.load()) + "\n";
  out += "# HELP cinq_mail_received_total Mails in, by what became of them.\n"
         "# TYPE cinq_mail_received_total counter\n";
  std::lock_guard lock(mutex_);
  for (const auto& [outcome, n] : mail_in_)
    out += "cinq_mail_received_total{outcome=\"" + outcome + "\"} " + std::to_string(n) + "\n";
  return out;
}

std::string Metrics::errors_text() const {
  std::string out =
      "# HELP cinq_errors_total Error messages sent to clients, by code.\n# TYPE cinq_errors_total counter\n";
  std::lock_guard lock(mutex_);
  for (const auto& [code, n] : errors_)
    out += "cinq_errors_total{code=\"" + code + "\"} " + std::to_string(n) + "\n";
  return out;
}

}  // namespace cinq::server
