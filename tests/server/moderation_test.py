"""Moderation and ratings that cannot be farmed, through a real `cinq serve` over real sockets
(docs/protocol.md, "Moderation"):

1. Farming: two new accounts, a rated Tablut room, the creator resigns before anyone moved: the game ends
   aborted ("too short to rate"), unrated, and neither rating changed. A rated game where both played is rated.
2. Roles: `cinq admin grant USER moderator` on the server's store while it runs; a player who is no moderator
   is refused (`forbidden`) every moderation command, and nothing changed.
3. A moderator mutes (the muted player's chat is refused `muted`), unmutes, resets an offensive name, closes a
   room (aborted, "closed by a moderator"), reads the reports a player made (of a player and of a chat line)
   and resolves one, sees the accounts that share an address and a browser (the `cinq_device` cookie) with
   their rated games, bans (the banned account's connections are logged out, its login and hello refused
   `banned`, its games kept), unbans, and reads every action in the audit log.
4. Blocks: a player blocks another: the blocked one's chat lines are not sent to the blocker (others get
   them), and their seeks never pair; unblocked, they pair.
5. REST: every moderation command as an HTTP route with `Authorization: Bearer PLAYER:TOKEN`: 401 without
   it or with a wrong token, 403 `forbidden` for a player on every moderator's route (nothing changed), a
   malformed body or field 400 naming it (nothing changed); a moderator reads the reports, the audit log, the
   linked accounts and a player, bans (the hello refused), unbans, mutes (the chat refused), unmutes, resets a
   name, closes a room and resolves a report; a player reports and blocks. `welcome` says the role.

usage: moderation_test.py CINQ_BINARY WEB_DIR
"""

import asyncio
import itertools
import json
import os
import subprocess
import sys

import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cinq_support import Client, Failed, Server, check, checked_run, http, short  # noqa: E402

PASSWORD = "correct horse battery"
refs = itertools.count(1)


class Browser(Client):
    """A client whose upgrade request carries a `cinq_device` cookie (a browser's), if given."""

    def __init__(self, name, url, device=None):
        super().__init__(name, url)
        self.device = device

    async def open(self):
        headers = {"Cookie": f"theme=dark; cinq_device={self.device}"} if self.device else None
        self.ws = await websockets.connect(self.url, max_size=1 << 24, open_timeout=5, compression=None,
                                          extra_headers=headers)
        self.reader = asyncio.create_task(self._read())
        return self


async def ask(client, message, answer, timeout=10):
    """Sends with a ref; the answer of that ref, which must be of type `answer`."""
    ref = next(refs)
    await client.send({**message, "ref": ref})
    m = await client.expect(f"the answer to {message['type']}", lambda m: m.get("ref") == ref, timeout=timeout)
    check(m["type"] == answer, f"{client.name}: {short(message)} answered {short(m)}")
    return m


async def then(client, message, kind):
    """Sends `message`, the answer of which carries no ref (a room's `state`, an `event`); the next of `kind`."""
    client.skip()
    await client.send(message)
    if kind in ("state",):
        return await client.expect(kind, lambda m: m.get("type") == kind, timeout=10)
    return await client.expect(kind, lambda m: m.get("type") == "event" and m.get("kind") == kind, timeout=10)


async def refused(client, message, code):
    ref = next(refs)
    await client.send({**message, "ref": ref})
    m = await client.expect(f"the answer to {message['type']}", lambda m: m.get("ref") == ref)
    check(m["type"] == "error" and m["code"] == code, f"{short(message)}: expected {code}, got {short(m)}")
    return m


async def account(url, username, device=None):
    c = await Browser(username, url, device).open()
    await c.hello(name=username)
    await ask(c, {"type": "register", "username": username, "password": PASSWORD}, "registered", timeout=30)
    return c


def player_json(port, username):
    status, _, body = http(port, f"/api/players/{username}")
    check(status == 200, f"GET /api/players/{username}: {status} {body[:200]}")
    return json.loads(body)


