"""Tournaments played through a real `cinq serve` (docs/protocol.md, "Tournaments"), over real sockets:

1. A live Swiss of 16 accounts, 4 rounds, every game played by its two clients (two first moves, then a
   resignation or an agreed draw, chosen so that the standings are not trivial). In round 3, after half of its
   games ended, the server is SIGKILLed and started again on the same data: the standings and pairings are
   the same, the round's other games go on in their rooms (one of them, deleted from the store while the
   server was down, made again under its id), and the tournament ends with every result counted once.
   Every round is paired once, no pair meets twice, the standings and crosstable agree with the results.
2. A rated correspondence round robin of 5 (every game paired at the start), made, joined, started and left
   over HTTP in part; one player withdraws after the start (its games are resigned: its opponents win), the
   others play theirs.
3. A live Swiss of 4 where one player never makes its first move: after lobby::Room::kFirstMoveMs (30 s) the
   room aborts "no first move", which counts as a forfeit won by its opponent and marks the player absent
   (left out of round 2) until it joins again.
4. A live arena of four that starts by itself at its planned time and lasts 12 s, every game played as soon
   as it is paired: the pairing's rules, and arena points with streaks, checked against the results.
5. Blocks: of four accounts, one blocked two others (docs/tournaments.md, "Blocks"): a Swiss's round 1 pairs
   it with the fourth, the one pairing that avoids both blocks.
6. With mail (an SMTP server that cannot be reached: the outbox keeps what is queued), the paired accounts
   with a confirmed address get a "your game is ready" mail, in their language.

usage: tournament_test.py CINQ_BINARY WEB_DIR
"""

import asyncio
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cinq_support import (Client, Failed, Server, check, checked_run, expand_legal, http,  # noqa: E402
                          set_address_rate, short)

GAME = "tablut"
PASSWORD = "correct horse battery"


class Node(Server):
    """`cinq serve` on a data directory that outlives it: started, killed and started again (cinq_support's
    Server, whose process is made by start())."""

    def __init__(self, binary, web, *extra):  # not Server.__init__, which starts the process at once
        self.binary, self.web, self.extra = binary, web, list(extra)
        self.data = tempfile.mkdtemp(prefix="cinq-tournament-test-")
        self.runs = 0
        self.process = self.port = self.log = None

    def start(self):
        self.runs += 1
        self.log_path = os.path.join(self.data, f"server-{self.runs}.log")
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", "0", "--data", self.data, "--web", self.web,
             "--per-address-rate", "0", "--http-rate", "0", "--worker-threads", "4", *self.extra],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.wait_ready(20)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.log.close()

    def url(self):
        return f"ws://127.0.0.1:{self.port}/ws"


class Player:
    """An account and its connection (opened again after a restart, with the same id and token)."""

    refs = itertools.count(1)

    def __init__(self, index):
        self.index = index
        self.username = f"tp{index:02d}"
        self.client = None
        self.id = self.token = None

    async def connect(self, node):
        self.client = await Client(self.username, node.url()).open()
        if self.id:
            m = await self.client.hello(id=self.id, token=self.token)
            check(m["player"].get("username") == self.username, f"{self.username} is known again: {short(m)}")
        else:
            await self.client.hello()
            self.id, self.token = self.client.player_id, self.client.token
        return self

    async def register(self):
        m = await self.ask({"type": "register", "username": self.username, "password": PASSWORD}, "registered",
                           timeout=30)
        check(m["username"] == self.username, f"registered: {short(m)}")

    async def ask(self, message, answer, timeout=10):
        """Sends with a ref; the answer of that ref (an `answer`, or an error: raised)."""
        ref = next(Player.refs)
        await self.client.send({**message, "ref": ref})
        m = await self.client.expect(f"the answer to {message['type']}",
                                     lambda m: m.get("ref") == ref, timeout=timeout)
        check(m["type"] == answer, f"{self.username}: {short(message)} answered {short(m)}")
        return m

    async def refused(self, message, code):
        ref = next(Player.refs)
        await self.client.send({**message, "ref": ref})
        m = await self.client.expect(f"the answer to {message['type']}", lambda m: m.get("ref") == ref)
        check(m["type"] == "error" and m["code"] == code, f"{short(message)}: expected {code}, got {short(m)}")

    def game_notes(self, tournament, round_=None):
        return [m for m in self.client.received if m.get("type") == "tournament_game"
                and m["tournament"] == tournament and (round_ is None or m["round"] == round_)]


