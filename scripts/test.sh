#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run, after scripts/install-deps.sh). Exits non-zero if any stage
# fails. Stages:
#   1. build/ (GCC): every suite through ctest: C++ (doctest), Python protocol, browser, chaos;
#   2. build-asan/ (clang): the C++ suite again under AddressSanitizer + UndefinedBehaviorSanitizer
#      (scripts/test-sanitized.sh);
#   3. the same build: each libFuzzer target for a bounded minute (scripts/fuzz.sh).
#   scripts/test.sh --quick   stage 1 only
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
stage() { echo "== $1 ($(date -u +%H:%M:%S))"; }
stage "standalone check, build, ctest"
scripts/check-standalone.sh
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "${JOBS:-2}"
[ "$quick" = 1 ] && exit 0
stage "the C++ suite under ASan + UBSan"
scripts/test-sanitized.sh
stage "fuzz targets, 60 s each"
scripts/fuzz.sh --seconds "${FUZZ_SECONDS:-60}"
stage "done"
