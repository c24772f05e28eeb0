"""What the Python protocol tests share: a server started in a temp dir, a WebSocket client that keeps each
room's position by applying the events' merge patches (docs/protocol.md, protocol version 2), HTTP helpers.

Standard library only besides Debian's python3-websockets: no pip. Not a test itself (no `_test` suffix).
"""

import asyncio
import copy
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import websockets

PROTOCOL = 2

# The server allows 20 messages a second per connection (bursts of 40) and 100 a second per address
# (bursts of 200). Every client here shares one address, so sends are paced below both limits.
CONNECTION_RATE, CONNECTION_BURST = 15.0, 20.0
ADDRESS_RATE, ADDRESS_BURST = 60.0, 100.0


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


def short(message, limit=300):
    text = message if isinstance(message, str) else json.dumps(message)
    return text if len(text) < limit else text[:limit] + "..."


class Bucket:
    """A token bucket like the server's, so that paced sends are never refused."""

    def __init__(self, rate, burst):
        self.rate, self.burst, self.tokens, self.last = rate, burst, burst, time.monotonic()

    def wait_s(self):
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate


ADDRESS_BUCKET = Bucket(ADDRESS_RATE, ADDRESS_BURST)


def set_address_rate(rate, burst):
    """For a server started with --per-address-rate 0: the address's pacing can be raised."""
    ADDRESS_BUCKET.rate, ADDRESS_BUCKET.burst, ADDRESS_BUCKET.tokens = rate, burst, burst


# ---------------------------------------------------------------------------------------------------------
# Merge patches and positions


def merge_patch(target, patch):
    """RFC 7386: the patched value. `target` may be changed in place; the result shares no object of `patch`'s
    with anyone else as long as `patch` was parsed for this client alone."""
    if not isinstance(patch, dict):
        return patch
    if not isinstance(target, dict):
        target = {}
    for key, value in patch.items():
        if value is None:
            target.pop(key, None)
        else:
            target[key] = merge_patch(target.get(key), value)
    return target


def comparable(position):
    """A position as protocol.md says to compare them: members that are null dropped (recursively, in objects;
    array elements stay), `clocks.ms` ignored."""

    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if v is not None}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    out = strip(position)
    if isinstance(out, dict) and isinstance(out.get("clocks"), dict):
        out["clocks"].pop("ms", None)
    return out


