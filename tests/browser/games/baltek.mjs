// What the tests need of this game, found by its name (harness.mjs, gameModule): its first turn by clicks
// (below), its turn's controls, its board's own tests, capture samples, its words and its sheet's texts.
// Browser test hook for the Baltek board (web-client/boards/baltek.js): a turn composed action by action,
// as a person plays it: a kick (the ball, then a highlighted target), a run (a footballer, then a
// highlighted square), then the bar's Confirm for the whole turn (the point left over is given up).
// Each action is tried on the server first (the bar lists it); against a server without `try` each one is
// played at once instead, and the same clicks work.
import {assert, assertEqual, kPhone, kWait, lowContrastText, readRecord, turnMark, twoPlayers, version, waitTurnPast} from '../harness.mjs';
import {bar, confirmButton, importAndWatch, plays, upTo, waitComposed, waitPlays} from '../boards-kit.mjs';
export const game = 'baltek';
export const options = '';

async function roomVersion(page) { return Number(await page.locator('#room').getAttribute('data-version')); }

// Resolves once the action is in: `count` steps listed in the bar (a composed turn), or an event past
// `version` (a server that plays each action at once).
export async function waitStep(page, version, count) {
  await page.waitForFunction(({v, n}) => {
    const bar = document.querySelector('#board .turn-bar');
    const steps = (bar?.querySelector('.turn-bar-steps')?.textContent || '').split(' · ').filter(Boolean);
    const idle = bar && !/Trying/.test(bar.querySelector('.turn-bar-prompt')?.textContent || '');
    return (idle && steps.length >= n) || Number(document.querySelector('#room')?.dataset.version) > v;
  }, {v: version, n: count}, {timeout: 20000});
}

// `page` shows the room as the seat to move. Returns the actions played, e.g. ['@ g3', 'd3 e4'].
export async function playFirstTurn(page) {
  const board = page.locator('#board svg.board-baltek');
  const played = [];
  const version = await roomVersion(page);

  // 1. Kick: the ball of the kickoff is at the feet of our captain.
  await board.locator('[data-piece="ball"].selectable').waitFor();
  await board.locator('[data-piece="ball"]').click();
  const kick = board.locator('[data-square][data-legal="true"][data-action^="@"]').first();
  await kick.waitFor();
  played.push(await kick.getAttribute('data-action'));
  await kick.click();
  await waitStep(page, version, 1);

  // 2. Run: a footballer that may still run, then one of its highlighted squares.
  const runner = board.locator('[data-square][data-selectable="true"]').first();
  await runner.waitFor();
  await runner.click();
  const run = board.locator('[data-square][data-legal="true"]:not([data-action*="*"])').first();
  await run.waitFor();
  played.push(await run.getAttribute('data-action'));
  await run.click();
  await waitStep(page, version + 1, 2);

  // 3. One point is left: send the turn with the bar's Confirm.
  const confirm = page.locator('#board .turn-bar [data-control="confirm"]:not([disabled])');
  await confirm.waitFor({state: 'visible'});
  const mark = await turnMark(page);
  await confirm.click();
  await waitTurnPast(page, mark);
  return played;
}

// The capture sound's samples (unit/social.test.mjs): the footballers stay on the field, nothing is captured.
export const captures = [
  {before: {footballers: [], ball: 'f3'}, after: {footballers: [], ball: 'f4'}, opponent: 'B', capture: false},
];

// How a turn's controls show on this board, for layout.test.mjs: `page` shows a game against the computer,
// the person to move; does what brings the controls up and returns the selectors of what must be on screen.
export async function showTurnControls(page) {
  const board = page.locator('#board svg.board-baltek');
  await board.locator('[data-piece="ball"].selectable').waitFor();
  await board.locator('[data-piece="ball"]').click();
  await board.locator('[data-square][data-legal="true"][data-action^="@"]').first().click();
  await page.locator('#board [data-control="undo"]').waitFor();
  return ['#board svg.board', '#board [data-control="undo"]', '#board [data-control="confirm"]'];
}

// What puts the turn's texts on screen, for contrast-boards.test.mjs (as showTurnControls, returning nothing).
export async function showTurnTexts(page) {
  const board = page.locator('#board svg.board-baltek');
  await board.locator('[data-piece="ball"].selectable').waitFor();
  await board.locator('[data-piece="ball"]').click();
  await board.locator('.target-label').first().waitFor();
}

