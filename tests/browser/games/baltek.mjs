// Browser test hook for the Baltek board (web-client/boards/baltek.js): a turn composed action by action,
// as a person plays it: a kick (the ball, then a highlighted target), a run (a footballer, then a
// highlighted square), then the bar's Confirm for the whole turn (the point left over is given up).
// Each action is tried on the server first (the bar lists it); against a server without `try` each one is
// played at once instead, and the same clicks work.
import {turnMark, waitTurnPast} from '../harness.mjs';
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
