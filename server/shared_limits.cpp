// The limits a cluster's nodes count together (shared_limits.h).
#include "server/shared_limits.h"

#include <algorithm>
#include <chrono>

#include "server/room_bus.h"
#include "server/services.h"

namespace cinq::server {

namespace {

// The other nodes' sums of some fields of the levels' hashes: ARGV[1] this node, ARGV[2..] the fields;
// KEYS[1] the set of the nodes' ids. A node whose hash expired (dead, or cut from Redis) or is empty counts
// nothing and leaves the set (a live one adds itself again with its next change and heartbeat), so that the
// ids of nodes gone for good do not pile up.
constexpr const char* kOthersScript = R"lua(
local out = {}
for i = 2, #ARGV do out[i - 1] = 0 end
for _, node in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if node ~= ARGV[1] then
    local hash = 'cinq:levels:' .. node
    if redis.call('EXISTS', hash) == 0 then
      redis.call('SREM', KEYS[1], node)
    else
      local counts = redis.call('HMGET', hash, unpack(ARGV, 2))
      for i, v in ipairs(counts) do
        if v then out[i] = out[i] + tonumber(v) end
      end
    end
  end
end
return out
)lua";
constexpr const char* kNodesKey = "cinq:levels:nodes";
constexpr std::size_t kFieldsPerRead = 500;  // a script's arguments stay far below Lua's stack limit

std::string connection_field(const std::string& address) { return "c:" + address; }
std::string room_field(Claims::Kind kind, const std::string& player) {
  return (kind == Claims::open_room ? "o:" : "b:") + player;
}

std::int64_t now_ms() { return Services::now().unix_ms; }

}  // namespace

// The timer, apart from the limits: its handler may still run once while stop() returns.
struct SharedLimits::Ticker {
  std::mutex mutex;
  bool stopping = false;
  std::shared_ptr<net::Strand> strand;
  std::unique_ptr<net::Timer> timer;
};

SharedLimits::SharedLimits(Services& services, Config config)
    : services_(services),
      config_(config),
      messages_(config.message_rate, config.message_burst),
      requests_(config.http_rate, config.http_burst) {}

SharedLimits::~SharedLimits() { stop(); }

void SharedLimits::set_transport_limits(double http_rate, double http_burst, std::size_t connections_per_address) {
  std::lock_guard lock(mutex_);
  config_.http_rate = http_rate;
  config_.http_burst = http_burst;
  config_.connections_per_address = connections_per_address;
  requests_ = limits::SharedRates(http_rate, http_burst);
}

void SharedLimits::start(net::Server& server, RoomBus& bus, const std::string& node) {
  {
    std::lock_guard lock(mutex_);
    bus_ = &bus;
    server_ = &server;
    node_ = node;
    hash_ = "cinq:levels:" + node;
  }
  // Each change of a player's rooms here is published at once, in the order of the changes (the claims'
  // lock, then ours, are held while it is queued on Redis's one command connection).
  services_.claims.on_change([this](Claims::Kind kind, const std::string& player, std::size_t count) {
    if (room_limit(kind) == 0) return;
    std::lock_guard lock(mutex_);
    const std::string field = room_field(kind, player);
    levels_.set_own(field, static_cast<std::int64_t>(count));
    publish(field, static_cast<std::int64_t>(count));
  });
  ticker_ = std::make_shared<Ticker>();
  ticker_->strand = server.make_strand();
  ticker_->timer = server.make_timer(ticker_->strand);
  arm(ticker_);
}

void SharedLimits::arm(const std::shared_ptr<Ticker>& ticker) {
  std::lock_guard lock(ticker->mutex);
  if (ticker->stopping) return;
  ticker->timer->arm(std::chrono::milliseconds(kShareMs), [this, ticker] {
    {
      std::lock_guard lock(ticker->mutex);
      if (ticker->stopping) return;
    }
    tick();
    arm(ticker);
  });
}

void SharedLimits::stop() {
  if (ticker_) {
    std::lock_guard lock(ticker_->mutex);
    ticker_->stopping = true;
    // Gone now, while the I/O context they were made on still exists (App::shutdown runs before the
    // transport goes): a timer or strand outliving its context is undefined behaviour (it once kept a
    // drained node from exiting). A tick under way holds the ticker, not the timer.
    ticker_->timer.reset();
    ticker_->strand.reset();
  }
  services_.claims.on_change({});
  std::lock_guard lock(mutex_);
  bus_ = nullptr;
}

