#!/usr/bin/env python3
"""A client that keeps positions only by applying patches (docs/protocol.md, protocol version 2, "Positions,
patches and legal actions"), checked against fresh states after every event, in every game of the server's table.

Usage: patch_client_test.py CINQ_BINARY WEB_DIR

For each game two players and a spectator play a whole game (no clock) by random choices from the mover's
own `legal` (Batik's folded ranges expanded; Baltek and Bi-litaire end their turns with `end_turn` when
`can_end_turn` allows and the dice say so). Each of the three holds the position it built from its `state` at
`join` and the patches since. After every event a fresh state is fetched twice: a `join` by a second
connection of the seat to move (which gets that seat's `legal`) and `GET /api/games/{id}`; every client's
position must equal it (null members dropped, clocks.ms ignored), the mover's `legal`/`can_end_turn` must
equal the fresh ones, and nobody else may have any. Every game also has a draw offer and its refusal (two
more patches). A game still going after MAX_STEPS actions is resigned, so the run stays short.
"""

import asyncio
import importlib.util
import json
import os
import pathlib
import random
import sys
import time

from cinq_support import (Client, check, short, is_type, is_event, get, get_json, comparable, first_difference,
                          expand_legal, ungrouped, stripped, no_problems, run_main, set_address_rate)


