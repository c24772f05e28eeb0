#!/bin/sh
# Runs the browser tests (ctest's `browser`): installs playwright-core from the lockfile when it is missing and
# runs `node run.mjs` against the cinq binary given as $1 (or $CINQ_BINARY), with the arguments after it,
# then the client's unit tests (`node --test unit/*.test.mjs`, no browser nor server). Fails if either fails.
set -eu
BINARY="${1:-${CINQ_BINARY:-}}"
[ "$#" -gt 0 ] && shift  # what follows the binary goes to run.mjs (--filter=WORDS)
case "$BINARY" in /* | "") ;; *) BINARY="$(pwd)/$BINARY" ;; esac  # relative to where it was called from
cd "$(dirname "$0")"
# playwright-core 1.49 runs on Node 18, Debian 12's own nodejs (and drives Debian's chromium 156 well).
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)'; then
  echo "browser tests: Node >= 18 is needed, found $(node --version)" >&2
  exit 1
fi
status=0
# The browser part first and the unit tests with the one-character reporter: ctest shows the start of a failed
# test's output, where a FAIL line is then.
test -d node_modules/playwright-core || npm ci --no-audit --no-fund
CINQ_BINARY="$BINARY" node run.mjs "$@" || status=1
CINQ_BINARY="$BINARY" node --test --test-reporter=dot unit/*.test.mjs || status=1
exit "$status"