async def until(what, condition, timeout=20.0):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failed(f"waited {timeout:g} s for {what}")
        await asyncio.sleep(0.05)


def get_json(node, path):
    status, _, body = http(node.port, path)
    check(status == 200, f"GET {path}: HTTP {status}: {body[:300]}")
    return json.loads(body)


async def tournament_of(node, tid):
    return await asyncio.to_thread(get_json, node, f"/api/tournaments/{tid}")


POINTS = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (0.5, 0.5), "1-0 forfeit": (1, 0), "0-1 forfeit": (0, 1),
          "0-0 forfeit": (0, 0)}


async def play(room, seats, outcome):
    """Plays one game in `room` between seats[0] and seats[1] (Players): each side's first move, then
    `outcome`: "1-0" (the second seat resigns), "0-1" (the first resigns), "1/2-1/2" (a draw agreed). Before a
    restart the room may have moved already: what is left is played."""
    for p in seats:
        await p.client.send({"type": "join", "room": room})
    await until(f"both states of {room}", lambda: all(room in p.client.rooms for p in seats))

    def position():
        return seats[0].client.view(room).position

    for _ in range(2):
        pos = position()
        turn = pos.get("turn") or 0
        if pos["status"] != "live" or turn >= 2:
            break
        mover = pos["to_move"]
        await until(f"the legal moves of seat {mover} in {room}", lambda: seats[mover].client.view(room).legal)
        choice = expand_legal(seats[mover].client.view(room).legal)[0]
        await seats[mover].client.send({"type": "act", "room": room, "actions": [choice]})
        await until(f"seat {mover}'s move in {room}", lambda: (position().get("turn") or 0) > turn)
    if position()["status"] == "live":
        if outcome == "1/2-1/2":
            await seats[0].client.send({"type": "draw", "room": room})
            await until(f"the draw offer in {room}", lambda: position().get("draw_offer") == 0)
            await seats[1].client.send({"type": "draw", "room": room})
        else:
            await seats[1 if outcome == "1-0" else 0].client.send({"type": "resign", "room": room})
    await until(f"the end of {room}", lambda: position()["status"] == "finished", timeout=10)
    result = position().get("result") or {}
    winner = {"1-0": 0, "0-1": 1, "1/2-1/2": None}[outcome]
    check(result.get("winner") == winner, f"{room}: the result is {short(result)} for {outcome}")


def choose(a, b, round_):
    """The result the test chooses for a game between entrants a (first seat) and b (Players): usually the
    lower index wins, now and then a draw or an upset."""
    k = (a.index * 7 + b.index * 3 + round_) % 6
    if k == 0:
        return "1/2-1/2"
    if k == 1:
        return "1-0" if a.index > b.index else "0-1"
    return "1-0" if a.index < b.index else "0-1"


