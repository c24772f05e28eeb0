// `cinq store copy FROM TO` (moves an installation between store backends), `cinq store backup DEST` (a backup
// while the server runs), `cinq store check STORE` (every game of a store or a backup replays).
#pragma once

#include "server/cli.h"

namespace cinq {

Command add_store_command(CLI::App& cinq);

}  // namespace cinq
