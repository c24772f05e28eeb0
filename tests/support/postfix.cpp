// Postfix for tests (postfix.h): its configuration written into a temporary directory, its master process
// run in the foreground (`postfix start-fg`) under a Daemon, stopped with `postfix stop`.
//
// What the directory holds: etc/ (main.cf, master.cf, the maps: root's, 0755), queue/ (root's; `postfix`
// makes its subdirectories with their owners, the postfix user and postdrop), data/ (made by `postfix`, the
// postfix user's), mail/ (nobody's: virtual(8) delivers as nobody), maillog, master.log and tools.log. The
// directory itself is 0755: the postfix user walks through it to its queue.
//
// The players' mailboxes: virtual(8) refuses a map result computed from the address ("regular expression
// substitution is not allowed"), so one Maildir can hold the mail of one address per map entry only. Any
// address must be a mailbox here, so all of them share one Maildir (mail/players/), and mailbox(LOCAL) reads
// the messages whose Delivered-To (the first header virtual(8) writes after Return-Path) is LOCAL@domain.
#include "tests/support/postfix.h"

#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <utility>

namespace cinq::test {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kStartTimeout = 20s;
constexpr auto kToolTimeout = 20s;
constexpr int kIoTimeoutSeconds = 10;
// The Maildir of every mailbox of the players' domain, under virtual_mailbox_base.
constexpr const char* kMaildir = "players";

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("postfix: cannot write " + path);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A regular expression (POSIX ERE, Postfix's regexp: table) matching `text` and nothing else.
std::string regex_quoted(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::string("\\^$.|?*+()[]{}/").find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

// One word of master.cf's argv=: as it is, or in braces if it holds white space (Postfix 3.0 and later).
std::string master_word(const std::string& word) {
  if (word.find('\n') != std::string::npos) throw std::runtime_error("postfix: a pipe_argv word holds a line break");
  if (!word.empty() && word[0] != '{' && word.find_first_of(" \t") == std::string::npos) return word;
  if (word.find('}') != std::string::npos)
    throw std::runtime_error("postfix: a pipe_argv word with white space cannot hold '}': " + word);
  return "{ " + word + " }";
}

// The value of a message's first `name:` header ("" if it has none), its header being the lines before the
// first empty one.
std::string first_header(const std::string& raw, const std::string& name) {
  const std::string wanted = lower(name) + ":";
  for (std::size_t at = 0; at < raw.size();) {
    std::size_t end = raw.find('\n', at);
    if (end == std::string::npos) end = raw.size();
    std::string line = raw.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) break;
    if (lower(line.substr(0, wanted.size())) == wanted) {
      std::string value = line.substr(wanted.size());
      value.erase(0, value.find_first_not_of(" \t"));
      return value;
    }
    at = end + 1;
  }
  return "";
}

// A Maildir's messages (new/ and cur/), oldest first: virtual(8) names them "SECONDS.VdevIinoMmicros.host".
std::vector<std::string> maildir_files(const std::string& dir) {
  struct Entry {
    long seconds, micros;
    std::string name, path;
  };
  std::vector<Entry> entries;
  for (const char* sub : {"/new", "/cur"}) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir + sub, ec)) {
      const std::string name = e.path().filename().string();
      if (name.empty() || name[0] == '.' || !e.is_regular_file(ec)) continue;
      const auto m = name.find('M', name.find('.'));
      entries.push_back({std::atol(name.c_str()), m == std::string::npos ? 0L : std::atol(name.c_str() + m + 1),
                         name, e.path().string()});
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.seconds, a.micros, a.name) < std::tie(b.seconds, b.micros, b.name);
  });
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.path);
  return out;
}

