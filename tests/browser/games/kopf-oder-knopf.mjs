// Kopf oder Knopf in the browser tests: plays one whole turn through the board, as a person would.
import {turnMark, waitTurnPast} from '../harness.mjs';
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

