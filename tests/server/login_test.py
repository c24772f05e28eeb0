"""Logins that strangers cannot block (docs/operations.md, "Limits"; docs/protocol.md, "Accounts"), on a real
server over real sockets from several loopback addresses (127.0.0.2 and the like are all loopback on Linux:
each client binds its socket to one).

1. The browser's `cinq_device` cookie: set by the upgrade's answer when the browser has none (HttpOnly,
   SameSite=Lax, Secure behind a trusted balancer's `X-Forwarded-Proto: https`), kept when it has a well-formed one, replaced when not.
2. The reported lock-out: 100 wrong passwords for annie from 127.0.0.1 within seconds, then the right one from
   127.0.0.2: it logs in; the guesser is refused (`rate_limited`, for that account from that address).
3. Guessing from many addresses: past the account's limit a new address with a new browser waits, but the
   owner's browser (its cookie) from a new address, the owner's known address, and a connection holding the
   account's token all get in.

Usage: login_test.py CINQ_BINARY WEB_DIR
"""

import asyncio
import json
import sys
import time

import websockets

from cinq_support import Client, check, get, run_main, short

PASSWORD = "correct horse battery"


class Browser(Client):
    """A client from `address`, with a cookie jar of one: the `cinq_device` its upgrades were given."""

    def __init__(self, name, url, address, device=None, headers=None):
        super().__init__(name, url)
        self.address, self.device, self.headers = address, device, dict(headers or {})
        self.set_cookie = None

    async def open(self):
        headers = dict(self.headers)
        if self.device is not None:
            headers["Cookie"] = f"theme=dark; cinq_device={self.device}; lang=fr"
        self.ws = await websockets.connect(self.url, max_size=1 << 24, open_timeout=5, compression=None,
                                           extra_headers=headers, local_addr=(self.address, 0))
        self.set_cookie = self.ws.response_headers.get("Set-Cookie")
        if self.set_cookie:
            self.device = self.set_cookie.split(";")[0].split("=", 1)[1]
        self.reader = asyncio.create_task(self._read())
        return self

    async def login(self, password, username="annie"):
        await self.send({"type": "login", "username": username, "password": password})
        return await self.expect("login's answer", lambda m: m["type"] in ("welcome", "error"), timeout=10)


async def in_one_window(needed_s):
    """The limits count in fixed windows of 5 minutes (from the Unix epoch): a test of a limit starts where its
    window has `needed_s` left, so that its counts do not start again half-way."""
    left = 300 - time.time() % 300
    if left < needed_s:
        await asyncio.sleep(left + 0.5)


def refused(m):
    return m["type"] == "error" and m["code"] == "rate_limited"


