// `cinq selfplay`: bot-vs-bot games written as records, to make test corpora and compare levels.
#pragma once

#include "server/cli.h"

namespace cinq {

// Adds `cinq selfplay GAME N [--level L] [--versus L2] [--out DIR] [--seed S] [--options "k=v ..."]
// [--think-ms MS] [--playouts P] [--jobs J]` to `cinq`. Its run exits 0, 1 if a game failed, or 2 on a usage
// error found after parsing (bad --options for the game).
Command add_selfplay_command(CLI::App& cinq);

}  // namespace cinq
