#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/, each for SECONDS (default 60), FUZZ_JOBS (default 2) at a time, with
# AddressSanitizer and UndefinedBehaviorSanitizer, and prints a line per target: executions, coverage
# (libFuzzer's cov: and ft:), corpus size, crashes. Exits 1 if any target crashed; the input that did is in
# build-asan/fuzz-artifacts/TARGET/.
#
#   scripts/fuzz.sh                      every target for 60 s (what CI runs)
#   scripts/fuzz.sh --seconds 3600 record   one target for an hour
#   scripts/fuzz.sh --timeout 60 ...        an input running longer than 60 s is a failure (default 10; raise
#                                           it when the fuzzers share the machine with other heavy work)
#
# Targets: record (every game's record reader), mail (a player's mail: MIME, charsets, the reply's record
# lines), command (the WebSocket command handler without a network),
# http (HTTP targets and queries). Seeds: tests/data (records of all five games), tests/data/fuzz/; the
# corpus each run grows is kept in build-asan/fuzz-corpus/TARGET/ and used again by the next run.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=60
TIMEOUT=10
TARGETS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_EACH=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    -h|--help) sed -n 2,14p "$0"; exit 0 ;;
    record|mail|command|http) TARGETS+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(record mail command http)
BUILD_DIR=${SANITIZE_BUILD_DIR:-build-asan}
scripts/build-sanitized.sh fuzzers
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One target: its run, then its line (and its log's tail if it failed) into $BUILD_DIR/fuzz-TARGET.result;
# exits non-zero if it crashed.
run_target() {
  local t=$1 seeds corpus artifacts log mark status execs last cov ft crashes
  corpus="$BUILD_DIR/fuzz-corpus/$t"
  artifacts="$BUILD_DIR/fuzz-artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  case "$t" in
    # The records, and each game's test data (the games of rules/games.inc).
    record) seeds=(tests/data/records $(sed -n 's|^CINQ_GAME(\(.*\))$|tests/data/\1|p' rules/games.inc)) ;;
    mail) seeds=(tests/data/mail) ;;
    *) seeds=("tests/data/fuzz/$t") ;;
  esac
  log="$BUILD_DIR/fuzz-$t.log"
  mark="$BUILD_DIR/fuzz-$t.start"  # crashes are the artifacts newer than it (the log changes to the end)
  : > "$log"
  touch "$mark"
  set +e
  "$BUILD_DIR/fuzz/fuzz_$t" "$corpus" "${seeds[@]}" -max_total_time="$SECONDS_EACH" -max_len=16384 \
    -timeout="$TIMEOUT" -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" > "$log" 2>&1
  status=$?
  set -e
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  # The last progress line (none when the fuzzer stopped at once): awk, not `grep | tail`, whose grep fails
  # the assignment under pipefail when nothing matches.
  last=$(awk '/^#[0-9]+/ {line = $0} END {print line}' "$log")
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
  # crash-, leak-, timeout- and oom- files; slow-unit- files (an input over 10 s) are not failures.
  crashes=$(find "$artifacts" -type f \( -newer "$mark" -o -cnewer "$mark" \) ! -name 'slow-unit-*' | sort -u | wc -l)
  {
    echo "fuzz $t: ${SECONDS_EACH} s, ${execs} executions, cov ${cov:-?}, ft ${ft:-?}, corpus $(find "$corpus" -type f | wc -l) inputs, crashes ${crashes}, exit ${status}"
    if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then tail -40 "$log"; fi
  } > "$BUILD_DIR/fuzz-$t.result"
  [ "$status" -eq 0 ] && [ "$crashes" -eq 0 ]
}

# Each fuzzer is one process on one core: FUZZ_JOBS of them at once take the same minute each in less time.
failed=0
jobs_at_once=${FUZZ_JOBS:-2}
[[ $jobs_at_once =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: FUZZ_JOBS must be a whole number from 1" >&2; exit 2; }
for ((i = 0; i < ${#TARGETS[@]}; i += jobs_at_once)); do
  pids=()
  for t in "${TARGETS[@]:i:jobs_at_once}"; do
    rm -f "$BUILD_DIR/fuzz-$t.result"  # a line from an earlier run must not stand for this one
    run_target "$t" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  for t in "${TARGETS[@]:i:jobs_at_once}"; do
    cat "$BUILD_DIR/fuzz-$t.result" 2> /dev/null || echo "fuzz $t: no result (the script failed before the end)"
  done
done
exit $failed
