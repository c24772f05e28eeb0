// A throwaway PostgreSQL for tests, from Debian's postgresql package: `initdb` in a temporary
// directory, the server on a free port of 127.0.0.1 and a Unix socket in that directory, started as an
// unprivileged user when the tests run as root (PostgreSQL refuses root), stopped when the test process ends.
//
// The same tests run against both backends. The store tests and the server's storage, durability and
// correspondence tests name their store by a SQLite path (DIR/cinq.db); with CINQ_TEST_STORE=postgresql in
// the environment, store_spec() turns each path into a PostgreSQL schema of the shared cluster instead (the
// same path, the same schema, for the whole test process: a test that reopens or restarts finds its data),
// and ServerProcess gives the server `--store` with it. ctest runs those tests once each way.
#pragma once

#include <string>

namespace cinq::test {

// Whether this test process stores in PostgreSQL (CINQ_TEST_STORE=postgresql).
bool testing_postgres();

// The store for the SQLite file `path`: "sqlite:PATH", or a PostgreSQL URI of a schema standing for it.
std::string store_spec(const std::string& path);

// SQL on the store of the SQLite path `path` (its file, or the schema standing for it), as another client of
// the database would run it: the first column of the first row ("" if none), or "error: MESSAGE". SQLite's
// group_concat( is read as PostgreSQL's string_agg( there.
std::string ask_store(const std::string& path, const std::string& sql);

// The same on a PostgreSQL URI.
std::string ask_store_uri(const std::string& uri, const std::string& sql);

// Makes the database refuse `when` ("INSERT" or "UPDATE") on `table` where `condition` ("NEW.result =
// 'refused'", "" for every row) holds, with the error `message`: a trigger, as another client would add it.
// "" or "error: MESSAGE".
std::string refuse_writes(const std::string& path, const std::string& table, const std::string& when,
                          const std::string& condition, const std::string& message);

class PostgresCluster {
 public:
  // The cluster of this test process, initialised and started on first use. Throws std::runtime_error
  // (with the server's log) if it cannot start.
  static PostgresCluster& shared();
  ~PostgresCluster();
  PostgresCluster(const PostgresCluster&) = delete;
  PostgresCluster& operator=(const PostgresCluster&) = delete;

  // A URI for `schema` (created if needed) in the cluster's database, over TCP on 127.0.0.1.
  std::string uri_for_schema(const std::string& schema);
  // The URI of the database itself (its public schema).
  std::string uri() const;
  // Runs SQL as the cluster's superuser (through libpq); throws with the server's message if it fails.
  void exec(const std::string& sql);

  // The database going away and coming back (pg_ctl stop -m fast, then start on the same port).
  void stop();
  void start();
  bool running() const { return running_; }
  int port() const { return port_; }

 private:
  PostgresCluster();
  // Runs a shell command as the cluster's owner; its exit status.
  int as_owner(const std::string& command) const;

  int owner_;         // the process that started it, the only one that stops it
  std::string dir_;   // owns data/, the socket and the log
  std::string user_;  // the system user the server runs as ("" when not root: ourselves)
  std::string bin_;   // /usr/lib/postgresql/N/bin
  int port_ = 0;
  bool running_ = false;
};

}  // namespace cinq::test
