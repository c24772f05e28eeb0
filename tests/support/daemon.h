// A helper server a test runs beside cinq (Redis, HAProxy): a child process in its own process group, its
// output in a file, stopped with SIGTERM and, after a grace period, SIGKILL. POSIX only. ServerProcess
// (process.h) is the same for `cinq serve`, which it also waits for; here the owner decides what "ready" is.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace cinq::test {

// A blocking TCP connection to 127.0.0.1:PORT whose reads and writes time out after `timeout_seconds`: its
// file descriptor, or -1 (errno set) if it could not connect. The caller closes it.
int connect_loopback(int port, int timeout_seconds = 5);

class Daemon {
 public:
  Daemon() = default;
  ~Daemon();  // stop()
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Starts argv[0] (a path) with `argv`, this process's environment plus `env` ("NAME=VALUE"), standard
  // input from /dev/null and its output appended to `log_path`. Throws std::runtime_error if it cannot
  // fork or is running already; a program that cannot be executed exits 127 with a line in the log.
  void start(const std::vector<std::string>& argv, const std::string& log_path,
             const std::vector<std::string>& env = {});
  // Sends `signal` to the process group and waits up to `grace` for the process, then SIGKILLs the group
  // and reaps. Nothing if it is not running.
  void stop(int signal, std::chrono::milliseconds grace);
  // Whether it still runs (reaps it if it has exited).
  bool running();
  pid_t pid() const { return pid_; }
  // "exited with status N" / "killed by signal N" once it has exited, else "running".
  std::string how_it_ended();

 private:
  bool reap();

  pid_t pid_ = -1;
  bool reaped_ = true;
  int status_ = 0;
};

// A TCP port of 127.0.0.1 that nobody listened on a moment ago (bound to port 0, then released).
int free_local_port();
// Whether 127.0.0.1:PORT accepts a TCP connection now.
bool accepts_connections(int port);
// The path of the program `name` on PATH, /usr/sbin or /usr/local/sbin; throws std::runtime_error naming
// the package that installs it (`package`) if there is none.
std::string find_program(const std::string& name, const std::string& package);
// A file's whole text ("" if it cannot be read).
std::string file_text(const std::string& path);

}  // namespace cinq::test
