#!/usr/bin/env python3
"""Soak: one `cinq serve` held at a steady turn rate for a long time, to see memory and latency over
time. The load is one cinq_load run (bench/load) against that server (--url, --pid): it sets up its rooms once,
then plays paced turns for the whole run (a finished game is followed by its rematch in a new room, as players
do), and every WINDOW seconds reports that interval's turn rate, ack p50/p99 and the server's RSS (VmRSS).

    bench/soak.py --cinq build/server/cinq --load build/bench/cinq_load [--minutes 30] [--window 60]
                  [--rooms 1000] [--turn-rate 4200]

The default rate is half the unpaced maximum measured (8,487 turns/s with 1,000 rooms, docs/performance.md),
so the server is loaded but never saturated. Prints a line per interval, then the first and last intervals'
RSS and p99, the RSS growth between them and the highest RSS; the goal is growth under 5 % and a flat p99. The
first interval starts after a minute of warm-up (the allocator's and SQLite's caches fill during it). The
server's data go to a fresh directory under $TMPDIR.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def find_phase(tree):
    """The first result object with `intervals` in cinq_load's JSON."""
    if isinstance(tree, dict):
        if "intervals" in tree and "ack" in tree:
            return tree
        for v in tree.values():
            found = find_phase(v)
            if found:
                return found
    if isinstance(tree, list):
        for v in tree:
            found = find_phase(v)
            if found:
                return found
    return None


def histogram(text, name):
    """A Prometheus histogram's cumulative buckets [(bound, count)], sum and count from /metrics text."""
    buckets = []
    for bound, count in re.findall(name + r'_bucket\{le="([^"]+)"\} (\d+)', text):
        buckets.append((float("inf") if bound == "+Inf" else float(bound), int(count)))
    total = re.search(name + r"_sum ([\d.]+)", text)
    count = re.search(name + r"_count (\d+)", text)
    return buckets, float(total.group(1)) if total else 0.0, int(count.group(1)) if count else 0


def quantile(before, after, q):
    """The bucket bound under which a fraction q of the observations between two samples fall."""
    deltas = [(b, a - c) for (b, a), (_, c) in zip(after, before)]
    if not deltas or deltas[-1][1] <= 0:
        return 0.0
    for bound, n in deltas:
        if n >= q * deltas[-1][1]:
            return bound
    return deltas[-1][0]


