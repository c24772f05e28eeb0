// Guest identities (docs/protocol.md, "hello"): a random id, a secret token, a display name. The token is
// the only proof of identity; the store keeps its hash.
#include <sys/random.h>

#include <boost/uuid/detail/sha1.hpp>
#include <cerrno>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>

#include "rules/notation.h"
#include "rules/registry.h"
#include "server/app.h"
#include "server/request.h"

namespace cinq::server {

using nlohmann::json;

std::string random_id(std::size_t length) {
  static constexpr char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  // Bytes from the kernel's random source, a buffer at a time (getrandom(2)). std::random_device drew one
  // number per character through RDSEED, which in a virtual machine took about a millisecond per
  // identity: 10,000 guests saying hello took 11 s (docs/performance.md).
  std::string out;
  unsigned char buf[64];
  while (out.size() < length) {
    ssize_t got = getrandom(buf, sizeof buf, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {  // no getrandom (a kernel before 3.17): the slow way, never a loop that cannot end
      std::random_device device;
      for (auto& b : buf) b = static_cast<unsigned char>(device());
      got = sizeof buf;
    }
    for (ssize_t i = 0; i < got && out.size() < length; ++i)
      if (buf[i] < 248) out += kAlphabet[buf[i] % 62];  // 248 = 4 * 62: no modulo bias
  }
  return out;
}

std::string token_hash(const std::string& token) {
  boost::uuids::detail::sha1 sha;
  sha.process_bytes(token.data(), token.size());
  boost::uuids::detail::sha1::digest_type digest;
  sha.get_digest(digest);
  std::string out;
  char buf[9];
  for (unsigned word : digest) {
    std::snprintf(buf, sizeof buf, "%08x", word);
    out += buf;
  }
  return out;
}

std::optional<std::string> clean_name(const std::string& raw, std::string& why) {
  std::string name = fold_spaces(raw);
  if (name.empty() || name.size() > 96) {
    why = "a name has 1 to 32 characters";
    return std::nullopt;
  }
  std::size_t chars = 0;
  for (unsigned char ch : name) {
    if ((ch & 0xC0) != 0x80) ++chars;
    if (ch < 0x20 || ch == 0x7F || ch == '=' || ch == '#' || ch == '/' || ch == '>') {
      why = "a name may not hold control characters or any of = # / >";
      return std::nullopt;
    }
  }
  if (chars > 32) {
    why = "a name has 1 to 32 characters";
    return std::nullopt;
  }
  // The name goes into records (`A = name`): it must read back as itself.
  const Game* g = find_game("tablut");
  Record r = Record::start(*g, *Options::parse_text(g->option_specs(), ""));
  r.add_players({{'A', name}, {'D', "x"}});
  auto back = Record::read(r.write());
  if (!back || back->player('A') != name) {
    why = "this name cannot be written in a game record (it must be valid UTF-8 text)";
    return std::nullopt;
  }
  return name;
}

std::optional<store::PlayerRow> App::load_player(const std::string& id) {
  {
    std::lock_guard lock(players_mutex_);
    if (auto it = players_.find(id); it != players_.end()) return it->second;
  }
  if (id.empty() || id.size() > 64) return std::nullopt;
  auto row = services_.store->player(id);  // a primary-key read on the read connection (WAL: never waits)
  if (row) {
    std::lock_guard lock(players_mutex_);
    players_[id] = *row;
  }
  return row;
}

void App::save_player(const store::PlayerRow& row) {
  {
    std::lock_guard lock(players_mutex_);
    players_[row.id] = row;
  }
  services_.saver->save(row, [this](bool ok, const std::string&) {
    if (!ok) ++services_.metrics.store_failures;
  });
}

void App::on_hello(Request& r) {
  if (r.player) return reply_error(r.connection, "bad_message", "this connection already said hello", r.ref);
  std::string why;
  auto id = r.string_field("id", why, false);
  auto token = r.string_field("token", why, false);
  auto name = r.string_field("name", why, false);
  if (!why.empty()) return reply_error(r.connection, "bad_message", why, r.ref);
  if (name) {
    name = clean_name(*name, why);
    if (!name) return reply_error(r.connection, "bad_name", why, r.ref);
  }
  store::PlayerRow row;
  std::string given_token;
  if (id || token) {
    auto found = id && token ? load_player(*id) : std::nullopt;
    if (!found || found->token_hash != token_hash(*token))
      return reply_error(r.connection, "bad_token",
                         "unknown id or wrong token: say hello without them for a new identity", r.ref);
    row = *found;
    given_token = *token;
    if (name && *name != row.name) {
      row.name = *name;
      save_player(row);
    }
  } else {
    given_token = random_id(32);
    row.id = "p" + random_id(15);
    row.token_hash = token_hash(given_token);
    row.name = name ? *name : "Guest-" + random_id(4);
    row.created_ms = Services::now().unix_ms;
    save_player(row);
    ++services_.metrics.players_created;
  }
  {
    std::lock_guard lock(clients_mutex_);
    clients_[r.connection->id()].player = lobby::Player{row.id, row.name};
  }
  json m = {{"type", "welcome"}, {"player", {{"id", row.id}, {"name", row.name}}}, {"token", given_token}};
  if (!r.ref.empty()) m["ref"] = json::parse(r.ref);
  r.connection->send(m.dump());
}

void App::on_name(Request& r) {
  std::string why;
  auto name = r.string_field("name", why);
  if (!name) return reply_error(r.connection, "bad_message", why, r.ref);
  auto clean = clean_name(*name, why);
  if (!clean) return reply_error(r.connection, "bad_name", why, r.ref);
  auto row = load_player(r.player->id);
  if (!row) return reply_error(r.connection, "storage", "your identity could not be read", r.ref);
  row->name = *clean;
  save_player(*row);
  {
    std::lock_guard lock(clients_mutex_);
    clients_[r.connection->id()].player = lobby::Player{row->id, row->name};
  }
  r.connection->send(json{{"type", "welcome"}, {"player", {{"id", row->id}, {"name", row->name}}}}.dump());
}

}  // namespace cinq::server
