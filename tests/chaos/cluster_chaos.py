#!/usr/bin/env python3
"""Cluster chaos: live games on three nodes (PostgreSQL, Redis, HAProxy: tests/cluster/harness.py) while one
fault a round strikes at random, and checks that no member of a room ever misses, repeats or reorders a turn,
that every turn announced to anyone is stored, and that every room still plays afterwards.

    cluster_chaos.py CINQ WEB_DIR [--rounds N] [--seed S] [--rooms K] [--faults KIND,...] [--keep DIR]
                     [--keep-going]

Each room is a Tablut game: two players and two spectators, their connections spread over the three nodes
and HAProxy. Every client logs each event it is told as (epoch, version) and keeps the room's history of
turns, as a real client would: it reconnects when its connection goes (hello with its id and token, then
`join` with `since` its last version and `epoch` its last epoch, through another node when its own does not
answer), rejoins when told `storage`, and resynchronises when an event comes in another epoch (a room
reloaded somewhere). The players play random legal turns throughout.

Faults (one a round, drawn among --faults): the SIGKILL of a room's owner (restarted a moment later),
SIGSTOP/SIGCONT of an owner shorter than its lease (~2 s) and longer (8-12 s), Redis killed and restarted or
paused, PostgreSQL stopped and started or paused, HAProxy restarted, a rolling restart (each node SIGTERM
then started again, one after the other).

After each round, with play stopped: every member of a room holds the same epoch and version; one turn is
played in every live room and reaches every member; every member's history of turns is the stored record
(GET /api/games/{id}/record); every turn ever announced to anyone is in the store at its place. Within an
epoch versions must grow by exactly one per event (a gap or a repeat is a fault); a `state` replaces the
member's history with its record, which must start with every turn the member was told. A missing `epoch`
counts as 0.

Prints one line per round and the totals; exits 1 at the end of the first round with a fault, describing it
(room, member, node, versions, the member's last events), and keeps the nodes' logs and every client's log
(in --keep, or a new directory under /tmp). With --keep-going it describes the fault, replaces the rooms it
touched with new ones and goes on (the totals count the rounds with a fault by kind; exit 1 at the end).
"""

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback

import websockets

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "cluster"))
sys.path.insert(0, os.path.join(HERE, "..", "server"))

from cinq_support import expand_legal, merge_patch  # noqa: E402
from harness import Cluster, http_get, wait_until  # noqa: E402

FAULTS = ["kill_owner", "pause_owner_short", "pause_owner_long", "redis_kill", "redis_pause", "pg_stop",
          "pg_pause", "haproxy_restart", "rolling_restart"]
JOIN_TIMEOUT = 35  # s: a join waits for its room at most 30 s (then `storage`); past that it is a fault
ACT_TIMEOUT = 35  # s: a forwarded command is answered within 30 s (`storage` when no node takes the room)
SETTLE_TIMEOUT = 45  # s for every member to be back in step once the fault is over


class Loss(Exception):
    pass


def clock():
    """The wall clock as the nodes' logs write it (UTC here too when TZ is unset), to read both side by side."""
    now = time.time()
    return time.strftime("%H:%M:%S", time.localtime(now)) + f".{int(now * 1000) % 1000:03d}"


def normal(item):
    """An action as a turn's identity: without a capture annotation (`d1 d5 x c5` is `d1 d5`)."""
    return re.sub(r"\s+x\s.*$", "", " ".join(item.split()))


def record_turns(text):
    """A Tablut record's turns, in order: (side letter, (actions...)). Turns on a line are two spaces apart or
    more; the actions of a turn are between slashes."""
    turns = []
    for line in text.splitlines():
        found = re.match(r"^\d+\s+(.*)$", line)
        if not found:
            continue
        for chunk in re.split(r"\s{2,}", found.group(1).strip()):
            if re.match(r"^[AD]/", chunk):
                turns.append((chunk[0], tuple(normal(i) for i in chunk[2:].split("/") if i.strip())))
    return turns


def turn_text(turn):
    return f"{turn[0]}/{'/'.join(turn[1])}/"


