#!/usr/bin/env python3
"""The WebSocket protocol (docs/protocol.md) checked with a client this project did not write.

Usage: protocol_test.py CINQ_BINARY WEB_DIR

Starts `cinq serve --port 0` in a fresh data directory, talks to it with the `websockets` library (Debian's
python3-websockets) and urllib, and always stops it at the end. Exit 0 when every check passes, 1 with the
failed check's message otherwise. Standard library only besides `websockets`: no pip.

Protocol version 2: every client keeps each room's position by applying the events' merge patches
(cinq_support.Client), the players and the spectator must hold the same position after every move, moves
come from the mover's own top-level `legal`, and every message any connection receives is checked: only the
seat to move gets `legal`/`can_end_turn` (spectators and the waiting seat never do). A burst of spectators
gets coalesced `spectators` events (at most one per 500 ms); a player's comings and goings are told at once.
"""

import asyncio
import copy
import json
import random
import re
import statistics
import sys
import time

from cinq_support import (Failed, check, short, is_type, is_event, is_error, get, get_json, comparable,
                          first_difference, stripped, no_problems, run_main)
from cinq_support import Client as SupportClient

MAX_TURNS = 1500  # random Tablut with captures preferred ends far sooner; this only bounds a broken server
QUIET_S = 0.3  # how long "nobody else heard anything" is watched for
COALESCE_S = 0.5  # spectators events: at most one per room in this time
EVERY_CLIENT = []  # every connection opened: each one's `problems` must stay empty


class Client(SupportClient):
    def __init__(self, name, url):
        super().__init__(name, url)
        EVERY_CLIENT.append(self)


# ---------------------------------------------------------------------------------------------------------
# Playing Tablut from the mover's `legal` alone


def choose(position, legal, rng, aggressive):
    """A legal text. Aggressive: the king's escape if there is one, else a capture, else a seeded random move
    (such games end within a few dozen turns). Otherwise a quiet move, so the mid-game checks have a game."""
    check(legal and all(isinstance(t, str) for t in legal),
          f"the seat to move gets its moves in a live Tablut game: {short(legal)}")
    king = next((sq for sq, p in position["view"]["pieces"].items() if p == "K"), None)
    corners = {"a1", "a9", "i1", "i9"}
    escapes = [t for t in legal if t.split()[0] == king and t.split()[1] in corners]
    captures = sorted(t for t in legal if " x " in t)
    if not aggressive:
        quiet = sorted(t for t in legal if t not in escapes and t not in captures)
        return rng.choice(quiet or sorted(legal))
    if escapes:
        return escapes[0]
    return rng.choice(captures or sorted(legal))


async def same_position(room, clients, timeout=3.0):
    """Once every client has seen the same version of the room: the position each one built from patches,
    checked equal (null members dropped, clocks.ms ignored). Returns a copy of it."""
    deadline = time.monotonic() + timeout
    while len({c.view(room).version for c in clients}) > 1:
        check(time.monotonic() < deadline, "the clients are at versions "
              f"{[(c.name, c.view(room).version) for c in clients]} after {timeout:g} s")
        await asyncio.sleep(0.02)
    first = comparable(clients[0].view(room).position)
    for c in clients[1:]:
        d = first_difference(comparable(c.view(room).position), first)
        check(d is None, f"{c.name} and {clients[0].name} hold different positions after applying the "
              f"patches up to version {c.view(room).version}: {d}")
    return json.loads(json.dumps(clients[0].view(room).position))


