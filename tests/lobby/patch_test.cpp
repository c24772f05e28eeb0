// Protocol 2 (docs/protocol.md, "Positions, patches and legal actions"): events carry a merge patch of the
// position, and the legal actions go to the seat to move only. A client that holds the first state's position
// and applies every patch in order holds, after every event, the position a fresh state shows.
#include <random>

#include "lobby/json_value.h"
#include "rules/registry.h"
#include "tests/lobby/helpers.h"
#include "tests/support/game_profile.h"

namespace cinq::lobby::test {
namespace {

// JSON with its null members dropped, at every depth: a merge patch removes a member to make it null.
json without_nulls(const json& j) {
  if (!j.is_object()) return j;
  json out = json::object();
  for (const auto& [k, v] : j.items())
    if (!v.is_null()) out[k] = without_nulls(v);
  return out;
}

// Plays `game` at random to its end (or `max_actions`), applying each event's patch to the position a
// spectator holds; checks it against a fresh state after every effect, and the mover's legal actions.
void follow(std::string_view game, std::string_view options, unsigned seed, int max_actions,
            ClockSpec clock = {}) {
  CAPTURE(game);
  CAPTURE(seed);
  std::mt19937 rng(seed);
  Room room = open_room(game, options, clock);
  REQUIRE(!room.sit(kAlice, 0, at(0)).error);
  json held = room.state_json(at(0))["position"];  // the state a spectator got before the start
  std::int64_t version = room.version();
  auto apply = [&](const Effect& e, Now now) {
    for (std::size_t i = 0; i < e.events.size(); ++i) {
      json ev = parse(e.events[i]);
      REQUIRE(ev["version"] == ++version);
      CHECK_FALSE(ev.contains("legal"));        // the shared text never holds them
      CHECK_FALSE(ev.contains("position"));     // only `state` carries a whole position
      if (ev.contains("patch")) held.merge_patch(ev["patch"]);
    }
    json fresh = room.state_json(now)["position"];
    if (clock.enabled()) {
      fresh.erase("clocks");
      held.erase("clocks");
    }
    REQUIRE(without_nulls(held) == without_nulls(fresh));
    // The seat to move gets its legal actions with the last patched event; the other seat never does.
    const int seat = room.seat_to_move();
    if (e.patched != Effect::npos) {
      CHECK(e.mover == seat);
      if (seat >= 0) {
        json mine = json::parse(with_members(*e.events[e.patched], e.legal));
        json expected = room.state_json(now, seat);
        CHECK(mine["legal"] == expected["legal"]);
        CHECK(mine["can_end_turn"] == expected["can_end_turn"]);
        CHECK_FALSE(room.state_json(now, 1 - seat).contains("legal"));
      }
    }
  };
  apply(room.sit(kBob, 1, at(0)), at(0));
  std::int64_t t = 0;
  for (int i = 0; i < max_actions && room.status() == Status::live; ++i) {
    t += 1000;
    Effect e = play_random_action(room, rng, at(t));
    apply(e, at(t));
    if (rng() % 23 == 0 && room.status() == Status::live) {  // a draw offer and its answer change the position
      apply(room.offer_draw(mover(room), at(t)), at(t));
      const int other = 1 - room.seat_to_move();
      apply(room.decline_draw(room.seats()[other].id, at(t)), at(t));
    }
  }
  if (room.status() == Status::live) apply(room.resign(mover(room), at(t)), at(t));
  CHECK(room.status() == Status::finished);
}

}  // namespace

TEST_CASE("Patches: applied in order, they give a fresh state's position, in every game") {
  for (const Game* game : games()) {
    CAPTURE(game->name());
    // A game whose actions are slow goes less far (its test profile).
    const cinq::test::GameProfile& profile = cinq::test::profile(*game);
    for (int seed = 1; seed <= profile.patch_seeds; ++seed)
      follow(game->name(), "", static_cast<unsigned>(seed), profile.patch_actions);
  }
}

TEST_CASE("Patches: with a live clock, every patch carries the clocks") {
  std::mt19937 rng(7);
  Room room = live_room("tablut", "", ClockSpec{60000, 1000, 0});
  for (int i = 0; i < 6; ++i) {
    Effect e = play_random_action(room, rng, at(1000 * (i + 1)));
    json patch = parse(e.events[0])["patch"];
    REQUIRE(patch.contains("clocks"));
    // The clocks whole, applied as a merge patch (the first-move time is removed with a null member once
    // both sides have made their first move).
    json clocks = room.state_json(at(1000 * (i + 1)))["position"]["clocks"];
    if (i == 1) clocks["first_move_ms"] = nullptr;
    CHECK(patch["clocks"] == clocks);
  }
  follow("tablut", "", 9, 60, ClockSpec{600000, 0, 0});
}

TEST_CASE("Patches: merge_patch removes members that became null and diffs objects member by member") {
  Value a = Value::object();
  a.set("x", 1);
  a.set("y", Value(Value::Object{{"p", 1}, {"q", 2}}));
  a.set("z", "gone");
  Value b = Value::object();
  b.set("x", 1);
  b.set("y", Value(Value::Object{{"p", 1}, {"q", 3}}));
  b.set("z", Value());
  b.set("w", Value(Value::Array{1, 2}));
  std::string text;
  write_json(merge_patch(a, b), text);
  CHECK(json::parse(text) == json::parse(R"({"y":{"q":3},"z":null,"w":[1,2]})"));
  std::string none;
  write_json(merge_patch(a, a), none);
  CHECK(none == "{}");
}

TEST_CASE("Patches: merge_patch_text, from the position kept as text, gives the patch merge_patch gives") {
  auto text_of = [](const Value& v) {
    std::string t;
    write_json(v, t);
    return t;
  };
  auto patch_text = [&](const Value& from, const Value& to) { return text_of(merge_patch_text(text_of(from), to)); };
  auto tree_text = [&](const Value& from, const Value& to) { return json::parse(text_of(merge_patch(from, to))); };
  Value a = Value::object();
  a.set("x", 1);
  a.set("y", Value(Value::Object{{"p", 1}, {"q", Value(Value::Object{{"deep", "a\"b\\c"}})}}));
  a.set("z", "gone");
  a.set("n", Value());
  a.set("d", 0.5);
  a.set("list", Value(Value::Array{1, Value(Value::Object{{"k", true}})}));
  Value b = Value::object();
  b.set("x", 1);
  b.set("y", Value(Value::Object{{"p", 1}, {"q", Value(Value::Object{{"deep", "a\"b\\c!"}})}}));
  b.set("n", 3);          // was null: shown as new
  b.set("d", 0.5);        // unchanged double
  b.set("list", Value(Value::Array{1, Value(Value::Object{{"k", false}})}));  // an array goes whole
  b.set("w", Value(Value::Array{1, 2}));
  // "z" is gone from `b` altogether: removed.
  CHECK(json::parse(patch_text(a, b)) == tree_text(a, b));
  CHECK(json::parse(patch_text(a, b)) ==
        json::parse(R"({"y":{"q":{"deep":"a\"b\\c!"}},"z":null,"n":3,"list":[1,{"k":false}],"w":[1,2]})"));
  CHECK(patch_text(a, a) == "{}");
  CHECK(patch_text(b, b) == "{}");
  CHECK(json::parse(patch_text(b, a)) == tree_text(b, a));
  // Not an object on either side: the whole new value.
  CHECK(text_of(merge_patch_text("[1]", b)) == text_of(b));
  CHECK(text_of(merge_patch_text(text_of(a), Value(7))) == "7");
}

}  // namespace cinq::lobby::test
