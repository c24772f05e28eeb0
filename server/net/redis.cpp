// The Redis client (redis.h): two reconnecting connections on Asio, replies read by hiredis's redisReader.
#include "server/net/redis.h"

#include <hiredis/hiredis.h>
#include <hiredis/read.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <deque>
#include <mutex>
#include <map>
#include <set>

#include "server/net/executor.h"
#include "server/net/transport.h"

namespace cinq::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

std::string encode_command(const std::vector<std::string>& args) {
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (const auto& a : args) {
    out += '$';
    out += std::to_string(a.size());
    out += "\r\n";
    out += a;
    out += "\r\n";
  }
  return out;
}

std::optional<RedisConfig> RedisConfig::parse(const std::string& uri, std::string& error) {
  constexpr std::string_view kScheme = "redis://";
  if (uri.rfind(kScheme, 0) != 0) {
    error = "'" + uri + "' is not a redis://HOST:PORT address";
    return std::nullopt;
  }
  std::string rest = uri.substr(kScheme.size());
  if (auto slash = rest.find('/'); slash != std::string::npos) rest.resize(slash);  // a database number: 0 only
  RedisConfig c;
  auto colon = rest.rfind(':');
  if (colon != std::string::npos && rest.find(']') == std::string::npos && rest.find(':') == colon) {
    const std::string port = rest.substr(colon + 1);
    rest.resize(colon);
    char* end = nullptr;
    const long p = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end != '\0' || p < 1 || p > 65535) {
      error = "'" + uri + "': the port must be a number from 1 to 65535";
      return std::nullopt;
    }
    c.port = static_cast<std::uint16_t>(p);
  }
  if (rest.empty()) {
    error = "'" + uri + "' names no host";
    return std::nullopt;
  }
  c.host = rest;
  return c;
}

namespace {

RedisReply convert(const redisReply* r) {
  RedisReply out;
  switch (r->type) {
    case REDIS_REPLY_STRING:
      out.kind = RedisReply::Kind::string;
      out.text.assign(r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
      out.kind = RedisReply::Kind::status;
      out.text.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ERROR:
      out.kind = RedisReply::Kind::error;
      out.text.assign(r->str, r->len);
      break;
    case REDIS_REPLY_INTEGER:
      out.kind = RedisReply::Kind::integer;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_ARRAY:
      out.kind = RedisReply::Kind::array;
      for (std::size_t i = 0; i < r->elements; ++i) out.items.push_back(convert(r->element[i]));
      break;
    default:
      out.kind = RedisReply::Kind::nil;
  }
  return out;
}

}  // namespace

// One connection: connect (again, after a back-off), one write in flight with a buffer behind it, and a
// read loop handing each complete reply to `on_reply`. Everything runs on its strand.
class Link : public std::enable_shared_from_this<Link> {
 public:
  using OnReply = std::function<void(RedisReply)>;
  using OnState = std::function<void(bool up)>;

  Link(asio::io_context& ioc, RedisConfig config, std::string role)
      : strand_(asio::make_strand(ioc)),
        socket_(strand_),
        resolver_(strand_),
        backoff_(strand_),
        config_(std::move(config)),
        role_(std::move(role)),
        wait_(config_.reconnect_min) {}

  ~Link() {
    if (reader_ != nullptr) redisReaderFree(reader_);
  }

  OnReply on_reply;
  OnState on_state;  // connected (true) or broken (false); on the strand

  const AsioStrand& strand() const { return strand_; }
  bool connected() const { return connected_; }  // on the strand

  void start() {
    asio::post(strand_, [self = shared_from_this()] { self->connect(); });
  }

  void stop() {
    asio::post(strand_, [self = shared_from_this()] {
      self->stopped_ = true;
      error_code ignored;
      self->backoff_.cancel();
      self->resolver_.cancel();
      self->socket_.close(ignored);
    });
  }

  // On the strand: queues bytes; false (nothing queued) while not connected.
  bool write(std::string bytes) {
    if (!connected_) return false;
    pending_ += bytes;
    if (!writing_) do_write();
    return true;
  }

 private:
  void connect() {
    if (stopped_) return;
    resolver_.async_resolve(config_.host, std::to_string(config_.port),
                            [self = shared_from_this()](error_code ec, tcp::resolver::results_type results) {
                              if (self->stopped_) return;
                              if (ec) return self->retry("resolving " + self->config_.host, ec);
                              asio::async_connect(self->socket_, results,
                                                  [self](error_code ec2, const tcp::endpoint&) {
                                                    self->on_connect(ec2);
                                                  });
                            });
  }

  void on_connect(error_code ec) {
    if (stopped_) return;
    if (ec) return retry("connecting", ec);
    error_code ignored;
    socket_.set_option(tcp::no_delay(true), ignored);
    if (reader_ != nullptr) redisReaderFree(reader_);
    reader_ = redisReaderCreate();
    reader_->maxbuf = 0;  // keep the buffer: messages of tens of kilobytes come often
    connected_ = true;
    wait_ = config_.reconnect_min;
    if (had_connection_) spdlog::info("bus: the {} connection to redis://{}:{} is back", role_, config_.host, config_.port);
    had_connection_ = true;
    if (on_state) on_state(true);
    do_read();
  }

