// What the tests need of this game, found by its name (harness.mjs, gameModule): its first turn by clicks
// (below), its turn's controls, its board's own tests, capture samples, its words and its sheet's texts.
// Browser test hook for the Batik board (web-client/boards/batik.js): one drop composed as a person would,
// by picking a piece from the tray, turning it, flipping it, sliding it along the rim and dropping it.
import {assert, assertEqual, kWait, turnMark, twoPlayers, waitTurnPast} from '../harness.mjs';
import {bar, importAndWatch} from '../boards-kit.mjs';
export const game = 'batik';
export const options = '';

// `page` shows the room as the seat to move, with an empty well. Returns the drop's text.
export async function playFirstTurn(page) {
  const board = page.locator('#board svg.board-batik');
  const piece = board.locator('[data-piece="TL"][data-legal="true"]');
  await piece.waitFor();
  await piece.click();
  await board.locator('[data-piece="TL"].batik-selected').waitFor();

  const controls = page.locator('#board .batik-controls');
  const drop = controls.locator('[data-control="drop"]');
  // Centred over the well at 0 degrees: turned by 45 degrees and flipped it is still centred.
  const before = await drop.getAttribute('data-drop');
  for (let i = 0; i < 3; i++) await controls.locator('[data-control="rotate-left"]').click();
  await controls.locator('[data-control="flip"]').click();
  await controls.locator('[data-control="left"]').click();
  const text = await drop.getAttribute('data-drop');
  if (!/^TL~ 45 \d+(\.\d+)?$/.test(text) || text === before) {
    throw new Error(`the composer should show a flipped TL at 45 degrees, shows "${text}" (was "${before}")`);
  }
  const mark = await turnMark(page);
  await page.locator('#board .batik-controls [data-control="drop"][data-legal="true"]').click();

  // The drop is done when the server's view has the piece resting in the well and the turn has passed (the
  // opponent's answer may already be in: a premove, a bot, so no wait for this tray to go quiet).
  await board.locator('[data-well-piece="C/TL~"]').waitFor();
  await waitTurnPast(page, mark);
  return text;
}

// The capture sound's samples (unit/social.test.mjs): a piece of the opponent falls off (its side's `lost`
// grows).
const kBefore = {sides: [{side: 'L', lost: []}, {side: 'D', lost: ['d3']}]};
const kAfter = {sides: [{side: 'L', lost: []}, {side: 'D', lost: ['d3', 'd5']}]};
export const captures = [
  {before: kBefore, after: kAfter, opponent: 'D', capture: true},
  {before: kBefore, after: kAfter, opponent: 'L', capture: false},
];

// How a turn's controls show on this board, for layout.test.mjs: `page` shows a game against the computer,
// the person to move; does what brings the controls up and returns the selectors of what must be on screen.
export async function showTurnControls(page) {
  await page.locator('#board [data-piece="TL"][data-legal="true"]').click();
  await page.locator('#board [data-ghost][visibility="visible"]').waitFor();
  return [
    '#board svg.board', '#board [data-ghost]', '#board [data-control="drop"]',
    '#board [data-control="rotate-left"]', '#board [data-control="flip"]'
  ];
}

// What puts the turn's texts on screen, for contrast-boards.test.mjs (as showTurnControls, returning nothing).
export async function showTurnTexts(page) {
  await page.locator('#board [data-piece="TL"][data-legal="true"]').click();
  await page.locator('#board [data-ghost][visibility="visible"]').waitFor();
  await page.locator('#board [data-control="drop"]').waitFor();
}

// How the board marks the last turn and what it took when the page knows only the record (as after a reload),
// for boards.test.mjs: imports a record as a room nobody sits in and waits for the marks.
export async function showLastTurn(h) {
  // Batik: the last drop.
  const batik = await importAndWatch(h, '#! BATIK\n1   C/TL 0 0/   F/SQ 0 5/\n');
  await batik.locator('#board svg.board-batik [data-last="true"][data-well-piece^="F/SQ"]').waitFor();
}

