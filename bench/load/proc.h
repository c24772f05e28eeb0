// The servers under test run as child processes (never in the load generator's process), and what we
// know of them comes from /proc: resident memory and CPU time.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cinq::load {

struct Child {
  pid_t pid = 0;
  std::uint16_t port = 0;
  std::string log_path;  // the child's stdout and stderr
};

// Starts argv[0] with `argv`, its output to `log_path`, and waits (up to `timeout`) for the line
// "...listening on http://ADDRESS:PORT" that cinq and cinq_echo print once they accept connections.
// nullopt, with `error` set (and the log's tail in it), if it exits or never says so.
std::optional<Child> start_child(const std::vector<std::string>& argv, const std::string& log_path,
                                 std::chrono::seconds timeout, std::string& error);

// SIGTERM, then up to `grace` for it to exit, then SIGKILL. Returns its exit status as text.
std::string stop_child(Child& child, std::chrono::seconds grace = std::chrono::seconds(5));

// VmRSS of a process in KiB; nullopt if it cannot be read.
std::optional<std::int64_t> rss_kib(pid_t pid);
// utime + stime of a process in seconds; nullopt if it cannot be read.
std::optional<double> cpu_seconds(pid_t pid);
// The same summed over several processes (the nodes of a cluster): nullopt if `pids` is empty or one of
// them cannot be read.
std::optional<std::int64_t> rss_kib(const std::vector<pid_t>& pids);
std::optional<double> cpu_seconds(const std::vector<pid_t>& pids);
// This process's user + system CPU time in seconds (all threads).
double self_cpu_seconds();

struct FileLimit {
  std::uint64_t soft = 0, hard = 0;  // after raising
  std::uint64_t hard_before = 0;
};
// Raises RLIMIT_NOFILE: to `wanted` if the hard limit allows or can be raised (that needs
// CAP_SYS_RESOURCE), else to the hard limit.
FileLimit raise_file_limit(std::uint64_t wanted);
// The soft "Max open files" of a running process (/proc/PID/limits); nullopt if unreadable.
std::optional<std::uint64_t> open_files_limit(pid_t pid);

// A fresh directory under $TMPDIR (or /tmp); removed by remove_tree.
std::string make_temp_dir(const std::string& prefix);
void remove_tree(const std::string& path);

}  // namespace cinq::load
