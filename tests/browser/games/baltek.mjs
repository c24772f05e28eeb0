// Browser test hook for the Baltek board (web-client/boards/baltek.js): a turn composed action by action,
// as a person plays it: a kick (the ball, then a highlighted target), a run (a footballer, then a
// highlighted square), then the shell's "End turn" button for the point left over.
import {turnMark, waitTurnPast} from '../harness.mjs';
export const game = 'baltek';
export const options = '';

// Resolves once the room has applied an event past `version` (each action is its own event).
async function waitPast(page, version) {
  await page.waitForFunction((v) => Number(document.querySelector('#room')?.dataset.version) > v, version, {
    timeout: 20000,
  });
}

async function roomVersion(page) {
  return Number(await page.locator('#room').getAttribute('data-version'));
}

// `page` shows the room as the seat to move. Returns the actions played, e.g. ['@ g3', 'd3 e4'].
export async function playFirstTurn(page) {
  const board = page.locator('#board svg.board-baltek');
  const played = [];

  // 1. Kick: the ball of the kickoff is at the feet of our captain.
  await board.locator('[data-piece="ball"].selectable').waitFor();
  let version = await roomVersion(page);
  await board.locator('[data-piece="ball"]').click();
  const kick = board.locator('[data-square][data-legal="true"][data-action^="@"]').first();
  await kick.waitFor();
  played.push(await kick.getAttribute('data-action'));
  await kick.click();
  await waitPast(page, version);

  // 2. Run: a footballer that may still run, then one of its highlighted squares.
  version = await roomVersion(page);
  const runner = board.locator('[data-square][data-selectable="true"]').first();
  await runner.waitFor();
  await runner.click();
  const run = board.locator('[data-square][data-legal="true"]:not([data-action*="*"])').first();
  await run.waitFor();
  played.push(await run.getAttribute('data-action'));
  await run.click();
  await waitPast(page, version);

  // 3. One point is left: end the turn through the shell's button.
  const endTurn = page.locator('#end-turn');
  await endTurn.waitFor({ state: 'visible' });
  const mark = await turnMark(page);
  await endTurn.click();
  await waitTurnPast(page, mark);
  return played;
}