def first_difference(a, b, path="position"):
    """A short description of where two JSON values first differ (None if equal)."""
    if type(a) is not type(b):
        return f"{path}: {short(a, 120)} vs {short(b, 120)}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: {'missing' if k not in a else short(a[k], 120)} vs " \
                       f"{'missing' if k not in b else short(b[k], 120)}"
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} elements vs {len(b)}: {short(a, 120)} vs {short(b, 120)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {short(a, 120)} vs {short(b, 120)}"


def number_text(x):
    """A number as the server writes it in an action: no trailing zeros (3.25, 3, 0.125)."""
    text = f"{x:.6f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def expand_legal(legal):
    """The legal texts with groups ["prefix","w1 w2"] and folded ranges {"prefix","from","to","step"} written
    out."""
    out = []
    for item in legal:
        if isinstance(item, str):
            out.append(item)
            continue
        if isinstance(item, list):
            check(len(item) == 2 and all(isinstance(x, str) and x for x in item),
                  f"a legal group is [prefix, words]: {short(item)}")
            out.extend(f"{item[0]} {word}" for word in item[1].split(" "))
            continue
        check(isinstance(item, dict) and set(item) == {"prefix", "from", "to", "step"},
              f"a legal entry is a text or a range: {short(item)}")
        start, stop, step = item["from"], item["to"], item["step"]
        check(step > 0 and stop >= start, f"a range with a positive step: {short(item)}")
        n = round((stop - start) / step)
        check(abs(start + n * step - stop) < 1e-9, f"a range's 'to' is 'from' plus whole steps: {short(item)}")
        out.extend(f"{item['prefix']} {number_text(start + i * step)}" for i in range(n + 1))
    return out


def ungrouped(legal):
    """`legal` with its groups ["prefix","w1 w2"] written out as texts (folded ranges kept); None stays None."""
    if legal is None:
        return None
    out = []
    for item in legal:
        if isinstance(item, list):
            out.extend(expand_legal([item]))
        else:
            out.append(item)
    return out


def stripped(message):
    """An event without what only the seat to move gets."""
    return {k: v for k, v in message.items() if k not in ("legal", "can_end_turn")}


# ---------------------------------------------------------------------------------------------------------
# The client


class RoomView:
    """What one connection knows of one room: built from its `state`, kept by applying patches."""

    def __init__(self, state):
        self.version = state["version"]
        self.epoch = state.get("epoch")
        self.position = copy.deepcopy(state["position"])
        self.legal = ungrouped(state.get("legal", []))  # groups written out, ranges kept
        self.can_end_turn = state.get("can_end_turn", False)
        self.seat = None
        self.player_ids = [s["id"] if s else None for s in state["seats"]]


class Client:
    """One WebSocket connection. Everything it receives is kept in order (`received`, arrival times in `times`);
    `expect` reads it like a queue. For every room it has a `state` of, it keeps the position by applying the
    patches of the events in version order (`rooms[id]`), and checks every message against protocol.md's
    rules on `legal`: only messages with a patch, a position or `events` may carry `legal`/`can_end_turn`,
    and they must exactly when they go to a connection of the seat to move. What breaks a rule goes into
    `problems` (a test checks it is empty), so that nothing slips between two `expect`s."""

    def __init__(self, name, url, ssl=None):
        self.name, self.url, self.ssl = name, url, ssl  # ssl: a context for a wss:// url (None: the default)
        self.received = []
        self.times = []
        self.cursor = 0
        self.bucket = Bucket(CONNECTION_RATE, CONNECTION_BURST)
        self.arrived = asyncio.Event()
        self.ws = None
        self.reader = None
        self.player_id = self.token = None
        self.rooms = {}
        self.problems = []
        self.legal_messages = 0  # messages that carried `legal`

    async def open(self):
        self.ws = await websockets.connect(self.url, max_size=1 << 24, open_timeout=5, compression=None,
                                           ssl=self.ssl)
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self):
        try:
            async for raw in self.ws:
                try:
                    m = json.loads(raw)
                except ValueError:
                    m = {"type": "<not JSON>", "raw": raw}
                self.received.append(m)
                self.times.append(time.monotonic())
                try:
                    self._track(m)
                except Exception as e:  # noqa: BLE001 - a malformed message is a problem to report
                    self.problems.append(f"{type(e).__name__} {e} on {short(m)}")
                self.arrived.set()
        except websockets.exceptions.ConnectionClosed:
            pass
        self.arrived.set()

    def problem(self, text):
        self.problems.append(f"{self.name}: {text}")

    def _seat_in(self, view):
        return next((s for s in (0, 1) if self.player_id and view.player_ids[s] == self.player_id), None)

    def _apply_event(self, view, e, where):
        # Versions count within an epoch: an event of another one may only follow a state of it.
        if e.get("epoch") != view.epoch:
            self.problem(f"{where}: an event of epoch {e.get('epoch')} after a state of epoch {view.epoch}: "
                         f"{short(e)}")
        if e["version"] != view.version + 1:
            self.problem(f"{where}: event version {e['version']} after version {view.version}: {short(e)}")
        view.version = e["version"]
        if e.get("kind") == "seated":
            view.player_ids[e["seat"]] = e["player"]["id"]
        elif e.get("kind") == "left":
            view.player_ids[e["seat"]] = None
        if "position" in e:
            self.problem(f"{where}: a v2 event carries a whole position: {short(e)}")
        if "patch" in e:
            view.position = merge_patch(view.position, e["patch"])

    def _check_legal(self, view, m, carrier):
        """`carrier`: the message may carry legal (a patch, a position or `events`)."""
        has = "legal" in m or "can_end_turn" in m
        position = view.position or {}
        mover = position.get("to_move") if position.get("status") == "live" else None
        seat = self._seat_in(view)
        should = carrier and seat is not None and mover == seat
        if has and not should:
            who = "a spectator" if seat is None else f"seat {seat}, not to move (to_move {mover})"
            self.problem(f"{who} got legal/can_end_turn in {m['type']} {m.get('kind', '')} "
                         f"v{m.get('version')}: {short(m)}")
        elif should and "legal" not in m:
            self.problem(f"seat {seat} is to move but {m['type']} {m.get('kind', '')} v{m.get('version')} "
                         f"lacks legal: {short(m)}")
        if carrier:
            view.legal = ungrouped(m.get("legal", []))
            view.can_end_turn = m.get("can_end_turn", False)
        if "legal" in m:
            self.legal_messages += 1
            if not isinstance(m["legal"], list) or m.get("can_end_turn", True) is not True:
                self.problem(f"legal is a list and can_end_turn, when sent, is true: {short(m)}")
        if "legal" in position or "can_end_turn" in position:
            self.problem(f"legal/can_end_turn inside the position (v1): {short(position)}")

    def _track(self, m):
        kind, room = m.get("type"), m.get("room")
        if kind == "state":
            if "legal" in m.get("position", {}):
                self.problem(f"the state's position has legal (v1): {short(m)}")
            view = self.rooms[room] = RoomView(m)
            self._check_legal(view, m, True)
        elif kind == "events" and room in self.rooms:
            view = self.rooms[room]
            if m.get("epoch") != view.epoch:
                self.problem(f"`events` of epoch {m.get('epoch')} after a state of epoch {view.epoch}")
            for e in m["events"]:
                if "legal" in e or "can_end_turn" in e:
                    self.problem(f"an event inside `events` carries legal: {short(e)}")
                if e["version"] <= view.version:
                    self.problem(f"`events` repeats version {e['version']} (had {view.version})")
                    continue
                self._apply_event(view, e, "events")
            if m["version"] != view.version:
                self.problem(f"`events` says version {m['version']}, its events end at {view.version}")
            self._check_legal(view, m, True)
        elif kind == "event" and room in self.rooms:
            view = self.rooms[room]
            self._apply_event(view, m, "event")
            self._check_legal(view, m, "patch" in m)
        elif kind in ("event", "events"):
            pass  # a room this connection has no state of: nothing to check it against
        elif "legal" in m or "can_end_turn" in m:
            self.problem(f"a {kind} message carries legal: {short(m)}")

    def view(self, room):
        return self.rooms[room]

    async def close(self):
        if self.ws is not None:
            await self.ws.close()
            await self.reader

    async def send(self, message):
        """Sends a dict as JSON (or a str as it is), paced under the server's rate limits."""
        while True:
            wait = max(self.bucket.wait_s(), ADDRESS_BUCKET.wait_s())
            if wait == 0:
                break
            await asyncio.sleep(wait)
        self.bucket.tokens -= 1
        ADDRESS_BUCKET.tokens -= 1
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def expect(self, what, predicate, timeout=5.0, next_only=False):
        """The first message from the cursor on that matches (or, with next_only, the very next one)."""
        deadline = time.monotonic() + timeout
        while True:
            while self.cursor < len(self.received):
                m = self.received[self.cursor]
                self.cursor += 1
                if predicate(m):
                    return m
                if next_only:
                    raise Failed(f"{self.name}: expected {what}, got {short(m)}")
            if self.reader.done():
                raise Failed(f"{self.name}: the connection closed (code {self.ws.close_code}) "
                             f"while waiting for {what}")
            left = deadline - time.monotonic()
            if left <= 0:
                recent = [short(m) for m in self.received[-3:]]
                raise Failed(f"{self.name}: no {what} within {timeout:g} s (last messages: {recent})")
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), left)
            except asyncio.TimeoutError:
                pass

    async def hello(self, **fields):
        await self.send({"type": "hello", **fields})
        m = await self.expect("welcome", lambda m: m["type"] in ("welcome", "error"))
        check(m["type"] == "welcome", f"{self.name}: hello {fields} answered {short(m)}")
        check(m.get("protocol") == PROTOCOL, f"{self.name}: welcome says protocol {PROTOCOL}: {short(m)}")
        self.player_id = m["player"]["id"]
        self.token = m.get("token", self.token)
        return m

    def skip(self):
        """Forgets the messages not yet expected: the next `expect` looks only at what comes after."""
        self.cursor = len(self.received)

    def events(self, room):
        return [m for m in self.received if m["type"] == "event" and m["room"] == room]


