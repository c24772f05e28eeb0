// Bi-litaire's board (docs/rules/bilitaire.md): trays on a 4 x 4 grid of slots, marbles in the holes
// of an 8 x 8 lattice. A plain value: the rules of moving trays and jumping marbles, no turn logic.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cinq::bilitaire {

// Holes are numbered row * 8 + column (a1 = 0, h1 = 7, a8 = 56); slots row * 4 + column (A1 = 0, D4 = 15).
constexpr int kHoles = 64;
constexpr int kSlots = 16;
constexpr int kMaxChain = 22;  // a chain is a trail in a 4 x 4 grid of landing holes: at most 21 jumps

// The four directions, in the order of their notation marks `>` `<` `^` `v`.
enum class Dir : std::uint8_t { right, left, up, down };
constexpr std::array<Dir, 4> kDirs = {Dir::right, Dir::left, Dir::up, Dir::down};
char dir_mark(Dir d);
std::optional<Dir> dir_from_mark(char c);
int dir_dx(Dir d);
int dir_dy(Dir d);

std::string hole_name(int hole);  // "d4"
std::string slot_name(int slot);  // "B1"
std::optional<int> parse_hole(std::string_view s);
std::optional<int> parse_slot(std::string_view s);
int slot_of(int hole);
std::uint64_t slot_holes(int slot);  // the four holes a tray on `slot` carries

// A tray push: the tray on `slot` pushed `distance` slots towards `dir` (with the trays touching it ahead).
struct Push {
  int slot = 0;
  Dir dir = Dir::right;
  int distance = 1;
};

// Why a push cannot be made; `blocker` names the slot of the tray in the way, when there is one.
enum class PushFault { none, no_tray, too_many, too_far, frame, tray };

struct Board {
  std::uint16_t trays = 0;    // bit s: a tray stands on slot s
  std::uint64_t marbles = 0;  // bit h: a marble in hole h (always on a tray)

  static Board initial();  // 12 trays (corners empty), 48 marbles
  friend bool operator==(const Board&, const Board&) = default;

  bool has_tray(int slot) const { return (trays >> slot) & 1u; }
  bool has_marble(int hole) const { return (marbles >> hole) & 1u; }
  std::uint64_t holes() const;  // every hole that exists (on a tray)
  bool is_hole(int hole) const { return (holes() >> hole) & 1u; }
  int marble_count() const;
  bool tray_empty(int slot) const { return (marbles & slot_holes(slot)) == 0; }

  // The slots of the group a push of `slot` towards `dir` moves: the tray and the trays touching it ahead,
  // rear first. Empty if there is no tray on `slot`.
  std::vector<int> push_group(int slot, Dir dir) const;
  // Checks a push; `blocker` gets the slot in the way for PushFault::tray.
  PushFault check_push(const Push& p, int* blocker = nullptr) const;
  void apply_push(const Push& p);
  void pushes(std::vector<Push>& out) const;  // every legal push

  // Jumps: the marble on `from` over the next hole towards `dir` into the empty hole behind it.
  std::optional<int> jump_target(int from, Dir dir) const;  // the landing hole if the jump is legal
  bool has_jump() const;
  // The longest chain any marble can make (0 if there is no jump).
  int longest_chain() const;
  // Every chain of exactly `length` jumps, as its start hole and landing holes.
  void chains(int length, std::vector<std::vector<int>>& out) const;
};

}  // namespace cinq::bilitaire
