#!/usr/bin/env bash
# The C++ test suite under AddressSanitizer and UndefinedBehaviorSanitizer. Debian's clang, in
# build-asan/ (shared with scripts/fuzz.sh: the libraries are built once for both), building only what the
# suite needs: cinq, cinq_tests and cinq_ladder (its ctest). The server tests start the sanitized `cinq`, so a
# fault in the server fails the test that caused it. jemalloc is off in this build (the sanitizer brings its own allocator).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${SANITIZE_BUILD_DIR:-build-asan}
scripts/build-sanitized.sh cinq cinq_tests cinq_ladder
# Every report fails: ASan aborts, UBSan halts; leaks are reported at exit (a test that checks a clean exit
# fails on one).
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# The C++ suite only: the Python and browser suites test the protocol and the page, not memory. Also left to
# the plain build (stage 1): the Baltek bots' empty-turn count, 20 whole games of search that take 12 minutes
# under the sanitizers (33 s without) and run no code the other bot tests do not run here.
# The bots' strength (hundreds of searched games that check statistics, no code the other bot tests do not
# run), the cluster's fault rounds and its script's up/down (the plain build runs them; the cluster's own
# scenarios run here) are left to stage 1 as well.
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${JOBS:-2}" \
  -E '^(browser|protocol_python|patch_client|nonblocking|cluster_chaos|cluster_script|registry_one_list|Baltek bots of levels 1 to 3 seldom pass.*|bots: a small search beats random play clearly in every game|bots: levels grow in strength.*)$'