class Game:
    """A room being played by two seated clients, watched by whoever else joined. The position is what the
    clients built from the events' patches; the moves come from the mover's own `legal`."""

    def __init__(self, port, room, players, position, version):
        self.port, self.room, self.players = port, room, players  # players[seat] is a Client
        self.position, self.version = position, version
        self.rng = random.Random(7)
        self.turns = 0
        self.aggressive = False
        self.everyone = list(players)  # the clients in the room: players, then the spectator
        self.spectator = self.steady = None  # steady: a player connected from start to end
        self.join_version = None  # the spectator's state's version

    def legal(self):
        """What the seat to move was told it may play (top-level `legal` of its last patched message)."""
        return self.players[self.position.get("to_move")].view(self.room).legal

    async def play_turn(self, everyone):
        """The seat to move plays one legal move; everyone sees the same `play` event, with a patch; only the
        seat to move next gets `legal`."""
        seat = self.position.get("to_move")
        text = choose(self.position, self.legal(), self.rng, self.aggressive)
        await self.players[seat].send({"type": "act", "room": self.room, "actions": [text]})
        seen = None
        for c in everyone:
            m = await c.expect(f"the play event of '{text}'", is_event("play", self.room))
            check(m["seat"] == seat and "turn" in m.get("patch", {}),
                  f"{c.name}: play event {short(m)} after seat {seat} played")
            check(m["actions"] == [text], f"{c.name}: '{text}' was played but the event says {m['actions']}")
            check(isinstance(m.get("patch"), dict) and "position" not in m,
                  f"{c.name}: a v2 play event carries a patch, not a position: {short(m)}")
            if seen is None:
                seen = m
            check(stripped(m) == stripped(seen), f"{c.name} and {everyone[0].name} got different play events: "
                  f"{short(stripped(m))} vs {short(stripped(seen))}")
        self.version = seen["version"]
        self.turns += 1
        self.position = await same_position(self.room, everyone)
        if self.position["status"] == "live" and self.position.get("result") is None:
            mover = self.players[self.position.get("to_move")]
            if mover in everyone:  # (not while it is disconnected)
                check(mover.view(self.room).legal, f"{mover.name} is to move and was told what it may play")
        return seen

    def over(self):
        # The last play event's patch holds the result; `finished` (next event) has status "finished".
        return self.position.get("result") is not None

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
    check(isinstance(started.get("patch"), dict) and "position" not in started,
          f"started carries a patch of the position, not the position: {short(started)}")
    check(started.get("legal") and "can_end_turn" not in started,
          f"Alice (seat 0, to move) gets legal (and no can_end_turn: Tablut's turns end by themselves) in the "
          f"started event: {short(started)}")
    position = await same_position(room, [alice, bob])
    check(position["status"] == "live" and position.get("to_move") == 0,
          f"the game starts with the attackers (seat 0) to move: {short(position)}")
    check(bob.view(room).legal == [], "Bob (seat 1) has nothing to play")

    game = Game(port, room, [alice, bob], position, started["version"])
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

    mover = game.steady = game.players[game.position.get("to_move")]
    dropper = game.players[1 - game.position.get("to_move")]
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
    back.rooms[room] = copy.deepcopy(dropper.view(room))  # the client keeps its position and version
    await back.send({"type": "join", "room": room, "since": last_seen, "epoch": back.view(room).epoch})
    m = await back.expect("the missed events", lambda m: True, next_only=True)
    check(m["type"] == "events" and m["room"] == room, f"join with since answers with events: {short(m)}")
    deadline = time.monotonic() + 3
    while carol.view(room).version < m["version"]:
        check(time.monotonic() < deadline, f"the events' version {m['version']} is the room's")
        await asyncio.sleep(0.02)
    missed = [e for e in carol.events(room) if last_seen < e["version"] <= m["version"]]
    listing = lambda events: [(e["version"], e["kind"]) for e in events]
    check(m["events"] == missed, f"the events are exactly the {len(missed)} missed ones: "
          f"got {listing(m['events'])}, want {listing(missed)}")
    check(any(e["kind"] == "play" for e in m["events"]),
          "the missed events include the move played meanwhile")
    check(all("patch" in e and "position" not in e for e in m["events"] if e["kind"] == "play"),
          f"the missed play events carry patches: {short(m)}")
    check(m.get("legal") and "can_end_turn" not in m,
          f"the returning player is to move: `events` carries its legal actions: {short(m)}")
    d = first_difference(comparable(back.view(room).position), comparable(carol.view(room).position))
    check(d is None, f"the returning player's position, patched with the missed events, is the spectator's: {d}")
    game.players[seat_dropped] = back
    game.everyone = [*game.players, carol]
    for c in (mover, carol):
        m = await c.expect("the returning player's presence", is_event("presence", room))
        check(m["seat"] == seat_dropped and m["online"] is True,
              f"{c.name}: presence after the return: {short(m)}")
    await back.expect("its own presence", is_event("presence", room))

    # Nothing missed: an empty list.
    carol.skip()
    await carol.send({"type": "join", "room": room, "since": carol.events(room)[-1]["version"],
                      "epoch": carol.view(room).epoch})
    m = await carol.expect("no missed events", lambda m: True, next_only=True)
    check(m["type"] == "events" and m["events"] == [],
          f"join with since = the last version: no events: {short(m)}")
    for _ in range(4):
        await game.play_turn(game.everyone)
    print(f"ok: spectator joined at version {game.join_version}; reconnect with since={last_seen} got "
          f"{len(missed)} missed events")


GAPS = []  # ms between consecutive coalesced events, as received (printed)
INCONCLUSIVE = []  # short gaps explained by this process falling behind (printed, not failed)