async def rated_room(creator, other):
    state = await then(creator, {"type": "create", "game": "tablut", "rated": True, "seat": 0}, "state")
    room = state["room"]
    await then(other, {"type": "sit", "room": room, "seat": 1}, "state")
    await creator.expect("started", lambda m: m.get("type") == "event" and m.get("kind") == "started")
    return room


async def finished(client, room):
    return await client.expect("finished", lambda m: m.get("type") == "event" and m.get("room") == room
                               and m.get("kind") == "finished")


async def farming(port, url):
    ada = await account(url, "ada")
    ben = await account(url, "ben")
    room = await rated_room(ada, ben)
    await ada.send({"type": "resign", "room": room})
    end = await finished(ada, room)
    result = end["result"]
    check(result["reason"] == "aborted" and result["winner"] is None and result["detail"] == "too short to rate",
          f"a rated game resigned at once is aborted: {short(end)}")
    for name in ("ada", "ben"):
        p = await asyncio.to_thread(player_json, port, name)
        check(not p["history"] and all(r["games"] == 0 for r in p["ratings"]),
              f"{name}'s rating did not change: {short(p)}")
    status, _, body = await asyncio.to_thread(http, port, f"/api/games?player=ada&rated=true")
    check(status == 200 and json.loads(body)["total"] == 0, f"the aborted game is not listed as rated: {body[:300]}")
    await ada.close()
    await ben.close()


def admin(binary, data, *args):
    return subprocess.run([binary, "admin", *args, "--data", data], capture_output=True, text=True, timeout=30)


