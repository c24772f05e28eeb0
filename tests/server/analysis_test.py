"""Analyses and hints through a real `cinq serve`, over real sockets (docs/protocol.md, "Analysis" and "Hints").
Shallow searches only (depth 1, level-1 hints): the machine is shared.

1. A finished game (tests/data's Tablut sample, imported) is analysed once over the protocol: the Attackers' 21st
   turn, which left the corner i1 open, is a blunder with the best turn h6 h1; the analysis is stored, read back
   by `analyze` again and by `GET /api/games/{id}/analysis`, and again after a restart. Refused, naming the
   field: a depth or think time out of range or not a number; refused: an unknown game, a game under way, a
   player's second analysis over `--analyses-per-player 1`.
2. Hints: in a casual game against the computer the seat to move gets the computer's turn (legal: played as
   it is), counted in the position (`hints`) and kept in the record as `# hint 1 TURN`, after the end and
   after a restart. Refused against a person (`no_hints_person`) and in a rated game (`no_hints_rated`).

usage: analysis_test.py CINQ_BINARY WEB_DIR
"""

import asyncio
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cinq_support import Client, Failed, Server, check, checked_run, http, short  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "data", "records", "tablut", "sample-escape.txt")


class Node(Server):
    """A server on a data directory that outlives it: started again on the same data (Server.__init__ starts
    the first one)."""

    def restart(self, binary, web, *extra):
        import subprocess
        self.stop()
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--data", self.data, "--web", web, *extra],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.port = None
        self.wait_ready(20)


async def client(port, name):
    c = await Client(name, f"ws://127.0.0.1:{port}/ws").open()
    await c.hello(name=name)
    return c


async def ask(c, message, answer, timeout=20):
    await c.send(message)
    return await c.expect(answer, lambda m: m["type"] in (answer, "error"), timeout)


def is_done(m):
    return (m["type"] == "analysis" and m.get("status") == "done") or m["type"] == "error"


async def http_async(port, path, body=None):
    return await asyncio.to_thread(http, port, path, body)


async def analyses(server, state):
    port = server.port
    with open(SAMPLE) as f:
        sample = f.read()
    rooms = []
    for _ in range(2):
        status, _, body = await http_async(port, "/api/games/import?public=1", sample)
        check(status == 201, f"import: {status} {body}")
        rooms.append(json.loads(body)["room"])
    room, other = rooms
    status, _, _ = await http_async(port, f"/api/games/{room}/analysis?depth=1")
    check(status == 204, f"not analysed yet: {status}")
    for query in ("depth=x", "depth=9", "think_ms=10"):
        status, _, body = await http_async(port, f"/api/games/{room}/analysis?{query}")
        check(status == 400 and query.split("=")[0] in body, f"GET ?{query}: {status} {body}")

    ann = await client(port, "Ann")
    for fields, named in (({"depth": 0}, "depth"), ({"think_ms": 10}, "think_ms"), ({"depth": "deep"}, "depth"),
                          ({"depth": 1, "think_ms": 100}, "depth")):
        m = await ask(ann, {"type": "analyze", "room": room, **fields}, "analysis")
        check(m["type"] == "error" and m["code"] == "bad_message" and named in m["message"],
              f"analyze {fields}: {short(m)}")
    m = await ask(ann, {"type": "analyze", "room": "nosuchgame", "depth": 1}, "nothing")
    check(m.get("code") == "not_found", f"an unknown game: {short(m)}")

    # Two at once from one player: the second is over the limit of 1 (a connection's messages are handled in order).
    await ann.send({"type": "analyze", "room": room, "depth": 1})
    await ann.send({"type": "analyze", "room": other, "depth": 1})
    m = await ann.expect("a refusal", lambda m: m["type"] == "error", 20)
    check(m["code"] == "analysis_limit", f"the second analysis: {short(m)}")
    ann.cursor = 0
    done = await ann.expect("the analysis", lambda m: is_done(m) and m.get("room") == room, 120)
    check(done["type"] == "analysis", f"the analysis: {short(done)}")
    check(done["settings"] == "depth=1", f"its settings: {short(done)}")
    analysis = done["analysis"]
    turns = analysis["turns"]
    check(len(turns) == 42, f"42 turns: {len(turns)}")
    blunder = turns[40]
    check(blunder["played"] == "A/a4 a2/" and blunder["number"] == 21 and blunder["side"] == "A",
          f"turn 41: {blunder}")
    check(blunder.get("mark") == "blunder" and blunder.get("best") == "A/h6 h1/", f"the blunder: {blunder}")
    check(blunder["after"] == 0 and blunder["best_after"] >= 0.2, f"its chances: {blunder}")
    check(turns[41]["played"] == "D/g1 i1/" and "best" not in turns[41] and "mark" not in turns[41],
          f"the escape: {turns[41]}")
    check(analysis["thresholds"] == {"mistake": 0.1, "blunder": 0.2}, f"thresholds: {analysis['thresholds']}")

    # Asked again: read back at once, the same; and over HTTP.
    ann.skip()
    m = await ask(ann, {"type": "analyze", "room": room, "depth": 1}, "analysis")
    check(m.get("status") == "done" and m["analysis"] == analysis, f"asked again: {short(m)}")
    status, _, body = await http_async(port, f"/api/games/{room}/analysis?depth=1")
    check(status == 200 and json.loads(body) == analysis, f"GET the analysis: {status}")

    # A game under way is not analysed.
    s = await ask(ann, {"type": "create", "game": "tablut", "bot": 1, "seat": 1}, "state")
    m = await ask(ann, {"type": "analyze", "room": s["room"], "depth": 1}, "nothing")
    check(m.get("code") == "not_finished", f"a game under way: {short(m)}")
    await ann.close()
    state.update(room=room, analysis=analysis)


