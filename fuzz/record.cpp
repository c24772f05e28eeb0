// libFuzzer target: the record reader of every game (rules/notation.h, docs/notation.md). A record names its
// game on its `#!` line; the seed corpus holds records of all five (tests/data). Whatever reads must write
// back to a text that reads to the same text again: the canonical form is a fixed point.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rules/notation.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto record = cinq::Record::read(text);
  if (!record) return 0;
  const std::string written = record->write();
  auto again = cinq::Record::read(written);
  if (!again || again->write() != written) std::abort();
  return 0;
}