def check_consistent(t, chosen, players_by_id):
    """Rounds paired once, no pair twice, every result the chosen one, standings and crosstable that agree."""
    pairs = set()
    points = {p: 0.0 for p in players_by_id}
    for r in t["rounds"]:
        boards = [g["board"] for g in r["games"]]
        check(sorted(boards) == list(range(1, len(boards) + 1)), f"round {r['round']}: boards {boards}")
        for g in r["games"]:
            a, b = g["seats"][0]["id"], g["seats"][1]["id"]
            pair = frozenset((a, b))
            check(pair not in pairs, f"{g['id']}: {a} and {b} meet twice")
            pairs.add(pair)
            check(g["result"] == chosen.get(g["id"]), f"{g['id']}: result {g['result']}, chosen {chosen.get(g['id'])}")
            pa, pb = POINTS[g["result"]]
            points[a] += pa
            points[b] += pb
        for rest in r["rests"]:
            if rest["kind"] == "bye":
                points[rest["player"]["id"]] += 1
    by_player = {s["player"]: s for s in t["standings"]}
    for p, expected in points.items():
        check(abs(by_player[p]["points"] - expected) < 1e-9,
              f"{players_by_id[p]}: {by_player[p]['points']} points in the standings, {expected} by the results")
    ranks = [s["rank"] for s in t["standings"]]
    check(ranks == sorted(ranks), f"the standings are in rank order: {ranks}")
    scores = [s["points"] for s in t["standings"]]
    check(scores == sorted(scores, reverse=True), f"the standings go by points: {scores}")
    for row in t["crosstable"]:
        total = sum(c["points"] for c in row["cells"] if c["kind"] in ("game", "bye"))
        check(abs(total - row["points"]) < 1e-9, f"crosstable of {row['name']}: cells {total}, points {row['points']}")
        for number, cell in enumerate(row["cells"], start=1):
            if cell["kind"] != "game":
                continue
            game = next(g for r in t["rounds"] if r["round"] == number for g in r["games"]
                        if row["player"] in (g["seats"][0]["id"], g["seats"][1]["id"]))
            seat = 0 if game["seats"][0]["id"] == row["player"] else 1
            check(cell["seat"] == seat and cell["opponent"] == game["seats"][1 - seat]["id"]
                  and cell["result"] == game["result"], f"crosstable {row['name']} round {number}: {short(cell)}")
    return points


async def play_round(node, tid, round_, players, chosen, only=None):
    """The games of a round as the players were told (`tournament_game`), played (those of `only` if given).
    Returns the games, as the tournament lists them."""
    by_id = {p.id: p for p in players}
    t = await tournament_of(node, tid)
    games = next(r for r in t["rounds"] if r["round"] == round_)["games"]
    jobs = []
    for g in games if only is None else [g for g in games if g["id"] in only]:
        a, b = by_id[g["seats"][0]["id"]], by_id[g["seats"][1]["id"]]
        chosen[g["id"]] = choose(a, b, round_)
        jobs.append(play(g["room"] or g["id"], (a, b), chosen[g["id"]]))
    await asyncio.gather(*jobs)
    return games


async def told_round(players, tid, round_, count):
    """Each paired player told its game of the round, with its room and side, once."""
    for p in players:
        await until(f"{p.username} told of round {round_}", lambda: p.game_notes(tid, round_), timeout=20)
    notes = [n for p in players for n in p.game_notes(tid, round_)]
    check(len(notes) == 2 * count, f"round {round_}: {len(notes)} tournament_game messages for {count} games")
    for n in notes:
        check(n["room"] == n["game"] and n["side"] in (0, 1), f"a tournament_game: {short(n)}")


