// A player, or a spectator, of the real server in tests: our own Beast WebSocket client plus the few
// protocol steps every test needs (hello, waiting for a message of some kind).
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lobby/room.h"
#include "tests/support/ws_client.h"

namespace cinq::test {

using nlohmann::json;

class Peer {
 public:
  // Connects and says hello: a new guest named `name`, or the identity `id`/`token` again.
  Peer(std::uint16_t port, const std::string& name) : ws_(port) {
    send({{"type", "hello"}, {"name", name}});
    json w = until_type("welcome");
    id = w["player"]["id"];
    token = w["token"];
  }
  Peer(std::uint16_t port, const std::string& id_, const std::string& token_) : ws_(port) {
    send({{"type", "hello"}, {"id", id_}, {"token", token_}});
    json w = until_type("welcome");
    id = w["player"]["id"];
    token = w["token"];
  }

  void send(const json& m) { ws_.send(m.dump()); }
  void send_raw(const std::string& text) { ws_.send(text); }

  // The next message; fails the test if none comes within `timeout`.
  json next(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    auto m = ws_.receive(timeout);
    REQUIRE_MESSAGE(m.has_value(), "no message came (connection closed: " << ws_.closed() << ")");
    json j = json::parse(*m);
    if (j.contains("version") && j.value("type", "") != "error") version = j["version"];
    track(j);
    return j;
  }

  // Protocol 2 (docs/protocol.md, "Positions, patches and legal actions"): the position this client holds,
  // built from `state` and the events' merge patches only, and the legal actions it was given. Every message
  // that carries a position or a patch is handed back with `position` set to that position plus `legal` and
  // `can_end_turn`, as version 1 sent it, so tests read what a client applying patches would hold.
  json position;
  json legal = json::array();
  bool can_end_turn = false;
  void track(json& j) {
    const std::string type = j.value("type", "");
    auto take_legal = [&](const json& m) {
      legal = m.contains("legal") ? lobby::ungroup_legal(m["legal"]) : json::array();
      can_end_turn = m.value("can_end_turn", false);
    };
    auto shown = [&] {
      json p = position;
      p["legal"] = legal;
      p["can_end_turn"] = can_end_turn;
      return p;
    };
    if (type == "state" && j.contains("position")) {
      position = j["position"];
      take_legal(j);
      j["position"] = shown();
    } else if (type == "event" && j.contains("patch")) {
      position.merge_patch(j["patch"]);
      take_legal(j);
      j["position"] = shown();
    } else if (type == "events") {
      bool patched = false;
      for (auto& e : j["events"])
        if (e.contains("patch")) {
          position.merge_patch(e["patch"]);
          patched = true;
        }
      if (patched || j.contains("legal")) take_legal(j);
    }
  }
  // Reads until a message satisfies `pred`, and returns it; the messages read before it are in `skipped`.
  json until(const std::function<bool(const json&)>& pred,
             std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    skipped.clear();
    auto end = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
      REQUIRE_MESSAGE(left.count() > 0, "the awaited message never came");
      json m = next(left);
      if (pred(m)) return m;
      skipped.push_back(m);
    }
  }
  json until_type(const std::string& type) {
    return until([&](const json& m) { return m.value("type", "") == type; });
  }
  json until_event(const std::string& kind) {
    return until(
        [&](const json& m) { return m.value("type", "") == "event" && m.value("kind", "") == kind; });
  }
  // Everything that arrives within `quiet` (nothing more is expected).
  std::vector<json> drain(std::chrono::milliseconds quiet = std::chrono::milliseconds(300)) {
    std::vector<json> out;
    while (auto m = ws_.receive(quiet)) out.push_back(json::parse(*m));
    return out;
  }

  WsClient& ws() { return ws_; }

  std::string id;
  std::string token;
  std::int64_t version = 0;  // the last room version seen
  std::vector<json> skipped;

 private:
  WsClient ws_;
};

// A GET that must answer 200, as JSON.
inline json get_json(std::uint16_t port, const std::string& target) {
  auto reply = http_request(port, "GET", target);
  REQUIRE(reply.status == 200);
  return json::parse(reply.body);
}

// A live room: Alice in seat 0, Bob in seat 1, the game started.
struct Table {
  Table(std::uint16_t port, const std::string& game, const json& options = "", const json& clock = nullptr)
      : alice(port, "Alice"), bob(port, "Bob") {
    alice.send({{"type", "create"}, {"game", game}, {"options", options}, {"seat", 0}, {"clock", clock}});
    json state = alice.until_type("state");
    room = state["room"];
    bob.send({{"type", "sit"}, {"room", room}});
    bob.until_type("state");
    alice.until_event("started");
  }
  Peer alice;
  Peer bob;
  std::string room;
};

}  // namespace cinq::test
