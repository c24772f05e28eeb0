// Correspondence by e-mail end to end: a real Postfix on loopback delivers the players' mailboxes and hands
// mail for the game's domain to `cinq serve --lmtp` (or to `cinq mail-in` through pipe(8)); the server mails
// through it with libcurl. Whole games are played by replies written as people write them (bare turns,
// numbered lines, whole logs, quoted replies, HTML-only mails, quoted-printable, signatures, a mistake),
// while a spectator watches over the WebSocket.
#include <doctest/doctest.h>
#include <signal.h>

#include <regex>
#include <set>
#include <thread>

#include "mail/read.h"
#include "rules/notation.h"
#include "tests/server/peer.h"
#include "tests/support.h"
#include "tests/support/daemon.h"
#include "tests/support/postfix.h"
#include "tests/support/postgres.h"
#include "tests/support/redis.h"
#include "tests/support/process.h"

namespace cinq::test {
namespace {

using namespace std::chrono_literals;

// One record's turns, in order, as record text (`A/e8 i8/`), and its side letters.
std::vector<std::string> turns_of(const std::string& path) {
  auto record = Record::read(read_text(data_path(path)));
  REQUIRE(record.ok());
  std::vector<std::string> out;
  for (const Entry& e : record->entries())
    if (e.kind == Entry::Kind::turns)
      for (const TurnText& t : e.turns) out.push_back(turn_text(t));
  return out;
}

// A header's value in a raw message (the first one), unfolded.
std::string header(const std::string& raw, const std::string& name) {
  std::regex re("(^|\n)" + name + ":[ \t]*([^\r\n]*(\r?\n[ \t][^\r\n]*)*)", std::regex::icase);
  std::smatch m;
  if (!std::regex_search(raw, m, re)) return {};
  return std::regex_replace(m[2].str(), std::regex("\r?\n[ \t]+"), " ");
}

// The address inside a header value `"Name" <addr>`.
std::string address_in(const std::string& value) {
  auto lt = value.find('<');
  auto gt = value.find('>', lt);
  return lt == std::string::npos ? value : value.substr(lt + 1, gt - lt - 1);
}

std::string body_of(const std::string& raw) {
  std::string why;
  auto m = mail::read_message(raw, why);
  REQUIRE_MESSAGE(m.has_value(), why);
  return m->text;
}

// A cluster of one: Postfix, and the server mailing through it and taking mail from it over LMTP.
struct MailSite {
  explicit MailSite(bool pipe = false, int sender_rate = 0)
      : sender_rate(sender_rate),
        lmtp(free_local_port()),
        mta(options(pipe)),
        server(std::make_unique<ServerProcess>(data.path(), CINQ_WEB_DIR, args())) {}
  PostfixOptions options(bool pipe) {
    PostfixOptions o;
    if (pipe)
      o.pipe_argv = {CINQ_BINARY, "mail-in", "--server", "http://127.0.0.1:" + std::to_string(http_port),
                     "--recipient", "${recipient}"};
    else
      o.lmtp = "127.0.0.1:" + std::to_string(lmtp);
    return o;
  }
  std::vector<std::string> args() {
    return {"--port", std::to_string(http_port), "--smtp", mta.smtp_url(), "--mail-from", "cinq@play.test",
            "--mail-domain", "play.test", "--lmtp", std::to_string(lmtp), "--mail-gather-ms", "0",
            "--mail-retry-ms", "300", "--public-url", "http://cinq.test", "--mail-sender-rate",
            std::to_string(sender_rate)};
  }
  void restart() {
    server.reset();
    server = std::make_unique<ServerProcess>(data.path(), CINQ_WEB_DIR, args());
  }
  std::uint16_t port() const { return server->port(); }