std::size_t SharedLimits::room_limit(Claims::Kind kind) const {
  return kind == Claims::open_room ? services_.limits.open_rooms_per_player : services_.limits.bot_rooms_per_player;
}

bool SharedLimits::take_message(const std::string& address) {
  if (config_.message_rate <= 0) return true;
  std::lock_guard lock(mutex_);
  if (messages_.size() > 100000) messages_ = limits::SharedRates(config_.message_rate, config_.message_burst);
  return messages_.take(address, now_ms());
}

bool SharedLimits::take_request(const std::string& address) {
  std::lock_guard lock(mutex_);
  if (!bus_ || config_.http_rate <= 0) return true;  // alone: the transport's own bucket is the limit
  if (requests_.size() > 100000) requests_ = limits::SharedRates(config_.http_rate, config_.http_burst);
  return requests_.take(address, now_ms());
}

bool SharedLimits::admit_connection(const std::string& address) {
  std::lock_guard lock(mutex_);
  if (!bus_ || config_.connections_per_address == 0) return true;  // alone: the transport counts them
  return levels_.fits(connection_field(address), static_cast<std::int64_t>(config_.connections_per_address),
                      now_ms());
}

void SharedLimits::connection_opened(const std::string& address) {
  std::lock_guard lock(mutex_);
  if (!bus_ || config_.connections_per_address == 0) return;
  const std::string field = connection_field(address);
  levels_.add_own(field, 1);
  publish(field, levels_.own(field));
}

void SharedLimits::connection_closed(const std::string& address) {
  std::lock_guard lock(mutex_);
  if (!bus_ || config_.connections_per_address == 0) return;
  const std::string field = connection_field(address);
  levels_.add_own(field, -1);
  publish(field, levels_.own(field));
}

// Under mutex_: queued on Redis's command connection in the order of the changes. A change Redis did not
// take (away) has the whole hash written again once it is back.
void SharedLimits::publish(const std::string& field, std::int64_t count) {
  if (!bus_) return;
  auto lost = [this](std::optional<net::RedisReply> r) {
    if (!r || r->is_error()) rewrite_ = true;
  };
  if (count > 0)
    bus_->shared_command({"HSET", hash_, field, std::to_string(count)}, lost);
  else
    bus_->shared_command({"HDEL", hash_, field}, lost);
  bus_->shared_command({"PEXPIRE", hash_, std::to_string(kLevelTtlMs)}, {});
  bus_->shared_command({"SADD", kNodesKey, node_}, {});
}

void SharedLimits::rooms_elsewhere(Claims::Kind kind, const std::string& player,
                                   std::function<void(std::int64_t)> done) {
  RoomBus* bus = nullptr;
  std::string node;
  net::Server* server = nullptr;
  {
    std::lock_guard lock(mutex_);
    bus = bus_;
    node = node_;
    server = server_;
  }
  if (!bus || !server || room_limit(kind) == 0) return done(0);
  // The first of Redis's answer and the timer decides.
  struct Wait {
    std::atomic<bool> answered{false};
    std::function<void(std::int64_t)> done;
    std::shared_ptr<net::Strand> strand;
    std::unique_ptr<net::Timer> timer;
    std::mutex mutex;
  };
  auto wait = std::make_shared<Wait>();
  wait->done = std::move(done);
  wait->strand = server->make_strand();
  wait->timer = server->make_timer(wait->strand);
  auto finish = [](const std::shared_ptr<Wait>& w, std::int64_t others) {
    if (w->answered.exchange(true)) return;
    {
      std::lock_guard lock(w->mutex);
      if (w->timer) w->timer->cancel();
    }
    w->done(others);
  };
  {
    std::lock_guard lock(wait->mutex);
    wait->timer->arm(std::chrono::milliseconds(kWaitMs), [weak = std::weak_ptr<Wait>(wait), finish] {
      if (auto w = weak.lock()) finish(w, 0);
    });
  }
  bus->shared_command({"EVAL", kOthersScript, "1", kNodesKey, node, room_field(kind, player)},
                      [wait, finish](std::optional<net::RedisReply> r) {
                        std::int64_t others = 0;
                        if (r && r->kind == net::RedisReply::Kind::array && r->items.size() == 1 &&
                            r->items[0].kind == net::RedisReply::Kind::integer)
                          others = r->items[0].integer;
                        finish(wait, others);
                      });
}

