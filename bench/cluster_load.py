#!/usr/bin/env python3
"""Cinq on several nodes under load (docs/scaling.md), in one run on this machine.

    python3 bench/cluster_load.py [--cinq build/server/cinq] [--load build/bench/cinq_load]
        [--rooms 300] [--turn-rate 2000] [--duration 30] [--warmup 10] [--runs 1]
        [--parts one,three,forward] [--json FILE]

Starts throwaway clusters with tests/cluster/harness.py (PostgreSQL, Redis, the nodes, HAProxy in front with
docker/haproxy.cfg; the nodes with the per-address limits lifted, as every client here comes from
127.0.0.1), and runs cinq_load against them:

  one      one node behind HAProxy: --turn-rate (paced), then unpaced (as fast as answers come);
  three    three nodes behind HAProxy, the same two loads: HAProxy spreads each room's connections, so most
           turns are forwarded between nodes;
  forward  the three nodes without HAProxy, two of them as entry points, paced at --turn-rate / 4: each room
           whole on one node (`--placement same`: no turn forwarded), then its players on two nodes
           (`--placement cross`: every turn of one player forwarded). The difference in ack p50/p99 is what a
           forwarded turn costs in latency; the nodes' CPU per turn (summed over the nodes) what it costs in
           CPU.

The nodes' CPU (and RSS) is the sum over the node processes (cinq_load --pid P1,P2,P3); PostgreSQL, Redis and
HAProxy share the same 2 cores and are not counted in it. Exit status 0, or 1 if a load failed.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "cluster"))
from harness import Cluster  # noqa: E402


CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids):
    """utime + stime of these processes, in seconds (0 for one that is gone)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / CLK_TCK


def children(pid):
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return out


def others(cluster):
    """The processes beside the nodes: Redis, HAProxy, PostgreSQL (the postmaster and its children)."""
    groups = {"redis": [cluster.redis.process.pid]}
    if cluster.haproxy:
        groups["haproxy"] = [cluster.haproxy.process.pid]
    with open(os.path.join(cluster.pg.dir, "data", "postmaster.pid")) as f:
        postmaster = int(f.readline())
    groups["postgresql"] = [postmaster] + children(postmaster)
    return groups


def load(args, urls, pids, placement=None, rate=None, rooms=None, cluster=None):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    cmd = [args.load, "--urls", ",".join(urls), "--pid", ",".join(str(p) for p in pids), "--no-baseline",
           "--rooms", str(rooms or args.rooms), "--duration", str(args.duration), "--warmup", str(args.warmup),
           "--json", path]
    if placement:
        cmd += ["--placement", placement]
    if rate:
        cmd += ["--turn-rate", str(rate)]
    print("cluster_load:", " ".join(cmd), flush=True)
    groups = others(cluster) if cluster else {}
    before = {name: cpu_seconds(p) for name, p in groups.items()}
    started = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    if out.returncode != 0:
        raise RuntimeError(f"cinq_load failed ({out.returncode}):\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}")
    with open(path) as f:
        result = json.load(f)
    os.unlink(path)
    phase = result["runs"][0]["phases"][0] if "phases" in result["runs"][0] else result["runs"][0][0]
    turns_per_s = phase.get("turns_per_s") or 0
    # Beside the nodes, over the whole run (set-up and warm-up too): CPU % of one core, and per turn as if
    # every second of the run had played at the measured rate.
    side = {}
    for name, p in groups.items():
        used = cpu_seconds(p) - before[name]
        side[name + "_cpu_pct"] = 100 * used / elapsed
        side[name + "_us_per_turn"] = 1e6 * used / (turns_per_s * elapsed) if turns_per_s else None
    return {
        **side,
        "turns_per_s": phase.get("turns_per_s"),
        "ack_p50_ms": phase["ack"].get("p50_ms"),
        "ack_p99_ms": phase["ack"].get("p99_ms"),
        "opp_p50_ms": phase["opponent"].get("p50_ms"),
        "opp_p99_ms": phase["opponent"].get("p99_ms"),
        "cpu_pct": phase.get("server_cpu_pct"),
        "cpu_us_per_turn": phase.get("server_cpu_us_per_turn"),
        "errors": phase.get("errors_total"),
        "rss_end_kib": phase.get("server_rss_end_kib"),
    }


