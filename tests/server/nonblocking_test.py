#!/usr/bin/env python3
"""The network thread never waits: a slow request of one client must not delay another client's game.

Usage: nonblocking_test.py CINQ_BINARY WEB_DIR

Starts `cinq serve --threads 1` (one network thread, so anything done on it delays everyone). Meanwhile:
- two clients POST a long Batik match record to /api/replay in a loop (every drop replayed is a Box2D
  simulation; the record comes from `cinq selfplay batik 1 --level 0`, the longest of a few);
- another client, with many finished games, sends `my_games` over the WebSocket again and again (store reads);
- two players play Tablut in a room of their own: every `act` must be acknowledged (its `play` event reaches
  the sender) within ACK_BOUND_S; the median and the maximum are printed, and those of 20 acts before the
  load for comparison.
Then /metrics must show `cinq_blocking_on_network_total` 0: the server counts every store read, record replay,
Box2D simulation and import done on a network thread.
"""

import asyncio
import glob
import json
import multiprocessing
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

from cinq_support import (Client, Failed, check, short, is_type, is_event, get, http, no_problems, run_main,
                          set_address_rate)

ACK_BOUND_S = 1.0  # generous: an act's event normally comes back within a few ms
ACTS = 80  # the acts timed while the load runs
FINISHED_GAMES = 40  # the lister's finished games (my_games lists at most 50)
SELFPLAY_TRIES = 3  # Batik matches played to pick the longest record
REPLAYERS = 2  # clients posting replays at once: one replays while the other's request waits
MIN_REPLAYS, MIN_LISTINGS = 3, 20  # the load must have run while the acts were timed


def longest_batik_record(binary):
    """The longest of a few random Batik matches (`cinq selfplay batik 1 --level 0`)."""
    records = []
    with tempfile.TemporaryDirectory(prefix="cinq-batik-") as out:
        for seed in range(1, SELFPLAY_TRIES + 1):
            subprocess.run([binary, "selfplay", "batik", "1", "--level", "0", "--seed", str(seed), "--out", out],
                           check=True, capture_output=True, timeout=60)
            for path in glob.glob(os.path.join(out, "*.txt")):
                with open(path) as f:
                    records.append(f.read())
                os.remove(path)
    check(records, "cinq selfplay wrote Batik records")
    return max(records, key=len)


def replay_loop(port, record, stop, results):
    """POSTs the record to /api/replay until `stop` is set; puts (count, seconds, error) in `results`. Runs
    in a process of its own: reading and checking megabytes of answers must not hold this process's GIL
    while the acts are timed."""
    count, seconds, error = 0, [], None
    try:
        while not stop.is_set():
            t0 = time.monotonic()
            status, _, body = http(port, "/api/replay", record, timeout=60)
            seconds.append(time.monotonic() - t0)
            if status != 200 or not body.startswith("{") or '"steps"' not in body:
                error = f"POST /api/replay: HTTP {status}: {body[:300]}"
                break
            count += 1
    except Exception as e:  # noqa: BLE001 - reported by the test
        error = f"POST /api/replay: {type(e).__name__}: {e}"
    results.put((count, seconds, error))


async def finished_games(url, n):
    """A player with n finished (aborted) Tablut games, and its connection."""
    lister = await Client("lister", url).open()
    helper = await Client("helper", url).open()
    await lister.hello(name="Lister")
    await helper.hello(name="Helper")
    for i in range(n):
        await lister.send({"type": "create", "game": "tablut", "clock": None, "private": True, "seat": 0})
        room = (await lister.expect("the new room", is_type("state")))["room"]
        await helper.send({"type": "sit", "room": room, "seat": 1})
        await lister.expect("the start", is_event("started", room))
        await lister.send({"type": "abort", "room": room})
        await lister.expect("the abort", is_event("finished", room))
        await helper.send({"type": "leave", "room": room})
        await lister.send({"type": "leave", "room": room})
    await helper.close()
    lister.skip()
    await lister.send({"type": "my_games"})
    m = await lister.expect("my games", is_type("my_games"))
    check(len(m["games"]) >= min(n, 50), f"my_games lists the {n} finished games: {len(m['games'])}")
    return lister


async def list_forever(lister, stop, seconds):
    """my_games again and again (paced by the connection's rate limit); the seconds of each answer."""
    while not stop.is_set():
        lister.skip()
        t0 = time.monotonic()
        await lister.send({"type": "my_games"})
        m = await lister.expect("my games", lambda m: m["type"] in ("my_games", "error"), timeout=10)
        seconds.append(time.monotonic() - t0)
        check(m["type"] == "my_games", f"my_games answered {short(m)}")


