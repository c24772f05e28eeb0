#!/usr/bin/env bash
# Builds Cinq and runs the whole test suite (ctest). Exits non-zero if any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/check-standalone.sh
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "${JOBS:-2}"
