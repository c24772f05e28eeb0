// Each game's words in French on the server (Game::words_in("fr"), in its mails) are the client's
// (web-client/boards/fr/NAME.js): its title, what it is, its side names and whether they name groups, so that
// a mail and the page never name a side two ways.
#include <doctest/doctest.h>

#include <regex>

#include "rules/registry.h"
#include "tests/support.h"

namespace cinq::test {
namespace {

// A JavaScript string literal's text: the escapes the catalogs use (\' \" \\ \uXXXX) read back to UTF-8.
std::string unescape(const std::string& js) {
  std::string out;
  for (std::size_t i = 0; i < js.size(); ++i) {
    if (js[i] != '\\' || i + 1 == js.size()) {
      out += js[i];
      continue;
    }
    const char c = js[++i];
    if (c == 'u' && i + 4 < js.size()) {
      const unsigned code = static_cast<unsigned>(std::stoul(js.substr(i + 1, 4), nullptr, 16));
      i += 4;
      if (code < 0x80) {
        out += static_cast<char>(code);
      } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
      } else {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
      }
    } else {
      out += c;
    }
  }
  return out;
}

// The text of `key` in a catalog's source ('key': 'text'), "" when it has none.
std::string entry(const std::string& source, const std::string& key) {
  const std::regex re("'" + std::regex_replace(key, std::regex(R"([.\-])"), R"(\$&)") + R"(':\s*'((?:[^'\\]|\\.)*)')");
  std::smatch m;
  return std::regex_search(source, m, re) ? unescape(m[1].str()) : std::string();
}

}  // namespace

TEST_CASE("rules words: each game's French title, sides and description are the client's") {
  for (const Game* g : games()) {
    const std::string name(g->name());
    const std::string source = read_text(std::string(CINQ_WEB_DIR) + "/boards/fr/" + name + ".js");
    const GameWords& fr = g->words_in("fr");
    CAPTURE(name);
    CHECK(std::string(fr.title) == entry(source, name + ".title"));
    CHECK(std::string(fr.about) == entry(source, name + ".about"));
    for (int side = 0; side < 2; ++side)
      CHECK(std::string(fr.sides[static_cast<std::size_t>(side)]) ==
            entry(source, name + ".side." + std::string(1, g->side_letter(side))));
    CHECK(entry(source, name + ".side_number") == (fr.plural ? "plural" : "singular"));
    CHECK(fr.numbered_players == g->words().numbered_players);
    // Another language the rules do not know is English.
    CHECK(&g->words_in("xx") == &g->words());
    CHECK(&g->words_in("en") == &g->words());
  }
}

}  // namespace cinq::test