  void retry(const std::string& doing, error_code ec) {
    if (!logged_down_) {
      spdlog::warn("bus: {} redis://{}:{} ({}): {}; trying again", doing, config_.host, config_.port, role_,
                   ec.message());
      logged_down_ = true;
    }
    backoff_.expires_after(wait_);
    wait_ = std::min(wait_ * 2, config_.reconnect_max);
    backoff_.async_wait([self = shared_from_this()](error_code e) {
      if (!e) self->connect();
    });
  }

  void broken(error_code ec) {
    if (!connected_) return;
    connected_ = false;
    writing_ = false;
    pending_.clear();
    error_code ignored;
    socket_.close(ignored);
    if (stopped_) return;
    spdlog::warn("bus: the {} connection to redis://{}:{} broke: {}", role_, config_.host, config_.port,
                 ec.message());
    logged_down_ = true;
    if (on_state) on_state(false);
    retry("reconnecting to", ec);
  }

  void do_write() {
    writing_ = true;
    in_flight_.swap(pending_);
    pending_.clear();
    asio::async_write(socket_, asio::buffer(in_flight_), [self = shared_from_this()](error_code ec, std::size_t) {
      self->writing_ = false;
      self->in_flight_.clear();
      if (ec) return self->broken(ec);
      if (!self->pending_.empty() && self->connected_) self->do_write();
    });
  }

  void do_read() {
    socket_.async_read_some(asio::buffer(buffer_), [self = shared_from_this()](error_code ec, std::size_t n) {
      if (ec) return self->broken(ec);
      if (redisReaderFeed(self->reader_, self->buffer_.data(), n) != REDIS_OK)
        return self->broken(asio::error::invalid_argument);
      for (;;) {
        void* reply = nullptr;
        if (redisReaderGetReply(self->reader_, &reply) != REDIS_OK) return self->broken(asio::error::invalid_argument);
        if (reply == nullptr) break;
        RedisReply r = convert(static_cast<redisReply*>(reply));
        freeReplyObject(reply);
        if (self->on_reply) self->on_reply(std::move(r));
        if (!self->connected_) return;
      }
      self->do_read();
    });
  }

  AsioStrand strand_;
  tcp::socket socket_;
  tcp::resolver resolver_;
  asio::steady_timer backoff_;
  RedisConfig config_;
  std::string role_;
  std::chrono::milliseconds wait_;
  redisReader* reader_ = nullptr;
  std::array<char, 64 * 1024> buffer_{};
  std::string pending_, in_flight_;
  bool writing_ = false;
  bool connected_ = false;
  bool stopped_ = false;
  bool had_connection_ = false;
  bool logged_down_ = false;
};

struct Redis::Impl : std::enable_shared_from_this<Impl> {
  Impl(asio::io_context& ioc, RedisConfig config, Message on_message, State on_state)
      : commands(std::make_shared<Link>(ioc, config, "commands")),
        subscriber(std::make_shared<Link>(ioc, config, "subscriber")),
        message(std::move(on_message)),
        state(std::move(on_state)) {}

  std::shared_ptr<Link> commands;
  std::shared_ptr<Link> subscriber;
  Message message;
  State state;

  // On the commands link's strand.
  std::deque<Reply> waiting;
  bool commands_up = false;
  // On the subscriber link's strand: each channel, whether Redis confirmed it on this connection, and who
  // waits for that.
  std::map<std::string, bool> channels;
  std::map<std::string, std::vector<std::function<void()>>> ready;
  std::size_t confirming = 0;  // subscriptions sent on this connection, not yet confirmed
  bool subscribed = false;     // every subscription of the set is in place on this connection
  std::atomic<bool> up{false};
  std::atomic<bool> commands_ready{false};
  std::atomic<bool> subscriber_ready{false};
  std::atomic<bool> stopped{false};

  mutable std::mutex counters_mutex;
  Counters counters;

