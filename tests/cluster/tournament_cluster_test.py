#!/usr/bin/env python3
"""A tournament on three nodes (docs/scaling.md, "Tournaments"): PostgreSQL, Redis and three `cinq serve`
nodes, started here (harness.py), and seven accounts.

A Swiss of 3 rounds by correspondence is made on n1, which runs it (it holds the lease `t:ID`). The others join
from their own nodes, one withdraws and joins again from n2, a guest watches from n3, and the creator starts
it from a second connection on n3: the start is stored there, and n1 pairs the round. A seventh account
enters late from n3, during round 1: it plays from round 2, and rounds 2 and 3 each give a bye. Every paired
player is told on its own node. Round 1 is played; round 2 is paired, one of its games played, then n1 is
SIGKILLed: its players come back through n2, another node takes the tournament over (and the rooms), the rest
of round 2 is played there, round 3 is paired by the new owner, once, and played. At the end every result counts once,
no pair met twice, and the watcher on n3 saw the final standings.

    tests/cluster/tournament_cluster_test.py build/server/cinq web-client
"""

import asyncio
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cinq_support  # noqa: E402
from cinq_support import Client, check, short  # noqa: E402
from harness import Cluster  # noqa: E402
from tournament_test import (GAME, Player, check_consistent, get_json, play_round, told_round,  # noqa: E402
                             until)

cinq_support.set_address_rate(100000, 100000)  # the nodes run without per-address limits


async def paired(node, tid, round_, everyone):
    """The players with a game in that round, once it is paired (the last result of the round before is
    recorded first, then the round is paired at the running node's next look)."""
    def ids():
        t = get_json(node, f"/api/tournaments/{tid}")
        return {s["id"] for r in t["rounds"] if r["round"] == round_ for g in r["games"] for s in g["seats"]}
    found = await until(f"round {round_} paired", ids, timeout=20)
    return [p for p in everyone if p.id in found]


def runner(cluster, tid):
    """The name of the node holding the tournament's lease ("" if none)."""
    rows = cluster.pg.sql(f"SELECT n.name FROM room_leases l JOIN nodes n ON n.id = l.node_id "
                          f"WHERE l.game_id = 't:{tid}'")
    return rows[0] if rows else ""


