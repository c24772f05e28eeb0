#!/usr/bin/env python3
"""The store's two backends side by side in one run: SQLite and PostgreSQL, on the same disk.

    python3 bench/store_backends.py [--rooms 1000] [--turn-rate 5000] [--duration 60] [--warmup 20]
        [--cinq build/server/cinq] [--load build/bench/cinq_load] [--bench-store build/bench/cinq_bench_store]
        [--bench-store-args "--modes single,64 --runs 3"] [--skip-bench-store] [--skip-load]
        [--wait-quiet 1.5] [--json FILE]
        (for diagnosis: [--backends sqlite,postgresql] [--pg-setting NAME=VALUE ...] [--report-every S])

Run it from the repository's root, as root or not, on a machine with Debian's postgresql package
(/usr/lib/postgresql/N/bin). It

1. starts a throwaway PostgreSQL: `initdb -U cinq --auth=trust` in a new directory under $TMPDIR (/tmp), given
   to the `postgres` user when run as root (PostgreSQL refuses root), `pg_ctl start` on a free port of
   127.0.0.1 with its socket in that directory, as tests/support/postgres.cpp does; durability as shipped
   (fsync on, synchronous_commit on, full_page_writes on), max_connections 200. It is stopped and its
   directory removed at the end, also on Ctrl-C or SIGTERM.
2. runs cinq_bench_store with the same arguments twice: on SQLite (a file under $TMPDIR: --dir) and with
   `--store postgresql://cinq@127.0.0.1:PORT/cinq_bench` (each run of the bench makes its own schema there),
   and prints the two tables' medians side by side.
3. starts `cinq serve` on SQLite (--data in a new directory under /tmp) and runs cinq_load against it
   (--rooms, --turn-rate, --warmup, --duration, no baseline), then the same against a `cinq serve --store
   postgresql://cinq@127.0.0.1:PORT/cinq_load` (a new, empty database). Over the measured window (from the
   load's "ready" line + --warmup, for --duration) it samples the server's /metrics (commits, rows, the
   commit time histogram), the CPU of every PostgreSQL process (/proc/PID/stat of the postmaster's
   children), PostgreSQL's WAL counters (pg_stat_wal) and the machine's CPU (/proc/stat), and prints a table:
   backend, turns/s, ack p50/p99, server CPU %, PostgreSQL CPU % (100 = one core), commits/s, mean and p99
   commit time, rows per commit, WAL fsyncs/s, machine busy %, the 1-minute load average. The PostgreSQL
   figures are read through a psql session opened before the load starts: starting processes at the window's
   edges (a psql, and the backend PostgreSQL forks for it) stalled the saturated 2-core machine for 50-150 ms,
   which alone set the p99 of a run.

--wait-quiet L waits (polling every minute, at most 30 minutes) until the 1-minute load average is under L
before each measured part (a part's own load shows there too: the next part waits a minute or two for it to
decay). --pg-setting passes `-c NAME=VALUE` to the cluster (track_wal_io_timing=on adds
the WAL's write and fsync times to the figures; the comparison is meant with durability as shipped). With
TMPDIR=/dev/shm, both stores and the cluster are on tmpfs: the same load without the disk. Exit status: 0
done, 1 something failed (its output is printed).
"""

import argparse
import glob
import json
import os
import pwd
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

CLK_TCK = os.sysconf("SC_CLK_TCK")


def log(text):
    print(f"store_backends: {text}", flush=True)


def loadavg():
    return float(open("/proc/loadavg").read().split()[0])


