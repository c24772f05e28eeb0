#!/usr/bin/env python3
"""scripts/cluster.sh up and down, again and again: each `up` must bring PostgreSQL, Redis, the nodes and
HAProxy up (status 0, /api/health 200 through HAProxy), each `down` stop them all (status 3), every time: a
script under `set -o pipefail` whose pipelines can fail by chance (SIGPIPE when a reader quits early) fails
one time in a few here. The cluster lives in a temporary directory, on free ports (CINQ_CLUSTER_DIR,
CINQ_PORT).

    tests/cluster/cluster_script_test.py BUILD_DIR [--times N]
"""

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPT = os.path.join(REPO, "scripts", "cluster.sh")


def free_run(count):
    """A port P with P .. P+count-1 all free (cluster.sh takes consecutive ports)."""
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = s.getsockname()[1]
        if base + count > 65000:
            continue
        ok = True
        for p in range(base, base + count):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", p))
                except OSError:
                    ok = False
                    break
        if ok:
            return base
    raise RuntimeError("no run of free ports")


def health(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=3) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return 0


def run(env, *argv, timeout=120):
    started = time.monotonic()
    p = subprocess.run(["bash", SCRIPT, *argv], env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build")
    parser.add_argument("--times", type=int, default=5)
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="cinq-cluster-sh-")
    os.chmod(root, 0o755)  # PostgreSQL runs as the user postgres when we are root: it must reach its directory
    port = free_run(6)  # HAProxy, three nodes, PostgreSQL, Redis
    env = dict(os.environ, CINQ_CLUSTER_DIR=os.path.join(root, "cluster"), CINQ_PORT=str(port),
               BUILD_DIR=os.path.relpath(os.path.abspath(args.build), os.path.abspath(REPO)))
    failures = 0
    try:
        for i in range(1, args.times + 1):
            code, out, took = run(env, "up")
            status = health(port)
            scode, sout, _ = run(env, "status")
            if code != 0 or status != 200 or scode != 0:
                print(f"FAIL up {i}: exit {code}, /api/health {status}, status exit {scode}\n{out}\n{sout}")
                failures += 1
                break
            dcode, dout, dtook = run(env, "down")
            scode, sout, _ = run(env, "status")
            if dcode != 0 or scode != 3 or "running" in sout:
                print(f"FAIL down {i}: exit {dcode}, status exit {scode}\n{dout}\n{sout}")
                failures += 1
                break
            print(f"up/down {i}: up {took:.1f} s, down {dtook:.1f} s", flush=True)
    finally:
        code, out, _ = run(env, "down", "--purge")
        if code != 0:
            print(f"down --purge: exit {code}\n{out}")
            failures += 1
        shutil.rmtree(root, ignore_errors=True)
    print(f"cluster.sh: {args.times if not failures else 'not all'} up/down cycles" +
          (", all clean" if not failures else " FAILED"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
