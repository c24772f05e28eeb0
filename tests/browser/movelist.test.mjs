// The move list (web-client/movelist.js) and the replay it doubles as: turns numbered as the record numbers
// them, an earlier position shown on a click while the game goes on (Escape comes back), the list kept
// across a reload; the replay's stepping back marks the move before; the import page's two bugs (an empty
// text replayed as a phantom Baltek game, a refused record leaving the previous replay on screen).
import {assert, assertEqual, clickMove, createRoom, kWait, mySeat, readRecord, recordMoves, sitFromLobby, twoPlayers, waitSeated, waitStatus, waitVersion} from './harness.mjs';

// The pieces on the board as "square:classes" (ghosts of captured or moved pieces left out).
function piecesOf(page) {
  return page.locator('#board [data-piece]')
      .evaluateAll(
          (nodes) => nodes
                         .filter((node) => !/\b(fallen|captured|ghost|gone)\b/.test(node.getAttribute('class') || ''))
                         .map((node) => node.getAttribute('data-piece'))
                         .sort()
                         .join(' '));
}

async function hasPiece(page, square) { return (await piecesOf(page)).split(' ').includes(square); }

// The list as the page shows it: [[number, [turn texts]]] line by line.
function listLines(page) {
  return page.locator('#movelist .ml-line')
      .evaluateAll(
          (lines) => lines.map((line) => [
                                line.querySelector('.ml-number')?.textContent.trim(),
                                [...line.querySelectorAll('.ml-turn')].map((turn) => turn.textContent.trim()),
                              ]));
}

async function startTablut(h, options = {}) {
  return twoPlayers(h, 'tablut', options);
}

// Tablut's seat 0 plays A (the attackers), seat 1 plays D.
async function play(bySeat, move) {
  const reached = await clickMove(bySeat[move.side === 'A' ? 0 : 1], move.from, move.to);
  for (const page of bySeat) await waitVersion(page, reached);
  return reached;
}

async function waitTurns(page, count) {
  await page.waitForFunction(
      (n) => document.querySelectorAll('#movelist .ml-turn').length === n, count, {timeout: kWait});
}

async function openImport(h) {
  const {page} = await h.newPlayer('');
  await page.goto(`${h.url}/#/import`);
  await page.locator('#import-text').waitFor({state: 'visible'});
  return page;
}

// The squares the board marks as the last move (Tablut: the squares with the class `last`).
function markedSquares(page) {
  return page.locator('#board [data-square]')
      .evaluateAll(
          (nodes) => [...new Set(nodes.filter((node) => /\blast\b/.test(node.getAttribute('class') || ''))
                                     .map((node) => node.getAttribute('data-square')))]
                         .sort()
                         .join(' '));
}