async def swiss(node, players):
    creator = players[0]
    await creator.refused({"type": "tournament_create", "format": "swiss", "game": GAME, "rounds": 0,
                           "clock": {"base_ms": 600000, "increment_ms": 0}}, "bad_spec")
    m = await creator.ask({"type": "tournament_create", "format": "swiss", "game": GAME, "rounds": 4,
                           "name": "Sixteen", "clock": {"base_ms": 600000, "increment_ms": 5000}}, "tournament")
    tid = m["tournament"]["id"]
    check(m["tournament"]["status"] == "open" and m["tournament"]["spec"]["rounds"] == 4, short(m))
    await asyncio.gather(*(p.ask({"type": "tournament_join", "tournament": tid}, "tournament") for p in players))
    await players[1].refused({"type": "tournament_join", "tournament": tid}, "already_in")
    await players[1].refused({"type": "tournament_start", "tournament": tid}, "not_creator")
    watch = await players[15].ask({"type": "tournament_watch", "tournament": tid}, "tournament")
    check(len(watch["tournament"]["entrants"]) == 16, f"16 entrants: {short(watch)}")
    listed = await asyncio.to_thread(get_json, node, "/api/tournaments?status=open")
    check(any(x["id"] == tid and x["entrants"] == 16 for x in listed), f"the list of open ones: {short(listed)}")
    await creator.ask({"type": "tournament_start", "tournament": tid}, "tournament")

    chosen = {}
    by_id = {p.id: p.username for p in players}
    for round_ in (1, 2):
        await told_round(players, tid, round_, 8)
        await play_round(node, tid, round_, players, chosen)
        await until(f"round {round_ + 1} paired", lambda: players[0].game_notes(tid, round_ + 1), timeout=20)
    # The watcher was told of the changes.
    pushed = [m for m in players[15].client.received if m.get("type") == "tournament" and "ref" not in m]
    check(len(pushed) >= 2 and pushed[-1]["tournament"]["round"] >= 2, f"{len(pushed)} pushes to the watcher")

    # Round 3: half its games played, then SIGKILL.
    await told_round(players, tid, 3, 8)
    t3 = await tournament_of(node, tid)
    games3 = next(r for r in t3["rounds"] if r["round"] == 3)["games"]
    first_half = [g["id"] for g in games3[:4]]
    await play_round(node, tid, 3, players, chosen, only=first_half)
    before = await tournament_of(node, tid)
    node.kill()
    for p in players:
        await p.client.close()
    # A room lost from the store (as if the crash came between the tournament's save naming it and the room's
    # own): the restart makes it again under the same id.
    lost = games3[-1]["id"]
    import sqlite3
    with sqlite3.connect(os.path.join(node.data, "cinq.db")) as db:
        for table in ("games", "record_entries", "game_progress", "seat_tokens", "chat"):
            db.execute(f"DELETE FROM {table} WHERE {'id' if table == 'games' else 'game_id'} = ?", (lost,))
    node.start()
    for p in players:
        await p.connect(node)
    after = await tournament_of(node, tid)
    strip = lambda t: [[(g["id"], g["seats"][0]["id"], g["seats"][1]["id"], g["room"]) for g in r["games"]]
                       for r in t["rounds"]]
    check(strip(after) == strip(before), "the same pairings after the restart")
    check(after["round"] == 3 and after["status"] == "running", f"still round 3: {after['round']}")
    state = await until(f"the lost room {lost} made again", lambda: (lambda r: json.loads(r[2]) if r[0] == 200 else None)(
        http(node.port, f"/api/games/{lost}")))
    seated = [s["id"] if s else None for s in state["seats"]]
    check(seated == [games3[-1]["seats"][0]["id"], games3[-1]["seats"][1]["id"]] and state["position"]["turn"] == 0,
          f"the room made again seats the pair, nothing played: {short(state)}")
    check(f"the room of {lost} is missing from the store: made again" in node.tail(200), "the log says so")

    def done_results(t):
        return {g["id"]: g["result"] for r in t["rounds"] for g in r["games"] if g["result"] != "pending"}

    await until("the first half of round 3 recorded",
                lambda: all(g in done_results(get_json(node, f"/api/tournaments/{tid}")) for g in first_half))
    await play_round(node, tid, 3, players, chosen, only=[g["id"] for g in games3[4:]])
    await told_round(players, tid, 4, 8)
    await play_round(node, tid, 4, players, chosen)
    final = await until("the end of the Swiss", lambda: (lambda t: t if t["status"] == "finished" else None)(
        get_json(node, f"/api/tournaments/{tid}")))
    check([r["round"] for r in final["rounds"]] == [1, 2, 3, 4] and all(len(r["games"]) == 8 for r in final["rounds"]),
          "4 rounds of 8 games")
    check_consistent(final, chosen, by_id)
    ws = await players[3].ask({"type": "tournament", "tournament": tid}, "tournament")
    check(ws["tournament"] == final, "the WebSocket answer is the REST one")
    finished = await players[3].ask({"type": "tournaments", "status": "finished"}, "tournaments")
    check(any(x["id"] == tid for x in finished["tournaments"]), "listed as finished")
    print(f"swiss: {len(chosen)} games, winner {final['standings'][0]['name']} with "
          f"{final['standings'][0]['points']} points")


