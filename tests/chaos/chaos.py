#!/usr/bin/env python3
"""Chaos: kills `cinq serve` with SIGKILL at random moments while clients play and create
identities, restarts it on the same data, and checks that every turn announced to a client and every identity
welcomed is there: the turns in the stored record, the identity accepted by `hello`.

    chaos.py CINQ WEB_DIR [--rounds N] [--seed S] [--disk-full]

Each round: four tables play the sample Tablut game (tests/data/records/tablut/sample-escape.txt) turn by
turn, a fifth client says hello as a new guest again and again; after a random 0.3 to 2.5 s the server is
killed. --disk-full adds a run on a small tmpfs (mounted by the harness: root only) filled until saves fail:
then what was announced must still be stored, and the server must keep answering. Prints one line per round
and the totals; exits 1 on the first loss.
"""

import argparse
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

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "data", "records", "tablut", "sample-escape.txt")


def turns_of(text):
    """A Tablut record's turns, in order: (side letter, [actions]). Turns on a line are two spaces apart or
    more; the actions of a turn are between slashes."""
    turns = []
    for line in text.splitlines():
        found = re.match(r"^\d+\s+(.*)$", line)
        if not found:
            continue
        for chunk in re.split(r"\s{2,}", found.group(1).strip()):
            if re.match(r"^[AD]/", chunk):
                turns.append((chunk[0], [i for i in chunk[2:].split("/") if i]))
    return turns


TURNS = turns_of(open(SAMPLE, encoding="utf-8").read())


class Lost(Exception):
    pass


class Server:
    def __init__(self, binary, web, data, log_dir=None):
        self.binary, self.web, self.data = binary, web, data
        # The log beside the data, or elsewhere when the data's disk is to be filled.
        self.log_path = os.path.join(log_dir or data, "server.log")
        self.process = None
        self.port = None

    def start(self):
        log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", "0", "--data", self.data, "--web", self.web,
             "--per-address-rate", "0", "--http-rate", "0", "--open-rooms-per-player", "0"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            text = open(self.log_path, errors="replace").read()
            found = re.findall(r"cinq: listening on http://[^:\s]+:(\d+)", text)
            if found and self.process.poll() is None and len(found) > getattr(self, "_starts", 0):
                self._starts = len(found)
                self.port = int(found[-1])
                return
            if self.process.poll() is not None:
                raise Lost(f"cinq serve exited with {self.process.returncode}:\n{text[-2000:]}")
            time.sleep(0.05)
        raise Lost("cinq serve did not start")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def get(self, path):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as r:
                return r.status, r.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8")


async def hello(ws, **fields):
    await ws.send(json.dumps({"type": "hello", **fields}))
    while True:
        m = json.loads(await ws.recv())
        if m["type"] in ("welcome", "error"):
            return m


async def until(ws, pred):
    while True:
        m = json.loads(await ws.recv())
        if pred(m):
            return m


async def table(url, announced, stop):
    """Two players play the sample; every `play` event either hears is an announced turn of its room."""
    async with websockets.connect(url) as a, websockets.connect(url) as d:
        await hello(a, name="A")
        await hello(d, name="D")
        while not stop.is_set():
            await a.send(json.dumps({"type": "create", "game": "tablut", "seat": 0}))
            m = await until(a, lambda m: m.get("type") in ("state", "error"))
            if m["type"] == "error":
                return  # the store is full: not stored, not shown
            room = m["room"]
            await d.send(json.dumps({"type": "sit", "room": room, "seat": 1}))
            if (await until(d, lambda m: m.get("type") in ("state", "error")))["type"] == "error":
                return
            announced[room] = 0
            for i, (side, items) in enumerate(TURNS):
                mover, other = (a, d) if side == "A" else (d, a)
                await mover.send(json.dumps({"type": "act", "room": room, "actions": items}))
                # The mover hears of it only once it is stored: from then on it must survive a kill.
                m = await until(mover, lambda m: m.get("room") == room and (
                    (m.get("kind") == "play" and m.get("actions") == items) or m.get("type") == "error"))
                if m.get("code") == "storage":
                    return  # the turn could not be stored: it was not announced
                if m.get("type") == "error":
                    raise Lost(f"room {room}: turn {i + 1} refused: {m}")
                announced[room] = i + 1
                if stop.is_set():
                    return


async def guests(url, welcomed, stop):
    async with websockets.connect(url) as ws:
        while not stop.is_set():
            async with websockets.connect(url) as g:
                w = await hello(g, name="Guest")
                if w["type"] == "welcome":
                    welcomed.append((w["player"]["id"], w["token"]))
                elif w.get("code") == "storage":
                    await asyncio.sleep(0.1)  # not stored, not given: the disk is full


