#!/usr/bin/env bash
# Configures (once) and builds the sanitizer build: Debian's clang, AddressSanitizer + UndefinedBehaviorSanitizer,
# libFuzzer's coverage, jemalloc off, in build-asan/ (SANITIZE_BUILD_DIR). Shared by scripts/test-sanitized.sh
# (targets cinq cinq_tests cinq_ladder) and scripts/fuzz.sh (target fuzzers): the libraries are built once for both.
#   scripts/build-sanitized.sh TARGET...
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${SANITIZE_BUILD_DIR:-build-asan}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # -O1 and line tables only: a sanitizer build compiles a third faster so, and its reports still name lines.
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCINQ_SANITIZE=address,undefined -DCINQ_FUZZ=ON
fi
cmake --build "$BUILD_DIR" -j "${JOBS:-2}" --target "$@"
