// Layout without replay (rules/notation.h): a record kept as its `#!` line and its entries' texts,
// as the store keeps a game in progress, lays out to exactly what Record::write() gives; the texts handed out
// from entry K on are those of the whole list; kept entries never change but for an open turn; a record taken
// apart (split_record) lays out again to its canonical text. Over random games of every game and the sample
// records of tests/data.
#include <doctest/doctest.h>

#include <filesystem>
#include <random>

#include "rules/notation.h"
#include "rules/registry.h"
#include "tests/support.h"

using namespace cinq;

namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

// The entries that can no longer change: the kept ones but an open turn (the last turn entry, while the
// state is mid-turn). What a room may leave out of its next save.
std::size_t stable_entries(const Record& r) {
  const std::vector<Entry>& e = r.entries();
  if (r.finished() || !r.state().mid_turn()) return e.size();
  std::size_t n = e.size();
  while (n > 0 && e[n - 1].kind != Entry::Kind::turns) --n;
  return n == 0 ? 0 : n - 1;
}

// Plays `games` random games of `game`, keeping a copy of the entries the way the store does: after every
// action, the texts from the first entry that may have changed replace the tail of the copy. At each check,
// the copy lays out to write(), and write() reads back to the same entries.
void check_random_games(const Game& game, unsigned seed, int games) {
  auto options = Options::parse_text(game.option_specs(), game.bounded_options());
  REQUIRE(options.ok());
  std::mt19937 rng(seed);
  for (int g = 0; g < games; ++g) {
    INFO(game.name(), " game ", g);
    Record record = Record::start(game, *options);
    record.add_players({{game.side_letter(0), "Ann"}, {game.side_letter(1), "Ben"}});
    record.add_timestamp("2026-01-02 10:00:00");
    std::vector<std::string> stored = record.entry_texts(0);
    std::size_t stable = stable_entries(record);
    int actions = 0;
    std::vector<Action> legal;
    while (!record.finished() && actions < 3000) {
      legal.clear();
      record.state().legal_actions(legal);
      REQUIRE(!legal.empty());
      REQUIRE(record.play(legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)]).ok());
      ++actions;
      // The save after this action: the entries from `stable` on, replacing the stored ones there.
      std::vector<std::string> tail = record.entry_texts(stable);
      REQUIRE(stored.size() >= stable);
      stored.resize(stable);
      stored.insert(stored.end(), tail.begin(), tail.end());
      CHECK(stored.size() == record.entry_count());
      stable = stable_entries(record);
      if (actions > 60 && actions % 7 != 0 && !record.finished()) continue;
      const std::string written = record.write();
      REQUIRE_MESSAGE(layout_record(record.header_line(), stored) == written, "stored:\n", joined(stored),
                      "written:\n", written);
      CHECK(layout_record(record.header_line(), record.entry_texts(0)) == written);
      CHECK(record.entry_texts(0) == stored);
      if (record.state().mid_turn() && !record.finished()) continue;
      // The record read back has the same entries: a reloaded game goes on from the same list.
      auto back = Record::read(written);
      REQUIRE_MESSAGE(back.ok(), written, (back.ok() ? "" : back.error().text()));
      CHECK(back->entry_texts(0) == stored);
      auto parts = split_record(written);
      REQUIRE(parts.ok());
      CHECK(parts->header == record.header_line());
      CHECK(parts->entries == stored);
    }
  }
}

}  // namespace

TEST_CASE("record layout: random games of every game lay out from their entries as write() writes them") {
  for (const Game* g : games()) {
    SUBCASE(g->name().data()) { check_random_games(*g, 16u, 3); }
  }
}

