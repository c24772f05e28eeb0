#!/usr/bin/env python3
"""Moderation on three nodes (docs/scaling.md, "Moderation"): PostgreSQL, Redis and three `cinq serve` nodes
(harness.py), four accounts. A moderator (made with `cinq admin grant` on the shared store) bans an account on
n1: its hello is refused `banned` on n2 and n3 within a second; unbanned on n1, it is let in everywhere again.
Muted on n2, the player's chat is refused `muted` in a room on n3; unmuted, it chats. Then a ban whose bus
message never came (published to nobody: the nodes' Redis is stopped a moment, the ban written by n1 meanwhile)
still reaches n2 and n3 within the poll (ModerationDesk::kPollMs) once the audit log grew.

    tests/cluster/moderation_cluster_test.py build/server/cinq web-client
"""

import asyncio
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cinq_support  # noqa: E402
from cinq_support import Client, check, short  # noqa: E402
from harness import Cluster  # noqa: E402
from tournament_test import Player, until  # noqa: E402

cinq_support.set_address_rate(100000, 100000)  # the nodes run without per-address limits
# How soon a sanction made on one node holds on the others: the bus message, a reload of the moderation tables
# on a worker and a fresh connection's hello (milliseconds on a quiet machine; a loaded one is slower).
kWithin = 3.0


async def hello_answer(node, player):
    """What a fresh connection to `node` is answered when it says hello as `player`."""
    c = await Client(f"{player.username}-on-{node.name}", node.url()).open()
    try:
        await c.send({"type": "hello", "id": player.id, "token": player.token})
        return await c.expect("the hello's answer", lambda m: m["type"] in ("welcome", "error"))
    finally:
        await c.close()


async def within(what, seconds, probe, every=0.05):
    """Polls `probe` (async, truthy when done) until it holds; fails past `seconds`. The time it took."""
    started = time.monotonic()
    while True:
        if await probe():
            return time.monotonic() - started
        if time.monotonic() - started > seconds:
            raise cinq_support.Failed(f"{what}: not within {seconds} s")
        await asyncio.sleep(every)


async def scenario(cluster, binary):
    n1, n2, n3 = cluster.nodes
    mod, zed, cat = Player(0), Player(1), Player(2)
    mod.username, zed.username, cat.username = "mc_mod", "mc_zed", "mc_cat"
    for p, node in ((mod, n1), (zed, n2), (cat, n3)):
        await p.connect(node)
        await p.register()
    out = subprocess.run([binary, "admin", "grant", mod.username, "moderator", "--store", cluster.pg.uri],
                         capture_output=True, text=True, timeout=30)
    check(out.returncode == 0, f"cinq admin grant: {out.stderr}")
    await mod.ask({"type": "mod_role"}, "mod_role")

    # Every node lets zed in before the ban (their desks loaded at start: nothing in force).
    for node in (n2, n3):
        check((await hello_answer(node, zed))["type"] == "welcome", f"zed is let in on {node.name}")

    # Banned on n1: refused on n2 and n3 within a second.
    await mod.ask({"type": "mod_ban", "player": zed.username, "reason": "cheating"}, "mod_done")
    banned_at = time.monotonic()
    for node in (n2, n3):
        async def refused(node=node):
            m = await hello_answer(node, zed)
            return m["type"] == "error" and m["code"] == "banned"
        await within(f"zed's hello refused on {node.name}", kWithin - (time.monotonic() - banned_at), refused)
    print(f"ban on n1 refused on n2 and n3 after {time.monotonic() - banned_at:.2f} s")

    # Unbanned on n1: let in everywhere again.
    await mod.ask({"type": "mod_unban", "player": zed.username}, "mod_done")
    unbanned_at = time.monotonic()
    for node in (n1, n2, n3):
        async def welcomed(node=node):
            return (await hello_answer(node, zed))["type"] == "welcome"
        await within(f"zed let in on {node.name}", kWithin - (time.monotonic() - unbanned_at), welcomed)
    await zed.connect(n3)  # its connection was logged out by the ban

    # Muted from n2 (the moderator's second connection there): zed's chat refused in a room on n3.
    mod_n2 = await Client("mod-on-n2", n2.url()).open()
    await mod_n2.hello(id=mod.id, token=mod.token)
    await cat.client.send({"type": "create", "game": "tablut", "seat": 0})
    room_state = await cat.client.expect("cat's room", lambda m: m.get("type") == "state")
    room = room_state["room"]
    await zed.client.send({"type": "sit", "room": room, "seat": 1})
    await zed.client.expect("zed seated", lambda m: m.get("type") == "state" and m.get("room") == room)
    await mod_n2.send({"type": "mod_mute", "player": zed.username, "duration": "1h", "reason": "insults", "ref": 1})
    m = await mod_n2.expect("the mute", lambda m: m.get("ref") == 1)
    check(m["type"] == "mod_done", f"muted from n2: {short(m)}")
    muted_at = time.monotonic()

    async def chat_refused():
        ref = f"chat-{time.monotonic()}"
        await zed.client.send({"type": "chat", "room": room, "text": "hello", "ref": ref})
        m = await zed.client.expect("the chat's answer", lambda m: m.get("ref") == ref or (
            m.get("type") == "chat" and m.get("text") == "hello"))
        return m.get("type") == "error" and m.get("code") == "muted"
    took = await within("zed's chat refused on n3", kWithin, chat_refused, every=0.2)
    print(f"mute on n2 refused zed's chat on n3 after {time.monotonic() - muted_at:.2f} s ({took:.2f} s polling)")
    await mod_n2.send({"type": "mod_unmute", "player": zed.username, "ref": 2})
    await mod_n2.expect("the unmute", lambda m: m.get("ref") == 2)

    async def chat_passes():
        return not await chat_refused()
    await within("zed chats again on n3", kWithin, chat_passes, every=0.2)

    # A ban whose bus message is lost: Redis away while n1 writes it. The other nodes read it at their next
    # poll of the audit log (every 2 s; a full reload every 30 s).
    cluster.redis.stop()
    await mod.ask({"type": "mod_ban", "player": cat.username, "reason": "lost message"}, "mod_done")
    lost_at = time.monotonic()
    for node in (n2, n3):
        async def refused_cat(node=node):
            m = await hello_answer(node, cat)
            return m["type"] == "error" and m["code"] == "banned"
        await within(f"cat's hello refused on {node.name} without the bus", 6.0, refused_cat)
    print(f"a ban without the bus reached n2 and n3 after {time.monotonic() - lost_at:.2f} s")
    cluster.redis.start()
    await mod_n2.close()


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    cluster = Cluster(sys.argv[1], sys.argv[2], count=3)
    try:
        asyncio.run(scenario(cluster, sys.argv[1]))
    except BaseException:
        print(cluster.logs(), file=sys.stderr)
        raise
    finally:
        cluster.close()
    print("moderation on a cluster: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
