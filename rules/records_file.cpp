// Splitting a file of records at its `#!` lines (notation.md, "Several records in one file").
#include "rules/records_file.h"

namespace cinq {

namespace {

// The line with the spaces, tabs and carriage returns at its start removed, as parse_lines reads it.
std::string_view skip_blanks(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t' || line.front() == '\r'))
    line.remove_prefix(1);
  return line;
}

}  // namespace

Result<std::vector<RecordText>> split_records(std::string_view text) {
  std::string_view body = text;
  if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);  // a UTF-8 byte-order mark
  std::vector<RecordText> records;
  int first_text_line = 0;  // the first non-blank line before the first `#!` line, 0 if none
  int line = 0;
  for (std::size_t pos = 0; pos < body.size();) {
    std::size_t nl = body.find('\n', pos);
    if (nl == std::string_view::npos) nl = body.size();
    const std::string_view s = skip_blanks(body.substr(pos, nl - pos));
    ++line;
    if (s.substr(0, 2) == "#!")
      records.push_back({body.substr(pos), line});  // cut at the next record's start below
    else if (records.empty() && !s.empty() && first_text_line == 0)
      first_text_line = line;
    pos = nl + 1;
  }
  if (records.size() <= 1) return std::vector<RecordText>{{text, 1}};
  if (first_text_line > 0)
    return make_error(ErrorCode::text_before_header, {},
                      "text before the first #! line (each record of a file of several starts with its own)",
                      first_text_line);
  for (std::size_t k = 0; k + 1 < records.size(); ++k)
    records[k].text.remove_suffix(records[k + 1].text.size());
  return records;
}

}  // namespace cinq
