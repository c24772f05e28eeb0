// The benchmarks' command lines, parsed by CLI11 (as `cinq`'s are): a tool defines its options on a CLI::App
// and calls parse_args, which turns --help and usage errors into the exit status to return.
#pragma once

#include <CLI/CLI.hpp>
#include <iostream>

namespace cinq::bench {

// -1 if the arguments were parsed; otherwise the status to exit with: 0 after --help (printed on standard
// output), 2 after a usage error (printed on standard error, naming the option at fault).
inline int parse_args(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
    return -1;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << app.get_name() << ": " << e.what() << "\n(see '" << app.get_name() << " --help')\n";
    return 2;
  }
}

}  // namespace cinq::bench