// One blocking SMTP conversation with 127.0.0.1:PORT.
class SmtpClient {
 public:
  explicit SmtpClient(int port) : fd_(connect_loopback(port, kIoTimeoutSeconds)) {
    if (fd_ < 0) throw std::runtime_error("postfix: cannot connect to 127.0.0.1:" + std::to_string(port));
  }
  ~SmtpClient() { ::close(fd_); }
  SmtpClient(const SmtpClient&) = delete;
  SmtpClient& operator=(const SmtpClient&) = delete;

  // A reply's last line ("250 ..." after any "250-..." lines), without its CRLF.
  std::string reply() {
    for (;;) {
      std::size_t end;
      while ((end = buffer_.find('\n')) == std::string::npos) {
        char chunk[4096];
        const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n <= 0) throw std::runtime_error("postfix: no SMTP reply (connection closed or 10 s timeout)");
        buffer_.append(chunk, static_cast<std::size_t>(n));
      }
      std::string line = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.size() < 4 || line[3] != '-') return line;
    }
  }
  void send(const std::string& text) {
    for (std::size_t at = 0; at < text.size();) {
      const ssize_t n = ::send(fd_, text.data() + at, text.size() - at, MSG_NOSIGNAL);
      if (n <= 0) throw std::runtime_error("postfix: cannot send to its SMTP server");
      at += static_cast<std::size_t>(n);
    }
  }
  std::string command(const std::string& line) {
    send(line + "\r\n");
    return reply();
  }

 private:
  int fd_;
  std::string buffer_;
};

// The message as DATA sends it: CRLF line ends, a line that starts with '.' given another (RFC 5321 4.5.2),
// a CRLF at its end, then the ".\r\n" that ends it.
std::string data_of(const std::string& raw) {
  std::string out;
  bool line_start = true;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (line_start && c == '.') out += '.';
    if (c == '\n' && (i == 0 || raw[i - 1] != '\r')) out += '\r';
    out += c;
    line_start = c == '\n';
  }
  if (!line_start) out += "\r\n";
  return out + ".\r\n";
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

Postfix::Postfix(PostfixOptions options) : options_(std::move(options)), dir_(std::make_unique<TempDir>()) {
  const std::string& d = dir_->path();
  const passwd* postfix_user = ::getpwnam("postfix");
  if (postfix_user == nullptr)
    throw std::runtime_error("postfix: no user 'postfix' (Debian's postfix; scripts/install-deps.sh installs it)");
  const passwd* nobody = ::getpwnam("nobody");
  if (nobody == nullptr) throw std::runtime_error("postfix: no user 'nobody'");
  ::chmod(d.c_str(), 0755);  // mkdtemp made it 0700: the postfix user walks through it to its queue
  for (const char* sub : {"/etc", "/queue", "/mail"})
    if (::mkdir((d + sub).c_str(), 0755) != 0) throw std::runtime_error("postfix: cannot make " + d + sub);
  // virtual(8) makes the Maildir as virtual_uid_maps' user.
  if (::chown((d + "/mail").c_str(), nobody->pw_uid, nobody->pw_gid) != 0)
    throw std::runtime_error("postfix: cannot give " + d + "/mail to nobody (the tests run as root)");
  port_ = free_local_port();
  write_config();
  start();
}

Postfix::~Postfix() {
  try {
    stop();
  } catch (const std::exception&) {
    if (master_.running()) kill_master();
  }
}