export const tests = {
  'the move list numbers turns as the record, shows an earlier position on a click, Escape returns, and a reload keeps it':
      async (h) => {
        const {room, bySeat} = await startTablut(h);
        const moves = recordMoves(readRecord('tablut/sample-escape.txt'));
        for (const move of moves.slice(0, 3)) await play(bySeat, move);
        const page = bySeat[0];
        await waitTurns(page, 3);
        // The record's numbering: line 1 holds A's and D's first turns, line 2 A's second.
        assertEqual(
            JSON.stringify(await listLines(page)),
            JSON.stringify([['1.', ['A/e8 i8/', 'D/e3 a3/']], ['2.', ['A/i6 g6/']]]), 'the move list');
        const last = page.locator('#movelist .ml-turn.ml-last');
        assertEqual(await last.count(), 1, 'one turn is marked as the last');
        assertEqual(await last.textContent(), 'A/i6 g6/', 'the last turn is marked');

        // A look at the position after turn 1 (D/e3 a3/ not played yet) while the game goes on.
        await page.locator('#movelist .ml-turn[data-index="1"]').click();
        await page.locator('#history-banner').waitFor({state: 'visible'});
        await page.waitForSelector('#room[data-viewing="1"]');
        await page.waitForFunction(() => {
          const squares = [...document.querySelectorAll('#board [data-piece]')].map((n) => n.dataset.piece);
          return squares.includes('e3') && squares.includes('i8') && !squares.includes('a3');
        });
        assert(
            /after 1\. A\/e8 i8\//.test(await page.locator('#history-banner').innerText()),
            `the banner says which position it is: ${await page.locator('#history-banner').innerText()}`);
        assertEqual(await page.locator('#replay-step').innerText(), '1 / 3', 'the step shown');

        // The opponent plays on meanwhile: the list grows, the board stays on the earlier position.
        await play(bySeat, moves[3]);
        await waitTurns(page, 4);
        assertEqual(await page.locator('#room').getAttribute('data-viewing'), '1', 'still looking at turn 1');
        assert(!(await hasPiece(page, 'a3')), 'the board still shows the earlier position');

        // Escape: back to the game as it stands, D's second move (i6 g6 ... d5 d7) included.
        await page.keyboard.press('Escape');
        await page.locator('#history-banner').waitFor({state: 'hidden'});
        await page.waitForSelector('#room[data-viewing=""]');
        await page.waitForFunction(() => {
          const squares = [...document.querySelectorAll('#board [data-piece]')].map((n) => n.dataset.piece);
          return squares.includes('a3') && squares.includes('d7') && !squares.includes('d5');
        });
        assertEqual(await page.locator('#replay-step').innerText(), '4 / 4', 'the step shown');
        // Coming back is a jump of three turns, not a move: the squares it emptied took no capture.
        assertEqual(await page.locator('#board [data-captured]').count(), 0, 'no capture marked after the jump back');

        // The button does the same as the key; End too.
        await page.locator('#movelist .ml-turn[data-index="2"]').click();
        await page.locator('#back-to-live').click();
        await page.waitForSelector('#room[data-viewing=""]');
        await page.locator('#movelist .ml-turn[data-index="2"]').click();
        await page.waitForSelector('#room[data-viewing="2"]');
        await page.keyboard.press('End');
        await page.waitForSelector('#room[data-viewing=""]');

        // A reload: the same list, the same last move marked.
        const before = await listLines(page);
        await page.reload();
        await waitSeated(page, room);
        await waitTurns(page, 4);
        assertEqual(JSON.stringify(await listLines(page)), JSON.stringify(before), 'the list after a reload');
        assertEqual(
            await page.locator('#movelist .ml-turn.ml-last').textContent(), 'D/d5 d7/',
            'the last turn is marked after a reload');
        await h.screenshot(page, 'movelist-desktop');
      },

  'the replay numbers turns as the record and stepping back marks the move before': async (h) => {
    const page = await openImport(h);
    await page.locator('#import-text').fill(readRecord('tablut/sample-escape.txt'));
    await page.locator('#import-submit').click();
    await page.waitForSelector('#board svg.board.board-tablut', {timeout: kWait});
    await waitTurns(page, 42);
    // Turn 12 of the game is the record's 6. D/e6 i6/.
    await page.locator('#movelist .ml-turn[data-index="12"]').click();
    await page.waitForFunction(
        () => document.querySelector('#replay-caption')?.innerText.trim() === '6. D/e6 i6/', null,
        {timeout: kWait});
    assertEqual(await page.locator('#replay-step').innerText(), '12 / 42', 'the step shown');
    await page.waitForFunction(() => document.querySelector('#board [data-square="e6"].last'));
    assertEqual(await markedSquares(page), 'e6 i6', 'turn 12 marked');
    // A jump from the start to turn 12 is no move: only what turn 12 took would be marked (nothing).
    assertEqual(await page.locator('#board [data-captured]').count(), 0, 'no capture marked after a jump');
    // One step back: turn 11 (6. A/g6 g3/) is the one marked, not turn 12 undone.
    await page.locator('#replay-prev').click();
    await page.waitForFunction(
        () => document.querySelector('#replay-caption')?.innerText.trim() === '6. A/g6 g3/', null,
        {timeout: kWait});
    await page.waitForFunction(() => !document.querySelector('#board [data-square="e6"].last'));
    assertEqual(await markedSquares(page), 'g3 g6', 'stepping back marks turn 11');
    assert(
        await page.locator('#movelist .ml-turn[data-index="11"]').evaluate((n) => n.classList.contains('ml-viewing')),
        'the list shows turn 11 as the one looked at');
    // And with the keyboard, two steps back: turn 9 (5. A/g4 i4/).
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(
        () => document.querySelector('#replay-caption')?.innerText.trim() === '5. A/g4 i4/', null,
        {timeout: kWait});
    await page.waitForFunction(() => document.querySelector('#board [data-square="i4"].last'));
    assertEqual(await markedSquares(page), 'g4 i4', 'two steps back mark turn 9');
  },

  'importing an empty text says so and shows no game': async (h) => {
    const page = await openImport(h);
    for (const text of ['', '   \n\n  ', '# only a comment\n']) {
      await page.locator('#import-text').fill(text);
      await page.locator('#import-submit').click();
      await page.locator('#import-error').waitFor({state: 'visible'});
      const error = await page.locator('#import-error').innerText();
      assert(/empty|no game/i.test(error), `an error for ${JSON.stringify(text)}: ${JSON.stringify(error)}`);
      assertEqual(await page.locator('#board svg').count(), 0, `no board for ${JSON.stringify(text)}`);
      assert(
          await page.locator('.import-viewer').isHidden(), `no replay for ${JSON.stringify(text)} (a phantom game)`);
    }
  },

  'a refused import clears the previous replay': async (h) => {
    const page = await openImport(h);
    const good = readRecord('tablut/sample-escape.txt');
    await page.locator('#import-text').fill(good);
    await page.locator('#import-submit').click();
    await page.waitForSelector('#board svg.board.board-tablut', {timeout: kWait});
    await page.locator('.import-viewer').waitFor({state: 'visible'});
    // Line 5 is turn 2; i6 j6 is off the board.
    await page.locator('#import-text').fill(good.replace('A/i6 g6/', 'A/i6 j6/'));
    await page.locator('#import-submit').click();
    await page.waitForFunction(() => /line 5: /.test(document.querySelector('#import-error')?.innerText || ''));
    await page.locator('.import-viewer').waitFor({state: 'hidden'});
    assertEqual(await page.locator('#board svg').count(), 0, 'the previous board is gone');
    assertEqual(await page.locator('#movelist').count(), 0, 'the previous move list is gone');
    // A good record after it replays again.
    await page.locator('#import-text').fill(good);
    await page.locator('#import-submit').click();
    await page.waitForSelector('#board svg.board.board-tablut', {timeout: kWait});
    await page.locator('#import-error').waitFor({state: 'hidden'});
  },
};

export const timeouts = {
  'the move list numbers turns as the record, shows an earlier position on a click, Escape returns, and a reload keeps it':
      120000,
};