class Room:
    def __init__(self, world, number):
        self.world, self.number = world, number
        self.id = None
        self.members = []
        self.announced = {}  # index of a turn -> (turn, member name, epoch, version): what anyone was told
        self.status = "open"

    def __str__(self):
        return f"room {self.number} ({self.id})"

    def told(self, member, index, turn, epoch, version):
        """A turn told to a member (by an event, or in a state's record): the same turn must be at that place
        for everyone, and in the store."""
        known = self.announced.get(index)
        if known is None:
            self.announced[index] = (turn, member.name, epoch, version)
        elif known[0] != turn:
            self.world.fault(f"{self}: turn {index + 1} was told as {turn_text(known[0])} to {known[1]} "
                             f"(epoch {known[2]}, v{known[3]}) and as {turn_text(turn)} to {member.name} "
                             f"(epoch {epoch}, v{version})", member)


class Member:
    """One client of a room: a player (seat 0 creates the room, seat 1 sits) or a spectator."""

    def __init__(self, world, room, name, role, home):
        self.world, self.room, self.name, self.role, self.home = world, room, name, role, home
        self.rng = random.Random(world.rng.random())
        self.player_id = self.token = None
        self.ws = None
        self.url = None
        self.connected = False
        self.entered = False  # has had a state of the room once
        self.epoch = self.version = None
        self.epochs_seen = False  # the server sends `epoch`: joins carry it back
        self.history = []  # the turns of the room as this member knows them
        self.events = {}  # version -> (kind, turn) of the current epoch, to compare repeats
        self.position = {}
        self.legal = []
        self.seat = None
        self.join_ref = None  # (ref, since, sent at) of the join waiting for its answer
        self.rejoin_at = None  # when to send a join (after `storage`, an epoch change, a refused join)
        self.act = None  # (ref, sent at) of the turn waiting for its answer
        self.next_play = 0.0
        self.log = []  # every message that matters, for the report
        self.counter = 0
        self.stats = {"reconnects": 0, "states": 0, "events_answers": 0, "epoch_changes": 0, "storage": 0}
        self.closing = False
        self.task = None

    def __str__(self):
        return f"{self.name} on {self.url_name()}"

    def url_name(self):
        return self.world.entry_name(self.url) if self.url else "nowhere"

    def note(self, text):
        self.log.append(f"{clock()} {time.monotonic() - self.world.started:8.2f} {self.url_name():>7} {text}")

    def tail(self, n=14):
        return "\n".join("      " + line for line in self.log[-n:])

    def ref(self, kind):
        self.counter += 1
        return f"{kind}{self.counter}"

    # -- the connection ---------------------------------------------------------------------------------

    def entries(self):
        """Its own entry first, then the balancer, then the nodes: where a client would try next."""
        urls = [self.home] + [u for u in self.world.entries() if u != self.home]
        return urls

    async def run(self):
        while not self.closing:
            for url in self.entries():
                if self.closing:
                    return
                try:
                    ws = await websockets.connect(url, open_timeout=3, close_timeout=1, ping_interval=None,
                                                  max_size=1 << 24, compression=None)
                except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException):
                    continue
                self.ws, self.url = ws, url
                try:
                    await self.session()
                except (websockets.exceptions.ConnectionClosed, OSError, asyncio.TimeoutError) as e:
                    self.note(f"connection lost: {type(e).__name__} {e}")
                except Exception as e:  # noqa: BLE001 - a mistake of this harness: reported, not hidden
                    self.world.fault(f"{self}: the harness failed: {traceback.format_exc()}", self)
                    self.note(f"harness error {e!r}")
                finally:
                    self.connected = False
                    self.join_ref = self.act = None
                    await ws.close()
                if self.closing:
                    return
                self.stats["reconnects"] += 1
                break
            await asyncio.sleep(0.2 + self.rng.random() * 0.3)

    async def send(self, message):
        await self.ws.send(json.dumps(message))

    async def session(self):
        hello = {"type": "hello", "name": self.name}
        if self.player_id:
            hello.update(id=self.player_id, token=self.token)
        while True:
            await self.send(hello)
            m = await self.next_of(lambda m: m.get("type") in ("welcome", "error"), 15)
            if m["type"] == "welcome":
                break
            if m.get("code") == "bad_token":
                self.world.fault(f"{self}: its identity is not known any more: {m}", self)
                return
            await asyncio.sleep(0.5)  # `storage`: the store is down or busy: say it again
        if self.player_id and m["player"]["id"] != self.player_id:
            self.world.fault(f"{self}: welcomed as {m['player']['id']}, not {self.player_id}", self)
        self.player_id = m["player"]["id"]
        self.token = m.get("token", self.token)
        self.connected = True
        self.note(f"welcome as {self.player_id}")
        if self.entered:
            await self.join()
        else:
            await self.enter()
        ticker = asyncio.create_task(self.tick())
        try:
            async for raw in self.ws:
                self.handle(json.loads(raw))
        finally:
            ticker.cancel()
            try:
                await ticker
            except (asyncio.CancelledError, websockets.exceptions.ConnectionClosed):
                pass
            except Exception:  # noqa: BLE001 - a mistake of this harness
                self.world.fault(f"{self}: the harness failed: {traceback.format_exc()}", self)

    async def next_of(self, predicate, timeout):
        deadline = time.monotonic() + timeout
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), max(0.01, deadline - time.monotonic()))
            m = json.loads(raw)
            if predicate(m):
                return m

    async def enter(self):
        """The first entry: the creator makes the room, the other player sits, spectators join."""
        ref = self.ref("j")
        if self.role == "creator":
            await self.send({"type": "create", "game": "tablut", "seat": 0, "ref": ref})
        elif self.role == "player":
            await self.send({"type": "sit", "room": self.room.id, "seat": 1, "ref": ref})
        else:
            await self.send({"type": "join", "room": self.room.id, "ref": ref})
        self.join_ref = (ref, None, time.monotonic())

    async def join(self):
        ref = self.ref("j")
        message = {"type": "join", "room": self.room.id, "since": self.version, "ref": ref}
        if self.epochs_seen:
            message["epoch"] = self.epoch
        self.join_ref = (ref, self.version, time.monotonic())
        self.rejoin_at = None
        self.note(f"join since {self.version} epoch {self.epoch}")
        await self.send(message)

    async def tick(self):
        """What a client does of its own accord: rejoin when it is time, give up a connection whose join is not
        answered, play its turn."""
        while True:
            await asyncio.sleep(0.05)
            now = time.monotonic()
            if self.join_ref and now - self.join_ref[2] > JOIN_TIMEOUT:
                self.world.fault(f"{self.room}: {self}: no answer to its join {self.join_ref[0]} (since "
                                 f"v{self.join_ref[1]}) in {JOIN_TIMEOUT} s: reconnecting", self)
                await self.ws.close()
                return
            if self.rejoin_at is not None and now >= self.rejoin_at and not self.join_ref and self.entered:
                await self.join()
            if self.act and now - self.act[1] > ACT_TIMEOUT:
                self.world.fault(f"{self}: its turn ({self.act[0]}) was never answered in {ACT_TIMEOUT} s",
                                 self)
                self.act = None
            if (self.world.autoplay and self.seat is not None and self.to_move() and not self.act and
                    not self.join_ref and self.rejoin_at is None and now >= self.next_play):
                await self.play()

    def to_move(self):
        return (self.position.get("status") == "live" and self.position.get("to_move") == self.seat and
                bool(self.legal))

    async def play(self):
        action = self.rng.choice(expand_legal(self.legal))
        ref = self.ref("a")
        self.act = (ref, time.monotonic(), action)
        self.note(f"act {action} ({ref}) at v{self.version}")
        await self.send({"type": "act", "room": self.room.id, "actions": [action], "ref": ref})

    # -- what it is told ------------------------------------------------------------------------------------

    def handle(self, m):
        kind = m.get("type")
        if m.get("room") not in (None, self.room.id) and not (kind == "state" and self.room.id is None):
            return
        if kind == "state":
            self.on_state(m)
        elif kind == "events":
            self.on_events(m)
        elif kind == "event":
            self.on_event(m)
        elif kind == "error":
            self.on_error(m)
        elif kind == "left":
            self.note("left the room")
            if not self.join_ref:
                self.rejoin_at = time.monotonic() + 0.2

    def epoch_of(self, m):
        if "epoch" in m:
            self.epochs_seen = True
        return m.get("epoch", 0)

    def on_state(self, m):
        epoch, version = self.epoch_of(m), m["version"]
        if self.room.id is None:
            self.room.id = m["room"]
        turns = record_turns(m["record"])
        self.note(f"state epoch {epoch} v{version}, {len(turns)} turns ({m['position'].get('status')})")
        self.stats["states"] += 1
        if turns[:len(self.history)] != self.history:
            i = next((i for i, (a, b) in enumerate(zip(self.history, turns)) if a != b), len(turns))
            had = turn_text(self.history[i])
            now = turn_text(turns[i]) if i < len(turns) else "nothing"
            self.world.fault(f"{self.room}: {self}: a state (epoch {epoch}, v{version}) has {now} as turn "
                             f"{i + 1}, where the member was told {had} (epoch {self.epoch}, v{self.version}): "
                             f"{len(self.history)} turns told, {len(turns)} in the state", self)
        if self.epochs_seen and self.entered and epoch == self.epoch and version < self.version:
            self.world.fault(f"{self.room}: {self}: a state of epoch {epoch} at v{version}, after "
                             f"v{self.version} of the same epoch", self)
        for i, t in enumerate(turns):
            self.room.told(self, i, t, epoch, version)
        self.history = turns
        self.epoch, self.version = epoch, version
        self.events = {}
        self.position = m["position"]
        self.legal = m.get("legal", [])
        self.seat = next((i for i, s in enumerate(m.get("seats") or []) if s and s.get("id") == self.player_id),
                         None)
        self.room.status = self.position.get("status")
        self.entered = True
        self.join_ref = None
        self.act = None
        self.next_play = time.monotonic() + self.pace()

    def pace(self):
        return 0.1 + self.rng.random() * 0.4

    def on_events(self, m):
        epoch = self.epoch_of(m)
        self.stats["events_answers"] += 1
        since = self.join_ref[1] if self.join_ref else None
        self.note(f"events epoch {epoch} v{m['version']} ({len(m['events'])}) to since {since}")
        self.join_ref = None
        if epoch != self.epoch:
            self.world.fault(f"{self.room}: {self}: `events` of epoch {epoch} answered a join since "
                             f"v{since} of epoch {self.epoch}", self)
        versions = [e["version"] for e in m["events"]]
        if since is not None and versions and versions[0] != since + 1:
            self.world.fault(f"{self.room}: {self}: `events` answering a join since v{since} start at "
                             f"v{versions[0]} (epoch {epoch})", self)
        for e in m["events"]:
            if e["version"] <= self.version:
                # Told live while the join was on its way: the same event again, not applied twice.
                if self.events.get(e["version"]) != self.summary(e):
                    self.world.fault(f"{self.room}: {self}: v{e['version']} of epoch {epoch} in `events` is "
                                     f"{self.summary(e)}, it was told {self.events.get(e['version'])}", self)
                continue
            if e["version"] != self.version + 1:
                self.world.fault(f"{self.room}: {self}: `events` jump from v{self.version} to v{e['version']} "
                                 f"(epoch {epoch}): {self.version + 1}..{e['version'] - 1} missed", self)
            self.apply(e, epoch)
        if m["version"] != self.version:
            self.world.fault(f"{self.room}: {self}: `events` says v{m['version']}, its events end at "
                             f"v{self.version}", self)
        self.legal = m.get("legal", [])
        self.act = None if self.act and not self.to_move() else self.act
        self.next_play = time.monotonic() + self.pace()

    @staticmethod
    def summary(e):
        return (e.get("kind"), e.get("seat"), tuple(normal(a) for a in e.get("actions", [])))

    def apply(self, e, epoch):
        v = e["version"]
        self.version = v
        self.events[v] = self.summary(e)
        if e.get("kind") == "play":
            side = "A" if e["seat"] == 0 else "D"
            turn = (side, tuple(normal(a) for a in e["actions"]))
            self.room.told(self, len(self.history), turn, epoch, v)
            self.history.append(turn)
            self.note(f"  v{v} play {turn_text(turn)} (turn {len(self.history)})")
            if self.act and e["seat"] == self.seat:
                self.act = None
        else:
            self.note(f"  v{v} {e.get('kind')}")
        if "patch" in e:
            self.position = merge_patch(self.position, e["patch"])
            self.room.status = self.position.get("status")

    def on_event(self, m):
        epoch = self.epoch_of(m)
        v = m["version"]
        if not self.entered:
            self.note(f"event v{v} before the state: ignored")
            return
        if epoch != self.epoch:
            self.stats["epoch_changes"] += 1
            self.note(f"event epoch {epoch} v{v} while holding epoch {self.epoch} v{self.version}: resync")
            if not self.join_ref and self.rejoin_at is None:
                self.rejoin_at = time.monotonic()
            return
        if v <= self.version:
            self.world.fault(f"{self.room}: {self}: v{v} ({m.get('kind')}) of epoch {epoch} told again after "
                             f"v{self.version}", self)
            return
        if v != self.version + 1:
            if self.join_ref:
                self.note(f"event v{v} after v{self.version} while joining: left to the answer")
                return
            self.world.fault(f"{self.room}: {self}: v{v} ({m.get('kind')}) after v{self.version} (epoch "
                             f"{epoch}): v{self.version + 1}..v{v - 1} never told", self)
            self.rejoin_at = time.monotonic()
            return
        self.apply(m, epoch)
        if "patch" in m:
            self.legal = m.get("legal", [])
            self.next_play = time.monotonic() + self.pace()

    def on_error(self, m):
        code, ref = m.get("code"), m.get("ref")
        self.note(f"error {code} ref {ref}: {m.get('message', '')[:80]}")
        if code == "storage":
            self.stats["storage"] += 1
        if self.join_ref and ref == self.join_ref[0]:
            # The room is being taken over, or the store is out of reach: ask again in a moment.
            self.join_ref = None
            self.rejoin_at = time.monotonic() + 0.5
            return
        if self.act and ref == self.act[0]:
            self.act = None
        if code == "storage" and m.get("room") == self.room.id:
            # A save of the room failed: the command in it and every one queued behind it (this member's turn
            # on its way among them) are dropped, unannounced (docs/protocol.md, "When a save fails"); the
            # room was closed where it was: rejoin it where it is now.
            self.act = None
            if not self.join_ref:
                self.rejoin_at = time.monotonic()

    async def close(self):
        self.closing = True
        if self.ws is not None:
            await self.ws.close()
        if self.task:
            await asyncio.gather(self.task, return_exceptions=True)