async def scenario(cluster):
    n1, n2, n3 = cluster.nodes
    everyone = [Player(i) for i in range(7)]
    for p in everyone:
        p.node = cluster.nodes[p.index % 3] if p.index < 6 else n3
        await p.connect(p.node)
        await p.register()
    players, late = everyone[:6], everyone[6]
    by_id = {p.id: p.username for p in everyone}
    creator = players[0]  # on n1
    m = await creator.ask({"type": "tournament_create", "format": "swiss", "game": GAME, "rounds": 3,
                           "name": "Three nodes", "clock": {"days": 3}}, "tournament")
    tid = m["tournament"]["id"]
    check(runner(cluster, tid) == "n1", f"the node that made it runs it: {runner(cluster, tid)!r}")

    # Joined from every node (n2's and n3's writes are stored there, under the row's version).
    await asyncio.gather(*(p.ask({"type": "tournament_join", "tournament": tid}, "tournament") for p in players))
    quitter = players[4]  # on n2
    m = await quitter.ask({"type": "tournament_withdraw", "tournament": tid}, "tournament")
    check(all(e["id"] != quitter.id for e in m["tournament"]["entrants"]), f"withdrawn on n2: {short(m)}")
    await quitter.ask({"type": "tournament_join", "tournament": tid}, "tournament")
    await players[5].refused({"type": "tournament_join", "tournament": tid}, "already_in")

    watcher = await Client("watcher", n3.url()).open()
    await watcher.hello()
    await watcher.send({"type": "tournament_watch", "tournament": tid, "ref": 1})
    m = await watcher.expect("the watched tournament", lambda m: m.get("ref") == 1)
    check(m["type"] == "tournament" and len(m["tournament"]["entrants"]) == 6, f"watched from n3: {short(m)}")
    t = get_json(n2, f"/api/tournaments/{tid}")
    check(len(t["entrants"]) == 6 and t["status"] == "open", f"n2 reads it from the store: {short(t)}")

    # Started from n3 by the creator's second connection; n1 pairs round 1 and makes its rooms.
    other = await Client("creator-on-n3", n3.url()).open()
    await other.hello(id=creator.id, token=creator.token)
    await other.send({"type": "tournament_start", "tournament": tid, "ref": 2})
    m = await other.expect("the start", lambda m: m.get("ref") == 2)
    check(m["type"] == "tournament" and m["tournament"]["status"] == "running", f"started on n3: {short(m)}")
    chosen = {}
    await told_round(players, tid, 1, 3)
    # A late entry, on n3 while round 1 is played: paired from round 2, with 0 for round 1.
    m = await late.ask({"type": "tournament_join", "tournament": tid}, "tournament")
    check(next(e for e in m["tournament"]["entrants"] if e["id"] == late.id)["first_round"] == 2,
          f"a late entrant plays from round 2: {short(m)}")
    await play_round(n2, tid, 1, everyone, chosen)
    round2 = await paired(n2, tid, 2, everyone)
    await told_round(round2, tid, 2, 3)
    for p in players:
        check(len(p.game_notes(tid)) == 1 + (p in round2),
              f"{p.username} on {p.node.name} told once a round: {[n['round'] for n in p.game_notes(tid)]}")

    # One game of round 2 played, then n1 dies with the tournament and the rooms it made.
    t = get_json(n2, f"/api/tournaments/{tid}")
    games2 = next(r for r in t["rounds"] if r["round"] == 2)["games"]
    await play_round(n2, tid, 2, everyone, chosen, only=[games2[0]["id"]])
    await until("the first game of round 2 recorded", lambda: next(
        g for r in get_json(n3, f"/api/tournaments/{tid}")["rounds"] if r["round"] == 2
        for g in r["games"] if g["id"] == games2[0]["id"])["result"] != "pending")
    n1.kill()
    n1.wait()
    started = time.monotonic()
    for p in everyone:
        if p.node is n1:
            p.node = n2
            await p.connect(n2)
    taken = await until("another node runs the tournament", lambda: runner(cluster, tid) in ("n2", "n3") and
                        runner(cluster, tid), timeout=30)
    print(f"taken over by {taken} in {time.monotonic() - started:.1f} s")
    for g in games2[1:]:
        await until(f"the room {g['id']} played on by another node", lambda: cluster.owner_of(g["id"]) in ("n2", "n3"),
                    timeout=30)
    await play_round(n3, tid, 2, everyone, chosen, only=[g["id"] for g in games2[1:]])

    # Round 3, paired once by the new owner; its players told on their nodes (n2 and n3 only now).
    await told_round(await paired(n3, tid, 3, everyone), tid, 3, 3)
    await play_round(n3, tid, 3, everyone, chosen)
    final = await until("the end of the Swiss", lambda: (lambda t: t if t["status"] == "finished" else None)(
        get_json(n2, f"/api/tournaments/{tid}")), timeout=30)
    check([r["round"] for r in final["rounds"]] == [1, 2, 3] and all(len(r["games"]) == 3 for r in final["rounds"]),
          f"3 rounds of 3 games: {[len(r['games']) for r in final['rounds']]}")
    byes = [x["player"]["id"] for r in final["rounds"] for x in r["rests"] if x["kind"] == "bye"]
    check(len(byes) == 2 and len(set(byes)) == 2, f"a bye in rounds 2 and 3, to two players: {byes}")
    late_row = next(row for row in final["crosstable"] if row["player"] == late.id)
    check(late_row["cells"][0]["kind"] == "none", f"the late entrant's round 1: {short(late_row['cells'][0])}")
    check_consistent(final, chosen, by_id)
    check(get_json(n3, f"/api/tournaments/{tid}") == final, "every node reads the same tournament")
    await until("the watcher on n3 sees the end", lambda: any(
        m.get("type") == "tournament" and "ref" not in m and m["tournament"]["status"] == "finished"
        for m in watcher.received))
    pushed = [m for m in watcher.received if m.get("type") == "tournament" and "ref" not in m]
    check(pushed[-1]["tournament"]["standings"] == final["standings"], "the watcher's last push is the final one")
    log = "\n".join(n.log() for n in (n2, n3))
    check(f"tournament {tid}: taken over" in log, "the log says who took it over")
    print(f"swiss on three nodes: 9 games, winner {final['standings'][0]['name']} with "
          f"{final['standings'][0]['points']} points, {len(pushed)} pushes to the watcher on n3")


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    cluster = Cluster(sys.argv[1], sys.argv[2], count=3)
    try:
        asyncio.run(scenario(cluster))
    except BaseException:
        print(cluster.logs(), file=sys.stderr)
        raise
    finally:
        cluster.close()
    print("tournament on a cluster: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
