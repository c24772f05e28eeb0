// Whole Tablut games through the browser: the lobby, the invitation link, the board's clicks, a spectator,
// the end of the game, and a page reloaded in the middle of a game.
import {assert, assertEqual, clickMove, createRoom, kWait, mySeat, openRoom, readRecord, recordMoves, sitFromLobby, twoPlayers, version, waitSeated, waitStatus, waitVersion} from './harness.mjs';

// The room's link as the room page shows it in #invite (a link, a field or plain text).
async function invitation(page) {
  const text = await page.locator('#invite').evaluate((element) => {
    const inner = element.querySelector('a, input');
    return [element.href, element.value, inner && (inner.href || inner.value), element.textContent]
        .filter(Boolean)
        .join(' ');
  });
  const match = /https?:\/\/\S+#\/room\/[A-Za-z0-9_-]+/.exec(text);
  assert(match, `#invite shows no link to the room: ${JSON.stringify(text)}`);
  return match[0];
}

// The board's pieces, as "square:side.king" sorted: what the position looks like.
async function pieces(page) {
  await page.locator('#board [data-piece]').first().waitFor();
  return page.locator('#board [data-piece]')
      .evaluateAll(
          (nodes) => nodes.filter((node) => !/\b(fallen|captured)\b/.test(node.getAttribute('class') || ''))
                         .map((node) => {
                           const kind = (node.getAttribute('class') || '')
                                            .split(/\s+/)
                                            .filter((c) => /^(side-.*|king)$/.test(c));
                           return `${node.getAttribute('data-piece')}:${kind.join('.')}`;
                         })
                         .sort()
                         .join(' '),
      );
}

async function movesText(page) { return page.locator('#moves').innerText(); }

// Alice creates a Tablut room, Bob sits from the lobby: resolves with the pages by seat.
async function startTablut(h, options = {}) {
  return twoPlayers(h, 'tablut', options);
}

// Tablut's seat 0 plays A (the attackers), seat 1 plays D.
function moverPage(bySeat, move) { return bySeat[move.side === 'A' ? 0 : 1]; }