// How the board marks the last turn and what it took when the page knows only the record (as after a reload),
// for boards.test.mjs: imports a record as a room nobody sits in and waits for the marks.
export async function showLastTurn(h) {
  // Baltek: Red's last turn of line 1 drawn as arrows (a sprint, a kick, a run).
  const baltek = await importAndWatch(h, upTo('baltek/sample-won-2-1.txt', '1 '));
  // (an arrow straight up or across is a line of no width or height: attached, not "visible")
  await baltek.locator('#board svg.board-baltek [data-arrow="g1 f3"]').waitFor({state: 'attached'});
  await baltek.locator('#board svg.board-baltek [data-arrow="i3 i4"]').waitFor({state: 'attached'});
  await baltek.locator('#board svg.board-baltek [data-mark="last"]').first().waitFor();
}

// This board's own turn handling, run by boards.test.mjs.
export const boardTests = {
  'baltek: a turn is composed with undo and reaches the opponent whole on confirmation': async (h) => {
    const {bySeat} = await twoPlayers(h, 'baltek');
    const [blue, red] = bySeat;
    const board = blue.locator('#board svg.board-baltek');
    const redPlays = await plays(red);
    assertEqual(
        await blue.locator('#end-turn').isVisible(), false, 'the room\'s End turn gives way to the bar');

    await board.locator('[data-piece="ball"].selectable').waitFor();
    await board.locator('[data-piece="ball"]').click();
    await board.locator('[data-square][data-legal="true"][data-action^="@"]').first().click();
    await waitComposed(blue, 1);
    await board.locator('[data-square][data-selectable="true"]').first().click();
    await board.locator('[data-square][data-legal="true"]:not([data-action*="*"])').first().click();
    await waitComposed(blue, 2);
    assert(await board.locator('[data-arrow]').count() >= 2, 'the composed steps are drawn as arrows');

    // Undo takes the run back: one step is left, and the points come back.
    await blue.locator('#board [data-control="undo"]').click();
    await blue.waitForFunction(
        () =>
            (document.querySelector('#board .turn-bar-steps')?.textContent || '').split(' · ').length === 1 &&
            !/Trying/.test(document.querySelector('#board .turn-bar')?.innerText || ''));
    assertEqual(await plays(red), redPlays, 'Red has heard nothing while Blue composes');

    const played = (await blue.locator('#board .turn-bar-steps').innerText()).trim();
    const mark = await turnMark(blue);
    await confirmButton(blue).click();
    await waitTurnPast(blue, mark);
    await waitPlays(red, redPlays + 1);
    assertEqual(await plays(red), redPlays + 1, 'the turn came to Red as one event');
    await red.waitForFunction(
        (kick) => (document.querySelector('#moves')?.innerText || '').includes(`B/${kick}/`), played,
        {timeout: kWait});
    // Red sees Blue's last turn marked: the kick's arrow.
    await red.locator('#board svg.board-baltek [data-arrow]').first().waitFor();
    await h.screenshot(red, 'boards-baltek-last-turn');
  },

  // The ball shares its holder's square: the bar says it is picked by itself and offers "Ball"; a composed
  // turn that spends every point leaves "Blue to move" on the board until it is sent.
  'baltek: the ball is picked from the bar, and the side to move changes only once the turn is sent': async (h) => {
    const {bySeat} = await twoPlayers(h, 'baltek');
    const [blue] = bySeat;
    const board = blue.locator('#board svg.board-baltek');
    const mover = () => board.locator('.turn-line .status').first().evaluate((t) => t.textContent);
    await board.locator('[data-piece="ball"].selectable').waitFor();
    const prompt = await bar(blue).locator('.turn-bar-prompt').innerText();
    assert(/ball/i.test(prompt), `the bar says how to reach the ball: ${JSON.stringify(prompt)}`);
    await bar(blue).locator('[data-control="select-ball"]').click();
    await board.locator('[data-square][data-legal="true"][data-action^="@"]').first().click();
    await waitComposed(blue, 1);
    // Two runs spend the last two points: the tried position is Red's, the board still says Blue's.
    for (const count of [2, 3]) {
      await board.locator('[data-square][data-selectable="true"]').first().click();
      await board.locator('[data-square][data-legal="true"]:not([data-action*="*"])').first().click();
      await waitComposed(blue, count);
    }
    await confirmButton(blue).waitFor({state: 'visible'});
    assertEqual(await mover(), 'Blue to move', 'the board says Blue while the turn is composed');
    const mark = await turnMark(blue);
    await confirmButton(blue).click();
    await waitTurnPast(blue, mark);
    await blue.waitForFunction(() => /Red to move/.test(
        document.querySelector('#board svg.board-baltek .turn-line .status')?.textContent || ''));
  },

  // A Blue and a Red footballer on one square (after Red's first turn of the sample, on f3): both drawn
  // whole, side by side, at a phone's size too.
  'baltek: two footballers on one square are both readable': async (h) => {
    for (const viewport of [undefined, kPhone]) {
      const {page} = await h.newPlayer('', viewport ? {viewport} : {});
      await page.goto(`${h.url}/#/import`);
      await page.locator('#import-text').fill(readRecord('baltek/sample-won-2-1.txt'));
      await page.locator('#import-submit').click();
      await page.locator('#replay-step').waitFor();
      if (await page.locator('#replay-start').isEnabled()) await page.locator('#replay-start').click();
      for (const step of [1, 2]) {
        await page.locator('#replay-next').click();
        await page.waitForFunction((n) => new RegExp(`^\\s*${n}\\s*/`).test(document.querySelector('#replay-step')?.innerText || ''), step);
      }
      const shared = page.locator('#board svg.board-baltek .footballer[data-at="f3"]');
      await page.waitForFunction(() => document.querySelectorAll('#board .footballer[data-at="f3"][data-shared="true"]').length === 2);
      // Wait for the glide to end, then measure.
      await page.waitForTimeout(500);
      const boxes = await shared.evaluateAll((nodes) => nodes.map((n) => {
        const b = n.querySelector('.body').getBoundingClientRect();
        return {x: b.x, y: b.y, w: b.width, h: b.height};
      }));
      const [a, b] = boxes;
      const overlapX = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x));
      const overlapY = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
      assert(overlapX * overlapY < 0.05 * a.w * a.h, `the two footballers on f3 overlap: ${JSON.stringify(boxes)}`);
      assert(a.w >= 12 && b.w >= 12, `both are big enough to read: ${JSON.stringify(boxes)}`);
      await h.screenshot(page, `baltek-shared-square-${viewport ? 'phone' : 'desktop'}`);
    }
  },

  'baltek: ending a turn without playing takes a second click': async (h) => {
    const {bySeat} = await twoPlayers(h, 'baltek');
    const [blue, red] = bySeat;
    const redPlays = await plays(red);
    const end = confirmButton(blue);
    await end.filter({hasText: /^End turn$/}).waitFor();
    await end.click();
    // One click gave nothing away: the button asks, and Red has heard nothing.
    await end.filter({hasText: 'Confirm: end without playing'}).waitFor();
    assertEqual(await plays(red), redPlays, 'one click sent nothing');
    assertEqual(await blue.locator('#room').getAttribute('data-to-move'), '0', 'Blue is still to move');
    for (const scheme of ['light', 'dark']) {
      await blue.emulateMedia({colorScheme: scheme});
      const low = (await lowContrastText(blue)).filter((t) => /Confirm: end/.test(t));
      assertEqual(low.length, 0, `the armed button's contrast, ${scheme}: ${low.join('; ')}`);
    }
    // Left alone, it stands down.
    await end.filter({hasText: /^End turn$/}).waitFor({timeout: kWait});
    const mark = await turnMark(blue);
    await end.click();
    await end.click();
    await waitTurnPast(blue, mark);
    await waitPlays(red, redPlays + 1);
    await red.waitForSelector('#room[data-to-move="1"]');
  },
};

