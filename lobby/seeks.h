// Quick pairing (docs/design.md, lobby/): a seek waits for the next player who asks for the same game,
// options, clock and rated or not, within each other's rating range. Pure logic; the server guards it with a mutex.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "lobby/room.h"

namespace cinq::lobby {

struct Seek {
  Player player;
  std::uint64_t connection = 0;  // the connection that asked: a seek dies with it
  std::string game;
  std::string options;  // canonical `key=value ...` (as Room::create writes them)
  ClockSpec clock;
  std::int64_t since_ms = 0;
  // A rated seek pairs only with rated seeks (a rated game needs both players to want one); `rating` is the
  // seeker's in this game and pool (1500 with no rating yet), and `range` the opponent's rating it accepts
  // ([min, max], none: any). Two seeks pair only when each one's rating is in the other's range.
  bool rated = false;
  double rating = 1500;
  bool provisional = true;
  std::optional<std::array<double, 2>> range;
  // Players this one blocks or is blocked by (moderation): never paired with them.
  std::vector<std::string> avoid;
  bool accepts(const Seek& other) const {
    return !range || (other.rating >= (*range)[0] && other.rating <= (*range)[1]);
  }
};

class SeekBook {
 public:
  // Adds `seek`, replacing any earlier seek of the same player. If another player's seek for the same game,
  // options and clock waits, it is taken out and returned instead (the two are paired, oldest first).
  std::optional<Seek> add(Seek seek);
  // Removes the seeks of a player, or of a connection; returns how many.
  int remove_player(const std::string& player_id);
  int remove_connection(std::uint64_t connection);
  std::size_t size() const { return seeks_.size(); }
  // Waiting seeks per game, for the lobby.
  const std::deque<Seek>& seeks() const { return seeks_; }

 private:
  std::deque<Seek> seeks_;  // oldest first
};

}  // namespace cinq::lobby
