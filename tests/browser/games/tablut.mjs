// What the tests need of this game, found by its name (harness.mjs, gameModule): its first turn by clicks
// (below), its turn's controls, its board's own tests, capture samples, its words and its sheet's texts.
// Browser test hook for the Tablut board (web-client/boards/tablut.js): one move by two clicks.
import {kWait, twoPlayers, version, waitVersion} from '../harness.mjs';
import {bar, importAndWatch, upTo} from '../boards-kit.mjs';
export const game = 'tablut';
export const options = '';

// `page` shows the room as the seat to move. Clicks a movable piece, then its first highlighted
// destination, and waits until the server's answer has put the piece there.
export async function playFirstTurn(page) {
  const board = page.locator('#board svg.board-tablut');
  const piece = board.locator('[data-piece][data-movable="true"]').first();
  await piece.waitFor();
  const from = await piece.getAttribute('data-piece');
  await piece.click();
  await board.locator(`[data-piece="${from}"].selected`).waitFor();
  const target = board.locator('[data-square][data-legal="true"]').first();
  await target.waitFor();
  const to = await target.getAttribute('data-square');
  await target.click();
  // The move is done when the server's event has moved the piece and the turn has passed.
  await board.locator(`[data-piece="${to}"]`).waitFor();
  await board.locator(`[data-piece="${from}"]`).waitFor({state: 'detached'});
  await board.locator('[data-piece][data-movable="true"]').first().waitFor({state: 'detached'});
  return `${from} ${to}`;
}

// The capture sound's samples (unit/social.test.mjs): views before and after a play, the opponent's side, and
// whether the board's pieces_left makes it a capture (a lower count of the opponent's pieces).
export const captures = [
  {before: {counts: {A: 16, D: 9}}, after: {counts: {A: 15, D: 9}}, opponent: 'A', capture: true},
  {before: {counts: {A: 16, D: 9}}, after: {counts: {A: 16, D: 9}}, opponent: 'A', capture: false},
  // The mover's own pieces are not the opponent's.
  {before: {counts: {A: 16, D: 9}}, after: {counts: {A: 16, D: 8}}, opponent: 'A', capture: false},
];

// How a turn's controls show on this board, for layout.test.mjs: `page` shows a game against the computer,
// the person to move; does what brings the controls up and returns the selectors of what must be on screen.
export async function showTurnControls(page) {
  const piece = page.locator('#board [data-piece][data-movable="true"]').first();
  await piece.click();
  await page.locator('#board [data-square][data-legal="true"]').first().waitFor();
  return ['#board svg.board', '#board .turn-bar', '#board [data-square][data-legal="true"] >> nth=0'];
}

// What puts the turn's texts on screen, for contrast-boards.test.mjs (as showTurnControls, returning nothing).
export async function showTurnTexts(page) {
  await page.locator('#board [data-piece][data-movable="true"]').first().click();
  await page.locator('#board [data-square][data-legal="true"]').first().waitFor();
}

// How the board marks the last turn and what it took when the page knows only the record (as after a reload),
// for boards.test.mjs: imports a record as a room nobody sits in and waits for the marks.
export async function showLastTurn(h) {
  // Tablut: the Defenders' e7 i7 took i8: the move marked, the captured piece crossed out where it stood.
  const tablut = await importAndWatch(h, upTo('tablut/sample-escape.txt', '3 '));
  await tablut.locator('#board [data-captured="i8"]').waitFor();
  for (const sq of ['e7', 'i7']) await tablut.locator(`#board [data-square="${sq}"].last`).waitFor();
  await h.screenshot(tablut, 'marks-tablut');
}

// This board's own turn handling, run by boards.test.mjs.
export const boardTests = {
  'tablut: a premove picked during the opponent\'s turn is played when the turn comes; Escape cancels one':
      async (h) => {
        const {bySeat} = await twoPlayers(h, 'tablut');
        const [attackers, defenders] = bySeat;
        const board = (page) => page.locator('#board svg.board-tablut');
        await board(defenders).locator('[data-piece="e3"][data-premovable="true"]').waitFor();

        // A premove cancelled with Escape.
        await board(defenders).locator('[data-piece="e3"]').click();
        await board(defenders).locator('[data-square="a3"][data-premove-target="true"]').click();
        await bar(defenders).filter({hasText: 'Premove'}).waitFor();
        await defenders.keyboard.press('Escape');
        await bar(defenders).filter({hasText: 'Premove: e3'}).waitFor({state: 'detached'});

        // The sample game's first two moves: e8 i8, then the defenders' premove e3 a3.
        await board(defenders).locator('[data-piece="e3"]').click();
        await board(defenders).locator('[data-square="a3"][data-premove-target="true"]').click();
        await bar(defenders).filter({hasText: 'Premove: e3 a3'}).waitFor();
        const before = await version(attackers);
        await board(attackers).locator('[data-piece="e8"]').click();
        await board(attackers).locator('[data-square="i8"][data-legal="true"]').click();
        // The premove goes as soon as the defenders' turn comes: two turns, no click in between.
        await waitVersion(attackers, before + 2);
        await attackers.waitForFunction(
            () => /^1\s+A\/e8 i8\/\s+D\/e3 a3\//m.test(document.querySelector('#moves')?.innerText || ''),
            null, {timeout: kWait});
        // The attackers see the defenders' move marked, also after a reload.
        await board(attackers).locator('[data-square="a3"].last').waitFor();
        await attackers.reload();
        await board(attackers).locator('[data-square="a3"].last').waitFor();
        await board(attackers).locator('[data-square="e3"].last').waitFor();
        await h.screenshot(attackers, 'boards-tablut-last-move-reloaded');
      },
};

// The board sheet's texts (web-client/boards/tablut.css) and what each is drawn on, for unit/contrast.test.mjs
// (which says how they are written).
export const boardTexts = [{text: '.board-tablut .coord', on: ['.board-tablut .frame']}];

// The game in words, for unit/words.test.mjs (web-client/words.js with the server's game table): its sides
// with their letters as docs/rules writes them, and results written out: [result, sentence, names by seat
// (Ada and Ben when left out)].
export const sideLabels = ['Attackers (A)', 'Defenders (D)'];
export const resultSentences = [
  [{winner: 1, reason: 'resign', detail: ''}, 'Ben (Defenders) wins — Ada resigned'],
  [{winner: 1, reason: 'escape', detail: ''}, 'Ben (Defenders) wins — the king escaped to a corner'],
  [{winner: 0, reason: 'capture', detail: ''}, 'Ada (Attackers) wins — the king was captured'],
  [{winner: 0, reason: 'time', detail: ''}, 'Ada (Attackers) wins on time'],
  [{winner: 0, reason: 'blocked', detail: ''}, 'Ada (Attackers) wins — Ben had no legal move'],
  [{winner: null, reason: 'agreement', detail: ''}, 'Draw by agreement'],
  [{winner: null, reason: 'repetition', detail: ''},
   'Draw by repetition — the same position for the third time'],
  [{winner: null, reason: 'aborted', detail: ''}, 'Aborted'],
  [{winner: null, reason: 'aborted', detail: 'no first move'}, 'Aborted — no first move'],
  // Without names the sides speak: "The Defenders (D) win".
  [{winner: 1, reason: 'resign'}, 'The Defenders (D) win — the Attackers resigned', []],
];