async def run(port):
    url = f"ws://127.0.0.1:{port}/ws"
    opened = []

    async def browser(name, address, **kw):
        b = await Browser(name, url, address, **kw).open()
        opened.append(b)
        return b

    # 1. The cookie.
    first = await browser("first", "127.0.0.1")
    check(first.set_cookie is not None, "a browser without a cookie is given one")
    attributes = [a.strip() for a in first.set_cookie.split(";")]
    check(attributes[0].startswith("cinq_device=") and 1 <= len(first.device) <= 64, f"cookie: {first.set_cookie}")
    check(all(c.isalnum() or c in "_-" for c in first.device), f"the id is [A-Za-z0-9_-]: {first.device}")
    for wanted in ("HttpOnly", "SameSite=Lax", "Path=/"):
        check(wanted in attributes, f"the cookie is {wanted}: {first.set_cookie}")
    check(any(a.startswith("Max-Age=") and int(a[8:]) >= 30 * 86400 for a in attributes),
          f"the cookie lives long: {first.set_cookie}")
    check("Secure" not in attributes, f"over plain HTTP the cookie is not Secure: {first.set_cookie}")
    # Secure behind a balancer that ends TLS (127.0.0.50, trusted with --trusted-proxy); the same header from
    # anyone else is not believed.
    secure = await browser("secure", "127.0.0.50", headers={"X-Forwarded-Proto": "https"})
    check("Secure" in [a.strip() for a in secure.set_cookie.split(";")], f"behind TLS: {secure.set_cookie}")
    forged = await browser("forged", "127.0.0.1", headers={"X-Forwarded-Proto": "https"})
    check("Secure" not in [a.strip() for a in forged.set_cookie.split(";")], f"a forged header: {forged.set_cookie}")
    again = await browser("again", "127.0.0.1", device=first.device)
    check(again.set_cookie is None and again.device == first.device, "a browser's own cookie is kept")
    for bad in ("", "x" * 65, "a.b", "a%3Bb", "a b"):
        b = await browser("bad", "127.0.0.1", device=bad)
        check(b.set_cookie is not None and b.device != bad, f"a malformed cookie {bad!r} is replaced")

    # annie registers from 127.0.0.9, in a browser of her own.
    home = await browser("home", "127.0.0.9")
    await home.hello(name="annie")
    await home.send({"type": "register", "username": "annie", "password": PASSWORD})
    m = await home.expect("registered", lambda m: m["type"] in ("registered", "error"), timeout=10)
    check(m["type"] == "registered", f"register: {short(m)}")

    # 2. The reported lock-out: 100 wrong passwords from 127.0.0.1 in a few seconds.
    await in_one_window(60)
    guesser = await browser("guesser", "127.0.0.1")
    start = time.monotonic()
    answers = [await guesser.login(f"wrong password {i}") for i in range(100)]
    took = time.monotonic() - start
    codes = [a.get("code") for a in answers]
    check(codes[:5] == ["bad_login"] * 5, f"the first five guesses are tried: {codes[:8]}")
    check(all(c == "rate_limited" for c in codes[5:]), f"the other 95 are refused: {sorted(set(codes[5:]))}")
    check("too many login attempts: try again in" in answers[-1]["message"], short(answers[-1]))
    print(f"100 guesses from 127.0.0.1 in {took:.1f} s: 5 tried, 95 refused")
    owner = await browser("owner", "127.0.0.2")
    m = await owner.login(PASSWORD)
    check(m["type"] == "welcome" and m.get("username") == "annie",
          f"the owner from 127.0.0.2, after the guesses from 127.0.0.1: {short(m)}")
    owner_device = owner.device

    # 3. Guessing from many addresses: five each from 127.0.0.10-14 (25 more: over the account's 20).
    for i in range(10, 15):
        g = await browser(f"guesser{i}", f"127.0.0.{i}")
        codes = [(await g.login(f"guess {i} {k}")).get("code") for k in range(6)]
        check(codes[5] == "rate_limited", f"127.0.0.{i}: its sixth guess is refused: {codes}")
    stranger = await browser("stranger", "127.0.0.20")
    m = await stranger.login(PASSWORD)
    check(refused(m), f"past the account's limit, a new address and browser wait, even with the password: {short(m)}")
    # The owner's browser, from an address never seen: let in.
    travelling = await browser("travelling", "127.0.0.21", device=owner_device)
    m = await travelling.login(PASSWORD)
    check(m["type"] == "welcome", f"the owner's browser from a new address: {short(m)}")
    # The owner's known address, in a new browser.
    new_browser = await browser("new browser", "127.0.0.2")
    m = await new_browser.login(PASSWORD)
    check(m["type"] == "welcome", f"the owner's known address with a new browser: {short(m)}")
    # The first browser (it registered): it holds the account's token, and changes the password from anywhere.
    await home.send({"type": "change_password", "old": PASSWORD, "new": PASSWORD + "!"})
    m = await home.expect("password_changed", lambda m: m["type"] in ("password_changed", "error"), timeout=10)
    check(m["type"] == "password_changed", f"the connection holding the token changes the password: {short(m)}")
    # The guesser's own browser and address stay refused.
    m = await guesser.login(PASSWORD + "!")
    check(refused(m), f"the guesser stays refused: {short(m)}")

    status, _, metrics = await get(port, "/metrics")
    line = next((l for l in metrics.splitlines() if l.startswith("cinq_login_throttled_total ")), "")
    check(line and float(line.split()[1]) >= 100, f"/metrics counts the refusals: {line!r}")
    for b in opened:
        await b.close()


def main():
    code = run_main("usage: login_test.py CINQ_BINARY WEB_DIR", 3, run, 120, ("--trusted-proxy", "127.0.0.50"))
    if code == 0:
        print("login_test.py: all checks passed")
    return code


if __name__ == "__main__":
    sys.exit(main())
