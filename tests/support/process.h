// Helpers for tests that run the real server: a `cinq serve` child process and a temporary directory.
// POSIX only. The child's output goes to a file, never a pipe, so it can never block on a full pipe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cinq::test {

// Reaps the child `pid` if it has exited (without waiting): true then, with its status in `status` (left as
// it was when someone else reaped it).
bool reap_child(pid_t pid, int& status);

// Kills the child `pid`'s process group with SIGKILL and waits for the child: true with its status in
// `status` if this reaped it.
bool kill_and_wait(pid_t pid, int& status);

// Runs in a forked child: its own process group, signals as at start, stdin from `null_fd`, stdout and
// stderr to `log_fd`, no other descriptor, then exec `path` (with `envp`, or this environment if null);
// `exec_failed` is written to the log if the exec fails. Async-signal-safe: everything is prepared before fork.
[[noreturn]] void exec_child(int log_fd, int null_fd, const char* path, char* const argv[], char* const envp[],
                             const std::string& exec_failed);

// A fresh empty temporary directory, removed (with everything in it) when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const;

 private:
  std::string path_;
};

// A `cinq serve` process started for a test: its own process group, stdout+stderr captured to a log file.
class ServerProcess {
 public:
  // Starts CINQ_BINARY (a macro defined for the tests, the path of the built `cinq`) with
  // `serve --port 0 --data DATA_DIR --web WEB_DIR` plus `extra_args`, and waits (up to 20 s) until its
  // output has a line containing "listening on http://" followed by host:PORT; parses PORT. A `--port N` in
  // `extra_args` replaces `--port 0` (a node restarted on its port, behind a balancer that knows it).
  // Throws std::runtime_error (with the log's text) if the process exits or the line never comes.
  ServerProcess(std::string data_dir, std::string web_dir, std::vector<std::string> extra_args = {});
  // SIGTERM to the process group, wait up to 5 s, then SIGKILL; never leaves a zombie.
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  std::uint16_t port() const;
  int pid() const;
  // Sends `signal` to the process (nothing once it has been waited for: its pid may belong to another).
  void kill(int signal);
  // Waits for exit (up to `timeout`); returns the exit status as from waitpid (use WIFEXITED etc.), or -1 on
  // timeout. Once the process has exited, every call returns the same status.
  int wait(std::chrono::milliseconds timeout);
  // Everything the process printed so far.
  std::string log() const;

 private:
  // Reaps the child if it has exited; true then (the status is in status_).
  bool reap();
  // SIGKILL to the process group, then waits for the process however long it takes.
  void kill_and_reap();

  std::unique_ptr<TempDir> log_dir_;
  std::string log_path_;
  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
  std::uint16_t port_ = 0;
};

}  // namespace cinq::test
