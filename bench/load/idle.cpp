// Idle mode: N connections that each say hello once and then hold still, to weigh what the server keeps
// per connection. The same against cinq (answers `welcome`) and cinq_echo (echoes the hello).
#include <deque>
#include <vector>

#include "bench/load/phase.h"

namespace cinq::load {

namespace {

constexpr auto kConnectTimeout = std::chrono::seconds(10);
constexpr int kInFlight = 64;  // connections being set up at once per loop
constexpr std::string_view kHello = R"({"type":"hello","name":"load-idle"})";

class IdleWorkload;

struct IdlePeer final : ConnListener {
  IdleWorkload* w = nullptr;
  std::shared_ptr<Conn> conn;
  bool opened = false;
  bool answered = false;

  void on_open(Conn&) override;
  void on_message(Conn&, std::string_view text, Clock::time_point at) override;
  void on_close(Conn&, std::string_view why) override;
};

class IdleWorkload final : public Workload {
 public:
  IdleWorkload(Loop& loop, const WorkloadEnv& env) : loop_(loop), env_(env) {}

  void start() override {
    peers_.resize(env_.share(env_.options.connections));
    for (auto& p : peers_) p.w = this;
    pump();
  }

  void tick(Clock::time_point) override {}

  void shutdown() override {
    stopped_ = true;
    for (auto& p : peers_) {
      if (p.opened) open.fetch_sub(1);
      p.opened = false;
      if (p.conn) p.conn->close();
    }
  }

  void opened(IdlePeer& p) {
    p.opened = true;
    open.fetch_add(1);
    p.conn->send(std::string(kHello));
  }

  void message(IdlePeer& p, std::string_view text, Clock::time_point at) {
    if (env_.window.contains(at)) stats.received++;
    if (p.answered) return;
    p.answered = true;
    if (text.find(R"("type":"error")") != std::string_view::npos) error("hello_refused");
    ready.fetch_add(1);
    --in_flight_;
    pump();
  }

  void closed(IdlePeer& p) {
    error(p.opened ? "disconnect" : "connect");
    if (p.opened) open.fetch_sub(1);
    if (!p.answered) {
      --in_flight_;
      pump();
    }
    p.opened = false;
  }

 private:
  void error(const std::string& code) { stats.errors[code]++; }

  void pump() {
    while (!stopped_ && in_flight_ < kInFlight && next_ < peers_.size()) {
      const std::int64_t global = env_.loop_index + static_cast<std::int64_t>(next_) * env_.loops;
      IdlePeer& p = peers_[next_++];
      ++in_flight_;
      // With --urls, round-robin over them.
      const Target& target = env_.targets.empty()
                                 ? env_.target
                                 : env_.targets[static_cast<std::size_t>(global) % env_.targets.size()];
      p.conn = Conn::open(loop_, target, &p, kConnectTimeout, env_.source(global));
    }
  }

  Loop& loop_;
  WorkloadEnv env_;
  std::vector<IdlePeer> peers_;  // never resized after start(): connections point into it
  std::size_t next_ = 0;
  int in_flight_ = 0;
  bool stopped_ = false;
};

void IdlePeer::on_open(Conn&) { w->opened(*this); }
void IdlePeer::on_message(Conn&, std::string_view text, Clock::time_point at) { w->message(*this, text, at); }
void IdlePeer::on_close(Conn&, std::string_view) { w->closed(*this); }

}  // namespace

std::unique_ptr<Workload> make_idle_workload(Loop& loop, const WorkloadEnv& env) {
  return std::make_unique<IdleWorkload>(loop, env);
}

}  // namespace cinq::load
