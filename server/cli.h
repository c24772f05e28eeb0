// The command-line tool's subcommands. CLI11 parses every command's arguments and writes its help (cli.cpp);
// a command's file adds its subcommand to the one `cinq` CLI::App and returns what runs it. This header
// names CLI11's types without including it (no CLI11, no Boost here: it is compiled quickly).
#pragma once

#include <functional>
#include <string>

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace cinq {

int cli_main(int argc, char** argv);

// What runs a command once its arguments are parsed; returns the exit status.
using Command = std::function<int()>;

// `cinq serve` (serve.cpp): runs the server until SIGINT/SIGTERM. Exit 0, 1 if it cannot start.
Command add_serve_command(CLI::App& cinq);
// `cinq mail-in` (mail_in_command.cpp): one mail on standard input, handed to a running server (an MTA's pipe).
Command add_mail_in_command(CLI::App& cinq);

// A usage error found once the arguments are parsed (one that depends on another argument, say): prints
// "cinq COMMAND: WHY", the command's usage line and where to read more on standard error; returns 2.
int usage_error(const CLI::App& command, const std::string& why);

// A CLI11 check that a value names a game of the registry ("unknown game 'x' (baltek, ...)" otherwise).
CLI::Validator known_game();

}  // namespace cinq
