#!/usr/bin/env bash
# A Cinq cluster on this machine's loopback: a throwaway PostgreSQL and Redis, three `cinq serve`
# nodes sharing them, and HAProxy in front (docker/haproxy.cfg, the one the containers use). For demos, checks
# by hand ("a game played across nodes while nodes are killed and restarted") and load through a cluster
# (cinq_load --urls). Everything lives in one directory: data, logs, pid files.
#   scripts/cluster.sh up               start what is not running; wait until HAProxy answers /api/health
#   scripts/cluster.sh down [--purge]   stop everything, the nodes first (SIGTERM: they hand their rooms
#                                       over); --purge also removes the directory (the games with it)
#   scripts/cluster.sh status           what runs, where (exit 3 if a part does not)
#   scripts/cluster.sh kill NODE        SIGKILL one node (n1, n2, ...): a crash
#   scripts/cluster.sh stop NODE        SIGTERM one node and wait: a drain
#   scripts/cluster.sh start NODE       start it again, on its port
# Environment (read by `up` on a stopped cluster and kept in DIR/cluster.env for the other commands):
#   CINQ_CLUSTER_DIR     the directory (default cluster/ in the repository; git-ignored)
#   CINQ_PORT            HAProxy's port (default 8080); the nodes take the next ones (8081, 8082, 8083),
#                        then PostgreSQL (8084) and Redis (8085)
#   CINQ_NODES           how many nodes (default 3)
#   CINQ_NODE_ARGS       more `cinq serve` options for every node, e.g. for load from one address through
#                        HAProxy: "--per-address-connections 0 --per-address-rate 0 --http-rate 0
#                        --http-connections-per-address 0"
#   CINQ_DB_PASSWORD     the PostgreSQL role cinq's password (default cinq)
#   CINQ_TLS_PEM         HAProxy terminates TLS with this PEM file (certificate, chain, key): https:// and wss://
#   CINQ_CLUSTER_SINGLE  1: nodes without --bus and --node, independent servers on one database (debugging)
#   BUILD_DIR            where cinq is built (default build)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
DIR=${CINQ_CLUSTER_DIR:-$REPO/cluster}
CINQ=$REPO/${BUILD_DIR:-build}/server/cinq
NODE_STOP_SECONDS=15  # a draining node exits within a few seconds; then SIGKILL

die() { echo "cluster: $*" >&2; exit 1; }
say() { echo "cluster: $*"; }

