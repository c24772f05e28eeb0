// What the tests need of this game, found by its name (harness.mjs, gameModule): its first turn by clicks
// (below), its turn's controls, its board's own tests, capture samples, its words and its sheet's texts.
// Kopf oder Knopf in the browser tests: plays one whole turn through the board, as a person would.
import {assert, assertEqual, kPhone, kWait, playComputer, readRecord, turnMark, twoPlayers, version, waitTurnPast, waitVersion} from '../harness.mjs';
import {bar, confirmButton, importAndSit, importAndWatch, plays, shownText, upTo, waitPlays} from '../boards-kit.mjs';
export const game = 'kopf-oder-knopf';
export const options = '';

// `page` shows the room as the seat to move. Picks a button that can move (cells marked data-movable), then
// one of its highlighted destinations; if the player has no move, presses the board's Pass button. The
// strike is automatic and no penalty is possible on the first turn, so this is the whole turn.
export async function playFirstTurn(page) {
  const mark = await turnMark(page);
  const board = page.locator('#board');
  await board.locator('svg.board-kopf-oder-knopf').waitFor();
  const pass = board.locator('button[data-action="pass"]');
  if (await pass.count()) {
    await pass.click();
  } else {
    const piece = board.locator('[data-movable="true"]').first();
    await piece.waitFor();
    await piece.click();
    const target = board.locator('[data-legal="true"]:not([data-penalty])').first();
    await target.waitFor();
    await target.click();
  }
  await waitTurnPast(page, mark);
}


// The capture sound's samples (unit/social.test.mjs): the board rows lose a button of the opponent's letter.
export const captures = [
  {before: {board: ['RR..', '..BB', '....']}, after: {board: ['RR..', '...B', '..R.']}, opponent: 'B', capture: true},
  {before: {board: ['RR..', '..BB', '....']}, after: {board: ['RR..', '..BB', '..R.']}, opponent: 'B', capture: false},
];

// How a turn's controls show on this board, for layout.test.mjs: `page` shows a game against the computer,
// the person to move; does what brings the controls up and returns the selectors of what must be on screen.
export async function showTurnControls(page) {
  await page.locator('#board [data-movable="true"]').first().click();
  await page.locator('#board [data-legal="true"]').first().waitFor();
  return ['#board svg.board', '#board .turn-bar .turn-bar-prompt', '#board .kok-score'];
}

// What puts the turn's texts on screen, for contrast-boards.test.mjs (as showTurnControls, returning nothing).
export async function showTurnTexts(page) {
  await page.locator('#board [data-movable="true"]').first().click();
  await page.locator('#board [data-legal="true"]').first().waitFor();
  await page.locator('#board .kok-score').waitFor();
}

// How the board marks the last turn and what it took when the page knows only the record (as after a reload),
// for boards.test.mjs: imports a record as a room nobody sits in and waits for the marks.
export async function showLastTurn(h) {
  // Kopf oder Knopf: Blue's strike removed h8 (line 2), and the move that followed.
  const kok = await importAndWatch(h, upTo('kopf-oder-knopf/sample-finished.txt', '2 '));
  await kok.locator('#board [data-removed="h8"]').waitFor();
}