class LagMonitor:
    """How late this process's event loop wakes up: a message's arrival time is only known to within that
    lag (a process starved of CPU stamps two messages at once). Samples (end time, lag) every 10 ms."""

    def __init__(self):
        self.samples, self.task = [], None

    async def _run(self):
        while True:
            t = time.monotonic()
            await asyncio.sleep(0.01)
            now = time.monotonic()
            self.samples.append((now, now - t - 0.01))

    def start(self):
        self.task = asyncio.create_task(self._run())
        return self

    def stop(self):
        self.task.cancel()

    def lagged(self, start, end, limit=0.05):
        return max((lag for t, lag in self.samples if start <= t <= end), default=0.0) > limit


async def spaced(events, times, what, since, lag):
    """Coalesced events, as received: at most one per COALESCE_S from `since` (when the changes began) to the
    last arrival, a bound no delay in delivery can break; and consecutive ones at least COALESCE_S apart
    (0.1 s of slack), unless this process was lagging before the first one arrived (it may have been stamped
    late, then the gap means nothing)."""
    if times:
        most = int((times[-1] - since) / COALESCE_S) + 1
        check(len(events) <= most, f"{len(events)} {what} events within {times[-1] - since:.2f} s (at most "
              f"{most}, one per {1000 * COALESCE_S:.0f} ms): {[short(e) for e in events]}")
    GAPS.extend(round(1000 * (t1 - t0)) for t0, t1 in zip(times, times[1:]))
    for (e0, t0), (e1, t1) in zip(zip(events, times), zip(events[1:], times[1:])):
        if t1 - t0 >= COALESCE_S - 0.1:
            continue
        if lag.lagged(t0 - COALESCE_S - 0.1, t0 + 0.02):
            INCONCLUSIVE.append(round(1000 * (t1 - t0)))
            continue
        raise Failed(f"two {what} events {1000 * (t1 - t0):.0f} ms apart (at most one per "
                     f"{1000 * COALESCE_S:.0f} ms): v{e0['version']} {short(e0)} then v{e1['version']} {short(e1)}")


def room_events(client, kind, room, start):
    pairs = [(m, t) for m, t in zip(client.received[start:], client.times[start:])
             if m.get("type") == "event" and m.get("kind") == kind and m.get("room") == room]
    return [m for m, _ in pairs], [t for _, t in pairs]


