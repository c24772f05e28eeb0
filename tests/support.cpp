#include "tests/support.h"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "rules/notation.h"

namespace cinq::test {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string data_path(std::string_view relative) { return std::string(CINQ_TEST_DATA_DIR) + "/" + std::string(relative); }

Run run_cinq(std::string_view args, std::string_view input) {
  char tmpl[] = "/tmp/cinq-test-XXXXXX";
  int fd = mkstemp(tmpl);
  REQUIRE(fd >= 0);
  FILE* f = fdopen(fd, "w");
  fwrite(input.data(), 1, input.size(), f);
  fclose(f);
  std::string cmd = std::string(CINQ_BINARY) + " " + std::string(args) + " < " + tmpl + " 2>&1";
  Run run;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) run.out.append(buf, n);
  int status = pclose(p);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::remove(tmpl);
  return run;
}

void check_conformance(const Game& game, std::string_view options, unsigned seed, int games, int max_actions) {
  if (options.empty()) options = game.bounded_options();
  auto parsed = Options::parse_text(game.option_specs(), options);
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  std::mt19937 rng(seed);
  for (int g = 0; g < games; ++g) {
    INFO(game.name(), " game ", g, " seed ", seed);
    Record record = Record::start(game, *parsed);
    auto shadow = record.state().clone();  // a copy played in step, through the contract only
    int actions = 0;
    std::vector<Action> legal;
    while (!record.finished()) {
      const State& s = record.state();
      legal.clear();
      s.legal_actions(legal);
      REQUIRE_MESSAGE(!legal.empty(), "a game that is not over has a legal action\n", s.ascii());
      // Each legal action's text reads back to that action (a sample where the list is long).
      std::vector<std::size_t> sample(legal.size());
      for (std::size_t i = 0; i < sample.size(); ++i) sample[i] = i;
      if (sample.size() > 48) {
        std::shuffle(sample.begin(), sample.end(), rng);
        sample.resize(48);
      }
      for (std::size_t i : sample) {
        Action a = legal[i];
        if (a.is_end_turn()) continue;
        std::string text = s.action_text(a);
        CHECK_MESSAGE(text.find('/') == std::string::npos, "an action text has no '/': ", text);
        ItemContext ctx;
        ctx.index = s.mid_turn() ? 1 : 0;
        auto back = s.read_item(text, ctx);
        REQUIRE_MESSAGE(back.ok(), "'", text, "' reads back: ", (back.ok() ? "" : back.error().message));
        CHECK_MESSAGE((!back->annotation && back->action == a), "'", text, "' reads back to itself");
      }
      Action chosen = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
      const std::string before = s.fingerprint();
      auto played = record.play(chosen);
      REQUIRE_MESSAGE(played.ok(), "a legal action plays");
      shadow->apply(chosen);
      REQUIRE_MESSAGE(shadow->fingerprint() == record.state().fingerprint(), "a copy stays in step");
      CHECK_MESSAGE(before != record.state().fingerprint(), "an action changes the state");
      ++actions;
      // The record written so far reads back to the same state (every step early on, then now and then:
      // a replay costs the whole game so far).
      if (actions < 40 || actions % 16 == 0 || record.finished()) {
        if (!record.state().mid_turn() || record.finished()) {
          std::string text = record.write();
          auto back = Record::read(text);
          REQUIRE_MESSAGE(back.ok(), "the record reads back:\n", text, "\n",
                          (back.ok() ? "" : back.error().text()));
          REQUIRE_MESSAGE(back->state().fingerprint() == record.state().fingerprint(),
                          "the record replays to the same state\n", text);
          CHECK(back->write() == text);
          CHECK(back->finished() == record.finished());
          CHECK(back->result_text() == record.result_text());
        }
      }
      REQUIRE_MESSAGE(actions <= max_actions, "the game ends within ", max_actions, " actions");
    }
    CHECK(record.state().legal_actions().empty());
  }
}

}  // namespace cinq::test