void Postfix::write_config() const {
  const std::string& d = dir_->path();
  const std::string etc = d + "/etc";
  const passwd* nobody = ::getpwnam("nobody");
  const std::string uid = std::to_string(nobody->pw_uid), gid = std::to_string(nobody->pw_gid);

  // Where the game domain's mail goes (nothing configured: it waits in the queue).
  std::string transport = options_.game_domain + " ";
  if (!options_.lmtp.empty())
    transport += "lmtp:inet:" + options_.lmtp;
  else if (!options_.pipe_argv.empty())
    transport += "cinqpipe:";
  else
    transport += "retry:4.3.0 no game server in this test";
  for (const auto& local : options_.bounce_locals)
    transport += "\n" + lower(local) + "@" + lower(options_.player_domain) + " gone:";
  write_file(etc + "/transport", transport + "\n");

  // Every address of the players' domain but the unknown ones, into one Maildir (a trailing '/').
  std::string boxes;
  const std::string domain = "@" + regex_quoted(lower(options_.player_domain)) + "$/";
  for (const auto& local : options_.unknown_locals) boxes += "if !/^" + regex_quoted(lower(local)) + domain + "\n";
  boxes += "/^[^@]+" + domain + " " + kMaildir + "/\n";
  for (std::size_t i = 0; i < options_.unknown_locals.size(); ++i) boxes += "endif\n";
  write_file(etc + "/mailboxes", boxes);

  const std::string no_other_mail = "error:5.7.1 this test's Postfix delivers to " + options_.game_domain +
                                    " and " + options_.player_domain + " only";
  write_file(etc + "/main.cf",
             "compatibility_level = 3.6\n"
             // Its own everything: the defaults are the system's /var/spool/postfix and /var/lib/postfix.
             "queue_directory = " + d + "/queue\n"
             "data_directory = " + d + "/data\n"
             "maillog_file = " + d + "/maillog\n"
             "maillog_file_prefixes = " + d + "\n"  // else only /var and /dev/stdout may be written
             "myhostname = mta.test\nmydomain = mta.test\nmyorigin = mta.test\nmydestination =\n"
             "inet_interfaces = 127.0.0.1\ninet_protocols = ipv4\nmynetworks = 127.0.0.0/8\n"
             "smtpd_client_restrictions = permit_mynetworks, reject\n"
             "smtpd_relay_restrictions = reject_unauth_destination\n"  // the two domains, from anyone
             "relay_domains = " + options_.game_domain + "\n"
             "parent_domain_matches_subdomains =\n"  // not x.play.test (relay_domains is in its default)
             "transport_maps = texthash:" + etc + "/transport\n"
             "virtual_mailbox_domains = " + options_.player_domain + "\n"
             "virtual_mailbox_base = " + d + "/mail\n"
             "virtual_mailbox_maps = regexp:" + etc + "/mailboxes\n"
             "virtual_uid_maps = static:" + uid + "\nvirtual_gid_maps = static:" + gid + "\n"
             "virtual_mailbox_limit = 0\nmailbox_size_limit = 0\n"
             // Nothing leaves loopback: no DNS, and any other destination (a bounce to a sender elsewhere, a
             // subdomain) is error(8)'s.
             "default_transport = " + no_other_mail + "\n"
             "relay_transport = " + no_other_mail + "\n"
             "disable_dns_lookups = yes\nsmtp_dns_support_level = disabled\n"
             // No reverse lookup of the clients (127.0.0.1): on a machine whose resolver is unreachable it
             // would wait for DNS timeouts on every connection.
             "smtpd_peername_lookup = no\n"
             "smtp_host_lookup = native\nlmtp_host_lookup = native\n"
             "alias_maps =\nalias_database =\nnotify_classes =\n"
             // A test waits seconds, not minutes, for the deferred mail to be tried again.
             "queue_run_delay = 1s\nminimal_backoff_time = 1s\nmaximal_backoff_time = 2s\n"
             "lmtp_connect_timeout = 2s\n"
             "message_size_limit = " + std::to_string(options_.message_size_limit) + "\n"
             "biff = no\nsmtputf8_enable = no\n");

  // Debian's master.cf, the services a test needs, none chrooted.
  std::string master =
      "127.0.0.1:" + std::to_string(port_) + " inet n - n - - smtpd\n"
      "pickup unix n - n 60 1 pickup\n"
      "cleanup unix n - n - 0 cleanup\n"
      "qmgr unix n - n 300 1 qmgr\n"
      "rewrite unix - - n - - trivial-rewrite\n"
      "bounce unix - - n - 0 bounce\n"
      "defer unix - - n - 0 bounce\n"
      "trace unix - - n - 0 bounce\n"
      "verify unix - - n - 1 verify\n"
      "flush unix n - n 1000? 0 flush\n"
      "proxymap unix - - n - - proxymap\n"
      "proxywrite unix - - n - 1 proxymap\n"
      "smtp unix - - n - - smtp\n"
      "relay unix - - n - - smtp\n"
      "showq unix n - n - - showq\n"
      "error unix - - n - - error\n"
      "retry unix - - n - - error\n"
      "discard unix - - n - - discard\n"
      "virtual unix - n n - - virtual\n"
      "lmtp unix - - n - - lmtp\n"
      "anvil unix - - n - 1 anvil\n"
      "scache unix - - n - 1 scache\n"
      "postlog unix-dgram n - n - 1 postlogd\n";
  if (options_.lmtp.empty() && !options_.pipe_argv.empty()) {
    // pipe(8) runs no command as root (nor as the postfix user).
    master += "cinqpipe unix - n n - - pipe\n  flags=Rq user=nobody argv=";
    for (std::size_t i = 0; i < options_.pipe_argv.size(); ++i)
      master += (i == 0 ? "" : " ") + master_word(options_.pipe_argv[i]);
    master += "\n";
  }
  // The bounce_locals' delivery: a command that says why and exits with EX_NOUSER (67), which pipe(8) takes
  // for a permanent failure. (Not the error(8) transport: the SMTP server would refuse the recipient at once.)
  master += "gone unix - n n - - pipe\n  flags=q user=nobody argv=/bin/sh -c {echo this mailbox is gone; exit 67}\n";
  write_file(etc + "/master.cf", master);
}