def wait_quiet(limit, most_s=1800):
    """Until the 1-minute load average is under `limit`, polling every minute, at most `most_s` seconds."""
    if limit <= 0:
        return
    deadline = time.time() + most_s
    while loadavg() >= limit and time.time() < deadline:
        log(f"load average {loadavg():.2f} >= {limit}: waiting a minute")
        time.sleep(60)
    log(f"load average {loadavg():.2f}" + (" (gave up waiting)" if loadavg() >= limit else ""))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    """User + system CPU seconds of a process (all its threads), from /proc; None if it is gone."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return None


def machine_busy():
    """(busy, total) jiffies of all CPUs from /proc/stat."""
    v = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    idle = v[3] + v[4]
    return sum(v) - idle, sum(v)


class Postgres:
    """A throwaway cluster (see the docstring), owned by the `postgres` user when we are root."""

    def __init__(self, settings=()):
        self.settings = list(settings)
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
        if not bins:
            raise RuntimeError("no /usr/lib/postgresql/N/bin/initdb (scripts/install-deps.sh installs it)")
        self.bin = os.path.dirname(bins[-1])
        self.dir = tempfile.mkdtemp(prefix="cinq-pg-bench-")
        self.user = None
        if os.geteuid() == 0:
            self.user = "postgres"
            pw = pwd.getpwnam(self.user)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self.port = None
        self.running = False

    def as_owner(self, command):
        line = command if self.user is None else f"runuser -u {self.user} -- sh -c {shlex.quote(command)}"
        return subprocess.run(line, shell=True).returncode

    def start(self):
        data = os.path.join(self.dir, "data")
        init = (f"{shlex.quote(self.bin + '/initdb')} -D {shlex.quote(data)} -U cinq --auth=trust --encoding=UTF8 "
                f"--locale=C.UTF-8 >{shlex.quote(self.dir + '/initdb.log')} 2>&1")
        if self.as_owner(init) != 0:
            raise RuntimeError("initdb failed:\n" + open(self.dir + "/initdb.log").read())
        self.port = free_port()
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=200"
        for setting in self.settings:
            options += f" -c {setting}"
        start = (f"{shlex.quote(self.bin + '/pg_ctl')} -D {shlex.quote(data)} -l {shlex.quote(self.dir + '/server.log')} "
                 f"-w -t 60 -o {shlex.quote(options)} start >/dev/null 2>&1")
        if self.as_owner(start) != 0:
            raise RuntimeError("PostgreSQL did not start:\n" + open(self.dir + "/server.log").read())
        self.running = True

    def stop(self):
        if self.running:
            self.as_owner(f"{shlex.quote(self.bin + '/pg_ctl')} -D {shlex.quote(self.dir + '/data')} -m immediate -w "
                          f"stop >/dev/null 2>&1")
            self.running = False
        shutil.rmtree(self.dir, ignore_errors=True)

    def uri(self, db="postgres"):
        return f"postgresql://cinq@127.0.0.1:{self.port}/{db}"

    def sql(self, query, db="postgres"):
        """The output of psql -At (rows of |-separated values)."""
        out = subprocess.run([self.bin + "/psql", "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.uri(db),
                              "-c", query], capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"psql: {query}: {out.stderr.strip()}")
        return out.stdout.strip()

    def session(self):
        """A psql kept open (its backend too): a query through it spawns no process, which would disturb the
        load's latency on a busy machine. Returns a function from one query (one row) to its output line."""
        proc = subprocess.Popen([self.bin + "/psql", "-X", "-A", "-t", "-q", "-d", self.uri()], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)

        def query(sql):
            if sql is None:
                proc.stdin.close()
                return proc.wait(10)
            proc.stdin.write(sql.rstrip(";") + ";\n")
            proc.stdin.flush()
            return proc.stdout.readline().strip()
        return query

    def postmaster(self):
        return int(open(os.path.join(self.dir, "data", "postmaster.pid")).readline())

    def processes(self):
        """{pid: (role, cpu seconds)} of the postmaster and its children."""
        root = self.postmaster()
        out = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            pid = int(entry)
            try:
                stat = open(f"/proc/{pid}/stat").read()
                ppid = int(stat.rsplit(")", 1)[1].split()[1])
                if pid != root and ppid != root:
                    continue
                role = open(f"/proc/{pid}/cmdline").read().replace("\0", " ").strip()
            except (OSError, ValueError, IndexError):
                continue
            cpu = cpu_seconds(pid)
            if cpu is not None:
                out[pid] = (role, cpu)
        # The children that exited (autovacuum workers, ...): their CPU is in the postmaster's cutime and cstime.
        try:
            fields = open(f"/proc/{root}/stat").read().rsplit(")", 1)[1].split()
            out["exited"] = ("exited processes", (int(fields[13]) + int(fields[14])) / CLK_TCK)
        except (OSError, IndexError, ValueError):
            pass
        return out


