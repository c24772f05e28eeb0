#include "rules/game.h"

#include <algorithm>
#include <charconv>

namespace cinq {

namespace {

// A non-negative decimal integer up to INT_MAX; leading zeros are allowed.
std::optional<int> parse_int(std::string_view s) {
  while (s.size() > 1 && s[0] == '0') s.remove_prefix(1);
  if (s.empty() || s.size() > 10) return std::nullopt;
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < 0 || v > INT_MAX) return std::nullopt;
  return static_cast<int>(v);
}

std::string describe(const OptionSpec& spec) {
  std::string s;
  if (!spec.choices.empty()) {
    for (const auto& c : spec.choices) s += (s.empty() ? "" : ", ") + c;
    return s;
  }
  s = std::to_string(spec.min) + (spec.max == INT_MAX ? " or more" : ".." + std::to_string(spec.max));
  if (!spec.none_value.empty()) s += " or " + spec.none_value;
  return s;
}

// The values an option takes, in no language: "2, 3", "1..50", "1.." (no upper bound), then ", none".
std::string allowed_values(const OptionSpec& spec) {
  std::string s;
  if (!spec.choices.empty()) {
    for (const auto& c : spec.choices) s += (s.empty() ? "" : ", ") + c;
    return s;
  }
  s = std::to_string(spec.min) + ".." + (spec.max == INT_MAX ? "" : std::to_string(spec.max));
  if (!spec.none_value.empty()) s += ", " + spec.none_value;
  return s;
}

bool valid_value(const OptionSpec& spec, std::string_view v) {
  if (!spec.choices.empty())
    return std::find(spec.choices.begin(), spec.choices.end(), v) != spec.choices.end();
  if (!spec.none_value.empty() && v == spec.none_value) return true;
  auto n = parse_int(v);
  return n && *n >= spec.min && *n <= spec.max;
}

constexpr ErrorCodeInfo kErrorCodes[] = {
#define CINQ_ERROR(code, params) {#code, params},
#include "rules/errors.inc"
#undef CINQ_ERROR
};

}  // namespace

std::span<const ErrorCodeInfo> error_codes() { return kErrorCodes; }

const ErrorCodeInfo& error_code_info(ErrorCode code) { return kErrorCodes[static_cast<std::size_t>(code)]; }

bool params_match(ErrorCode code, const ErrorParams& params) {
  std::string names;
  for (const auto& p : params) names += (names.empty() ? "" : " ") + p.first;
  return names == error_code_info(code).params;
}

Result<Options> Options::parse(std::span<const OptionSpec> specs,
                               const std::vector<std::pair<std::string, std::string>>& given) {
  Options o;
  for (const auto& spec : specs) o.values_.emplace_back(spec.key, spec.default_value);
  std::vector<std::string> seen;
  for (const auto& given_option : given) {
    // Named, not a structured binding: clang 14 (the sanitizer and fuzz builds) cannot capture one.
    const std::string& key = given_option.first;
    const std::string& value = given_option.second;
    auto it = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.key == key; });
    if (it == specs.end()) {
      std::string known;
      for (const auto& s : specs) known += (known.empty() ? "" : ", ") + s.key;
      if (known.empty())
        return make_error(ErrorCode::no_options, {{"option", key}},
                          "unknown option '" + key + "' (this game has no options)");
      return make_error(ErrorCode::unknown_option, {{"option", key}, {"options", known}},
                        "unknown option '" + key + "' (options: " + known + ")");
    }
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      return make_error(ErrorCode::option_twice, {{"option", key}}, "option '" + key + "' given twice");
    seen.push_back(key);
    if (!valid_value(*it, value))
      return make_error(
          ErrorCode::option_not_allowed,
          {{"option", key}, {"value", value}, {"allowed", allowed_values(*it)}},
          "option " + key + "=" + value + " is not allowed (" + key + ": " + describe(*it) + ")");
    // Integers are kept in their canonical form (`goals=02` is `goals=2`).
    std::string canonical =
        it->choices.empty() && parse_int(value) ? std::to_string(*parse_int(value)) : value;
    o.values_[static_cast<std::size_t>(it - specs.begin())].second = canonical;
  }
  for (const auto& spec : specs)
    for (const auto& [key, value] : given)
      if (key == spec.key) o.explicit_.emplace_back(key, o.get(key));
  return o;
}

Result<Options> Options::parse_text(std::span<const OptionSpec> specs, std::string_view text) {
  std::vector<std::pair<std::string, std::string>> given;
  std::string folded = fold_spaces(text);
  std::string_view rest = folded;
  while (!rest.empty()) {
    auto sp = rest.find(' ');
    std::string_view tok = rest.substr(0, sp);
    rest = sp == std::string_view::npos ? std::string_view{} : rest.substr(sp + 1);
    auto eq = tok.find('=');
    if (eq == std::string_view::npos || eq == 0)
      return make_error(ErrorCode::option_not_key_value, {{"option", std::string(tok)}},
                        "option '" + std::string(tok) + "' is not of the form key=value");
    std::string key(tok.substr(0, eq));
    if (std::any_of(key.begin(), key.end(), [](char c) { return !(c >= 'a' && c <= 'z'); }))
      return make_error(ErrorCode::option_key_case, {{"key", key}},
                        "option key '" + key + "' must be lower-case letters");
    given.emplace_back(key, std::string(tok.substr(eq + 1)));
  }
  return parse(specs, given);
}

std::string Options::text() const {
  std::string out;
  for (const auto& [k, v] : explicit_) out += (out.empty() ? "" : " ") + k + "=" + v;
  return out;
}

const std::string& Options::get(std::string_view key) const {
  for (const auto& [k, v] : values_)
    if (k == key) return v;
  assert(false && "unknown option key");
  static const std::string empty;
  return empty;
}

int Options::get_int(std::string_view key) const {
  auto n = parse_int(get(key));
  assert(n);
  return n.value_or(0);
}

bool Options::is_none(std::string_view key) const { return !parse_int(get(key)).has_value(); }

bool State::is_legal(Action a) const {
  std::vector<Action> legal;
  legal_actions(legal);
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

std::vector<std::string> State::record_items(Action a) const {
  if (a.is_end_turn()) return {};
  return {action_text(a)};
}

Result<Item> State::read_item(std::string_view text, const ItemContext&) const {
  std::string folded = fold_spaces(text);
  std::vector<Action> legal;
  legal_actions(legal);
  for (Action a : legal)
    if (!a.is_end_turn() && action_text(a) == folded) return Item{false, a};
  return make_error(ErrorCode::not_legal_here, {{"item", folded}},
                    "'" + folded + "' is not a legal action here");
}

std::uint64_t Game::perft(const State& state, int depth) const {
  if (depth <= 0) return 1;
  std::vector<Action> legal;
  state.legal_actions(legal);
  if (depth == 1) return legal.size();
  std::uint64_t n = 0;
  for (Action a : legal) {
    auto next = state.clone();
    next->apply(a);
    n += next->outcome().over() ? 1 : perft(*next, depth - 1);
  }
  return n;
}

Result<std::unique_ptr<State>> Game::start(std::string_view options_text) const {
  auto options = Options::parse_text(option_specs(), options_text);
  if (!options) return options.error();
  return start(*options);
}

std::string fold_spaces(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::vector<std::string_view> split_words(std::string_view folded) {
  std::vector<std::string_view> out;
  while (!folded.empty()) {
    auto sp = folded.find(' ');
    out.push_back(folded.substr(0, sp));
    folded = sp == std::string_view::npos ? std::string_view{} : folded.substr(sp + 1);
  }
  return out;
}

}  // namespace cinq
