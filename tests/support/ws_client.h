// A WebSocket client of our own, on Boost.Beast, for tests (no Boost in this header: test files that include
// it compile fast). One connection, blocking calls with timeouts, all on the calling thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cinq::test {

// Reads only while one of its calls runs: a client that never calls receive() never reads, and the
// server's buffers fill like those of a stalled browser.
class WsClient {
 public:
  // Connects to ws://127.0.0.1:PORT/TARGET. Throws std::runtime_error if it cannot (a refused upgrade
  // says its HTTP status: "... HTTP 429").
  explicit WsClient(std::uint16_t port, const std::string& target = "/ws");
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  void send(const std::string& text);  // a text frame, any size; throws if the connection is closed
  // The next text message, or nullopt on timeout or once the connection is closed.
  std::optional<std::string> receive(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  bool closed() const;     // as far as this client has read
  int close_code() const;  // the close code the server sent (0 if none)
  void close();            // a normal close (1000); safe to call twice

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct HttpReply {
  int status = 0;
  std::string content_type;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

// One HTTP/1.1 request to 127.0.0.1:PORT (Connection: close). Throws std::runtime_error if it cannot connect.
HttpReply http_request(std::uint16_t port, const std::string& method, const std::string& target,
                       const std::string& body = "", const std::string& content_type = "");

}  // namespace cinq::test