// This board's own turn handling, run by boards.test.mjs.
export const boardTests = {
  // On a phone a move's targets must not look like the buttons' holes: bigger, and in another colour.
  'kopf-oder-knopf: on a phone the move targets are rings unlike the buttons\' holes': async (h) => {
    const page = await playComputer(h, 'kopf-oder-knopf', kPhone);
    const board = page.locator('#board');
    const piece = board.locator('[data-movable="true"]').first();
    await piece.waitFor();
    await piece.click();
    await board.locator('[data-target]').first().waitFor();
    const seen = await page.evaluate(() => {
      const hole = document.querySelector('#board .kok-hole');
      const holeBox = hole.getBoundingClientRect();
      return {
        hole: {size: holeBox.width, fill: getComputedStyle(hole).fill},
        targets: [...document.querySelectorAll('#board [data-target]')].map((t) => ({
          size: t.getBoundingClientRect().width, stroke: getComputedStyle(t).stroke, fill: getComputedStyle(t).fill,
        })),
      };
    });
    assert(seen.targets.length > 0, 'targets are drawn');
    for (const target of seen.targets) {
      assert(target.size >= Math.max(16, seen.hole.size * 2), `a target (${target.size} px) is well bigger than a hole (${seen.hole.size} px)`);
      assert(target.stroke !== seen.hole.fill && target.fill !== seen.hole.fill, `a target's colours differ from a hole's: ${JSON.stringify(target)} vs ${seen.hole.fill}`);
    }
    await h.screenshot(page, 'kopf-oder-knopf-targets-phone');
  },

  'kopf-oder-knopf: after a penalty the page offers no end of turn (none exists), and the turn goes whole':
      async (h) => {
        // Turn 4: Red may take Blue's g9 as a penalty (the sample game does).
        const record = readRecord('kopf-oder-knopf/sample-finished.txt');
        const lines = record.split('\n');
        const upTo = lines.findIndex((line) => /^4\s/.test(line));
        const {bySeat} = await importAndSit(h, lines.slice(0, upTo).join('\n') + '\n');
        const [red, blue] = bySeat;
        await red.waitForSelector('#room[data-to-move="0"]');
        const bluePlays = await plays(blue);

        const penalty = red.locator('#board [data-square="g9"][data-penalty="true"]');
        await penalty.waitFor();
        await penalty.click();
        await bar(red).filter({hasText: 'Now move a button'}).waitFor();
        const text = await shownText(red);
        assert(
            !/end (your|the) turn/i.test(text),
            `no "end your turn" after a penalty: ${JSON.stringify(text)}`);
        assertEqual(await red.locator('#end-turn').isVisible(), false, 'the room shows no End turn button');
        assertEqual(await confirmButton(red).count(), 0, 'nothing to confirm before the move');
        await red.locator('#board [data-control="undo"]').waitFor();
        await h.screenshot(red, 'boards-kok-penalty-tried');
        // Nothing has reached Blue: the penalty is only tried.
        assertEqual(await plays(blue), bluePlays, 'Blue has heard nothing of the penalty yet');

        // The move completes the turn; Play sends the penalty and the move in one turn.
        await red.locator('#board [data-movable="true"]').first().click();
        await red.locator('#board [data-legal="true"]:not([data-penalty])').first().click();
        await confirmButton(red).filter({hasText: 'Play turn'}).waitFor();
        assertEqual(await plays(blue), bluePlays, 'Blue has heard nothing before the confirmation');
        const mark = await turnMark(red);
        await confirmButton(red).click();
        await waitTurnPast(red, mark);
        await waitPlays(blue, bluePlays + 1);
        await blue.waitForFunction(
            () => /^4\s+R\/- g9\//m.test(document.querySelector('#moves')?.innerText || ''), null,
            {timeout: kWait});
        assertEqual(await plays(blue), bluePlays + 1, 'the whole turn came to Blue as one event');
        // The penalty's button stays marked where it was, for both players, also after a reload.
        for (const page of [red, blue]) await page.locator('#board [data-removed="g9"]').waitFor();
        await blue.reload();
        await blue.locator('#board [data-removed="g9"]').waitFor();
        await h.screenshot(blue, 'boards-kok-last-turn-reloaded');
      },

  'kopf-oder-knopf: a premove is played when the turn comes, or dropped with a word': async (h) => {
    const {bySeat} = await twoPlayers(h, 'kopf-oder-knopf');
    const [red, blue] = bySeat;
    await blue.locator('#board [data-premovable="true"]').first().click();
    const target = blue.locator('#board [data-premove-target="true"]').first();
    await target.waitFor();
    await target.click();
    await bar(blue).filter({hasText: 'Premove:'}).waitFor();
    const planned = /Premove: (\S+ \S+),/.exec(await bar(blue).innerText())[1];
    const before = await version(blue);
    const game = await import('./kopf-oder-knopf.mjs');
    await game.playFirstTurn(red);
    await waitVersion(blue, before + 1);
    // Legal then: Blue's move follows at once; else the page says it was dropped and Blue is to move.
    await blue.waitForFunction((move) => {
      const record = document.querySelector('#moves')?.innerText || '';
      const notice = document.querySelector('#notice')?.innerText || '';
      return record.includes(`B/${move}/`) || notice.includes('dropped');
    }, planned, {timeout: kWait});
    await bar(blue).filter({hasText: 'Premove:'}).waitFor({state: 'detached'});
  },
};

// The board sheet's texts (web-client/boards/kopf-oder-knopf.css) and what each is drawn on, for unit/contrast.test.mjs
// (which says how they are written).
export const boardTexts = [{
  text: '.board-kopf-oder-knopf .kok-coord',
  on: ['.board-kopf-oder-knopf .kok-frame', '.board-kopf-oder-knopf .kok-edge'],
}];

// The game in words, for unit/words.test.mjs (web-client/words.js with the server's game table): its sides
// with their letters as docs/rules writes them, and results written out: [result, sentence, names by seat
// (Ada and Ben when left out)].
export const sideLabels = ['Red (R)', 'Blue (B)'];
export const resultSentences = [
  [{winner: 1, reason: 'score', detail: '7-10'}, 'Ben (Blue) wins — 10 against 7 buttons removed'],
  [{winner: null, reason: 'blocked', detail: '6-6'}, 'Draw — both sides were blocked with 6 buttons removed each'],
];