def is_type(kind, **fields):
    return lambda m: m.get("type") == kind and all(m.get(k) == v for k, v in fields.items())


def is_event(kind, room):
    return lambda m: m.get("type") == "event" and m.get("kind") == kind and m.get("room") == room


def is_error(code):
    return lambda m: m.get("type") == "error" and m.get("code") == code


def no_problems(clients):
    problems = [p for c in clients for p in c.problems]
    check(not problems, f"{len(problems)} protocol problem(s), first ones:\n  " + "\n  ".join(problems[:5]))


# ---------------------------------------------------------------------------------------------------------
# The server and HTTP


class Server:
    def __init__(self, binary, web_dir, *extra):
        self.data = tempfile.mkdtemp(prefix="cinq-py-test-")
        self.log_path = os.path.join(self.data, "server.log")
        self.log = open(self.log_path, "w")
        # Output goes to a file, not a pipe: a pipe nobody reads would block the server's logging.
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--data", self.data, "--web", web_dir, *extra],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.port = None

    def wait_ready(self, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(self.log_path) as f:
                found = re.search(r"^cinq: listening on https?://[^:\s]+:(\d+)\s*$", f.read(), re.M)
            if found:
                self.port = int(found.group(1))
                return
            check(self.process.poll() is None,
                  f"cinq serve exited with {self.process.returncode}:\n{self.tail()}")
            time.sleep(0.05)
        raise Failed(f"cinq serve did not say 'listening' within {timeout} s:\n{self.tail()}")

    def stop(self):
        """SIGTERM, then SIGKILL if it lingers; returns the exit code after SIGTERM (None if killed)."""
        code = None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                code = self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        else:
            code = self.process.returncode
        self.log.close()
        return code

    def tail(self, lines=30):
        with open(self.log_path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])

    def cleanup(self):
        shutil.rmtree(self.data, ignore_errors=True)