# --- settings, kept while anything runs --------------------------------------------------------------
# `up` on a stopped cluster reads the environment; every other time, the settings it saved.
load_settings() {
  if [ -f "$DIR/cluster.env" ] && { [ "$1" != up ] || any_running; }; then
    # shellcheck source=/dev/null
    . "$DIR/cluster.env"
  else
    PORT=${CINQ_PORT:-8080}
    NODES=${CINQ_NODES:-3}
    NODE_ARGS=${CINQ_NODE_ARGS:-}
    DB_PASSWORD=${CINQ_DB_PASSWORD:-cinq}
    SINGLE=${CINQ_CLUSTER_SINGLE:-0}
  fi
  [[ $PORT =~ ^[0-9]+$ && $NODES =~ ^[1-9]$ ]] || die "CINQ_PORT must be a port and CINQ_NODES 1 to 9"
  PG_PORT=$((PORT + NODES + 1))
  REDIS_PORT=$((PORT + NODES + 2))
  [ "$REDIS_PORT" -le 65535 ] || die "CINQ_PORT $PORT is too high for $NODES nodes"
  STORE="postgresql://cinq:$DB_PASSWORD@127.0.0.1:$PG_PORT/cinq"
  BUS="redis://127.0.0.1:$REDIS_PORT"
}
save_settings() {
  printf 'PORT=%q\nNODES=%q\nNODE_ARGS=%q\nDB_PASSWORD=%q\nSINGLE=%q\n' \
    "$PORT" "$NODES" "$NODE_ARGS" "$DB_PASSWORD" "$SINGLE" >"$DIR/cluster.env"
}
node_names() { local i; for ((i = 1; i <= NODES; i++)); do echo "n$i"; done; }
node_list() { node_names | paste -sd ' '; }
node_port() { echo $((PORT + ${1#n})); }

# --- processes -----------------------------------------------------------------------------------------
# The pid in DIR/NAME.pid if that process runs and is PROGRAM (a pid file outlives a reboot).
running_pid() {
  local file=$DIR/$1.pid pid
  [ -f "$file" ] || return 1
  pid=$(cat "$file")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  [[ "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" == *"$2"* ]] || return 1
  echo "$pid"
}
# Whether the process started as NAME still lives (its command line may not be its own yet: between the
# fork and the exec it is this shell's).
spawned_alive() {
  local pid
  pid=$(cat "$DIR/$1.pid" 2>/dev/null) && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}
pg_pid() {
  local pid
  pid=$(head -n1 "$DIR/postgres/postmaster.pid" 2>/dev/null) || return 1
  kill -0 "$pid" 2>/dev/null && grep -q postgres "/proc/$pid/comm" && echo "$pid"
}
any_running() {
  local n
  pg_pid >/dev/null || running_pid redis redis-server >/dev/null || running_pid haproxy haproxy >/dev/null && return 0
  for n in "$DIR"/n*.pid; do [ -f "$n" ] && running_pid "$(basename "$n" .pid)" " serve " >/dev/null && return 0; done
  return 1
}
# Starts a command in its own session, output appended to DIR/NAME.log, pid in DIR/NAME.pid. A background
# job of a script is no process group leader, so setsid execs without forking: $! is the program's pid.
spawn() {
  local name=$1; shift
  echo "== $(date -u '+%F %T') $*" >>"$DIR/$name.log"
  setsid "$@" >>"$DIR/$name.log" 2>&1 </dev/null &
  echo $! >"$DIR/$name.pid"
}
# Sends SIG to the pid, waits up to SECONDS for it to go, then SIGKILL.
end_process() {
  local pid=$1 sig=$2 seconds=$3 i
  kill -s "$sig" "$pid" 2>/dev/null || return 0
  for ((i = 0; i < seconds * 10; i++)); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  echo "cluster: pid $pid still runs after ${seconds} s: SIGKILL" >&2
  kill -s KILL "$pid" 2>/dev/null || true
}
port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
need_port() { ! port_taken "$1" || die "port $1 (for $2) is taken by another program: set CINQ_PORT to move the cluster"; }
# The whole HTTP/1.0 answer to GET PATH on 127.0.0.1:PORT (nothing if none within 3 s).
http_get() {
  # shellcheck disable=SC2016  # $0 and $1 are the inner shell's
  timeout 3 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0" && printf "GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n" "$1" >&3 && cat <&3' \
    "$1" "$2" 2>/dev/null || true
}
http_status() { http_get "$1" "$2" | awk 'NR == 1 {print $2}'; }  # awk reads it all: no SIGPIPE upstream
# HAProxy's answer: over HTTPS when it terminates TLS (CINQ_TLS_PEM; its certificate is not checked here).
balancer_status() {
  if [ -n "${CINQ_TLS_PEM:-}" ]; then
    curl -sk -o /dev/null -w '%{http_code}' --max-time 3 "https://127.0.0.1:$1$2" 2>/dev/null || true
  else
    http_status "$1" "$2"
  fi
}
balancer_url() { if [ -n "${CINQ_TLS_PEM:-}" ]; then echo "https://127.0.0.1:$PORT/"; else echo "http://127.0.0.1:$PORT/"; fi; }
log_tail() { echo "--- the end of $DIR/$1.log ---" >&2; tail -n 20 "$DIR/$1.log" >&2; }

# --- PostgreSQL (as an unprivileged user when root: it refuses to run as root) -------------------------
pg_bin() {
  local d="" b
  for b in /usr/lib/postgresql/*/bin; do [ -x "$b/initdb" ] && d=$b; done  # the newest last
  [ -x "$d/initdb" ] || die "no PostgreSQL server (/usr/lib/postgresql/N/bin): scripts/install-deps.sh installs it"
  echo "$d"
}
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
start_postgres() {
  if pg_pid >/dev/null; then say "postgres runs already (port $PG_PORT)"; return; fi
  need_port "$PG_PORT" postgres
  local bin fresh=0
  bin=$(pg_bin)
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || die "PostgreSQL will not run as root, and there is no user postgres (apt-get install postgresql)"
    mkdir -p "$DIR/postgres" && chown postgres: "$DIR/postgres" && chmod 700 "$DIR/postgres"
    runuser -u postgres -- test -w "$DIR/postgres" ||
      die "the user postgres cannot reach $DIR (a parent directory is closed to it): set CINQ_CLUSTER_DIR elsewhere, e.g. /tmp/cinq-cluster"
  fi
  if [ ! -s "$DIR/postgres/PG_VERSION" ]; then
    say "initdb in $DIR/postgres"
    printf '%s\n' "$DB_PASSWORD" >"$DIR/pwfile"
    [ "$(id -u)" = 0 ] && chown postgres: "$DIR/pwfile"
    as_pg "$bin/initdb" -D "$DIR/postgres" -U cinq --pwfile="$DIR/pwfile" --auth-local=trust \
      --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 ||
      { rm -f "$DIR/pwfile"; log_tail initdb; die "initdb failed"; }
    rm -f "$DIR/pwfile"
    fresh=1
  fi
  touch "$DIR/postgres.log" && { [ "$(id -u)" != 0 ] || chown postgres: "$DIR/postgres.log"; }
  # TCP on loopback only, no Unix socket (its directory may be closed to us, or its path too long).
  as_pg "$bin/pg_ctl" -D "$DIR/postgres" -l "$DIR/postgres.log" -w -t 60 \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k '' -c max_connections=200" start >/dev/null ||
    { log_tail postgres; die "PostgreSQL did not start"; }
  if [ "$fresh" = 1 ]; then
    PGPASSWORD=$DB_PASSWORD "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U cinq cinq || die "createdb failed"
  fi
  say "postgres on port $PG_PORT (pid $(pg_pid))"
}
stop_postgres() {
  pg_pid >/dev/null || return 0
  as_pg "$(pg_bin)/pg_ctl" -D "$DIR/postgres" -m fast -w -t 30 stop >/dev/null && say "postgres stopped"
}

# --- Redis, HAProxy, nodes -----------------------------------------------------------------------------
start_redis() {
  if running_pid redis redis-server >/dev/null; then say "redis runs already (port $REDIS_PORT)"; return; fi
  need_port "$REDIS_PORT" redis
  command -v redis-server >/dev/null || die "no redis-server: scripts/install-deps.sh installs it"
  mkdir -p "$DIR/redis"
  # The bus carries messages in flight: nothing to keep across a restart.
  spawn redis redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$DIR/redis" \
    --daemonize no --logfile ''
  local i
  for ((i = 0; i < 100; i++)); do
    [ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ] && { say "redis on port $REDIS_PORT (pid $(cat "$DIR/redis.pid"))"; return; }
    spawned_alive redis || break
    sleep 0.1
  done
  log_tail redis; die "Redis did not start"
}
start_node() {
  local n=$1 port pid offset i args
  port=$(node_port "$n")
  if pid=$(running_pid "$n" " serve "); then say "$n runs already (port $port, pid $pid)"; return; fi
  need_port "$port" "$n"
  mkdir -p "$DIR/$n"
  args=(serve --store "$STORE" --port "$port" --address 127.0.0.1 --web "$REPO/web-client" --data "$DIR/$n")
  [ "$SINGLE" = 1 ] || args+=(--bus "$BUS" --node "$n")
  # HAProxy is the peer of every client: its X-Forwarded-For names them, so the per-address limits hold.
  args+=(--trusted-proxy 127.0.0.1)
  # shellcheck disable=SC2206
  args+=($NODE_ARGS)
  offset=$(stat -c %s "$DIR/$n.log" 2>/dev/null || echo 0)
  spawn "$n" "$CINQ" "${args[@]}"
  for ((i = 0; i < 300; i++)); do
    [[ "$(tail -c +$((offset + 1)) "$DIR/$n.log")" == *"listening on http://"* ]] &&
      { say "$n on port $port (pid $(cat "$DIR/$n.pid"))"; return; }
    spawned_alive "$n" || break
    sleep 0.1
  done
  log_tail "$n"; die "$n did not start"
}
stop_node() {
  local pid
  pid=$(running_pid "$1" " serve ") || return 0
  end_process "$pid" TERM "$NODE_STOP_SECONDS"
  say "$1 stopped"
}
start_haproxy() {
  if running_pid haproxy haproxy >/dev/null; then say "haproxy runs already (port $PORT)"; return; fi
  need_port "$PORT" haproxy
  command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || die "no haproxy: scripts/install-deps.sh installs it"
  local n haproxy i
  haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)
  # The shipped configuration with the loopback nodes as its servers (they stay last in it).
  { grep -Ev '^[[:space:]]*server[[:space:]]' "$REPO/docker/haproxy.cfg"
    for n in $(node_names); do echo "  server $n 127.0.0.1:$(node_port "$n")"; done; } >"$DIR/haproxy.cfg"
  CINQ_HAPROXY_BIND=127.0.0.1:$PORT "$haproxy" -c -q -f "$DIR/haproxy.cfg" || die "$DIR/haproxy.cfg is not valid"
  CINQ_HAPROXY_BIND=127.0.0.1:$PORT spawn haproxy "$haproxy" -db -f "$DIR/haproxy.cfg"
  for ((i = 0; i < 100; i++)); do
    [ "$(balancer_status "$PORT" /api/health)" = 200 ] && { say "haproxy on port $PORT (pid $(cat "$DIR/haproxy.pid"))"; return; }
    spawned_alive haproxy || break
    sleep 0.1
  done
  log_tail haproxy; die "HAProxy does not answer /api/health on port $PORT"
}

# --- commands ------------------------------------------------------------------------------------------
up() {
  [ -x "$CINQ" ] || die "no $CINQ: build it first (scripts/build.sh)"
  # The help read whole, then searched: `cinq ... | grep -q` fails under pipefail when grep quits before cinq
  # has written everything (SIGPIPE).
  if [ "$SINGLE" != 1 ] && [[ "$("$CINQ" serve --help 2>&1 || true)" != *--bus* ]]; then
    die "this cinq has no --bus (a single-node build): CINQ_CLUSTER_SINGLE=1 runs the nodes as independent servers"
  fi
  # Every port first, so that a taken one stops nothing half-way.
  local n
  pg_pid >/dev/null || need_port "$PG_PORT" postgres
  running_pid redis redis-server >/dev/null || need_port "$REDIS_PORT" redis
  for n in $(node_names); do running_pid "$n" " serve " >/dev/null || need_port "$(node_port "$n")" "$n"; done
  running_pid haproxy haproxy >/dev/null || need_port "$PORT" haproxy
  mkdir -p "$DIR"
  touch "$DIR/.cinq-cluster"
  save_settings
  start_postgres
  start_redis
  for n in $(node_names); do start_node "$n"; done
  start_haproxy
  echo
  echo "Cinq cluster up: $(balancer_url)  (HAProxy, leastconn, health checks every 500 ms)"
  status_lines || true
  echo "Logs and data in $DIR. Stop: scripts/cluster.sh down  (--purge also removes the data)"
}
down() {
  local purge=0 n
  [ "${1:-}" = --purge ] && purge=1
  [ -d "$DIR" ] || { say "nothing in $DIR"; return; }
  # The nodes together (each drains for its few seconds at the same time), then what they used.
  for n in $(node_names); do stop_node "$n" & done
  wait
  if pid=$(running_pid haproxy haproxy); then end_process "$pid" TERM 5; say "haproxy stopped"; fi
  if pid=$(running_pid redis redis-server); then end_process "$pid" TERM 5; say "redis stopped"; fi
  stop_postgres
  if [ "$purge" = 1 ]; then
    [ -f "$DIR/.cinq-cluster" ] || die "$DIR does not look like a cluster directory (no .cinq-cluster): not removed"
    rm -rf "$DIR" && say "removed $DIR"
  else
    say "data kept in $DIR (scripts/cluster.sh down --purge removes it)"
  fi
}
status_lines() {
  local n pid port health all=0
  printf '  %-9s %-8s %-8s %s\n' part state pid where
  if pid=$(running_pid haproxy haproxy); then
    health=$(balancer_status "$PORT" /api/health)
    printf '  %-9s %-8s %-8s %s\n' haproxy running "$pid" "$(balancer_url) (/api/health: ${health:-no answer})"
  else printf '  %-9s %-8s %-8s %s\n' haproxy stopped - "port $PORT"; all=3; fi
  for n in $(node_names); do
    port=$(node_port "$n")
    if pid=$(running_pid "$n" " serve "); then
      health=$(http_status "$port" /api/health)
      printf '  %-9s %-8s %-8s %s\n' "$n" "$([ "$health" = 503 ] && echo draining || echo running)" "$pid" \
        "http://127.0.0.1:$port/ (/api/health: ${health:-no answer})"
    else printf '  %-9s %-8s %-8s %s\n' "$n" stopped - "port $port"; all=3; fi
  done
  if pid=$(pg_pid); then printf '  %-9s %-8s %-8s %s\n' postgres running "$pid" "$STORE"
  else printf '  %-9s %-8s %-8s %s\n' postgres stopped - "port $PG_PORT"; all=3; fi
  if pid=$(running_pid redis redis-server); then printf '  %-9s %-8s %-8s %s\n' redis running "$pid" "$BUS"
  else printf '  %-9s %-8s %-8s %s\n' redis stopped - "port $REDIS_PORT"; all=3; fi
  return $all
}
node_arg() {
  [ -n "${1:-}" ] || die "which node? ($(node_list))"
  [[ " $(node_names | tr '\n' ' ') " == *" $1 "* ]] || die "no node $1 in this cluster ($(node_list))"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
load_settings "$cmd"
case "$cmd" in
  up) up ;;
  down) down "$@" ;;
  status) echo "Cinq cluster in $DIR"; status_lines ;;
  kill)
    node_arg "${1:-}"
    pid=$(running_pid "$1" " serve ") || die "$1 is not running"
    kill -s KILL "$pid" && say "$1 (pid $pid) killed: HAProxy takes it out within about a second" ;;
  stop) node_arg "${1:-}"; running_pid "$1" " serve " >/dev/null || die "$1 is not running"; stop_node "$1" ;;
  start)
    node_arg "${1:-}"
    if ! pg_pid >/dev/null || ! running_pid redis redis-server >/dev/null; then
      die "PostgreSQL or Redis is not running: scripts/cluster.sh up"
    fi
    start_node "$1" ;;
  "" | help | --help | -h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' ;;
  *) die "no command $cmd (up, down, status, kill, stop, start; scripts/cluster.sh help)" ;;
esac