def game_module(name):
    """A game's own part of this test, tests/server/games/NAME.py: RUNS, its (options, actions before
    resigning) to play, and optionally choose(rng, seat, choices, position, end), a player's choice (None: a
    random one)."""
    path = pathlib.Path(__file__).parent / "games" / f"{name}.py"
    check(path.exists(), f"tests/server/games/{name}.py is missing (the {name} part of this test)")
    spec = importlib.util.spec_from_file_location(f"patch_client_{name.replace('-', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

DRAW_OFFER_AT = 5  # the step at which the waiting seat offers a draw and the mover declines it
END = object()  # "end the turn", among the mover's choices when can_end_turn


class Match:
    def __init__(self, port, url, game, options, max_steps, rng, module):
        self.port, self.url, self.game, self.options, self.max_steps = port, url, game, options, max_steps
        self.module = module
        self.rng = rng
        self.players = []  # by seat
        self.checkers = []  # by seat: a second connection of the same player, for fresh `join`s
        self.spectator = None
        self.room = None
        self.steps = self.events_checked = 0
        self.legal_sizes = []

    @property
    def clients(self):
        return [*self.players, self.spectator]

    def position(self):
        return self.spectator.view(self.room).position

    async def setup(self):
        a = await Client(f"{self.game}/A", self.url).open()
        b = await Client(f"{self.game}/B", self.url).open()
        s = await Client(f"{self.game}/S", self.url).open()
        await a.hello(name="PatchA")
        await b.hello(name="PatchB")
        await s.hello(name="Watcher")
        await a.send({"type": "create", "game": self.game, "options": self.options, "clock": None,
                      "private": True, "seat": 0})
        state = await a.expect("the new room's state", lambda m: m["type"] in ("state", "error"))
        check(state["type"] == "state", f"create {self.game} '{self.options}': {short(state)}")
        self.room = room = state["room"]
        await s.send({"type": "join", "room": room})
        await s.expect("the spectator's state", is_type("state", room=room))
        await b.send({"type": "sit", "room": room, "seat": 1})
        await b.expect("the state after sitting", is_type("state", room=room))
        for c in (a, s):
            await c.expect("the start", is_event("started", room))
        self.players, self.spectator = [a, b], s
        deadline = time.monotonic() + 5
        while any(c.view(room).position["status"] != "live" for c in self.clients):
            check(time.monotonic() < deadline, f"{self.game}: the game does not start for everyone: "
                  f"{[(c.name, c.view(room).position['status']) for c in self.clients]}")
            await asyncio.sleep(0.01)
        for seat, p in enumerate(self.players):
            c = await Client(f"{self.game}/{'AB'[seat]}-check", self.url).open()
            await c.hello(id=p.player_id, token=p.token)
            self.checkers.append(c)
        await self.check_all("started")

    async def fresh(self):
        """The room's state as a `join` by the seat to move's second connection gets it, and as REST gives it."""
        position = self.position()
        seat = position.get("to_move") if position["status"] == "live" and position.get("to_move") is not None else 0
        checker = self.checkers[seat]
        checker.skip()
        await checker.send({"type": "join", "room": self.room})
        state = await checker.expect("the fresh state", lambda m: m["type"] in ("state", "events", "error")
                                     and m.get("room") == self.room)
        check(state["type"] == "state", f"{checker.name}: join answered {short(state)}")
        status, _, body = await get(self.port, f"/api/games/{self.room}")
        check(status == 200, f"GET /api/games/{self.room}: HTTP {status} {body[:200]}")
        rest = json.loads(body)
        check("type" not in rest, f"GET /api/games/{{id}} is the state without `type`: {short(rest)}")
        check("legal" not in rest and "can_end_turn" not in rest,
              f"GET /api/games/{{id}} goes to no seat: no legal: {short(rest)}")
        return seat, state, rest

    async def check_all(self, what):
        """After an event: every client's patched position is the fresh one; the mover's legal is fresh."""
        seat, state, rest = await self.fresh()
        version = max(state["version"], rest["version"])
        deadline = time.monotonic() + 3
        while any(c.view(self.room).version < version for c in self.clients):
            check(time.monotonic() < deadline,
                  f"after {what}: the clients stay at versions {[c.view(self.room).version for c in self.clients]}"
                  f", the fresh state is at {version}")
            await asyncio.sleep(0.01)
        fresh = comparable(state["position"])
        d = first_difference(comparable(rest["position"]), fresh)
        check(d is None, f"after {what} (v{state['version']}): GET /api/games/{{id}} and join differ: {d}")
        for c in self.clients:
            d = first_difference(comparable(c.view(self.room).position), fresh)
            check(d is None, f"{self.game}, after {what} (v{c.view(self.room).version}): {c.name}'s patched "
                  f"position differs from the fresh state: {d}")
        live = state["position"]["status"] == "live" and state["position"]["to_move"] is not None
        if live:
            mover = self.players[seat].view(self.room)
            check(mover.legal == ungrouped(state.get("legal")) and mover.can_end_turn == state.get("can_end_turn", False),
                  f"{self.game}, after {what}: the mover's legal ({short(mover.legal, 150)}, can_end_turn "
                  f"{mover.can_end_turn}) is not the fresh state's ({short(state.get('legal'), 150)}, "
                  f"{state.get('can_end_turn')})")
            check(state.get("legal") or state.get("can_end_turn"),
                  f"{self.game}, after {what}: the seat to move has something to play: {short(state)}")
        else:
            check("legal" not in state, f"after {what}: nobody is to move, yet join gave legal: {short(state)}")
        for c in self.clients:
            if c is not (self.players[seat] if live else None):
                check(c.view(self.room).legal == [] and not c.view(self.room).can_end_turn,
                      f"after {what}: {c.name} is not to move but holds legal {short(c.view(self.room).legal)}")
        self.events_checked += 1

    async def next_event(self, kind, what):
        """Waits for the next event of `kind` at the three clients (an error answering the act fails)."""
        seen = None
        for c in self.clients:
            m = await c.expect(f"the {kind} event after {what}", lambda m: m.get("room") == self.room and (
                m["type"] == "error" or (m["type"] == "event" and m["kind"] == kind)))
            check(m["type"] == "event", f"{self.game}: {what} was refused: {short(m)}")
            check("patch" in m and "position" not in m, f"{c.name}: a {kind} event has a patch: {short(m)}")
            if seen is None:
                seen = m
            check(stripped(m) == stripped(seen), f"{c.name} and {self.clients[0].name} got different "
                  f"{kind} events: {short(stripped(m))} vs {short(stripped(seen))}")
        return seen

    async def act(self, seat, message, what):
        await self.players[seat].send({"type": "act", "room": self.room, **message})
        event = await self.next_event("play", what)
        await self.check_all(what)
        if self.position().get("result") is not None:  # the game ended on the board: `finished` follows
            await self.next_event("finished", f"the end after {what}")
            await self.check_all(f"the end after {what}")

    async def draw_offer_and_decline(self):
        position = self.position()
        mover, waiting = position.get("to_move"), 1 - position.get("to_move")
        await self.players[waiting].send({"type": "draw", "room": self.room})
        e = await self.next_event("draw_offer", "a draw offer")
        check(e["seat"] == waiting and self.position().get("draw_offer") == waiting,
              f"the draw offer patch sets draw_offer to {waiting}: {short(e)}")
        await self.check_all("a draw offer")
        await self.players[mover].send({"type": "decline_draw", "room": self.room})
        e = await self.next_event("draw_declined", "declining the draw")
        check(self.position().get("draw_offer") is None, f"declining removes draw_offer: {short(e)}")
        await self.check_all("declining the draw")

    def choose(self, seat, choices):
        """The game's own choice where its module has one (Baltek's, so that goals happen), else a random one."""
        own = getattr(self.module, "choose", None)
        chosen = own(self.rng, seat, choices, self.position(), END) if own else None
        return self.rng.choice(choices) if chosen is None else chosen

    async def play(self):
        while self.position()["status"] == "live":
            position = self.position()
            seat = position.get("to_move")
            if self.steps == self.max_steps:
                await self.players[seat].send({"type": "resign", "room": self.room})
                await self.next_event("finished", "resigning")
                await self.check_all("a resignation")
                break
            if self.steps == DRAW_OFFER_AT and not position["mid_turn"]:
                await self.draw_offer_and_decline()
            view = self.players[seat].view(self.room)
            choices = expand_legal(view.legal)
            self.legal_sizes.append(len(choices))
            if view.can_end_turn:
                choices.append(END)
            check(choices, f"{self.game}: seat {seat} is to move with nothing to play: {short(position)}")
            choice = self.choose(seat, choices)
            self.steps += 1
            if choice is END:
                await self.act(seat, {"end_turn": True}, f"step {self.steps}: seat {seat} ends its turn")
            else:
                await self.act(seat, {"actions": [choice]}, f"step {self.steps}: seat {seat} plays '{choice}'")
        position = self.position()
        check(position["status"] == "finished" and position.get("result"),
              f"{self.game}: the game is finished with a result: {short(position)}")
        no_problems([*self.clients, *self.checkers])
        for c in [*self.clients, *self.checkers]:
            await c.close()
        return position.get("result"), position.get("round")


async def run(port):
    url = f"ws://127.0.0.1:{port}/ws"
    set_address_rate(400.0, 400.0)  # the server runs with --per-address-rate 0
    seed = int(os.environ.get("CINQ_TEST_SEED", "1"))
    print(f"seed {seed} (CINQ_TEST_SEED)")
    rng = random.Random(seed)
    table = await get_json(port, "/api/games/table")
    runs = [(g["name"], options, max_steps, module) for g in table["games"]
            for module in [game_module(g["name"])] for options, max_steps in module.RUNS]
    for game, options, max_steps, module in runs:
        started = time.monotonic()
        match = Match(port, url, game, options, max_steps, rng, module)
        await match.setup()
        result, last_round = await match.play()
        sizes = match.legal_sizes
        print(f"ok: {game} '{options}': {match.steps} actions, {match.events_checked} events checked, "
              f"'{result['text']}' in round {last_round}, legal {min(sizes)}..{max(sizes)} actions, "
              f"{time.monotonic() - started:.1f} s")


def main():
    code = run_main("usage: patch_client_test.py CINQ_BINARY WEB_DIR", 3, run, 150,
                    ("--per-address-rate", "0", "--http-rate", "0"))
    if code == 0:
        print("patch_client_test.py: all checks passed")
    return code


if __name__ == "__main__":
    sys.exit(main())
