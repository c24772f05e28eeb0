"""Throwaway clusters for the cluster tests: a PostgreSQL (Debian's server, `initdb` in a temporary
directory, run as the `postgres` user when we are root: it refuses root), a Redis (`redis-server`, no
persistence), N `cinq serve` nodes sharing both, and HAProxy in front (health checks on /api/health). Every
process runs in the temporary directory and goes with it; nothing is skipped for want of a component
(scripts/install-deps.sh installs them all)."""

import asyncio
import glob
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(what, predicate, timeout=20.0, every=0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(every)


def http_get(port, path, timeout=5, context=None):
    """(status, body text) of a GET on 127.0.0.1:port (HTTPS with an ssl `context`); status 0 when nothing
    answers."""
    scheme = "https" if context else "http"
    try:
        with urllib.request.urlopen(f"{scheme}://127.0.0.1:{port}{path}", timeout=timeout, context=context) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()
    except OSError:
        return 0, ""


def http_post(port, path, body, content_type="text/plain", timeout=10):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body.encode(), method="POST",
                                     headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


class Postgres:
    def __init__(self, root):
        self.dir = os.path.join(root, "pg")
        os.mkdir(self.dir)
        versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not versions:
            raise RuntimeError("no /usr/lib/postgresql/N/bin/initdb: run scripts/install-deps.sh")
        self.bin = os.path.dirname(versions[-1])
        self.user = None
        if os.geteuid() == 0:
            self.user = "postgres" if _has_user("postgres") else "nobody"
            entry = pwd.getpwnam(self.user)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
            os.chmod(root, 0o755)
        self.port = free_port()
        self._as_owner([f"{self.bin}/initdb", "-D", f"{self.dir}/data", "-U", "cinq", "--auth=trust",
                        "--encoding=UTF8", "--locale=C.UTF-8"])
        self.start()
        self.uri = f"postgresql://cinq@127.0.0.1:{self.port}/postgres"

    def _as_owner(self, argv):
        if self.user:
            argv = ["runuser", "-u", self.user, "--"] + argv
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self):
        options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=200 "
                   "-c shared_buffers=32MB")
        self._as_owner([f"{self.bin}/pg_ctl", "-D", f"{self.dir}/data", "-l", f"{self.dir}/server.log", "-w",
                        "-t", "60", "-o", options, "start"])

    def stop(self):
        subprocess.run((["runuser", "-u", self.user, "--"] if self.user else []) +
                       [f"{self.bin}/pg_ctl", "-D", f"{self.dir}/data", "-m", "immediate", "-w", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def pids(self):
        """The postmaster and its children (backends, checkpointer, WAL writer...): pausing only the postmaster
        would leave the open connections served."""
        with open(os.path.join(self.dir, "data", "postmaster.pid")) as f:
            master = int(f.readline())
        pids = [master]
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == master:
                    pids.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
        return pids

    @staticmethod
    def signal(pids, sig):
        """Sends `sig` to each of `pids` (from pids()); one gone meanwhile is passed over."""
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass

    def sql(self, query):
        """The first column of every row, as text (psql)."""
        out = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "cinq", "-d", "postgres",
                              "-At", "-c", query], check=True, capture_output=True, text=True).stdout
        return [line for line in out.splitlines()]


