// Shared by the room tests: rooms built the way the server builds them, players, times, and the events a
// command produced, read back as JSON.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "lobby/room.h"
#include "rules/registry.h"

namespace cinq::lobby::test {

using nlohmann::json;

// 2026-11-21 10:00:00 UTC: wall time at the start of every test.
constexpr std::int64_t kWallStart = 1795255200000;

// The time `ms` milliseconds into a test, on both clocks.
inline Now at(std::int64_t ms) { return Now{ms, kWallStart + ms}; }

inline const Player kAlice{"alice-id", "alice"};
inline const Player kBob{"bob-id", "bob"};
inline const Player kCarol{"carol-id", "carol"};

inline ClockSpec live_clock(std::int64_t base_s, std::int64_t increment_s) {
  return ClockSpec{base_s * 1000, increment_s * 1000};
}

inline Result<Room> try_create(std::string_view game, std::string_view options = "", ClockSpec clock = {}) {
  return Room::create(RoomConfig{"room-1", find_game(game), std::string(options), clock, false, ""}, at(0));
}

// A room no one sits in yet.
inline Room open_room(std::string_view game, std::string_view options = "", ClockSpec clock = {}) {
  auto room = try_create(game, options, clock);
  REQUIRE_MESSAGE(room.ok(), (room.ok() ? "" : room.error().message));
  return std::move(*room);
}

// A room where Alice holds seat 0 and Bob seat 1, the game started at time 0.
inline Room live_room(std::string_view game, std::string_view options = "", ClockSpec clock = {}) {
  Room room = open_room(game, options, clock);
  REQUIRE(!room.sit(kAlice, 0, at(0)).error);
  REQUIRE(!room.sit(kBob, 1, at(0)).error);
  REQUIRE(room.status() == Status::live);
  return room;
}

inline json parse(const Message& m) { return json::parse(*m); }

// The kinds of the events of an effect, in order: "seated started".
inline std::string kinds(const Effect& e) {
  std::string out;
  for (const auto& m : e.events) out += (out.empty() ? "" : " ") + parse(m)["kind"].get<std::string>();
  return out;
}

// The code of the error an effect carries, "" if none.
inline std::string code(const Effect& e) { return e.error ? e.error->code : ""; }

// The id of the player whose turn it is.
inline std::string mover(const Room& room) {
  REQUIRE(room.seat_to_move() >= 0);
  return room.seats()[room.seat_to_move()].id;
}

// Plays one whole-turn message for the player to move; fails the test if it is refused.
inline Effect play(Room& room, std::vector<std::string> items, bool end_turn, Now now) {
  Effect e = room.act(mover(room), items, end_turn, now);
  REQUIRE_MESSAGE(!e.error, (e.error ? e.error->code + ": " + e.error->message : ""));
  return e;
}
inline Effect play(Room& room, std::string item, Now now = at(0)) {
  return play(room, {std::move(item)}, false, now);
}

// Plays one random legal action for the seat to move, as a client sends it: one item per message, the end
// of a turn as `end_turn` alone.
inline Effect play_random_action(Room& room, std::mt19937& rng, Now now = at(0)) {
  const State& st = room.record().state();
  std::vector<Action> legal = st.legal_actions();
  REQUIRE(!legal.empty());
  Action a = legal[rng() % legal.size()];
  if (a.is_end_turn()) return play(room, {}, true, now);
  return play(room, {st.action_text(a)}, false, now);
}

// The state message's JSON without the live clocks (the part a restore must give back unchanged).
inline json without_clocks(json state) {
  state["position"].erase("clocks");
  return state;
}

}  // namespace cinq::lobby::test
