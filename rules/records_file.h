// A file of several game records, one after another (docs/notation.md, "Several records in one file"):
// where each record starts, before any record is read.
#pragma once

#include <string_view>
#include <vector>

#include "rules/game.h"

namespace cinq {

// One record of a file: its text (a view into the file's text, from its `#!` line up to the next record's)
// and the file line its text starts at, so that a record's `line N` is the file's line `line + N - 1`.
struct RecordText {
  std::string_view text;
  int line = 1;
};

// The records of a file's text, in order. A text with at most one `#!` line is one record, the whole text
// from line 1, as Record::read takes it (a Baltek record may leave its `#!` line out, and a line before a
// lone `#!` line is that record's own error). With several, each starts at a `#!` line (spaces and tabs
// before it ignored, as on every record line); a non-blank line before the first is the error, with its
// line. Nothing is copied: the views are into `text`, which must outlive them.
Result<std::vector<RecordText>> split_records(std::string_view text);

}  // namespace cinq