export const tests = {
  'two players create and join a Tablut room, play it to the end through the board, and a spectator sees every move':
      async (h) => {
        const {room, bySeat} = await startTablut(h);
        const carol = await h.newPlayer('Carol');
        await carol.page.goto(await invitation(bySeat[0]));
        await carol.page.waitForSelector(`#room[data-room="${room}"][data-status="live"]`);
        assertEqual(await mySeat(carol.page), null, 'Carol, who opened the invitation, holds no seat');

        const moves = recordMoves(readRecord('tablut/sample-escape.txt'));
        assertEqual(moves.length, 42, 'the sample game has 42 turns');
        for (const [index, move] of moves.entries()) {
          const mover = moverPage(bySeat, move);
          const reached = await clickMove(mover, move.from, move.to);
          for (const page of [...bySeat, carol.page]) await waitVersion(page, reached);
          // Carol's record shows the turn just played (the last turn's text ends the list).
          await carol.page
              .waitForFunction(
                  (text) => {
                    const turns = (document.querySelector('#moves')?.innerText || '')
                                      .split('\n')
                                      .filter((line) => /^\s*\d+\s/.test(line));
                    const items = turns.length ? turns[turns.length - 1].trim().split(/\s{2,}/) : [];
                    return items.length > 0 && items[items.length - 1].includes(`/${text}`);
                  },
                  move.text, {timeout: kWait})
              .catch(async () => {
                throw new Error(`Carol's #moves does not end with turn ${index + 1} (${move.text}): ${
                    JSON.stringify(await movesText(carol.page))}`);
              });
          if (index === 0) {
            const moves = await movesText(carol.page);
            assert(
                /^\s*1\s+A\/e8 i8\//m.test(moves), `Carol's #moves shows turn 1: ${JSON.stringify(moves)}`);
          }
        }

        for (const page of [...bySeat, carol.page]) {
          await waitStatus(page, 'finished');
          const result = page.locator('#result');
          await result.waitFor({state: 'visible'});
          await page.waitForFunction(
              // The result written out (room-view.js): Bob (Defenders) wins — the king escaped to a corner.
              () => /\(Defenders\) wins — the king escaped/.test(document.querySelector('#result')?.innerText || ''),
              null, {
                timeout: kWait,
              });
        }
        // The replay offered after the end covers the whole game, the escape included.
        for (const [index, page] of [...bySeat, carol.page].entries()) {
          const step = page.locator('#replay-step');
          await step.waitFor({state: 'visible'});
          await page
              .waitForFunction(
                  () => /^\s*42\s*\/\s*42\s*$/.test(document.querySelector('#replay-step')?.innerText || ''),
                  null, {
                    timeout: kWait,
                  })
              .catch(async () => {
                throw new Error(
                    `page ${index} (${['seat 0', 'seat 1', 'spectator'][index]}): #replay-step shows ${
                        JSON.stringify(await step.innerText())}, not "42 / 42"`);
              });
        }
        const last = await movesText(carol.page);
        assert(last.includes('g1 i1'), `Carol's #moves ends with the escape: ${JSON.stringify(last)}`);
        await h.screenshot(carol.page, 'tablut-finished-spectator');
      },

  'a player whose page is reloaded mid-game gets the same seat and position back and plays on': async (h) => {
    const {room, bySeat} = await startTablut(h);
    const moves = recordMoves(readRecord('tablut/sample-escape.txt'));
    for (const move of moves.slice(0, 3)) {
      const reached = await clickMove(moverPage(bySeat, move), move.from, move.to);
      for (const page of bySeat) await waitVersion(page, reached);
    }
    // Turn 4 is D's: reload D's page, whose turn it is.
    const next = moves[3];
    const page = moverPage(bySeat, next);
    const seat = await mySeat(page);
    const before = {version: await version(page), moves: await movesText(page), pieces: await pieces(page)};
    await page.reload();
    await waitSeated(page, room);
    // Only presence events (this page going and coming back) may have come since.
    await waitVersion(page, before.version);
    assertEqual(await mySeat(page), seat, 'the reloaded page holds the same seat');
    await page.waitForFunction((text) => document.querySelector('#moves')?.innerText === text, before.moves, {
      timeout: kWait,
    });
    assertEqual(
        await pieces(page), before.pieces, 'the reloaded page shows the same pieces on the same squares');
    await page.waitForSelector(`#room[data-to-move="${seat}"]`);

    const reached = await clickMove(page, next.from, next.to);
    const other = bySeat[1 - seat];
    await waitVersion(other, reached);
    await other.waitForFunction(
        (text) => document.querySelector('#moves')?.innerText.includes(text), next.text, {
          timeout: kWait,
        });
    // And the game goes on: the opponent answers.
    const after = moves[4];
    const answered = await clickMove(moverPage(bySeat, after), after.from, after.to);
    await waitVersion(page, answered);
  },

  'a spectator who opens a room by its link sees the position already played': async (h) => {
    const {room, bySeat} = await startTablut(h);
    const moves = recordMoves(readRecord('tablut/sample-escape.txt'));
    for (const move of moves.slice(0, 2)) {
      const reached = await clickMove(moverPage(bySeat, move), move.from, move.to);
      for (const page of bySeat) await waitVersion(page, reached);
    }
    const dave = await h.newPlayer('Dave');
    await openRoom(dave.page, room);
    await waitVersion(dave.page, await version(bySeat[0]));
    const text = await movesText(dave.page);
    assert(
        text.includes('e8 i8') && text.includes('e3 a3'),
        `Dave's #moves shows both turns: ${JSON.stringify(text)}`);
    assert(await dave.page.locator('#sit').isHidden(), 'no seat is offered to Dave: both are taken');
  },
};