async def finish(tasks, seconds=15):
    """Waits for the clients to end (they end at `stop`, or when their connection goes); cancels stragglers.
    A Lost among their results is raised."""
    done, pending = await asyncio.wait(tasks, timeout=seconds)
    for t in pending:
        t.cancel()
    await asyncio.gather(*pending, return_exceptions=True)  # retrieved: the connections just went
    for t in done:
        if isinstance(t.exception(), Lost):
            raise t.exception()


async def play_until_killed(server, rng, announced, welcomed):
    url = f"ws://127.0.0.1:{server.port}/ws"
    stop = asyncio.Event()
    tasks = [asyncio.create_task(table(url, announced, stop)) for _ in range(4)]
    tasks.append(asyncio.create_task(guests(url, welcomed, stop)))
    await asyncio.sleep(rng.uniform(0.3, 2.5))
    server.kill()
    stop.set()
    await finish(tasks)


async def check_identities(server, welcomed):
    url = f"ws://127.0.0.1:{server.port}/ws"
    for pid, token in welcomed:
        async with websockets.connect(url) as ws:
            w = await hello(ws, id=pid, token=token)
            if w["type"] != "welcome":
                raise Lost(f"identity {pid} was welcomed, and is unknown after the restart: {w}")


def check_rooms(server, announced):
    for room, count in announced.items():
        status, body = server.get(f"/api/games/{room}/record")
        if status != 200:
            if count == 0:
                continue  # created, never announced a turn: it may not have been stored
            raise Lost(f"room {room}: {count} turns announced, and the room is gone (HTTP {status})")
        stored = turns_of(body)
        if len(stored) < count or stored[:count] != TURNS[:count]:
            raise Lost(f"room {room}: {count} turns announced, {len(stored)} stored:\n{body}")


async def rounds(args, rng):
    data = tempfile.mkdtemp(prefix="cinq-chaos-")
    server = Server(args.cinq, args.web, data)
    total_turns = total_ids = 0
    try:
        server.start()
        for n in range(1, args.rounds + 1):
            announced, welcomed = {}, []
            await play_until_killed(server, rng, announced, welcomed)
            server.start()
            check_rooms(server, announced)
            await check_identities(server, welcomed)
            turns = sum(announced.values())
            total_turns += turns
            total_ids += len(welcomed)
            print(f"round {n}: killed; {turns} announced turns in {len(announced)} rooms and "
                  f"{len(welcomed)} welcomed identities all there after the restart", flush=True)
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)
    print(f"chaos: {args.rounds} SIGKILLs, {total_turns} announced turns and {total_ids} welcomed identities, "
          "none lost")


async def disk_full(args):
    """A data directory on a 3 MiB tmpfs, filled until saves fail: the clients are told `storage`, and what
    they were told was stored is there after a restart with room to spare."""
    mount = tempfile.mkdtemp(prefix="cinq-chaos-full-")
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mount], check=True,
                       capture_output=True)
    except (subprocess.CalledProcessError, FileNotFoundError) as e:
        detail = e.stderr.decode().strip() if isinstance(e, subprocess.CalledProcessError) else str(e)
        print(f"disk-full: no tmpfs can be mounted here ({detail}): not run")
        os.rmdir(mount)
        return
    logs = tempfile.mkdtemp(prefix="cinq-chaos-log-")
    server = Server(args.cinq, args.web, mount, logs)
    try:
        server.start()
        announced, welcomed = {}, []
        url = f"ws://127.0.0.1:{server.port}/ws"
        stop = asyncio.Event()
        tasks = [asyncio.create_task(table(url, announced, stop)) for _ in range(4)]
        tasks.append(asyncio.create_task(guests(url, welcomed, stop)))
        await asyncio.sleep(1)  # turns stored while there is room
        # Then the disk fills, but for a little room: the games soon need more than there is.
        filler = os.path.join(mount, "filler")
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError:
            pass
        os.close(fd)
        os.truncate(filler, max(0, os.path.getsize(filler) - 64 * 1024))
        await asyncio.sleep(4)
        stop.set()
        await finish(tasks, 5)
        status, _ = server.get("/api/health")
        if status != 200:
            raise Lost(f"disk full: /api/health answered {status}")
        failures = re.findall(r"cinq_store_failures_total (\d+)", server.get("/metrics")[1])
        server.kill()
        os.remove(os.path.join(mount, "filler"))
        server.start()
        check_rooms(server, announced)
        await check_identities(server, welcomed)
        print(f"disk-full: {failures[0] if failures else '?'} failed saves; {sum(announced.values())} announced "
              f"turns and {len(welcomed)} welcomed identities all there after a restart")
    finally:
        server.stop()
        subprocess.run(["umount", mount], check=False)
        os.rmdir(mount)
        shutil.rmtree(logs, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cinq")
    parser.add_argument("web")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--disk-full", action="store_true")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"chaos: seed {seed}", flush=True)
    try:
        asyncio.run(rounds(args, random.Random(seed)))
        if args.disk_full:
            asyncio.run(disk_full(args))
    except Lost as e:
        print(f"LOST: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
