// The command-line tool's subcommands (no Boost here: this file is compiled quickly).
#pragma once

#include <string>
#include <vector>

namespace cinq {

int cli_main(int argc, char** argv);
// `cinq serve ...` (serve.cpp): runs the server until SIGINT/SIGTERM. Exit 0, or 2 on a usage error.
int serve_main(const std::vector<std::string>& args);

}  // namespace cinq
