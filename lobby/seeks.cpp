#include "lobby/seeks.h"

#include <algorithm>

namespace cinq::lobby {

namespace {
bool avoids(const Seek& a, const Seek& b) {
  return std::find(a.avoid.begin(), a.avoid.end(), b.player.id) != a.avoid.end();
}
}  // namespace

std::optional<Seek> SeekBook::add(Seek seek) {
  remove_player(seek.player.id);
  auto match = std::find_if(seeks_.begin(), seeks_.end(), [&](const Seek& s) {
    return s.game == seek.game && s.options == seek.options && s.clock == seek.clock && s.rated == seek.rated &&
           s.accepts(seek) && seek.accepts(s) && !avoids(s, seek) && !avoids(seek, s);
  });
  if (match != seeks_.end()) {
    Seek other = *match;
    seeks_.erase(match);
    return other;
  }
  seeks_.push_back(std::move(seek));
  return std::nullopt;
}

int SeekBook::remove_player(const std::string& player_id) {
  auto n = std::erase_if(seeks_, [&](const Seek& s) { return s.player.id == player_id; });
  return static_cast<int>(n);
}

int SeekBook::remove_connection(std::uint64_t connection) {
  auto n = std::erase_if(seeks_, [&](const Seek& s) { return s.connection == connection; });
  return static_cast<int>(n);
}

}  // namespace cinq::lobby
