#include "server/cli.h"

int main(int argc, char** argv) { return cinq::cli_main(argc, argv); }