class World:
    def __init__(self, args, cluster, rng):
        self.args, self.cluster, self.rng = args, cluster, rng
        self.started = time.monotonic()
        self.autoplay = False
        self.rooms = []
        self.faults = []  # (description, member or None)
        self.room_count = 0

    def entries(self):
        return [n.url() for n in self.cluster.nodes] + [self.proxy()]

    def proxy(self):
        return f"ws://127.0.0.1:{self.cluster.haproxy.port}/ws"

    def entry_name(self, url):
        if url == self.proxy():
            return "haproxy"
        return next((n.name for n in self.cluster.nodes if n.url() == url), url)

    def fault(self, text, member=None):
        if len(self.faults) < 50:
            self.faults.append((text, member))
        if member is not None:
            member.note(f"FAULT {text}")

    def members(self):
        return [m for r in self.rooms for m in r.members]

    async def new_room(self):
        """Two players and two spectators; the creator on a node (so the room's owner varies), the others
        each on another entry: the nodes and the balancer."""
        self.room_count += 1
        k = self.room_count
        room = Room(self, k)
        entries = self.entries()
        nodes = entries[:3]
        first = k % 3
        homes = [nodes[first], nodes[(first + 1) % 3], entries[3], nodes[(first + 2) % 3]]
        roles = [("A", "creator"), ("D", "player"), ("s1", "spectator"), ("s2", "spectator")]
        for (name, role), home in zip(roles, homes):
            room.members.append(Member(self, room, f"r{k}-{name}", role, home))
        creator = room.members[0]
        creator.task = asyncio.create_task(creator.run())
        await self.until(lambda: creator.entered, f"{room}: created", 20)
        for m in room.members[1:]:
            m.task = asyncio.create_task(m.run())
            await self.until(lambda: m.entered, f"{room}: {m.name} in", 20)
        self.rooms.append(room)
        return room

    async def until(self, predicate, what, timeout):
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise Loss(f"timed out waiting for {what}")
            await asyncio.sleep(0.05)

    # -- faults -----------------------------------------------------------------------------------------

    def owner(self):
        """A node owning a live room (the store's lease): (node, room)."""
        live = [r for r in self.rooms if r.status == "live"] or self.rooms
        room = self.rng.choice(live)
        name = self.cluster.owner_of(room.id)
        node = next((n for n in self.cluster.nodes if n.name == name), None) or self.rng.choice(self.cluster.nodes)
        return node, room

    async def strike(self, kind):
        """Applies one fault and undoes it; returns a description."""
        c = self.cluster
        if kind == "kill_owner":
            node, room = self.owner()
            node.kill(signal.SIGKILL)
            down = self.rng.uniform(0.5, 6)
            await asyncio.sleep(down)
            await asyncio.to_thread(node.restart_if_stopped)
            return f"SIGKILL {node.name} (owner of room {room.number}), restarted after {down:.1f} s"
        if kind in ("pause_owner_short", "pause_owner_long"):
            node, room = self.owner()
            pause = self.rng.uniform(1.5, 2.5) if kind == "pause_owner_short" else self.rng.uniform(8, 12)
            node.kill(signal.SIGSTOP)
            try:
                await asyncio.sleep(pause)
            finally:
                node.kill(signal.SIGCONT)
                node.stopping = False
            return f"SIGSTOP {node.name} (owner of room {room.number}) for {pause:.1f} s"
        if kind == "redis_kill":
            c.redis.stop()
            down = self.rng.uniform(0.5, 3)
            await asyncio.sleep(down)
            await asyncio.to_thread(c.redis.start)
            return f"Redis killed, restarted after {down:.1f} s"
        if kind == "redis_pause":
            pause = self.rng.uniform(1, 6)
            os.kill(c.redis.process.pid, signal.SIGSTOP)
            try:
                await asyncio.sleep(pause)
            finally:
                os.kill(c.redis.process.pid, signal.SIGCONT)
            return f"Redis paused for {pause:.1f} s"
        if kind == "pg_stop":
            await asyncio.to_thread(c.pg.stop)
            down = self.rng.uniform(1, 5)
            await asyncio.sleep(down)
            await asyncio.to_thread(c.pg.start)
            return f"PostgreSQL stopped (immediate), started after {down:.1f} s"
        if kind == "pg_pause":
            pause = self.rng.uniform(1, 6)
            pids = c.pg.pids()
            for pid in pids:
                signal_quietly(pid, signal.SIGSTOP)
            try:
                await asyncio.sleep(pause)
            finally:
                for pid in pids:
                    signal_quietly(pid, signal.SIGCONT)
            return f"PostgreSQL paused ({len(pids)} processes) for {pause:.1f} s"
        if kind == "haproxy_restart":
            await asyncio.to_thread(c.haproxy.stop)
            down = self.rng.uniform(0.2, 1.5)
            await asyncio.sleep(down)
            await asyncio.to_thread(c.haproxy.start)
            return f"HAProxy restarted after {down:.1f} s"
        if kind == "rolling_restart":
            took = []
            for node in c.nodes:
                t = time.monotonic()
                node.kill(signal.SIGTERM)
                code = await asyncio.to_thread(node.wait, 30)
                if code != 0:
                    self.fault(f"rolling restart: {node.name} exited {code} on SIGTERM (not 0)")
                await asyncio.to_thread(node.restart_if_stopped)
                took.append(f"{node.name} {time.monotonic() - t:.1f} s")
                await asyncio.sleep(self.rng.uniform(0.2, 1.0))
            return "rolling restart: " + ", ".join(took)
        raise ValueError(kind)

    # -- checks -----------------------------------------------------------------------------------------

    async def settle(self, what):
        """Until every member of every room is connected, in the room, not joining, without a turn on its
        way, and holds the same epoch and version as the others."""
        deadline = time.monotonic() + SETTLE_TIMEOUT
        while True:
            behind = []
            for room in self.rooms:
                states = {(m.epoch, m.version) for m in room.members}
                busy = [m for m in room.members if not m.connected or m.join_ref or m.rejoin_at is not None
                        or m.act]
                if busy or len(states) > 1:
                    behind.append((room, busy))
            if not behind:
                return
            if time.monotonic() > deadline:
                for room, busy in behind:
                    where = ", ".join(f"{m.name} on {m.url_name()} at epoch {m.epoch} v{m.version}"
                                      f"{' (not connected)' if not m.connected else ''}"
                                      f"{' (joining)' if m.join_ref else ''}"
                                      f"{' (to rejoin)' if m.rejoin_at is not None else ''}"
                                      f"{' (turn on its way)' if m.act else ''}" for m in room.members)
                    lagging = min(room.members, key=lambda m: (m.connected, m.version or -1))
                    self.fault(f"{room}: the members are not in step {SETTLE_TIMEOUT} s after {what}: {where}",
                               lagging)
                return
            await asyncio.sleep(0.1)

    async def one_turn_everywhere(self):
        """In every live room the player to move plays one turn: it is accepted and reaches every member."""
        for room in self.rooms:
            if room.status != "live":
                continue
            deadline = time.monotonic() + 25
            while True:
                mover = next((m for m in room.members if m.seat is not None and m.to_move()), None)
                if mover is None:
                    who = ", ".join(f"{m.name} seat {m.seat} to_move {m.position.get('to_move')} "
                                    f"legal {len(m.legal)}" for m in room.members if m.role != "spectator")
                    self.fault(f"{room}: live, and no player holds legal actions: {who}", room.members[0])
                    break
                target = len(mover.history) + 1
                try:
                    await mover.play()
                except websockets.exceptions.ConnectionClosed:
                    mover.act = None
                try:
                    await self.until(lambda: mover.act is None, f"{mover.name}'s turn answered", 30)
                    await self.until(lambda: all(len(m.history) >= target and not m.join_ref and
                                                 m.rejoin_at is None for m in room.members),
                                     "the turn everywhere", 10)
                    break
                except Loss:
                    if time.monotonic() > deadline:
                        lacking = ", ".join(f"{m.name} on {m.url_name()} at epoch {m.epoch} v{m.version} "
                                            f"({len(m.history)} turns)" for m in room.members
                                            if len(m.history) < target)
                        self.fault(f"{room}: the turn {mover.name} played after the fault did not reach "
                                   f"everyone: {lacking or 'its answer never came'}",
                                   min(room.members, key=lambda m: len(m.history)))
                        break
                    await asyncio.sleep(0.5)

    def stored(self, room):
        for _ in range(60):
            for node in self.cluster.nodes:
                status, body = http_get(node.port, f"/api/games/{room.id}/record")
                if status == 200:
                    return record_turns(body)
            time.sleep(0.5)
        raise Loss(f"{room}: GET /api/games/{room.id}/record fails on every node")

    async def check_rooms(self):
        """Every member's history is the stored record; every turn ever told to anyone is stored at its
        place. Returns the number of stored turns compared."""
        checked = 0
        for room in self.rooms:
            stored = await asyncio.to_thread(self.stored, room)
            checked += len(stored)
            for index, (turn, who, epoch, version) in sorted(room.announced.items()):
                if index >= len(stored) or stored[index] != turn:
                    have = turn_text(stored[index]) if index < len(stored) else "nothing"
                    member = next(m for m in room.members if m.name == who)
                    self.fault(f"{room}: LOST: turn {index + 1} {turn_text(turn)} was told to {who} (epoch "
                               f"{epoch}, v{version}); the store has {have} there ({len(stored)} turns stored)",
                               member)
            for m in room.members:
                if m.history != stored:
                    i = next((i for i, (a, b) in enumerate(zip(m.history, stored)) if a != b),
                             min(len(m.history), len(stored)))
                    self.fault(f"{room}: {m} (epoch {m.epoch}, v{m.version}) holds {len(m.history)} turns, the "
                               f"store {len(stored)}; they differ from turn {i + 1}", m)
        return checked

    def report(self, keep):
        lines = []
        shown = set()
        for text, member in self.faults[:8]:
            lines.append(f"FAULT: {text}")
            if member is not None and member.name not in shown:
                shown.add(member.name)
                lines.append(f"  {member.name}'s last messages:\n{member.tail()}")
        lines.append(f"(every client's log and the nodes' logs: {keep})")
        return "\n".join(lines)