// This board's own turn handling, run by boards.test.mjs.
export const boardTests = {
  // The keyboard alone: Tab from the well reaches the tray's pieces (not the room's buttons first), Enter
  // picks one, the arrows turn and slide it, Enter drops it.
  'batik: the tray\'s pieces are picked and dropped with the keyboard alone': async (h) => {
    const {bySeat} = await twoPlayers(h, 'batik');
    const [light] = bySeat;
    const board = light.locator('#board svg.board-batik');
    await board.locator('[data-piece="TL"][data-legal="true"]').waitFor();
    await board.focus();
    const focused = () => light.evaluate(() => {
      const node = document.activeElement;
      return {piece: node?.dataset?.piece || null, id: node?.id || '', text: (node?.textContent || '').trim().slice(0, 20)};
    });
    await light.keyboard.press('Tab');
    const first = await focused();
    assert(first.piece, `Tab from the well reaches a tray piece: ${JSON.stringify(first)}`);
    let now = first;
    for (let i = 0; i < 9 && now.piece !== 'TL'; i++) {
      await light.keyboard.press('Tab');
      now = await focused();
    }
    assertEqual(now.piece, 'TL', 'Tab goes through the tray to TL');
    await light.keyboard.press('Enter');
    await board.locator('[data-piece="TL"].batik-selected').waitFor();
    assertEqual((await focused()).piece, 'TL', 'the piece picked keeps the focus');
    await light.keyboard.press('ArrowUp');
    await light.keyboard.press('ArrowLeft');
    const text = await light.locator('#board .batik-controls [data-control="drop"]').getAttribute('data-drop');
    assert(/^TL 15 /.test(text), `the arrows turned the piece: ${text}`);
    const mark = await turnMark(light);
    await light.keyboard.press('Enter');
    await board.locator('[data-well-piece^="C/TL"]').waitFor();
    await waitTurnPast(light, mark);
  },

  'batik: a drop composed during the opponent\'s turn is dropped when the turn comes': async (h) => {
    const {bySeat} = await twoPlayers(h, 'batik');
    const [light, dark] = bySeat;
    // Dark picks a square piece while Light is to drop: the controls work, the drop waits.
    await dark.locator('#board [data-piece="SQ"][data-premove="true"]').click();
    const premove = dark.locator('#board .batik-controls [data-control="drop"]');
    await premove.filter({hasText: 'Premove'}).waitFor();
    const text = await premove.getAttribute('data-drop');
    await premove.click();
    await bar(dark).filter({hasText: `Premove: ${text}`}).waitFor();
    const game = await import('./batik.mjs');
    await game.playFirstTurn(light);
    // Dark's drop follows Light's without a click: two pieces in the well, Dark's the last one.
    await light.locator('#board svg.board-batik[data-pieces="2"]').waitFor();
    await light.locator('#board svg.board-batik [data-last="true"][data-well-piece="F/SQ"]').waitFor();
    await light.waitForFunction(
        (drop) => (document.querySelector('#moves')?.innerText || '').includes(`F/${drop}/`), text,
        {timeout: kWait});
  },

  'batik: the last drop stays marked in the well, also after a reload': async (h) => {
    const {bySeat} = await twoPlayers(h, 'batik');
    const [light, dark] = bySeat;
    const game = await import('./batik.mjs');
    await game.playFirstTurn(light);
    for (const page of [light, dark]) {
      await page.locator('#board svg.board-batik [data-last="true"][data-well-piece^="C/TL"]').waitFor();
    }
    await dark.reload();
    await dark.locator('#board svg.board-batik [data-last="true"][data-well-piece^="C/TL"]').waitFor();
  },
};

// The board sheet's texts (web-client/boards/batik.css) and what each is drawn on, for unit/contrast.test.mjs
// (which says how they are written).
export const boardTexts = [
  {text: '.batik-header', on: ['page']},
  {text: '.batik-coord', on: ['page']},
  {text: '.batik-rim-label', on: ['.batik-headroom']},
  {
    text: '.batik-overlay',
    halo: true,
    on: ['.batik-headroom', 'var(--batik-glass-top)', 'var(--batik-glass-bottom)']
  },
  {text: '.batik-tray-title', on: ['.batik-tray-box', '.batik-tray-box.batik-to-move']},
  {
    text: '.batik-cell-label',
    on: [
      '.batik-tray-box',
      '.batik-tray-box.batik-to-move',
      '.batik-tray-cell[data-legal="true"] .batik-cell-bg',
      '.batik-tray-cell[data-legal="true"]:hover .batik-cell-bg',
      '.batik-tray-cell.batik-selected .batik-cell-bg',
      '.batik-tray-cell[data-premove="true"] .batik-cell-bg',
    ],
  },
  {
    text: '.batik-controls button',
    prop: 'color',
    inherits: 'var(--text)',  // the shell's button colour, when the sheet sets none
    on: [
      '.batik-controls button', '.batik-controls button:hover:not(:disabled)',
      '.batik-controls button[aria-pressed="true"]'
    ],
  },
  {
    text: '.batik-controls .batik-drop',
    prop: 'color',
    on: ['.batik-controls .batik-drop:hover:not(:disabled)']
  },
];

// The game in words, for unit/words.test.mjs (web-client/words.js with the server's game table): its sides
// with their letters as docs/rules writes them, and results written out: [result, sentence, names by seat
// (Ada and Ben when left out)].
export const sideLabels = ['Light (C)', 'Dark (F)'];
export const resultSentences = [
  [{winner: 0, reason: 'overflow', detail: ''}, 'Ada (Light) wins — a piece Ben dropped stuck out above the rim'],
  [{winner: 1, reason: 'exhausted', detail: ''}, 'Ben (Dark) wins — Ada had no piece left to drop'],
];
