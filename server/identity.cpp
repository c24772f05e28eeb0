// Guest identities and secret tokens (identity.h).
#include "server/identity.h"

#include <algorithm>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <spdlog/spdlog.h>
#include <sys/random.h>

#include <cctype>
#include <cerrno>
#include <random>
#include <vector>

#include "lobby/room.h"
#include "rules/notation.h"
#include "rules/registry.h"
#include "server/accounts.h"
#include "server/services.h"
#include "server/workers.h"

namespace cinq::server {

namespace {

// The hex digest of `data` under `md` (EVP_sha256(), EVP_sha1()).
std::string hex_digest(const EVP_MD* md, std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &size, md, nullptr) != 1) return {};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

constexpr std::size_t kSha256Hex = 64;
constexpr std::size_t kSha1Hex = 40;  // hashes stored by older versions: they still verify

}  // namespace

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

std::string token_hash(std::string_view token) { return hex_digest(EVP_sha256(), token); }

bool is_legacy_hash(std::string_view stored) { return stored.size() == kSha1Hex; }

bool token_matches(std::string_view token, std::string_view stored) {
  std::string computed;
  if (stored.size() == kSha256Hex)
    computed = hex_digest(EVP_sha256(), token);
  else if (stored.size() == kSha1Hex)
    computed = hex_digest(EVP_sha1(), token);
  else
    return false;
  return computed.size() == stored.size() && CRYPTO_memcmp(computed.data(), stored.data(), stored.size()) == 0;
}

std::string matching_token(std::string_view token, const store::PlayerRow& row) {
  if (token_matches(token, row.token_hash)) return row.token_hash;
  for (const std::string& session : row.sessions)
    if (token_matches(token, session)) return session;
  return {};
}

std::array<std::string, 2> issue_seat_tokens(lobby::Room& room) {
  std::array<std::string, 2> links;
  for (int s = 0; s < 2; ++s) {
    std::string token = random_id(32);
    room.set_seat_token_hash(s, token_hash(token));
    room.set_seat_token(s, token);
    links[s] = seat_link(room.id(), s, token);
  }
  return links;
}

namespace {

// Code points that show nothing or reorder what follows: C1 controls, the soft hyphen, zero-width spaces and
// joiners, direction marks, embeddings, overrides and isolates (U+202E turns "Bob" into "boB"), the
// byte-order mark. A name with one of them could pass for another player's.
bool invisible(char32_t c) {
  return (c >= 0x80 && c <= 0x9F) || c == 0xAD || c == 0x61C || (c >= 0x200B && c <= 0x200F) ||
         (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) || c == 0xFEFF;
}

// The code points of UTF-8 text; an invalid sequence gives U+FFFD (Record::read refuses it later).
std::vector<char32_t> code_points(const std::string& s) {
  std::vector<char32_t> out;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const int n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    char32_t c = n == 1 ? b : b & (0x7F >> n);
    for (int k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(c);
    i += n;
  }
  return out;
}

}  // namespace

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
  for (char32_t c : code_points(name))
    if (invisible(c)) {
      why = "a name may not hold invisible or direction-changing characters (such as U+202E or U+FEFF)";
      return std::nullopt;
    }
  // The name goes into records (`A = name`): it must read back as itself. A two-line record with no turn
  // (nothing is replayed): not the blocking work note_blocking counts.
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

// ---------------------------------------------------------------------------------------------------------

Identities::Identities(Services& services, Workers& workers) : services_(services), workers_(workers) {}

std::optional<store::PlayerRow> Identities::cached(const std::string& id) {
  std::lock_guard lock(mutex_);
  if (auto it = players_.find(id); it != players_.end()) return it->second;
  return std::nullopt;
}

void Identities::load(const std::string& id, Loaded done) {
  if (auto row = cached(id)) return done(std::move(row), false);
  if (id.empty() || id.size() > 64) return done(std::nullopt, false);
  auto job = [this, id, done] {
    note_blocking(services_.metrics);
    auto row = services_.store->player(id);  // a primary-key read on the read connection
    // A store that could not be read is "try again", never "unknown id" (the client would drop its identity).
    const bool unreadable = row.failed();
    if (row) {
      std::lock_guard lock(mutex_);
      // A save made meanwhile (the same player on another connection) is newer than the stored row.
      row = players_.try_emplace(id, *row).first->second;
    }
    done(std::move(row), unreadable);
  };
  if (!workers_.submit(Workers::Kind::quick, std::move(job))) done(std::nullopt, true);
}

void Identities::create(const std::optional<std::string>& name, Created done) {
  std::string token = random_id(32);
  store::PlayerRow row;
  row.id = "p" + random_id(15);
  row.token_hash = token_hash(token);
  row.name = name ? *name : "Guest-" + random_id(4);
  row.created_ms = Services::now().unix_ms;
  save(row, [this, row, token, done = std::move(done)](bool ok) {
    if (ok) ++services_.metrics.players_created;
    done(ok ? std::optional<store::PlayerRow>(row) : std::nullopt, token);
  });
}

void Identities::save(const store::PlayerRow& changed, std::function<void(bool ok)> done) {
  // The login tokens are written as changes, never rewritten from this node's copy: two nodes logging one
  // account in at once each add their own (store::PlayerRow::SessionWrite).
  store::PlayerRow row = changed;
  row.session_write = store::PlayerRow::SessionWrite::changes;
  // The answer goes on a strand: the writer thread only writes, and what follows (the connection's next
  // messages) must not hold up the next commit.
  auto strand = services_.net->make_strand();
  auto answer = [this, row, strand, done](bool ok, const std::string& why) {
    if (ok) {
      store::PlayerRow stored = row;
      std::lock_guard lock(mutex_);
      // The cache's tokens changed as the store's were: two logins at once, each from its own copy, both
      // stay (the row's own list may lack the other's).
      if (auto it = players_.find(row.id); it != players_.end()) {
        std::vector<std::string> sessions = it->second.sessions;
        if (row.sessions_all_ended) sessions.clear();
        for (const std::string& h : row.sessions_ended) std::erase(sessions, h);
        for (const std::string& h : row.sessions_added)
          if (std::find(sessions.begin(), sessions.end(), h) == sessions.end()) sessions.push_back(h);
        if (sessions.size() > store::kMaxSessions)
          sessions.erase(sessions.begin(), sessions.end() - static_cast<std::ptrdiff_t>(store::kMaxSessions));
        stored.sessions = std::move(sessions);
      }
      stored.sessions_added.clear();
      stored.sessions_ended.clear();
      stored.sessions_all_ended = false;
      players_[row.id] = std::move(stored);
    } else {
      ++services_.metrics.store_failures;
      spdlog::error("player {}: save failed: {}", row.id, why);
    }
    strand->post([done, ok] { done(ok); });
  };
  if (!services_.saver->save(row, answer)) answer(false, "the server is shutting down");
}

void Identities::adopt(const store::PlayerRow& row) {
  std::lock_guard lock(mutex_);
  players_[row.id] = row;
}

void Identities::reload(const std::string& id, Loaded done) {
  if (id.empty() || id.size() > 64) return done(std::nullopt, false);
  auto job = [this, id, done] {
    note_blocking(services_.metrics);
    auto row = services_.store->player(id);
    const bool unreadable = row.failed();
    if (row) adopt(*row);
    done(std::move(row), unreadable);
  };
  if (!workers_.submit(Workers::Kind::quick, std::move(job))) done(std::nullopt, true);
}

}  // namespace cinq::server
