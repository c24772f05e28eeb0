// Bi-litaire's board: docs/rules/bilitaire.md ("Board", "Play").
#include "rules/bilitaire/board.h"

#include <bit>
#include <cassert>

namespace cinq::bilitaire {

namespace {

bool on_slots(int col, int row) { return col >= 0 && col < 4 && row >= 0 && row < 4; }
bool on_holes(int col, int row) { return col >= 0 && col < 8 && row >= 0 && row < 8; }

// How far a group of `size` trays may move at most (rules: 3 slots for one tray, 2 for two, 1 for three).
int max_distance(int size) { return size >= 4 ? 0 : 4 - size; }

}  // namespace

char dir_mark(Dir d) {
  switch (d) {
    case Dir::right:
      return '>';
    case Dir::left:
      return '<';
    case Dir::up:
      return '^';
    case Dir::down:
      return 'v';
  }
  return '?';
}

std::optional<Dir> dir_from_mark(char c) {
  for (Dir d : kDirs)
    if (dir_mark(d) == c) return d;
  return std::nullopt;
}

int dir_dx(Dir d) { return d == Dir::right ? 1 : d == Dir::left ? -1 : 0; }
int dir_dy(Dir d) { return d == Dir::up ? 1 : d == Dir::down ? -1 : 0; }

std::string hole_name(int hole) {
  return {static_cast<char>('a' + hole % 8), static_cast<char>('1' + hole / 8)};
}

std::string slot_name(int slot) {
  return {static_cast<char>('A' + slot % 4), static_cast<char>('1' + slot / 4)};
}

std::optional<int> parse_hole(std::string_view s) {
  if (s.size() != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return std::nullopt;
  return (s[1] - '1') * 8 + (s[0] - 'a');
}

std::optional<int> parse_slot(std::string_view s) {
  if (s.size() != 2 || s[0] < 'A' || s[0] > 'D' || s[1] < '1' || s[1] > '4') return std::nullopt;
  return (s[1] - '1') * 4 + (s[0] - 'A');
}

int slot_of(int hole) { return (hole / 16) * 4 + (hole % 8) / 2; }

std::uint64_t slot_holes(int slot) {
  int base = (slot / 4) * 16 + (slot % 4) * 2;  // the tray's lower-left hole
  return (std::uint64_t{3} << base) | (std::uint64_t{3} << (base + 8));
}

Board Board::initial() {
  Board b;
  for (int s = 0; s < kSlots; ++s) {
    if (s == 0 || s == 3 || s == 12 || s == 15) continue;  // the corners A1 D1 A4 D4
    b.trays = static_cast<std::uint16_t>(b.trays | (1u << s));
    b.marbles |= slot_holes(s);
  }
  return b;
}

std::uint64_t Board::holes() const {
  std::uint64_t h = 0;
  for (int s = 0; s < kSlots; ++s)
    if (has_tray(s)) h |= slot_holes(s);
  return h;
}

int Board::marble_count() const { return std::popcount(marbles); }

std::vector<int> Board::push_group(int slot, Dir dir) const {
  std::vector<int> group;
  int col = slot % 4, row = slot / 4;
  while (on_slots(col, row) && has_tray(row * 4 + col)) {
    group.push_back(row * 4 + col);
    col += dir_dx(dir);
    row += dir_dy(dir);
  }
  return group;
}

PushFault Board::check_push(const Push& p, int* blocker) const {
  std::vector<int> group = push_group(p.slot, p.dir);
  if (group.empty()) return PushFault::no_tray;
  if (group.size() >= 4) return PushFault::too_many;
  if (p.distance < 1 || p.distance > max_distance(static_cast<int>(group.size()))) return PushFault::too_far;
  // The group ends where the next slot is free or off the board; every slot it moves into must be free.
  int front = group.back();
  for (int i = 1; i <= p.distance; ++i) {
    int col = front % 4 + i * dir_dx(p.dir), row = front / 4 + i * dir_dy(p.dir);
    if (!on_slots(col, row)) return PushFault::frame;
    if (has_tray(row * 4 + col)) {
      if (blocker) *blocker = row * 4 + col;
      return PushFault::tray;
    }
  }
  return PushFault::none;
}

void Board::apply_push(const Push& p) {
  assert(check_push(p) == PushFault::none);
  std::vector<int> group = push_group(p.slot, p.dir);
  int slot_step = p.distance * (dir_dx(p.dir) + 4 * dir_dy(p.dir));
  int hole_step = p.distance * (2 * dir_dx(p.dir) + 16 * dir_dy(p.dir));
  std::uint16_t new_trays = trays;
  std::uint64_t moved = 0;
  for (int s : group) {
    new_trays = static_cast<std::uint16_t>(new_trays & ~(1u << s));
    moved |= marbles & slot_holes(s);
  }
  for (int s : group) new_trays = static_cast<std::uint16_t>(new_trays | (1u << (s + slot_step)));
  marbles &= ~moved;
  marbles |= hole_step >= 0 ? moved << hole_step : moved >> -hole_step;
  trays = new_trays;
}

void Board::pushes(std::vector<Push>& out) const {
  for (int s = 0; s < kSlots; ++s) {
    if (!has_tray(s)) continue;
    for (Dir d : kDirs)
      for (int n = 1; n <= 3; ++n) {
        Push p{s, d, n};
        if (check_push(p) == PushFault::none) out.push_back(p);
      }
  }
}

std::optional<int> Board::jump_target(int from, Dir dir) const {
  if (!has_marble(from)) return std::nullopt;
  int col = from % 8 + 2 * dir_dx(dir), row = from / 8 + 2 * dir_dy(dir);
  if (!on_holes(col, row)) return std::nullopt;
  int over = from + (dir_dx(dir) + 8 * dir_dy(dir));
  int land = row * 8 + col;
  if (!has_marble(over) || !is_hole(land) || has_marble(land)) return std::nullopt;
  return land;
}

bool Board::has_jump() const {
  for (int h = 0; h < kHoles; ++h)
    if (has_marble(h))
      for (Dir d : kDirs)
        if (jump_target(h, d)) return true;
  return false;
}

namespace {

// Chain search: the jumping marble has left its start, so `b` holds every other marble and `at` is where
// the jumper stands. `path` is the start hole then the landing holes.
struct ChainWalk {
  std::uint64_t holes = 0;
  int wanted = 0;  // 0: find the longest
  int best = 0;
  std::vector<std::vector<int>>* out = nullptr;
  std::vector<int> path;

  void walk(std::uint64_t marbles, int at, int done) {
    if (done > best) best = done;
    if (wanted > 0 && done == wanted) {
      out->push_back(path);
      return;
    }
    if (wanted == 0 && best >= kMaxChain) return;
    for (Dir d : kDirs) {
      int col = at % 8 + 2 * dir_dx(d), row = at / 8 + 2 * dir_dy(d);
      if (!on_holes(col, row)) continue;
      int over = at + dir_dx(d) + 8 * dir_dy(d);
      int land = row * 8 + col;
      if (!((marbles >> over) & 1u) || !((holes >> land) & 1u) || ((marbles >> land) & 1u)) continue;
      path.push_back(land);
      walk(marbles & ~(std::uint64_t{1} << over), land, done + 1);
      path.pop_back();
    }
  }
};

}  // namespace

int Board::longest_chain() const {
  ChainWalk w;
  w.holes = holes();
  for (int h = 0; h < kHoles; ++h)
    if (has_marble(h)) w.walk(marbles & ~(std::uint64_t{1} << h), h, 0);
  return w.best;
}

void Board::chains(int length, std::vector<std::vector<int>>& out) const {
  assert(length >= 1);
  ChainWalk w;
  w.holes = holes();
  w.wanted = length;
  w.out = &out;
  for (int h = 0; h < kHoles; ++h) {
    if (!has_marble(h)) continue;
    w.path = {h};
    w.walk(marbles & ~(std::uint64_t{1} << h), h, 0);
  }
}

}  // namespace cinq::bilitaire
