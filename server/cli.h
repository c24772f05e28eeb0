// The command-line tool's subcommands (no Boost here: this file is compiled quickly).
#pragma once

namespace cinq {

int cli_main(int argc, char** argv);

}  // namespace cinq
