#!/usr/bin/env python3
"""Soak (issue 17): one `cinq serve` held at a steady turn rate for a long time, to see memory and latency over
time. The load is cinq_load (bench/load) in back-to-back windows against the same server process (--url, --pid):
each window sets up its rooms, plays paced turns for WINDOW seconds and closes them. After each window the
server's RSS (VmRSS) is read with no client connected, and the window's p99 ack latency is printed.

    bench/soak.py --cinq build/server/cinq --load build/bench/cinq_load [--minutes 30] [--window 60]
                  [--rooms 1000] [--turn-rate 4200]

The default rate is half the unpaced maximum measured for issue 16 (8,487 turns/s with 1,000 rooms,
docs/performance.md). Prints the first and last windows' RSS and p99 and the RSS growth; the goal is growth
under 5 % and a flat p99. The server's data go to a fresh directory under $TMPDIR.
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


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


def find_phase(tree):
    """The first result object with an `ack` latency in cinq_load's JSON."""
    if isinstance(tree, dict):
        if "ack" in tree and "turns_per_s" in tree:
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
    p.add_argument("--window", type=int, default=60, help="seconds measured per window")
    p.add_argument("--rooms", type=int, default=1000)
    p.add_argument("--turn-rate", type=float, default=4200)
    args = p.parse_args()

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
    windows = []
    end = time.monotonic() + args.minutes * 60
    try:
        n = 0
        while time.monotonic() < end:
            n += 1
            out = os.path.join(data, f"window-{n}.json")
            run = subprocess.run(
                [args.load, "--url", f"ws://127.0.0.1:{port}/ws", "--pid", str(server.pid), "--no-baseline",
                 "--rooms", str(args.rooms), "--turn-rate", str(args.turn_rate), "--warmup", "2",
                 "--duration", str(args.window), "--json", out],
                capture_output=True, text=True)
            if run.returncode not in (0, 3) or not os.path.exists(out):
                print(run.stdout[-2000:], run.stderr[-2000:], file=sys.stderr)
                return 1
            phase = find_phase(json.load(open(out)))
            time.sleep(2)  # the window's connections are gone: what stays is the server's own
            rss = rss_kib(server.pid)
            w = (n, phase["turns_per_s"], phase["ack"]["p50_ms"], phase["ack"]["p99_ms"], rss,
                 phase.get("errors_total", 0))
            windows.append(w)
            print(f"window {w[0]:3d}: {w[1]:8.0f} turns/s  ack p50 {w[2]:6.2f} ms  p99 {w[3]:7.2f} ms  "
                  f"RSS after {w[4] / 1024:8.1f} MiB  errors {w[5]}", flush=True)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)
        shutil.rmtree(data, ignore_errors=True)
    first, last = windows[0], windows[-1]
    growth = 100.0 * (last[4] - first[4]) / first[4]
    print(f"soak: {len(windows)} windows of {args.window} s at {args.turn_rate:.0f} turns/s offered, "
          f"{args.rooms} rooms: RSS {first[4] / 1024:.1f} -> {last[4] / 1024:.1f} MiB ({growth:+.1f} %), "
          f"p99 {first[3]:.2f} -> {last[3]:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
