// Daemon: fork + execve, the child in its own process group with its output in a file.
#include "tests/support/daemon.h"

#include "tests/support/process.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace cinq::test {

int connect_loopback(int port, int timeout_seconds) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  timeval tv{timeout_seconds, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    const int error = errno;
    ::close(fd);
    errno = error;
    return -1;
  }
  return fd;
}
namespace {

using Clock = std::chrono::steady_clock;

sockaddr_in loopback(int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  return addr;
}

}  // namespace

Daemon::~Daemon() { stop(SIGTERM, std::chrono::seconds(5)); }

void Daemon::start(const std::vector<std::string>& argv_in, const std::string& log_path,
                   const std::vector<std::string>& env) {
  if (running()) throw std::runtime_error(argv_in.at(0) + " runs already");
  std::vector<std::string> args = argv_in;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> vars = env;
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
  for (auto& v : vars) envp.push_back(v.data());
  envp.push_back(nullptr);
  const std::string exec_failed = "cannot execute " + args.at(0) + "\n";

  // Opened here, close-on-exec, so the child only has to dup2 them onto 0, 1 and 2.
  const int log_fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (log_fd < 0 || null_fd < 0) {
    const int err = errno;
    if (log_fd >= 0) ::close(log_fd);
    if (null_fd >= 0) ::close(null_fd);
    throw std::runtime_error("cannot open " + log_path + " or /dev/null: " + std::strerror(err));
  }
  const pid_t pid = fork();
  if (pid == 0) exec_child(log_fd, null_fd, args[0].c_str(), argv.data(), envp.data(), exec_failed);
  const int fork_errno = errno;
  ::close(log_fd);
  ::close(null_fd);
  if (pid < 0) throw std::runtime_error(std::string("cannot fork: ") + std::strerror(fork_errno));
  // Also from this side, so the group exists before any signal is sent to it (the child may not have run).
  setpgid(pid, pid);
  pid_ = pid;
  reaped_ = false;
  status_ = 0;
}

void Daemon::stop(int signal, std::chrono::milliseconds grace) {
  if (reaped_ || reap()) return;
  ::kill(-pid_, signal);
  const auto deadline = Clock::now() + grace;
  while (!reap()) {
    if (Clock::now() >= deadline) {
      kill_and_wait(pid_, status_);
      reaped_ = true;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

bool Daemon::running() { return !reaped_ && !reap(); }

std::string Daemon::how_it_ended() {
  if (running()) return "running";
  std::ostringstream out;
  if (WIFEXITED(status_)) out << "exited with status " << WEXITSTATUS(status_);
  if (WIFSIGNALED(status_)) out << "killed by signal " << WTERMSIG(status_);
  return out.str();
}

bool Daemon::reap() {
  if (reaped_) return true;
  reaped_ = reap_child(pid_, status_);
  return reaped_;
}

int free_local_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr = loopback(0);
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("no free port on 127.0.0.1");
  }
  const int port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

bool accepts_connections(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const sockaddr_in addr = loopback(port);
  const bool ok = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

std::string find_program(const std::string& name, const std::string& package) {
  std::string dirs = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  dirs += ":/usr/sbin:/usr/local/sbin:/usr/bin";
  std::istringstream in(dirs);
  for (std::string dir; std::getline(in, dir, ':');) {
    if (dir.empty()) continue;
    const std::string path = dir + "/" + name;
    if (::access(path.c_str(), X_OK) == 0) return path;
  }
  throw std::runtime_error("no " + name + " (Debian's " + package + "; scripts/install-deps.sh installs it)");
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace cinq::test