def signal_quietly(pid, sig):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def keep_logs(world, cluster, keep):
    os.makedirs(keep, exist_ok=True)
    for n in cluster.nodes:
        shutil.copy(n.log_path, os.path.join(keep, f"{n.name}.log"))
    for extra in ("haproxy/haproxy.log", "redis/redis.log", "pg/server.log"):
        path = os.path.join(cluster.root, extra)
        if os.path.exists(path):
            shutil.copy(path, os.path.join(keep, os.path.basename(extra)))
    for m in world.members():
        with open(os.path.join(keep, f"client-{m.name}.log"), "w") as f:
            f.write("\n".join(m.log) + "\n")


async def rounds(args, rng):
    cluster = await asyncio.to_thread(Cluster, args.cinq, args.web, 3, True)
    world = World(args, cluster, rng)
    kinds = args.faults.split(",") if args.faults else FAULTS
    counts = {k: 0 for k in kinds}
    failed = {}  # rounds with a fault, by kind (--keep-going)
    total_checked = total_turns = 0
    started = time.monotonic()
    keep = args.keep or tempfile.mkdtemp(prefix="cinq-cluster-chaos-")
    try:
        for _ in range(args.rooms):
            await world.new_room()
        for n in range(1, args.rounds + 1):
            t = time.monotonic()
            world.autoplay = True
            await asyncio.sleep(rng.uniform(1, 3))
            kind = rng.choice(kinds)
            counts[kind] += 1
            began = clock()
            what = await world.strike(kind)
            what += f" ({began} to {clock()})"
            await asyncio.sleep(rng.uniform(0.5, 2))
            world.autoplay = False
            await world.settle(what)
            if not world.faults:
                await world.one_turn_everywhere()
                await world.settle("the turn after the fault")
            checked = await world.check_rooms()
            told = sum(len(r.announced) for r in world.rooms)
            resyncs = sum(m.stats["states"] + m.stats["events_answers"] for m in world.members())
            if world.faults:
                print(f"round {n}: {what}; {len(world.faults)} fault(s) found; {time.monotonic() - t:.1f} s",
                      flush=True)
                where = os.path.join(keep, f"round-{n}") if args.keep_going else keep
                keep_logs(world, cluster, where)
                if not args.keep_going:
                    raise Loss(f"round {n} ({what}):\n{world.report(where)}")
                # Counted, described, and the rooms it touched replaced by new ones: the run goes on.
                print(world.report(where), flush=True)
                failed[kind] = failed.get(kind, 0) + 1
                touched = {m.room for _, m in world.faults if m is not None}
                world.faults = []
                for room in touched:
                    world.rooms.remove(room)
                    for m in room.members:
                        await m.close()
                    await world.new_room()
                continue
            print(f"round {n}: {what}; {len(world.rooms)} rooms, {checked} stored turns = every member's "
                  f"history, {told} told; {resyncs} joins answered so far; {time.monotonic() - t:.1f} s",
                  flush=True)
            total_checked += checked
            # A finished game is replaced by a new room (its members leave with it).
            for room in [r for r in world.rooms if r.status != "live"]:
                total_turns += len(room.announced)
                world.rooms.remove(room)
                for m in room.members:
                    await m.close()
                await world.new_room()
        total_turns += sum(len(r.announced) for r in world.rooms)
        members = world.members()
        stats = {k: sum(m.stats[k] for m in members) for k in members[0].stats}
        print(f"cluster chaos: {args.rounds} rounds in {time.monotonic() - started:.0f} s; faults: "
              + ", ".join(f"{k} {v}" for k, v in counts.items() if v)
              + f"; {world.room_count} rooms, {total_turns} turns played, {total_checked} stored turns checked "
              f"against every member; reconnections {stats['reconnects']}, states {stats['states']}, events "
              f"answers {stats['events_answers']}, epoch changes {stats['epoch_changes']}, storage errors "
              f"{stats['storage']}; "
              + ("no loss" if not failed else "rounds with a fault: " +
                 ", ".join(f"{k} {v}" for k, v in failed.items())), flush=True)
        if failed:
            raise Loss(f"faults in {sum(failed.values())} rounds: the logs are in {keep}")
        if not args.keep:
            shutil.rmtree(keep, ignore_errors=True)
    finally:
        for m in world.members():
            m.closing = True
        await asyncio.gather(*(m.close() for m in world.members()), return_exceptions=True)
        await asyncio.to_thread(cluster.close)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cinq")
    parser.add_argument("web")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--rooms", type=int, default=4)
    parser.add_argument("--faults", default="", help="a comma-separated list among " + ",".join(FAULTS))
    parser.add_argument("--keep", default="", help="a directory for the logs (kept)")
    parser.add_argument("--keep-going", action="store_true",
                        help="after a round with a fault, describe it, replace the rooms it touched and go on")
    args = parser.parse_args()
    for k in filter(None, args.faults.split(",")):
        if k not in FAULTS:
            parser.error(f"no fault {k}: {', '.join(FAULTS)}")
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"cluster chaos: seed {seed}", flush=True)
    try:
        asyncio.run(rounds(args, random.Random(seed)))
    except Loss as e:
        print(f"LOSS: {e}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
