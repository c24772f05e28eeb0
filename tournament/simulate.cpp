// `cinq tournament simulate` (simulate.h): a tournament whose games bots play offline.
#include "tournament/simulate.h"

#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

#include "bots/bot.h"
#include "rules/registry.h"

namespace cinq::tournament {

namespace {

// A game still going after this many actions ends in a draw (random play may wander for long).
constexpr int kMaxActions = 3000;
constexpr std::int64_t kStart = 1'700'000'000'000;  // the simulated clock's start (any fixed time)

std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t hash(const std::string& text) {  // FNV-1a
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

struct Played {
  Result result = Result::draw;
  int actions = 0;
};

// One game from the start, bots of `level` on both seats, its turns seeded from the game's id.
Played play(const cinq::Game& game, const std::string& options, int level, std::uint64_t seed, const std::string& id) {
  auto start = game.start(options);
  std::unique_ptr<State> state = std::move(*start);
  bots::Settings settings = bots::level_settings(level);
  const std::uint64_t game_seed = mix(seed ^ hash(id));
  Played p;
  while (!state->outcome().over() && p.actions < kMaxActions) {
    settings.seed = mix(game_seed + static_cast<std::uint64_t>(p.actions));
    const bots::Turn turn = bots::choose_turn(*state, settings);
    for (Action a : turn.actions) {
      state->apply(a);
      ++p.actions;
    }
  }
  const Outcome o = state->outcome();
  p.result = o.kind != Outcome::Kind::win ? Result::draw : o.winner == 0 ? Result::first_wins : Result::second_wins;
  return p;
}

std::string short_result(Result r) {
  switch (r) {
    case Result::first_wins: return "1-0";
    case Result::second_wins: return "0-1";
    case Result::draw: return "1/2";
    default: return result_name(r);
  }
}

std::string clock_text(std::int64_t ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%3lld:%02lld", static_cast<long long>(ms / 60000),
                static_cast<long long>(ms / 1000 % 60));
  return text;
}

}  // namespace

bool simulate(const SimulateConfig& c, std::ostream& out, std::string& error) {
  const cinq::Game* game = find_game(c.game);
  if (!game) {
    error = "unknown game '" + c.game + "' (" + game_names() + ")";
    return false;
  }
  if (auto start = game->start(c.options); !start) {
    error = "--options: " + start.error().message;
    return false;
  }
  Spec spec;
  spec.name = "simulation";
  spec.format = c.format;
  spec.game = std::string(game->name());
  spec.options = c.options;
  spec.rounds = c.rounds;
  spec.double_round_robin = c.double_round_robin;
  spec.duration_ms = static_cast<std::int64_t>(c.minutes) * 60000;
  spec.pace = Pace{3 * 60000, 2000, 0};
  if (auto bad = check_spec(spec)) {
    error = bad->message;
    return false;
  }
  Tournament t("sim", spec, kStart);
  std::map<std::string, std::string> names;
  for (int i = 1; i <= c.players; ++i) {
    const std::string id = "bot" + std::to_string(i);
    names[id] = "Bot " + std::to_string(i);
    (void)t.join(id, names[id], 2000.0 - 10 * i, kStart);
  }
  if (auto refused = t.start(kStart)) {
    error = refused->message;
    return false;
  }
  char line[256];
  if (!c.json) {
    out << format_name(c.format) << " tournament of " << game->name() << (c.options.empty() ? "" : " (" + c.options + ")")
        << ", " << c.players << " bots of level " << c.level << ", seed " << c.seed << "\n";
  }
  auto pairing = [&](const Game& g) { return names[g.seats[0]] + " - " + names[g.seats[1]]; };

  if (c.format == Format::arena) {
    std::multimap<std::int64_t, std::pair<std::string, Result>> running;  // by simulated end
    std::int64_t now = kStart;
    for (;;) {
      for (const Game& g : t.advance(now).paired) {
        const Played p = play(*game, c.options, c.level, c.seed, g.id);
        running.insert({now + 20000 + 2000LL * p.actions, {g.id, p.result}});
      }
      if (t.status() == Status::finished || running.empty()) break;
      const auto next = running.begin();
      now = next->first;
      const Game* g = t.game(next->second.first);
      (void)t.record_result(g->id, next->second.second, now);
      if (!c.json) {
        std::snprintf(line, sizeof line, "%s  game %3d  %-28s %s\n", clock_text(now - kStart).c_str(), g->board,
                      pairing(*g).c_str(), short_result(g->result).c_str());
        out << line;
      }
      running.erase(next);
    }
    // Nobody left to pair before the end: the arena ends at its time.
    t.advance(std::max(now, t.ends_ms()));
  } else {
    std::int64_t now = kStart;
    while (t.status() == Status::running) {
      const Step step = t.advance(now);
      if (step.paired.empty()) break;
      const int round = step.paired.front().round;
      if (!c.json) out << "\nRound " << round << "\n";
      for (const Game& g : step.paired) {
        if (g.pending()) (void)t.record_result(g.id, play(*game, c.options, c.level, c.seed, g.id).result, now);
        if (!c.json) {
          const Game& done = *t.game(g.id);
          std::snprintf(line, sizeof line, "  %3d  %-28s %s\n", g.board, pairing(done).c_str(),
                        short_result(done.result).c_str());
          out << line;
        }
      }
      if (!c.json)
        for (const Rest& r : t.rests())
          if (r.round == round) out << "       " << names[r.player] << (r.kind == SitOut::bye ? ": bye" : ": absent") << "\n";
      now += 60000;
    }
    t.advance(now);
  }
  if (c.json) {
    nlohmann::json standings = nlohmann::json::array();
    for (const Standing& s : t.standings())
      standings.push_back({{"rank", s.rank}, {"player", s.player}, {"name", s.name}, {"points", s.points},
                           {"buchholz", s.buchholz}, {"sonneborn_berger", s.sonneborn_berger},
                           {"direct", s.direct}, {"wins", s.wins}, {"games", s.games}});
    out << nlohmann::json{{"tournament", t.to_json()}, {"standings", standings}}.dump(2) << "\n";
  } else {
    out << "\nStandings (" << status_name(t.status()) << ")\n" << t.standings_text();
  }
  return true;
}

}  // namespace cinq::tournament