def _has_user(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


class Redis:
    def __init__(self, root):
        self.dir = os.path.join(root, "redis")
        os.mkdir(self.dir)
        self.port = free_port()
        self.process = None
        self.start()
        self.uri = f"redis://127.0.0.1:{self.port}"

    def start(self):
        self.log = open(os.path.join(self.dir, "redis.log"), "ab")
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", self.dir], stdout=self.log, stderr=subprocess.STDOUT)
        wait_until("redis", lambda: self.ping(), 10)

    def ping(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class Node:
    def __init__(self, cluster, name):
        self.cluster, self.name = cluster, name
        self.port = free_port()
        self.log_path = os.path.join(cluster.root, f"{name}.log")
        self.process = None

    def start(self, *extra):
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [self.cluster.binary, "serve", "--port", str(self.port), "--address", "127.0.0.1",
             "--store", self.cluster.pg.uri, "--bus", self.cluster.redis.uri, "--node", self.name,
             "--web", self.cluster.web, *self.cluster.lifted, "--trusted-proxy", "127.0.0.1", "--log-level", os.environ.get(f"CINQ_LOG_{self.name}", os.environ.get("CINQ_LOG", "info")), "--bot-answer-ms", "50", "--bot-pace-ms", "50", *self.cluster.extra, *extra],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_until(f"node {self.name}", lambda: self.process.poll() is not None or
                   http_get(self.port, "/api/health")[0] == 200, 20)
        if self.process.poll() is not None:
            raise RuntimeError(f"node {self.name} exited:\n{self.log()}")
        return self

    def url(self):
        return f"ws://127.0.0.1:{self.port}/ws"

    def kill(self, sig=signal.SIGKILL):
        if self.process and self.process.poll() is None:
            self.stopping = True
            os.killpg(self.process.pid, sig)

    def restart_if_stopped(self):
        """Starts the node again if a test stopped it (waiting for a draining node to finish first)."""
        if getattr(self, "stopping", False) and self.process.poll() is None:
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.stopping = False
        if not self.alive():
            self.start()

    def wait(self, timeout=20):
        return self.process.wait(timeout)

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()


class Haproxy:
    """docker/haproxy.cfg, the one configuration that ships, with its `server` lines replaced by the nodes.
    With `tls_pem` (certificate, chain and key in one file) it terminates TLS (CINQ_TLS_PEM); `trust` is then
    an ssl context trusting that certificate, for its own health check."""

    def __init__(self, cluster, name="haproxy", tls_pem=None, trust=None):
        self.tls_pem, self.trust = tls_pem, trust
        self.dir = os.path.join(cluster.root, name)
        os.mkdir(self.dir)
        self.port = free_port()
        shipped = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docker", "haproxy.cfg")
        with open(shipped) as f:
            lines = [line for line in f.read().splitlines() if not line.strip().startswith("server ")]
        lines += [f"  server {n.name} 127.0.0.1:{n.port}" for n in cluster.nodes]
        path = os.path.join(self.dir, "haproxy.cfg")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.path = path
        self.process = None
        self.start()

    def start(self):
        """Starts HAProxy on its port (again, after `stop`: the fault harness restarts it)."""
        self.log = open(os.path.join(self.dir, "haproxy.log"), "ab")
        env = dict(os.environ, CINQ_HAPROXY_BIND=f"127.0.0.1:{self.port}")
        env.pop("CINQ_TLS_PEM", None)
        if self.tls_pem:
            env["CINQ_TLS_PEM"] = self.tls_pem
        self.process = subprocess.Popen(["haproxy", "-db", "-f", self.path], stdout=self.log,
                                        stderr=subprocess.STDOUT, env=env)
        wait_until("haproxy", lambda: http_get(self.port, "/api/health", context=self.trust)[0] == 200, 15)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait()


class Cluster:
    """PostgreSQL, Redis, `count` nodes (n1, n2, ...) and, with `balancer`, HAProxy. The nodes run without
    the per-address limits (every test client comes from 127.0.0.1) unless `lift_limits` is False."""

    def __init__(self, binary, web, count=3, balancer=False, extra=(), lift_limits=True):
        self.root = tempfile.mkdtemp(prefix="cinq-cluster-")
        self.binary, self.web, self.extra = binary, web, list(extra)
        self.lifted = ["--per-address-rate", "0", "--per-address-connections", "0", "--http-rate", "0"] \
            if lift_limits else []
        self.pg = self.redis = self.haproxy = None
        self.nodes = []
        try:
            self.pg = Postgres(self.root)
            self.redis = Redis(self.root)
            self.nodes = [Node(self, f"n{i + 1}") for i in range(count)]
            for n in self.nodes:
                n.start()
            if balancer:
                self.haproxy = Haproxy(self)
        except BaseException:
            self.close()
            raise

    def node(self, name):
        return next(n for n in self.nodes if n.name == name)

    def owner_of(self, room):
        """The name of the node holding the room's lease, "" if none."""
        rows = self.pg.sql(f"SELECT n.name FROM room_leases l JOIN nodes n ON n.id = l.node_id "
                           f"WHERE l.game_id = '{room}'")
        return rows[0] if rows else ""

    def logs(self):
        tail = int(os.environ.get("CINQ_LOG_TAIL", "4000"))  # characters of each node's log
        return "\n".join(f"--- {n.name}\n{n.log()[-tail:]}" for n in self.nodes)

    def close(self):
        for n in self.nodes:
            n.kill()
        for n in self.nodes:
            if n.process:
                try:
                    n.process.wait(10)
                except subprocess.TimeoutExpired:
                    pass
        if self.haproxy:
            self.haproxy.stop()
        if self.redis:
            self.redis.stop()
        if self.pg:
            self.pg.stop()
        shutil.rmtree(self.root, ignore_errors=True)


async def run_cases(cluster, cases, only=None, timeout=120, between=None):
    """Runs the async test functions `cases` (each given `cluster`) one after another, those whose name holds a
    word of `only` (comma-separated) when given: each failure is reported with the nodes' logs and the next case
    runs. `between()` runs after each case. Prints the tally; returns how many failed."""
    failures = 0
    for t in cases:
        if only and not any(name in t.__name__ for name in only.split(",")):
            continue
        started = time.monotonic()
        try:
            note = await asyncio.wait_for(t(cluster), timeout)
            print(f"PASS {t.__name__} ({time.monotonic() - started:.1f} s){': ' + note if note else ''}", flush=True)
        except Exception as e:  # noqa: BLE001 - every failure is reported, the next case runs
            failures += 1
            print(f"FAIL {t.__name__}: {type(e).__name__}: {e}", flush=True)
            print(cluster.logs()[-6000:], flush=True)
        if between:
            between()
    print(f"{len(cases) - failures if not only else '-'} passed, {failures} failed")
    return failures
