// Postfix for tests (postfix.h): its configuration written into a temporary directory, its master process
// run in the foreground as a Daemon.
#include "tests/support/postfix.h"

#include <dirent.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace cinq::test {
namespace {

using Clock = std::chrono::steady_clock;

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("postfix: cannot write " + path);
}

// Runs a command to its end (its output to `log`); its exit status.
int run(const std::vector<std::string>& argv, const std::string& log) {
  Daemon d;
  d.start(argv, log);
  for (int i = 0; i < 300 && d.running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const std::string how = d.how_it_ended();
  d.stop(SIGKILL, std::chrono::milliseconds(100));
  return how == "exited with status 0" ? 0 : 1;
}

// The files of a Maildir's new/ and cur/ (Postfix names them by time, so in order of delivery).
std::vector<std::string> maildir_files(const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> names;
  for (const char* sub : {"/new", "/cur"}) {
    DIR* d = opendir((dir + sub).c_str());
    if (d == nullptr) continue;
    while (dirent* e = readdir(d))
      if (e->d_name[0] != '.') names.emplace_back(e->d_name, dir + sub + "/" + e->d_name);
    closedir(d);
  }
  // Postfix names them "SECONDS.VdevIinoMmicroseconds.host": by seconds, then microseconds.
  auto when = [](const std::string& name) {
    const auto m = name.find('M', name.find('.'));
    return std::make_pair(std::atol(name.c_str()), m == std::string::npos ? 0L : std::atol(name.c_str() + m + 1));
  };
  std::sort(names.begin(), names.end(), [&](const auto& a, const auto& b) {
    return when(a.first) != when(b.first) ? when(a.first) < when(b.first) : a.first < b.first;
  });
  std::vector<std::string> out;
  for (const auto& n : names) out.push_back(n.second);
  return out;
}

// One blocking SMTP conversation.
class SmtpClient {
 public:
  explicit SmtpClient(int port) : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    timeval tv{10, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd_);
      throw std::runtime_error("postfix: cannot connect to 127.0.0.1:" + std::to_string(port));
    }
  }
  ~SmtpClient() { ::close(fd_); }
  // The reply's last line (a multi-line reply's "250 " line).
  std::string reply() {
    for (;;) {
      std::string line;
      char c;
      while (::recv(fd_, &c, 1, 0) == 1) {
        if (c == '\n') break;
        if (c != '\r') line += c;
      }
      if (line.size() < 4 || line[3] != '-') return line;
    }
  }
  void send(const std::string& text) {
    for (std::size_t at = 0; at < text.size();) {
      const ssize_t n = ::send(fd_, text.data() + at, text.size() - at, MSG_NOSIGNAL);
      if (n <= 0) throw std::runtime_error("postfix: cannot send");
      at += static_cast<std::size_t>(n);
    }
  }
  std::string command(const std::string& line) {
    send(line + "\r\n");
    return reply();
  }

 private:
  int fd_;
};

// The message with CRLF line ends and its lines that start with '.' doubled (RFC 5321 transparency).
std::string dot_stuffed(const std::string& raw) {
  std::string out;
  bool line_start = true;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (c == '\n' && (i == 0 || raw[i - 1] != '\r')) out += '\r';
    if (line_start && c == '.') out += '.';
    out += c;
    line_start = c == '\n';
  }
  if (out.size() < 2 || out.substr(out.size() - 2) != "\r\n") out += "\r\n";
  return out;
}

}  // namespace

Postfix::Postfix(PostfixOptions options) : options_(std::move(options)), dir_(std::make_unique<TempDir>()) {
  const std::string& d = dir_->path();
  ::chmod(d.c_str(), 0755);  // the postfix user walks through it to its queue
  ::mkdir((d + "/etc").c_str(), 0755);
  ::mkdir((d + "/mail").c_str(), 0755);
  ::mkdir((d + "/queue").c_str(), 0755);  // root's; Postfix makes its subdirectories at start
  ::mkdir((d + "/data").c_str(), 0700);
  const passwd* pf = ::getpwnam("postfix");
  if (pf == nullptr) throw std::runtime_error("postfix: no user 'postfix' (scripts/install-deps.sh installs postfix)");
  if (::chown((d + "/mail").c_str(), 65534, 65534) != 0 || ::chown((d + "/data").c_str(), pf->pw_uid, pf->pw_gid) != 0)
    throw std::runtime_error("postfix: cannot give its directories to their users (the tests run as root)");
  port_ = free_local_port();
  write_config();
  start();
}

Postfix::~Postfix() { stop(); }

