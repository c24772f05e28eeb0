#!/usr/bin/env bash
# Installs what Cinq needs to build and test on Debian 12, as root. Used by README, .ci/run and docker/.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
# Boost must be libboost1.81-dev: plain libboost-dev is 1.74 and conflicts with it.
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake ninja-build ccache pkg-config git ca-certificates \
  libboost1.81-dev nlohmann-json3-dev libspdlog-dev libsqlite3-dev sqlite3 doctest-dev libbox2d-dev libcli11-dev libssl-dev libsodium-dev \
  libjemalloc-dev \
  clang libclang-rt-14-dev \
  python3 python3-websockets chromium \
  >/dev/null
# The browser tests need Node >= 18 (playwright-core 1.49): Debian 12's nodejs will do. A machine that has a
# node already keeps it (Debian's npm package conflicts with a newer node that bundles npm).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