async def moderation(port, url, binary, data):
    # Two accounts from one browser (one device cookie) play a rated game: the moderators see the pair.
    mia = await account(url, "mia")
    zed = await account(url, "zed", device="shared-device-1")
    sock = await account(url, "sock", device="shared-device-1")
    cat = await account(url, "cat")

    room = await rated_room(zed, sock)
    await then(zed, {"type": "act", "room": room, "actions": ["d1 d2"]}, "play")
    await then(sock, {"type": "act", "room": room, "actions": ["e3 c3"]}, "play")
    await zed.send({"type": "resign", "room": room})
    end = await finished(zed, room)
    check(end["result"]["reason"] == "resign", f"a rated game both played is resigned: {short(end)}")
    p = await asyncio.to_thread(player_json, port, "sock")
    check(len(p["history"]) == 1, f"sock's rating changed once: {short(p)}")

    # Nobody is a moderator yet: every command is refused, nothing changed.
    for message in ({"type": "mod_ban", "player": "zed", "reason": "x"}, {"type": "mod_unban", "player": "zed"},
                    {"type": "mod_mute", "player": "zed", "duration": "1h"}, {"type": "mod_unmute", "player": "zed"},
                    {"type": "mod_rename", "player": "zed"}, {"type": "mod_close_room", "room": room},
                    {"type": "mod_reports"}, {"type": "mod_resolve", "report": "r1"}, {"type": "mod_audit"},
                    {"type": "mod_player", "player": "zed"}, {"type": "mod_links"}):
        await refused(mia, message, "forbidden")
    check((await ask(mia, {"type": "mod_role"}, "mod_role"))["role"] == "player", "mia has no role yet")

    granted = await asyncio.to_thread(admin, binary, data, "grant", "mia", "moderator")
    check(granted.returncode == 0 and "mia is now moderator" in granted.stdout, f"grant: {granted}")
    bad = await asyncio.to_thread(admin, binary, data, "grant", "nobody", "moderator")
    check(bad.returncode == 1 and "USER: no account named nobody" in bad.stderr, f"grant to nobody: {bad}")
    bad = await asyncio.to_thread(admin, binary, data, "grant", "cat", "king")
    check(bad.returncode == 2 and "ROLE" in bad.stderr, f"grant of no role: {bad}")
    listed = await asyncio.to_thread(admin, binary, data, "list")
    check(listed.stdout.strip() == "mia moderator", f"admin list: {listed.stdout!r}")
    check((await ask(mia, {"type": "mod_role"}, "mod_role"))["role"] == "moderator", "mia is a moderator now")

    # A moderator may not sanction a moderator, nor himself; a bad duration names its field.
    await refused(mia, {"type": "mod_ban", "player": "mia", "reason": "x"}, "forbidden")
    m = await refused(mia, {"type": "mod_mute", "player": "zed", "duration": "5 years"}, "bad_message")
    check("duration" in m["message"], f"the field is named: {short(m)}")
    await refused(mia, {"type": "mod_ban", "player": "nobody-at-all"}, "no_player")

    # Mute: zed's chat is refused until unmuted.
    chat_room = (await then(cat, {"type": "create", "game": "tablut", "seat": 0}, "state"))["room"]
    await then(zed, {"type": "sit", "room": chat_room, "seat": 1}, "state")
    await ask(mia, {"type": "mod_mute", "player": "zed", "duration": "1h", "reason": "insults"}, "mod_done")
    m = await refused(zed, {"type": "chat", "room": chat_room, "text": "hello"}, "muted")
    check(m["until_ms"] is not None, f"the mute's end is told: {short(m)}")
    await ask(mia, {"type": "mod_unmute", "player": "zed"}, "mod_done")
    await zed.send({"type": "chat", "room": chat_room, "text": "you are a ..."})
    line = await cat.expect("zed's line", lambda m: m.get("type") == "chat" and m.get("text") == "you are a ...")
    check(line["player"] == zed.player_id, f"a chat line names its writer: {short(line)}")

    # Reports: of a chat line, of a player; never of oneself.
    await refused(cat, {"type": "report", "player": "cat", "reason": "me"}, "bad_message")
    await refused(cat, {"type": "report", "player": "zed"}, "bad_message")
    r1 = await ask(cat, {"type": "report", "player": zed.player_id, "room": chat_room, "line": line["text"],
                         "reason": "insults"}, "reported")
    await ask(cat, {"type": "report", "player": "sock", "reason": "a second account"}, "reported")
    reports = (await ask(mia, {"type": "mod_reports", "status": "open"}, "mod_reports"))["reports"]
    check(len(reports) == 2 and {r["player"]["username"] for r in reports} == {"zed", "sock"},
          f"the open reports: {short(reports)}")
    check(any(r["line"] == "you are a ..." and r["room"] == chat_room for r in reports), "the line is reported")
    await ask(mia, {"type": "mod_resolve", "report": r1["report"], "reason": "muted before"}, "mod_done")
    reports = (await ask(mia, {"type": "mod_reports", "status": "open"}, "mod_reports"))["reports"]
    check(len(reports) == 1, f"one report is left open: {short(reports)}")

    # Rename: an offensive name becomes a neutral one, in the rooms too.
    done = await ask(mia, {"type": "mod_rename", "player": "zed", "reason": "offensive"}, "mod_done")
    check(done["name"].startswith("Player "), f"a neutral name: {short(done)}")
    await cat.expect("renamed", lambda m: m.get("kind") == "renamed" and m.get("name") == done["name"])

    # Close a room: aborted, whatever was played.
    await ask(mia, {"type": "mod_close_room", "room": chat_room, "reason": "abuse"}, "mod_done")
    end = await finished(cat, chat_room)
    check(end["result"]["reason"] == "aborted" and end["result"]["detail"] == "closed by a moderator",
          f"the room is closed: {short(end)}")
    await refused(mia, {"type": "mod_close_room", "room": chat_room}, "game_over")

    # The accounts sharing a browser, with their rated game.
    pairs = (await ask(mia, {"type": "mod_links"}, "mod_links"))["pairs"]
    shared = [p for p in pairs if {p["a"].get("username"), p["b"].get("username")} == {"zed", "sock"}]
    check(shared and shared[0]["device"] and shared[0]["address"] and shared[0]["rated_games"] == 1,
          f"zed and sock share a browser and played a rated game: {short(pairs)}")
    check(not any("ada" in (p["a"].get("username"), p["b"].get("username")) and p["rated_games"] > 0 for p in pairs),
          "the aborted game is no rated game")

    # Ban: logged out everywhere, no login, no hello; the games are kept.
    zed_id, zed_token = zed.player_id, zed.token
    await ask(mia, {"type": "mod_ban", "player": "zed", "duration": "7d", "reason": "cheating"}, "mod_done")
    await zed.expect("logged_out", lambda m: m.get("type") == "logged_out")
    again = await Client("zed again", url).open()
    await refused(again, {"type": "hello", "id": zed_id, "token": zed_token}, "banned")
    await again.hello()
    m = await refused(again, {"type": "login", "username": "zed", "password": PASSWORD}, "banned")
    check("cheating" in m["message"] and m["until_ms"], f"the ban says why and until when: {short(m)}")
    status, _, body = await asyncio.to_thread(http, port, f"/api/games/{room}")
    check(status == 200, f"the banned player's game is kept: {status}")
    info = await ask(mia, {"type": "mod_player", "player": "zed"}, "mod_player")
    check([s["kind"] for s in info["sanctions"]] == ["ban"] and info["player"]["role"] == "player",
          f"the player's page: {short(info)}")
    await ask(mia, {"type": "mod_unban", "player": zed_id}, "mod_done")
    await ask(again, {"type": "login", "username": "zed", "password": PASSWORD}, "welcome")

    # The audit log: every action, newest first.
    entries = (await ask(mia, {"type": "mod_audit"}, "mod_audit"))["entries"]
    actions = [e["action"] for e in entries]
    check(actions == ["unban", "ban", "close_room", "reset_name", "resolve_report", "unmute", "mute", "grant"],
          f"the audit log: {actions}")
    check(entries[1]["detail"] == "7d: cheating" and entries[1]["actor_name"] == "mia", f"{short(entries[1])}")
    check(entries[-1]["actor_name"] == "cinq admin" and entries[-1]["detail"] == "role moderator", f"{entries[-1]}")

    revoked = await asyncio.to_thread(admin, binary, data, "revoke", "mia")
    check(revoked.returncode == 0, f"revoke: {revoked}")
    await refused(mia, {"type": "mod_audit"}, "forbidden")
    for c in (mia, zed, sock, cat, again):
        await c.close()


