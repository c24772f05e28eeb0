// Batik: the same drops always give bit-identical resting poses, so that a record replays to the same board
// anywhere: a fresh world is built from the stored poses for each drop, with a fixed step and fixed iteration
// counts.
#include "rules/notation.h"
#include "tests/rules/batik/helpers.h"

namespace cinq::batik::test {
namespace {

struct Played {
  std::vector<Action> actions;
  std::vector<std::string> fingerprints;
};

Played random_match(unsigned seed) {
  std::mt19937 rng(seed);
  auto s = start();
  Played p;
  while (!s->outcome().over()) {
    Action a = random_drop(*s, rng);
    s->apply(a);
    p.actions.push_back(a);
    p.fingerprints.push_back(s->fingerprint());
  }
  return p;
}

TEST_CASE("Batik determinism: a whole match replayed twice gives bit-identical poses at every drop") {
  Played first = random_match(11);
  REQUIRE(first.actions.size() > 20);
  auto s = start();
  for (std::size_t i = 0; i < first.actions.size(); ++i) {
    s->apply(first.actions[i]);
    REQUIRE(s->fingerprint() == first.fingerprints[i]);  // the poses' float bits are in the fingerprint
  }
  CHECK(s->outcome().over());
}

TEST_CASE("Batik determinism: a record of a match replays to the same poses") {
  Record r = Record::start(game(), *Options::parse(game().option_specs(), {}));
  std::mt19937 rng(12);
  while (!r.finished()) REQUIRE(r.play(random_drop(r.state(), rng)).ok());
  auto back = Record::read(r.write());
  REQUIRE(back.ok());
  CHECK(back->state().fingerprint() == r.state().fingerprint());
  CHECK(back->state().round() == r.state().round());
}

TEST_CASE(
    "Batik determinism: the stored poses are the whole physical state (copies and rebuilt states agree)") {
  std::mt19937 rng(13);
  auto s = start();
  for (int i = 0; i < 8 && !s->outcome().over(); ++i) s->apply(random_drop(*s, rng));
  REQUIRE(s->round() == 1);
  auto copy = s->clone();
  auto rebuilt = make_state(true, s->to_move(), frame_of(*s));
  CHECK(rebuilt->fingerprint() == s->fingerprint());
  for (int i = 0; i < 4 && !s->outcome().over(); ++i) {
    Action a = random_drop(*s, rng);
    s->apply(a);
    copy->apply(a);
    rebuilt->apply(a);
    CHECK(copy->fingerprint() == s->fingerprint());
    CHECK(rebuilt->fingerprint() == s->fingerprint());
  }
}

TEST_CASE("Batik determinism: one fall simulated twice is identical, frame by frame") {
  std::mt19937 rng(14);
  auto s = start();
  for (int i = 0; i < 6; ++i) s->apply(random_drop(*s, rng));
  const LastFall& last = *last_fall_of(*s);
  Fall again = simulate(standard_shapes(), last.bodies);
  CHECK(again.end == last.fall.end);
  CHECK(again.frames == last.fall.frames);
  CHECK(again.steps == last.fall.steps);
}

TEST_CASE("Batik determinism: pieces the fall does not touch do not move at all") {
  auto s = start();
  drop(*s, "SQ 0 0");
  Pose before = frame_of(*s)[0].pose;
  drop(*s, "SQ 0 6");  // on the floor at the other wall
  CHECK(frame_of(*s)[0].pose == before);
  CHECK(last_fall_of(*s)->fall.moving == std::vector<int>{1});
}

}  // namespace
}  // namespace cinq::batik::test