bool Postfix::running() { return master_.running(); }

void Postfix::start() {
  if (master_.running()) return;
  const std::string& d = dir_->path();
  // `postfix start-fg` checks the configuration, makes the queue's and data directories (with their owners)
  // and runs the master, which makes a session of its own: a signal to this Daemon's group misses it, and
  // stop() asks it with `postfix stop`.
  master_.start({find_program("postfix", "postfix"), "-c", d + "/etc", "start-fg"}, d + "/master.log");
  const auto deadline = Clock::now() + kStartTimeout;
  std::string failure;
  for (;;) {
    if (accepts_connections(port_)) {
      try {
        SmtpClient client(port_);
        const std::string greeting = client.reply();
        if (starts_with(greeting, "220")) {
          client.command("QUIT");
          return;
        }
        failure = "its SMTP server greeted with \"" + greeting + "\"";
        break;
      } catch (const std::runtime_error&) {
        // not answering yet
      }
    }
    if (!master_.running()) {
      failure = "postfix start-fg " + master_.how_it_ended();
      break;
    }
    if (Clock::now() >= deadline) {
      failure = "its SMTP server did not greet within 20 s";
      break;
    }
    std::this_thread::sleep_for(50ms);
  }
  const std::string text = log();
  stop();
  throw std::runtime_error("postfix did not start: " + failure + "\n--- its log ---\n" + text);
}

void Postfix::stop() {
  if (master_.running()) {
    run_tool("postfix", {"stop"});  // waits up to 5 s for the master, then SIGKILLs its group
    // `postfix start-fg` ends with its master; while it runs, the pid file is its master's.
    const auto deadline = Clock::now() + 5s;
    while (master_.running() && Clock::now() < deadline) std::this_thread::sleep_for(10ms);
    if (master_.running()) kill_master();
    master_.stop(SIGTERM, 5s);
  }
  // The master's children leave with it: wait until the port refuses.
  const auto deadline = Clock::now() + 5s;
  while (accepts_connections(port_) && Clock::now() < deadline) std::this_thread::sleep_for(20ms);
}

