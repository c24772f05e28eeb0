#!/usr/bin/env python3
"""The WebSocket protocol (docs/protocol.md) checked with a client this project did not write.

Usage: protocol_test.py CINQ_BINARY WEB_DIR

Starts `cinq serve --port 0` in a fresh data directory, talks to it with the `websockets` library (Debian's
python3-websockets) and urllib, and always stops it at the end. Exit 0 when every check passes, 1 with the
failed check's message otherwise. Standard library only besides `websockets`: no pip.
"""

import asyncio
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import websockets

# The server allows 20 messages a second per connection (bursts of 40) and 100 a second per address
# (bursts of 200). Every client here shares one address, so sends are paced below both limits: only the
# rate-limit check means to go over them.
CONNECTION_RATE, CONNECTION_BURST = 15.0, 20.0
ADDRESS_RATE, ADDRESS_BURST = 60.0, 100.0
MAX_TURNS = 1500  # random Tablut with captures preferred ends far sooner; this only bounds a broken server
QUIET_S = 0.3  # how long "nobody else heard anything" is watched for


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


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


class Client:
    """One WebSocket connection: everything it receives is kept in order; `expect` reads it like a queue."""

    def __init__(self, name, url):
        self.name, self.url = name, url
        self.received = []  # every message, parsed, in arrival order
        self.cursor = 0  # the next message `expect` looks at
        self.bucket = Bucket(CONNECTION_RATE, CONNECTION_BURST)
        self.arrived = asyncio.Event()
        self.ws = None
        self.reader = None
        self.player_id = self.token = None

    async def open(self):
        self.ws = await websockets.connect(self.url, max_size=1 << 22, open_timeout=5)
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self):
        try:
            async for raw in self.ws:
                try:
                    self.received.append(json.loads(raw))
                except ValueError:
                    self.received.append({"type": "<not JSON>", "raw": raw})
                self.arrived.set()
        except websockets.exceptions.ConnectionClosed:
            pass
        self.arrived.set()

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
        self.player_id = m["player"]["id"]
        self.token = m.get("token", self.token)
        return m

    def skip(self):
        """Forgets the messages not yet expected: the next `expect` looks only at what comes after."""
        self.cursor = len(self.received)

    def events(self, room):
        return [m for m in self.received if m["type"] == "event" and m["room"] == room]


def short(message):
    text = json.dumps(message)
    return text if len(text) < 300 else text[:300] + "..."


def is_type(kind, **fields):
    return lambda m: m.get("type") == kind and all(m.get(k) == v for k, v in fields.items())


def is_event(kind, room):
    return lambda m: m.get("type") == "event" and m.get("kind") == kind and m.get("room") == room


def is_error(code):
    return lambda m: m.get("type") == "error" and m.get("code") == code


# ---------------------------------------------------------------------------------------------------------
# The server and HTTP


