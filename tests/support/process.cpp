// ServerProcess and TempDir: fork + execv, the child in its own process group with its output in a file
// that the parent polls.
#include "tests/support/process.h"

#include "tests/support/postgres.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

namespace cinq::test {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kStartTimeout = 20s;
constexpr auto kStopTimeout = 5s;
constexpr auto kPollInterval = 20ms;
constexpr std::string_view kListening = "listening on http://";

// The port in the first complete line that says "listening on http://HOST:PORT". Only complete lines count:
// a line still being written could end in the middle of its port number.
std::optional<std::uint16_t> listening_port(const std::string& log) {
  std::size_t start = 0;
  for (std::size_t end; (end = log.find('\n', start)) != std::string::npos; start = end + 1) {
    std::string_view line(log.data() + start, end - start);
    std::size_t at = line.find(kListening);
    if (at == std::string_view::npos) continue;
    std::string_view address = line.substr(at + kListening.size());
    address = address.substr(0, address.find_first_of(" \t\r/"));
    std::size_t colon = address.rfind(':');
    if (colon == std::string_view::npos) continue;
    std::string_view digits = address.substr(colon + 1);
    if (digits.empty() || digits.size() > 5) continue;
    unsigned port = 0;
    bool ok = true;
    for (char c : digits) {
      if (c < '0' || c > '9') ok = false;
      port = port * 10 + static_cast<unsigned>(c - '0');
    }
    if (ok && port > 0 && port <= 65535) return static_cast<std::uint16_t>(port);
  }
  return std::nullopt;
}


}  // namespace

// Runs in the child between fork and exec: async-signal-safe calls only (everything was prepared before).
[[noreturn]] void exec_child(int log_fd, int null_fd, const char* path, char* const argv[], char* const envp[],
                             const std::string& exec_failed) {
  setpgid(0, 0);
  // The test process may block or ignore signals (SIGPIPE for its sockets); the child starts clean.
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig : {SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD}) sigaction(sig, &dfl, nullptr);
  dup2(null_fd, STDIN_FILENO);
  dup2(log_fd, STDOUT_FILENO);
  dup2(log_fd, STDERR_FILENO);
  // The test's own sockets and files must not stay open in the server (a port could not be freed).
  close_range(3, ~0U, 0);
  if (envp != nullptr)
    execve(path, argv, envp);
  else
    execv(path, argv);
  ssize_t written = write(STDERR_FILENO, exec_failed.data(), exec_failed.size());
  (void)written;
  _exit(127);
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "cinq-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a temporary directory " + pattern + ": " + std::strerror(errno));
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

const std::string& TempDir::path() const { return path_; }

ServerProcess::ServerProcess(std::string data_dir, std::string web_dir, std::vector<std::string> extra_args)
    : log_dir_(std::make_unique<TempDir>()), log_path_(log_dir_->path() + "/server.log") {
  // With CINQ_TEST_STORE=postgresql the server stores in the PostgreSQL schema that stands for DATA/cinq.db
  // (tests/support/postgres.h): a restart on the same directory finds the same games.
  std::vector<std::string> args = {CINQ_BINARY, "serve", "--data", data_dir, "--web", std::move(web_dir)};
  if (std::find(extra_args.begin(), extra_args.end(), "--port") == extra_args.end()) {
    args.push_back("--port");
    args.push_back("0");
  }
  if (testing_postgres()) {
    args.push_back("--store");
    args.push_back(store_spec(data_dir + "/cinq.db"));
  }
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  std::string command;
  for (const auto& a : args) command += (command.empty() ? "" : " ") + a;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string exec_failed = "cannot execute " + args[0] + "\n";

  // Opened here, close-on-exec, so the child only has to dup2 them onto 0, 1 and 2.
  int log_fd = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (log_fd < 0 || null_fd < 0) {
    int err = errno;
    if (log_fd >= 0) ::close(log_fd);
    if (null_fd >= 0) ::close(null_fd);
    throw std::runtime_error("cannot open " + log_path_ + " or /dev/null: " + std::strerror(err));
  }
  pid_ = fork();
  if (pid_ == 0) exec_child(log_fd, null_fd, args[0].c_str(), argv.data(), nullptr, exec_failed);
  int fork_errno = errno;
  ::close(log_fd);
  ::close(null_fd);
  if (pid_ < 0) throw std::runtime_error(std::string("cannot fork: ") + std::strerror(fork_errno));
  // Also from this side, so the group exists before any signal is sent to it (the child may not have run).
  setpgid(pid_, pid_);

  const auto deadline = Clock::now() + kStartTimeout;
  std::string failure;
  for (;;) {
    if (auto port = listening_port(log())) {
      port_ = *port;
      return;
    }
    if (reap()) {
      std::ostringstream why;
      if (WIFEXITED(status_)) {
        why << "it exited with status " << WEXITSTATUS(status_);
      } else if (WIFSIGNALED(status_)) {
        why << "it was killed by signal " << WTERMSIG(status_);
      }
      failure = why.str();
      break;
    }
    if (Clock::now() >= deadline) {
      failure = "it did not say \"listening on http://HOST:PORT\" within 20 s";
      kill_and_reap();
      break;
    }
    std::this_thread::sleep_for(kPollInterval);
  }
  throw std::runtime_error("cinq serve did not start: " + failure + "\ncommand: " + command +
                           "\n--- its output ---\n" + log());
}

ServerProcess::~ServerProcess() {
  if (pid_ <= 0 || reaped_) return;
  ::kill(-pid_, SIGTERM);
  if (wait(kStopTimeout) == -1) kill_and_reap();
}

std::uint16_t ServerProcess::port() const { return port_; }

int ServerProcess::pid() const { return pid_; }

void ServerProcess::kill(int signal) {
  if (pid_ > 0 && !reaped_) ::kill(pid_, signal);
}

int ServerProcess::wait(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (reap()) return status_;
    if (Clock::now() >= deadline) return -1;
    std::this_thread::sleep_for(5ms);
  }
}

std::string ServerProcess::log() const {
  std::ifstream in(log_path_, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool reap_child(pid_t pid, int& status) {
  int st = 0;
  pid_t r;
  do {
    r = waitpid(pid, &st, WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == pid) {
    status = st;
    return true;
  }
  return r < 0 && errno == ECHILD;  // someone else reaped it (SIGCHLD ignored): gone, status unknown
}

bool kill_and_wait(pid_t pid, int& status) {
  ::kill(-pid, SIGKILL);
  int st = 0;
  pid_t r;
  do {
    r = waitpid(pid, &st, 0);
  } while (r < 0 && errno == EINTR);
  if (r != pid) return false;
  status = st;
  return true;
}

bool ServerProcess::reap() {
  if (reaped_) return true;
  reaped_ = reap_child(pid_, status_);
  return reaped_;
}

void ServerProcess::kill_and_reap() {
  kill_and_wait(pid_, status_);
  reaped_ = true;
}

}  // namespace cinq::test
