// libFuzzer target: reading a mail as a player sends it (mail/read.h): any bytes as a raw message, its text
// part whatever the MIME structure, transfer encoding and charset, then the lines of a reply and the record
// lines among them, and the same bytes as HTML. Nothing may crash, hang or grow without bound, and the record
// lines read again are the same lines (what the server plays is a fixed point of the reader).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "mail/read.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view raw(reinterpret_cast<const char*>(data), size);
  (void)cinq::mail::html_to_text(raw);
  std::string error;
  auto mail = cinq::mail::read_message(raw, error);
  if (!mail) {
    if (error.empty()) std::abort();  // a refusal always says why
    return 0;
  }
  const std::string lines = cinq::mail::record_lines(cinq::mail::fresh_text(mail->text));
  if (cinq::mail::record_lines(lines) != lines) std::abort();
  return 0;
}
