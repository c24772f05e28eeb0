// `cinq mail-in`: one mail on standard input, for an MTA's pipe (Postfix's pipe(8), an alias): it is handed
// to the running server (POST /api/mail/in, any node of a cluster), which plays it and answers by mail. The
// exit status is what the MTA understands (sysexits.h): 0 delivered, 75 try again later, 67 no such
// address, 77 refused, 65 unreadable; the reason is printed for the MTA's bounce.
#include <curl/curl.h>
#include <sysexits.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>

#include "server/cli.h"

namespace cinq {

namespace {

struct MailInArgs {
  std::string server = "http://127.0.0.1:8080";
  std::string recipient;
  std::size_t max_bytes = 64 << 20;
};

std::size_t collect(char* data, std::size_t size, std::size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

int exit_status(const std::string& smtp) {
  if (smtp.size() < 3) return EX_TEMPFAIL;
  if (smtp[0] == '2') return EX_OK;
  if (smtp[0] == '4') return EX_TEMPFAIL;
  if (smtp.rfind("550 5.1.1", 0) == 0) return EX_NOUSER;
  if (smtp.rfind("550 5.6", 0) == 0) return EX_DATAERR;
  return EX_NOPERM;
}

int mail_in(const MailInArgs& args) {
  std::string message((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  if (message.size() > args.max_bytes) {
    std::cout << "552 5.3.4 the mail is too large\n";
    return EX_NOPERM;
  }
  curl_global_init(CURL_GLOBAL_DEFAULT);
  std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) {
    std::cout << "451 4.3.0 cannot start libcurl\n";
    return EX_TEMPFAIL;
  }
  std::string url = args.server;
  while (!url.empty() && url.back() == '/') url.pop_back();
  url += "/api/mail/in";
  if (!args.recipient.empty()) {
    char* escaped = curl_easy_escape(curl.get(), args.recipient.c_str(), static_cast<int>(args.recipient.size()));
    url += std::string("?recipient=") + escaped;
    curl_free(escaped);
  }
  std::string answer;
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: message/rfc822");
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDS, message.data());
  curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(message.size()));
  curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &answer);
  curl_easy_setopt(curl.get(), CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT, 120L);
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  const CURLcode rc = curl_easy_perform(curl.get());
  curl_slist_free_all(headers);
  if (rc != CURLE_OK) {
    std::cout << "451 4.4.1 the game server at " << args.server << " did not answer: " << curl_easy_strerror(rc)
              << "\n";
    return EX_TEMPFAIL;
  }
  auto json = nlohmann::json::parse(answer, nullptr, false);
  if (!json.is_object() || !json.contains("smtp") || !json["smtp"].is_string()) {
    std::cout << "451 4.3.0 the game server gave no answer a mail server understands\n";
    return EX_TEMPFAIL;
  }
  const std::string smtp = json["smtp"];
  std::cout << smtp << "\n";
  return exit_status(smtp);
}

}  // namespace

Command add_mail_in_command(CLI::App& cinq) {
  auto args = std::make_shared<MailInArgs>();
  CLI::App* cmd = cinq.add_subcommand(
      "mail-in",
      "Reads one mail on standard input and hands it to the running server, which plays the turn it carries "
      "and answers by mail (docs/mail.md): for an MTA's pipe. Exit 0 delivered, 75 try again later, 67 no "
      "such seat address, 77 refused, 65 unreadable; the reason on standard output.");
  cmd->add_option("--server", args->server, "the server's HTTP address")->type_name("URL")->capture_default_str();
  cmd->add_option("--recipient", args->recipient,
                  "the seat address it was sent to (Postfix: ${recipient}); default: its headers'")
      ->type_name("ADDRESS");
  return [args] { return mail_in(*args); };
}

}  // namespace cinq
