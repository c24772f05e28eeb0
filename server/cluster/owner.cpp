// The owner side of a cluster (cluster.h): clients of other nodes stand here as Remote connections; their
// forwarded commands run through this node's protocol, their answers go back to their node, and the HTTP
// requests about this node's rooms are answered here.
#include <spdlog/spdlog.h>

#include <deque>

#include "server/cluster/cluster.h"

namespace cinq::server {

using nlohmann::json;

// A client of another node, as this node's protocol and rooms see it. What is sent to it goes to its node's
// inbox, addressed to its connection there; what it sent came from there with an id each.
class Cluster::Remote : public net::Connection {
 public:
  Remote(Cluster& cluster, std::string node, std::uint64_t origin, std::string address, std::uint64_t id)
      : cluster_(cluster), node_(std::move(node)), origin_(origin), address_(std::move(address)), id_(id) {}

  // What is said about a room names this node (`from`): the client's node takes it only from the node it
  // follows for that room (Cluster::follows).
  void send(std::shared_ptr<const std::string> text) override {
    if (cut_) return;
    cluster_.to_node(node_, json{{"k", "send"}, {"conn", origin_}, {"from", cluster_.node_id_}}, *text);
  }
  void close(int code, std::string reason) override {
    if (cut_) return;
    cluster_.to_node(node_, json{{"k", "close"}, {"conn", origin_}, {"code", code}, {"reason", reason}});
  }
  const std::string& address() const override { return address_; }
  std::uint64_t id() const override { return id_; }
  bool remote() const override { return true; }
  // The protocol handles a connection's messages one at a time, in order: the one being handled is the
  // oldest not completed.
  std::string command_id() const override {
    std::lock_guard lock(mutex_);
    return fids_.empty() ? std::string() : fids_.front();
  }
  void completed(const std::string& fid) override {
    bool refused = false;
    {
      std::lock_guard lock(mutex_);
      if (!fids_.empty() && fids_.front() == fid) fids_.pop_front();
      refused = refused_.erase(fid) > 0;
    }
    spdlog::debug("cluster: {} completed{}", fid, refused ? " (moved)" : "");
    if (!fid.empty() && !refused && !cut_)
      cluster_.to_node(node_, json{{"k", "ack"}, {"fid", fid}, {"from", cluster_.node_id_}});
  }
  void joined(const std::string& room, std::int64_t epoch, std::int64_t version) override {
    if (cut_) return;
    cluster_.to_node(node_, json{{"k", "joined"}, {"conn", origin_}, {"room", room}, {"epoch", epoch},
                                 {"version", version}, {"from", cluster_.node_id_}});
  }
  void left(const std::string& room) override {
    if (cut_) return;
    cluster_.to_node(node_, json{{"k", "left"}, {"conn", origin_}, {"room", room}, {"from", cluster_.node_id_}});
  }

  void push(const std::string& fid) {
    std::lock_guard lock(mutex_);
    fids_.push_back(fid);
  }
  // Answered `moved`: its completion acknowledges nothing (the sender sends it again elsewhere).
  void refuse(const std::string& fid) {
    std::lock_guard lock(mutex_);
    refused_.insert(fid);
  }
  const std::string& node() const { return node_; }
  // Its node was judged dead: nothing more goes there. Should that node come back (it was paused), it joins
  // its clients again (Cluster::beat), and a `left` from here would cancel that.
  void cut() { cut_ = true; }

 private:
  Cluster& cluster_;
  std::string node_;
  std::uint64_t origin_;
  std::string address_;
  std::uint64_t id_;
  mutable std::mutex mutex_;
  std::deque<std::string> fids_;
  std::set<std::string> refused_;
  std::atomic<bool> cut_{false};
};

namespace {

std::string remote_key(const std::string& node, std::uint64_t connection) {
  return node + "/" + std::to_string(connection);
}

// Ids of stand-in connections: far above the transport's, which count from 1.
std::atomic<std::uint64_t> next_remote_id{std::uint64_t{1} << 62};

}  // namespace

std::shared_ptr<Cluster::Remote> Cluster::remote_for(const std::string& node, std::uint64_t connection,
                                                     const std::string& address, bool create) {
  std::lock_guard lock(mutex_);
  const std::string key = remote_key(node, connection);
  auto it = remotes_.find(key);
  if (it != remotes_.end()) return it->second;
  if (!create) return nullptr;
  auto r = std::make_shared<Remote>(*this, node, connection, address, next_remote_id++);
  remotes_.emplace(key, r);
  return r;
}

void Cluster::on_command(const json& head, std::string body) {
  const std::string from = head.value("from", "");
  const std::uint64_t conn = head.value("conn", std::uint64_t{0});
  const std::string fid = head.value("fid", "");
  if (from.empty() || conn == 0) return;
  auto remote = remote_for(from, conn, head.value("addr", ""), true);
  const json& p = head["player"];
  lobby::Player player{p.value("id", ""), p.value("name", ""), p.value("username", ""), std::nullopt};
  host_->open_remote(remote, player, head.value("session", ""));
  remote->push(fid);
  spdlog::debug("cluster: {} received: {}", fid, body.substr(0, 80));
  ++counters_.forwarded_in;
  host_->feed_remote(remote, std::move(body), fid);
}

void Cluster::refuse_moved(const std::shared_ptr<net::Connection>& c, const std::string& fid,
                           const std::string& room) {
  auto* remote = dynamic_cast<Remote*>(c.get());
  if (!remote) return;
  remote->refuse(fid);
  ++counters_.moved;
  to_node(remote->node(), json{{"k", "moved"}, {"fid", fid}, {"room", room}});
}

void Cluster::on_remote_closed(const json& head, std::string) {
  const std::string node = head.value("from", "");
  const std::uint64_t connection = head.value("conn", std::uint64_t{0});
  std::shared_ptr<Remote> remote;
  {
    std::lock_guard lock(mutex_);
    auto it = remotes_.find(remote_key(node, connection));
    if (it == remotes_.end()) return;
    remote = it->second;
    remotes_.erase(it);
  }
  host_->close_remote(remote);
}

// The clients of a node that died are gone: their seats show offline, their seeks go.
void Cluster::drop_remotes_of_dead_nodes(const std::set<std::string>& live) {
  std::vector<std::shared_ptr<Remote>> gone;
  {
    std::lock_guard lock(mutex_);
    for (auto it = remotes_.begin(); it != remotes_.end();) {
      if (live.count(it->second->node()) == 0) {
        gone.push_back(it->second);
        it = remotes_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& r : gone) {
    r->cut();
    host_->close_remote(r);
  }
}

void Cluster::on_http(const json& head, std::string body) {
  const std::string from = head.value("from", "");
  const std::string id = head.value("id", "");
  net::HttpRequest request;
  request.method = head.value("method", "GET");
  request.target = head.value("target", "/");
  request.content_type = head.value("ctype", "");
  request.address = head.value("addr", "");
  request.authorization = head.value("auth", "");
  request.body = std::move(body);
  host_->handle_http(std::move(request), [this, from, id](net::HttpResponse r) {
    json headers = json::array();
    for (const auto& [k, v] : r.headers) headers.push_back({k, v});
    to_node(from, json{{"k", "http_reply"}, {"id", id}, {"status", r.status}, {"ctype", r.content_type},
                       {"headers", headers}},
            r.body);
  });
}

}  // namespace cinq::server
