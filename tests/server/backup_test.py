#!/usr/bin/env python3
"""Online backups: `cinq store backup` while games are played over real sockets, then a restore.

Usage: backup_test.py CINQ_BINARY WEB_DIR

Four tables play the sample Tablut game turn by turn (tests/chaos/chaos.py's clients) on a real `cinq serve`;
while they play, `cinq store backup --data DIR DEST` copies the store, twice. Then:
- `cinq store check sqlite:DEST` says every game replays;
- a new server started on the backup (its `cinq.db`) has every turn announced before the backup began,
  each room's turns in order, and an unfinished room there is joined (its state shown);
- a backup whose record was damaged by hand is reported by `cinq store check`: exit 1, the game named;
- `cinq store backup` refuses a DEST that exists and a store that does not, changing nothing.
"""

import asyncio
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "chaos"))

import websockets  # noqa: E402

import chaos  # noqa: E402
from chaos import Lost, TURNS, check_rooms, hello, until  # noqa: E402

# Each player sends at most this many turns a second: below the server's 20 messages a second per connection,
# so that play goes on for as long as the test needs (chaos.py's tables, which play as fast as they can, meet
# the limit after a few seconds).
PACE_S = 0.06


def run(binary, *args):
    done = subprocess.run([binary, *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr


def expect(condition, message):
    if not condition:
        raise Lost(message)


async def table(url, announced, stop):
    """Two players play the sample again and again, paced; every `play` event the mover hears is an announced
    turn of its room (chaos.py's table, paced)."""
    async with websockets.connect(url) as a, websockets.connect(url) as d:
        await hello(a, name="A")
        await hello(d, name="D")
        while not stop.is_set():
            await a.send(json.dumps({"type": "create", "game": "tablut", "seat": 0}))
            m = await until(a, lambda m: m.get("type") in ("state", "error"))
            expect(m["type"] == "state", f"create: {m}")
            room = m["room"]
            await d.send(json.dumps({"type": "sit", "room": room, "seat": 1}))
            m = await until(d, lambda m: m.get("type") in ("state", "error"))
            expect(m["type"] == "state", f"sit: {m}")
            announced[room] = 0
            for i, (side, items) in enumerate(TURNS):
                mover = a if side == "A" else d
                await asyncio.sleep(PACE_S)
                await mover.send(json.dumps({"type": "act", "room": room, "actions": items}))
                m = await until(mover, lambda m: m.get("room") == room and (
                    (m.get("kind") == "play" and m.get("actions") == items) or m.get("type") == "error"))
                expect(m.get("type") != "error", f"room {room}: turn {i + 1} refused: {m}")
                announced[room] = i + 1
                if stop.is_set():
                    return


async def play_and_back_up(binary, server, data, dests):
    """Plays while taking each backup; returns, for each, the turns announced before it began."""
    url = f"ws://127.0.0.1:{server.port}/ws"
    announced, stop = {}, asyncio.Event()
    tasks = [asyncio.create_task(table(url, announced, stop)) for _ in range(4)]
    before = []
    for k, dest in enumerate(dests):
        # The first backup once some 20 turns are announced, the second once a game has finished (waited for,
        # not slept: a loaded machine plays slower).
        ready = ((lambda: sum(announced.values()) > 20) if k == 0 else
                 (lambda: any(n == len(TURNS) for n in announced.values())))
        for _ in range(600):
            if ready():
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        before.append(dict(announced))
        code, out = await asyncio.to_thread(run, binary, "store", "backup", "--data", data, dest)
        expect(code == 0, f"cinq store backup during play: exit {code}\n{out}")
        expect(re.search(r"backed up sqlite:.*cinq\.db to .* \(sqlite backup, \d+ bytes\)", out), out)
    await asyncio.sleep(0.5)
    stop.set()
    await chaos.finish(tasks)
    after = sum(announced.values())
    counts = [sum(b.values()) for b in before]
    expect(counts[0] > 20, f"too few turns played before the first backup: {before[0]}")
    expect(counts[0] < counts[1] < after, f"play did not go on while the backups were made: {counts} then {after}")
    return before


async def join(server, room):
    """Joins a restored room as a spectator: its state comes."""
    url = f"ws://127.0.0.1:{server.port}/ws"
    async with websockets.connect(url) as ws:
        await chaos.hello(ws, name="Restorer")
        await ws.send(json.dumps({"type": "join", "room": room}))
        state = await chaos.until(ws, lambda m: m.get("type") in ("state", "error"))
        expect(state["type"] == "state", f"join {room} on the restored server: {state}")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, web = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="cinq-backup-")
    failure = None
    server = restored = None
    try:
        data = os.path.join(work, "data")
        os.makedirs(data)
        dests = [os.path.join(work, "backup-1.db"), os.path.join(work, "backup-2.db")]
        server = chaos.Server(binary, web, data)
        server.start()
        before = asyncio.run(play_and_back_up(binary, server, data, dests))
        server.stop()

        for dest, announced in zip(dests, before):
            code, out = run(binary, "store", "check", "sqlite:" + dest)
            expect(code == 0 and "every game replays" in out, f"cinq store check {dest}: exit {code}\n{out}")
            print(f"{out.strip()} ({sum(announced.values())} turns announced before it began)")
        finished = [r for r, n in before[-1].items() if n == len(TURNS)]
        games = re.search(r"(\d+) games \((\d+) unfinished\)", out)
        expect(finished and int(games.group(1)) > int(games.group(2)), f"no finished game in the last backup: {out}")

        # The restore drill: the backup as a new server's store.
        restored_data = os.path.join(work, "restored")
        os.makedirs(restored_data)
        shutil.copy(dests[-1], os.path.join(restored_data, "cinq.db"))
        restored = chaos.Server(binary, web, restored_data)
        restored.start()
        check_rooms(restored, before[-1])
        unfinished = [r for r, n in before[-1].items() if 0 < n < len(TURNS)]
        expect(unfinished, "no unfinished game to go on with")
        asyncio.run(join(restored, unfinished[0]))
        restored.stop()
        total = sum(before[-1].values())
        print(f"restored: {len(before[-1])} rooms, every one of the {total} turns announced before the backup")

        # A damaged backup is reported, naming the game.
        damaged = os.path.join(work, "damaged.db")
        shutil.copy(dests[-1], damaged)
        db = sqlite3.connect(damaged)
        victim = db.execute("SELECT game_id FROM record_entries ORDER BY game_id, seq LIMIT 1").fetchone()[0]
        db.execute("UPDATE record_entries SET text = 'A/z9-z1' WHERE game_id = ? AND seq = "
                   "(SELECT min(seq) FROM record_entries WHERE game_id = ?)", (victim, victim))
        db.commit()
        db.close()
        code, out = run(binary, "store", "check", damaged)
        expect(code == 1 and re.search(rf"bad: game {re.escape(victim)} \(tablut, \w+\): its record does not replay: line \d+", out)
               and "1 is at fault" in out, f"cinq store check of a damaged backup: exit {code}\n{out}")

        # Refusals.
        size = os.path.getsize(dests[0])
        code, out = run(binary, "store", "backup", "--data", data, dests[0])
        expect(code == 1 and "already exists" in out and os.path.getsize(dests[0]) == size,
               f"a backup onto an existing file: exit {code}\n{out}")
        missing = os.path.join(work, "nothing")
        code, out = run(binary, "store", "backup", "--data", missing, os.path.join(work, "x.db"))
        expect(code == 1 and "no such file" in out and not os.path.exists(os.path.join(work, "x.db")),
               f"a backup of a store that is not there: exit {code}\n{out}")
        code, out = run(binary, "store", "check", os.path.join(work, "none.db"))
        expect(code == 1 and "no such file" in out, f"a check of a file that is not there: exit {code}\n{out}")
    except Lost as e:
        failure = str(e)
    finally:
        for s in (server, restored):
            if s:
                s.stop()
        if failure:
            for s in (server, restored):
                if s and os.path.exists(s.log_path):
                    print("--- " + s.log_path + " ---\n" + open(s.log_path, errors="replace").read()[-3000:],
                          file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)
    print("backup: " + ("ok" if not failure else "FAILED: " + failure))
    return 1 if failure else 0


if __name__ == "__main__":
    sys.exit(main())