class Server:
    def __init__(self, binary, web_dir):
        self.data = tempfile.mkdtemp(prefix="cinq-protocol-test-")
        self.log_path = os.path.join(self.data, "server.log")
        self.log = open(self.log_path, "w")
        # Output goes to a file, not a pipe: a pipe nobody reads would block the server's logging.
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--data", self.data, "--web", web_dir],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.port = None

    def wait_ready(self, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(self.log_path) as f:
                found = re.search(r"^cinq: listening on http://[^:\s]+:(\d+)\s*$", f.read(), re.M)
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


def http_get(port, path):
    """(status, content type, body text) of a GET, off the event loop's thread."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode("utf-8")


async def get(port, path):
    return await asyncio.to_thread(http_get, port, path)


async def get_json(port, path):
    status, _, body = await get(port, path)
    check(status == 200, f"GET {path}: HTTP {status}: {body[:300]}")
    return json.loads(body)


# ---------------------------------------------------------------------------------------------------------
# Playing Tablut from position.legal alone


def choose(position, rng, aggressive):
    """A legal text. Aggressive: the king's escape if there is one, else a capture, else a seeded random move
    (such games end within a few dozen turns). Otherwise a quiet move, so the mid-game checks have a game."""
    legal = position["legal"]
    check(legal and all(isinstance(t, str) for t in legal),
          f"a live Tablut position lists its moves: {short(position)}")
    king = next((p["square"] for p in position["view"]["pieces"] if p["king"]), None)
    corners = {"a1", "a9", "i1", "i9"}
    escapes = [t for t in legal if t.split()[0] == king and t.split()[1] in corners]
    captures = sorted(t for t in legal if " x " in t)
    if not aggressive:
        quiet = sorted(t for t in legal if t not in escapes and t not in captures)
        return rng.choice(quiet or sorted(legal))
    if escapes:
        return escapes[0]
    return rng.choice(captures or sorted(legal))


class Game:
    """A room being played by two seated clients, watched by whoever else joined."""

    def __init__(self, port, room, players, state):
        self.port, self.room, self.players = port, room, players  # players[seat] is a Client
        self.position = state["position"]
        self.version = state["version"]
        self.rng = random.Random(7)
        self.turns = 0
        self.aggressive = False
        self.everyone = list(players)  # the clients in the room: players, then the spectator
        self.spectator = self.steady = None  # steady: a player connected from start to end
        self.join_version = None  # the spectator's state's version

    async def play_turn(self, everyone):
        """The seat to move plays one legal move; everyone sees the same `play` event."""
        seat = self.position["to_move"]
        text = choose(self.position, self.rng, self.aggressive)
        await self.players[seat].send({"type": "act", "room": self.room, "actions": [text]})
        seen = None
        for c in everyone:
            m = await c.expect(f"the play event of '{text}'", is_event("play", self.room))
            check(m["seat"] == seat and m["turn_over"],
                  f"{c.name}: play event {short(m)} after seat {seat} played")
            check(m["actions"] == [text], f"{c.name}: '{text}' was played but the event says {m['actions']}")
            if seen is None:
                seen = m
            check(m == seen, f"{c.name} and {everyone[0].name} got different play events")
        self.position, self.version = seen["position"], seen["version"]
        self.turns += 1
        return seen

    def over(self):
        # The last play event's position holds the result; `finished` (next event) has status "finished".
        return self.position["result"] is not None

    async def state_version(self):
        return (await get_json(self.port, f"/api/games/{self.room}"))["version"]


# ---------------------------------------------------------------------------------------------------------
# The checks


async def check_identity(url):
    alice = await Client("alice", url).open()
    # Only hello and ping may come first.
    await alice.send({"type": "rooms", "ref": "early"})
    m = await alice.expect("hello_required", lambda m: True, next_only=True)
    check(is_error("hello_required")(m) and m.get("ref") == "early", f"rooms before hello: {short(m)}")
    w = await alice.hello(name="Alice")
    check(w["player"]["name"] == "Alice", f"welcome names the player: {short(w)}")
    check(isinstance(w["player"]["id"], str) and w["player"]["id"], f"welcome has an id: {short(w)}")
    check(isinstance(w["token"], str) and len(w["token"]) == 32,
          f"welcome has a 32-character token: {short(w)}")
    player_id, token = alice.player_id, alice.token
    await alice.close()

    again = await Client("alice-again", url).open()
    w = await again.hello(id=player_id, token=token)
    check(w["player"] == {"id": player_id, "name": "Alice"},
          f"reconnecting with id+token restores Alice: {short(w)}")
    await again.close()

    thief = await Client("thief", url).open()
    await thief.send({"type": "hello", "id": player_id, "token": "x" * 32, "ref": 1})
    m = await thief.expect("bad_token", lambda m: True, next_only=True)
    check(is_error("bad_token")(m) and m.get("ref") == 1,
          f"a wrong token is refused with bad_token: {short(m)}")
    w = await thief.hello(name="Thief")  # and the connection may still say hello as someone new
    check(w["player"]["id"] != player_id, "a new identity is not Alice's")
    await thief.close()
    print("ok: hello/welcome, reconnect with id+token, bad_token")


async def check_bad_input(game, sender, others, message, code, ref=None):
    """`message` gets exactly one `code` error, to its sender only, and changes nothing."""
    version = await game.state_version()
    counts = [len(c.received) for c in others]
    sender.skip()
    sender_count = len(sender.received)
    await sender.send(message)
    what = message if isinstance(message, str) else json.dumps(message)
    what = what if len(what) < 80 else f"{what[:60]}... ({len(what)} bytes)"
    m = await sender.expect(f"the answer to {what}", lambda m: True, next_only=True)
    check(is_error(code)(m), f"{what} should get a '{code}' error, got {short(m)}")
    check(isinstance(m.get("message"), str) and m["message"],
          f"the '{code}' error explains itself: {short(m)}")
    if ref is not None:
        check(m.get("ref") == ref, f"the '{code}' error echoes ref {ref}: {short(m)}")
    await asyncio.sleep(QUIET_S)
    check(len(sender.received) == sender_count + 1, f"{what}: the sender got more than one answer: "
          f"{[short(x) for x in sender.received[sender_count:]]}")
    for c, n in zip(others, counts):
        check(len(c.received) == n, f"{what}: {c.name} heard of it: {[short(x) for x in c.received[n:]]}")
    check(await game.state_version() == version, f"{what}: the room's version changed")


async def start_game(url, port):
    """Alice creates a public Tablut room, Bob sits, 8 turns are played; REST lists the live room."""
    alice = await Client("alice", url).open()
    bob = await Client("bob", url).open()
    await alice.hello(name="Alice")
    await bob.hello(name="Bob")

    await alice.send(
        {"type": "create", "game": "tablut", "options": "", "clock": None, "private": False, "seat": 0})
    state = await alice.expect("the new room's state", is_type("state"))
    room = state["room"]
    check(state["game"] == "tablut" and state["sides"] == ["A", "D"],
          f"the state of a new Tablut room: {short(state)}")
    check(state["seats"][0]["id"] == alice.player_id and state["seats"][1] is None, "Alice holds seat 0")

    # A private room, never listed.
    pat = await Client("pat", url).open()
    await pat.hello(name="Pat")
    await pat.send({"type": "create", "game": "tablut", "private": True, "seat": 1})
    private_room = (await pat.expect("the private room's state", is_type("state")))["room"]

    await bob.send({"type": "sit", "room": room, "seat": 1})
    state = await bob.expect("the room's state after sitting", is_type("state", room=room))
    await alice.expect("Bob's seat", is_event("seated", room))
    started = await alice.expect("the start", is_event("started", room))
    check(state["seats"][1]["id"] == bob.player_id, f"Bob holds seat 1: {short(state)}")
    check(started["position"]["status"] == "live" and started["position"]["to_move"] == 0,
          f"the game starts with the attackers (seat 0) to move: {short(started)}")
    check(state["position"]["status"] == "live", "Bob's state shows the game live")

    game = Game(port, room, [alice, bob], {"position": started["position"], "version": started["version"]})
    game.everyone = [alice, bob]
    for _ in range(8):
        await game.play_turn(game.everyone)
    check(not game.over(), "the game lasts beyond 8 turns")

    listed = {g["room"]: g for g in (await get_json(port, "/api/games"))["games"]}
    check(room in listed and listed[room]["status"] == "live",
          f"/api/games lists the live room: {list(listed)}")
    check(listed[room]["game"] == "tablut" and listed[room]["turn"] == game.turns,
          f"the listing shows the game and its turn: {listed[room]}")
    check(private_room not in listed, "/api/games never lists a private room")
    health = await get_json(port, "/api/health")
    check(health.get("status") == "ok" and health.get("rooms", 0) >= 2 and health.get("connections", 0) >= 3,
          f"/api/health: {health}")
    await pat.close()
    return game


async def watch_and_reconnect(url, game):
    """A spectator joins mid-game; a player drops, misses events, and comes back with exactly them."""
    room = game.room
    carol = game.spectator = await Client("carol", url).open()
    await carol.hello(name="Carol")
    await carol.send({"type": "join", "room": room})
    first = await carol.expect("the state", lambda m: True, next_only=True)
    check(first["type"] == "state" and first["room"] == room,
          f"a spectator's first message is the state: {short(first)}")
    check(first["version"] >= game.version and first["position"]["turn"] == game.turns,
          f"the spectator's state is the current one: "
          f"version {first['version']}, turn {first['position']['turn']}")
    game.join_version = first["version"]
    for c in game.players:
        await c.expect("the spectator count", is_event("spectators", room))
    game.everyone = [*game.players, carol]
    for _ in range(6):
        await game.play_turn(game.everyone)

    mover = game.steady = game.players[game.position["to_move"]]
    dropper = game.players[1 - game.position["to_move"]]
    seat_dropped = game.players.index(dropper)
    last_seen = dropper.events(room)[-1]["version"]
    await dropper.close()
    for c in (mover, carol):
        m = await c.expect("the dropped player's presence", is_event("presence", room))
        check(m["seat"] == seat_dropped and m["online"] is False,
              f"{c.name}: presence after the drop: {short(m)}")
    await game.play_turn([mover, carol])  # a move the dropped player does not see
    back = await Client(dropper.name + "-back", url).open()
    await back.hello(id=dropper.player_id, token=dropper.token)
    missed = [e for e in carol.events(room) if e["version"] > last_seen]  # before the return is announced
    await back.send({"type": "join", "room": room, "since": last_seen})
    m = await back.expect("the missed events", lambda m: True, next_only=True)
    check(m["type"] == "events" and m["room"] == room, f"join with since answers with events: {short(m)}")
    check(m["version"] == missed[-1]["version"], f"the events' version {m['version']} is the room's")
    listing = lambda events: [(e["version"], e["kind"]) for e in events]
    check(m["events"] == missed, f"the events are exactly the {len(missed)} missed ones: "
          f"got {listing(m['events'])}, want {listing(missed)}")
    check(any(e["kind"] == "play" for e in m["events"]),
          "the missed events include the move played meanwhile")
    game.players[seat_dropped] = back
    game.everyone = [*game.players, carol]
    for c in (mover, carol):
        m = await c.expect("the returning player's presence", is_event("presence", room))
        check(m["seat"] == seat_dropped and m["online"] is True,
              f"{c.name}: presence after the return: {short(m)}")
    await back.expect("its own presence", is_event("presence", room))

    # Nothing missed: an empty list.
    carol.skip()
    await carol.send({"type": "join", "room": room, "since": carol.events(room)[-1]["version"]})
    m = await carol.expect("no missed events", lambda m: True, next_only=True)
    check(m["type"] == "events" and m["events"] == [],
          f"join with since = the last version: no events: {short(m)}")
    for _ in range(4):
        await game.play_turn(game.everyone)
    print(f"ok: spectator joined at version {game.join_version}; reconnect with since={last_seen} got "
          f"{len(missed)} missed events")


def refusals(game):
    """`refused(sender, message, code)` and the messages the refusal checks send."""
    act = lambda text, **more: {"type": "act", "room": game.room, "actions": [text], **more}
    refused = lambda sender, message, code, ref=None: check_bad_input(
        game, sender, [c for c in game.everyone if c is not sender], message, code, ref)
    return act, refused


async def check_refusals(game):
    """Bad input: answered to its sender only, nothing changes."""
    check(not game.over(), "the game is still live for the bad-input checks")
    to_move = game.players[game.position["to_move"]]
    waiting = game.players[1 - game.position["to_move"]]
    carol = game.spectator
    legal = game.position["legal"][0]
    illegal = next(t for t in ("a1 a2", "e5 e5", "i9 h9") if t not in game.position["legal"])
    act, refused = refusals(game)
    await refused(waiting, '{"type": "act", "room": ', "bad_json")
    await refused(waiting, '["act"]', "bad_json")
    await refused(carol, {"type": "dance", "room": game.room, "ref": "r1"}, "unknown_type", ref="r1")
    await refused(to_move, {"type": "act", "actions": [legal], "ref": 7}, "bad_message", ref=7)  # no room
    await refused(to_move, {"type": "act", "room": game.room}, "bad_message")  # nothing to play
    big = json.dumps(act(legal, pad=""))
    big = json.dumps(act(legal, pad="x" * (5000 - len(big))))
    check(len(big.encode()) == 5000, f"the big message is 5000 bytes: {len(big)}")
    await refused(to_move, big, "too_big")
    await refused(waiting, act(legal), "not_your_turn")
    await refused(to_move, act(illegal), "illegal")
    await refused(carol, act(legal), "not_seated")
    await refused(carol, {"type": "resign", "room": game.room}, "not_seated")
    await refused(to_move, {"type": "act", "room": "nosuchroom", "actions": [legal]}, "no_room")
    print("ok: bad input answered to its sender only, nothing changed")


async def finish_game(game):
    """Plays to the end; everyone hears `finished`; the record, REST and /metrics agree."""
    room, port, carol = game.room, game.port, game.spectator
    game.aggressive = True
    while not game.over():
        check(game.turns < MAX_TURNS, f"the game did not end within {MAX_TURNS} turns")
        await game.play_turn(game.everyone)
    result = game.position["result"]
    check(result and result["text"], f"a finished position has a result: {game.position}")
    finished = []
    for c in game.everyone:
        m = await c.expect("the end of the game", is_event("finished", room))
        check(m["result"] == result,
              f"{c.name}: finished with {m['result']}, the last position says {result}")
        finished.append(m)
    check(all(m == finished[0] for m in finished), "everyone got the same finished event")
    check(finished[0]["version"] == game.version + 1, "finished comes right after the last play")

    # The spectator saw the state, then every event, versions consecutive.
    versions = [e["version"] for e in carol.events(room)]
    first = game.join_version + 1
    check(versions == list(range(first, first + len(versions))),
          f"the spectator's event versions are consecutive from {first}: {versions}")
    plays = lambda c: [e["version"] for e in c.events(room) if e["kind"] == "play" and e["version"] >= first]
    check(plays(carol) == plays(game.steady), "the spectator saw every play event the players saw")

    act, refused = refusals(game)
    await refused(game.players[0], act("e1 e2"), "game_over")
    await refused(game.players[1], act("e3 e2"), "game_over")

    status, content_type, record = await get(port, f"/api/games/{room}/record")
    check(status == 200 and content_type.startswith("text/plain"),
          f"GET record: HTTP {status} {content_type}")
    lines = [line.strip() for line in record.splitlines() if line.strip()]
    check(lines[0].upper().startswith("#! TABLUT"), f"the record starts with '#! TABLUT': {lines[:1]}")
    check(lines[-1] == "#= " + result["text"], f"the record ends with '#= {result['text']}': {lines[-1]!r}")
    last_line = (game.turns + 1) // 2
    check(any(re.match(rf"^0*{last_line}\s", line) for line in lines),
          f"the record has turn line {last_line}")
    state = await get_json(port, f"/api/games/{room}")
    check(state["position"]["status"] == "finished" and state["position"]["result"] == result,
          f"GET /api/games/{{id}} says finished: {short(state['position'])}")
    listed = [g["room"] for g in (await get_json(port, "/api/games"))["games"]]
    check(room not in listed, "a finished game is no longer listed")

    metrics_status, metrics_type, metrics = await get(port, "/metrics")
    check(metrics_status == 200 and metrics_type.startswith("text/plain"), f"/metrics: HTTP {metrics_status}")
    accepted = re.search(r"^cinq_turns_accepted_total (\d+)$", metrics, re.M)
    check(accepted and int(accepted.group(1)) >= game.turns,
          f"cinq_turns_accepted_total counts the {game.turns} turns: {accepted and accepted.group(0)}")
    check(re.search(r"^# TYPE cinq_turns_accepted_total counter$", metrics, re.M),
          "/metrics is Prometheus text")

    for c in game.everyone:
        await c.close()
    await asyncio.sleep(0.2)  # with nobody left in it, the finished room is read back from the store
    state = await get_json(port, f"/api/games/{room}")
    check(state["position"]["status"] == "finished" and state["position"]["result"] == result,
          "the stored game says finished")
    print(f"ok: a whole Tablut game, {game.turns} turns, '{result['text']}'; record, REST and /metrics agree")


async def check_rate_limit(url):
    await asyncio.sleep(2.5)  # the address's bucket refills after the game
    flood = await Client("flood", url).open()
    await flood.hello(name="Flood")
    await asyncio.sleep(2.5)  # and this connection's
    start = len(flood.received)
    for i in range(100):  # unpaced, on purpose
        await flood.ws.send(json.dumps({"type": "ping", "ref": i}))
    await asyncio.sleep(1.0)
    answers = flood.received[start:]
    limited = [m for m in answers if is_error("rate_limited")(m)]
    pongs = [m for m in answers if m["type"] == "pong"]
    check(limited, f"100 pings at once get a rate_limited error: got {len(pongs)} pongs and no error")
    check(len(limited) <= 2, f"at most one rate_limited error a second: got {len(limited)}")
    check(0 < len(pongs) < 100, f"some pings are answered, the others dropped: {len(pongs)} pongs")
    check(len(answers) == len(limited) + len(pongs),
          f"only pongs and rate_limited: {[short(m) for m in answers]}")
    await asyncio.sleep(2.0)
    flood.cursor = len(flood.received)
    await flood.send({"type": "ping", "ref": "after"})
    m = await flood.expect("a pong", lambda m: True, next_only=True)
    check(m == {"type": "pong", "ref": "after"}, f"after a pause the connection works: {short(m)}")
    await flood.close()
    print(f"ok: rate limit: {len(pongs)} pongs, {len(limited)} rate_limited, then a pong")


async def run(port):
    url = f"ws://127.0.0.1:{port}/ws"
    await check_identity(url)
    game = await start_game(url, port)
    await watch_and_reconnect(url, game)
    await check_refusals(game)
    await finish_game(game)
    await check_rate_limit(url)


def main():
    if len(sys.argv) != 3:
        print("usage: protocol_test.py CINQ_BINARY WEB_DIR", file=sys.stderr)
        return 2
    server = Server(sys.argv[1], sys.argv[2])
    failure = None
    try:
        server.wait_ready()
        asyncio.run(asyncio.wait_for(run(server.port), 100))
    except Failed as e:
        failure = str(e)
    except asyncio.TimeoutError:
        failure = "the checks took over 100 s"
    except Exception as e:  # noqa: BLE001 - any surprise is a failed test with its reason
        failure = f"{type(e).__name__}: {e}"
    finally:
        code = server.stop()
    if failure is None and code != 0:
        failure = f"cinq serve exited with {code} after SIGTERM (expected 0)"
    if failure:
        print(f"FAILED: {failure}\n--- server log (end) ---\n{server.tail()}", file=sys.stderr)
        server.cleanup()
        return 1
    server.cleanup()
    print("protocol_test.py: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