TEST_CASE("record layout: the sample records lay out from their entries, and split back into them") {
  int records = 0;
  for (const auto& file : std::filesystem::recursive_directory_iterator(CINQ_TEST_DATA_DIR)) {
    const std::string path = file.path().string();
    if (!file.is_regular_file() || file.path().extension() != ".txt" || path.find("/bad") != std::string::npos)
      continue;
    const std::string text = test::read_text(path);
    auto record = Record::read(text);
    if (!record) continue;  // a sample of a wrong record, named otherwise
    INFO(path);
    ++records;
    const std::string written = record->write();
    CHECK(layout_record(record->header_line(), record->entry_texts(0)) == written);
    const std::vector<std::string> all = record->entry_texts(0);
    CHECK(all.size() == record->entry_count());
    for (std::size_t k = 0; k <= all.size() + 1; ++k) {
      std::vector<std::string> from = record->entry_texts(k);
      CHECK(from == std::vector<std::string>(all.begin() + static_cast<std::ptrdiff_t>(std::min(k, all.size())),
                                             all.end()));
    }
    // Taken apart as written (one entry per turn, lines as they are) and laid out again: the same record,
    // whose canonical form is the same.
    auto parts = split_record(text);
    REQUIRE(parts.ok());
    auto relaid = Record::read(layout_record(parts->header, parts->entries));
    REQUIRE(relaid.ok());
    CHECK(relaid->write() == written);
    // The canonical record taken apart lays out to itself.
    auto again = split_record(written);
    REQUIRE(again.ok());
    CHECK(layout_record(again->header, again->entries) == written);
  }
  CHECK(records >= 15);
}

TEST_CASE("record layout: pairing, numbering and alignment come from the texts alone") {
  const std::vector<std::string> entries = {
      "A = Ann    D = Ben", "> 2026-01-02 10:00:00", "A/e2 c2/", "# between the turns", "D/e3 c3/",
      "A/c2 c1/",           "D/d1 d2/",              "A/a1 a2/", "..."};
  CHECK(layout_record("#! TABLUT", entries) ==
        "#! TABLUT\n"
        "A = Ann    D = Ben\n"
        "> 2026-01-02 10:00:00\n"
        "1   A/e2 c2/   D/e3 c3/\n"
        "# between the turns\n"
        "2   A/c2 c1/   D/d1 d2/\n"
        "3   A/a1 a2/   ...\n");
  // A round starts the numbering again; a result closes the line it follows.
  CHECK(layout_record("#! BI-LITAIRE", {"M/x d4/", "T/B1 >1/", "M/x e4/", "#= M score 1-0", "#- 2", "T/A1/"}) ==
        "#! BI-LITAIRE\n"
        "1   M/x d4/   T/B1 >1/\n"
        "2   M/x e4/\n"
        "#= M score 1-0\n"
        "#- 2\n"
        "1   T/A1/\n");
  CHECK(layout_record("", {}).empty());
  CHECK(layout_record("#! TABLUT", {}) == "#! TABLUT\n");
  // Comments that look like round or result lines only when parse_lines would read them so.
  CHECK(layout_record("#! TABLUT", {"A/e2 c2/", "#-x", "#=!", "D/e3 c3/"}) ==
        "#! TABLUT\n1   A/e2 c2/   D/e3 c3/\n#-x\n#=!\n");
}

TEST_CASE("record layout: split_record gives one entry per turn, `...` apart, and the header as written") {
  auto parts = split_record("#! TABLUT king=armed\nA = Ann    D = Ben\n1  A/e2 c2/  D/e3 c3/\n2 A/c2 c1/ ...\n");
  REQUIRE(parts.ok());
  CHECK(parts->header == "#! TABLUT king=armed");
  CHECK(parts->entries ==
        std::vector<std::string>{"A = Ann    D = Ben", "A/e2 c2/", "D/e3 c3/", "A/c2 c1/", "..."});
  auto none = split_record("1   B/@ d3/\n");
  REQUIRE(none.ok());
  CHECK(none->header.empty());
  CHECK(none->entries == std::vector<std::string>{"B/@ d3/"});
  CHECK_FALSE(split_record("#! TABLUT\n1   A/e2 c2\n").ok());
}