  void wire() {
    std::weak_ptr<Impl> weak = weak_from_this();
    commands->on_state = [weak](bool connected) {
      auto self = weak.lock();
      if (!self) return;
      self->commands_up = connected;
      if (!connected) {
        auto failed = std::move(self->waiting);
        self->waiting.clear();
        for (auto& r : failed)
          if (r) r(std::nullopt);
      }
      self->commands_ready = connected;
      self->tell();
    };
    commands->on_reply = [weak](RedisReply r) {
      auto self = weak.lock();
      if (!self || self->waiting.empty()) return;
      Reply done = std::move(self->waiting.front());
      self->waiting.pop_front();
      if (done) done(std::move(r));
    };
    subscriber->on_state = [weak](bool connected) {
      auto self = weak.lock();
      if (!self) return;
      self->subscriber_ready = false;
      self->subscribed = false;
      self->confirming = 0;
      for (auto& [name, confirmed] : self->channels) confirmed = false;
      if (connected) {
        if (self->channels.empty()) {
          self->subscribed = true;
          self->subscriber_ready = true;
        } else {
          std::vector<std::string> names;
          for (const auto& [name, confirmed] : self->channels) names.push_back(name);
          self->send_subscribe(std::move(names));
        }
      }
      self->tell();
    };
    subscriber->on_reply = [weak](RedisReply r) {
      auto self = weak.lock();
      if (!self) return;
      if (r.kind != RedisReply::Kind::array || r.items.size() < 3) return;
      const std::string& kind = r.items[0].text;
      if (kind == "message") {
        {
          std::lock_guard lock(self->counters_mutex);
          ++self->counters.received;
        }
        if (self->message) self->message(r.items[1].text, std::move(r.items[2].text));
      } else if (kind == "subscribe") {
        const std::string& name = r.items[1].text;
        if (auto it = self->channels.find(name); it != self->channels.end()) it->second = true;
        if (auto it = self->ready.find(name); it != self->ready.end()) {
          auto waiting = std::move(it->second);
          self->ready.erase(it);
          for (auto& fn : waiting) fn();
        }
        if (self->confirming > 0 && --self->confirming == 0 && !self->subscribed) {
          self->subscribed = true;
          self->subscriber_ready = true;
          self->tell();
        }
      }
    };
  }

  // On the subscriber strand.
  void send_subscribe(std::vector<std::string> names) {
    // In slices, so that one command stays small however many rooms a node relays.
    for (std::size_t i = 0; i < names.size(); i += 200) {
      std::vector<std::string> args{"SUBSCRIBE"};
      for (std::size_t j = i; j < std::min(names.size(), i + 200); ++j) args.push_back(names[j]);
      if (!subscriber->write(encode_command(args))) return;
      confirming += args.size() - 1;
    }
  }

  // Either link's state changed: tell once both are up (with every subscription), or once one is down.
  void tell() {
    const bool now = commands_ready && subscriber_ready && !stopped;
    const bool was = up.exchange(now);
    if (was != now) {
      if (!now) {
        std::lock_guard lock(counters_mutex);
        ++counters.reconnects;
      }
      if (state) state(now);
    }
  }
};

Redis::Redis(Server& server, RedisConfig config, Message on_message, State on_state) {
  auto& ioc = ServerAccess::io_context(server);
  impl_ = std::make_shared<Impl>(ioc, std::move(config), std::move(on_message), std::move(on_state));
  impl_->wire();
}

Redis::~Redis() { stop(); }

void Redis::start() {
  impl_->commands->start();
  impl_->subscriber->start();
}

void Redis::stop() {
  if (impl_->stopped.exchange(true)) return;
  impl_->commands->stop();
  impl_->subscriber->stop();
}

void Redis::command(std::vector<std::string> args, Reply done) {
  asio::post(impl_->commands->strand(), [impl = impl_, args = std::move(args), done = std::move(done)]() mutable {
    if (!impl->commands_up || impl->stopped || !impl->commands->write(encode_command(args))) {
      {
        std::lock_guard lock(impl->counters_mutex);
        ++impl->counters.dropped;
      }
      if (done) done(std::nullopt);
      return;
    }
    impl->waiting.push_back(std::move(done));
  });
}

void Redis::publish(const std::string& channel, std::string payload) {
  {
    std::lock_guard lock(impl_->counters_mutex);
    ++impl_->counters.published;
  }
  command({"PUBLISH", channel, std::move(payload)});
}

void Redis::subscribe(const std::string& channel, std::function<void()> ready) {
  asio::post(impl_->subscriber->strand(), [impl = impl_, channel, ready = std::move(ready)]() mutable {
    auto [it, fresh] = impl->channels.try_emplace(channel, false);
    if (!fresh && it->second) {
      if (ready) ready();
      return;
    }
    if (ready) impl->ready[channel].push_back(std::move(ready));
    if (!fresh || !impl->subscriber->connected()) return;  // (re)subscribed with the others on connection
    if (impl->subscribed) {
      impl->subscriber->write(encode_command({"SUBSCRIBE", channel}));
    } else {
      impl->send_subscribe({channel});
    }
  });
}

void Redis::unsubscribe(const std::string& channel) {
  asio::post(impl_->subscriber->strand(), [impl = impl_, channel] {
    if (impl->channels.erase(channel) == 0) return;
    impl->ready.erase(channel);
    if (impl->subscriber->connected()) impl->subscriber->write(encode_command({"UNSUBSCRIBE", channel}));
  });
}

bool Redis::up() const { return impl_->up; }

Redis::Counters Redis::counters() const {
  std::lock_guard lock(impl_->counters_mutex);
  return impl_->counters;
}

}  // namespace cinq::net