// The others' sums of `fields`, heard by levels_ (the connections' admission reads them).
void SharedLimits::read_others(std::vector<std::string> fields) {
  RoomBus* bus = nullptr;
  std::string node;
  {
    std::lock_guard lock(mutex_);
    bus = bus_;
    node = node_;
  }
  if (!bus) return;
  for (std::size_t from = 0; from < fields.size(); from += kFieldsPerRead) {
    const std::size_t to = std::min(fields.size(), from + kFieldsPerRead);
    std::vector<std::string> args{"EVAL", kOthersScript, "1", kNodesKey, node};
    std::vector<std::string> asked(fields.begin() + static_cast<std::ptrdiff_t>(from),
                                   fields.begin() + static_cast<std::ptrdiff_t>(to));
    args.insert(args.end(), asked.begin(), asked.end());
    bus->shared_command(std::move(args), [this, asked = std::move(asked)](std::optional<net::RedisReply> r) {
      if (!r || r->kind != net::RedisReply::Kind::array || r->items.size() != asked.size()) return;
      const std::int64_t now = now_ms();
      std::lock_guard lock(mutex_);
      for (std::size_t i = 0; i < asked.size(); ++i)
        if (r->items[i].kind == net::RedisReply::Kind::integer) levels_.heard(asked[i], r->items[i].integer, now);
    });
  }
}

// On the ticker's strand, every kShareMs.
void SharedLimits::tick() {
  const std::int64_t now = now_ms();
  RoomBus* bus = nullptr;
  std::vector<limits::SharedRates::Batch> messages, requests;
  std::vector<std::string> to_read;
  bool beat = false;
  {
    std::lock_guard lock(mutex_);
    bus = bus_;
    if (!bus) return;
    messages = messages_.unshared(now);
    requests = requests_.unshared(now);
    // The connections whose count changed here are read again at once; every held one at each heartbeat.
    for (auto& [field, count] : levels_.changed())
      if (field.starts_with("c:")) to_read.push_back(field);
    beat = now - last_beat_ms_ >= kBeatMs;
    if (beat) {
      last_beat_ms_ = now;
      for (auto& [field, count] : levels_.held())
        if (field.starts_with("c:") && std::find(to_read.begin(), to_read.end(), field) == to_read.end())
          to_read.push_back(field);
      if (now - last_sweep_ms_ >= 10 * kBeatMs) {
        last_sweep_ms_ = now;
        messages_.sweep(now);
        requests_.sweep(now);
        levels_.sweep(now);
      }
    }
  }
  // The rates: this node's new events, each batch answered with the cluster's total.
  auto share = [&](const std::vector<limits::SharedRates::Batch>& batches, const char* kind,
                   limits::SharedRates SharedLimits::*rates) {
    for (const auto& b : batches) {
      const std::string key = std::string("cinq:rate:") + kind + ":" + b.key + ":" + std::to_string(b.window);
      bus->shared_command({"INCRBY", key, std::to_string(b.delta)},
                          [this, rates, b](std::optional<net::RedisReply> r) {
                            if (!r || r->kind != net::RedisReply::Kind::integer) return;
                            std::lock_guard lock(mutex_);
                            (this->*rates).merged(b.key, b.window, b.own, r->integer, now_ms());
                          });
      if (b.own == b.delta)  // this node's first batch of the window: the key expires after two windows
        bus->shared_command({"PEXPIRE", key, std::to_string(2 * messages_.window_ms())}, {});
    }
  };
  share(messages, "m", &SharedLimits::messages_);
  share(requests, "h", &SharedLimits::requests_);
  if (beat) {
    // This node's levels live kLevelTtlMs past its last heartbeat; written whole when Redis lost them.
    bus->shared_command({"PEXPIRE", hash_, std::to_string(kLevelTtlMs)}, [this](std::optional<net::RedisReply> r) {
      if (!r || r->kind != net::RedisReply::Kind::integer || r->integer != 1) rewrite_ = true;
    });
    if (rewrite_.exchange(false)) {
      std::lock_guard lock(mutex_);
      std::vector<std::string> hset{"HSET", hash_};
      for (auto& [field, count] : levels_.held()) {
        hset.push_back(field);
        hset.push_back(std::to_string(count));
      }
      auto lost = [this](std::optional<net::RedisReply> r) {
        if (!r || r->is_error()) rewrite_ = true;
      };
      bus->shared_command({"DEL", hash_}, lost);
      if (hset.size() > 2) bus->shared_command(std::move(hset), lost);
      bus->shared_command({"PEXPIRE", hash_, std::to_string(kLevelTtlMs)}, {});
    }
    bus->shared_command({"SADD", kNodesKey, node_}, {});  // after the hash: a reader keeps an id with a hash
  }
  if (!to_read.empty()) read_others(std::move(to_read));
}

}  // namespace cinq::server
