// The network as the rest of the server sees it: connections that can be sent text, requests that can be
// answered, strands to serialize work on, and timers. No Boost here on purpose: Beast/Asio translation units
// are slow to compile, so only server/net/*.cpp include them (docs/design.md, "Stack"; README, "Building").
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cinq::net {

// True on the transport's I/O threads (the threads running Server::run, which also run every Strand and
// Timer handler): work there must never wait (a store read, a whole record's replay). The application counts
// such work (cinq_blocking_on_network_total) with this.
bool on_network_thread();

// One WebSocket connection. Thread-safe: `send` and `close` may be called from any thread.
class Connection {
 public:
  virtual ~Connection() = default;
  // Queues a text frame. The same buffer may be shared by many connections (a broadcast is built once).
  // When the connection's queue is full (the client is too slow), the connection is closed instead and
  // `Stats::send_queue_drops` counts it.
  virtual void send(std::shared_ptr<const std::string> text) = 0;
  void send(std::string text) { send(std::make_shared<const std::string>(std::move(text))); }
  // Closes with a WebSocket close code (1000 normal, 1001 going away, 1008 policy) and a short reason.
  virtual void close(int code, std::string reason) = 0;
  // The peer's IP address, as text.
  virtual const std::string& address() const = 0;
  // Unique for the life of the process.
  virtual std::uint64_t id() const = 0;
  // The browser's `cinq_device` cookie (an opaque random id, docs/protocol.md "Identity"): the one its
  // upgrade request carried, or the one the upgrade's answer set. "" for connections of no browser.
  virtual const std::string& device() const {
    static const std::string none;
    return none;
  }

  // Several nodes (server/cluster.h). A connection may stand for a client of another node: its
  // messages were forwarded here, and what is sent to it goes back there. The transport's own connections
  // keep these defaults.
  virtual bool remote() const { return false; }
  // The id of the forwarded message being handled for it ("" for a local connection).
  virtual std::string command_id() const { return {}; }
  // The message `id` has been handled whole (its effects stored and announced): the other node may forget it.
  virtual void completed(const std::string& id) { (void)id; }
  // The connection now receives `room`'s events (after the state or events just sent it, at `version` of
  // `epoch`), or no longer does.
  virtual void joined(const std::string& room, std::int64_t epoch, std::int64_t version) {
    (void)room, (void)epoch, (void)version;
  }
  virtual void left(const std::string& room) { (void)room; }
};

struct HttpRequest {
  std::string method;  // "GET", "POST", "HEAD", ...
  std::string target;  // path and query, as sent: "/api/games?x=1"
  std::string body;
  std::string content_type;
  std::string address;  // the peer's IP address
  std::string authorization;  // the Authorization header ("" none): `Bearer PLAYER:TOKEN` (server/rest.cpp)
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers
};

// What the application provides. The transport calls it; it never blocks the calling thread for long.
class Handler {
 public:
  virtual ~Handler() = default;
  // A WebSocket connection on `/ws` is open.
  virtual void on_open(const std::shared_ptr<Connection>& c) = 0;
  // One text message, in arrival order per connection (the next read starts only after this returns).
  virtual void on_message(const std::shared_ptr<Connection>& c, std::string text) = 0;
  // The connection is gone (closed by either side, or failed). Called once per on_open.
  virtual void on_close(const std::shared_ptr<Connection>& c) = 0;
  // Any HTTP request whose path starts with `/api/` or is `/metrics`. `respond` may be called later, from
  // any thread, exactly once. Once called, it holds nothing of the connection; one never called must be
  // dropped before the Server is destroyed (it keeps the connection alive until then).
  virtual void on_http(HttpRequest request, std::function<void(HttpResponse)> respond) = 0;
  // Whether new WebSocket connections are taken (false: upgrades are answered 503, e.g. a node of a cluster
  // handing its rooms over, so that the balancer's next try goes elsewhere).
  virtual bool accepting() const { return true; }
  // Limits the nodes of a cluster count together, asked after the transport's own (per node) and answered at
  // once from what the node knows (never waiting): one more HTTP request of `address` (false: 429), one more
  // WebSocket connection of `address` (false: 429).
  virtual bool admit_request(const std::string& address) {
    (void)address;
    return true;
  }
  virtual bool admit_connection(const std::string& address) {
    (void)address;
    return true;
  }
};

// Serializes work: functions posted to one strand never run concurrently, and run in posting order.
class Strand {
 public:
  virtual ~Strand() = default;
  virtual void post(std::function<void()> fn) = 0;
};

// A one-shot timer whose handler runs on a strand. Re-arming cancels the previous wait; a cancelled wait's
// handler never runs.
class Timer {
 public:
  virtual ~Timer() = default;
  virtual void arm(std::chrono::steady_clock::duration after, std::function<void()> fn) = 0;
  virtual void cancel() = 0;
};

// Transport counters, read by /metrics.
struct Stats {
  std::atomic<std::int64_t> connections_open{0};      // WebSocket connections now
  std::atomic<std::int64_t> connections_total{0};     // WebSocket connections accepted since start
  std::atomic<std::int64_t> connections_refused{0};   // upgrades refused (too many from one address)
  std::atomic<std::int64_t> http_requests_total{0};
  std::atomic<std::int64_t> messages_in_total{0};
  std::atomic<std::int64_t> messages_out_total{0};
  std::atomic<std::int64_t> send_queue_drops_total{0};  // connections closed because their queue was full
  std::atomic<std::int64_t> oversize_closes_total{0};   // connections closed for a frame over the hard cap
  // What one address, or everyone together, may take of the server, so that none can starve the rest.
  std::atomic<std::int64_t> http_open{0};                 // HTTP connections now (not yet upgraded)
  std::atomic<std::int64_t> http_refused_total{0};        // closed at once: too many from one address
  std::atomic<std::int64_t> http_rate_limited_total{0};   // requests answered 429: too many a second
  std::atomic<std::int64_t> connections_shed_total{0};    // refused to keep descriptors in reserve
};

struct ServerConfig {
  std::string address = "0.0.0.0";
  std::uint16_t port = 8080;  // 0: any free port (see Server::port())
  std::string web_dir;        // static files; "" serves nothing but the API
  int threads = 2;
  // Frames above this are refused by Beast itself and the connection is closed with 1009. The application
  // applies its own, smaller cap (a few KiB) and answers it with an error message.
  std::size_t hard_max_message = 64 * 1024;
  std::size_t send_queue_max = 512;        // messages queued per connection before it is dropped
  std::size_t max_connections_per_address = 64;  // WebSocket; 0: no limit (a load generator on loopback)
  std::size_t max_http_connections_per_address = 64;  // HTTP connections not upgraded; 0: no limit
  double http_rate = 50;    // HTTP requests a second per address, WebSocket upgrades included; 0: no limit
  double http_burst = 500;  // ... with bursts up to this many (several pages and their files at once)
  // Descriptors kept free of connections: WebSocket upgrades stop at (open files limit - fd_reserve), every
  // connection at (limit - fd_reserve / 4), so accept() never runs out, and the listener, health checks and
  // the store always find descriptors.
  std::size_t fd_reserve = 128;
  std::size_t max_http_body = 1024 * 1024;  // POST bodies (records)
  // Load balancers in front: connections from these addresses are not capped per address, and
  // their requests' client is the last address of X-Forwarded-For (which the balancer appends), so that every
  // per-address limit applies to the real client.
  std::vector<std::string> trusted_proxies;
  // HTTPS and WSS instead of HTTP and WS: the certificate (chain) and its private key, PEM files. Both or
  // neither. Read again on SIGHUP (Server::run): new connections get the new certificate, open ones go on.
  std::string tls_cert;
  std::string tls_key;
};

class Server {
 public:
  // Binds and listens at once (throws std::runtime_error with a clear message if it cannot).
  Server(ServerConfig config, Handler& handler);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  std::uint16_t port() const;  // the port actually bound
  Stats& stats();

  std::shared_ptr<Strand> make_strand();
  std::unique_ptr<Timer> make_timer(const std::shared_ptr<Strand>& strand);

  // Runs the I/O threads until stop() or SIGINT/SIGTERM. On a signal, `on_signal` runs first (on an I/O
  // thread) and is expected to call stop(). With TLS, SIGHUP reloads the certificate (reload_tls).
  void run(std::function<void()> on_signal);
  // Stops accepting, closes every WebSocket with 1001 "server shutting down", and makes run() return once
  // the sessions are gone (or after 3 seconds). Thread-safe, idempotent.
  void stop();

  // Whether the server speaks TLS (ServerConfig::tls_cert).
  bool tls() const;
  // Reads the certificate and key files again, for the connections accepted from now on; false, with why,
  // when they cannot be loaded (the certificate in force stays). Thread-safe.
  bool reload_tls(std::string& why);

 private:
  friend struct ServerAccess;  // executor.h: the Redis client runs on the same threads
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cinq::net
