#include "tests/support/postgres.h"

#include <libpq-fe.h>
#include <sqlite3.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace cinq::test {
namespace {

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("postgres: no free port");
  }
  const int port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

// The newest /usr/lib/postgresql/N/bin with an initdb.
std::string postgres_bin() {
  std::string best;
  int best_version = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
    const std::string name = entry.path().filename().string();
    const int version = std::atoi(name.c_str());
    if (version > best_version && std::filesystem::exists(entry.path() / "bin" / "initdb")) {
      best_version = version;
      best = (entry.path() / "bin").string();
    }
  }
  if (best.empty())
    throw std::runtime_error("postgres: no /usr/lib/postgresql/N/bin/initdb (scripts/install-deps.sh installs it)");
  return best;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

bool testing_postgres() {
  const char* v = std::getenv("CINQ_TEST_STORE");
  return v != nullptr && std::string(v) == "postgresql";
}

std::string store_spec(const std::string& path) {
  if (!testing_postgres()) return "sqlite:" + path;
  // The schema's name comes from the path alone (FNV-1a), so that a forked child and its parent, or a test
  // and the server it starts, find the same one.
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : path) h = (h ^ c) * 1099511628211ull;
  char name[24];
  std::snprintf(name, sizeof name, "t%016llx", static_cast<unsigned long long>(h));
  return PostgresCluster::shared().uri_for_schema(name);
}

namespace {

std::string ask_sqlite(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
  std::string answer;
  bool first = true;
  auto collect = [](void* out, int, char** values, char**) {
    auto* state = static_cast<std::pair<std::string*, bool*>*>(out);
    if (*state->second && values[0] != nullptr) *state->first = values[0];
    *state->second = false;
    return 0;
  };
  std::pair<std::string*, bool*> state{&answer, &first};
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), collect, &state, &message) != SQLITE_OK) {
    answer = std::string("error: ") + (message != nullptr ? message : sqlite3_errmsg(db));
    sqlite3_free(message);
  }
  sqlite3_close(db);
  return answer;
}

std::string ask_postgres(const std::string& uri, std::string sql) {
  for (std::size_t at; (at = sql.find("group_concat(")) != std::string::npos;) sql.replace(at, 13, "string_agg(");
  PGconn* conn = PQconnectdb(uri.c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = PQerrorMessage(conn);
    PQfinish(conn);
    return "error: " + message;
  }
  PQsetNoticeProcessor(conn, [](void*, const char*) {}, nullptr);
  PGresult* r = PQexec(conn, sql.c_str());
  std::string answer;
  if (PQresultStatus(r) == PGRES_TUPLES_OK) {
    if (PQntuples(r) > 0 && !PQgetisnull(r, 0, 0)) answer = PQgetvalue(r, 0, 0);
  } else if (PQresultStatus(r) != PGRES_COMMAND_OK) {
    const char* primary = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
    answer = std::string("error: ") + (primary != nullptr ? primary : PQresultErrorMessage(r));
  }
  PQclear(r);
  PQfinish(conn);
  return answer;
}

}  // namespace

std::string ask_store_uri(const std::string& uri, const std::string& sql) { return ask_postgres(uri, sql); }

std::string ask_store(const std::string& path, const std::string& sql) {
  return testing_postgres() ? ask_postgres(store_spec(path), sql) : ask_sqlite(path, sql);
}

std::string refuse_writes(const std::string& path, const std::string& table, const std::string& when,
                          const std::string& condition, const std::string& message) {
  static int serial = 0;
  const std::string name = "refuse_" + std::to_string(++serial);
  if (!testing_postgres())
    return ask_sqlite(path, "CREATE TRIGGER " + name + " BEFORE " + when + " ON " + table +
                                (condition.empty() ? "" : " WHEN " + condition) + " BEGIN SELECT RAISE(ABORT, '" +
                                message + "'); END");
  const std::string body = condition.empty() ? "RAISE EXCEPTION '" + message + "';"
                                             : "IF " + condition + " THEN RAISE EXCEPTION '" + message + "'; END IF;";
  return ask_postgres(store_spec(path), "CREATE FUNCTION " + name + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN " +
                                            body + " RETURN NEW; END $$; CREATE TRIGGER " + name + " BEFORE " +
                                            when + " ON " + table + " FOR EACH ROW EXECUTE FUNCTION " + name + "()");
}

