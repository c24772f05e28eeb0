// `cinq admin grant|revoke|list`: gives and takes the moderation roles on the server's machine (it opens the
// store, like `cinq store copy`); never over the network.
#pragma once

#include "server/cli.h"

namespace cinq {

Command add_admin_command(CLI::App& cinq);

}  // namespace cinq
