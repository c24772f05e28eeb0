// The room page around the board (web-client/room.js): resign asks for a confirmation; draw offers, declines,
// aborts and takebacks are announced in the room log with the players' names and sides in words; a takeback
// asked by one page is accepted by the other; the first-move countdown shows instead of running clocks; and
// the layout: at 1280x800 the board beside the players and the move list, at 390x844 the board first, both
// without scrolling.
import {assert, assertEqual, clickMove, createRoom, kDesktop, kPhone, kWait, mySeat, readRecord, recordMoves, sitFromLobby, twoPlayers, version, waitStatus, waitVersion} from './harness.mjs';

// Alice creates a Tablut room, Bob sits: the pages by seat (seat 0 plays the Attackers), and their names.
async function startTablut(h, options = {}) {
  return twoPlayers(h, 'tablut', options);
}

const kSides = ['Attackers', 'Defenders'];

// Waits until the room log of `page` has a line matching `pattern`.
async function waitLog(page, pattern, what) {
  await page
      .waitForFunction(
          (source) => new RegExp(source).test(document.querySelector('#room-log')?.innerText || ''),
          pattern.source, {timeout: kWait})
      .catch(async () => {
        throw new Error(`${what}: the room log does not say ${pattern}: ${
            JSON.stringify(await page.locator('#room-log').innerText().catch(() => ''))}`);
      });
}

async function play(bySeat, move) {
  const reached = await clickMove(bySeat[move.side === 'A' ? 0 : 1], move.from, move.to);
  for (const page of bySeat) await waitVersion(page, reached);
  return reached;
}

// The box of a selector's first match, in viewport coordinates, and the page's scroll.
function box(page, selector) {
  return page.locator(selector).first().evaluate((node) => {
    const r = node.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height};
  });
}

