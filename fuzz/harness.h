// The real application for the fuzz targets: the App with its store (a SQLite file in a fresh
// temporary directory, under /dev/shm when there is one), its workers and bot threads, and a net::Server on
// a free loopback port whose I/O threads run the rooms' strands and timers. Nothing connects to that port:
// messages go straight into App::on_message from an in-process Connection, HTTP requests into App::on_http.
// Built once per process; every input runs against the same server, as a long-lived server would see them.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/app.h"

namespace cinq::fuzz {

// A connection that keeps what the server sends it.
class Inbox : public net::Connection {
 public:
  explicit Inbox(std::uint64_t id) : id_(id) {}
  void send(std::shared_ptr<const std::string> text) override;
  void close(int, std::string) override;
  const std::string& address() const override { return address_; }
  std::uint64_t id() const override { return id_; }
  // Waits (up to `timeout`) for a message containing `needle`, or for the server to close the connection (a
  // closed connection is answered no more); true if the message came.
  bool wait_for(const std::string& needle, std::chrono::milliseconds timeout);
  // How many messages came so far.
  std::size_t count();
  // Waits (up to `timeout`) for a `state` or an `error` among the messages from the `from`th on (the answer
  // to a line sent when `count()` was `from`), or for the close.
  void wait_answer(std::size_t from, std::chrono::milliseconds timeout);
  // The room of the last `state` received, or "".
  std::string last_room();

 private:
  std::uint64_t id_;
  std::string address_ = "127.0.0.1";
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::string> messages_;
  bool closed_ = false;
};

class Harness {
 public:
  static Harness& get();
  server::App& app() { return *app_; }
  const std::string& web_dir() const { return web_dir_; }
  std::uint64_t next_id() { return ++ids_; }

 private:
  Harness();
  std::string dir_, web_dir_;
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<store::Worker> writer_;
  std::unique_ptr<server::App> app_;
  std::unique_ptr<net::Server> server_;
  std::thread io_;
  std::atomic<std::uint64_t> ids_{1u << 30};
};

}  // namespace cinq::fuzz
