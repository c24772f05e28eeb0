// Batik's own in a room: its thousands of drops reach the client folded into ranges of positions.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "tests/lobby/helpers.h"

namespace cinq::lobby::test {
namespace {

// A number as the room writes the last word of a Batik drop: at most three decimals, no trailing zeros.
std::string short_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", x);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

// The legal texts a client gets by expanding the position's `legal` list.
std::multiset<std::string> expand(const json& legal) {
  std::multiset<std::string> out;
  for (const json& entry : legal) {
    if (entry.is_string()) {
      out.insert(entry.get<std::string>());
      continue;
    }
    if (entry.is_array()) {
      for (const json& text : ungroup_legal(json::array({entry}))) out.insert(text.get<std::string>());
      continue;
    }
    double from = entry["from"], to = entry["to"], step = entry["step"];
    REQUIRE(step > 0);
    int n = static_cast<int>(std::lround((to - from) / step));
    for (int i = 0; i <= n; ++i)
      out.insert(entry["prefix"].get<std::string>() + " " + short_number(from + i * step));
  }
  return out;
}

std::multiset<std::string> legal_texts(const State& st) {
  std::multiset<std::string> out;
  for (Action a : st.legal_actions())
    if (!a.is_end_turn()) out.insert(st.action_text(a));
  return out;
}

TEST_CASE("Room legal lists: Batik's drops are folded into ranges that expand to exactly the legal texts") {
  std::mt19937 rng(5);
  Room room = live_room("batik");
  for (int drop = 0; drop < 4 && room.status() == Status::live; ++drop) {
    CAPTURE(drop);
    json legal = room.state_json(at(0), room.seat_to_move())["legal"];
    std::size_t ranges =
        std::count_if(legal.begin(), legal.end(), [](const json& x) { return x.is_object(); });
    CHECK(ranges > 0);
    CHECK(legal.size() < room.record().state().legal_actions().size() / 10);  // what the folding is for
    for (const json& x : legal)
      if (x.is_object()) CHECK(x["prefix"].get<std::string>().find(' ') != std::string::npos);
    CHECK(expand(legal) == legal_texts(room.record().state()));
    play_random_action(room, rng);
  }
  // A short list has no ranges: Tablut's 72 moves are grouped by the square they leave.
  Room tablut = live_room("tablut");
  json plain = tablut.state_json(at(0), 0)["legal"];
  CHECK(std::none_of(plain.begin(), plain.end(), [](const json& x) { return x.is_object(); }));
  CHECK(expand(plain) == legal_texts(tablut.record().state()));
  CHECK(plain.size() < 72 / 3);
  for (const json& x : plain)
    if (x.is_array()) CHECK((x.size() == 2 && x[0].get<std::string>().size() == 2));
}

}  // namespace
}  // namespace cinq::lobby::test
