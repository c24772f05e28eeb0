// A tournament's life (tournament.h): entrants, start, pairing, results, finish.
#include "tournament/tournament.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "tournament/pairing.h"

namespace cinq::tournament {

namespace {

Error error(std::string code, std::string message) { return Error{std::move(code), std::move(message)}; }

}  // namespace

const char* format_name(Format f) {
  switch (f) {
    case Format::swiss: return "swiss";
    case Format::round_robin: return "roundrobin";
    case Format::arena: return "arena";
  }
  return "swiss";
}

std::optional<Format> format_named(const std::string& name) {
  for (Format f : {Format::swiss, Format::round_robin, Format::arena})
    if (name == format_name(f)) return f;
  return std::nullopt;
}

const char* status_name(Status s) {
  switch (s) {
    case Status::open: return "open";
    case Status::running: return "running";
    case Status::finished: return "finished";
  }
  return "open";
}

const char* result_name(Result r) {
  switch (r) {
    case Result::pending: return "pending";
    case Result::first_wins: return "1-0";
    case Result::second_wins: return "0-1";
    case Result::draw: return "1/2-1/2";
    case Result::first_wins_forfeit: return "1-0 forfeit";
    case Result::second_wins_forfeit: return "0-1 forfeit";
    case Result::double_forfeit: return "0-0 forfeit";
  }
  return "pending";
}

std::optional<Result> result_named(const std::string& name) {
  for (Result r : {Result::pending, Result::first_wins, Result::second_wins, Result::draw,
                   Result::first_wins_forfeit, Result::second_wins_forfeit, Result::double_forfeit})
    if (name == result_name(r)) return r;
  return std::nullopt;
}

bool forfeit(Result r) {
  return r == Result::first_wins_forfeit || r == Result::second_wins_forfeit || r == Result::double_forfeit;
}

double points_for(Result r, int seat) {
  switch (r) {
    case Result::first_wins:
    case Result::first_wins_forfeit: return seat == 0 ? 1 : 0;
    case Result::second_wins:
    case Result::second_wins_forfeit: return seat == 1 ? 1 : 0;
    case Result::draw: return 0.5;
    case Result::pending:
    case Result::double_forfeit: return 0;
  }
  return 0;
}

std::optional<Error> check_spec(const Spec& spec) {
  auto bad = [](std::string why) { return error("bad_spec", std::move(why)); };
  if (spec.game.empty()) return bad("a tournament needs a game");
  if (spec.format == Format::swiss && (spec.rounds < 1 || spec.rounds > kMaxRounds))
    return bad("a Swiss tournament has 1 to " + std::to_string(kMaxRounds) + " rounds");
  if (spec.format == Format::arena) {
    if (spec.pace.correspondence()) return bad("an arena is played live");
    if (spec.duration_ms <= 0) return bad("an arena needs a duration");
  }
  const Pace& p = spec.pace;
  if (p.base_ms < 0 || p.increment_ms < 0 || p.days < 0) return bad("a clock cannot be negative");
  if ((p.base_ms > 0) == (p.days > 0)) return bad("a tournament's games need a live clock or days per move");
  return std::nullopt;
}

Tournament::Tournament(std::string id, Spec spec, std::int64_t now_ms)
    : id_(std::move(id)), spec_(std::move(spec)), created_ms_(now_ms) {
  if (spec_.format == Format::swiss) total_rounds_ = spec_.rounds;
}

Entrant* Tournament::find(const std::string& player) {
  for (Entrant& e : entrants_)
    if (e.id == player) return &e;
  return nullptr;
}

const Entrant* Tournament::entrant(const std::string& player) const {
  return const_cast<Tournament*>(this)->find(player);
}

Game* Tournament::find_game(const std::string& id) {
  for (Game& g : games_)
    if (g.id == id) return &g;
  return nullptr;
}

const Game* Tournament::game(const std::string& id) const { return const_cast<Tournament*>(this)->find_game(id); }

std::vector<const Entrant*> Tournament::seeded() const {
  std::vector<const Entrant*> list;
  for (const Entrant& e : entrants_) list.push_back(&e);
  std::stable_sort(list.begin(), list.end(), [](const Entrant* a, const Entrant* b) {
    if (a->rating != b->rating) return a->rating > b->rating;
    return a->entry < b->entry;
  });
  return list;
}

std::optional<Error> Tournament::join(const std::string& player, const std::string& name, double rating,
                                      std::int64_t now_ms) {
  if (status_ == Status::finished) return error("finished", "the tournament is over");
  if (Entrant* e = find(player))
    return e->withdrawn ? error("closed", "a player who withdrew cannot come back")
                        : error("already_in", "already in the tournament");
  int first_round = 1;
  if (status_ == Status::running) {
    switch (spec_.format) {
      case Format::round_robin: return error("closed", "a round robin takes no one after its start");
      case Format::swiss:
        if (round_ >= total_rounds_) return error("closed", "the last round is paired");
        first_round = round_ + 1;  // a late entry: 0 points for the rounds missed
        break;
      case Format::arena:
        if (now_ms >= ends_ms_) return error("closed", "the arena is over");
        break;
    }
  }
  int entry = 0;
  for (const Entrant& e : entrants_) entry = std::max(entry, e.entry + 1);
  entrants_.push_back(Entrant{player, name, rating, now_ms, entry, first_round, false, false});
  changed();
  return std::nullopt;
}

std::optional<Error> Tournament::withdraw(const std::string& player, std::int64_t) {
  Entrant* e = find(player);
  if (!e) return error("not_in", "not in the tournament");
  if (status_ == Status::finished) return error("finished", "the tournament is over");
  if (status_ == Status::open) {
    entrants_.erase(entrants_.begin() + (e - entrants_.data()));
  } else {
    if (e->withdrawn) return std::nullopt;
    e->withdrawn = true;
  }
  changed();
  return std::nullopt;
}

std::optional<Error> Tournament::set_absent(const std::string& player, bool absent, std::int64_t) {
  Entrant* e = find(player);
  if (!e) return error("not_in", "not in the tournament");
  if (e->absent != absent) {
    e->absent = absent;
    changed();
  }
  return std::nullopt;
}

std::optional<Error> Tournament::start(std::int64_t now_ms) {
  if (status_ != Status::open) return error("started", "the tournament has started");
  const auto present = std::count_if(entrants_.begin(), entrants_.end(), [](const Entrant& e) { return !e.withdrawn; });
  if (present < 2) return error("too_few", "a tournament needs two players");
  status_ = Status::running;
  started_ms_ = now_ms;
  if (spec_.format == Format::round_robin) {
    for (const Entrant* e : seeded()) order_.push_back(e->id);
    const int n = static_cast<int>(order_.size());
    total_rounds_ = (n + n % 2 - 1) * (spec_.double_round_robin ? 2 : 1);
  } else if (spec_.format == Format::arena) {
    ends_ms_ = now_ms + spec_.duration_ms;
  }
  changed();
  return std::nullopt;
}

bool Tournament::round_over() const {
  return std::none_of(games_.begin(), games_.end(), [](const Game& g) { return g.round > 0 && g.pending(); });
}

bool Tournament::due_to_finish(std::int64_t now_ms) const {
  if (status_ != Status::running) return false;
  if (spec_.format == Format::arena)
    return now_ms >= ends_ms_ && std::none_of(games_.begin(), games_.end(), [](const Game& g) { return g.pending(); });
  if (!round_over()) return false;
  if (round_ >= total_rounds_) return true;
  // A Swiss with fewer than two players left can pair no more rounds.
  const auto left = std::count_if(entrants_.begin(), entrants_.end(), [](const Entrant& e) { return !e.withdrawn; });
  return spec_.format == Format::swiss && left < 2;
}

namespace {

// For each pair of `blocks` whose players both are in `index`, each avoids the other.
template <class Player>
void add_avoid(std::vector<Player>& players, const std::map<std::string, int>& index, const Blocks& blocks) {
  for (const auto& [a, b] : blocks) {
    auto ia = index.find(a), ib = index.find(b);
    if (ia == index.end() || ib == index.end() || ia->second == ib->second) continue;
    players[static_cast<std::size_t>(ia->second)].avoid.push_back(ib->second);
    players[static_cast<std::size_t>(ib->second)].avoid.push_back(ia->second);
  }
}

}  // namespace

Step Tournament::advance(std::int64_t now_ms, const Blocks& blocks) {
  Step step;
  const std::int64_t before = version_;
  if (status_ == Status::open && spec_.start_ms && now_ms >= *spec_.start_ms && !start(now_ms))
    step.started = true;
  if (status_ == Status::running) {
    if (spec_.format == Format::arena) {
      step.paired = pair_arena(now_ms, blocks);
    } else {
      // A round whose games all ended at their pairing (forfeits of withdrawn or absent players in a round
      // robin) lets the next be paired at once.
      for (;;) {
        std::vector<Game> paired = pair_next_round(now_ms, blocks);
        if (paired.empty()) break;
        step.paired.insert(step.paired.end(), paired.begin(), paired.end());
        if (!round_over()) break;
      }
    }
    if (due_to_finish(now_ms)) {
      status_ = Status::finished;
      step.finished = true;
      changed();
    }
  }
  step.changed = version_ != before;
  return step;
}

Game Tournament::make_game(int round, int board, std::array<std::string, 2> seats, std::int64_t now_ms) {
  Game g;
  g.id = round > 0 ? id_ + "-" + std::to_string(round) + "-" + std::to_string(board)
                   : id_ + "-a" + std::to_string(board);
  g.round = round;
  g.board = board;
  g.seats = std::move(seats);
  g.paired_ms = now_ms;
  return g;
}

std::vector<Game> Tournament::pair_next_round(std::int64_t now_ms, const Blocks& blocks) {
  if (status_ != Status::running || spec_.format == Format::arena || !round_over() || round_ >= total_rounds_)
    return {};
  if (spec_.format == Format::swiss) return pair_swiss_round(now_ms, blocks);
  if (!spec_.pace.correspondence()) return pair_round_robin(round_ + 1, now_ms);
  std::vector<Game> all;  // by correspondence, every game at once
  while (round_ < total_rounds_) {
    std::vector<Game> games = pair_round_robin(round_ + 1, now_ms);
    all.insert(all.end(), games.begin(), games.end());
  }
  return all;
}

std::vector<Game> Tournament::pair_swiss_round(std::int64_t now_ms, const Blocks& blocks) {
  const int next = round_ + 1;
  std::map<std::string, double> points;
  for (const Game& g : games_)
    for (int s = 0; s < 2; ++s) points[g.seats[s]] += points_for(g.result, s);
  std::set<std::string> had_bye;
  for (const Rest& r : rests_)
    if (r.kind == SitOut::bye) {
      points[r.player] += 1;
      had_bye.insert(r.player);
    }
  std::vector<const Entrant*> present;
  std::vector<Rest> absent;
  for (const Entrant* e : seeded()) {
    if (e->withdrawn || e->first_round > next) continue;
    if (e->absent)
      absent.push_back(Rest{next, e->id, SitOut::absent});
    else
      present.push_back(e);
  }
  if (present.size() < 2) return {};  // wait for players to come back

  std::map<std::string, int> index;
  for (std::size_t i = 0; i < present.size(); ++i) index[present[i]->id] = static_cast<int>(i);
  std::vector<SwissPlayer> players(present.size());
  for (std::size_t i = 0; i < present.size(); ++i) {
    players[i].points2 = static_cast<int>(points[present[i]->id] * 2 + 0.5);
    players[i].had_bye = had_bye.count(present[i]->id) > 0;
  }
  for (const Game& g : games_) {  // in pairing order: rounds in order
    if (forfeit(g.result)) continue;  // not played: neither a side nor a meeting
    for (int s = 0; s < 2; ++s) {
      auto me = index.find(g.seats[s]);
      if (me == index.end()) continue;
      players[me->second].sides.push_back(s);
      auto them = index.find(g.seats[1 - s]);
      if (them != index.end()) players[me->second].opponents.push_back(them->second);
    }
  }
  add_avoid(players, index, blocks);
  const SwissRound paired = pair_swiss(players);
  round_ = next;
  std::vector<Game> made;
  for (std::size_t b = 0; b < paired.boards.size(); ++b)
    made.push_back(make_game(next, static_cast<int>(b) + 1,
                             {present[paired.boards[b][0]]->id, present[paired.boards[b][1]]->id}, now_ms));
  games_.insert(games_.end(), made.begin(), made.end());
  if (paired.bye >= 0) rests_.push_back(Rest{next, present[paired.bye]->id, SitOut::bye});
  rests_.insert(rests_.end(), absent.begin(), absent.end());
  changed();
  return made;
}

std::vector<Game> Tournament::pair_round_robin(int round, std::int64_t now_ms) {
  const std::vector<BergerRound> table = round_robin_rounds(static_cast<int>(order_.size()), spec_.double_round_robin);
  const BergerRound& r = table[static_cast<std::size_t>(round - 1)];
  std::vector<Game> made;
  for (std::size_t b = 0; b < r.boards.size(); ++b) {
    Game g = make_game(round, static_cast<int>(b) + 1, {order_[r.boards[b][0]], order_[r.boards[b][1]]}, now_ms);
    // A withdrawn or absent player's game is not played: the other wins it by forfeit.
    bool away[2];
    for (int s = 0; s < 2; ++s) {
      const Entrant* e = entrant(g.seats[s]);
      away[s] = !e || e->withdrawn || e->absent;
    }
    if (away[0] || away[1]) {
      g.result = away[0] && away[1] ? Result::double_forfeit
                 : away[0]          ? Result::second_wins_forfeit
                                    : Result::first_wins_forfeit;
      g.ended_ms = now_ms;
    }
    made.push_back(std::move(g));
  }
  if (r.resting >= 0) rests_.push_back(Rest{round, order_[r.resting], SitOut::bye});
  games_.insert(games_.end(), made.begin(), made.end());
  round_ = round;
  changed();
  return made;
}

std::vector<Game> Tournament::pair_arena(std::int64_t now_ms, const Blocks& blocks) {
  if (status_ != Status::running || spec_.format != Format::arena || now_ms >= ends_ms_) return {};
  std::set<std::string> playing;
  for (const Game& g : games_)
    if (g.pending()) playing.insert(g.seats.begin(), g.seats.end());
  const std::vector<Standing> table = standings();  // arena points, then the seeding
  std::map<std::string, int> rank;
  for (const Standing& s : table) rank[s.player] = s.rank;
  std::vector<const Entrant*> waiting;
  for (const Entrant& e : entrants_)
    if (!e.withdrawn && !e.absent && !playing.count(e.id)) waiting.push_back(&e);
  std::sort(waiting.begin(), waiting.end(), [&](const Entrant* a, const Entrant* b) { return rank[a->id] < rank[b->id]; });
  std::map<std::string, int> index;
  for (std::size_t i = 0; i < waiting.size(); ++i) index[waiting[i]->id] = static_cast<int>(i);
  std::vector<ArenaPlayer> players(waiting.size());
  for (const Standing& s : table)
    if (auto it = index.find(s.player); it != index.end()) players[it->second].points = static_cast<int>(s.points);
  for (const Game& g : games_)  // in pairing order: a player's last game comes last
    for (int s = 0; s < 2; ++s)
      if (auto me = index.find(g.seats[s]); me != index.end()) {
        auto them = index.find(g.seats[1 - s]);
        players[me->second].last_opponent = them == index.end() ? -1 : them->second;
        if (!forfeit(g.result)) players[me->second].balance += s == 0 ? 1 : -1;
      }
  add_avoid(players, index, blocks);
  std::vector<Game> made;
  for (const auto& pair : tournament::pair_arena(players, !playing.empty())) {
    made.push_back(make_game(0, next_number_++, {waiting[pair[0]]->id, waiting[pair[1]]->id}, now_ms));
  }
  if (!made.empty()) {
    games_.insert(games_.end(), made.begin(), made.end());
    changed();
  }
  return made;
}

Recorded Tournament::record_result(const std::string& id, Result result, std::int64_t now_ms) {
  Recorded out;
  Game* g = find_game(id);
  if (!g) {
    out.error = error("unknown_game", "no such game in the tournament");
  } else if (result == Result::pending) {
    out.error = error("not_a_result", "a result is needed");
  } else if (!g->pending()) {
    if (g->result != result) out.error = error("result_differs", "the game has another result");
  } else {
    g->result = result;
    g->ended_ms = now_ms;
    out.changed = true;
    changed();
  }
  return out;
}

Recorded Tournament::record_forfeit(const std::string& id, std::array<bool, 2> present, std::int64_t now_ms) {
  if (present[0] && present[1]) return Recorded{error("not_a_forfeit", "both players came"), false};
  const Result result = present[0]   ? Result::first_wins_forfeit
                        : present[1] ? Result::second_wins_forfeit
                                     : Result::double_forfeit;
  Recorded out = record_result(id, result, now_ms);
  if (out.changed) {
    const Game& g = *find_game(id);
    for (int s = 0; s < 2; ++s)
      if (!present[s])
        if (Entrant* e = find(g.seats[s])) e->absent = true;
  }
  return out;
}

std::optional<Error> Tournament::attach_room(const std::string& id, const std::string& room) {
  Game* g = find_game(id);
  if (!g) return error("unknown_game", "no such game in the tournament");
  if (g->room == room) return std::nullopt;
  if (!g->room.empty()) return error("room_differs", "the game has another room");
  g->room = room;
  changed();
  return std::nullopt;
}

std::vector<Game> Tournament::rooms_to_create() const {
  std::vector<Game> list;
  for (const Game& g : games_)
    if (g.pending() && g.room.empty()) list.push_back(g);
  return list;
}

}  // namespace cinq::tournament