async def check_coalescing(url, game, port):
    """A burst of spectators joining and leaving: the room sends at most one `spectators` event per 500 ms, the
    last one telling how it ends. A player's connection coming and going: each change is told at once."""
    room = game.room
    watchers = [game.steady, game.spectator]
    starts = [len(c.received) for c in watchers]
    burst, changes = [], 0
    lag = LagMonitor().start()
    since = time.monotonic()
    for i in range(10):
        c = await Client(f"burst-{i}", url).open()
        await c.hello(name=f"Burst{i}")
        await c.send({"type": "join", "room": room})
        await c.expect("the state", is_type("state", room=room))
        changes += 1
        burst.append(c)
        if i % 2 == 1:  # two in, one out: the count goes up and down
            await burst.pop(0).close()
            changes += 1
        await asyncio.sleep(0.05)
    for c in burst:
        await c.close()
        changes += 1
    await asyncio.sleep(2 * COALESCE_S + 0.3)  # the last coalesced event leaves
    state = await get_json(port, f"/api/games/{room}")
    check(state["spectators"] == 1, f"only Carol watches after the burst: {state['spectators']}")
    seen = None
    for c, start in zip(watchers, starts):
        events, times = room_events(c, "spectators", room, start)
        check(events, f"{c.name}: the burst of {changes} spectator changes sent no spectators event")
        check(len(events) < changes, f"{c.name}: {len(events)} spectators events for {changes} changes")
        await spaced(events, times, "spectators", since, lag)
        check(events[-1]["count"] == 1, f"{c.name}: the last spectators event says {events[-1]['count']}, "
              f"1 watches now: {[e['count'] for e in events]}")
        check(seen is None or [e["version"] for e in events] == seen,
              "the players and the spectators get the same spectators events")
        seen = [e["version"] for e in events]
    spectator_events = len(seen)

    lag.stop()

    # presence is told at once (the opponent waits on it): in a room of its own, Erin's only connection drops
    # and comes back four times within two seconds, and Dave hears each of the 8 changes, in order, promptly.
    dave, erin = await Client("dave", url).open(), await Client("erin", url).open()
    await dave.hello(name="Dave")
    await erin.hello(name="Erin")
    await dave.send({"type": "create", "game": "tablut", "clock": None, "private": True, "seat": 0})
    other = (await dave.expect("the new room's state", is_type("state")))["room"]
    await erin.send({"type": "sit", "room": other, "seat": 1})
    await dave.expect("the start", is_event("started", other))
    await asyncio.sleep(2 * COALESCE_S)
    dave.skip()
    erin_id, erin_token = erin.player_id, erin.token
    delays = []
    for i in range(4):
        t0 = time.monotonic()
        await erin.close()
        m = await dave.expect("Erin's drop", is_event("presence", other), timeout=3)
        delays.append(time.monotonic() - t0)
        check(m["seat"] == 1 and m["online"] is False, f"presence after Erin's drop {i + 1}: {short(m)}")
        erin = await Client(f"erin-{i}", url).open()
        await erin.hello(id=erin_id, token=erin_token)
        t0 = time.monotonic()
        await erin.send({"type": "join", "room": other})
        m = await dave.expect("Erin's return", is_event("presence", other), timeout=3)
        delays.append(time.monotonic() - t0)
        check(m["seat"] == 1 and m["online"] is True, f"presence after Erin's return {i + 1}: {short(m)}")
    await asyncio.sleep(QUIET_S)
    extra = [short(m) for m in dave.received[dave.cursor:] if is_event("presence", other)(m)]
    check(not extra, f"one presence event per change, no more: {extra}")
    median = statistics.median(delays)
    check(median < 0.2, f"presence is told at once, not coalesced: the 8 events came "
          f"{[round(1000 * d) for d in delays]} ms after their change (median {1000 * median:.0f} ms)")
    state = await get_json(port, f"/api/games/{other}")
    check(state["seats"][1]["online"] is True, f"Erin's seat is online: {state['seats']}")
    await dave.close()
    await erin.close()
    print(f"ok: {spectator_events} spectators events for {changes} changes (coalesced; gaps {GAPS} ms"
          + (f", {INCONCLUSIVE} ms while this process lagged" if INCONCLUSIVE else "")
          + f"); presence told at once: 8 events for 8 changes, median {1000 * median:.0f} ms, max "
          f"{1000 * max(delays):.0f} ms")


def refusals(game):
    """`refused(sender, message, code)` and the messages the refusal checks send."""
    act = lambda text, **more: {"type": "act", "room": game.room, "actions": [text], **more}
    refused = lambda sender, message, code, ref=None: check_bad_input(
        game, sender, [c for c in game.everyone if c is not sender], message, code, ref)
    return act, refused


async def check_refusals(game):
    """Bad input: answered to its sender only, nothing changes."""
    check(not game.over(), "the game is still live for the bad-input checks")
    to_move = game.players[game.position.get("to_move")]
    waiting = game.players[1 - game.position.get("to_move")]
    carol = game.spectator
    legal = game.legal()[0]
    illegal = next(t for t in ("a1 a2", "e5 e5", "i9 h9") if t not in game.legal())
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
    result = game.position.get("result")
    check(result and result["text"], f"a finished position has a result: {game.position}")
    finished = []
    for c in game.everyone:
        m = await c.expect("the end of the game", is_event("finished", room))
        check(m["result"] == result,
              f"{c.name}: finished with {m['result']}, the last position says {result}")
        finished.append(m)
    check(all(m == finished[0] for m in finished), "everyone got the same finished event")
    check(isinstance(finished[0].get("patch"), dict) and "position" not in finished[0],
          f"finished carries a patch: {short(finished[0])}")
    position = await same_position(room, game.everyone)
    check(position["status"] == "finished" and position.get("result") == result
          and position.get("to_move") is None,
          f"after the finished patch: status finished, the result, nobody to move: {short(position)}")
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

    no_problems(EVERY_CLIENT)
    check(carol.legal_messages == 0, "the spectator never got legal")
    check(all(c.legal_messages > 0 for c in game.players),
          f"each player got legal when it was to move: {[c.legal_messages for c in game.players]}")
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
    await check_coalescing(url, game, port)
    await check_refusals(game)
    await finish_game(game)
    await check_rate_limit(url)
    no_problems(EVERY_CLIENT)
    print(f"ok: {len(EVERY_CLIENT)} connections: patches applied in version order, legal only to the seat "
          "to move, in every message")


def main():
    code = run_main("usage: protocol_test.py CINQ_BINARY WEB_DIR", 3, run, 100)
    if code == 0:
        print("protocol_test.py: all checks passed")
    return code


if __name__ == "__main__":
    sys.exit(main())
