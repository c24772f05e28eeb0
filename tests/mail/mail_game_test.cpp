// Correspondence by e-mail end to end: a real Postfix on loopback delivers the players' mailboxes and hands
// mail for the game's domain to `cinq serve --lmtp` (or to `cinq mail-in` through pipe(8)); the server mails
// through it with libcurl. Whole games are played by replies written as people write them (bare turns,
// numbered lines, whole logs, quoted replies, HTML-only mails, quoted-printable, signatures, a mistake),
// while a spectator watches over the WebSocket.
#include <doctest/doctest.h>
#include <signal.h>

#include <regex>
#include <thread>

#include "mail/read.h"
#include "rules/notation.h"
#include "tests/server/peer.h"
#include "tests/support.h"
#include "tests/support/daemon.h"
#include "tests/support/postfix.h"
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

TEST_CASE("mail: a mail refused for good is not tried again and is shown to its seat") {
  MailSite site;
  auto reply = http_request(site.port(), "POST", "/api/games/import?days=1", "#! TABLUT\n", "text/plain");
  REQUIRE(reply.status == 201);
  json answer = json::parse(reply.body);
  const std::string room = answer["room"], token = token_of(answer["links"][0]);
  const std::string target = "/api/games/" + room + "/mail?seat=0&token=" + token;
  // No such mailbox: Postfix refuses the recipient (550), so the confirmation fails for good.
  auto set = http_request(site.port(), "POST", target, R"({"address":"nobody@players.test"})", "application/json");
  REQUIRE_MESSAGE(set.status == 200, set.body);
  const auto end = std::chrono::steady_clock::now() + 10s;
  while (counter(site, "cinq_mail_total{state=\"bounced\"}") == 0 && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(100ms);
  CHECK(counter(site, "cinq_mail_total{state=\"bounced\"}") == 1);
  json seat = json::parse(http_request(site.port(), "GET", target).body);
  REQUIRE(seat["failed"].size() == 1);
  CHECK(seat["failed"][0]["to"] == "nobody@players.test");
  CHECK(seat["failed"][0]["error"].get<std::string>().find("550") != std::string::npos);
  std::this_thread::sleep_for(1s);
  CHECK(counter(site, "cinq_mail_total{state=\"bounced\"}") == 1);
  CHECK(counter(site, "cinq_mail_total{state=\"deferred\"}") == 0);
}

}  // namespace
}  // namespace cinq::test
