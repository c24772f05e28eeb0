#!/usr/bin/env python3
"""Soak (issue 17): one `cinq serve` held at a steady turn rate for a long time, to see memory and latency over
time. The load is one cinq_load run (bench/load) against that server (--url, --pid): it sets up its rooms once,
then plays paced turns for the whole run (a finished game is followed by its rematch in a new room, as players
do), and every WINDOW seconds reports that interval's turn rate, ack p50/p99 and the server's RSS (VmRSS).

    bench/soak.py --cinq build/server/cinq --load build/bench/cinq_load [--minutes 30] [--window 60]
                  [--rooms 1000] [--turn-rate 4200]

The default rate is half the unpaced maximum measured for issue 16 (8,487 turns/s with 1,000 rooms,
docs/performance.md). Prints a line per interval, then the first and last intervals' RSS and p99, the RSS
growth between them and the highest RSS; the goal is growth under 5 % and a flat p99. The first interval
starts after a minute of warm-up (the allocator's and SQLite's caches fill during it). The server's data go to
a fresh directory under $TMPDIR.
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
import time


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
        tail = []
        for line in load.stdout:
            tail = (tail + [line])[-60:]
            if "cinq_load: cinq: at " in line or " ready in " in line:
                print(line.rstrip(), flush=True)
        code = load.wait()
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