def post(node, path, player, **fields):
    """POST a JSON body with the player's id and token; (status, JSON)."""
    body = {"player": player.id, "token": player.token, **fields} if player else fields
    status, _, text = http(node.port, path, json.dumps(body), "application/json")
    return status, json.loads(text)


async def correspondence(node, players):
    """Over HTTP this time: created, joined in part, started and left with POSTs."""
    five = players[:5]
    status, answer = await asyncio.to_thread(post, node, "/api/tournaments", five[0], format="roundrobin",
                                             game=GAME, name="Five by post", clock={"days": 3}, rated=True)
    check(status == 201 and answer["spec"]["rated"], f"POST /api/tournaments: {status} {short(answer)}")
    tid = answer["id"]
    stranger = Player(99)
    stranger.id, stranger.token = five[1].id, "not-the-token"
    status, answer = await asyncio.to_thread(post, node, f"/api/tournaments/{tid}/join", stranger)
    check(status == 401 and answer["error"]["code"] == "bad_token", f"a wrong token: {status} {short(answer)}")
    for p in five[:3]:
        await p.ask({"type": "tournament_join", "tournament": tid}, "tournament")
    for p in five[3:]:
        status, answer = await asyncio.to_thread(post, node, f"/api/tournaments/{tid}/join", p)
        check(status == 200 and any(e["id"] == p.id for e in answer["entrants"]), f"joined: {status} {short(answer)}")
    status, answer = await asyncio.to_thread(post, node, f"/api/tournaments/{tid}/start", five[1])
    check(status == 403 and answer["error"]["code"] == "not_creator", f"not the creator: {status} {short(answer)}")
    status, t = await asyncio.to_thread(post, node, f"/api/tournaments/{tid}/start", five[0])
    check(status == 200, f"started: {status} {short(t)}")
    check(t["round"] == 5 and sum(len(r["games"]) for r in t["rounds"]) == 10, f"every round paired: {short(t)}")
    for p in five:
        await until(f"{p.username} told of its 4 games", lambda: len(p.game_notes(tid)) == 4)
    quitter = five[4]
    status, answer = await asyncio.to_thread(post, node, f"/api/tournaments/{tid}/withdraw", quitter)
    check(status == 200, f"withdrawn: {status} {short(answer)}")
    chosen = {}
    by_id = {p.id: p for p in five}
    jobs = []
    for r in t["rounds"]:
        for g in r["games"]:
            a, b = by_id[g["seats"][0]["id"]], by_id[g["seats"][1]["id"]]
            if quitter in (a, b):
                chosen[g["id"]] = "0-1" if a is quitter else "1-0"
                continue
            chosen[g["id"]] = choose(a, b, r["round"])
            jobs.append(play(g["room"] or g["id"], (a, b), chosen[g["id"]]))
    await asyncio.gather(*jobs)
    final = await until("the end of the round robin", lambda: (lambda t: t if t["status"] == "finished" else None)(
        get_json(node, f"/api/tournaments/{tid}")))
    check_consistent(final, chosen, {p.id: p.username for p in five})
    check(next(e for e in final["entrants"] if e["id"] == quitter.id)["withdrawn"], "the quitter is withdrawn")
    print(f"round robin: 10 games, {quitter.username} withdrew, winner {final['standings'][0]['name']}")


