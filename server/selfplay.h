// `cinq selfplay` (issue 11): bot-vs-bot games written as records, to make test corpora and compare levels.
#pragma once

#include <string>
#include <vector>

namespace cinq {

// `cinq selfplay GAME N [--level L] [--versus L2] [--out DIR] [--seed S] [--options "k=v ..."]
// [--think-ms MS] [--playouts P] [--jobs J]`. Exit 0, or 2 on a usage error (after the usage text).
int selfplay_main(const std::vector<std::string>& args);

}  // namespace cinq