PostgresCluster& PostgresCluster::shared() {
  static PostgresCluster cluster;
  return cluster;
}

PostgresCluster::PostgresCluster() : owner_(::getpid()) {
  bin_ = postgres_bin();
  char tmpl[] = "/tmp/cinq-pg-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) throw std::runtime_error("postgres: cannot make a temporary directory");
  dir_ = tmpl;
  if (::geteuid() == 0) {
    // PostgreSQL will not run as root: the package's own user, else nobody.
    user_ = ::getpwnam("postgres") != nullptr ? "postgres" : "nobody";
    const passwd* pw = ::getpwnam(user_.c_str());
    if (pw == nullptr || ::chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0)
      throw std::runtime_error("postgres: cannot give " + dir_ + " to " + user_);
  }
  const std::string init = quote(bin_ + "/initdb") + " -D " + quote(dir_ + "/data") +
                           " -U cinq --auth=trust --encoding=UTF8 --locale=C.UTF-8 >" + quote(dir_ + "/initdb.log") +
                           " 2>&1";
  if (as_owner(init) != 0)
    throw std::runtime_error("postgres: initdb failed:\n" + read_file(dir_ + "/initdb.log"));
  port_ = free_port();
  start();
}

PostgresCluster::~PostgresCluster() {
  if (::getpid() != owner_) return;  // a forked child leaving: the cluster is its parent's
  if (running_) as_owner(quote(bin_ + "/pg_ctl") + " -D " + quote(dir_ + "/data") + " -m immediate -w stop >/dev/null 2>&1");
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

int PostgresCluster::as_owner(const std::string& command) const {
  const std::string line = user_.empty() ? command : "runuser -u " + user_ + " -- sh -c " + quote(command);
  const int status = std::system(line.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void PostgresCluster::start() {
  // The test cluster as a production one would be on durability (fsync, synchronous_commit on), small.
  const std::string options = "-p " + std::to_string(port_) + " -k " + dir_ +
                              " -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=32MB";
  const std::string cmd = quote(bin_ + "/pg_ctl") + " -D " + quote(dir_ + "/data") + " -l " +
                          quote(dir_ + "/server.log") + " -w -t 60 -o " + quote(options) + " start >/dev/null 2>&1";
  if (as_owner(cmd) != 0)
    throw std::runtime_error("postgres: the server did not start:\n" + read_file(dir_ + "/server.log"));
  running_ = true;
}

void PostgresCluster::stop() {
  if (!running_) return;
  as_owner(quote(bin_ + "/pg_ctl") + " -D " + quote(dir_ + "/data") + " -m fast -w stop >/dev/null 2>&1");
  running_ = false;
}

std::string PostgresCluster::uri() const {
  return "postgresql://cinq@127.0.0.1:" + std::to_string(port_) + "/postgres";
}

std::string PostgresCluster::uri_for_schema(const std::string& schema) {
  exec("CREATE SCHEMA IF NOT EXISTS " + schema);
  // libpq's URI: options=-csearch_path=SCHEMA, percent-encoded.
  return uri() + "?options=-csearch_path%3D" + schema;
}

void PostgresCluster::exec(const std::string& sql) {
  PGconn* conn = PQconnectdb(uri().c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = PQerrorMessage(conn);
    PQfinish(conn);
    throw std::runtime_error("postgres: connecting: " + message);
  }
  PQsetNoticeProcessor(conn, [](void*, const char*) {}, nullptr);
  PGresult* r = PQexec(conn, sql.c_str());
  const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
  std::string message = ok ? "" : PQresultErrorMessage(r);
  PQclear(r);
  PQfinish(conn);
  if (!ok) throw std::runtime_error("postgres: " + sql + ": " + message);
}

}  // namespace cinq::test