export const tests = {
  'resign needs a confirming second click and is announced': async (h) => {
    const {room, bySeat, names} = await startTablut(h);
    const page = bySeat[1];
    await page.locator('#resign').click();
    await page.locator('#resign', {hasText: 'Confirm resign'}).waitFor({state: 'visible'});
    // One click sent nothing: the server still has the game live.
    const {body} = await h.fetchJson(`/api/games/${room}`);
    assertEqual(body.position.status, 'live', 'the game after one click on Resign');
    assertEqual(await page.locator('#room').getAttribute('data-status'), 'live', 'the page after one click');
    // The confirmation stands down by itself.
    await page.locator('#resign', {hasText: /^Resign$/}).waitFor({state: 'visible', timeout: kWait});
    // Two clicks resign.
    const before = await version(page);
    await page.locator('#resign').click();
    await page.locator('#resign', {hasText: 'Confirm resign'}).click();
    for (const p of bySeat) {
      await waitVersion(p, before + 1);
      await waitStatus(p, 'finished');
    }
    await waitLog(page, /You resigned/, 'the resigning page');
    await waitLog(bySeat[0], new RegExp(`${names[1]} \\(${kSides[1]}\\) resigned`), 'the winner\'s page');
  },

  'draw offers, declines and aborts are announced in the room log': async (h) => {
    const {bySeat, names} = await startTablut(h);
    await bySeat[0].locator('#draw').click();
    await waitLog(bySeat[1], new RegExp(`${names[0]} \\(${kSides[0]}\\) offered a draw`), 'the offer');
    await waitLog(bySeat[0], /You offered a draw/, 'the offer, to its author');
    await bySeat[1].locator('#decline-draw').click();
    await waitLog(bySeat[0], new RegExp(`${names[1]} \\(${kSides[1]}\\) declined the draw`), 'the decline');
    // A spectator who comes now reads a standing offer.
    await bySeat[1].locator('#draw').click();
    const carol = await h.newPlayer('Carol');
    await carol.page.goto(bySeat[0].url());
    await carol.page.waitForSelector('#room[data-status="live"]');
    await waitLog(carol.page, new RegExp(`${names[1]} \\(${kSides[1]}\\) offered a draw`), 'the spectator');
    await bySeat[0].locator('#decline-draw').click();
    await bySeat[0].locator('#abort').click();
    for (const page of [...bySeat, carol.page]) {
      await waitStatus(page, 'finished');
      await waitLog(page, /aborted/, 'the abort');
    }
    // The game is over: no empty turn bar's place is kept above the board (at a phone's size too).
    for (const viewport of [kDesktop, kPhone]) {
      await bySeat[0].setViewportSize(viewport);
      await bySeat[0].waitForFunction(() => {
        const host = document.querySelector('#board');
        const svg = host && host.querySelector('svg.board');
        return svg && svg.getBoundingClientRect().top - host.getBoundingClientRect().top <= 8;
      }, null, {timeout: 5000}).catch(() => {});
      const gap = await bySeat[0].evaluate(() => {
        const host = document.querySelector('#board');
        return Math.round(host.querySelector('svg.board').getBoundingClientRect().top - host.getBoundingClientRect().top);
      });
      assert(gap <= 8, `${viewport.width} px: a ${gap} px gap above the finished game's board`);
      await h.screenshot(bySeat[0], `room-aborted-${viewport.width}`);
    }
  },

  'a takeback asked by one page is accepted by the other and announced': async (h) => {
    const {bySeat, names} = await startTablut(h);
    const moves = recordMoves(readRecord('tablut/sample-escape.txt'));
    await play(bySeat, moves[0]);
    await play(bySeat, moves[1]);
    // D (seat 1) just played: D may ask, A may not.
    assert(await bySeat[0].locator('#takeback').isHidden(), 'no takeback offered to the player to move');
    await bySeat[1].locator('#takeback').click();
    await waitLog(
        bySeat[0], new RegExp(`${names[1]} \\(${kSides[1]}\\) asked to take back their last move`), 'the ask');
    await bySeat[0].locator('#accept-takeback').waitFor({state: 'visible'});
    await bySeat[0].locator('#decline-takeback').click();
    await waitLog(bySeat[1], new RegExp(`${names[0]} \\(${kSides[0]}\\) declined`), 'the decline');
    await bySeat[1].locator('#takeback').click();
    await bySeat[0].locator('#accept-takeback').click();
    for (const page of bySeat) {
      await waitLog(page, /took back/, 'the takeback');
      await page.waitForFunction(() => document.querySelectorAll('#movelist .ml-turn').length === 1);
      await page.waitForSelector('#room[data-to-move="1"]');
      await page.waitForFunction(() => !/D\/e3 a3\//.test(document.querySelector('#moves')?.innerText || ''));
    }
    // D plays again, another move this time.
    await clickMove(bySeat[1], 'e3', 'b3');
    await bySeat[0].waitForFunction(
        () => [...document.querySelectorAll('#movelist .ml-turn')].map((n) => n.textContent).join(' ') ===
            'A/e8 i8/ D/e3 b3/');
  },

  'the first move has a countdown instead of running clocks': async (h) => {
    const {bySeat, names} = await startTablut(h, {clock: '5+3'});
    await bySeat[0].locator('#first-move').waitFor({state: 'visible'});
    await bySeat[0].waitForFunction(
        () => /Make your first move within \d+ s/.test(document.querySelector('#first-move')?.innerText || ''));
    await bySeat[1].waitForFunction(
        (name) => new RegExp(`${name} \\(Attackers\\) must move within \\d+ s`)
                      .test(document.querySelector('#first-move')?.innerText || ''),
        names[0]);
    assertEqual(await bySeat[0].locator('#players .clock.running').count(), 0, 'no clock runs yet');
    const moves = recordMoves(readRecord('tablut/sample-escape.txt'));
    await play(bySeat, moves[0]);
    // Now the Defenders' first move is counted down, for both pages.
    await bySeat[1].waitForFunction(
        () => /Make your first move within \d+ s/.test(document.querySelector('#first-move')?.innerText || ''));
    await play(bySeat, moves[1]);
    for (const page of bySeat) await page.locator('#first-move').waitFor({state: 'hidden'});
    await bySeat[0].locator('#players .clock.running').waitFor({state: 'visible'});
  },

  'the room fits the screen: the board beside the panel at 1280x800, first on a phone': async (h) => {
    const {bySeat} = await startTablut(h);
    const page = bySeat[0];
    const moves = recordMoves(readRecord('tablut/sample-escape.txt'));
    await play(bySeat, moves[0]);
    await play(bySeat, moves[1]);
    await page.setViewportSize(kDesktop);
    await page.waitForSelector('#board svg.board');
    await page.waitForFunction(() => window.scrollY === 0);
    const board = await box(page, '#board svg.board');
    for (const selector of ['#players', '#movelist', '#turn-info']) {
      const other = await box(page, selector);
      assert(other.left >= board.right - 1, `${selector} lies beside the board: ${JSON.stringify({board, other})}`);
      assert(other.top < kDesktop.height, `${selector} is on screen at 1280x800: ${JSON.stringify(other)}`);
    }
    assert(
        board.top >= 0 && board.bottom <= kDesktop.height && board.width >= 400,
        `the whole board is on screen at 1280x800: ${JSON.stringify(board)}`);
    await h.screenshot(page, 'room-desktop');

    await page.setViewportSize(kPhone);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => window.scrollY === 0);
    const small = await box(page, '#board svg.board');
    const players = await box(page, '#players');
    const head = await box(page, '.room-head');
    assert(
        small.top >= 0 && small.bottom <= kPhone.height && small.right <= kPhone.width,
        `the whole board is on screen at 390x844: ${JSON.stringify(small)}`);
    assert(players.top >= small.bottom - 1, `the players come under the board: ${JSON.stringify(players)}`);
    assert(head.top >= small.bottom - 1, `the title comes after the board on a phone: ${JSON.stringify(head)}`);
    const turn = await box(page, '#turn-info');
    assert(turn.bottom <= kPhone.height, `whose turn it is shows without scrolling: ${JSON.stringify(turn)}`);
    await h.screenshot(page, 'room-phone');
  },
};

export const timeouts = {
  'the first move has a countdown instead of running clocks': 90000,
};
