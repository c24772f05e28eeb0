// Protocol v2 in the browser: a page builds its position from one `state` and the merge patches of the
// events after it (web-client/patch.js). After several turns on a clock, a draw offered and declined, a
// spectator's reconnection (its catch-up is an `events` answer) and a resignation, the position each page
// holds must equal a fresh state from GET /api/games/{id} (null members dropped, clocks.ms ignored), and
// only the seat to move may hold legal actions.
import {deepStrictEqual} from 'node:assert';

import {assert, assertEqual, clickMove, createRoom, kWait, mySeat, openRoom, readRecord, recordMoves, sitFromLobby, version, waitStatus, waitVersion,} from './harness.mjs';

// A position as positions compare: without its null members (null and absent mean the same once patched)
// nor clocks.ms (the time left when each message was built).
function comparable(position) {
  const copy = JSON.parse(JSON.stringify(
      position, function(key, value) { return value === null && !Array.isArray(this) ? undefined : value; }));
  if (copy && copy.clocks) delete copy.clocks.ms;
  return copy;
}

// The room as the page holds it (window.cinqApp.room, set by room.js).
function held(page) {
  return page.evaluate(() => {
    const state = window.cinqApp.room && window.cinqApp.room.state;
    return state && {version: state.version, position: state.position, legal: state.legal};
  });
}

// Compares each page's position with the server's, at the same version (presence and spectators events
// may still come: they change no position, but the versions are matched all the same).
async function comparePositions(h, room, pages, when) {
  for (const [name, page] of Object.entries(pages)) {
    let fresh = null;
    let mine = null;
    for (let attempt = 1; attempt <= 5; ++attempt) {
      const {status, body} = await h.fetchJson(`/api/games/${room}`);
      assertEqual(status, 200, `GET /api/games/${room}`);
      fresh = body;
      await waitVersion(page, fresh.version);
      mine = await held(page);
      if (mine && mine.version === fresh.version) break;
    }
    assert(mine, `${name}'s page holds no room`);
    assertEqual(mine.version, fresh.version, `${when}: ${name}'s version and the server's`);
    assert(!('legal' in mine.position), `${when}: ${name}'s position holds no legal member`);
    deepStrictEqual(
        comparable(mine.position), comparable(fresh.position),
        `${when}: the position ${name}'s page built from patches differs from GET /api/games/${room}`);
  }
}

export const tests = {
  'the position a page builds from state, patches and a catch-up equals a fresh state of the room': async (
      h) => {
    const relay = await h.newRelay();
    const alice = await h.newPlayer('Alice');
    const bob = await h.newPlayer('Bob');
    const carol = await h.newPlayer('Carol', {base: relay.url});
    const room = await createRoom(alice.page, {game: 'tablut', clock: '5+3'});
    await sitFromLobby(bob.page, room);
    for (const page of [alice.page, bob.page]) await waitStatus(page, 'live');
    const bySeat = [];
    bySeat[await mySeat(alice.page)] = alice.page;
    bySeat[await mySeat(bob.page)] = bob.page;
    assert(bySeat[0] && bySeat[1], 'Alice and Bob hold the two seats');
    const pages = {'seat 0': bySeat[0], 'seat 1': bySeat[1], 'the spectator': carol.page};
    const everyone = Object.values(pages);

    const moves = recordMoves(readRecord('tablut/sample-escape.txt'));
    // Tablut's seat 0 plays A, seat 1 plays D.
    const play = async (move, watchers) => {
      const reached = await clickMove(bySeat[move.side === 'A' ? 0 : 1], move.from, move.to);
      for (const page of watchers) await waitVersion(page, reached);
      return reached;
    };
    for (const move of moves.slice(0, 2)) await play(move, bySeat);

    // Carol opens the room mid-game: her position starts from a state.
    await openRoom(carol.page, room);
    await waitVersion(carol.page, await version(bySeat[0]));
    await play(moves[2], everyone);

    // A draw offered and declined: two patches of draw_offer, the second one to null.
    const offered = await version(bySeat[0]);
    await bySeat[0].locator('#draw').click();
    for (const page of everyone) await waitVersion(page, offered + 1);
    await bySeat[1].locator('#decline-draw').waitFor({state: 'visible'});
    await bySeat[1].locator('#decline-draw').click();
    for (const page of everyone) await waitVersion(page, offered + 2);
    await bySeat[1].locator('#decline-draw').waitFor({state: 'hidden'});

    // Carol's connection drops for two turns: she catches up through `events` when it is back.
    relay.cut();
    await carol.page.locator('#banner').waitFor({state: 'visible', timeout: kWait});
    await play(moves[3], bySeat);
    const missed = await play(moves[4], bySeat);
    relay.restore();
    await carol.page.locator('#banner').waitFor({state: 'hidden', timeout: 2 * kWait});
    await waitVersion(carol.page, missed);

    await play(moves[5], everyone);
    await comparePositions(h, room, pages, 'after 6 turns');

    // Only the seat to move holds legal actions: the sample game's next move among them.
    const next = moves[6];
    const toMove = next.side === 'A' ? 0 : 1;
    assertEqual(
        await bySeat[toMove].locator('#room').getAttribute('data-to-move'), String(toMove), 'to move');
    // Groups ["i4","g4 h4"] stand for "i4 g4", "i4 h4" (docs/protocol.md).
    const legal = ((await held(bySeat[toMove])).legal || [])
                      .flatMap((e) => Array.isArray(e) ? e[1].split(' ').map((w) => `${e[0]} ${w}`) : [e]);
    // (The legal text may add an annotation: "i4 g4 x g5" for the record's "i4 g4".)
    assert(
        Array.isArray(legal) && legal.some((text) => text === next.text || text.startsWith(`${next.text} `)),
        `the seat to move holds the legal actions, ${next.text} among them: ${JSON.stringify(legal)}`);
    assertEqual(
        JSON.stringify((await held(bySeat[1 - toMove])).legal), '[]', 'the waiting seat holds no legal');
    assertEqual(JSON.stringify((await held(carol.page)).legal), '[]', 'the spectator holds no legal');

    // The end: a resignation's patch empties to_move and stops the clock.
    const before = await version(bySeat[toMove]);
    // Resign asks for a second click ("Confirm resign") before it is sent.
    await bySeat[toMove].locator('#resign').click();
    await bySeat[toMove].locator('#resign', {hasText: 'Confirm resign'}).click();
    for (const page of everyone) {
      await waitVersion(page, before + 1);
      await waitStatus(page, 'finished');
    }
    await comparePositions(h, room, pages, 'after the resignation');
    for (const [name, page] of Object.entries(pages)) {
      assertEqual(JSON.stringify((await held(page)).legal), '[]', `${name} holds no legal after the end`);
    }
  },
};