async def hints(server, state):
    port = server.port
    ann = await client(port, "Ann")
    s = await ask(ann, {"type": "create", "game": "tablut", "bot": 1, "seat": 0}, "state")
    room = s["room"]
    check(s["position"]["to_move"] == 0 and "hints" not in s["position"], f"Ann to move: {short(s)}")

    def hint_or_error(m):
        return m.get("kind") == "hint" or m["type"] == "error"

    await ann.send({"type": "hint", "room": room})
    h = await ann.expect("a hint", hint_or_error, 20)
    check(h.get("kind") == "hint" and h["seat"] == 0 and h["hints"] == [1, 0], f"the hint: {short(h)}")
    turn = h["turn"]
    check(turn.startswith("A/") and turn.endswith("/"), f"its turn: {turn}")
    # Not while the computer is to move; the hinted turn is legal: played as it is.
    await ann.send({"type": "act", "room": room, "actions": [turn[2:-1]]})
    await ann.expect("the bot's answer", lambda m: m.get("kind") == "play" and m.get("seat") == 1, 20)
    await ann.send({"type": "hint", "room": room})
    h = await ann.expect("a second hint", hint_or_error, 20)
    check(h.get("hints") == [2, 0], f"the second hint: {short(h)}")
    check(ann.view(room).position.get("hints") == [2, 0], "the position counts them")
    await ann.send({"type": "resign", "room": room})
    await ann.expect("the end", lambda m: m.get("kind") == "finished", 10)
    status, _, body = await http_async(port, f"/api/games/{room}")
    check(json.loads(body)["position"].get("hints") == [2, 0], f"the stored game counts them: {body[:300]}")
    status, _, record = await http_async(port, f"/api/games/{room}/record")
    check(record.count("# hint 1 A/") == 2, f"the record keeps them:\n{record}")

    # Against a person: refused, in words that say why.
    alice, bob = await client(port, "Alice"), await client(port, "Bob")
    s = await ask(alice, {"type": "create", "game": "tablut", "seat": 0}, "state")
    await ask(bob, {"type": "sit", "room": s["room"]}, "state")
    await alice.expect("the start", lambda m: m.get("kind") == "started", 10)
    m = await ask(alice, {"type": "hint", "room": s["room"]}, "nothing")
    check(m.get("code") == "no_hints_person" and "computer" in m["message"], f"against a person: {short(m)}")

    # In a rated game (accounts only; never against the computer): refused.
    cy, di = await client(port, "Cy"), await client(port, "Di")
    for c, user in ((cy, "cyrus"), (di, "diane")):
        m = await ask(c, {"type": "register", "username": user, "password": f"{user} password"}, "registered")
        check(m["type"] == "registered", f"register {user}: {short(m)}")
    s = await ask(cy, {"type": "create", "game": "tablut", "seat": 0, "rated": True}, "state")
    await ask(di, {"type": "sit", "room": s["room"]}, "state")
    await cy.expect("the start", lambda m: m.get("kind") == "started", 10)
    m = await ask(cy, {"type": "hint", "room": s["room"]}, "nothing")
    check(m.get("code") == "no_hints_rated", f"in a rated game: {short(m)}")
    for c in (ann, alice, bob, cy, di):
        check(not c.problems, f"protocol problems: {c.problems}")
        await c.close()
    state["hint_room"] = room


async def after_restart(server, state):
    status, _, body = await http_async(server.port, f"/api/games/{state['room']}/analysis?depth=1")
    check(status == 200 and json.loads(body) == state["analysis"], f"the analysis after a restart: {status}")
    status, _, body = await http_async(server.port, f"/api/games/{state['hint_room']}")
    check(json.loads(body)["position"].get("hints") == [2, 0], "the hints after a restart")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, web = sys.argv[1], sys.argv[2]
    extra = ("--analyses-per-player", "1", "--bot-answer-ms", "0")
    server = Node(binary, web, *extra)
    state = {}

    async def checks():
        await analyses(server, state)
        await hints(server, state)

    failure = checked_run(server, server.wait_ready, checks, 240)
    if not failure:
        failure = checked_run(server, lambda: server.restart(binary, web), lambda: after_restart(server, state), 60)
    server.cleanup()
    if failure:
        raise SystemExit(1)
    print("analysis_test: ok")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failed as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
