// What the tests need of this game, found by its name (harness.mjs, gameModule): its first turn by clicks
// (below), its turn's controls, its board's own tests, capture samples, its words and its sheet's texts.
// Bi-litaire's hook for the browser tests: one whole turn played by clicks on the board, as a person would.
// Each action is tried first (the board shows it); the bar's Confirm sends the turn.
import {assert, assertEqual, turnMark, twoPlayers, waitTurnPast} from '../harness.mjs';
import {bar, confirmButton, endButtons, importAndWatch, plays, shownText, waitPlays} from '../boards-kit.mjs';
export const game = 'bi-litaire';
export const options = '';  // Bi-litaire has no options

const board = '#board svg.board-bi-litaire';
const confirm = '#board .turn-bar [data-control="confirm"]:not([disabled])';

// Sends the composed turn and waits until the room has it (the other seat, or the next round, to move).
// A server without `try` has played the action already: then there may be nothing to confirm.
async function confirmTurn(page, mark) {
  await page.waitForFunction(({selector, m}) => {
    const p = window.cinqApp.room?.state?.position;
    const past = p && (p.status !== m.status || p.to_move !== m.to_move || p.turn > m.turn);
    return past || document.querySelector(selector);
  }, {selector: confirm, m: mark}, {timeout: 20000});
  if (await page.locator(confirm).count()) await page.click(confirm);
  await waitTurnPast(page, mark);
}

// `page` shows the room as the seat to move. The game's first turn is the marble player's removal of one
// marble (`x d4`); the other phases are handled too, so the hook also serves a later turn.
export async function playFirstTurn(page) {
  await page.waitForSelector(`${board} [data-legal="true"]`);
  const mark = await turnMark(page);
  const phase = await page.getAttribute(board, 'data-phase');
  if (phase === 'first_removal') {
    await page.click(`${board} [data-square="d4"][data-legal="true"]`);
    // The tried position has the marble gone; Confirm sends it.
    await page.waitForSelector(`${board} [data-square="d4"]:not([data-piece])`);
    await confirmTurn(page, mark);
    return;
  }
  if (phase === 'tray') {
    // Pick a tray, push it to its first highlighted slot, then confirm (no announcement).
    await page.click(`${board} .bl-tray[data-legal="true"]`);
    const target = page.locator(`${board} .bl-slot[data-legal="true"], ${board} .bl-remove`).first();
    await target.click();
    await page.waitForSelector(`${board}[data-phase="tray_done"]`);
    await confirmTurn(page, mark);
    return;
  }
  if (phase === 'tray_done') {
    await confirmTurn(page, mark);
    return;
  }
  if (phase === 'marbles') {
    // A marble, then landing holes until the chain is complete (tried), then Confirm.
    await page.click(`${board} .bl-hole[data-piece="marble"][data-legal="true"]`);
    for (let i = 0; i < 16; ++i) {
      if (await page.locator(confirm).count()) break;
      const landing = page.locator(`${board} .bl-hole[data-legal="true"]:not([data-piece])`).first();
      if ((await landing.count()) === 0) break;
      await landing.click();
    }
    await confirmTurn(page, mark);
    return;
  }
  throw new Error(`bi-litaire: no turn to play in phase ${phase}`);
}

// The capture sound's samples (unit/social.test.mjs): the marbles belong to no side, nothing is captured.
export const captures = [{before: {rows: ['oo+']}, after: {rows: ['+o+']}, opponent: 'T', capture: false}];

// How a turn's controls show on this board, for layout.test.mjs: `page` shows a game against the computer,
// the person to move; does what brings the controls up and returns the selectors of what must be on screen.
export async function showTurnControls(page) {
  await page.locator('#board [data-square="d4"][data-legal="true"]').click();
  await page.locator('#board [data-control="confirm"]').waitFor();
  return [
    '#board svg.board', '#board .turn-bar .turn-bar-prompt', '#board [data-control="confirm"]',
    '#board [data-control="undo"]'
  ];
}

// What puts the turn's texts on screen, for contrast-boards.test.mjs (as showTurnControls, returning nothing).
export async function showTurnTexts(page) {
  await page.locator('#board [data-square="d4"][data-legal="true"]').click();
  await page.locator('#board [data-control="confirm"]').waitFor();
}

// How the board marks the last turn and what it took when the page knows only the record (as after a reload),
// for boards.test.mjs: imports a record as a room nobody sits in and waits for the marks.
export async function showLastTurn(h) {
  // Bi-litaire: the round's first removal, then a jump: the jumped marble is crossed out.
  const bilitaire = await importAndWatch(h, '#! BI-LITAIRE\n1   M/x d4/   T/B4 <1/\n2   M/d2 d4/\n');
  await bilitaire.locator('#board [data-removed="d3"]').waitFor();
}

