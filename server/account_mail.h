// An account's own mail (docs/mail.md, "Accounts"): the protocol's `mail_settings` and `set_mail` (an address,
// kept once confirmed by a link mailed to it; which mails; a daily digest), run on a worker against the
// store's account_mail row. The links in those mails and a seat taking its account's address are HttpApi's
// (account_mail.cpp). No Boost.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "persistence/store.h"

namespace cinq::server {

class Postman;

// What `set_mail` asks; a field left out is left as it is.
struct AccountMailChange {
  std::optional<std::string> address;  // "" removes the address
  std::optional<bool> turn, reminder, end;
  std::optional<int> digest_hour;      // -1 no digest
  std::optional<std::string> zone;     // an IANA time zone, "" UTC
  std::optional<std::string> language; // the account's language ("en", "fr": mail/words.h, languages())
  // Whether it changes more than the language (what a server without mail cannot store).
  bool mail() const { return address || turn || reminder || end || digest_hour || zone; }
  // nullopt and `why` (naming the field) for a malformed request.
  static std::optional<AccountMailChange> parse(const nlohmann::json& body, std::string& why);
};

// {"type":"mail_settings","available","address","pending","turn","reminder","end","digest_hour","zone","language"}
// for the account's row (none: the defaults, no address). `available`: this server sends mail.
nlohmann::json account_mail_json(const std::optional<store::AccountMail>& row, bool available);

// Applies `change` to the account's row and stores it, a new address's confirmation mail with it (one
// transaction). On a worker. Returns the settings (account_mail_json), or an error {"code","message"}.
// `postman` null (a server without mail): the account's language alone can be changed (it is the site's too).
nlohmann::json change_account_mail(store::Store& store, const Postman* postman, const std::string& player_id,
                                   const std::string& name, const AccountMailChange& change, std::int64_t now_ms);

}  // namespace cinq::server
