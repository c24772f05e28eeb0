// Bi-litaire's hook for the browser tests: one whole turn played by clicks on the board, as a person would.
// Each action is tried first (the board shows it); the bar's Confirm sends the turn.
import {turnMark, waitTurnPast} from '../harness.mjs';
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