async def blocks(port, url):
    una = await account(url, "una")
    vic = await account(url, "vic")
    wes = await account(url, "wes")
    b = await ask(una, {"type": "block", "player": "vic"}, "blocks")
    check([p["username"] for p in b["players"]] == ["vic"], f"una blocks vic: {short(b)}")
    await refused(una, {"type": "block", "player": "una"}, "bad_message")
    room = (await then(vic, {"type": "create", "game": "tablut", "seat": 0}, "state"))["room"]
    await then(una, {"type": "join", "room": room}, "state")
    await then(wes, {"type": "join", "room": room}, "state")
    await vic.send({"type": "chat", "room": room, "text": "first"})
    await wes.expect("vic's line", lambda m: m.get("type") == "chat" and m.get("text") == "first")
    await asyncio.sleep(0.5)
    check(not any(m.get("type") == "chat" and m.get("text") == "first" for m in una.received),
          "una does not get the line of vic, whom she blocks")
    # Seeks: blocked either way, never paired.
    seek = {"type": "seek", "game": "kopf-oder-knopf", "clock": {"base_ms": 60000, "increment_ms": 0}}
    await vic.send(seek)
    await una.send(seek)
    await asyncio.sleep(1.0)
    check(not any(m.get("type") == "state" and m.get("paired") for m in una.received + vic.received),
          "una and vic are not paired")
    check(not any(m.get("type") == "paired" for m in una.received + vic.received), "no pairing")
    await una.send({"type": "unseek"})
    await vic.send({"type": "unseek"})
    b = await ask(una, {"type": "unblock", "player": "vic"}, "blocks")
    check(b["players"] == [], f"una unblocked vic: {short(b)}")
    check((await ask(una, {"type": "blocks"}, "blocks"))["players"] == [], "no block left")
    for c in (una, vic, wes):
        await c.close()


