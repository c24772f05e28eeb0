#!/usr/bin/env bash
# Installs what Cinq needs to build and test on Debian 12, as root. Used by README, .ci/run and docker/.
#   scripts/install-deps.sh           everything: the build, the tests (clang for the sanitizers and fuzzers,
#                                     PostgreSQL for the store tests, Redis and HAProxy for the cluster
#                                     tests, Postfix for the mail tests, Chromium and Node for the browser tests)
#   scripts/install-deps.sh --build   what building `cinq` needs, nothing more (docker/Dockerfile's build stage)
set -euo pipefail
BUILD_ONLY=0
if [ "${1:-}" = "--build" ]; then BUILD_ONLY=1; fi
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
# Boost must be libboost1.81-dev: plain libboost-dev is 1.74 and conflicts with it.
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake ninja-build ccache pkg-config git ca-certificates \
  libboost1.81-dev nlohmann-json3-dev libspdlog-dev libsqlite3-dev doctest-dev libbox2d-dev libcli11-dev libssl-dev libsodium-dev \
  libjemalloc-dev libpq-dev libhiredis-dev libcurl4-openssl-dev libhowardhinnant-date-dev tzdata \
  >/dev/null
if [ "$BUILD_ONLY" = 1 ]; then exit 0; fi
# The tests: the sanitizers and fuzzers (clang), a real PostgreSQL started by the tests themselves
# (tests/support/postgres.h: Debian's server binaries, never its service), Redis and HAProxy for the cluster
# (tests/support/redis.h, haproxy.h, scripts/cluster.sh: each started on free ports of its own), the Python
# clients, the browser. Where the packages start their services (an init system, or invoke-rc.d), Redis
# listens on 127.0.0.1:6379 and HAProxy's default configuration on no port: no test uses either.
# Postfix for the mail tests (tests/support/postfix.h: an instance of its own per test, on free ports): its
# package is told to configure no system mail ("No configuration"), so no question is asked and nothing
# listens on port 25. openssl makes the TLS tests' self-signed certificates; postgresql-client's pg_dump is what
# `cinq store backup` runs for a PostgreSQL store; curl is scripts/cluster.sh's check of a TLS balancer.
echo "postfix postfix/main_mailer_type select No configuration" | $SUDO debconf-set-selections
$SUDO apt-get install -y -qq --no-install-recommends \
  sqlite3 clang libclang-rt-14-dev postgresql postgresql-client redis-server haproxy postfix openssl curl \
  python3 python3-websockets chromium \
  >/dev/null
# The browser tests need Node >= 18 (playwright-core 1.49): Debian 12's nodejs will do. A machine that has a
# node already keeps it (Debian's npm package conflicts with a newer node that bundles npm).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
