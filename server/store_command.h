// `cinq store copy FROM TO`: moves an installation between store backends.
#pragma once

#include "server/cli.h"

namespace cinq {

Command add_store_command(CLI::App& cinq);

}  // namespace cinq
