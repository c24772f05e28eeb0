// Quick pairing: a seek waits for the next player asking for the same game, options and clock.
#include "lobby/seeks.h"

#include <doctest/doctest.h>

namespace cinq::lobby {
namespace {

Seek seek(std::string player, std::uint64_t connection, std::string game, std::string options = "",
          ClockSpec clock = {}) {
  return Seek{Player{player + "-id", player}, connection, std::move(game), std::move(options), clock, 0};
}

// The players waiting, oldest first: "alice bob".
std::string waiting(const SeekBook& book) {
  std::string out;
  for (const Seek& s : book.seeks()) out += (out.empty() ? "" : " ") + s.player.name;
  return out;
}

const ClockSpec kBlitz{3 * 60 * 1000, 2000};
const ClockSpec kRapid{10 * 60 * 1000, 5000};

TEST_CASE("Seeks: a seek waits until another player asks for the same game, options and clock") {
  SeekBook book;
  CHECK_FALSE(book.add(seek("alice", 1, "tablut", "king=unarmed", kBlitz)));
  CHECK(book.size() == 1);
  auto paired = book.add(seek("bob", 2, "tablut", "king=unarmed", kBlitz));
  REQUIRE(paired);
  CHECK(paired->player.id == "alice-id");
  CHECK(paired->connection == 1);
  CHECK(book.size() == 0);  // both are out of the book: the server seats them in a new room
}

TEST_CASE("Seeks: a different game, options or clock does not pair") {
  SeekBook book;
  CHECK_FALSE(book.add(seek("alice", 1, "tablut", "", kBlitz)));
  CHECK_FALSE(book.add(seek("bob", 2, "tablut", "", kRapid)));
  CHECK_FALSE(book.add(seek("carol", 3, "tablut", "", {})));
  CHECK_FALSE(book.add(seek("dave", 4, "tablut", "king=unarmed", kBlitz)));
  CHECK_FALSE(book.add(seek("erin", 5, "baltek", "", kBlitz)));
  CHECK(waiting(book) == "alice bob carol dave erin");
  // The same clock as Bob's pairs with Bob, whoever came first.
  auto paired = book.add(seek("frank", 6, "tablut", "", kRapid));
  REQUIRE(paired);
  CHECK(paired->player.name == "bob");
  CHECK(waiting(book) == "alice carol dave erin");
}

TEST_CASE("Seeks: two players one of whom blocks the other are never paired, whoever asked first") {
  SeekBook book;
  Seek alice = seek("alice", 1, "tablut", "", kBlitz);
  alice.avoid = {"bob-id"};  // Alice blocks Bob
  CHECK_FALSE(book.add(alice));
  CHECK_FALSE(book.add(seek("bob", 2, "tablut", "", kBlitz)));
  CHECK(waiting(book) == "alice bob");
  // Carol pairs with Alice, the oldest she may meet.
  auto paired = book.add(seek("carol", 3, "tablut", "", kBlitz));
  REQUIRE(paired);
  CHECK(paired->player.name == "alice");
  // The other way round: the newcomer's own list is read too.
  Seek dave = seek("dave", 4, "tablut", "", kBlitz);
  dave.avoid = {"bob-id"};
  CHECK_FALSE(book.add(dave));
  CHECK(waiting(book) == "bob dave");
}

TEST_CASE("Seeks: the oldest matching seek is paired first") {
  SeekBook book;
  CHECK_FALSE(book.add(seek("alice", 1, "baltek")));
  CHECK_FALSE(book.add(seek("bob", 2, "tablut")));
  CHECK_FALSE(book.add(seek("alice", 1, "baltek", "goals=1")));  // replaces her first seek
  CHECK_FALSE(book.add(seek("carol", 3, "tablut", "first=defenders")));
  auto paired = book.add(seek("dave", 4, "tablut"));
  REQUIRE(paired);
  CHECK(paired->player.name == "bob");
}

TEST_CASE("Seeks: a player's new seek replaces the old one, and never pairs with it") {
  SeekBook book;
  CHECK_FALSE(book.add(seek("alice", 1, "tablut", "", kBlitz)));
  CHECK_FALSE(book.add(seek("alice", 1, "tablut", "", kBlitz)));  // the same seek again: still one
  CHECK(book.size() == 1);
  CHECK_FALSE(book.add(seek("alice", 7, "baltek")));  // from another tab: it replaces the first
  CHECK(waiting(book) == "alice");
  CHECK(book.seeks().front().game == "baltek");
  CHECK(book.seeks().front().connection == 7);
  CHECK_FALSE(book.add(seek("bob", 2, "tablut", "", kBlitz)));  // Alice's Tablut seek is gone
  CHECK(waiting(book) == "alice bob");
}

TEST_CASE("Seeks: a closed connection takes its seeks with it, a player can withdraw") {
  SeekBook book;
  CHECK_FALSE(book.add(seek("alice", 1, "tablut")));
  CHECK_FALSE(book.add(seek("bob", 2, "baltek")));
  CHECK_FALSE(book.add(seek("carol", 3, "batik")));
  CHECK(book.remove_connection(2) == 1);
  CHECK(book.remove_connection(2) == 0);
  CHECK(waiting(book) == "alice carol");
  CHECK(book.remove_player("carol-id") == 1);
  CHECK(book.remove_player("nobody-id") == 0);
  CHECK(waiting(book) == "alice");
  // Bob's Baltek seek is gone: a new Baltek seek waits instead of pairing.
  CHECK_FALSE(book.add(seek("dave", 4, "baltek")));
  CHECK(waiting(book) == "alice dave");
}

}  // namespace
}  // namespace cinq::lobby