void Postfix::kill_master() {
  std::string text = file_text(dir_->path() + "/queue/pid/master.pid");
  const long pid = std::atol(text.c_str() + std::min(text.find_first_not_of(" \t"), text.size()));
  if (pid <= 1) return;
  // Only if that process is a Postfix master (a pid file left behind could name another process).
  const std::string command = file_text("/proc/" + std::to_string(pid) + "/cmdline");
  if (command.find("postfix/sbin/master") == std::string::npos) return;
  ::kill(static_cast<pid_t>(-pid), SIGKILL);  // its group: the master and its children
  ::kill(static_cast<pid_t>(pid), SIGKILL);
}

void Postfix::flush() { run_tool("postqueue", {"-f"}); }

int Postfix::run_tool(const std::string& name, const std::vector<std::string>& args) const {
  std::vector<std::string> argv{find_program(name, "postfix"), "-c", dir_->path() + "/etc"};
  argv.insert(argv.end(), args.begin(), args.end());
  Daemon tool;
  tool.start(argv, dir_->path() + "/tools.log");
  const auto deadline = Clock::now() + kToolTimeout;
  while (tool.running() && Clock::now() < deadline) std::this_thread::sleep_for(10ms);
  const std::string how = tool.how_it_ended();
  tool.stop(SIGKILL, 1s);
  const std::string exited = "exited with status ";
  return starts_with(how, exited.c_str()) ? std::atoi(how.c_str() + exited.size()) : -1;
}

std::vector<std::string> Postfix::mailbox(const std::string& local) const {
  const std::string address = lower(local + "@" + options_.player_domain);
  std::vector<std::string> out;
  for (const auto& path : maildir_files(dir_->path() + "/mail/" + kMaildir)) {
    std::string raw = file_text(path);
    if (lower(first_header(raw, "Delivered-To")) == address) out.push_back(std::move(raw));
  }
  return out;
}

std::vector<std::string> Postfix::wait_for_mail(const std::string& local, std::size_t count,
                                                std::chrono::milliseconds timeout) const {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    auto box = mailbox(local);
    if (box.size() >= count) return box;
    if (Clock::now() >= deadline)
      throw std::runtime_error("postfix: " + std::to_string(box.size()) + " of " + std::to_string(count) +
                               " messages for " + local + "@" + options_.player_domain + " came in time (" +
                               std::to_string(queued()) + " in its queue)\n--- its log ---\n" + log());
    std::this_thread::sleep_for(50ms);
  }
}

std::string Postfix::send(const std::string& from, const std::string& to, const std::string& raw_message) {
  SmtpClient client(port_);
  std::string r = client.reply();
  if (!starts_with(r, "220")) return r;
  if (!starts_with(r = client.command("EHLO client.test"), "250")) return r;
  if (!starts_with(r = client.command("MAIL FROM:<" + from + ">"), "250")) return r;
  if (!starts_with(r = client.command("RCPT TO:<" + to + ">"), "25")) return r;
  if (!starts_with(r = client.command("DATA"), "354")) return r;
  client.send(data_of(raw_message));
  r = client.reply();
  try {
    client.command("QUIT");
  } catch (const std::runtime_error&) {
    // the message's fate is known already
  }
  return r;
}

std::size_t Postfix::queued() const {
  std::size_t n = 0;
  // Queue files sit in hashed subdirectories (deferred/A/...) or right in the queue's directory.
  for (const char* queue : {"incoming", "active", "deferred", "hold", "maildrop"}) {
    std::error_code ec;
    for (std::filesystem::recursive_directory_iterator it(dir_->path() + "/queue/" + queue, ec), end;
         !ec && it != end; it.increment(ec))
      if (it->is_regular_file(ec)) ++n;
  }
  return n;
}

std::string Postfix::log() const {
  const std::string& d = dir_->path();
  std::string text = file_text(d + "/maillog");
  for (const char* name : {"master.log", "tools.log"}) {
    const std::string more = file_text(d + "/" + name);
    if (!more.empty()) text += std::string("--- ") + name + " ---\n" + more;
  }
  return text;
}

}  // namespace cinq::test
