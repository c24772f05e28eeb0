#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run, after scripts/install-deps.sh). Exits non-zero if any stage
# fails. Stages:
#   1. build/ (GCC): every suite through ctest: C++ (doctest), Python protocol, browser, chaos; the
#      sanitizer build of stages 2 and 3 compiles meanwhile, at the lowest priority;
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
asan_build=""
if [ "$quick" = 0 ]; then
  # The sanitizer build (stages 2 and 3) compiles meanwhile, at the lowest priority: the suite below waits
  # on clocks, leases and browsers much of the time, and the build takes what the tests leave idle.
  asan_log=$(mktemp --suffix=.cinq-asan-build.log)
  nice -n 19 scripts/build-sanitized.sh cinq cinq_tests cinq_ladder fuzzers > "$asan_log" 2>&1 &
  asan_build=$!
fi
status=0
# Three at a time: the suites wait on clocks, servers and pages much more than they compute (the tests that time
# something run alone: RUN_SERIAL, or the browser's `alone` list).
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "${CTEST_JOBS:-3}" || status=$?
if [ -n "$asan_build" ]; then
  build_status=0
  wait "$asan_build" || build_status=$?
  if [ "$build_status" != 0 ]; then
    tail -60 "$asan_log" >&2
    echo "the sanitizer build failed (its log: $asan_log)" >&2
    exit "$build_status"
  fi
fi
[ "$status" = 0 ] || exit "$status"
[ "$quick" = 1 ] && exit 0
stage "the C++ suite under ASan + UBSan"
scripts/test-sanitized.sh
stage "fuzz targets, 60 s each"
scripts/fuzz.sh --seconds "${FUZZ_SECONDS:-60}"
stage "done"