def metrics(port):
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    except OSError:
        return ""


def counter(text, name):
    m = re.search(r"^" + name + r"(?:\{[^}]*\})? ([-\d.e+]+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


def histogram(text, name):
    buckets = [(float("inf") if b == "+Inf" else float(b), int(c))
               for b, c in re.findall(name + r'_bucket\{le="([^"]+)"\} (\d+)', text)]
    return buckets, counter(text, name + "_sum"), counter(text, name + "_count")


def bucket_quantile(before, after, q):
    """The bucket bound under which a fraction q of the observations between two samples fall."""
    deltas = [(b, a - c) for (b, a), (_, c) in zip(after, before)]
    if not deltas or deltas[-1][1] <= 0:
        return 0.0
    for bound, n in deltas:
        if n >= q * deltas[-1][1]:
            return bound
    return deltas[-1][0]


class Window:
    """What the server, PostgreSQL and the machine did over the load's measured window."""

    def __init__(self, port, pg, pg_db):
        self.port, self.pg, self.pg_db = port, pg, pg_db
        self.query = pg.session() if pg is not None else None

    def close(self):
        if self.query:
            self.query(None)

    def sample(self):
        s = {"t": time.time(), "metrics": metrics(self.port), "busy": machine_busy(), "loadavg": loadavg()}
        if self.pg is not None:
            s["pg"] = self.pg.processes()
            try:
                s["wal"] = [float(x) for x in self.query(
                    "SELECT wal_records, wal_bytes, wal_write, wal_sync, wal_write_time, wal_sync_time, "
                    "wal_buffers_full FROM pg_stat_wal").split("|")]
                s["checkpoints"] = self.query(
                    "SELECT checkpoints_timed + checkpoints_req, buffers_checkpoint FROM pg_stat_bgwriter")
                s["xact"] = float(self.query(
                    f"SELECT xact_commit FROM pg_stat_database WHERE datname = '{self.pg_db}'"))
            except (ValueError, OSError):
                pass
        return s

    @staticmethod
    def figures(a, b):
        seconds = b["t"] - a["t"]
        b0, s0, c0 = histogram(a["metrics"], "cinq_store_commit_seconds")
        b1, s1, c1 = histogram(b["metrics"], "cinq_store_commit_seconds")
        commits = c1 - c0
        rows = counter(b["metrics"], "cinq_store_rows_committed_total") - counter(a["metrics"], "cinq_store_rows_committed_total")
        busy = (b["busy"][0] - a["busy"][0]) / max(1, b["busy"][1] - a["busy"][1]) * 100 * os.cpu_count()
        f = {"seconds": seconds, "commits_per_s": commits / seconds,
             "commit_mean_ms": 1e3 * (s1 - s0) / max(commits, 1),
             "commit_p50_le_ms": 1e3 * bucket_quantile(b0, b1, 0.5),
             "commit_p99_le_ms": 1e3 * bucket_quantile(b0, b1, 0.99),
             "rows_per_commit": rows / max(commits, 1), "machine_busy_pct": busy,
             "act_p50_le_ms": 1e3 * bucket_quantile(histogram(a["metrics"], "cinq_act_latency_seconds")[0],
                                                    histogram(b["metrics"], "cinq_act_latency_seconds")[0], 0.5),
             "act_p99_le_ms": 1e3 * bucket_quantile(histogram(a["metrics"], "cinq_act_latency_seconds")[0],
                                                    histogram(b["metrics"], "cinq_act_latency_seconds")[0], 0.99),
             "loadavg": [a["loadavg"], b["loadavg"]]}
        # Commits by time, per bucket (not cumulative): [upper bound ms, commits].
        cumulative = [(bound, n - m) for (bound, n), (_, m) in zip(b1, b0)]
        f["commit_histogram"] = [[1e3 * bound if bound != float("inf") else "inf", n - (cumulative[i - 1][1] if i else 0)]
                                 for i, (bound, n) in enumerate(cumulative)]
        if "pg" in a and "pg" in b:
            roles, total = {}, 0.0
            for pid, (role, cpu) in b["pg"].items():
                before = a["pg"].get(pid, (role, 0.0))[1]
                used = cpu - before
                total += used
                # A backend's title changes with its state (idle, COMMIT, ...): keep "postgres: USER DB HOST(PORT)".
                key = re.sub(r"^(postgres: \S+ \S+ \S+).*", r"\1", role) if "(" in role else role
                roles[key] = roles.get(key, 0.0) + 100 * used / seconds
            f["pg_cpu_pct"] = 100 * total / seconds
            f["pg_cpu_by_process"] = {k: round(v, 1) for k, v in sorted(roles.items(), key=lambda x: -x[1]) if v >= 0.5}
        if "wal" in a and "wal" in b:
            d = [y - x for x, y in zip(a["wal"], b["wal"])]
            f["wal_records_per_s"], f["wal_bytes_per_s"] = d[0] / seconds, d[1] / seconds
            f["wal_writes_per_s"], f["wal_syncs_per_s"] = d[2] / seconds, d[3] / seconds
            # Zero unless track_wal_io_timing is on.
            f["wal_write_mean_ms"], f["wal_sync_mean_ms"] = d[4] / max(d[2], 1), d[5] / max(d[3], 1)
            f["wal_buffers_full_per_s"] = d[6] / seconds
            f["checkpoints"] = [a["checkpoints"], b["checkpoints"]]
        if "xact" in a and "xact" in b:
            f["pg_xact_commits_per_s"] = (b["xact"] - a["xact"]) / seconds
        return f


def run_load(args, name, pg, extra, pg_db, procs):
    """One `cinq serve` (with `extra` arguments) under cinq_load: the load's phase and the window's figures."""
    data = tempfile.mkdtemp(prefix=f"cinq-backends-{name}-")
    procs["data"] = data
    server_log = os.path.join(data, "server.log")
    server = subprocess.Popen(
        [args.cinq, "serve", "--port", "0", "--data", data, "--web", "", "--per-address-connections", "0",
         "--per-address-rate", "0", "--http-rate", "0", "--http-connections-per-address", "0",
         "--open-rooms-per-player", "0", "--log-level", "warn"] + extra,
        stdout=open(server_log, "w"), stderr=subprocess.STDOUT)
    procs["server"] = server
    port = None
    for _ in range(400):
        found = re.search(r"listening on http://[^:\s]+:(\d+)", open(server_log).read())
        if found:
            port = int(found.group(1))
            break
        if server.poll() is not None:
            break
        time.sleep(0.05)
    if port is None:
        raise RuntimeError(f"{name}: the server did not start:\n" + open(server_log).read())
    out = os.path.join(data, "load.json")
    window = Window(port, pg, pg_db)  # its psql session opens before the load starts
    procs["window"] = window
    load = subprocess.Popen(
        [args.load, "--url", f"ws://127.0.0.1:{port}/ws", "--pid", str(server.pid), "--no-baseline",
         "--rooms", str(args.rooms), "--turn-rate", str(args.turn_rate), "--warmup", str(args.warmup),
         "--duration", str(args.duration), "--json", out]
        + (["--report-every", str(args.report_every)] if args.report_every else []),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    procs["load"] = load
    samples = []

    def sample_window():
        time.sleep(args.warmup)
        samples.append(window.sample())
        time.sleep(args.duration)
        samples.append(window.sample())

    sampler = None
    tail = []
    for line in load.stdout:
        tail = (tail + [line])[-60:]
        if ": at " in line and "/s, ack p50" in line:
            log(f"{name}: {line.strip()}")
        if " ready in " in line and sampler is None:
            log(f"{name}: {line.strip()}")
            sampler = threading.Thread(target=sample_window, daemon=True)
            sampler.start()
    code = load.wait()
    if sampler:
        sampler.join()
    if code not in (0, 3) or not os.path.exists(out) or len(samples) != 2:
        raise RuntimeError(f"{name}: cinq_load exited with {code}:\n" + "".join(tail))
    phase = json.load(open(out))["runs"][0]["phases"][0]
    window.close()
    server.send_signal(signal.SIGTERM)
    server.wait(60)
    shutil.rmtree(data, ignore_errors=True)
    procs.clear()
    return phase, Window.figures(*samples)


def run_bench_store(args, pg):
    """cinq_bench_store on both backends with the same arguments: {backend: its JSON}."""
    extra = shlex.split(args.bench_store_args)
    out = {}
    sqlite = [] if "--dir" in extra else ["--dir", tempfile.gettempdir()]
    for name, store in (("sqlite", sqlite), ("postgresql", ["--store", pg.uri("cinq_bench")])):
        path = tempfile.mktemp(prefix=f"cinq-bench-store-{name}-", suffix=".json")
        cmd = [args.bench_store] + extra + store + ["--json", path]
        log(f"{' '.join(shlex.quote(c) for c in cmd)}  (load average {loadavg():.2f})")
        if subprocess.run(cmd).returncode != 0:
            raise RuntimeError(f"cinq_bench_store failed on {name}")
        out[name] = json.load(open(path))
        os.unlink(path)
    return out


def print_bench_store(results):
    log("cinq_bench_store, medians (ratio: PostgreSQL / SQLite turns/s):")
    print(f"{'mode':<9} {'ply':>5} {'SQLite t/s':>11} {'PG t/s':>9} {'(ratio)':>8} {'SQLite p50/p99 ms':>18} "
          f"{'PG p50/p99 ms':>15}")
    for ms, mp in zip(results["sqlite"]["modes"], results["postgresql"]["modes"]):
        name = "single" if ms["mode"] == "single" else f"batch {ms['batch']}"
        for ps, pp in zip(ms["plies"], mp["plies"]):
            s, p = ps["median"], pp["median"]
            print(f"{name:<9} {ps['ply']:>5} {s['turns_per_s']:>11.0f} {p['turns_per_s']:>9.0f} "
                  f"{p['turns_per_s'] / s['turns_per_s']:>8.3f} {s['p50_ms']:>8.2f}/{s['p99_ms']:<9.2f} "
                  f"{p['p50_ms']:>6.2f}/{p['p99_ms']:<8.2f}")


def print_load(args, rows):
    log(f"cinq_load --rooms {args.rooms} --turn-rate {args.turn_rate:g} --warmup {args.warmup:g} "
        f"--duration {args.duration:g} (one run each; CPU % of one core):")
    print(f"{'backend':<11} {'turns/s':>8} {'ack p50':>8} {'ack p99':>8} {'server':>7} {'PG':>6} {'commits/s':>10} "
          f"{'commit mean/p99<= ms':>21} {'rows/c':>7} {'WAL fsync/s':>12} {'machine':>8} {'loadavg':>12} {'errors':>6}")
    for name, phase, f in rows:
        pg = f"{f['pg_cpu_pct']:.0f}" if "pg_cpu_pct" in f else "-"
        syncs = f"{f['wal_syncs_per_s']:.0f}" if "wal_syncs_per_s" in f and name == "postgresql" else "-"
        print(f"{name:<11} {phase['turns_per_s']:>8.0f} {phase['ack']['p50_ms']:>8.2f} {phase['ack']['p99_ms']:>8.2f} "
              f"{phase['server_cpu_pct']:>7.0f} {pg:>6} {f['commits_per_s']:>10.0f} "
              f"{f['commit_mean_ms']:>10.2f}/{f['commit_p99_le_ms']:<10g} {f['rows_per_commit']:>7.2f} {syncs:>12} "
              f"{f['machine_busy_pct']:>8.0f} {f['loadavg'][0]:>5.2f}->{f['loadavg'][1]:<5.2f} "
              f"{phase['errors_total']:>6}")
    for name, _, f in rows:
        log(f"{name}: commits by time (ms <= bound: count): " +
            ", ".join(f"{b:g}: {n}" if b != "inf" else f"more: {n}" for b, n in f["commit_histogram"] if n))
        log(f"{name}: server-side act latency (arrival to event out, its commit included) p50 <= "
            f"{f['act_p50_le_ms']:g} ms, p99 <= {f['act_p99_le_ms']:g} ms (histogram bounds)")
        if "wal_records_per_s" in f and name == "postgresql":
            log(f"postgresql: WAL {f['wal_records_per_s']:.0f} records/s, {f['wal_bytes_per_s'] / 1024:.0f} KiB/s, "
                f"{f['wal_writes_per_s']:.0f} writes/s, {f['wal_syncs_per_s']:.0f} fsyncs/s"
                + (f" (write {f['wal_write_mean_ms']:.3f} ms, fsync {f['wal_sync_mean_ms']:.3f} ms mean)"
                   if f["wal_sync_mean_ms"] > 0 else "")
                + f", {f['pg_xact_commits_per_s']:.0f} transactions/s; checkpoints, buffers written: "
                  f"{f['checkpoints'][0]} -> {f['checkpoints'][1]}")
        if "pg_cpu_by_process" in f and name == "postgresql":
            log("PostgreSQL's CPU by process (% of one core): " +
                ", ".join(f"{k} {v}" for k, v in f["pg_cpu_by_process"].items()))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rooms", type=int, default=1000)
    p.add_argument("--turn-rate", type=float, default=5000)
    p.add_argument("--duration", type=float, default=60, help="seconds measured")
    p.add_argument("--warmup", type=float, default=20, help="seconds played before the window")
    p.add_argument("--cinq", default="build/server/cinq")
    p.add_argument("--load", default="build/bench/cinq_load")
    p.add_argument("--bench-store", default="build/bench/cinq_bench_store")
    p.add_argument("--bench-store-args", default="", help="cinq_bench_store's arguments, for both backends")
    p.add_argument("--skip-bench-store", action="store_true")
    p.add_argument("--skip-load", action="store_true")
    p.add_argument("--wait-quiet", type=float, default=0, metavar="L",
                   help="wait until the 1-minute load average is under L before each part (at most 30 min)")
    p.add_argument("--json", help="also write every figure there")
    p.add_argument("--backends", default="sqlite,postgresql", help="the load's servers, in this order")
    p.add_argument("--pg-setting", action="append", default=[], metavar="NAME=VALUE",
                   help="a setting of the cluster (repeatable), for diagnosis")
    p.add_argument("--report-every", type=float, default=0, metavar="S",
                   help="print the load's rate and ack p50/p99 every S seconds of the window")
    args = p.parse_args()
    # Stopped early (Ctrl-C, SIGTERM): the servers and the load still stop, the cluster and the data go.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started with SIGINT ignored (`cmd &`)

    pg = Postgres(args.pg_setting)
    procs = {}
    report = {"args": vars(args)}
    try:
        pg.start()
        settings = pg.sql("SELECT string_agg(name || '=' || setting || coalesce(unit, ''), ' ' ORDER BY name) FROM "
                          "pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', "
                          "'wal_sync_method', 'shared_buffers', 'commit_delay', 'wal_buffers', 'max_wal_size', "
                          "'track_wal_io_timing', 'checkpoint_timeout')")
        log(f"PostgreSQL {pg.sql('SHOW server_version')} on port {pg.port} in {pg.dir}: {settings}")
        report["postgresql"] = settings
        if not args.skip_bench_store:
            wait_quiet(args.wait_quiet)
            pg.sql("CREATE DATABASE cinq_bench")
            report["bench_store"] = run_bench_store(args, pg)
            print_bench_store(report["bench_store"])
        if not args.skip_load:
            rows = []
            for name in args.backends.split(","):
                wait_quiet(args.wait_quiet)
                extra, db = [], None
                if name == "postgresql":
                    db = "cinq_load"
                    pg.sql(f"CREATE DATABASE {db}")
                    extra = ["--store", pg.uri(db)]
                log(f"{name}: cinq serve {' '.join(extra)} under cinq_load (load average {loadavg():.2f})")
                phase, figures = run_load(args, name, pg, extra, db or "postgres", procs)
                rows.append((name, phase, figures))
            report["load"] = [{"backend": n, "phase": ph, "window": f} for n, ph, f in rows]
            print_load(args, rows)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(report, f, indent=2)
        return 0
    except (RuntimeError, OSError) as e:
        print(f"store_backends: {e}", file=sys.stderr)
        return 1
    finally:
        for key in ("load", "server"):
            proc = procs.get(key)
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM if key == "server" else signal.SIGKILL)
                try:
                    proc.wait(60)
                except subprocess.TimeoutExpired:
                    proc.kill()
        if "window" in procs:
            try:
                procs["window"].close()
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        if "data" in procs:
            shutil.rmtree(procs["data"], ignore_errors=True)
        pg.stop()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