// This board's own turn handling, run by boards.test.mjs.
export const boardTests = {
  'bi-litaire: with no chain of two possible, one end button and no call for an announcement': async (h) => {
    const {bySeat} = await twoPlayers(h, 'bi-litaire');
    const [marbles, trays] = bySeat;
    // Round 1 opens with the marble player's removal: composed, then confirmed.
    await marbles.locator('#board [data-square="d4"][data-legal="true"]').click();
    await confirmButton(marbles).waitFor();
    assertEqual(await endButtons(marbles), 1, 'one button sends the removal');
    const mark = await turnMark(marbles);
    const before = await plays(trays);
    await confirmButton(marbles).click();
    await waitTurnPast(marbles, mark);
    await waitPlays(trays, before + 1);
    await marbles.locator('#board [data-removed="d4"]').waitFor();

    // The tray player pushes a tray: after the first removal no chain of two jumps exists.
    const board = '#board svg.board-bi-litaire';
    await trays.click(`${board} .bl-tray[data-legal="true"]`);
    await trays.locator(`${board} .bl-slot[data-legal="true"]`).first().waitFor();
    // The opponent leaving and coming back redraws the room, not the turn: the picked tray stays picked.
    // (The server may fold a quick leave and return into one presence update, or none: the page's reload is
    // waited for, the update it usually brings is not required.)
    await marbles.reload();
    await trays.locator('#players [data-online="false"]').waitFor({timeout: 5000}).catch(() => {});
    await trays.locator('#players [data-online="false"]').waitFor({state: 'detached'});
    await marbles.locator('#board svg').waitFor();
    const beforeMarbles = await plays(marbles);  // the reloaded page counts from its reload
    await trays.locator(`${board} .bl-slot[data-legal="true"]`).first().click();
    await trays.waitForSelector(`${board}[data-phase="tray_done"]`);
    await trays.waitForFunction(
        () => !/Trying/.test(document.querySelector('#board .turn-bar')?.innerText || ''));
    await h.screenshot(trays, 'boards-bi-litaire-tray-done');
    assertEqual(await endButtons(trays), 1, 'exactly one button ends the turn');
    assertEqual(await trays.locator('#board [data-action^="!"]').count(), 0, 'no announcement is offered');
    const text = await shownText(trays);
    assert(!/announce/i.test(text.replace(/no announcement/i, '')), `no call for an announcement: ${text}`);
    assertEqual(await plays(marbles), beforeMarbles, 'the marble player has heard nothing of the push yet');
    const trayMark = await turnMark(trays);
    await confirmButton(trays).click();
    await waitTurnPast(trays, trayMark);
    await waitPlays(marbles, beforeMarbles + 1);
  },
};

// The board sheet's texts (web-client/boards/bi-litaire.css) and what each is drawn on, for unit/contrast.test.mjs
// (which says how they are written).
export const boardTexts = [
  ...['.bl-coord', '.bl-coord-slot', '.bl-panel-title', '.bl-panel-text', '.bl-panel-prompt'].map(
      (name) => ({text: `.board-bi-litaire ${name}`, on: ['.board-bi-litaire .bl-frame']})),
  {
    text: '.board-bi-litaire .bl-target-label',
    on: [
      {over: '.board-bi-litaire .bl-target rect', on: '.board-bi-litaire .bl-frame'},
      {
        over: '.board-bi-litaire .bl-target:hover rect, .board-bi-litaire .bl-target:focus rect',
        on: '.board-bi-litaire .bl-frame'
      },
    ],
  },
  {
    text: '.board-bi-litaire .bl-remove text, .board-bi-litaire .bl-button text',
    on: [
      '.board-bi-litaire .bl-remove rect',
      '.board-bi-litaire .bl-button rect',
      '.board-bi-litaire .bl-button:hover rect, .board-bi-litaire .bl-button:focus-visible rect',
      '.board-bi-litaire .bl-button[data-action="end"] rect',
    ],
  },
];

// The game in words, for unit/words.test.mjs (web-client/words.js with the server's game table): its sides
// with their letters as docs/rules writes them, and results written out: [result, sentence, names by seat
// (Ada and Ben when left out)].
export const sideLabels = ['Marble player (M)', 'Tray player (T)'];
export const resultSentences = [
  [{winner: 1, reason: 'score', detail: '21-17'}, 'Ben (Player 2) wins — 17 against 21 marbles left'],
  [{winner: null, reason: 'score', detail: '18-18'}, 'Draw — 18 marbles left in each round'],
];