void Postfix::write_config() const {
  const std::string& d = dir_->path();
  const std::string etc = d + "/etc";
  std::string transport = options_.game_domain + " ";
  transport += options_.lmtp.empty() ? "cinqpipe:" : "lmtp:inet:" + options_.lmtp;
  write_file(etc + "/transport", transport + "\n");
  // Each mailbox of the players' domain is a Maildir of its own (a trailing '/': Maildir).
  std::string boxes;
  for (const auto& local : options_.mailboxes) boxes += local + "@" + options_.player_domain + " " + local + "/\n";
  write_file(etc + "/vmailbox", boxes);
  write_file(etc + "/main.cf",
             "compatibility_level = 3.6\n"
             "queue_directory = " + d + "/queue\n"
             "data_directory = " + d + "/data\n"
             "meta_directory = /etc/postfix\n"
             "mail_owner = postfix\nsetgid_group = postdrop\n"
             "myhostname = mta.test\nmydomain = test\nmyorigin = mta.test\nmydestination =\n"
             "inet_interfaces = 127.0.0.1\ninet_protocols = ipv4\nmynetworks = 127.0.0.0/8\n"
             "smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination\n"
             "relay_domains = " + options_.game_domain + "\n"
             "transport_maps = texthash:" + etc + "/transport\n"
             "virtual_mailbox_domains = " + options_.player_domain + "\n"
             "virtual_mailbox_base = " + d + "/mail\n"
             "virtual_mailbox_maps = texthash:" + etc + "/vmailbox\n"
             "virtual_uid_maps = static:65534\nvirtual_gid_maps = static:65534\n"
             "alias_maps =\nalias_database =\nlocal_recipient_maps =\n"
             "maillog_file = " + d + "/maillog\nmaillog_file_prefixes = " + d + "\n"
             "disable_dns_lookups = yes\nsmtp_dns_support_level = disabled\nlmtp_host_lookup = native\n"
             "smtp_host_lookup = native\n"
             "queue_run_delay = 1s\nminimal_backoff_time = 1s\nmaximal_backoff_time = 2s\n"
             "lmtp_connect_timeout = 2s\ndelay_warning_time = 0\n"
             "message_size_limit = " + std::to_string(options_.message_size_limit) + "\n"
             "biff = no\nsmtputf8_enable = no\nshlib_directory = /usr/lib/postfix\n");
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
    master += "cinqpipe unix - n n - - pipe\n  flags=Rq user=nobody argv=";
    for (std::size_t i = 0; i < options_.pipe_argv.size(); ++i) master += (i ? " " : "") + options_.pipe_argv[i];
    master += "\n";
  }
  write_file(etc + "/master.cf", master);
}

void Postfix::start() {
  const std::string& d = dir_->path();
  // In the foreground: `postfix start-fg` checks the configuration, makes the queue's directories and runs
  // the master. The master makes a session of its own, so a signal to this Daemon's group misses it:
  // stop() asks it with `postfix stop`.
  master_.start({find_program("postfix", "postfix"), "-c", d + "/etc", "start-fg"}, d + "/master.log");
  const auto end = Clock::now() + std::chrono::seconds(20);
  while (Clock::now() < end) {
    if (!master_.running()) break;
    if (accepts_connections(port_)) {
      try {
        SmtpClient c(port_);
        if (c.reply().rfind("220", 0) == 0) return;
      } catch (const std::exception&) {
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  throw std::runtime_error("postfix did not start (" + master_.how_it_ended() + "):\n" + log());
}

void Postfix::stop() {
  if (!master_.running()) return;
  run({find_program("postfix", "postfix"), "-c", dir_->path() + "/etc", "stop"}, dir_->path() + "/tools.log");
  master_.stop(SIGTERM, std::chrono::seconds(10));
  // Its children leave with the master; wait until the port is closed.
  for (int i = 0; i < 100 && accepts_connections(port_); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

void Postfix::flush() { run({find_program("postqueue", "postfix"), "-c", dir_->path() + "/etc", "-f"}, dir_->path() + "/tools.log"); }

std::vector<std::string> Postfix::mailbox(const std::string& local) const {
  std::vector<std::string> out;
  for (const auto& path : maildir_files(dir_->path() + "/mail/" + local)) out.push_back(file_text(path));
  return out;
}

std::vector<std::string> Postfix::wait_for_mail(const std::string& local, std::size_t count,
                                                std::chrono::milliseconds timeout) const {
  const auto end = Clock::now() + timeout;
  for (;;) {
    auto box = mailbox(local);
    if (box.size() >= count) return box;
    if (Clock::now() >= end)
      throw std::runtime_error("postfix: " + std::to_string(box.size()) + " of " + std::to_string(count) +
                               " mails for " + local + " came; the log:\n" + log());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

std::string Postfix::send(const std::string& from, const std::string& to, const std::string& raw_message) {
  SmtpClient c(port_);
  std::string r = c.reply();
  if (r.rfind("220", 0) != 0) return r;
  if ((r = c.command("EHLO client.test")).rfind("250", 0) != 0) return r;
  if ((r = c.command("MAIL FROM:<" + from + ">")).rfind("250", 0) != 0) return r;
  if ((r = c.command("RCPT TO:<" + to + ">")).rfind("250", 0) != 0) return r;
  if ((r = c.command("DATA")).rfind("354", 0) != 0) return r;
  c.send(dot_stuffed(raw_message) + ".\r\n");
  r = c.reply();
  c.command("QUIT");
  return r;
}

std::size_t Postfix::queued() const {
  std::size_t n = 0;
  for (const char* q : {"/queue/active", "/queue/deferred", "/queue/incoming", "/queue/maildrop"}) {
    // Queue files sit in hashed subdirectories (deferred/A/...), or directly in active/ and incoming/.
    std::vector<std::string> dirs{dir_->path() + q};
    for (std::size_t i = 0; i < dirs.size(); ++i) {
      DIR* d = opendir(dirs[i].c_str());
      if (d == nullptr) continue;
      while (dirent* e = readdir(d)) {
        if (e->d_name[0] == '.') continue;
        const std::string path = dirs[i] + "/" + e->d_name;
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) continue;
        if (S_ISDIR(st.st_mode))
          dirs.push_back(path);
        else
          ++n;
      }
      closedir(d);
    }
  }
  return n;
}

std::string Postfix::log() const {
  return file_text(dir_->path() + "/maillog") + file_text(dir_->path() + "/master.log");
}

}  // namespace cinq::test
