// Browser test hook for the Batik board (web-client/boards/batik.js): one drop composed as a person would,
// by picking a piece from the tray, turning it, flipping it, sliding it along the rim and dropping it.
import {turnMark, waitTurnPast} from '../harness.mjs';
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