def http(port, path, body=None, content_type="text/plain", timeout=10):
    """(status, content type, body text) of a GET (or a POST with `body`), blocking: call it off the loop."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                     headers={"Content-Type": content_type} if data is not None else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode("utf-8")


http_get = http


async def get(port, path):
    return await asyncio.to_thread(http, port, path)


async def get_json(port, path):
    status, _, body = await get(port, path)
    check(status == 200, f"GET {path}: HTTP {status}: {body[:300]}")
    return json.loads(body)


def checked_run(server, start, checks, timeout_s):
    """`start()` (waits for the server), then `checks()` (a coroutine function) within `timeout_s`, then stops
    the server (it must exit 0 on SIGTERM); prints the failure with the server log's end. Returns the failure,
    None if none. The server's data stay (cleanup())."""
    import sys
    failure = None
    try:
        start()
        asyncio.run(asyncio.wait_for(checks(), timeout_s))
    except Failed as e:
        failure = str(e)
    except asyncio.TimeoutError:
        failure = f"the checks took over {timeout_s} s"
    except Exception as e:  # noqa: BLE001 - any surprise is a failed test with its reason
        import traceback
        failure = f"{type(e).__name__}: {e}\n{traceback.format_exc()}"
    finally:
        code = server.stop()
    if failure is None and code != 0:
        failure = f"cinq serve exited with {code} after SIGTERM (expected 0)"
    if failure:
        print(f"FAILED: {failure}\n--- server log (end) ---\n{server.tail()}", file=sys.stderr)
    return failure


def run_main(usage, argc, body, timeout_s, server_args=()):
    """Starts the server, runs `body(port)` (a coroutine function) within `timeout_s`, stops the server (it
    must exit 0 on SIGTERM), prints the failure with the server log's end. Returns the exit code."""
    import sys
    if len(sys.argv) != argc:
        print(usage, file=sys.stderr)
        return 2
    server = Server(sys.argv[1], sys.argv[2], *server_args)
    failure = checked_run(server, server.wait_ready, lambda: body(server.port, *sys.argv[3:]), timeout_s)
    server.cleanup()
    return 1 if failure else 0