def api(port, method, path, body=None, auth=None, raw=None):
    """(status, JSON body or None) of a request to the REST API; `auth` (player, token) as a Bearer header."""
    import urllib.request
    data = raw.encode() if raw is not None else (json.dumps(body).encode() if body is not None else None)
    headers = {"Content-Type": "application/json"}
    if auth:
        headers["Authorization"] = f"Bearer {auth[0]}:{auth[1]}"
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            status, text = r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode()
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, text


async def call(port, method, path, body=None, auth=None, raw=None):
    return await asyncio.to_thread(api, port, method, path, body, auth, raw)


async def rest(port, url, binary, data):
    rex = await account(url, "rex")    # the moderator
    pat = await account(url, "pat")    # a player
    tom = await account(url, "tom")    # the one sanctioned
    m = await ask(rex, {"type": "mod_role"}, "mod_role")
    granted = await asyncio.to_thread(admin, binary, data, "grant", "rex", "moderator")
    check(granted.returncode == 0, f"grant: {granted}")
    mod, player = (rex.player_id, rex.token), (pat.player_id, pat.token)

    # `welcome` says the role: a player's is "player"; a grant reaches it within the poll (2 s).
    fresh = await Client("pat again", url).open()
    check((await fresh.hello(id=pat.player_id, token=pat.token))["role"] == "player", "pat's welcome says player")
    await fresh.close()
    for _ in range(60):
        again = await Client("rex again", url).open()
        role = (await again.hello(id=rex.player_id, token=rex.token)).get("role")
        await again.close()
        if role == "moderator":
            break
        await asyncio.sleep(0.1)
    check(role == "moderator", f"rex's welcome says moderator: {role}")

    room = (await then(pat, {"type": "create", "game": "tablut", "seat": 0}, "state"))["room"]
    await then(tom, {"type": "sit", "room": room, "seat": 1}, "state")
    routes = [("GET", "/api/moderation/reports", None), ("GET", "/api/moderation/audit", None),
              ("GET", "/api/moderation/linked", None), ("GET", "/api/moderation/players/tom", None),
              ("POST", "/api/moderation/ban", {"player": "tom", "reason": "x"}),
              ("POST", "/api/moderation/unban", {"player": "tom"}),
              ("POST", "/api/moderation/mute", {"player": "tom", "duration": "1h"}),
              ("POST", "/api/moderation/unmute", {"player": "tom"}),
              ("POST", "/api/moderation/reset-name", {"player": "tom"}),
              ("POST", "/api/moderation/close-room", {"room": room}),
              ("POST", "/api/moderation/reports/r1/resolve", {})]
    audit_before = len((await call(port, "GET", "/api/moderation/audit", auth=mod))[1]["entries"])
    for method, path, body in routes + [("POST", "/api/reports", {"player": "tom", "reason": "x"}),
                                        ("GET", "/api/blocks", None), ("POST", "/api/blocks/tom", None),
                                        ("DELETE", "/api/blocks/tom", None), ("GET", "/api/moderation/role", None)]:
        status, answer = await call(port, method, path, body)
        check(status == 401 and answer["error"]["code"] == "bad_token", f"{method} {path} without a token: {status}")
        status, answer = await call(port, method, path, body, auth=(pat.player_id, "wrong"))
        check(status == 401, f"{method} {path} with a wrong token: {status} {answer}")
    for method, path, body in routes:
        status, answer = await call(port, method, path, body, auth=player)
        check(status == 403 and answer["error"]["code"] == "forbidden",
              f"{method} {path} for a player: {status} {answer}")
    check(len((await call(port, "GET", "/api/moderation/audit", auth=mod))[1]["entries"]) == audit_before,
          "nothing was done for the player")
    status, answer = await call(port, "GET", "/api/moderation/role", auth=player)
    check(status == 200 and answer["role"] == "player", f"pat's role over HTTP: {answer}")

    # Malformed: a body that is no JSON object, a field of the wrong type or form: 400 naming it, nothing done.
    for raw, field in (("{not json", "JSON"), ('{"player": 7}', "player"),
                       ('{"player": "tom", "duration": "5 years"}', "duration"),
                       ('{"player": "tom", "reason": "a\\u0007b"}', "reason")):
        status, answer = await call(port, "POST", "/api/moderation/ban", auth=mod, raw=raw)
        check(status == 400 and answer["error"]["code"] == "bad_message" and field in answer["error"]["message"],
              f"ban with {raw}: {status} {answer}")
    status, answer = await call(port, "POST", "/api/moderation/mute", {"player": "tom"}, auth=mod)
    check(status == 400 and "duration" in answer["error"]["message"], f"a mute needs a duration: {answer}")
    status, answer = await call(port, "POST", "/api/moderation/ban", {"player": "nobody-here"}, auth=mod)
    check(status == 404 and answer["error"]["code"] == "no_player", f"ban of nobody: {status} {answer}")
    check(len((await call(port, "GET", "/api/moderation/audit", auth=mod))[1]["entries"]) == audit_before,
          "nothing was done for a malformed request")

    # A player reports and blocks over HTTP.
    status, answer = await call(port, "POST", "/api/reports", {"player": "tom", "reason": "spam", "room": room},
                                auth=player)
    check(status == 201 and answer["type"] == "reported", f"a report: {status} {answer}")
    report = answer["report"]
    status, answer = await call(port, "POST", "/api/reports", {"player": "tom"}, auth=player)
    check(status == 400 and "reason" in answer["error"]["message"], f"a report without reason: {answer}")
    status, answer = await call(port, "POST", "/api/blocks/tom", auth=player)
    check(status == 200 and [p["username"] for p in answer["players"]] == ["tom"], f"a block: {answer}")
    status, answer = await call(port, "GET", "/api/blocks", auth=player)
    check([p["username"] for p in answer["players"]] == ["tom"], f"the blocks: {answer}")
    status, answer = await call(port, "DELETE", "/api/blocks/tom", auth=player)
    check(status == 200 and answer["players"] == [], f"an unblock: {answer}")
    status, answer = await call(port, "POST", "/api/blocks/pat", auth=player)
    check(status == 400, f"blocking oneself: {status} {answer}")

    # The moderator's reads.
    status, answer = await call(port, "GET", "/api/moderation/reports?status=open", auth=mod)
    check(status == 200 and any(r["id"] == report for r in answer["reports"]), f"the open reports: {answer}")
    status, answer = await call(port, "GET", "/api/moderation/reports?status=maybe", auth=mod)
    check(status == 400 and "status" in answer["error"]["message"], f"a bad status: {status} {answer}")
    status, answer = await call(port, "GET", "/api/moderation/linked", auth=mod)
    check(status == 200 and isinstance(answer["pairs"], list), f"the linked accounts: {answer}")
    status, answer = await call(port, "GET", "/api/moderation/players/tom", auth=mod)
    check(status == 200 and answer["player"]["username"] == "tom", f"a player: {answer}")

    # Mute and unmute: tom's chat refused, then let through.
    status, answer = await call(port, "POST", "/api/moderation/mute",
                                {"player": "tom", "duration": "30m", "reason": "spam"}, auth=mod)
    check(status == 200 and answer["action"] == "mute", f"a mute: {status} {answer}")
    await refused(tom, {"type": "chat", "room": room, "text": "hello"}, "muted")
    status, answer = await call(port, "POST", "/api/moderation/unmute", {"player": tom.player_id}, auth=mod)
    check(status == 200 and answer["action"] == "unmute", f"an unmute: {answer}")

    # Reset a name; close the room; resolve the report.
    status, answer = await call(port, "POST", "/api/moderation/reset-name", {"player": "tom", "reason": "rude"},
                                auth=mod)
    check(status == 200 and answer["name"].startswith("Player "), f"a name reset: {answer}")
    status, answer = await call(port, "POST", "/api/moderation/close-room", {"room": room, "reason": "abuse"}, auth=mod)
    check(status == 200 and answer["action"] == "close_room", f"a room closed: {status} {answer}")
    end = await finished(pat, room)
    check(end["result"]["detail"] == "closed by a moderator", f"closed: {short(end)}")
    status, answer = await call(port, "POST", "/api/moderation/close-room", {"room": room}, auth=mod)
    check(status == 409 and answer["error"]["code"] == "game_over", f"closed twice: {status} {answer}")
    status, answer = await call(port, "POST", "/api/moderation/close-room", {"room": "NoSuchRoom1"}, auth=mod)
    check(status == 404, f"no room: {status} {answer}")
    status, answer = await call(port, "POST", f"/api/moderation/reports/{report}/resolve", {"reason": "done"},
                                auth=mod)
    check(status == 200 and answer["action"] == "resolve_report", f"resolved: {status} {answer}")

    # Ban: the hello refused; unban: let in.
    status, answer = await call(port, "POST", "/api/moderation/ban", {"player": "tom", "duration": "1d",
                                                                     "reason": "cheating"}, auth=mod)
    check(status == 200 and answer["action"] == "ban", f"a ban: {status} {answer}")
    again = await Client("tom again", url).open()
    await refused(again, {"type": "hello", "id": tom.player_id, "token": tom.token}, "banned")
    # A banned account's token is refused by the routes too (a banned moderator could otherwise go on).
    for method, path, body in (("GET", "/api/blocks", None), ("POST", "/api/reports", {"player": "pat"}),
                               ("GET", "/api/moderation/role", None)):
        status, answer = await call(port, method, path, body, auth=(tom.player_id, tom.token))
        check(status == 403 and answer["error"]["code"] == "banned", f"banned tom's {method} {path}: {status} {answer}")
    status, answer = await call(port, "POST", "/api/moderation/unban", {"user": "tom"}, auth=mod)
    check(status == 200 and answer["action"] == "unban", f"an unban: {answer}")
    await again.hello(id=tom.player_id, token=tom.token)
    status, answer = await call(port, "GET", "/api/moderation/audit?player=tom", auth=mod)
    actions = [e["action"] for e in answer["entries"]]
    check(actions == ["unban", "ban", "reset_name", "unmute", "mute"], f"tom's audit entries: {actions}")
    status, answer = await call(port, "GET", "/api/moderation/role", auth=mod)
    check(answer["role"] == "moderator", f"rex's role: {answer}")
    await asyncio.to_thread(admin, binary, data, "revoke", "rex")
    for c in (rex, pat, tom, again):
        await c.close()


async def main(port, binary, data):
    url = f"ws://127.0.0.1:{port}/ws"
    await farming(port, url)
    await moderation(port, url, binary, data)
    await blocks(port, url)
    await rest(port, url, binary, data)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    server = Server(sys.argv[1], sys.argv[2], "--per-address-rate", "0", "--http-rate", "0")
    failure = checked_run(server, server.wait_ready, lambda: main(server.port, sys.argv[1], server.data), 240)
    server.cleanup()
    sys.exit(1 if failure else 0)