async def live_swiss(players, rounds, **fields):
    """A live Swiss made by players[0], joined by them all and started; its id once round 1 was told."""
    m = await players[0].ask({"type": "tournament_create", "format": "swiss", "game": GAME, "rounds": rounds,
                              "clock": {"base_ms": 300000, "increment_ms": 0}, **fields}, "tournament")
    tid = m["tournament"]["id"]
    for p in players:
        await p.ask({"type": "tournament_join", "tournament": tid}, "tournament")
    await players[0].ask({"type": "tournament_start", "tournament": tid}, "tournament")
    await told_round(players, tid, 1, len(players) // 2)
    return tid


async def no_first_move(node, players):
    four = players[:4]
    tid = await live_swiss(four, 2)
    t = await tournament_of(node, tid)
    games = t["rounds"][0]["games"]
    by_id = {p.id: p for p in four}
    chosen = {}
    # Board 1 is played; on board 2 the first seat never moves.
    g1, g2 = games
    a, b = by_id[g1["seats"][0]["id"]], by_id[g1["seats"][1]["id"]]
    chosen[g1["id"]] = "1-0"
    await play(g1["room"] or g1["id"], (a, b), "1-0")
    absent = by_id[g2["seats"][0]["id"]]
    chosen[g2["id"]] = "0-1 forfeit"
    print(f"waiting for {absent.username}'s first move to be too late (30 s)...")
    t = await until("the forfeit", lambda: (lambda t: t if t["round"] == 2 else None)(
        get_json(node, f"/api/tournaments/{tid}")), timeout=50)
    check(t["rounds"][0]["games"][1]["result"] == "0-1 forfeit", f"a forfeit: {short(t['rounds'][0])}")
    check(next(e for e in t["entrants"] if e["id"] == absent.id)["absent"], "the player who did not come is absent")
    r2 = t["rounds"][1]
    seated = {s["id"] for g in r2["games"] for s in g["seats"]}
    check(absent.id not in seated and any(x["player"]["id"] == absent.id and x["kind"] == "absent" for x in r2["rests"]),
          f"the absent player sits round 2 out: {short(r2)}")
    check(len(r2["games"]) == 1 and any(x["kind"] == "bye" for x in r2["rests"]), f"one game and a bye: {short(r2)}")
    back = await absent.ask({"type": "tournament_join", "tournament": tid}, "tournament")
    check(not next(e for e in back["tournament"]["entrants"] if e["id"] == absent.id)["absent"], "back again")
    g = r2["games"][0]
    pair = (by_id[g["seats"][0]["id"]], by_id[g["seats"][1]["id"]])
    await told_round(list(pair), tid, 2, 1)
    chosen[g["id"]] = "1/2-1/2"
    await play(g["room"] or g["id"], pair, "1/2-1/2")
    final = await until("the end of the small Swiss", lambda: (lambda t: t if t["status"] == "finished" else None)(
        get_json(node, f"/api/tournaments/{tid}")))
    check_consistent(final, chosen, {p.id: p.username for p in four})
    print("no first move: a forfeit, the absent player sat out, came back")


def arena_points(games, player):
    """A player's arena points from its games in the order they ended: a win 2, a draw 1, doubled after two wins
    in a row until a game is not won (docs/tournaments.md, "Arena")."""
    points, wins_in_row = 0, 0
    for g in sorted((g for g in games if player in (g["seats"][0]["id"], g["seats"][1]["id"])),
                    key=lambda g: (g["ended_ms"], g["id"])):
        mine = POINTS[g["result"]][0 if g["seats"][0]["id"] == player else 1]
        streak = wins_in_row >= 2
        if mine == 1:
            points += 4 if streak else 2
            wins_in_row += 1
        else:
            points += (2 if streak else 1) if mine == 0.5 else 0
            wins_in_row = 0
    return points


async def arena(node, players):
    """A live arena of four planned to start 2 s after it is made, for 12 s: it starts by itself; whoever
    finishes a game is paired again at once (each game played as soon as its room is there), never with the
    same opponent twice in a row while someone else plays; no game is paired after the end, and it finishes
    when its last game does, with arena points (streaks) that follow from the results."""
    four = players[10:14]
    by_id = {p.id: p for p in four}
    start_ms = int(time.time() * 1000) + 2000
    m = await four[0].ask({"type": "tournament_create", "format": "arena", "game": GAME, "duration_ms": 12000,
                           "start_ms": start_ms, "name": "Twenty seconds",
                           "clock": {"base_ms": 180000, "increment_ms": 0}}, "tournament")
    tid = m["tournament"]["id"]
    check(m["tournament"]["status"] == "open" and m["tournament"]["spec"]["start_ms"] == start_ms, short(m))
    for p in four:
        await p.ask({"type": "tournament_join", "tournament": tid}, "tournament")
    t = await until("the planned start", lambda: (lambda t: t if t["status"] != "open" else None)(
        get_json(node, f"/api/tournaments/{tid}")), timeout=10)
    check(t["status"] == "running" and start_ms <= t["started_ms"] < start_ms + 3000,
          f"started by itself at its time: {t['status']} at {t['started_ms'] - start_ms} ms")
    check(t["ends_ms"] == t["started_ms"] + 12000, f"ends 12 s after its start: {short(t)}")
    chosen, jobs = {}, []
    deadline = time.monotonic() + 60
    while True:
        t = await tournament_of(node, tid)
        if t["status"] == "finished":
            break
        for g in (g for r in t["rounds"] for g in r["games"]):
            if g["result"] == "pending" and g["room"] and g["id"] not in chosen:
                a, b = by_id[g["seats"][0]["id"]], by_id[g["seats"][1]["id"]]
                chosen[g["id"]] = "1-0" if a.index < b.index else "0-1"  # the lower index always wins: streaks
                jobs.append(asyncio.create_task(play(g["room"], (a, b), chosen[g["id"]])))
        check(time.monotonic() < deadline, f"the arena still runs after 60 s: {short(t)}")
        await asyncio.sleep(0.1)
    await asyncio.gather(*jobs)
    games = [g for r in t["rounds"] for g in r["games"]]
    check(len(games) >= 6 and [r["round"] for r in t["rounds"]] == [0], f"{len(games)} games, all in round 0")
    check(all(g["paired_ms"] <= t["ends_ms"] for g in games), "no game paired after the end")
    check({g["id"]: g["result"] for g in games} == chosen, "every result as played")
    for p in four:
        mine = sorted((g for g in games if p.id in (g["seats"][0]["id"], g["seats"][1]["id"])),
                      key=lambda g: g["paired_ms"])
        for before, after in zip(mine, mine[1:]):
            if {s["id"] for s in before["seats"]} != {s["id"] for s in after["seats"]}:
                continue
            others_playing = [g for g in games if p.id not in (g["seats"][0]["id"], g["seats"][1]["id"])
                              and g["paired_ms"] <= after["paired_ms"] < (g["ended_ms"] or 1 << 62)
                              and not {s["id"] for s in g["seats"]} & {s["id"] for s in after["seats"]}]
            check(not others_playing, f"{after['id']}: {p.username} meets the same opponent again while "
                  f"{others_playing[0]['id'] if others_playing else ''} is being played")
    standing = {s["player"]: s["points"] for s in t["standings"]}
    for p in four:
        check(standing[p.id] == arena_points(games, p.id),
              f"{p.username}: {standing[p.id]} arena points, {arena_points(games, p.id)} by its results")
    check(t["standings"][0]["player"] == four[0].id, f"the one who always won leads: {short(t['standings'][0])}")
    print(f"arena: {len(games)} games in 12 s, {four[0].username} first with {standing[four[0].id]} points")


async def blocked(node):
    four = [Player(i) for i in range(30, 34)]
    for p in four:
        await p.connect(node)
        await p.register()
    a, b, c, d = four
    for other in (b, c):
        await a.ask({"type": "block", "player": other.username}, "blocks")
    tid = await live_swiss(four, 1, name="Blocks")
    t = await tournament_of(node, tid)
    pairs = [{s["id"] for s in g["seats"]} for r in t["rounds"] for g in r["games"]]
    check(sorted(map(sorted, pairs)) == sorted([sorted({a.id, d.id}), sorted({b.id, c.id})]),
          f"the one pairing without a block: {pairs}")
    for p in four:
        await p.client.close()
    print("blocks: a Swiss pairs around them")


async def run(node):
    set_address_rate(1000.0, 1000.0)  # the server runs with --per-address-rate 0
    players = [Player(i) for i in range(16)]
    for p in players:
        await p.connect(node)
    guest = players[0]
    await guest.refused({"type": "tournament_create", "format": "swiss", "game": GAME, "rounds": 1,
                         "clock": {"base_ms": 600000}}, "account_required")
    await asyncio.gather(*(p.register() for p in players))
    await players[0].refused({"type": "tournament_join", "tournament": "nosuch"}, "no_tournament")
    started = time.monotonic()
    await swiss(node, players)
    await correspondence(node, players)
    await no_first_move(node, players)
    await arena(node, players)
    await blocked(node)
    problems = [x for p in players for x in p.client.problems]
    check(not problems, f"protocol problems: {problems[:5]}")
    for p in players:
        await p.client.close()
    print(f"tournaments played in {time.monotonic() - started:.1f} s")


async def mail_pairing(node):
    """A server with mail (its SMTP server unreachable: the outbox keeps what is queued): a paired player whose
    account has a confirmed address gets a "your game is ready" mail queued with the pairing, once."""
    import email
    import email.policy
    import sqlite3
    db = os.path.join(node.data, "cinq.db")

    def outbox(kind):
        with sqlite3.connect(db, timeout=10) as c:
            return c.execute("SELECT id, recipient, message FROM mail_outbox WHERE kind = ?", (kind,)).fetchall()

    two = [Player(20), Player(21)]
    for p in two:
        await p.connect(node)
        await p.register()
        address = f"{p.username}@players.test"
        await p.ask({"type": "set_mail", "address": address, "language": "fr" if p.index == 21 else "en"},
                    "mail_settings")
        row = await until(f"the confirmation to {address}", lambda: [r for r in outbox("account_confirm") + outbox("confirm")
                                                                    if r[1] == address])
        body = email.message_from_string(row[0][2], policy=email.policy.default).get_body(("plain",)).get_content()
        link = re.search(r"/api/account/confirm\?\S+", body).group(0)
        status, _, text = await asyncio.to_thread(http, node.port, link)
        check(status == 200, f"confirmed {address}: {status} {text[:200]}")
    tid = await live_swiss(two, 1, name="Mailed")
    rows = outbox("tournament")
    check(sorted(r[1] for r in rows) == ["tp20@players.test", "tp21@players.test"], f"the pairing's mails: {rows}")
    for mail_id, recipient, message in rows:
        check(mail_id.startswith(f"tournament.{tid}-1-1."), f"a pairing mail's id: {mail_id}")
        parsed = email.message_from_string(message, policy=email.policy.default)
        text = parsed.get_body(("plain",)).get_content()
        french = recipient.startswith("tp21")
        check(("ronde 1" if french else "round 1") in str(parsed["Subject"]) and f"/#/room/{tid}-1-1" in text,
              f"the mail to {recipient}: {parsed['Subject']} {text[:200]}")
    for p in two:
        await p.client.close()
    print("mail: each paired account told by mail, in its language")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, web = sys.argv[1:]
    plain = Node(binary, web)
    mailing = Node(binary, web, "--smtp", "smtp://127.0.0.1:9", "--mail-from", "cinq@cinq.test",
                   "--mail-domain", "cinq.test")
    failure = checked_run(plain, plain.start, lambda: run(plain), 280) or \
        checked_run(mailing, mailing.start, lambda: mail_pairing(mailing), 60)
    for node in (plain, mailing):
        node.cleanup()
    return 1 if failure else 0


if __name__ == "__main__":
    sys.exit(main())