// The board sheet's texts (web-client/boards/baltek.css) and what each is drawn on, for unit/contrast.test.mjs
// (which says how they are written).
export const boardTexts = [
  ...['.coord', '.team-B', '.team-R', '.bonus', '.score', '.status', '.bk-hint'].map(
      (name) => ({text: `.board-baltek ${name}`, on: ['page']})),
  {
    text: '.board-baltek .footballer .strength',
    on: ['.board-baltek .footballer.side-B .body', '.board-baltek .footballer.side-R .body'],
  },
  {
    text: '.board-baltek .target-label',
    halo: true,
    on: [
      '.board-baltek .turf',
      '.board-baltek .turf.alt',
      {over: '.board-baltek .target-area', on: '.board-baltek .turf'},
      {over: '.board-baltek .target-shot .target-area', on: '.board-baltek .turf.alt'},
    ],
  },
  {
    text: '.board-baltek .goal-flash',
    on: [
      {rule: '.board-baltek .goal-flash.side-B', prop: 'stroke'},
      {rule: '.board-baltek .goal-flash.side-R', prop: 'stroke'},
    ],
  },
];

// The game in words, for unit/words.test.mjs (web-client/words.js with the server's game table): its sides
// with their letters as docs/rules writes them, and results written out: [result, sentence, names by seat
// (Ada and Ben when left out)].
export const sideLabels = ['Blue (B)', 'Red (R)'];
export const resultSentences = [
  [{winner: 1, reason: 'score', detail: '1-2'}, 'Ben (Red) wins 2–1'],
  [{winner: null, reason: 'limit', detail: '1-1'}, 'Draw — the turn limit was reached at 1–1'],
  [{winner: 0, reason: 'time'}, 'Blue (B) wins on time', [null, null]],
];
