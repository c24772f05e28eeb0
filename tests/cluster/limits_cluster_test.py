#!/usr/bin/env python3
"""The per-address and per-player limits over a cluster (docs/scaling.md, "Limits"): PostgreSQL, Redis, three
`cinq serve` nodes with small limits and HAProxy, started here (harness.py). Each case uses addresses of its
own on loopback (127.0.0.X), so that the cases do not count against each other:

- open rooms and games against the computer per player: up to the limit over n1, n2, n3, the next refused
  on every node;
- WebSocket connections per address: spread over the nodes and through HAProxy, the next refused everywhere,
  one closed lets one more in;
- messages a second per address and HTTP requests a second per address: three nodes together let through
  about what one lets through, not three times it;
- with Redis stopped each node counts alone (and serves), and once Redis is back the counts are shared again.

    tests/cluster/limits_cluster_test.py build/server/cinq web-client [--only NAME[,NAME...]]
"""

import asyncio
import os
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cinq_support  # noqa: E402
import websockets  # noqa: E402
from cinq_support import check, short  # noqa: E402
from harness import Cluster, http_get, run_cases, wait_until  # noqa: E402
from login_test import Browser  # noqa: E402 - a client bound to a loopback address

OPEN_ROOMS, BOT_ROOMS, CONNECTIONS, MESSAGE_RATE, HTTP_RATE = 3, 2, 4, 5, 5
LIMITS = ["--open-rooms-per-player", str(OPEN_ROOMS), "--bot-rooms-per-player", str(BOT_ROOMS),
          "--per-address-connections", str(CONNECTIONS), "--per-address-rate", str(MESSAGE_RATE),
          "--http-rate", str(HTTP_RATE)]
BEAT_S = 1.6  # a node reads the others' connection counts again every second (SharedLimits::kBeatMs)
# The nodes' HTTP rate (5 a second, bursts of 50) holds for the balancer's own address too (127.0.0.1, each
# node on its own): the health polls here are slow, so that HAProxy's checks are always answered.

# Paced sends stay well under the address's rate: half of it, in bursts of half the server's, so that messages
# a loaded machine delays and delivers together still fit the server's bucket.
cinq_support.set_address_rate(MESSAGE_RATE / 2, MESSAGE_RATE)

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


async def player(node, address, name=None, identity=None):
    """A client of `address` on `node`, said hello (as `identity`, a welcome, when given)."""
    c = await Browser(name or f"{address} on {node.name}", node.url(), address).open()
    if identity:
        await c.hello(id=identity["player"]["id"], token=identity["token"])
    else:
        c.welcome = await c.hello(name="p" + address.replace(".", ""))
    return c


async def create(c, **fields):
    """The answer to a create: the room's id, or "error:" and the error's code."""
    await c.send({"type": "create", "game": "tablut", "seat": 0, **fields})
    m = await c.expect("create's answer", lambda m: m["type"] in ("state", "error"), 10)
    return m["room"] if m["type"] == "state" else "error:" + m["code"]


def rooms(answers):
    return all(not a.startswith("error:") for a in answers)


@test
async def rooms_per_player_across_nodes(cluster):
    """A player's open rooms made on n1, n2 and n3 count together: the fourth is refused on every node; the
    same for games against the computer (two)."""
    n1, n2, n3 = cluster.nodes
    first = await player(n1, "127.0.10.1")
    clients = [first] + [await player(n, "127.0.10.1", identity=first.welcome) for n in (n2, n3)]
    made = [await create(c) for c in clients]
    check(rooms(made), f"three open rooms, one on each node: {made}")
    refused = [await create(c) for c in clients]
    check(refused == ["error:too_many_rooms"] * 3, f"a fourth open room, on any node: {refused}")
    # Games against the computer: two, on n2 and n3; the third refused on n1, n2 and n3.
    bots = [await create(c, bot=1) for c in clients[1:]]
    check(rooms(bots), f"two games against the computer: {bots}")
    refused = [await create(c, bot=1) for c in clients]
    check(refused == ["error:too_many_rooms"] * 3, f"a third game against the computer, on any node: {refused}")
    # Resigning one frees its place, wherever the next is made.
    await clients[1].send({"type": "resign", "room": bots[0]})
    m = await clients[1].expect("the resignation", lambda m: m.get("kind") == "finished" or m["type"] == "error", 10)
    check(m.get("kind") == "finished", f"resigned: {short(m)}")
    again = await create(clients[0], bot=1)
    check(rooms([again]), f"one finished, one more on n1: {again}")
    for c in clients:
        await c.close()


