// What mails say, in the recipient's language (docs/mail.md, "Languages"): a small catalog of texts by key,
// with {name} parameters, one catalog per language (words_en.cpp, words_fr.cpp), and dates as each language
// writes them. English is the default and the fallback: an unknown language, or a key a catalog lacks, reads
// the English text. Record lines and notation are never translated.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cinq::mail {

// One text of a catalog: "turn.head" -> "It is your turn, {name}, in {game} (game {room}).\n".
struct Words {
  std::string_view key;
  std::string_view text;
};

// The languages the server's mails are written in, "en" first: their codes as the client's (i18n.js).
std::vector<std::string_view> languages();
// Whether `language` is one of them.
bool known_language(std::string_view language);
// A language's catalog (English's for an unknown language).
std::span<const Words> catalog(std::string_view language);

// The text of `key` in `language`, its {name} parameters replaced by `params` (a value is not read again,
// so a record or a name holding braces stays as it is). A key no catalog has reads as itself.
using Params = std::initializer_list<std::pair<std::string_view, std::string>>;
std::string text(std::string_view language, std::string_view key, Params params = {});
// A refusal of the rules (a cinq::Error's code and parameters, rules/errors.inc) in `language`: the catalog's
// `rules.CODE` text (for the room's own reason "log.CODE", lobby/log_refusals.inc, its `refused.log.CODE`
// text), after "turn N: " and "line N: " when `turn` and `line` are known (0 otherwise). A side
// letter (a parameter named `side` or ending in `_side`) is said by `side_word` (the game's word for it);
// squares, items and results stay as the notation writes them. "" when the catalog has no such code (a
// reason of a newer server, or none).
std::string rules_reason(std::string_view language, std::string_view code,
                         const std::vector<std::pair<std::string, std::string>>& params, int line, int turn,
                         const std::function<std::string(const std::string&)>& side_word);
// "1 game", "3 games": the key's ".one" or ".other" text with {n}.
std::string count_text(std::string_view language, std::string_view key, std::int64_t n);

// A time in a player's zone and language, with UTC after it: "Sunday 29 November 2026, 15:00 CET (14:00 UTC)",
// "dimanche 29 novembre 2026 à 15:00 CET (14:00 UTC)"; without a known zone (or for "" or a name the system's
// tzdata lacks), UTC alone.
std::string human_time(std::int64_t unix_ms, std::string_view zone, std::string_view language);

}  // namespace cinq::mail
