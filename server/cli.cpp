#include "server/cli.h"

namespace cinq {

int cli_main(int, char**) { return 0; }

}  // namespace cinq
