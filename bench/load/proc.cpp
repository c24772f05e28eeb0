#include "bench/load/proc.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace cinq::load {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string tail(const std::string& text, std::size_t bytes = 2000) {
  return text.size() <= bytes ? text : "..." + text.substr(text.size() - bytes);
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("signal ") + strsignal(WTERMSIG(status));
  return "status " + std::to_string(status);
}

}  // namespace

std::optional<Child> start_child(const std::vector<std::string>& argv, const std::string& log_path,
                                 std::chrono::seconds timeout, std::string& error) {
  // The output goes to a file, not a pipe: nobody has to keep draining it while the child logs.
  const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) {
    error = "cannot write " + log_path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("fork: ") + std::strerror(errno);
    ::close(log);
    return std::nullopt;
  }
  if (pid == 0) {
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
    ::execv(args[0], args.data());
    std::fprintf(stderr, "exec %s: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(log);

  Child child{pid, 0, log_path};
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  constexpr std::string_view kListening = "listening on http://";
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string text = read_file(log_path);
    const auto at = text.find(kListening);
    const auto eol = at == std::string::npos ? std::string::npos : text.find('\n', at);
    if (eol != std::string::npos) {
      const auto colon = text.rfind(':', eol);
      child.port = static_cast<std::uint16_t>(std::atoi(text.c_str() + colon + 1));
      if (child.port != 0) return child;
    }
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      error = argv[0] + " ended (" + describe_status(status) + ") before listening:\n" +
              tail(read_file(log_path));
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  stop_child(child);
  error = argv[0] + " did not say where it listens within " + std::to_string(timeout.count()) + " s:\n" +
          tail(read_file(log_path));
  return std::nullopt;
}

std::string stop_child(Child& child, std::chrono::seconds grace) {
  if (child.pid <= 0) return "not running";
  ::kill(child.pid, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + grace;
  int status = 0;
  std::string result;
  while (true) {
    const pid_t r = ::waitpid(child.pid, &status, WNOHANG);
    if (r == child.pid) {
      result = describe_status(status);
      break;
    }
    if (r < 0) {
      result = "already reaped";
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(child.pid, SIGKILL);
      ::waitpid(child.pid, &status, 0);
      result = "killed after " + std::to_string(grace.count()) + " s";
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  child.pid = 0;
  return result;
}

std::optional<std::int64_t> rss_kib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atoll(line.c_str() + 6);
  }
  return std::nullopt;
}

std::optional<double> cpu_seconds(pid_t pid) {
  const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  // Fields after the command name (which may hold spaces, hence the last ')'): state is field 3,
  // utime and stime are fields 14 and 15.
  const auto paren = stat.rfind(')');
  if (paren == std::string::npos) return std::nullopt;
  std::istringstream in(stat.substr(paren + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && in >> field; ++i) {
    if (i == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
    if (i == 15) stime = std::strtoull(field.c_str(), nullptr, 10);
  }
  if (!in) return std::nullopt;
  return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

std::optional<std::int64_t> rss_kib(const std::vector<pid_t>& pids) {
  std::optional<std::int64_t> total;
  for (const pid_t pid : pids) {
    const auto one = rss_kib(pid);
    if (!one) return std::nullopt;
    total = total.value_or(0) + *one;
  }
  return total;
}

std::optional<double> cpu_seconds(const std::vector<pid_t>& pids) {
  std::optional<double> total;
  for (const pid_t pid : pids) {
    const auto one = cpu_seconds(pid);
    if (!one) return std::nullopt;
    total = total.value_or(0) + *one;
  }
  return total;
}

double self_cpu_seconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

FileLimit raise_file_limit(std::uint64_t wanted) {
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  FileLimit out;
  out.hard_before = limit.rlim_max;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < wanted) {
    rlimit higher{wanted, wanted};  // refused (EPERM) without CAP_SYS_RESOURCE, or above fs.nr_open
    ::setrlimit(RLIMIT_NOFILE, &higher);
    ::getrlimit(RLIMIT_NOFILE, &limit);
  }
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
  ::getrlimit(RLIMIT_NOFILE, &limit);
  out.soft = limit.rlim_cur;
  out.hard = limit.rlim_max;
  return out;
}

std::optional<std::uint64_t> open_files_limit(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/limits");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Max open files", 0) != 0) continue;
    std::istringstream fields(line.substr(14));
    std::string soft;
    fields >> soft;
    if (soft == "unlimited") return UINT64_MAX;
    return std::strtoull(soft.c_str(), nullptr, 10);
  }
  return std::nullopt;
}

std::string make_temp_dir(const std::string& prefix) {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/" + prefix + "XXXXXX";
  if (!::mkdtemp(pattern.data())) return {};
  return pattern;
}

void remove_tree(const std::string& path) {
  std::error_code ignored;
  if (!path.empty()) std::filesystem::remove_all(path, ignored);
}

}  // namespace cinq::load