async def connect(url, address):
    """A WebSocket connection from `address` (open), or the HTTP status it was refused with."""
    try:
        return await websockets.connect(url, open_timeout=5, compression=None, local_addr=(address, 0))
    except websockets.exceptions.InvalidStatusCode as e:
        return e.status_code


async def refused(url, address, within=6.0):
    """The status a connection from `address` is refused with, once the node has heard of the others' counts
    (one let in before that is closed again and the connection tried anew), or "admitted" after `within` s."""
    deadline = time.monotonic() + within
    while True:
        c = await connect(url, address)
        if isinstance(c, int):
            return c
        await c.close()
        if time.monotonic() > deadline:
            return "admitted"
        await asyncio.sleep(0.2)


async def admitted(url, address, within=6.0):
    """A connection from `address`, tried until the node lets it in (it hears of a place freed elsewhere within
    a heartbeat or so), or the last refusal's status after `within` s."""
    deadline = time.monotonic() + within
    while True:
        c = await connect(url, address)
        if not isinstance(c, int) or time.monotonic() > deadline:
            return c
        await asyncio.sleep(0.2)


@test
async def connections_per_address_across_nodes(cluster):
    """One address's connections on n1, n2, n3 count together: once it holds four over the cluster, a fifth
    is refused on every node and through HAProxy; one closed lets one more in."""
    n1, n2, n3 = cluster.nodes
    address = "127.0.11.1"
    held = [await connect(n.url(), address) for n in (n1, n1, n2, n3)]
    check(all(not isinstance(c, int) for c in held), f"four connections over three nodes: {held}")
    balancer = f"ws://127.0.0.1:{cluster.haproxy.port}/ws"
    fifth = [await refused(url, address) for url in (n1.url(), n2.url(), n3.url(), balancer)]
    check(fifth == [429] * 4, f"a fifth on n1, n2, n3 and through HAProxy: {fifth}")
    await held[2].close()  # the one on n2
    again = await admitted(n3.url(), address)
    check(not isinstance(again, int), f"one closed on n2, one more on n3: {again}")
    for c in held[:2] + held[3:] + [again]:
        await c.close()


@test
async def messages_per_address_across_nodes(cluster):
    """One address's connections on three nodes, each sending 10 messages a second for 3 s (the address may
    send 5 a second, in bursts of 10): about 10 + 3 x 5 are answered over the cluster, not three times it."""
    address = "127.0.12.1"
    clients = [await player(n, address) for n in cluster.nodes]
    await asyncio.sleep(0.5)  # the hellos' batches are shared (their three tokens count in the bound)
    for c in clients:
        c.skip()

    async def ping(c):
        for _ in range(30):
            await c.ws.send('{"type":"ping"}')  # unpaced: the server's limit is what is tested
            await asyncio.sleep(0.1)

    started = time.monotonic()
    await asyncio.gather(*(ping(c) for c in clients))
    elapsed = time.monotonic() - started
    await asyncio.sleep(0.5)
    answered = sum(1 for c in clients for m in c.received[c.cursor:] if m["type"] == "pong")
    refused = sum(1 for c in clients for m in c.received[c.cursor:] if m.get("code") == "rate_limited")
    # The cluster's one bucket: 10 + 5 a second (and what the nodes let through in the 100 ms before they
    # hear of each other). Each node alone would answer min(30, 10 + 15) = 25 of its connection's 30: 75.
    most = 2 * MESSAGE_RATE + MESSAGE_RATE * elapsed + 20
    check(15 <= answered <= min(most, 60) and refused > 0,
          f"{answered} of 90 messages answered over three nodes in {elapsed:.1f} s (at most {most:.0f})")
    for c in clients:
        await c.close()
    return f"{answered} of 90 answered"