  int sender_rate;
  TempDir data;
  int http_port = free_local_port();
  int lmtp;
  Postfix mta;
  std::unique_ptr<ServerProcess> server;
};

struct MailGame {
  std::string room;
  std::array<std::string, 2> tokens;
};

std::string token_of(const std::string& link) { return link.substr(link.find("token=") + 6); }

// An empty game of `game` imported with a 1-day clock: Ann in seat 0, Ben invited by mail to seat 1.
MailGame start_game(MailSite& site, const std::string& header_line) {
  auto reply = http_request(site.port(), "POST", "/api/games/import?days=1", header_line + "\n", "text/plain");
  REQUIRE_MESSAGE(reply.status == 201, reply.body);
  json answer = json::parse(reply.body);
  MailGame g{answer["room"], {token_of(answer["links"][0]), token_of(answer["links"][1])}};
  auto set = http_request(site.port(), "POST", "/api/games/" + g.room + "/mail?seat=0&token=" + g.tokens[0],
                          R"({"address":"ann@players.test","by_mail":true,"invite":"ben@players.test","name":"Ben"})",
                          "application/json");
  REQUIRE_MESSAGE(set.status == 200, set.body);
  json s = json::parse(set.body);
  CHECK(s["reply_address"].get<std::string>().rfind("play+" + g.room + ".0.", 0) == 0);
  CHECK(s["invited"] == "ben@players.test");
  return g;
}

// The newest mail in `who`'s mailbox whose body holds `needle`, waiting for it; its index is past `after`.
std::string wait_mail(Postfix& mta, const std::string& who, const std::string& needle, std::size_t& after) {
  const auto end = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < end) {
    auto box = mta.mailbox(who);
    for (std::size_t i = after; i < box.size(); ++i)
      if (body_of(box[i]).find(needle) != std::string::npos) {
        after = i + 1;
        return box[i];
      }
    std::this_thread::sleep_for(100ms);
  }
  std::string bodies;
  for (const auto& m : mta.mailbox(who)) bodies += body_of(m) + "\n-----\n";
  FAIL("no mail for " << who << " holding '" << needle << "'; its mails:\n" << bodies << "the log:\n" << mta.log());
  return {};
}

// A reply to `to_mail` as person `who` writes it, in style `style` (0..5), carrying `text`.
std::string reply(const std::string& who, const std::string& to_mail, int style, const std::string& text,
                  int n) {
  const std::string from = who + "@players.test";
  const std::string to = address_in(header(to_mail, "Reply-To"));
  std::string head = "From: " + who + " <" + from + ">\r\nTo: " + to + "\r\nSubject: Re: " +
                     header(to_mail, "Subject") + "\r\nMessage-ID: <reply." + std::to_string(n) + "." + who +
                     "@players.test>\r\nIn-Reply-To: " + header(to_mail, "Message-ID") +
                     "\r\nDate: Sun, 29 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n";
  std::string quoted;
  for (std::size_t at = 0, nl; at < body_of(to_mail).size(); at = nl + 1) {
    nl = body_of(to_mail).find('\n', at);
    if (nl == std::string::npos) break;
    quoted += "> " + body_of(to_mail).substr(at, nl - at) + "\r\n";
  }
  switch (style % 6) {
    case 0:  // a bare turn
      return head + "Content-Type: text/plain; charset=utf-8\r\n\r\n" + text + "\r\n";
    case 1:  // on top of the quoted mail, with a greeting and a signature (Thunderbird)
      return head + "Content-Type: text/plain; charset=utf-8\r\n\r\nHello,\r\n\r\n" + text +
             "\r\n\r\nBest,\r\n-- \r\n" + who + "\r\nSent from my phone\r\n\r\nOn Sunday, Cinq wrote:\r\n" + quoted;
    case 2: {  // HTML only, the turn in a paragraph, the quote in a blockquote
      return head + "Content-Type: text/html; charset=utf-8\r\n\r\n<html><body><p>Here:</p><p>" + text +
             "</p><blockquote>" + quoted + "</blockquote></body></html>\r\n";
    }
    case 3:  // quoted-printable, latin-1, with an accent in the greeting
      return head + "Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
                    "Voil=E0 mon coup:\r\n" + text + "\r\n";
    case 5: {  // the whole log, as the mail gave it, with the turn on a line of its own at the end
      const std::string body = body_of(to_mail);
      const auto from = body.find("The log so far:\n\n");
      const auto to = body.find("\nThe position:");
      REQUIRE(from != std::string::npos);
      REQUIRE(to != std::string::npos);
      std::string log = body.substr(from + 17, to - from - 17);
      while (!log.empty() && log.back() == '\n') log.pop_back();
      return head + "Content-Type: text/plain; charset=utf-8\r\n\r\n" + log + "\n" + text + "\n";
    }
    case 4:  // base64
    default: {
      static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
      std::string plain = "My move:\n" + text + "\n", b64;
      for (std::size_t i = 0; i < plain.size(); i += 3) {
        unsigned v = static_cast<unsigned char>(plain[i]) << 16;
        if (i + 1 < plain.size()) v |= static_cast<unsigned char>(plain[i + 1]) << 8;
        if (i + 2 < plain.size()) v |= static_cast<unsigned char>(plain[i + 2]);
        b64 += k[(v >> 18) & 63];
        b64 += k[(v >> 12) & 63];
        b64 += i + 1 < plain.size() ? k[(v >> 6) & 63] : '=';
        b64 += i + 2 < plain.size() ? k[v & 63] : '=';
      }
      return head + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + b64 + "\r\n";
    }
  }
}

// Plays `path`'s game whole by mail: Ann (seat 0) and Ben (seat 1) reply to what they are mailed, each
// reply in a new style; one wrong move is answered by an error mail; a spectator sees every turn.
void play_by_mail(MailSite& site, const std::string& path, const std::string& header_line,
                  const std::vector<char>& letters) {
  const auto turns = turns_of(path);
  MailGame g = start_game(site, header_line);
  Peer sue(site.port(), "Sue");
  sue.send({{"type", "join"}, {"room", g.room}});
  sue.until_type("state");
  std::array<std::size_t, 2> seen{0, 0};
  const std::array<std::string, 2> who{"ann", "ben"};
  // Ann's first mail asks her to confirm her address; Ben's is the invitation. Each is answered with a turn.
  std::array<std::string, 2> last{wait_mail(site.mta, "ann", "reply to this mail with your turn", seen[0]),
                                  wait_mail(site.mta, "ben", "invites you", seen[1])};
  std::string log = header_line + "\n";
  for (std::size_t k = 0; k < turns.size(); ++k) {
    const int seat = turns[k][0] == letters[0] ? 0 : 1;
    if (k > 0) last[seat] = wait_mail(site.mta, who[seat], "played: " + turns[k - 1], seen[seat]);
    std::string text = turns[k];
    if (k % 7 == 2) text = std::to_string(k / 2 + 1) + "   " + turns[k];  // a numbered line
    if (k == 5) {  // a mistake first: the same turn again is not this side's move now
      site.mta.send(who[seat] + "@players.test", address_in(header(last[seat], "Reply-To")),
                    reply(who[seat], last[seat], 0, letters[seat] + std::string("/a1 a9/"), 1000 + static_cast<int>(k)));
      std::string refused = wait_mail(site.mta, who[seat], "played nothing", seen[seat]);
      CHECK(body_of(refused).find("line") != std::string::npos);
      last[seat] = refused;
    }
    const std::string raw = reply(who[seat], last[seat], static_cast<int>(k), text, static_cast<int>(k));
    const std::string answer = site.mta.send(who[seat] + "@players.test", address_in(header(last[seat], "Reply-To")), raw);
    REQUIRE_MESSAGE(answer.rfind("250", 0) == 0, answer);
    if (k == 8) {  // the same mail delivered again plays nothing
      CHECK(site.mta.send(who[seat] + "@players.test", address_in(header(last[seat], "Reply-To")), raw).rfind("250", 0) == 0);
    }
  }
  // The end: both are mailed the result with the record attached; the stored record is the source's.
  const std::string end = wait_mail(site.mta, "ann", "The game is over", seen[0]);
  CHECK(end.find("Content-Disposition: attachment") != std::string::npos);
  auto stored = Record::read(http_request(site.port(), "GET", "/api/games/" + g.room + "/record").body);
  REQUIRE(stored.ok());
  std::vector<std::string> played;
  for (const Entry& e : stored->entries())
    if (e.kind == Entry::Kind::turns)
      for (const TurnText& t : e.turns) played.push_back(turn_text(t));
  CHECK(played == turns);
  CHECK(stored->finished());
  // The spectator saw every turn, in order, once.
  std::vector<std::string> watched;
  auto take = [&](const json& e) {
    if (e.value("kind", "") != "play") return;
    std::string t(1, letters[e["seat"].get<int>()]);
    t += '/';
    for (const auto& a : e["actions"]) t += a.get<std::string>() + "/";
    watched.push_back(t);
  };
  for (const json& m : sue.drain(2s)) {
    if (m.value("type", "") == "event") take(m);
    if (m.value("type", "") == "events")
      for (const json& e : m["events"]) take(e);
  }
  CHECK(watched == turns);
}

TEST_CASE("mail: a whole Tablut game is played by replies between two mailboxes through Postfix") {
  MailSite site;
  play_by_mail(site, "records/tablut/sample-escape.txt", "#! TABLUT", {'A', 'D'});
  auto metrics = http_request(site.port(), "GET", "/metrics").body;
  CHECK(metrics.find("cinq_mail_received_total{outcome=\"played\"} 42") != std::string::npos);
  CHECK(metrics.find("cinq_mail_received_total{outcome=\"refused\"} 1") != std::string::npos);
  CHECK(metrics.find("cinq_mail_received_total{outcome=\"duplicate\"} 1") != std::string::npos);
}

TEST_CASE("mail: a whole Baltek game is played by replies between two mailboxes through Postfix") {
  MailSite site;
  play_by_mail(site, "records/baltek/sample-won-2-1.txt", "#! BALTEK goals=2", {'B', 'R'});
}

// The mail counter of /metrics for `label` (cinq_mail_total{state=...} or cinq_mail_received_total{outcome=...}).
std::int64_t counter(MailSite& site, const std::string& line_start) {
  const std::string text = http_request(site.port(), "GET", "/metrics").body;
  auto at = text.find(line_start + " ");
  return at == std::string::npos ? 0 : std::stoll(text.substr(at + line_start.size() + 1));
}

std::string post_turn(MailSite& site, const MailGame& g, int seat, const std::string& line) {
  std::string log = http_request(site.port(), "GET", "/api/games/" + g.room + "/record").body + line + "\n";
  auto r = http_request(site.port(), "POST",
                        "/api/games/" + g.room + "/record?seat=" + std::to_string(seat) + "&token=" + g.tokens[seat],
                        log, "text/plain");
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.body;
}

TEST_CASE("mail: mails waiting while the mail server is down go out once it is back, across a SIGKILL") {
  MailSite site;
  MailGame g = start_game(site, "#! TABLUT");
  std::size_t ann = 0, ben = 0;
  wait_mail(site.mta, "ann", "reply to this mail with your turn", ann);
  wait_mail(site.mta, "ben", "invites you", ben);
  site.mta.stop();
  post_turn(site, g, 0, "A/e8 i8/");  // from the site: Ben's your-turn mail waits in the outbox
  const auto end = std::chrono::steady_clock::now() + 10s;
  while (counter(site, "cinq_mail_total{state=\"deferred\"}") == 0 && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(100ms);
  CHECK_MESSAGE(counter(site, "cinq_mail_total{state=\"deferred\"}") >= 1, site.server->log(), site.mta.log());
  site.server->kill(SIGKILL);
  site.server->wait(5s);
  site.restart();
  site.mta.start();
  wait_mail(site.mta, "ben", "played: A/e8 i8/", ben);
  std::this_thread::sleep_for(3s);  // anything sent twice would be there by now
  int copies = 0;
  for (const auto& m : site.mta.mailbox("ben")) copies += body_of(m).find("played: A/e8 i8/") != std::string::npos;
  CHECK(copies == 1);
}

TEST_CASE("mail: a forged or unknown seat address is refused through the MTA and plays nothing") {
  MailSite site(false, 2);  // two mails an hour from one sender
  MailGame g = start_game(site, "#! TABLUT");
  std::size_t ann = 0;
  const std::string confirm = wait_mail(site.mta, "ann", "reply to this mail with your turn", ann);
  std::string forged = address_in(header(confirm, "Reply-To"));
  const auto at = forged.find('@') - 1;
  forged[at] = forged[at] == 'a' ? 'b' : 'a';
  const std::string head = "From: Mallory <mallory@players.test>\r\nSubject: move\r\nMIME-Version: 1.0\r\n"
                           "Content-Type: text/plain\r\n";
  site.mta.send("mallory@players.test", forged, head + "To: " + forged + "\r\nMessage-ID: <m1@players.test>\r\n\r\nA/e8 i8/\r\n");
  const std::string unknown = "play+ZZZZ.0.aaaaaaaaaaaaaaaa@play.test";
  site.mta.send("mallory@players.test", unknown, head + "To: " + unknown + "\r\nMessage-ID: <m2@players.test>\r\n\r\nA/e8 i8/\r\n");
  auto bounces = site.mta.wait_for_mail("mallory", 2, 30s);
  std::string all = bounces[0] + bounces[1];
  CHECK(all.find("5.7.1") != std::string::npos);
  CHECK(all.find("5.1.1") != std::string::npos);
  auto record = Record::read(http_request(site.port(), "GET", "/api/games/" + g.room + "/record").body);
  REQUIRE(record.ok());
  CHECK(record->turn_count() == 0);
  CHECK(counter(site, "cinq_mail_received_total{outcome=\"forged\"}") == 1);
  CHECK(counter(site, "cinq_mail_received_total{outcome=\"unknown_address\"}") == 1);
  // A third mail from Mallory within the hour: 450, so Postfix keeps it and tries again later.
  site.mta.send("mallory@players.test", forged, head + "To: " + forged + "\r\nMessage-ID: <m3@players.test>\r\n\r\nA/e8 i8/\r\n");
  const auto end = std::chrono::steady_clock::now() + 10s;
  while (counter(site, "cinq_mail_received_total{outcome=\"rate\"}") == 0 && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(100ms);
  CHECK(counter(site, "cinq_mail_received_total{outcome=\"rate\"}") >= 1);
  CHECK(site.mta.queued() >= 1);
  // Postfix logs the deferral once its LMTP client has the answer.
  while (site.mta.log().find("450 4.7.1") == std::string::npos && std::chrono::steady_clock::now() < end + 10s)
    std::this_thread::sleep_for(100ms);
  CHECK(site.mta.log().find("450 4.7.1") != std::string::npos);
}

TEST_CASE("mail: through pipe(8) and cinq mail-in, a reply plays its turn") {
  MailSite site(true);
  MailGame g = start_game(site, "#! TABLUT");
  std::size_t ann = 0, ben = 0;
  const std::string confirm = wait_mail(site.mta, "ann", "reply to this mail with your turn", ann);
  site.mta.send("ann@players.test", address_in(header(confirm, "Reply-To")), reply("ann", confirm, 1, "A/e8 i8/", 1));
  wait_mail(site.mta, "ben", "played: A/e8 i8/", ben);
  // The reply from Ann's address confirmed it: she is mailed the answer.
  wait_mail(site.mta, "ann", "Your turn is played: A/e8 i8/", ann);
}

TEST_CASE("mail: a reminder comes before the deadline at the time the player chose") {
  MailSite site;
  MailGame g = start_game(site, "#! TABLUT");
  std::size_t ben = 0;
  wait_mail(site.mta, "ben", "invites you", ben);
  auto set = http_request(site.port(), "POST", "/api/games/" + g.room + "/mail?seat=1&token=" + g.tokens[1],
                          R"({"reminders":"86397s"})", "application/json");
  REQUIRE_MESSAGE(set.status == 200, set.body);
  post_turn(site, g, 0, "A/e8 i8/");
  wait_mail(site.mta, "ben", "played: A/e8 i8/", ben);
  const std::string reminder = wait_mail(site.mta, "ben", "Reminder: your turn", ben);
  CHECK(header(reminder, "Subject") == header(site.mta.mailbox("ben")[0], "Subject"));  // one thread
  CHECK(!header(reminder, "References").empty());
  CHECK(header(reminder, "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click");
}

// A new game whose seat 0 is given `address` (its confirmation mail goes there), then waits until the
// counter `line_start` of /metrics is not 0 (at most `wait`): the target of the seat's mail settings.
std::string seat_mailing(MailSite& site, const std::string& address, const std::string& line_start,
                         std::chrono::seconds wait) {
  auto reply = http_request(site.port(), "POST", "/api/games/import?days=1", "#! TABLUT\n", "text/plain");
  REQUIRE(reply.status == 201);
  json answer = json::parse(reply.body);
  const std::string room = answer["room"], token = token_of(answer["links"][0]);
  const std::string target = "/api/games/" + room + "/mail?seat=0&token=" + token;
  auto set = http_request(site.port(), "POST", target, json{{"address", address}}.dump(), "application/json");
  REQUIRE_MESSAGE(set.status == 200, set.body);
  const auto end = std::chrono::steady_clock::now() + wait;
  while (counter(site, line_start) == 0 && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(100ms);
  return target;
}

TEST_CASE("mail: a log repeating the first side and a mail with no moves are answered with what to do") {
  MailSite site;
  MailGame g = start_game(site, "#! TABLUT");
  std::size_t ann = 0;
  const std::string confirm = wait_mail(site.mta, "ann", "reply to this mail with your turn", ann);
  const std::string to = address_in(header(confirm, "Reply-To"));
  // The answer's words with its line breaks undone: what a player reads, however the mail was wrapped.
  auto refusal = [&](const std::string& text, int n) {
    site.mta.send("ann@players.test", to, reply("ann", confirm, 0, text, n));
    std::string body = body_of(wait_mail(site.mta, "ann", "played nothing", ann));
    std::string flat;
    for (char c : body) {
      const bool space = c == ' ' || c == '\n' || c == '\r';
      if (!space || (!flat.empty() && flat.back() != ' ')) flat += space ? ' ' : c;
    }
    return flat;
  };
  // The Attackers' turn on line 1, then the Attackers again on line 2.
  const std::string twice = refusal("#! TABLUT\n1   A/e8 i8/\n2   A/d1 d5/", 1);
  CHECK_MESSAGE(
      twice.find(
          "line 3: this turn line gives Attackers the turn again: each line holds one turn of each side") !=
          std::string::npos,
      twice);
  CHECK_MESSAGE(
      twice.find("write the turn of Defenders after that of Attackers on turn line 1") != std::string::npos,
      twice);
  // A mail with nothing of its own.
  const std::string empty = refusal("", 2);
  CHECK_MESSAGE(empty.find("your mail had no moves: reply with the log and your turn under it") != std::string::npos,
                empty);
  CHECK_MESSAGE(empty.find("(like A/") != std::string::npos, empty);
  auto record = Record::read(http_request(site.port(), "GET", "/api/games/" + g.room + "/record").body);
  REQUIRE(record.ok());
  CHECK(record->turn_count() == 0);
}

TEST_CASE("mail: a seat whose page is in French gets its mails in French, the other seat's stay English") {
  MailSite site;
  const auto turns = turns_of("records/tablut/sample-escape.txt");
  auto reply0 = http_request(site.port(), "POST", "/api/games/import?days=1", "#! TABLUT\n", "text/plain");
  REQUIRE_MESSAGE(reply0.status == 201, reply0.body);
  json answer = json::parse(reply0.body);
  MailGame g{answer["room"], {token_of(answer["links"][0]), token_of(answer["links"][1])}};
  // Ann's page is in French (mail.js sends its language); Ben, invited from it, gets the invitation in French,
  // then sets his own seat to English. Ann's seat is taken by her first mail, under the name it gives ("ann").
  auto set = http_request(site.port(), "POST", "/api/games/" + g.room + "/mail?seat=0&token=" + g.tokens[0],
                          R"({"address":"ann@players.test","by_mail":true,"invite":"ben@players.test","name":"Ben","zone":"Europe/Paris","language":"fr"})",
                          "application/json");
  REQUIRE_MESSAGE(set.status == 200, set.body);
  CHECK(json::parse(set.body)["language"] == "fr");
  auto bad = http_request(site.port(), "POST", "/api/games/" + g.room + "/mail?seat=0&token=" + g.tokens[0],
                          R"({"language":"xx"})", "application/json");
  CHECK(bad.status == 400);
  CHECK(bad.body.find("language") != std::string::npos);
  std::size_t ann = 0, ben = 0;
  const std::string invite = wait_mail(site.mta, "ben", "vous invite", ben);
  CHECK(body_of(invite).find("Un joueur vous invite à une partie de Tablut par correspondance sur Cinq (partie " +
                             g.room + ") : 1 jour par coup.\n") == 0);
  auto english = http_request(site.port(), "POST", "/api/games/" + g.room + "/mail?seat=1&token=" + g.tokens[1],
                              R"({"language":"en"})", "application/json");
  REQUIRE_MESSAGE(english.status == 200, english.body);
  // Ann moves first: her confirmation is in French, her reply to it plays her turn.
  const std::string confirm = wait_mail(site.mta, "ann", "répondez à ce mail avec votre tour", ann);
  site.mta.send("ann@players.test", address_in(header(confirm, "Reply-To")), reply("ann", confirm, 0, turns[0], 1));
  CHECK(body_of(wait_mail(site.mta, "ann", "Votre tour est joué : " + turns[0], ann)).find("Le relevé jusqu'ici") !=
        std::string::npos);
  // Ben's your-turn mail is English, as before.
  const std::string to_ben = wait_mail(site.mta, "ben", "It is your turn, Ben", ben);
  CHECK(body_of(to_ben).find("ann played: " + turns[0]) != std::string::npos);
  CHECK(header(to_ben, "Subject") == "Cinq: Tablut, ann vs Ben (" + g.room + ")");
  site.mta.send("ben@players.test", address_in(header(to_ben, "Reply-To")), reply("ben", to_ben, 0, turns[1], 2));
  // Ann's your-turn mail: French words, a French date in her zone, the record and notation as they are.
  const std::string to_ann = wait_mail(site.mta, "ann", "À vous de jouer, ann", ann);
  const std::string body = body_of(to_ann);
  CHECK_MESSAGE(body.find("À vous de jouer, ann, au Tablut (partie " + g.room + ").\n") == 0, body);
  CHECK_MESSAGE(body.find("Ben a joué : " + turns[1] + "\n") != std::string::npos, body);
  CHECK_MESSAGE(std::regex_search(body, std::regex("Date limite : (lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) "
                                                   "[0-9]+ [a-zéû]+ 20[0-9]{2} à [0-9]{2}:[0-9]{2} CES?T \\([0-9]{2}:[0-9]{2} UTC\\)\\. "
                                                   "Passé ce délai")),
                body);
  const auto log = body.find("\nLe relevé jusqu'ici :\n\n#! TABLUT\n");
  CHECK_MESSAGE(log != std::string::npos, body);
  CHECK_MESSAGE(body.find(turns[1], log) != std::string::npos, body);
  CHECK(body.find("Pour jouer par mail, répondez à ce message") != std::string::npos);
  // The subject in French (accents would be RFC 2047 words: tests/mail/words_test.cpp), read back.
  std::string why;
  auto read = mail::read_message(to_ann, why);
  REQUIRE_MESSAGE(read.has_value(), why);
  CHECK(read->subject == "Cinq : Tablut, ann contre Ben (" + g.room + ")");
  // A refused turn is answered in French too, the rules' reason included: j1 is off the board.
  site.mta.send("ann@players.test", address_in(header(to_ann, "Reply-To")),
                reply("ann", to_ann, 0, "A/a1 j1/", 3));
  const std::string refused = body_of(wait_mail(site.mta, "ann", "Votre mail n'a rien joué", ann));
  CHECK_MESSAGE(
      std::regex_search(refused, std::regex("Votre mail n'a rien joué : ligne [0-9]+ : « a1 j1 » : « j1 » "
                                            "n'est pas une case \\(de a1 à i9, en minuscules\\)\n")),
      refused);
  CHECK_MESSAGE(refused.find("is not a square") == std::string::npos, refused);
  // So is a refusal of the room's own: a log that stops before the stored game.
  site.mta.send("ann@players.test", address_in(header(to_ann, "Reply-To")),
                reply("ann", to_ann, 0, "#! TABLUT\r\n1   " + turns[0], 4));
  const std::string stale = body_of(wait_mail(site.mta, "ann", "Votre mail n'a rien joué", ann));
  CHECK_MESSAGE(stale.find("Votre mail n'a rien joué : ligne 2 : le relevé s'arrête après le tour 1, mais la "
                           "partie va jusqu'au tour 2 (tour suivant : ") == 0,
                stale);
  CHECK_MESSAGE(stale.find("fetch the current record") == std::string::npos, stale);
}

TEST_CASE("mail: a mail refused for good is not tried again and is shown to its seat") {
  MailSite site;
  // No such mailbox: Postfix refuses the recipient (550), so the confirmation fails for good.
  const std::string target = seat_mailing(site, "nobody@players.test", "cinq_mail_total{state=\"bounced\"}", 10s);
  CHECK(counter(site, "cinq_mail_total{state=\"bounced\"}") == 1);
  json seat = json::parse(http_request(site.port(), "GET", target).body);
  REQUIRE(seat["failed"].size() == 1);
  CHECK(seat["failed"][0]["to"] == "nobody@players.test");
  CHECK(seat["failed"][0]["error"].get<std::string>().find("550") != std::string::npos);
  std::this_thread::sleep_for(1s);
  CHECK(counter(site, "cinq_mail_total{state=\"bounced\"}") == 1);
  CHECK(counter(site, "cinq_mail_total{state=\"deferred\"}") == 0);
}

TEST_CASE("mail: a mail bounced after it was accepted comes back to --mail-from and is shown failed to its seat") {
  MailSite site;
  // Postfix takes the confirmation for gone@ and sends it, then bounces it: the delivery status notification
  // goes to cinq@play.test, which Postfix hands to Cinq over LMTP.
  const std::string target =
      seat_mailing(site, "gone@players.test", "cinq_mail_received_total{outcome=\"bounce\"}", 30s);
  CHECK_MESSAGE(counter(site, "cinq_mail_received_total{outcome=\"bounce\"}") == 1, site.mta.log());
  CHECK(counter(site, "cinq_mail_total{state=\"sent\"}") == 1);  // the mail server took it first
  json seat = json::parse(http_request(site.port(), "GET", target).body);
  REQUIRE(seat["failed"].size() == 1);
  CHECK(seat["failed"][0]["to"] == "gone@players.test");
  const std::string error = seat["failed"][0]["error"];
  CHECK_MESSAGE(error.rfind("bounced: ", 0) == 0, error);
  CHECK_MESSAGE(error.find("this mailbox is gone") != std::string::npos, error);
  // Nothing answered the bounce (no mail to the robot that sent it).
  CHECK(counter(site, "cinq_mail_total{state=\"sent\"}") == 1);
}

}  // namespace

namespace {

// The path and query of a link the server mailed (http://cinq.test/...), to ask this test's server.
std::string link_in(const std::string& body, const std::string& start) {
  const auto at = body.find("http://cinq.test" + start);
  REQUIRE_MESSAGE(at != std::string::npos, "no link " << start << " in:\n" << body);
  const auto end = body.find_first_of(" \r\n>", at);
  return body.substr(at + 16, end - at - 16);
}

json ask_ws(Peer& p, const json& m, const std::string& answer) {
  p.send(m);
  return p.until([&](const json& r) { return r.value("type", "") == answer || r.value("type", "") == "error"; });
}

}  // namespace

TEST_CASE("mail: an account's confirmed address, its settings per kind, its daily digest and its unsubscribe") {
  MailSite site;
  std::size_t carla_seen = 0, dan_seen = 0;
  std::string carla_id;
  std::array<std::string, 2> tokens;
  std::string room;
  {
    Peer carla(site.port(), "Carla");
    carla_id = carla.id;
    REQUIRE(ask_ws(carla, {{"type", "register"}, {"username", "Carla"}, {"password", "correct horse"}}, "registered")["type"] ==
            "registered");
    json none = ask_ws(carla, {{"type", "mail_settings"}}, "mail_settings");
    CHECK(none == json{{"type", "mail_settings"}, {"available", true}, {"address", ""}, {"pending", ""}, {"turn", true},
                       {"reminder", true}, {"end", true}, {"digest_hour", nullptr}, {"zone", ""}, {"language", ""}});
    CHECK(ask_ws(carla, {{"type", "set_mail"}, {"address", "not an address"}}, "mail_settings")["code"] == "bad_message");
    json unknown = ask_ws(carla, {{"type", "set_mail"}, {"language", "xx"}}, "mail_settings");
    CHECK(unknown["code"] == "bad_message");
    CHECK(unknown["message"].get<std::string>().find("'language'") != std::string::npos);
    CHECK(ask_ws(carla, {{"type", "set_mail"}, {"digest_hour", 24}}, "mail_settings")["code"] == "bad_message");
    // A new address is pending until the link mailed to it is followed; a wrong code changes nothing.
    json pending = ask_ws(carla, {{"type", "set_mail"}, {"address", "carla@players.test"}}, "mail_settings");
    CHECK(pending["pending"] == "carla@players.test");
    CHECK(pending["address"] == "");
    // Saved again with the same pending address (the form sends it with every save): no second mail, and the
    // first link stands.
    CHECK(ask_ws(carla, {{"type", "set_mail"}, {"address", "Carla@players.test"}, {"end", true}}, "mail_settings")["pending"] ==
          "carla@players.test");
    const std::string confirm = wait_mail(site.mta, "carla", "To get its games' mails here", carla_seen);
    std::this_thread::sleep_for(1s);
    CHECK(site.mta.mailbox("carla").size() == 1);
    CHECK(header(confirm, "List-Unsubscribe").empty());  // nothing more goes there until it is confirmed
    const std::string link = link_in(body_of(confirm), "/api/account/confirm?");
    CHECK(http_request(site.port(), "GET", link.substr(0, link.find("code=") + 5) + "wrong").status == 403);
    auto confirmed = http_request(site.port(), "GET", link);
    CHECK_MESSAGE(confirmed.status == 200, confirmed.body);
    CHECK(http_request(site.port(), "GET", link).status == 403);  // used once
    CHECK(ask_ws(carla, {{"type", "mail_settings"}}, "mail_settings")["address"] == "carla@players.test");
    // A correspondence game she creates (seat 1, the Defenders): her seat takes the account's address.
    carla.send({{"type", "create"}, {"game", "tablut"}, {"clock", {{"days", 1}}}, {"seat", 1}});
    json state = carla.until_type("state");
    room = state["room"];
    for (int s = 0; s < 2; ++s) tokens[s] = token_of(state["links"][s]);
  }  // she closes the browser: her turns are mailed
  json seat_mail;
  for (int i = 0; i < 100; ++i) {
    seat_mail = json::parse(http_request(site.port(), "GET", "/api/games/" + room + "/mail?seat=1&token=" + tokens[1]).body);
    if (seat_mail.value("address", "") == "carla@players.test") break;
    std::this_thread::sleep_for(50ms);
  }
  CHECK(seat_mail["address"] == "carla@players.test");
  CHECK(seat_mail["confirmed"] == true);
  // Dan is invited by mail and moves first; Carla gets her turn at her account's address and replies.
  REQUIRE(http_request(site.port(), "POST", "/api/games/" + room + "/mail?seat=1&token=" + tokens[1],
                       R"({"invite":"dan@players.test","name":"Dan"})", "application/json")
              .status == 200);
  const auto turns = turns_of("records/tablut/sample-escape.txt");
  std::string dan_last = wait_mail(site.mta, "dan", "invites you", dan_seen);

  REQUIRE(site.mta.send("dan@players.test", address_in(header(dan_last, "Reply-To")), reply("dan", dan_last, 0, turns[0], 2000))
              .rfind("250", 0) == 0);
  std::string carla_last = wait_mail(site.mta, "carla", "played: " + turns[0], carla_seen);
  CHECK(header(carla_last, "To").find("carla@players.test") != std::string::npos);
  REQUIRE(site.mta.send("carla@players.test", address_in(header(carla_last, "Reply-To")),
                        reply("carla", carla_last, 1, turns[1], 3001))
              .rfind("250", 0) == 0);
  dan_last = wait_mail(site.mta, "dan", "played: " + turns[1], dan_seen);
  // Carla wants no your-turn mail: Dan's next turn sends her none (skipped, counted).
  auto carla_says = [&](const json& m) {
    WsClient ws(site.port());
    ws.send(json{{"type", "login"}, {"username", "carla"}, {"password", "correct horse"}}.dump());
    for (;;) {
      auto r = ws.receive(20s);
      REQUIRE(r);
      if (json::parse(*r).value("type", "") == "welcome") break;
    }
    ws.send(m.dump());
    for (;;) {
      auto r = ws.receive(20s);
      REQUIRE(r);
      json j = json::parse(*r);
      if (j.value("type", "") == "mail_settings" || j.value("type", "") == "error") return j;
    }
  };
  CHECK(carla_says({{"type", "set_mail"}, {"turn", false}})["turn"] == false);
  REQUIRE(site.mta.send("dan@players.test", address_in(header(dan_last, "Reply-To")), reply("dan", dan_last, 0, turns[2], 2002))
              .rfind("250", 0) == 0);
  for (int i = 0; i < 200 && counter(site, "cinq_mail_total{state=\"skipped\"}") < 1; ++i) std::this_thread::sleep_for(50ms);
  CHECK(counter(site, "cinq_mail_total{state=\"skipped\"}") == 1);
  const std::size_t carla_box = site.mta.mailbox("carla").size();
  // The digest at this hour (UTC) lists the game where it is her turn, with the turn Dan played.
  const std::int64_t hour = (std::chrono::duration_cast<std::chrono::hours>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count()) % 24;
  // Her zone is UTC+0 all year (Reykjavik), so the hour is the same; her deadlines read in her zone.
  json digest_on = carla_says({{"type", "set_mail"}, {"turn", true}, {"digest_hour", hour}, {"zone", "Atlantic/Reykjavik"}});
  CHECK(digest_on["digest_hour"] == hour);
  CHECK(digest_on["zone"] == "Atlantic/Reykjavik");
  CHECK(carla_says({{"type", "set_mail"}, {"zone", "Europe/Nowhere"}})["code"] == "bad_message");
  const std::string digest = wait_mail(site.mta, "carla", "It is your turn in 1 game", carla_seen);
  CHECK(site.mta.mailbox("carla").size() == carla_box + 1);  // the digest alone: the skipped mail never came
  CHECK(header(digest, "Subject") == "Cinq: your turn in 1 game");
  CHECK(body_of(digest).find("(game " + room + ")") != std::string::npos);
  CHECK(body_of(digest).find("Their last turn: " + turns[2]) != std::string::npos);
  CHECK(body_of(digest).find("Deadline: ") != std::string::npos);
  CHECK_MESSAGE(body_of(digest).find(" GMT (") != std::string::npos, body_of(digest));
  CHECK(header(digest, "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click");
  // Its one-click unsubscribe (RFC 8058: a POST, no login) turns every game mail of the account off.
  const std::string unsubscribe = address_in(header(digest, "List-Unsubscribe"));
  REQUIRE(unsubscribe.rfind("http://cinq.test/api/account/unsubscribe?", 0) == 0);
  auto tampered = http_request(site.port(), "POST", unsubscribe.substr(16, unsubscribe.find("key=") - 16 + 4) + "x",
                               "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded");
  CHECK(tampered.status == 403);
  auto done = http_request(site.port(), "POST", unsubscribe.substr(16), "List-Unsubscribe=One-Click",
                           "application/x-www-form-urlencoded");
  CHECK_MESSAGE(done.status == 200, done.body);
  json off = carla_says({{"type", "mail_settings"}});
  CHECK(off["turn"] == false);
  CHECK(off["reminder"] == false);
  CHECK(off["end"] == false);
  CHECK(off["digest_hour"] == nullptr);
  CHECK(off["address"] == "carla@players.test");
  CHECK(off["zone"] == "Atlantic/Reykjavik");  // her zone stays
  CHECK(off["language"] == "");
  // She chooses French (the site's switch): her game's seat, which has her account's address, takes it.
  CHECK(carla_says({{"type", "set_mail"}, {"language", "fr"}})["language"] == "fr");
  for (int i = 0; i < 100; ++i) {
    seat_mail = json::parse(http_request(site.port(), "GET", "/api/games/" + room + "/mail?seat=1&token=" + tokens[1]).body);
    if (seat_mail.value("language", "") == "fr") break;
    std::this_thread::sleep_for(50ms);
  }
  CHECK(seat_mail["language"] == "fr");
  CHECK(seat_mail["address"] == "carla@players.test");
  // SIGTERM stops a server that takes LMTP at once, not after the transport's 3 s stop deadline: its listener
  // is closed before the transport stops.
  const auto asked = std::chrono::steady_clock::now();
  site.server->kill(SIGTERM);
  const int status = site.server->wait(10s);
  CHECK(WIFEXITED(status));
  CHECK(std::chrono::steady_clock::now() - asked < 2500ms);
}


TEST_CASE("mail: two nodes of a cluster share the outbox: each mail goes out once, whichever node sends it") {
  PostgresCluster& pg = PostgresCluster::shared();
  pg.exec("DROP SCHEMA IF EXISTS mail_cluster CASCADE");
  const std::string uri = pg.uri_for_schema("mail_cluster");
  RedisServer redis;
  const std::array<int, 2> ports{free_local_port(), free_local_port()};
  // Mail for the game domain goes in through node n2 (cinq mail-in); the room lives on n1, which made it.
  PostfixOptions o;
  o.pipe_argv = {CINQ_BINARY, "mail-in", "--server", "http://127.0.0.1:" + std::to_string(ports[1]), "--recipient",
                 "${recipient}"};
  Postfix mta(o);
  std::array<TempDir, 2> data;
  std::vector<std::unique_ptr<ServerProcess>> nodes;
  for (int n = 0; n < 2; ++n)
    nodes.push_back(std::make_unique<ServerProcess>(
        data[n].path(), CINQ_WEB_DIR,
        std::vector<std::string>{"--port", std::to_string(ports[n]), "--store", uri, "--bus", redis.uri(), "--node",
                                 "n" + std::to_string(n + 1), "--smtp", mta.smtp_url(), "--mail-from", "cinq@play.test",
                                 "--mail-domain", "play.test", "--mail-gather-ms", "0", "--public-url", "http://cinq.test",
                                 "--mail-sender-rate", "0"}));
  auto made = http_request(nodes[0]->port(), "POST", "/api/games/import?days=1", "#! TABLUT\n", "text/plain");
  REQUIRE_MESSAGE(made.status == 201, made.body);
  json answer = json::parse(made.body);
  const std::string room = answer["room"];
  const std::string token0 = token_of(answer["links"][0]);
  // Set through n2: forwarded to n1.
  auto set = http_request(nodes[1]->port(), "POST", "/api/games/" + room + "/mail?seat=0&token=" + token0,
                          R"({"address":"ann@players.test","by_mail":true,"invite":"ben@players.test","name":"Ben"})",
                          "application/json");
  REQUIRE_MESSAGE(set.status == 200, set.body);
  const auto turns = turns_of("records/tablut/sample-escape.txt");
  std::array<std::size_t, 2> seen{0, 0};
  const std::array<std::string, 2> who{"ann", "ben"};
  std::array<std::string, 2> last{wait_mail(mta, "ann", "reply to this mail with your turn", seen[0]),
                                  wait_mail(mta, "ben", "invites you", seen[1])};
  constexpr std::size_t kTurns = 10;
  for (std::size_t k = 0; k < kTurns; ++k) {
    const int seat = turns[k][0] == 'A' ? 0 : 1;
    if (k > 0) last[seat] = wait_mail(mta, who[seat], "played: " + turns[k - 1], seen[seat]);
    const std::string sent = mta.send(who[seat] + "@players.test", address_in(header(last[seat], "Reply-To")),
                                      reply(who[seat], last[seat], 0, turns[k], 5000 + static_cast<int>(k)));
    REQUIRE_MESSAGE(sent.rfind("250", 0) == 0, sent);
  }
  last[0] = wait_mail(mta, "ann", "played: " + turns[kTurns - 1], seen[0]);
  // Every mail the outbox sent arrived once: no Message-ID twice in the mailboxes, as many as were sent, and
  // the two nodes' senders together sent them all.
  auto sent_in_store = [&] {
    return std::stoll(ask_store_uri(uri, "SELECT count(*) FROM mail_outbox WHERE state = 'sent'"));
  };
  auto delivered = [&] { return mta.mailbox("ann").size() + mta.mailbox("ben").size(); };
  for (int i = 0; i < 100 && (sent_in_store() != static_cast<long long>(delivered()) ||
                              ask_store_uri(uri, "SELECT count(*) FROM mail_outbox WHERE state = 'queued'") != "0");
       ++i)
    std::this_thread::sleep_for(100ms);
  std::set<std::string> ids;
  for (const auto& box : {mta.mailbox("ann"), mta.mailbox("ben")})
    for (const std::string& m : box) CHECK_MESSAGE(ids.insert(header(m, "Message-ID")).second, "twice: " << header(m, "Message-ID"));
  CHECK(ids.size() == delivered());
  CHECK(sent_in_store() == static_cast<long long>(delivered()));
  CHECK(delivered() >= 2 * kTurns);  // each turn: the player's answer and the opponent's your-turn mail
  std::int64_t by_nodes = 0;
  for (const auto& node : nodes) {
    const std::string text = http_request(node->port(), "GET", "/metrics").body;
    const std::string label = "cinq_mail_total{state=\"sent\"} ";
    auto at = text.find(label);
    REQUIRE(at != std::string::npos);
    by_nodes += std::stoll(text.substr(at + label.size()));
  }
  CHECK(by_nodes == static_cast<std::int64_t>(delivered()));
}

}  // namespace cinq::test