def row(name, r):
    def f(x, digits=2):
        return "-" if x is None else f"{x:.{digits}f}"
    return (f"{name:<34} {f(r['turns_per_s'], 0):>8} {f(r['ack_p50_ms']):>8} {f(r['ack_p99_ms']):>8} "
            f"{f(r['opp_p50_ms']):>8} {f(r['opp_p99_ms']):>8} {f(r['cpu_pct'], 0):>6} "
            f"{f(r['cpu_us_per_turn'], 0):>7} {r['errors'] if r['errors'] is not None else '-':>6} "
            f"{f(r.get('redis_us_per_turn'), 0):>6} {f(r.get('postgresql_us_per_turn'), 0):>6} "
            f"{f(r.get('haproxy_us_per_turn'), 0):>6}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cinq", default="build/server/cinq")
    p.add_argument("--load", default="build/bench/cinq_load")
    p.add_argument("--web", default="web-client")
    p.add_argument("--rooms", type=int, default=300)
    p.add_argument("--turn-rate", type=int, default=2000)
    p.add_argument("--duration", type=int, default=30)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--parts", default="one,three,forward")
    p.add_argument("--json")
    args = p.parse_args()
    parts = args.parts.split(",")
    results = {}
    limits = ["--http-connections-per-address", "0"]  # the harness lifts the others

    def measure(count, balancer, loads):
        cluster = Cluster(args.cinq, args.web, count=count, balancer=balancer, extra=limits)
        try:
            time.sleep(2)  # every node sees the others, the lobby's leader is chosen
            pids = [n.process.pid for n in cluster.nodes]
            for name, fn in loads:
                results[name] = fn(cluster, pids)
                print("cluster_load:", row(name, results[name]), flush=True)
        finally:
            cluster.close()

    def through(cluster):
        return [f"ws://127.0.0.1:{cluster.haproxy.port}/ws"]

    if "one" in parts:
        measure(1, True, [
            ("one node, HAProxy, paced", lambda c, pids: load(args, through(c), pids, rate=args.turn_rate, cluster=c)),
            ("one node, HAProxy, unpaced", lambda c, pids: load(args, through(c), pids, cluster=c)),
        ])
    if "three" in parts:
        measure(3, True, [
            ("three nodes, HAProxy, paced", lambda c, pids: load(args, through(c), pids, rate=args.turn_rate, cluster=c)),
            ("three nodes, HAProxy, unpaced", lambda c, pids: load(args, through(c), pids, cluster=c)),
        ])
    if "forward" in parts:
        rate = max(1, args.turn_rate // 4)

        def nodes(c):
            return [c.nodes[0].url(), c.nodes[1].url()]
        measure(3, False, [
            ("two entry nodes, same node", lambda c, pids: load(args, nodes(c), pids, "same", rate, cluster=c)),
            ("two entry nodes, across nodes", lambda c, pids: load(args, nodes(c), pids, "cross", rate, cluster=c)),
            ("two entry nodes, same node (again)", lambda c, pids: load(args, nodes(c), pids, "same", rate, cluster=c)),
            ("two entry nodes, across (again)", lambda c, pids: load(args, nodes(c), pids, "cross", rate, cluster=c)),
        ])

    print(f"\n{'load':<34} {'turns/s':>8} {'ack p50':>8} {'ack p99':>8} {'opp p50':>8} {'opp p99':>8} "
          f"{'CPU%':>6} {'us/turn':>7} {'errors':>6} {'redis':>6} {'pg':>6} {'hapr':>6}")
    print("(us/turn: the nodes' CPU per turn; redis, pg, hapr: theirs, over the whole run)")
    for name, r in results.items():
        print(row(name, r))
    if "two entry nodes, same node" in results and "two entry nodes, across nodes" in results:
        same = [results[k] for k in results if k.startswith("two entry nodes, same")]
        cross = [results[k] for k in results if k.startswith("two entry nodes, across")]

        def mean(rs, key):
            values = [r[key] for r in rs if r[key] is not None]
            return sum(values) / len(values) if values else None
        for key, what in (("ack_p50_ms", "ack p50"), ("ack_p99_ms", "ack p99"), ("opp_p50_ms", "opponent p50"),
                          ("cpu_us_per_turn", "node CPU per turn (us)")):
            a, b = mean(same, key), mean(cross, key)
            if a is not None and b is not None:
                print(f"a forwarded turn: {what}: {a:.3f} same node, {b:.3f} across nodes, +{b - a:.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    errors = sum(r["errors"] or 0 for r in results.values())
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