def get_as(node, address):
    """GET /api/health on `node` for the client `address` (as the trusted balancer names it)."""
    request = urllib.request.Request(f"http://127.0.0.1:{node.port}/api/health",
                                     headers={"X-Forwarded-For": address})
    try:
        with urllib.request.urlopen(request, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


@test
async def http_requests_per_address_across_nodes(cluster):
    """One address's HTTP requests, 60 a second for 3 s over n1, n2, n3 (it may make 5 a second in bursts of
    50): about 50 + 15 are served over the cluster, where three nodes alone would serve all 180. The
    balancer's own health checks are not counted (the nodes stay in its rotation)."""
    statuses = []
    started = time.monotonic()
    for i in range(180):
        statuses.append(await asyncio.to_thread(get_as, cluster.nodes[i % 3], "198.51.100.12"))
        await asyncio.sleep(max(0.0, started + (i + 1) / 60 - time.monotonic()))
    elapsed = time.monotonic() - started
    served = statuses.count(200)
    # The cluster's one bucket: 50 + 5 a second, and a little more before the nodes hear of each other. Each
    # node alone would serve all its 60 (50 + 5 a second past two seconds).
    most = 10 * HTTP_RATE + HTTP_RATE * elapsed + 35
    check(set(statuses) <= {200, 429} and 40 <= served <= min(most, 140),
          f"{served} of 180 requests served in {elapsed:.1f} s (at most {most:.0f})")
    check(http_get(cluster.haproxy.port, "/api/health")[0] == 200, "HAProxy still has nodes")
    return f"{served} of 180 served"


@test
async def each_node_alone_while_redis_is_away(cluster):
    """Redis stopped: each node counts a player's rooms alone (three on n1, then n1 refuses and n2 still
    makes one) and serves as before; once Redis is back the counts are shared again (n3 refuses)."""
    n1, n2, n3 = cluster.nodes
    first = await player(n1, "127.0.13.1")
    on_n2 = await player(n2, "127.0.13.1", identity=first.welcome)
    cluster.redis.stop()
    try:
        for n in cluster.nodes:
            wait_until(f"{n.name} sees the bus down", lambda: '"bus":false' in http_get(n.port, "/api/health")[1], 10,
                       every=0.25)
        made = [await create(first) for _ in range(OPEN_ROOMS)]
        check(rooms(made), f"three open rooms on n1: {made}")
        refused = await create(first)
        check(refused == "error:too_many_rooms", f"a fourth on n1, counted by n1 alone: {refused}")
        alone = await create(on_n2)
        check(rooms([alone]), f"n2 counts alone: one more there: {alone}")
        await first.send({"type": "ping"})
        await first.expect("pong", lambda m: m["type"] == "pong", 5)
    finally:
        cluster.redis.start()
    for n in cluster.nodes:
        wait_until(f"{n.name} sees the bus up", lambda: '"bus":true' in http_get(n.port, "/api/health")[1], 15,
                   every=0.25)
    on_n3 = await player(n3, "127.0.13.1", identity=first.welcome)
    # Each node writes its counts again at its next heartbeat (Redis came back empty): then n3, which holds
    # none of the player's rooms, counts the four on n1 and n2.
    await asyncio.sleep(2 * BEAT_S)
    answer = await create(on_n3)
    check(answer == "error:too_many_rooms", f"shared again after Redis came back: n3 refuses ({answer})")
    for c in (first, on_n2, on_n3):
        await c.close()


async def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    binary, web = sys.argv[1], sys.argv[2]
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    cluster = Cluster(binary, web, count=3, balancer=True, extra=LIMITS, lift_limits=False)
    try:
        failures = await run_cases(cluster, TESTS, only, 60)
    finally:
        cluster.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