def cpu_seconds(pid):
    """User + system CPU seconds of a process (and its threads), from /proc."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def fsync_probe(directory, count=20):
    """The disk's own latency beside the server: `count` 4 KiB writes, each followed by fsync, in `directory`
    (the store's file system). Median and highest, in ms. When the store's commits slow down while this
    stays put, the server is the cause; when both slow down, the disk is."""
    path = os.path.join(directory, "fsync-probe")
    times = []
    with open(path, "wb") as f:
        for _ in range(count):
            t0 = time.perf_counter()
            f.write(b"x" * 4096)
            f.flush()
            os.fsync(f.fileno())
            times.append(1e3 * (time.perf_counter() - t0))
    os.unlink(path)
    times.sort()
    return times[len(times) // 2], times[-1]


class Sampler(threading.Thread):
    """Every `window` seconds, what the server did in that window: its store's commits (per second, mean and
    p99 commit time from cinq_store_commit_seconds, rows per commit), the store file and its WAL, the disk's
    fsync latency (fsync_probe), the CPU the server and the load used, and the machine's load average (other
    tenants show there)."""

    def __init__(self, port, data, server_pid, load_pid, window):
        super().__init__(daemon=True)
        self.port, self.data, self.server_pid, self.load_pid, self.window = port, data, server_pid, load_pid, window
        self.stop = threading.Event()

    def metrics(self):
        try:
            return urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=10).read().decode()
        except OSError:
            return ""

    def run(self):
        start = time.time()
        text = self.metrics()
        cpu = (cpu_seconds(self.server_pid), cpu_seconds(self.load_pid))
        while not self.stop.wait(self.window):
            now = self.metrics()
            cpu_now = (cpu_seconds(self.server_pid), cpu_seconds(self.load_pid))
            b0, s0, c0 = histogram(text, "cinq_store_commit_seconds")
            b1, s1, c1 = histogram(now, "cinq_store_commit_seconds")
            rows = [int(x) for x in re.findall(r"cinq_store_rows_committed_total (\d+)", text + now)]
            commits = c1 - c0
            sizes = {}
            for suffix in ("", "-wal"):
                try:
                    sizes[suffix] = os.path.getsize(os.path.join(self.data, "cinq.db" + suffix)) / 2**20
                except OSError:
                    sizes[suffix] = 0.0
            fsync_median, fsync_max = fsync_probe(self.data)
            print(f"soak: at {time.time() - start:.0f} s: {commits / self.window:.0f} commits/s, commit mean "
                  f"{1e3 * (s1 - s0) / max(commits, 1):.2f} ms p99 <= {1e3 * quantile(b0, b1, 0.99):g} ms, "
                  f"{(rows[1] - rows[0]) / max(commits, 1) if len(rows) == 2 else 0:.1f} rows/commit; store "
                  f"{sizes['']:.0f} MiB, WAL {sizes['-wal']:.1f} MiB; fsync {fsync_median:.2f} ms (max "
                  f"{fsync_max:.1f}); CPU server "
                  f"{100 * (cpu_now[0] - cpu[0]) / self.window:.0f} %, load {100 * (cpu_now[1] - cpu[1]) / self.window:.0f} %; "
                  f"loadavg {open('/proc/loadavg').read().split()[0]}", flush=True)
            text, cpu = now, cpu_now


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cinq", required=True)
    p.add_argument("--load", required=True)
    p.add_argument("--minutes", type=float, default=30)
    p.add_argument("--window", type=int, default=60, help="seconds per reported interval")
    p.add_argument("--warmup", type=int, default=60, help="seconds played before the first interval")
    p.add_argument("--rooms", type=int, default=1000)
    p.add_argument("--turn-rate", type=float, default=4200)
    args = p.parse_args()
    # Stopped early (Ctrl-C, SIGTERM): the server and the load still stop, and the data go.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))

    data = tempfile.mkdtemp(prefix="cinq-soak-")
    log = open(os.path.join(data, "server.log"), "w")
    server = subprocess.Popen(
        [args.cinq, "serve", "--port", "0", "--data", data, "--web", "", "--per-address-connections", "0",
         "--per-address-rate", "0", "--http-rate", "0", "--http-connections-per-address", "0",
         "--open-rooms-per-player", "0", "--log-level", "warn"],
        stdout=log, stderr=subprocess.STDOUT)
    port = None
    for _ in range(200):
        text = open(os.path.join(data, "server.log")).read()
        found = re.search(r"listening on http://[^:\s]+:(\d+)", text)
        if found:
            port = int(found.group(1))
            break
        time.sleep(0.05)
    if port is None:
        print("soak: the server did not start", file=sys.stderr)
        return 1
    out = os.path.join(data, "soak.json")
    load = None
    try:
        load = subprocess.Popen(
            [args.load, "--url", f"ws://127.0.0.1:{port}/ws", "--pid", str(server.pid), "--no-baseline",
             "--rooms", str(args.rooms), "--turn-rate", str(args.turn_rate), "--warmup", str(args.warmup),
             "--duration", str(int(args.minutes * 60)), "--report-every", str(args.window), "--json", out],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        sampler = Sampler(port, data, server.pid, load.pid, args.window)
        sampler.start()
        tail = []
        for line in load.stdout:
            tail = (tail + [line])[-60:]
            if "cinq_load: cinq: at " in line or " ready in " in line:
                print(line.rstrip(), flush=True)
        code = load.wait()
        sampler.stop.set()
        if code not in (0, 3) or not os.path.exists(out):
            print("".join(tail), file=sys.stderr)
            return 1
        phase = find_phase(json.load(open(out)))
    finally:
        if load and load.poll() is None:
            load.kill()
            load.wait()
        server.send_signal(signal.SIGTERM)
        server.wait(30)
        shutil.rmtree(data, ignore_errors=True)
    intervals = phase["intervals"]
    first, last = intervals[0], intervals[-1]
    growth = 100.0 * (last["server_rss_kib"] - first["server_rss_kib"]) / first["server_rss_kib"]
    peak = max(i["server_rss_kib"] for i in intervals)
    print(f"soak: {args.minutes:g} min at {args.turn_rate:.0f} turns/s offered, {args.rooms} rooms, "
          f"{phase['turns']} turns ({phase['turns_per_s']:.0f}/s), {phase['games_finished']} games finished, "
          f"{phase['errors_total']} errors")
    print(f"soak: RSS {first['server_rss_kib'] / 1024:.1f} -> {last['server_rss_kib'] / 1024:.1f} MiB "
          f"({growth:+.1f} %, highest {peak / 1024:.1f}); ack p99 {first['ack_p99_ms']:.2f} -> "
          f"{last['ack_p99_ms']:.2f} ms, p50 {first['ack_p50_ms']:.2f} -> {last['ack_p50_ms']:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