class Duel:
    """Two players in a Tablut room; `act` times one move from its sending to its event at the sender."""

    def __init__(self, url, rng):
        self.url, self.rng, self.room, self.players = url, rng, None, []

    async def start(self):
        if not self.players:
            self.players = [await Client(f"duel-{s}", self.url).open() for s in (0, 1)]
            for s, p in enumerate(self.players):
                await p.hello(name=f"Duel{s}")
        await self.players[0].send({"type": "create", "game": "tablut", "clock": None, "private": True, "seat": 0})
        self.room = (await self.players[0].expect("the duel room", is_type("state")))["room"]
        await self.players[1].send({"type": "sit", "room": self.room, "seat": 1})
        await self.players[0].expect("the start", is_event("started", self.room))

    async def act(self):
        """One quiet move (no capture, no escape) by the seat to move; the seconds until its event came back."""
        position = self.players[0].view(self.room).position
        if position["status"] != "live":  # a random game ended: a new room
            await self.start()
            position = self.players[0].view(self.room).position
        seat = position.get("to_move")
        p = self.players[seat]
        legal = p.view(self.room).legal
        check(legal, f"the seat to move has legal actions: {short(legal)}")
        quiet = [t for t in legal if " x " not in t]
        text = self.rng.choice(sorted(quiet or legal))
        p.skip()
        t0 = time.monotonic()
        await p.send({"type": "act", "room": self.room, "actions": [text]})
        m = await p.expect(f"the event of '{text}'", lambda m: m.get("room") == self.room and (
            m["type"] == "error" or (m["type"] == "event" and m["kind"] == "play")), timeout=10)
        elapsed = time.monotonic() - t0
        check(m["type"] == "event", f"'{text}' was refused: {short(m)}")
        # the other player must have it too before the next move is chosen from its legal
        other = self.players[1 - seat]
        deadline = time.monotonic() + 5
        while other.view(self.room).version < m["version"]:
            check(time.monotonic() < deadline, "the other player did not get the move")
            await asyncio.sleep(0.005)
        return elapsed


def metric_lines(metrics, name):
    return [line for line in metrics.splitlines() if re.match(rf"^{name}(\{{[^}}]*\}})?\s", line)]


async def run(port, binary):
    url = f"ws://127.0.0.1:{port}/ws"
    set_address_rate(400.0, 400.0)  # the server runs with --per-address-rate 0
    t0 = time.monotonic()
    record = await asyncio.to_thread(longest_batik_record, binary)
    status, _, body = await asyncio.to_thread(http, port, "/api/replay", record)
    check(status == 200, f"POST /api/replay of the selfplay record: HTTP {status}: {body[:300]}")
    print(f"a Batik record of {len(json.loads(body)['steps']) - 1} turns ({len(record)} bytes) made in "
          f"{time.monotonic() - t0:.1f} s")

    lister = await finished_games(url, FINISHED_GAMES)
    duel = Duel(url, random.Random(3))
    await duel.start()

    baseline = [await duel.act() for _ in range(20)]  # the same acts without the load, for comparison
    print(f"acts without the load: median {1000 * statistics.median(baseline):.1f} ms, "
          f"max {1000 * max(baseline):.1f} ms")

    context = multiprocessing.get_context("fork")
    replay_stop, replay_results = context.Event(), context.Queue()
    replayers = [context.Process(target=replay_loop, args=(port, record, replay_stop, replay_results), daemon=True)
                 for _ in range(REPLAYERS)]
    stop, listings = asyncio.Event(), []
    lister_task = asyncio.create_task(list_forever(lister, stop, listings))
    for r in replayers:
        r.start()
    await asyncio.sleep(0.5)  # the load is going
    latencies = []
    try:
        for _ in range(ACTS):
            latencies.append(await duel.act())
            if not all(r.is_alive() for r in replayers):
                raise Failed(f"a replay client stopped: {replay_results.get(True, 5)}")
            check(not lister_task.done() or lister_task.exception() is None,
                  f"the my_games loop: {lister_task.done() and lister_task.exception()}")
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        replay_stop.set()
        results = [await asyncio.to_thread(replay_results.get, True, 90) for _ in replayers]
        for r in replayers:
            await asyncio.to_thread(r.join, 10)
    await lister_task
    errors = [error for _, _, error in results if error]
    check(not errors, "; ".join(errors))
    replays = sum(count for count, _, _ in results)
    replay_seconds = [x for _, seconds, _ in results for x in seconds]
    median, worst = statistics.median(latencies), max(latencies)
    replay_s = statistics.median(replay_seconds) if replay_seconds else float("nan")
    print(f"acts acknowledged: median {1000 * median:.1f} ms, max {1000 * worst:.1f} ms over {len(latencies)}; "
          f"meanwhile {replays} replays by {REPLAYERS} clients (median {1000 * replay_s:.0f} ms each) "
          f"and {len(listings)} my_games (median {1000 * statistics.median(listings or [0]):.0f} ms, max "
          f"{1000 * max(listings or [0]):.0f} ms)")
    status, _, metrics = await get(port, "/metrics")
    check(status == 200, f"/metrics: HTTP {status}")
    lines = metric_lines(metrics, "cinq_blocking_on_network_total")
    print("\n".join(lines) or "no cinq_blocking_on_network_total in /metrics")
    check(lines, "/metrics has cinq_blocking_on_network_total")
    total = sum(float(line.split()[-1]) for line in lines)
    check(total == 0, f"work was done on the network thread: {'; '.join(lines)}")
    slow = [f"{1000 * s:.0f} ms" for s in latencies if s > ACK_BOUND_S]
    check(not slow, f"{len(slow)} acts waited over {ACK_BOUND_S:g} s for their event: {slow}")
    check(replays >= MIN_REPLAYS and len(listings) >= MIN_LISTINGS,
          f"the load ran while the acts were timed: {replays} replays, {len(listings)} my_games")
    no_problems([lister, *duel.players])


def main():
    code = run_main("usage: nonblocking_test.py CINQ_BINARY WEB_DIR", 3,
                    lambda port: run(port, sys.argv[1]), 110,
                    ("--threads", "1", "--per-address-rate", "0", "--http-rate", "0"))
    if code == 0:
        print("nonblocking_test.py: all checks passed")
    return code


if __name__ == "__main__":
    sys.exit(main())
